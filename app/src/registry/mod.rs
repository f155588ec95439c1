//! The one registry of solvers. [`SOLVERS`] has a row per solver (its
//! name, when `solve` picks it by default, the run flags it reads, how to
//! run it); the row drives `--solver`'s parsing and help, the default
//! choice, the refusal of flags a solver does not read, and the dispatch,
//! for `solve`, `explain`, `plot`, `play` and `simulate` alike.
//!
//! Adding a solver: its algorithm in `galac_solvers`, its flags and its run
//! in a module here (a [`RunTree`] function returning [`Solved`]), and its
//! row (plus, with flags of its own, a field of [`Flags`]) in this file.

pub mod cfr;
mod do_check;
mod do_curve;
pub mod double_oracle;
pub mod harness;
pub mod lemke;
pub mod lp;
pub mod maxn;
pub mod oracle_default;
pub mod solved;
pub mod vcfr;

use galac_runtime::tree::{NodeView, Tree};
use galac_solvers::cfr::Variant;

use crate::LimitArgs;
pub use oracle_default::{first_move_seen_in_part, unseeded_lp_backend, LP_MAX_NODES, SEEDED_TREE_MAX_NODES};
pub use solved::{with_hint, Context, Solved};

/// The flags of every solver, each group read by the rows that list its
/// flags (a group's flags given to another solver are refused:
/// [`refused_flag`]).
#[derive(clap::Args, Debug, Clone)]
pub struct Flags {
    #[command(flatten)]
    pub stop: harness::StopArgs,
    #[command(flatten)]
    pub lp: lp::LpArgs,
    #[command(flatten)]
    pub maxn: maxn::MaxnArgs,
    #[command(flatten)]
    pub cfr: cfr::CfrArgs,
    #[command(flatten)]
    pub double_oracle: double_oracle::DoArgs,
}

impl Flags {
    /// Every flag at its default, as the command line gives them.
    pub fn defaults() -> Flags {
        crate::defaults()
    }

    /// Checks the flags every run shares before any work starts.
    pub fn validate(&self) -> Result<(), String> {
        self.stop.validate()?;
        self.cfr.validate()
    }
}

/// Solves a built tree.
pub type RunTree = fn(&Flags, &Tree, &Context) -> Result<Solved, String>;

/// How a solver runs.
pub enum Run {
    /// On the built tree.
    Tree(RunTree),
    /// On the game itself, never building the whole tree (the double
    /// oracle: [`double_oracle::run`] on the command line,
    /// [`double_oracle::solve`] for a library caller).
    Game,
}

/// A game's properties that decide which solvers apply.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub players: usize,
    /// Every leaf's payoffs sum to the same total.
    pub constant_sum: bool,
    /// No information set holds two nodes.
    pub perfect: bool,
    /// Two players, every leaf zero-sum, and each player's first
    /// information set names one hand of two cards of the standard deck
    /// ([`hand_label`]): a hand game, which vector CFR solves with a vector
    /// of hands per public node where the LP's sequence form has a row per
    /// hand and history.
    pub hands: bool,
}

impl Shape {
    pub fn of(tree: &Tree) -> Shape {
        let total = leaf_total(tree);
        Shape {
            players: tree.n_players as usize,
            constant_sum: total.is_some(),
            perfect: galac_solvers::maxn::shared_infoset(tree).is_none(),
            hands: tree.n_players == 2 && total == Some(0) && first_sets_name_hands(tree),
        }
    }
}

/// The total every leaf's payoffs sum to, if they all sum to the same.
fn leaf_total(tree: &Tree) -> Option<i128> {
    let mut total: Option<i128> = None;
    for node in tree.nodes() {
        if tree.node(node) == NodeView::Terminal {
            let sum: i128 = tree.payoffs(node).iter().map(|x| i128::from(*x)).sum();
            if *total.get_or_insert(sum) != sum {
                return None;
            }
        }
    }
    total
}

/// Whether a private state's label names one hand of two distinct cards of
/// the standard deck (as labels show cards, `card(rank, suit)`).
pub fn hand_label(label: &str) -> bool {
    let cards = galac_runtime::labels::cards_shown(label);
    let standard = |&(rank, suit): &(i64, i64)| (0..13).contains(&rank) && (0..4).contains(&suit);
    cards.len() == 2 && cards[0] != cards[1] && cards.iter().all(standard)
}

/// Whether each player's first information set on the play that takes
/// every move's and outcome's first child names a hand ([`hand_label`]).
fn first_sets_name_hands(tree: &Tree) -> bool {
    let mut named = vec![None; tree.n_players as usize];
    let mut node = galac_runtime::ids::NodeId(0);
    loop {
        match tree.node(node) {
            NodeView::Terminal => break,
            NodeView::Chance => {}
            NodeView::Decision { player, infoset } => {
                named[player.index()].get_or_insert_with(|| hand_label(tree.infoset_label(infoset)));
                if named.iter().all(Option::is_some) {
                    break;
                }
            }
        }
        node = tree.children(node).start;
    }
    named.iter().all(|n| *n == Some(true))
}

/// Why a solver fits a game of this shape, or `None`.
pub type Fits = fn(&Shape) -> Option<String>;

/// Whether a flag was given.
pub type Given = fn(&Flags) -> bool;

/// One solver.
pub struct SolverRow {
    /// Its `--solver` name.
    pub name: &'static str,
    /// Its line in `--solver`'s help.
    pub about: &'static str,
    /// When `solve` picks it without `--solver`: its rank among the rows
    /// that fit (lowest first) and, for a game of this shape, why it fits
    /// (`None`: it does not).
    pub default: Option<(u8, Fits)>,
    /// The run flags ([`RUN_FLAGS`]) it reads; the others are refused.
    pub reads: &'static [&'static str],
    pub run: Run,
}

const CFR_FLAGS: &[&str] = &[
    "--iterations",
    "--target-exploitability",
    "--time-limit",
    "--check-every",
    "--checkpoint",
    "--resume",
    "--updates",
    "--distributed",
];

/// The solvers, in `--solver`'s help order.
pub static SOLVERS: &[SolverRow] = &[
    SolverRow {
        name: "lp",
        about: "The sequence-form linear program (two-player zero-sum games).",
        default: Some((1, |s| {
            (s.players == 2 && s.constant_sum).then(|| "two players, zero-sum (or constant-sum) payoffs".into())
        })),
        reads: &[],
        run: Run::Tree(|f, tree, cx| lp::run(&f.lp, tree, cx)),
    },
    SolverRow {
        name: "maxn",
        about: "max^n (perfect-information games, any number of players).",
        default: Some((3, |s| s.perfect.then(|| format!("{} player(s), perfect information", s.players)))),
        reads: MAXN_STATE_FLAGS,
        run: Run::Tree(|f, tree, cx| maxn::run(&f.maxn, tree, cx.limits)),
    },
    SolverRow {
        name: "lemke",
        about: "Lemke's algorithm on the sequence form (two-player games, any payoffs).",
        default: Some((2, |s| (s.players == 2).then(|| "two players, general-sum payoffs".into()))),
        reads: &[],
        run: Run::Tree(|_, tree, cx| lemke::run(tree, cx)),
    },
    SolverRow {
        name: "cfr",
        about: "Vanilla CFR (regret matching, uniform average; any number of players).",
        default: None,
        reads: CFR_FLAGS,
        run: Run::Tree(|f, tree, cx| cfr::run(&f.cfr, &f.stop, Variant::Cfr, tree, cx)),
    },
    SolverRow {
        name: "cfr+",
        about: "CFR+ (regret matching+, alternating updates, linear average).",
        default: Some((4, |s| {
            Some(format!(
                "{} player(s) and imperfect information: CFR+ (max^n needs perfect information, the LP and Lemke \
                 two players)",
                s.players
            ))
        })),
        reads: CFR_FLAGS,
        run: Run::Tree(|f, tree, cx| cfr::run(&f.cfr, &f.stop, Variant::CfrPlus, tree, cx)),
    },
    SolverRow {
        name: "dcfr",
        about: "Discounted CFR (--alpha, --beta, --gamma).",
        default: None,
        reads: CFR_FLAGS,
        run: Run::Tree(|f, tree, cx| {
            let Flags { cfr: c, stop, .. } = f;
            cfr::run(c, stop, Variant::Dcfr { alpha: c.alpha, beta: c.beta, gamma: c.gamma }, tree, cx)
        }),
    },
    SolverRow {
        name: "lcfr",
        about: "Linear CFR.",
        default: None,
        reads: CFR_FLAGS,
        run: Run::Tree(|f, tree, cx| cfr::run(&f.cfr, &f.stop, Variant::Lcfr, tree, cx)),
    },
    SolverRow {
        name: "pcfr+",
        about: "Predictive CFR+ (average weight t^gamma, --gamma).",
        default: None,
        reads: CFR_FLAGS,
        run: Run::Tree(|f, tree, cx| cfr::run(&f.cfr, &f.stop, Variant::PcfrPlus { gamma: f.cfr.gamma }, tree, cx)),
    },
    SolverRow {
        name: "do",
        about: "The sequence-form double oracle (two-player zero-sum games): exact, from a restricted game \
                explored lazily, without the full tree.",
        default: None,
        reads: &["--time-limit"],
        run: Run::Game,
    },
    SolverRow {
        name: "vcfr",
        about: "Public-state vector CFR, DCFR with postflop-solver's parameters (two players, zero-sum, every \
                move seen by both, private information only from chance deals).",
        default: Some((0, |s| {
            s.hands.then(|| {
                "two players, zero-sum, each dealt a two-card hand: vector CFR walks the public tree once with a \
                 vector of hands, where the LP's sequence form grows with every hand and history (a game with a \
                 move not seen by both is refused: name `--solver lp`)"
                    .into()
            })
        })),
        reads: VCFR_FLAGS,
        run: Run::Tree(|f, tree, cx| vcfr::run(&f.cfr, &f.stop, galac_solvers::vector::POSTFLOP_DCFR, tree, cx)),
    },
    SolverRow {
        name: "vcfr+",
        about: "Public-state vector CFR+ (the games vcfr solves).",
        default: None,
        reads: VCFR_FLAGS,
        run: Run::Tree(|f, tree, cx| vcfr::run(&f.cfr, &f.stop, Variant::CfrPlus, tree, cx)),
    },
];

const VCFR_FLAGS: &[&str] = &["--iterations", "--target-exploitability", "--time-limit", "--check-every", "--compress"];

/// A solver named on the command line.
pub type SolverId = &'static SolverRow;

impl std::fmt::Debug for SolverRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for SolverRow {
    fn eq(&self, other: &SolverRow) -> bool {
        self.name == other.name
    }
}

/// `--solver`'s parser: the rows' names, each with its help line.
pub fn parser() -> impl clap::builder::TypedValueParser<Value = SolverId> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = SOLVERS.iter().map(|row| PossibleValue::new(row.name).help(row.about));
    PossibleValuesParser::new(values).map(|name| by_name(&name).unwrap_or(&SOLVERS[0]))
}

/// The row named `name`.
pub fn by_name(name: &str) -> Option<SolverId> {
    SOLVERS.iter().find(|row| row.name == name)
}

/// The solver `solve` picks for a game of this shape, and why.
pub fn default_for(shape: &Shape) -> (SolverId, String) {
    let mut fits: Vec<(u8, SolverId, String)> = SOLVERS
        .iter()
        .filter_map(|row| {
            let (rank, why) = row.default?;
            why(shape).map(|why| (rank, row, why))
        })
        .collect();
    fits.sort_by_key(|(rank, _, _)| *rank);
    // The CFR+ row fits every game (its `default` never says no).
    let (_, row, why) = fits.into_iter().next().expect("internal error, please report: no default solver fits");
    (row, why)
}

/// Vector CFR derives its public game from the rules, never building the
/// tree (`vector::from_game`), for trees estimated above this many nodes,
/// and for a hand game (of over [`SEEDED_DO_NODES`]) whose private values the
/// compiler proves steer only the payoff (`Game::representative`: one
/// deal walks the public tree), which is cheaper than its tree in time and
/// memory ([`vcfr_on_rules`]; BENCHMARKS.md, Hold'em). Below it a game
/// walked deal by deal is far faster and smaller on its tree
/// (docs/perf/vector-cfr.md, "The public game without the tree"). The bound is
/// `--max-nodes`'s default, so a tree the default limits allow is built;
/// the turn spot (about 10^9 nodes) has only the rules path.
pub const VCFR_TREELESS_NODES: f64 = 200_000_000.0;

/// Whether vector CFR on `game`, whose tree is estimated at `nodes`,
/// derives its public game from the rules without the tree (see
/// [`VCFR_TREELESS_NODES`]): `solve --solver vcfr` and the default alike.
/// Under [`SEEDED_DO_NODES`] every tree is built (a fraction of a second).
pub fn vcfr_on_rules<G: galac_runtime::game::Game>(game: &G, nodes: f64) -> bool {
    nodes >= VCFR_TREELESS_NODES || (nodes >= SEEDED_DO_NODES && deals_hands(game) && game.representative().is_ok())
}

/// Trees estimated at this many nodes or more (and under [`LP_MAX_NODES`])
/// go to the double oracle seeded by [`SEED_CFR_ITERATIONS`] of CFR+ on the
/// built tree instead of the full LP when no solver is named. Measured
/// (docs/perf/double-oracle.md, "Choosing by default"; user CPU seconds,
/// oracle against LP) it was faster on liar's dice (estimated at 67,172
/// nodes, 294,883 built: 1.2 against 2.7), 5-mark phantom tic-tac-toe (1.9
/// against 10.2), the depth-5 search game (1.7 against 2.2) and 13-rank
/// Leduc (20.3 against 26.1), slower on 6-rank Leduc (2.1 against 1.9) and
/// 6-card goofspiel (35.7 against 13.1). Under it (Leduc, 5-card goofspiel,
/// 4-mark phantom tic-tac-toe: estimates of 11,000 to 27,000) the LP takes
/// a fraction of a second and the oracle up to 3x that. A game whose LP
/// over the public tree is small goes to the full LP instead
/// ([`public_lp_fits`]; 13-rank Leduc: 4.4 s of CPU in all).
pub const SEEDED_DO_NODES: f64 = 50_000.0;

/// CFR+ iterations of the seed when the oracle is the default below
/// [`LP_MAX_NODES`].
pub const SEED_CFR_ITERATIONS: u64 = 100;

/// A solver `solve` picks before building any tree.
#[derive(Debug)]
pub struct Chosen {
    pub row: SolverId,
    /// Why ("chosen because: ...").
    pub why: String,
    /// The double oracle's `--warm-start-cfr`, if it is seeded.
    pub warm_start_cfr: Option<u64>,
}

/// The solver `solve` picks before building any tree, and why: for a
/// two-player game whose tree Knuth's estimate puts above [`LP_MAX_NODES`]
/// and whose sampled leaves all pay the same total, vector CFR on the game
/// (no tree) when each player is dealt a two-card hand and the estimate is
/// above [`VCFR_TREELESS_NODES`] or one representative deal walks the
/// public game ([`vcfr_on_rules`]; another hand game builds its tree,
/// where [`default_for`] picks vector CFR), else the double oracle (seeded
/// by CFR+ on the built tree under [`SEEDED_TREE_MAX_NODES`] when the
/// opponent sees the first move only in part, [`first_move_seen_in_part`];
/// from the paper's start otherwise);
/// from [`SEEDED_DO_NODES`] to [`LP_MAX_NODES`], the double oracle seeded
/// by CFR+ (which builds the tree) unless the game's LP over the public
/// tree is small ([`public_lp_fits`]); `None` (build the tree, then
/// [`default_for`]) for any other game. Whether the payoffs are zero-sum
/// is known for sure only from every leaf, so the oracle checks it as it
/// explores.
pub fn default_before_tree<G: galac_runtime::game::Game>(game: &G) -> Option<Chosen> {
    if game.info().players.len() != 2 {
        return None;
    }
    // Leaves the plays met that pay different totals rule the oracle out
    // (a game whose sampled leaves agree may still not be zero-sum: the
    // oracle then says so as it explores).
    let guess = galac_runtime::tree::estimate(game, f64::INFINITY)?;
    if guess.nodes < SEEDED_DO_NODES || guess.sums_differ {
        return None;
    }
    let hands = deals_hands(game);
    if hands && vcfr_on_rules(game, guess.nodes) {
        let why = match game.representative() {
            Ok(proof) => format!("one representative deal walks the public game ({proof})"),
            Err(_) => format!("a tree estimated at over {} nodes", VCFR_TREELESS_NODES as u64),
        };
        let row = by_name("vcfr")?;
        let why = format!(
            "two players, each dealt a two-card hand, and {why}: vector CFR on the public game derived from the \
             rules, without the tree (a game with a move not seen by both is refused: name `--solver do`)"
        );
        return Some(Chosen { row, why, warm_start_cfr: None });
    }
    if guess.nodes < LP_MAX_NODES {
        if hands || public_lp_fits(game, guess.nodes) {
            return None;
        }
        let why = format!(
            "two players and a tree estimated at {:.0} nodes, from {} to {}: the double oracle seeded by {} \
             iterations of CFR+ on the tree, with the LP engine the full LP would use, was faster than the full LP \
             on most games of this size (name `--solver lp` for the full LP)",
            guess.nodes, SEEDED_DO_NODES as u64, LP_MAX_NODES as u64, SEED_CFR_ITERATIONS
        );
        return Some(Chosen { row: by_name("do")?, why, warm_start_cfr: Some(SEED_CFR_ITERATIONS) });
    }
    if hands {
        return None;
    }
    let row = by_name("do")?;
    if guess.nodes < SEEDED_TREE_MAX_NODES && first_move_seen_in_part(game) {
        let why = format!(
            "two players, a tree estimated at {:.0} nodes (over {}, under {}), and a move the opponent sees only in \
             part: the double oracle from the paper's start plays the first action where its restricted game is \
             silent, which tells the opponent the unseen part, and did not converge on such a game (blind \
             tic-tac-toe); seeded by {} iterations of CFR+ on the tree, whose average it plays there instead, it \
             did (name `--solver do` for the oracle from the paper's start)",
            guess.nodes, LP_MAX_NODES as u64, SEEDED_TREE_MAX_NODES as u64, SEED_CFR_ITERATIONS
        );
        return Some(Chosen { row, why, warm_start_cfr: Some(SEED_CFR_ITERATIONS) });
    }
    let why = format!(
        "two players and a tree estimated at {:.0} nodes, over {}, more than the LP is given: the double oracle \
         explores only the part of the game its equilibrium needs (name `--solver lp` to build the tree)",
        guess.nodes, LP_MAX_NODES as u64
    );
    Some(Chosen { row, why, warm_start_cfr: None })
}

/// Whether the LP over the game's public tree (`galac_solvers::lp_public`,
/// from its rules without a tree) has at most a third as many nonzeros as
/// the tree estimated at `nodes` has nodes: then the tree is built for the
/// full LP, which the `lp` row solves in that form. 13-rank Leduc (estimated
/// at about 10^6 nodes, 203,558 nonzeros) took 2 s of CPU in the LP where the
/// seeded double oracle took 19.2 s; liar's dice (its leaves payoff
/// matrices: 141,453 nonzeros, estimated at 67,172 nodes) stays with the
/// oracle (docs/perf/lp.md, "The public LP").
fn public_lp_fits<G: galac_runtime::game::Game>(game: &G, nodes: f64) -> bool {
    match galac_solvers::vector::from_game(game) {
        Ok(derived) => 3.0 * galac_solvers::lp_public::PublicLp::new(&derived.game).size().nonzeros as f64 <= nodes,
        Err(_) => false,
    }
}

/// Whether each player's first information set on the play that takes
/// every move's and outcome's first child names a hand ([`hand_label`]):
/// [`first_sets_name_hands`] before the tree is built.
fn deals_hands<G: galac_runtime::game::Game>(game: &G) -> bool {
    use galac_runtime::game::Node;
    let mut info = galac_runtime::info::InfoInterner::new();
    let Ok(mut state) = game.root() else { return false };
    let mut named = vec![None; game.info().players.len()];
    loop {
        match galac_runtime::game::advance_out_of_line(game, &mut state, &mut info) {
            Ok(Node::Chance { n_outcomes }) if n_outcomes > 0 => {}
            Ok(Node::Decision { player, infoset, n_actions }) if n_actions > 0 => {
                named[player as usize].get_or_insert_with(|| hand_label(&game.infoset_label(&info, infoset)));
                if named.iter().all(Option::is_some) {
                    break;
                }
            }
            _ => break,
        }
        if game.apply(&mut state, 0, &mut info).is_err() {
            return false;
        }
    }
    named.iter().all(|n| *n == Some(true))
}

/// The run flags: each with whether it was given.
pub const RUN_FLAGS: &[(&str, Given)] = &[
    ("--iterations", |f| f.cfr.iterations.is_some()),
    ("--target-exploitability", |f| f.stop.target_exploitability.is_some()),
    ("--time-limit", |f| f.stop.time_limit.is_some()),
    ("--check-every", |f| f.cfr.check_every != 0),
    ("--checkpoint", |f| f.cfr.checkpoint.is_some()),
    ("--resume", |f| f.cfr.resume.is_some()),
    ("--updates", |f| f.cfr.updates.is_some()),
    ("--distributed", |f| f.cfr.distributed),
    ("--compress", |f| f.cfr.compress),
    ("--depth", |f| f.maxn.depth.is_some()),
    ("--transpositions", |f| f.maxn.transpositions),
];

/// The flags that make max^n search the game's states instead of a built
/// tree; the search reads no other run flag.
pub const MAXN_STATE_FLAGS: &[&str] = &["--depth", "--transpositions"];

/// The first run flag given that `row` does not read, if any.
pub fn refused_flag(row: SolverId, flags: &Flags) -> Option<&'static str> {
    refused_by(row.reads, flags)
}

/// The first run flag given that is not in `reads`, if any.
pub fn refused_by(reads: &[&str], flags: &Flags) -> Option<&'static str> {
    RUN_FLAGS.iter().find(|(flag, given)| given(flags) && !reads.contains(flag)).map(|(flag, _)| *flag)
}

/// The solvers that read `flag`, for messages ("cfr, cfr+, ..."), and the
/// one to suggest (a default, else the first).
pub fn readers(flag: &str) -> (String, &'static str) {
    let rows: Vec<SolverId> = SOLVERS.iter().filter(|row| row.reads.contains(&flag)).collect();
    let names: Vec<&str> = rows.iter().map(|row| row.name).collect();
    let suggest = rows.iter().find(|row| row.default.is_some()).or(rows.first()).map_or("", |row| row.name);
    let list = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    };
    (list, suggest)
}

/// Solves `tree` with the solver `solve` picks for it by default, every
/// flag at its default: the answer `explain`, `plot`, `play` and
/// `simulate` use when no strategy file is given.
pub fn solve_by_default(tree: &Tree, limits: &LimitArgs) -> Result<Solved, String> {
    let (row, _) = default_for(&Shape::of(tree));
    let Run::Tree(run) = row.run else {
        return Err(format!("`{}` does not solve a built tree", row.name));
    };
    run(&Flags::defaults(), tree, &Context { limits, curve: None, job: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_parse_and_every_row_is_named_once() {
        let flags = Flags::defaults();
        assert_eq!(flags.cfr.check_every, 0);
        let mut names: Vec<&str> = SOLVERS.iter().map(|row| row.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SOLVERS.len());
        assert_eq!(SOLVERS[4].name, "cfr+", "default_for falls back on it");
        for (flag, _) in RUN_FLAGS {
            assert!(SOLVERS.iter().any(|row| row.reads.contains(flag)), "{flag} is read by no solver");
        }
    }

    #[test]
    fn every_shape_has_a_default() {
        for players in 1..5 {
            for constant_sum in [false, true] {
                for perfect in [false, true] {
                    for hands in [false, true] {
                        let shape = Shape { players, constant_sum, perfect, hands };
                        let (row, why) = default_for(&shape);
                        assert!(!why.is_empty(), "{shape:?}: {}", row.name);
                        assert!(matches!(row.run, Run::Tree(_)));
                        assert_eq!(row.name == "vcfr", hands, "{shape:?}");
                    }
                }
            }
        }
    }
}
