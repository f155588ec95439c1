//! `play` on a game whose tree is too large to build: the game `solve` runs
//! by vector CFR on its public game without the tree (a hold'em turn spot),
//! played on that public game, derived from the rules
//! (`galac_solvers::vector::from_game`).
//!
//! Each game draws the deal as the public game gives it (each player's
//! private state, a hand, with probability `w0(i) * w1(j)` over the pairs
//! that share no card), then walks the public tree: a chance node draws an
//! outcome among those the two states allow (the river: no card of either
//! hand), a person chooses their seat's moves as in `play`, the other seat
//! plays the average strategy of vector CFR run on the fly (`solved`,
//! `DEFAULT_ITERATIONS` of DCFR) or uniformly, and a leaf pays the public
//! game's payoff of the two states. The conversation, the scripted input
//! and the JSON records are `play`'s.

use std::io::{BufRead, IsTerminal};

use galac_runtime::game::Game;
use galac_runtime::rng::SplitMix64;
use galac_solvers::vector::game::{Payoff, PublicGame, PublicNode, Removal};

use crate::cards::CardStyle;
use crate::play::{clock_seed, read_choice, say, PlayArgs, Scores, Stop};
use crate::strategies::Source;
use crate::Format;

/// The estimate of the game's tree when the tree is not built: it is
/// estimated above `--max-nodes` (the build would stop there after
/// minutes), no saved tree is given, and `solve` runs the game by vector
/// CFR on its public game without the tree. Then `play` and `plot hands`
/// run on the public game and the other commands that read the tree
/// refuse the game at once.
pub fn beyond_tree<G: Game>(game: &G, limits: &crate::LimitArgs) -> Option<f64> {
    if limits.tree.is_some() {
        return None;
    }
    crate::registry::default_before_tree(game).filter(|c| c.row.name.starts_with("vcfr"))?;
    let estimate = galac_runtime::tree::estimate(game, 1e15)?.nodes;
    (estimate > limits.max_nodes as f64).then_some(estimate)
}

/// Why `command` cannot run on the game: its tree is not built
/// ([`beyond_tree`]); `None`: the command goes on to build the tree.
pub fn refused_without_tree<G: Game>(game: &G, limits: &crate::LimitArgs, command: &str) -> Option<String> {
    let estimate = beyond_tree(game, limits)?;
    Some(format!(
        "`{command}` reads the game's tree, estimated at about {} nodes, more than --max-nodes ({}); `solve` solves \
         this game on its public game without the tree (and shows the first decisions hand by hand), `play`, \
         `explain` and `plot hands` run there; raise --max-nodes and --max-memory to build the tree",
        indicatif::HumanCount(estimate as u64),
        limits.max_nodes
    ))
}

/// Runs `play` on the public game, reading moves from standard input;
/// returns the exit status (as `play`'s).
pub fn run<G: Game>(game: &G, args: &PlayArgs) -> i32 {
    let stdin = std::io::stdin();
    let scripted = !stdin.is_terminal();
    run_with(game, args, &mut stdin.lock(), scripted, &mut Vec::new())
}

/// One game played: the deal, the public moves and outcomes, in order, and
/// the payoffs.
#[derive(Clone, Debug)]
pub struct Played {
    pub trail: Vec<String>,
    pub payoffs: [i64; 2],
}

/// [`run`] reading moves from `input` (`scripted`: not a person at a
/// terminal, so moves are echoed and a wrong one is an error), each game
/// played also pushed on `played`.
pub fn run_with<G: Game>(
    game: &G,
    args: &PlayArgs,
    input: &mut impl BufRead,
    scripted: bool,
    played: &mut Vec<Played>,
) -> i32 {
    let info = game.info();
    let seat = match args.seat.as_deref().map_or(Ok(0), |s| crate::strategies::seat(&info.players, s)) {
        Ok(s) => s as usize,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let all_human = args.against == "human";
    let source = Source::parse(&args.against);
    if !all_human && matches!(source, Source::BestResponse(_)) {
        eprintln!(
            "error: `--against {}`: this game's tree is too large to build, so it is played on its public game \
             (as `solve` solves it), against `solved`, `uniform`, a file written by `solve --out` or `human`; a \
             best response is computed on the tree",
            args.against
        );
        return 2;
    }
    if !args.limits.quiet {
        eprintln!(
            "note: the game's tree is too large to build: it is played on its public game, derived from the rules"
        );
    }
    let derived = match galac_solvers::vector::from_game(game) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let public = &derived.game;
    let made = match &source {
        _ if all_human => Ok((Strategy::uniform(public), None)),
        Source::Uniform => Ok((Strategy::uniform(public), None)),
        Source::File(path) => {
            let sets = crate::registry::vcfr::public_sets(game, &derived);
            Strategy::from_file(info, public, &sets, path).map(|s| (s, None))
        }
        _ => Strategy::solved(public, &args.limits).map(|(s, name)| (s, Some(name))),
    };
    let (strategy, solver) = match made {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let sides = Sides { seat, all_human, source: &source, solver };
    play_games(info, public, &strategy, &sides, args, input, scripted, played)
}

/// Who plays which seat in [`run_with`]: the person's `seat`, or every
/// seat; the others play `source` (made by the solver named).
struct Sides<'a> {
    seat: usize,
    all_human: bool,
    source: &'a Source,
    solver: Option<String>,
}

/// [`run_with`]'s games on the public game, the others playing `strategy`;
/// the exit status.
#[allow(clippy::too_many_arguments)]
fn play_games(
    info: &galac_runtime::game::GameInfo,
    public: &PublicGame,
    strategy: &Strategy,
    sides: &Sides<'_>,
    args: &PlayArgs,
    mut input: &mut dyn BufRead,
    scripted: bool,
    played: &mut Vec<Played>,
) -> i32 {
    let Sides { seat, all_human, source, ref solver } = *sides;
    let json = args.format == Format::Json;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let opponents = match (all_human, &solver) {
        (true, _) => "every seat played here".to_string(),
        (false, Some(name)) => format!("the others play {} ({name})", source.describe()),
        (false, None) => format!("the others play {}", source.describe()),
    };
    let you = if all_human { String::new() } else { format!("you play {}; ", info.players[seat]) };
    say(
        json,
        &format!(
            "{}: {you}{opponents}; seed {seed}\nChoose an action by its label or its number (`quit` stops).\n",
            crate::title(info)
        ),
    );
    let deal = Deal::new(public);
    let mut table = Table { public, strategy, style: args.cards.style(false), json, scripted };
    let mut scores = Scores::new(&info.players, args, (!all_human).then_some(seat), seed);
    for g in 0..args.games {
        say(json, &format!("\ngame {} of {}\n", g + 1, args.games));
        let mut rng = SplitMix64::stream(seed, u64::from(g));
        let human = |p: usize| all_human || p == seat;
        let game = deal.draw(&mut rng).ok_or(Stop::Error("the deal gives no pair of private states".into()));
        let game = game.and_then(|pair| table.play(pair, &mut rng, &mut input, &human));
        let (trail, payoffs) = match game {
            Ok(done) => done,
            Err(Stop::Quit) => return 0,
            Err(Stop::Error(msg)) => {
                eprintln!("error: {msg}");
                return 1;
            }
        };
        if scores.game(g, &trail, &payoffs, &table.style) != 0 {
            return 1;
        }
        played.push(Played { trail, payoffs });
    }
    scores.end();
    0
}

/// Each public decision's strategy: per node, the start of its rows in
/// `probs` (actions x the deciding player's states, row-major).
struct Strategy {
    start: Vec<usize>,
    probs: Vec<f64>,
}

impl Strategy {
    fn with(public: &PublicGame, mut fill: impl FnMut(u32, usize, &mut [f64])) -> Strategy {
        let mut start = vec![usize::MAX; public.nodes.len()];
        let mut probs = Vec::new();
        for (node, kind) in public.nodes.iter().enumerate() {
            if let PublicNode::Decision { player, children } = kind {
                let len = children.len() * public.states[*player as usize].len();
                start[node] = probs.len();
                probs.resize(probs.len() + len, 0.0);
                let at = probs.len() - len;
                fill(node as u32, *player as usize, &mut probs[at..]);
            }
        }
        Strategy { start, probs }
    }

    /// Every action equally likely.
    fn uniform(public: &PublicGame) -> Strategy {
        Strategy::with(public, |node, _, rows| rows.fill(1.0 / public.children(node).len() as f64))
    }

    /// The strategy a file written by `solve --out` gives (sets keyed as
    /// `registry::vcfr::public_sets` keys them; a state the file leaves
    /// out, which never reaches its decision, plays uniformly).
    fn from_file(
        info: &galac_runtime::game::GameInfo,
        public: &PublicGame,
        sets: &[crate::registry::vcfr::PublicSet],
        path: &std::path::Path,
    ) -> Result<Strategy, String> {
        use galac_runtime::ids::{IdVec, InfosetId};
        let labels: IdVec<InfosetId, String> = IdVec::from(sets.iter().map(|s| s.label.clone()).collect::<Vec<_>>());
        let actions: Vec<Vec<String>> = (0..public.nodes.len() as u32)
            .map(|node| public.children(node).iter().map(|&c| public.labels[c as usize].clone()).collect())
            .collect();
        let target = PublicSets { actions, set_node: sets.iter().map(|s| s.node).collect() };
        let loaded = crate::strategy_file::read_into(path, info, &target, &labels, true)?;
        let mut strategy = Strategy::uniform(public);
        for (k, set) in sets.iter().enumerate() {
            let PublicNode::Decision { player, .. } = &public.nodes[set.node as usize] else { continue };
            let n = public.states[usize::from(*player)].len();
            let start = strategy.start[set.node as usize];
            for (a, &p) in loaded.profile.probs(InfosetId(k as u32)).iter().enumerate() {
                strategy.probs[start + a * n + set.state as usize] = p;
            }
        }
        Ok(strategy)
    }

    /// The average strategy of vector CFR's default run (`solve`'s), and
    /// the solver's name.
    fn solved(public: &PublicGame, limits: &crate::LimitArgs) -> Result<(Strategy, String), String> {
        let (run, name) = crate::registry::vcfr::run_default(public, limits)?;
        let mut reached = Vec::new();
        let strategy = Strategy::with(public, |node, player, rows| {
            reached.resize(public.states[player].len(), false);
            run.cfr.average(node, player, rows, &mut reached);
        });
        Ok((strategy, name))
    }
}

/// A public game's sets (a decision and a private state) as a strategy
/// file is read into them.
struct PublicSets {
    /// Per node, its actions' labels.
    actions: Vec<Vec<String>>,
    /// Per set, its decision.
    set_node: Vec<u32>,
}

impl crate::strategy_file::SetTarget for PublicSets {
    fn action_labels(&self, set: galac_runtime::ids::InfosetId) -> &[String] {
        &self.actions[self.set_node[set.index()] as usize]
    }

    fn uniform(&self) -> galac_solvers::Profile {
        let counts = self.set_node.iter().map(|&n| self.actions[n as usize].len() as u32).collect::<Vec<_>>();
        galac_solvers::Profile::uniform_over(galac_runtime::ids::IdVec::from(counts))
    }
}

/// Draws the deal: player 0's state by its probability, then player 1's
/// among those it is dealt with.
struct Deal<'g> {
    public: &'g PublicGame,
    /// Per state of player 0: its weight times the weights of player 1's
    /// states it may be dealt with.
    first: Vec<f64>,
}

impl<'g> Deal<'g> {
    fn new(public: &'g PublicGame) -> Deal<'g> {
        let w = [&public.states[0].weights, &public.states[1].weights];
        let first = public.compatible_sums(0, w[1]).iter().zip(w[0]).map(|(c, w)| c * w).collect();
        Deal { public, first }
    }

    fn draw(&self, rng: &mut SplitMix64) -> Option<[usize; 2]> {
        let i = pick(self.first.iter().copied(), rng.uniform())?;
        let w1 = &self.public.states[1].weights;
        let together = |j: usize| self.public.dealt_together(i, j);
        let j = pick((0..w1.len()).map(|j| if together(j) { w1[j] } else { 0.0 }), rng.uniform())?;
        Some([i, j])
    }
}

/// The index that `u` (uniform in [0, 1)) falls on among `weights`
/// (not normalised); `None` when they are all zero.
fn pick(weights: impl Iterator<Item = f64> + Clone, u: f64) -> Option<usize> {
    let total: f64 = weights.clone().sum();
    if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let (mut at, mut last) = (u * total, None);
    for (k, w) in weights.enumerate() {
        if w > 0.0 {
            last = Some(k);
            if at < w {
                return Some(k);
            }
            at -= w;
        }
    }
    // Rounding left `at` past the last weight: the last one it could be.
    last
}

/// One session's view of the public game.
struct Table<'a> {
    public: &'a PublicGame,
    strategy: &'a Strategy,
    style: CardStyle,
    json: bool,
    scripted: bool,
}

impl Table<'_> {
    /// Plays one game from the deal `pair`; returns its trail (the deal,
    /// the public moves and outcomes) and the payoffs.
    fn play(
        &mut self,
        pair: [usize; 2],
        rng: &mut SplitMix64,
        input: &mut impl BufRead,
        human: &dyn Fn(usize) -> bool,
    ) -> Result<(Vec<String>, [i64; 2]), Stop> {
        let public = self.public;
        let names = &public.player_names;
        // A hand as its cards; another private state by its label, the
        // player's name left out.
        let own = |p: usize| match &public.removal {
            Removal::Cards(cards) => crate::hands::hand_text(crate::hands::mask_cards(cards.hands[p][pair[p]])),
            Removal::Lists(_) => {
                let label = crate::cards::standard(&public.states[p].labels[pair[p]]);
                label.strip_prefix(names[p].as_str()).and_then(|l| l.strip_prefix(": ")).unwrap_or(&label).to_string()
            }
        };
        let mut trail: Vec<String> = (0..2).map(|p| format!("chance {} {}", names[p], own(p))).collect();
        // Per player, how much of the trail they were shown at their last decision.
        let mut shown_to = [0usize; 2];
        let mut node = 0u32;
        loop {
            let kids = public.children(node);
            node = match &public.nodes[node as usize] {
                PublicNode::Terminal { payoff } => {
                    let v = payoff_of(public, &public.payoffs[*payoff as usize], pair);
                    if (v - v.round()).abs() > 1e-9 {
                        return Err(Stop::Error(format!("the public game pays {v}, not a whole amount")));
                    }
                    return Ok((trail, [v.round() as i64, -v.round() as i64]));
                }
                PublicNode::Chance { outcomes, .. } => {
                    let allowed = outcomes.clone().map(|o| {
                        let out = &public.outcomes[o as usize];
                        let free = (0..2).all(|p| !public.excluded(o, p).contains(&(pair[p] as u32)));
                        if free {
                            out.prob
                        } else {
                            0.0
                        }
                    });
                    let k =
                        pick(allowed, rng.uniform()).ok_or(Stop::Error("no chance outcome fits the deal".into()))?;
                    trail.push(format!("chance {}", public.labels[kids[k] as usize]));
                    kids[k]
                }
                PublicNode::Decision { player, .. } => {
                    let p = *player as usize;
                    let actions: Vec<String> = kids.iter().map(|&c| public.labels[c as usize].clone()).collect();
                    let a = if human(p) {
                        let news = if shown_to[p] == 0 {
                            let mut known = vec![own(p)];
                            known.extend(trail[2..].iter().cloned());
                            format!("you know: {}", known.join(", "))
                        } else {
                            let new = &trail[shown_to[p]..];
                            let new = if new.is_empty() { "nothing".to_string() } else { new.join(", ") };
                            format!("new since your last move: {new}")
                        };
                        shown_to[p] = trail.len() + 1;
                        let shown: Vec<String> = actions.iter().map(|a| self.style.rewrite(a)).collect();
                        let mut text = format!("{} to play; {}\n", names[p], self.style.rewrite(&news));
                        for (i, a) in shown.iter().enumerate() {
                            text += &format!("  {} {a}\n", i + 1);
                        }
                        say(self.json, &text);
                        read_choice(input, self.scripted, self.json, &actions, &shown)? as usize
                    } else {
                        let n = public.states[p].len();
                        let rows = &self.strategy.probs[self.strategy.start[node as usize]..];
                        let probs = (0..kids.len()).map(|a| rows[a * n + pair[p]]);
                        pick(probs, rng.uniform()).ok_or(Stop::Error("a strategy with no action to play".into()))?
                    };
                    trail.push(format!("{} {}", names[p], actions[a]));
                    kids[a]
                }
            };
        }
    }
}

/// Player 0's payoff at a leaf for the deal `pair`.
fn payoff_of(public: &PublicGame, payoff: &Payoff, pair: [usize; 2]) -> f64 {
    match *payoff {
        Payoff::Constant(v) => v,
        Payoff::Showdown { ranking, win, lose, tie } => {
            let rank = &public.rankings[ranking as usize].rank;
            match rank[0][pair[0]].cmp(&rank[1][pair[1]]) {
                std::cmp::Ordering::Greater => win,
                std::cmp::Ordering::Less => lose,
                std::cmp::Ordering::Equal => tie,
            }
        }
        Payoff::Matrix { start } => public.matrix[start as usize + pair[0] * public.states[1].len() + pair[1]],
    }
}
