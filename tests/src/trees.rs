//! Game trees of the examples against counts computed by others: OpenSpiel's
//! kuhn_poker, leduc_poker and universal_poker, and hand counts of tiny games.
//! Also: Kuhn's information sets node by node, remembered offered lists,
//! and every build limit's error.

use galac_runtime::ids::{InfosetId, NodeId, PlayerId};
use galac_runtime::tree::{build, BuildOptions, Stats, Tree};

use crate::repo_root;
use galac_runtime::memory::MemoryLimit;

/// Loads a game from source with the given params.
pub(crate) fn load(src: &str, params: &[&str]) -> galac_compiler::interp::Interp {
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    galac_compiler::driver::load_interp("test.gala", src.as_bytes(), &params).unwrap_or_else(|e| panic!("{e}"))
}

/// Loads `examples/FILE` with the given params.
pub(crate) fn example(file: &str, params: &[&str]) -> galac_compiler::interp::Interp {
    let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example exists");
    load(&src, params)
}

/// Builds the whole tree (without labels).
pub(crate) fn tree_of(game: &galac_compiler::interp::Interp) -> Tree {
    build(game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// (nodes, terminals, chance nodes, info sets per player, sequences per player)
pub(crate) fn counts(s: &Stats) -> (u64, u64, u64, Vec<u64>, Vec<u64>) {
    (s.nodes, s.terminals, s.chance_nodes, s.infosets.clone(), s.sequences.clone())
}

#[test]
fn kuhn_matches_openspiel() {
    let s = tree_of(&example("kuhn.gala", &[])).stats();
    assert_eq!(counts(&s), (58, 30, 4, vec![6, 6], vec![13, 13]));
}

#[test]
fn leduc_matches_openspiel() {
    let s = tree_of(&example("leduc.gala", &[])).stats();
    assert_eq!(counts(&s), (9457, 5520, 157, vec![468, 468], vec![1093, 1093]));
}

#[test]
fn leduc_13_ranks_matches_openspiel_universal_poker() {
    let s = tree_of(&example("leduc.gala", &["ranks=13"])).stats();
    assert_eq!(counts(&s), (1_179_777, 704_600, 3_277, vec![9_828, 9_828], vec![22_933, 22_933]));
}

#[test]
fn the_size_guess_tells_a_small_tree_from_a_large_one() {
    use galac_app::PARALLEL_MIN_NODES;
    use galac_runtime::tree::looks_smaller_than;
    // What the default thread count decides by (`--threads 0`: one thread
    // for a tree guessed smaller). Leduc has 9,457 nodes; 13 ranks, 1,179,777.
    assert!(looks_smaller_than(&example("leduc.gala", &[]), PARALLEL_MIN_NODES));
    assert!(!looks_smaller_than(&example("leduc.gala", &["ranks=13"]), PARALLEL_MIN_NODES));
    assert!(looks_smaller_than(&example("kuhn.gala", &[]), PARALLEL_MIN_NODES));
}

#[test]
fn tiny_games_match_hand_counts() {
    // Simultaneous matching pennies: root, 2 nodes of odd in one info set, 4 leaves.
    let pennies = "game mp { players even, odd; flow {
        choose even e in bool; choose odd o in bool;
        if e == o { outcome [1, -1]; } else { outcome [-1, 1]; } } }";
    assert_eq!(counts(&tree_of(&load(pennies, &[])).stats()), (7, 4, 0, vec![1, 1], vec![3, 3]));
    // The same with the first move revealed: odd has two info sets.
    let seen = pennies.replace("choose odd", "reveal odd saw(e); choose odd");
    assert_eq!(counts(&tree_of(&load(&seen, &[])).stats()), (7, 4, 0, vec![1, 2], vec![3, 5]));
    // A weighted coin then a guess: 1 chance node, 2 guesser nodes in one info set.
    let coin = "game c { players g; flow {
        choose nature h in bool weight if h then 2 else 1;
        choose g guess in bool;
        if guess == h { outcome [1]; } else { outcome [0]; } } }";
    let t = tree_of(&load(coin, &[]));
    assert_eq!(counts(&t.stats()), (7, 4, 1, vec![1], vec![3]));
    assert_eq!(t.chance_probs(NodeId::ROOT).iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["1/3", "2/3"]);
}

/// Kuhn's information sets node by node: two decision nodes share an info
/// set iff the same player acts holding the same card after the same bets.
#[test]
fn kuhn_infosets_are_card_and_history() {
    let tree = tree_of(&example("kuhn.gala", &[]));
    // Walk the tree keeping the cards dealt and the betting history.
    // ((player, the player's card, the history), information set)
    type Key = (PlayerId, i64, Vec<u32>);
    let mut keys: Vec<(Key, Option<InfosetId>)> = Vec::new();
    let mut stack: Vec<(NodeId, Vec<i64>, Vec<u32>)> = vec![(NodeId::ROOT, Vec::new(), Vec::new())];
    while let Some((node, cards, history)) = stack.pop() {
        let children: Vec<NodeId> = tree.children(node).collect();
        match tree.player(node) {
            None if !children.is_empty() => {
                // Chance: the cards left, in increasing order.
                let left: Vec<i64> = (1..=3).filter(|c| !cards.contains(c)).collect();
                for (i, child) in children.iter().enumerate() {
                    let mut c = cards.clone();
                    c.push(left[i]);
                    stack.push((*child, c, history.clone()));
                }
            }
            None => {}
            Some(p) => {
                let set = tree.infoset(node);
                keys.push(((p, cards[p.index()], history.clone()), set));
                for (a, child) in children.iter().enumerate() {
                    let mut h = history.clone();
                    h.push(a as u32);
                    stack.push((*child, cards.clone(), h));
                }
            }
        }
    }
    assert_eq!(keys.len(), 24);
    for (ka, sa) in &keys {
        for (kb, sb) in &keys {
            assert_eq!(ka == kb, sa == sb, "{ka:?} in {sa:?}, {kb:?} in {sb:?}");
        }
    }
}

/// Player a picks 1 at two different info sets (different choice lists),
/// then chooses again: a remembers which list it was offered, so the two
/// histories of "chose 1" are two information sets (perfect recall).
const FORGET: &str = "game forget { players a; flow {
        choose nature c in bool;
        if c { choose a m in [1, 2]; } else { choose a m in [1, 3]; }
        choose a again in bool;
        outcome [0]; } }";

/// The game of issue 26: a `where` filter reads the hidden coin, so a is
/// offered {0, 1} or {0, 1, 2}, and remembers which.
const OFFERED: &str = "game recall { players a, b; flow {
        choose nature h in bool;
        choose a x in 0..3 where h || x < 2;
        choose a y in bool; end; } }";

#[test]
fn a_player_remembers_the_options_it_was_offered() {
    let labelled = BuildOptions { labels: true, ..BuildOptions::default() };
    // By hand: x is decided in 2 sets (one per offered list); y in one set
    // per (offered list, x): 2 + 3 = 5. Nodes: the coin, 2 x nodes, 5 y
    // nodes, 10 leaves; a's sequences 1 + 5 (x) + 10 (y).
    let (t, _, _) = build(&load(OFFERED, &[]), &labelled).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts(&t.stats()), (18, 10, 1, vec![7, 0], vec![16, 1]));
    let labels: Vec<&str> = (0..7).map(|s| t.infoset_label(InfosetId(s))).collect();
    for label in ["a: chose 0 of 2", "a: chose 0 of 3", "a: chose 2 of 3"] {
        assert!(labels.contains(&label), "{label} in {labels:?}");
    }
    // FORGET: m in 2 sets, `again` in 4 (one per list and value).
    let t = tree_of(&load(FORGET, &[]));
    assert_eq!(counts(&t.stats()), (15, 8, 1, vec![6], vec![13]));
    // Fixed choices of their whole type (Kuhn's enum) record no list.
    let (t, _, _) = build(&example("kuhn.gala", &[]), &labelled).unwrap_or_else(|e| panic!("{e}"));
    let sets: u64 = t.stats().infosets.iter().sum();
    assert!((0..sets as u32).all(|s| !t.infoset_label(InfosetId(s)).contains(" of ")));
}

#[test]
fn offered_lists_keep_parallel_builds_equal() {
    use galac_runtime::tree::build_parallel;
    for src in [FORGET, OFFERED] {
        let make = || Some(load(src, &[]));
        let (one, _, _) = build(&load(src, &[]), &BuildOptions::default()).expect("perfect recall");
        for threads in [2, 3] {
            let (many, _) = build_parallel(&make, &BuildOptions::default(), threads).expect("perfect recall");
            assert_eq!(counts(&many.stats()), counts(&one.stats()));
        }
    }
}

fn build_error(src: &str, opts: &BuildOptions) -> String {
    match build(&load(src, &[]), opts) {
        Err(e) => e.to_string(),
        Ok((t, _, _)) => panic!("expected an error, built {} nodes", t.n_nodes()),
    }
}

/// A play that never ends makes ever longer information-set labels (each
/// holds the facts before it): their bytes count against the memory limit,
/// checked as they come. Without that check this game (Kuhn whose betting
/// never ends, found by the fuzzer) runs far past a 64 MiB limit until the
/// node limit stops it.
#[test]
fn labels_count_against_the_memory_limit() {
    let endless_betting = "game g { players a, b; enum M { Pass, Bet }\n\
        flow { take_turns(a) { choose player m in M; reveal opponent moved(m); } until false; } }";
    let opts = BuildOptions {
        labels: true,
        max_nodes: 20_000,
        memory: MemoryLimit::from_bytes(8 << 20),
        progress: None,
        cancel: None,
    };
    let msg = build_error(endless_betting, &opts);
    assert!(msg.contains("MiB, the memory limit"), "{msg}");
}

#[test]
fn limits_give_clear_errors() {
    let kuhn = std::fs::read_to_string(repo_root().join("examples/kuhn.gala")).expect("kuhn");
    let few = BuildOptions { max_nodes: 20, ..BuildOptions::default() };
    assert_eq!(build_error(&kuhn, &few), "the game tree has more than 20 nodes, the node limit");
    let tiny = BuildOptions { memory: MemoryLimit::from_bytes(0), ..BuildOptions::default() };
    assert!(build_error(&kuhn, &tiny).contains("MiB, the memory limit"));

    let endless = "game loop { players a; var n: int = 0; flow {\n  while true { n = 0; }\n  outcome [0]; } }";
    let msg = build_error(endless, &BuildOptions::default());
    assert!(msg.starts_with("test.gala:2:") && msg.contains("no event within 1000000 steps"), "{msg}");

    let zero = "game w { players a; flow {\n  choose nature x in 0..3 weight x;\n  outcome [x]; } }";
    let msg = build_error(zero, &BuildOptions::default());
    assert!(msg.starts_with("test.gala:2:3: chance weight 0 is not positive"), "{msg}");

    let empty = "game e { players a; flow {\n  choose a x in 0..3 where x > 5;\n  outcome [x]; } }";
    let msg = build_error(empty, &BuildOptions::default());
    assert!(msg.contains("a has no choice"), "{msg}");

    let overflow = "game o { players a; var big: int = 9223372036854775807; flow {\n  big += 1;\n  outcome [0]; } }";
    assert!(build_error(overflow, &BuildOptions::default()).contains("integer overflow"));
}

/// The other examples, against counts derived by hand (or by an independent
/// enumeration, for Nim) from the rules in each file's header.
#[test]
fn other_examples_match_hand_counts() {
    // Simplified 8-card poker: 56 deals; per deal the gambler bets 0 or 1;
    // after 0 the dealer meets (leaf) or raises (gambler folds or meets);
    // after 1 the dealer folds or meets: 9 nodes per deal, plus the deal.
    // Gambler: 8 first info sets + 8 after a raise; dealer: 8 cards x 2 bets.
    let s = tree_of(&example("poker.gala", &[])).stats();
    assert_eq!(counts(&s), (505, 280, 1, vec![16, 16], vec![33, 33]));

    // Inspection, 2 stages and 1 inspection: one simultaneous stage, 4 leaves.
    let s = tree_of(&example("inspection.gala", &["stages=2", "inspections=1"])).stats();
    assert_eq!(counts(&s), (7, 4, 0, vec![1, 1], vec![3, 3]));
    // 3 stages: after (No, No) a second stage follows: 13 nodes, 7 leaves.
    let s = tree_of(&example("inspection.gala", &["stages=3", "inspections=1"])).stats();
    assert_eq!(counts(&s), (13, 7, 0, vec![2, 2], vec![5, 5]));

    // Blind tic-tac-toe on 2x2 with lines of 2 (every pair of cells is a
    // line): 8 first moves; 6 replies, of which the 3 with the same mark win;
    // then every one of the 4 third moves wins. a: 1 + 8 x 3 info sets
    // (own move x revealed square); b: 4 (the revealed square).
    let s = tree_of(&example("blind_tictactoe.gala", &["size=2", "line=2"])).stats();
    assert_eq!(counts(&s), (153, 120, 0, vec![25, 4], vec![105, 25]));

    // 2-2-2 Nim: perfect information, so one info set per decision node;
    // count the plays by a direct enumeration of the heaps.
    fn enumerate(heaps: &mut [u32], mover: usize, out: &mut (u64, u64, [u64; 3], [u64; 3])) {
        out.0 += 1;
        if heaps.iter().sum::<u32>() == 0 {
            out.1 += 1;
            return;
        }
        out.2[mover] += 1;
        for i in 0..heaps.len() {
            for take in 1..=heaps[i] {
                out.3[mover] += 1;
                heaps[i] -= take;
                enumerate(heaps, (mover + 1) % 3, out);
                heaps[i] += take;
            }
        }
    }
    let mut expected = (0, 0, [0; 3], [0; 3]);
    enumerate(&mut [2, 2, 2], 0, &mut expected);
    let s = tree_of(&example("nim222.gala", &[])).stats();
    let sequences: Vec<u64> = expected.3.iter().map(|n| n + 1).collect();
    assert_eq!(counts(&s), (expected.0, expected.1, 0, expected.2.to_vec(), sequences));
    assert_eq!(s.decision_nodes, expected.2.to_vec());
}

/// Two sets with the same facts (`a` does not see the deal that sets how
/// many actions it has) get their actions appended to their labels, so
/// that every label keys one set; a set alone keeps its label as it is
/// (`galac_app::report::unique_labels`).
#[test]
fn sets_sharing_a_label_get_their_actions_appended() {
    let src = "game dup { players a, b; flow { choose nature c in 0..2; choose a x in 0..(c + 2); \
               choose b y in 0..2; outcome [x - y, y - x]; } }";
    let options = BuildOptions { labels: true, ..BuildOptions::default() };
    let tree = build(&load(src, &[]), &options).unwrap_or_else(|e| panic!("{e}")).0;
    let labels = galac_app::report::unique_labels(&tree);
    let mut labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    labels.sort_unstable();
    assert_eq!(labels, ["a: start {0, 1, 2}", "a: start {0, 1}", "b: start"]);
}

/// A tree built without labels takes them from the same game's tree built
/// again with them (what the seeded double oracle does on two threads):
/// every set's label and actions and every chance outcome's label are the
/// labelled build's, on Leduc (chance nodes and sets); a tree of another
/// game, or a tree that has labels already, is refused and left as it was.
#[test]
fn a_tree_built_without_labels_adopts_a_second_builds() {
    let game = example("leduc.gala", &[]);
    let labelled = |g| build(g, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("builds").0;
    let want = labelled(&game);
    let mut tree = tree_of(&game);
    assert!(tree.infoset_label(InfosetId(0)).is_empty());
    let smaller = example("leduc.gala", &["ranks=4"]);
    let other = labelled(&smaller);
    assert!(tree.labels_of(other).err().expect("another game's").contains("differs"));
    // Labels checked against another tree are refused.
    let other_labels = tree_of(&smaller).labels_of(labelled(&smaller)).expect("its own");
    assert!(tree.adopt_labels(other_labels).unwrap_err().contains("another tree's"));
    assert!(tree.infoset_label(InfosetId(0)).is_empty());
    tree.adopt_labels(tree.labels_of(labelled(&game)).expect("the same tree")).expect("no labels yet");
    for set in tree.infosets.keys() {
        assert!(!tree.infoset_label(set).is_empty());
        assert_eq!(tree.infoset_label(set), want.infoset_label(set));
        assert_eq!(tree.action_labels(set), want.action_labels(set));
    }
    let chance: Vec<NodeId> = tree.nodes().filter(|&n| !tree.chance_probs(n).is_empty()).collect();
    assert!(chance.len() > 1);
    for n in chance {
        assert!(!tree.chance_outcome_labels(n).is_empty());
        assert_eq!(tree.chance_outcome_labels(n), want.chance_outcome_labels(n));
    }
    let again = tree.labels_of(labelled(&game)).expect("the same tree");
    assert!(tree.adopt_labels(again).unwrap_err().contains("already"));
}

/// A one-player game whose sets carry the labels and actions given:
/// nature picks a row, and the player decides once in that row's set
/// (its own, told apart by the row, whatever its label).
struct Named {
    info: galac_runtime::game::GameInfo,
    rows: Vec<(&'static str, Vec<&'static str>)>,
}

impl galac_runtime::game::Game for Named {
    /// (row picked, or none yet; whether the player has decided; its information)
    type State = (Option<u32>, bool, galac_runtime::info::InfoState);
    type Specialised = Self;
    fn info(&self) -> &galac_runtime::game::GameInfo {
        &self.info
    }
    fn root(&self) -> Result<Self::State, galac_runtime::game::GameError> {
        Ok((None, false, galac_runtime::info::InfoState::EMPTY))
    }
    fn advance(
        &self,
        s: &mut Self::State,
        info: &mut galac_runtime::info::InfoInterner,
    ) -> Result<galac_runtime::game::Node, galac_runtime::game::GameError> {
        use galac_runtime::game::Node;
        Ok(match *s {
            (None, _, _) => Node::Chance { n_outcomes: self.rows.len() as u32 },
            (Some(row), false, state) => {
                let n_actions = self.rows[row as usize].1.len() as u32;
                let (infoset, _) = info.infoset(0, state, &[u64::from(n_actions)]);
                Node::Decision { player: 0, infoset, n_actions }
            }
            _ => Node::Terminal,
        })
    }
    fn apply(
        &self,
        s: &mut Self::State,
        action: u32,
        info: &mut galac_runtime::info::InfoInterner,
    ) -> Result<(), galac_runtime::game::GameError> {
        match s.0 {
            None => *s = (Some(action), false, info.push(s.2, &[u64::from(action)])),
            Some(_) => s.1 = true,
        }
        Ok(())
    }
    fn chance_probs(&self, _: &Self::State, out: &mut Vec<galac_runtime::rational::Ratio>) {
        let p = galac_runtime::rational::Ratio::new(1, self.rows.len() as u64).expect("a probability");
        out.clear();
        out.resize(self.rows.len(), p);
    }
    fn payoffs<'a>(&self, _: &'a Self::State, out: &'a mut Vec<i64>) -> &'a [i64] {
        out.clear();
        out.push(0);
        out
    }
    fn action_label(&self, s: &Self::State, action: u32) -> String {
        match s.0 {
            None => action.to_string(),
            Some(row) => self.rows[row as usize].1[action as usize].to_string(),
        }
    }
    fn infoset_label(&self, info: &galac_runtime::info::InfoInterner, infoset: u32) -> String {
        let row = info.facts(info.infoset_key(infoset).state)[0][0];
        self.rows[row as usize].0.to_string()
    }
}

/// The labels of some sets alone (`unique_labels_of`, what a text answer
/// prints) are those of the full list (`unique_labels`), in every case
/// the full list meets: sets sharing a label (their actions appended),
/// extended labels met again (numbered in the tree's order), a set whose
/// own label is another's extended one, and sets alone; for every set
/// alone, all sets in reverse order, and every second set. The text
/// report made with the labels of its printed sets only is the one made
/// with the full list.
#[test]
fn the_labels_of_some_sets_are_those_of_the_full_list() {
    use galac_runtime::game::Game;
    let rows = vec![
        ("x", vec!["a", "b"]),
        ("y", vec!["a"]),
        ("x", vec!["a", "b"]),
        ("x {a, b}", vec!["d"]),
        ("x", vec!["c"]),
        ("x {c} #2", vec!["e"]),
        ("z {q}", vec!["e"]),
    ];
    let info = galac_runtime::game::GameInfo {
        name: "named".into(),
        players: vec!["p".into()],
        params: Vec::new(),
        program: 0,
    };
    let game = Named { info, rows };
    let options = BuildOptions { labels: true, ..BuildOptions::default() };
    let tree = build(&game, &options).unwrap_or_else(|e| panic!("{e}")).0;
    let full = galac_app::report::unique_labels(&tree);
    let full: Vec<&str> = full.iter().map(String::as_str).collect();
    assert_eq!(
        full,
        ["x {a, b}", "y", "x {a, b} #2", "x {a, b} #3", "x {c}", "x {c} #2", "z {q}"],
        "the full list's own rules"
    );
    let sets: Vec<InfosetId> = tree.infosets.keys().collect();
    let of = |sets: &[InfosetId]| galac_app::report::unique_labels_of(&tree, sets);
    for &set in &sets {
        assert_eq!(of(&[set]), [full[set.index()]], "set {} alone", set.index());
    }
    let reversed: Vec<InfosetId> = sets.iter().rev().copied().collect();
    assert_eq!(of(&reversed), reversed.iter().map(|s| full[s.index()]).collect::<Vec<_>>());
    let every_second: Vec<InfosetId> = sets.iter().step_by(2).copied().collect();
    assert_eq!(of(&every_second), every_second.iter().map(|s| full[s.index()]).collect::<Vec<_>>());
    let text = |labels| {
        let profile = galac_solvers::Profile::uniform(&tree);
        let eval = galac_solvers::best_response::evaluate_on(&tree, &profile, 1);
        let report = galac_app::report::Report {
            info: game.info(),
            tree: &tree,
            labels,
            profile: &profile,
            unreached: &[],
            eval: &eval,
            solver: "uniform",
            generate_seconds: 0.0,
            phases: &[],
            notes: &[],
            curve: None,
            findings: None,
            sections: String::new(),
            exact: None,
            whole_nodes: None,
        };
        let mut out = Vec::new();
        report.write_text(&mut out).expect("written to memory");
        String::from_utf8(out).expect("UTF-8")
    };
    let whole = galac_app::report::unique_labels(&tree);
    let printed = text(None);
    assert!(printed.contains("  x {a, b} #3: d 1.000\n"), "{printed}");
    assert_eq!(printed, text(Some(&whole)));
    for (file, params) in [("leduc.gala", &[][..]), ("phantom_ttt.gala", &["marks=4"][..])] {
        let tree = tree_of(&example(file, params));
        let full = galac_app::report::unique_labels(&tree);
        let sets: Vec<InfosetId> = tree.infosets.keys().collect();
        assert_eq!(
            galac_app::report::unique_labels_of(&tree, &sets),
            full.iter().cloned().collect::<Vec<_>>(),
            "{file}"
        );
    }
}
