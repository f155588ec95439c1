//! Public-state vector CFR (`galac_solvers::vector`) against known game
//! values, its answers mapped to the tree's profile and checked by the
//! independent scalar best response, and games outside its class refused
//! with the move that breaks it.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::cfr::{Checks, Variant};
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::vector::game::{Payoff, PublicNode};
use galac_solvers::vector::split::splits;
use galac_solvers::vector::walk::arena_len;
use galac_solvers::vector::{from_tree, Storage, VcfrConfig, VcfrSolver, VectorCfr, POSTFLOP_DCFR};

use crate::repo_root;

fn tree_of(file: &str, params: &[&str], labels: bool) -> Tree {
    let src = std::fs::read(repo_root().join("examples").join(file)).expect("example");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(file, &src, &params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

/// Runs `variant` for `iterations` on the public game of `tree`; checks that
/// the vector evaluation of the average and the scalar best response's of
/// the mapped profile agree, and returns player 0's value and the NashConv.
fn solve(tree: &Tree, variant: Variant, iterations: u64) -> (f64, f64) {
    solve_stored(tree, variant, iterations, Storage::F32)
}

/// [`solve`] with the regrets and sums kept as `storage` says.
fn solve_stored(tree: &Tree, variant: Variant, iterations: u64, storage: Storage) -> (f64, f64) {
    let derived = from_tree(tree).unwrap_or_else(|e| panic!("{e}"));
    let mut cfr = VectorCfr::with_storage(&derived.game, variant, 1, storage).expect("runs");
    for _ in 0..iterations {
        cfr.iterate();
    }
    let vector = cfr.evaluate();
    let (profile, _) = derived.profile(tree, &cfr);
    let scalar = evaluate(tree, &profile);
    let what = format!("{}: vector {vector:?}, scalar {scalar:?}", variant.name());
    assert!((vector.nash_conv - scalar.nash_conv).abs() <= 1e-6 * (1.0 + scalar.nash_conv), "{what}");
    assert!((vector.values[0] - scalar.values[0]).abs() <= 1e-6, "{what}");
    (scalar.values[0], scalar.nash_conv)
}

#[test]
fn kuhn_reaches_its_value_with_both_variants() {
    let kuhn = tree_of("kuhn.gala", &[], false);
    for variant in [Variant::CfrPlus, POSTFLOP_DCFR] {
        let (value, nash_conv) = solve(&kuhn, variant, 2000);
        assert!((value + 1.0 / 18.0).abs() < 1e-3, "{}: {value}", variant.name());
        assert!(nash_conv < 1e-3, "{}: {nash_conv}", variant.name());
    }
}

/// The value from examples/leduc.gala's header (OpenSpiel's, the LP's).
#[test]
fn leduc_reaches_its_value_with_both_variants() {
    let leduc = tree_of("leduc.gala", &[], false);
    for variant in [Variant::CfrPlus, POSTFLOP_DCFR] {
        let (value, nash_conv) = solve(&leduc, variant, 1000);
        assert!((value + 0.0856064).abs() < 2e-3, "{}: {value}", variant.name());
        assert!(nash_conv < 2e-3, "{}: {nash_conv}", variant.name());
    }
}

/// 16-bit storage on Leduc, both variants: the answer, checked by the
/// scalar best response, reaches the known value and a small NashConv, and
/// its value is the `f32` run's within the two NashConvs: a profile of
/// NashConv e is worth the game's value within e to player 0 (between
/// minus player 1's best response and player 0's, whose sum is e), so the
/// two runs' values differ by at most the sum, whatever the rounding. The
/// run's memory estimate counts the storage.
#[test]
fn leduc_in_sixteen_bits_reaches_its_value_and_the_f32_runs() {
    let leduc = tree_of("leduc.gala", &[], false);
    for variant in [Variant::CfrPlus, POSTFLOP_DCFR] {
        let (value, nash_conv) = solve_stored(&leduc, variant, 1000, Storage::Compressed);
        let (full, full_nash_conv) = solve(&leduc, variant, 1000);
        let what = format!("{}: 16 bits {value} ({nash_conv}), f32 {full} ({full_nash_conv})", variant.name());
        assert!((value + 0.0856064).abs() < 2e-3 && nash_conv < 2e-3, "{what}");
        assert!((value - full).abs() <= nash_conv + full_nash_conv, "{what}");
    }
    // The memory check counts the storage: 4 bytes an entry less, two
    // `f32` scales a node more.
    let game = from_tree(&leduc).expect("in the class").game;
    let (_, entries) = game.slabs();
    let [full, packed] = [Storage::F32, Storage::Compressed].map(|s| VectorCfr::estimate_bytes(&game, 1, s) as i64);
    assert_eq!(full - packed, 4 * entries as i64 - 8 * game.nodes.len() as i64);
}

/// Folds are constants, showdowns are rankings (one per public card).
#[test]
fn leduc_leaves_take_the_cheap_forms() {
    let leduc = tree_of("leduc.gala", &[], true);
    let game = from_tree(&leduc).expect("in the class").game;
    assert_eq!([game.states[0].len(), game.states[1].len()], [6, 6]);
    let count = |f: fn(&Payoff) -> bool| game.payoffs.iter().filter(|p| f(p)).count();
    assert_eq!(count(|p| matches!(p, Payoff::Matrix { .. })), 0);
    assert!(count(|p| matches!(p, Payoff::Constant(_))) > 0);
    assert!(count(|p| matches!(p, Payoff::Showdown { .. })) > 0);
    assert_eq!(game.rankings.len(), 6, "one ranking per public card");
}

/// Liar's dice: the value from examples/liars_dice.gala's header (the LP's).
#[test]
fn liars_dice_reaches_its_value() {
    let dice = tree_of("liars_dice.gala", &["sides=4"], false);
    let (value, nash_conv) = solve(&dice, POSTFLOP_DCFR, 1000);
    assert!((value - 1.0 / 16.0).abs() < 2e-3, "{value}");
    assert!(nash_conv < 2e-3, "{nash_conv}");
}

/// Poker-like examples against the sequence-form LP's value: the vector
/// answer's value and exploitability from the scalar best response.
#[test]
fn poker_examples_reach_the_lps_value() {
    for (file, iterations) in [("poker.gala", 2000), ("generic_poker.gala", 1000)] {
        let tree = tree_of(file, &[], false);
        let sf = SequenceForm::new(&tree).unwrap_or_else(|e| panic!("{e}"));
        let lp_value = lp::solve(&sf, Backend::Clarabel, None).unwrap_or_else(|e| panic!("{e}")).value;
        let (value, nash_conv) = solve(&tree, POSTFLOP_DCFR, iterations);
        assert!((value - lp_value).abs() < 2e-3, "{file}: {value}, the LP {lp_value}");
        assert!(nash_conv < 5e-3, "{file}: {nash_conv}");
    }
}

/// Games outside the class, each refused with what breaks it: a general-sum
/// leaf, a move at the root the other player never sees.
#[test]
fn games_outside_the_class_are_refused_with_the_reason() {
    let refusal = |file: &str| from_tree(&tree_of(file, &[], true)).err().expect("refused").to_string();
    let beer = refusal("beer_quiche.gala");
    assert!(
        beer.contains("vector CFR solves zero-sum games; after the deal, Beer, Duel a leaf pays 1 and 0"),
        "{beer}"
    );
    let inspection = refusal("inspection.gala");
    assert!(inspection.contains("violator's move at `violator: start` is not seen by inspector"), "{inspection}");
}

/// The solver row's path: the trait, checks by the vector best response.
#[test]
fn the_solver_stops_at_its_iterations_and_answers_on_the_tree() {
    let kuhn = tree_of("kuhn.gala", &[], false);
    let config = VcfrConfig { checks: Checks::Every(100), threads: 2, ..VcfrConfig::new(Variant::CfrPlus, 500) };
    let solution = VcfrSolver { config }.solve(&kuhn, &mut RunToEnd).expect("solves");
    assert!(!solution.stopped);
    let e = evaluate(&kuhn, &solution.profile);
    assert!(e.nash_conv < 5e-3, "{e:?}");
}

/// A run's evaluation is its last check when that came after the last
/// iteration, else a new one: both equal a check made now, and the
/// scalar best response of the mapped profile.
#[test]
fn a_runs_evaluation_is_its_last_check_or_a_new_one() {
    let leduc = tree_of("leduc.gala", &[], false);
    let derived = from_tree(&leduc).unwrap_or_else(|e| panic!("{e}"));
    for checks in [Checks::Every(50), Checks::Never] {
        let config = VcfrConfig { checks, ..VcfrConfig::new(POSTFLOP_DCFR, 100) };
        let solver = VcfrSolver { config };
        let mut run = solver.run(&derived.game, 0, std::time::Instant::now(), &mut RunToEnd).expect("runs");
        let (reused, fresh) = (run.evaluation(), run.cfr.evaluate());
        assert_eq!(reused, fresh, "{checks:?}");
        let (profile, _) = derived.profile(&leduc, &run.cfr);
        let scalar = evaluate(&leduc, &profile);
        assert!((reused.nash_conv - scalar.nash_conv).abs() <= 1e-6 * (1.0 + scalar.nash_conv), "{reused:?}");
    }
}

/// Goofspiel's bids are simultaneous: `second` does not see `first`'s bid.
#[test]
fn a_hidden_move_is_refused_with_its_name() {
    let goofspiel = tree_of("goofspiel.gala", &["cards=3"], true);
    let err = from_tree(&goofspiel).err().expect("refused").to_string();
    assert!(err.contains("first's move at") && err.contains("is not seen by second"), "{err}");
}

/// Three players are refused before any work.
#[test]
fn three_players_are_refused() {
    let src = std::fs::read(repo_root().join("cli/tests/games/kuhn3.gala")).expect("kuhn3");
    let game = galac_compiler::driver::load_interp("kuhn3.gala", &src, &[]).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0;
    let err = from_tree(&tree).err().expect("refused").to_string();
    assert!(err.contains("two-player zero-sum games; this game has 3 players"), "{err}");
}

/// Two threads give the same answer as one, bit for bit, with both
/// variants and both storages (16 bits: each thread's part of the nodes'
/// scales): on Leduc split at its chance nodes (the board card), on Kuhn
/// (no public chance node) at the root; the CFR walk and the evaluation
/// walk (every player's value and best response, not only NashConv).
#[test]
fn threads_do_not_change_the_result() {
    for (file, iterations) in [("leduc.gala", 60), ("kuhn.gala", 200)] {
        let tree = tree_of(file, &[], false);
        let derived = from_tree(&tree).expect("in the class");
        let runs =
            [Variant::CfrPlus, POSTFLOP_DCFR].into_iter().flat_map(|v| [(v, Storage::F32), (v, Storage::Compressed)]);
        for (variant, storage) in runs {
            let answers: Vec<(Vec<f64>, Vec<u64>)> = [1, 2]
                .iter()
                .map(|&threads| {
                    let mut cfr = VectorCfr::with_min_work(&derived.game, variant, threads, 0, storage).expect("runs");
                    assert_eq!(cfr.two_threads(), threads == 2);
                    let mut checks = Vec::new();
                    for t in 0..iterations {
                        cfr.iterate();
                        if t % 7 == 0 {
                            let e = cfr.evaluate();
                            let bits =
                                e.values.iter().chain(&e.best_response).chain([&e.nash_conv]).map(|x| x.to_bits());
                            checks.extend(bits);
                        }
                    }
                    (derived.profile(&tree, &cfr).0.probs, checks)
                })
                .collect();
            assert_eq!(answers[0], answers[1], "{file} {} {storage:?}", variant.name());
        }
    }
}

/// The walk splits where the work is: at every topmost chance node of
/// Leduc (one per betting line that reaches the board card) and nowhere
/// else; at the root of Kuhn, which has no public chance node; and not in
/// a subtree below the work threshold.
#[test]
fn the_walk_splits_at_the_topmost_chance_nodes() {
    let leduc = from_tree(&tree_of("leduc.gala", &[], false)).expect("in the class").game;
    let split = splits(&leduc, 0);
    let chance = |v: usize| matches!(leduc.nodes[v], PublicNode::Chance { .. });
    let at: Vec<usize> = (0..leduc.nodes.len()).filter(|&v| split[v]).collect();
    let chance_nodes: Vec<usize> = (0..leduc.nodes.len()).filter(|&v| chance(v)).collect();
    assert!(!at.is_empty());
    assert_eq!(at, chance_nodes, "Leduc has one chance level: every chance node is topmost");
    let kuhn = from_tree(&tree_of("kuhn.gala", &[], false)).expect("in the class").game;
    assert!((0..kuhn.nodes.len()).all(|v| !matches!(kuhn.nodes[v], PublicNode::Chance { .. })));
    let split = splits(&kuhn, 0);
    assert!(split[0] && !split[1..].iter().any(|&s| s), "Kuhn splits at its root only: {split:?}");
    // Above the whole game's work, nothing splits.
    let n = leduc.states[0].len().max(leduc.states[1].len());
    assert!(splits(&leduc, leduc.nodes.len() * n + 1).is_empty());
}

/// The walks' arena is what the deepest path of levels takes, each level
/// its own node's actions times the states and two vectors (plus a split
/// node's second rows once), not the depth times the widest level: on
/// Leduc the board card's chance nodes (one level of a path) are wider
/// than its decisions. Every walk of these tests runs in that arena.
#[test]
fn the_arena_sums_each_paths_own_levels() {
    fn deepest(game: &galac_solvers::vector::PublicGame, v: u32, n: usize) -> usize {
        let kids = game.children(v);
        let below = kids.iter().map(|&c| deepest(game, c, n)).max();
        below.map_or(0, |below| 2 * kids.len() * n + 2 * n + below)
    }
    let leduc = from_tree(&tree_of("leduc.gala", &[], false)).expect("in the class").game;
    let n = leduc.states[0].len().max(leduc.states[1].len());
    let widths: Vec<usize> = (0..leduc.nodes.len() as u32).map(|v| leduc.children(v).len()).collect();
    let widest = widths.iter().copied().max().unwrap_or(1);
    assert!(widths.iter().any(|&k| k > 0 && k < widest), "levels of different widths: {widths:?}");
    assert_eq!(arena_len(&leduc), deepest(&leduc, 0, n) + widest * n);
}

/// The river spot's strategy as the answer writes it (a set's label from
/// its private state's and public line's pieces, each rewritten and
/// escaped once) is serde's JSON of the sets' whole labels (`public_sets`,
/// each label's cards rewritten whole) with the average strategy after a
/// few iterations, listing a set named by its line only where its state
/// reaches the decision: a piece dropped or doubled, a set left out or
/// added, a probability moved would differ.
#[test]
fn the_river_strategy_written_from_pieces_is_serdes_of_whole_labels() {
    use galac_app::registry::vcfr::{public_sets, write_strategy, PublicNames};
    let game = crate::games::load_interp("holdem_river.gala", &[]).unwrap_or_else(|e| panic!("{e}"));
    let derived = galac_solvers::vector::from_game(&game).unwrap_or_else(|e| panic!("{e}"));
    let public = &derived.game;
    let mut cfr = VectorCfr::new(public, POSTFLOP_DCFR, 1).expect("runs");
    for _ in 0..5 {
        cfr.iterate();
    }
    let mut written = Vec::new();
    write_strategy(public, &PublicNames::new(&game, &derived), &cfr, &mut written).expect("written");
    let sets = public_sets(&game, &derived);
    assert!(sets.iter().any(|s| s.by_line) && sets.iter().any(|s| !s.by_line), "both kinds of sets");
    let mut expected = serde_json::Map::new();
    let (mut sigma, mut reached) = (Vec::new(), Vec::new());
    let (mut at, mut left_out) = (u32::MAX, 0);
    for set in &sets {
        let PublicNode::Decision { player, .. } = &public.nodes[set.node as usize] else { panic!("a decision") };
        let (p, s, children) = (usize::from(*player), set.state as usize, public.children(set.node));
        let n = public.states[p].len();
        if set.node != at {
            sigma.resize(children.len() * n, 0.0);
            reached.resize(n, false);
            cfr.average(set.node, p, &mut sigma, &mut reached);
            at = set.node;
        }
        if set.by_line && !reached[s] {
            left_out += 1;
            continue;
        }
        let probs =
            children.iter().enumerate().map(|(a, &c)| (public.labels[c as usize].clone(), sigma[a * n + s].into()));
        let label = galac_app::cards::standard(&set.label);
        assert!(expected.insert(label, serde_json::Value::Object(probs.collect())).is_none(), "labels are unique");
    }
    assert!(left_out > 0, "some states do not reach some decisions");
    let expected = serde_json::Value::Object(expected).to_string();
    assert_eq!(String::from_utf8(written).expect("UTF-8"), expected);
}
