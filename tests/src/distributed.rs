//! Distributed CFR (`galac_solvers::cfr::distributed`) with threads
//! standing in for the ranks of an MPI job ([`LocalRanks`]), each holding
//! only its shard of the tree (`galac_runtime::tree::build_shard`): the
//! state, the answer and the NashConv (evaluated by the ranks together)
//! are the same bit for bit for 1 to 4 ranks, every variant, two and
//! three players; the answer is the threaded solver's up to the last bits
//! and reaches the known game values, and the ranks' NashConv is the
//! single-process evaluator's up to rounding. The same runs under
//! `mpirun` are in cli/tests/cli/mpi.rs (the `mpi` feature).

use galac_runtime::ids::NodeId;
use galac_runtime::tree::{build, build_shard, BuildOptions, Shard, Tree};
use galac_solvers::best_response::{evaluate, Evaluation};
use galac_solvers::cfr::distributed::{units, Shared};
use galac_solvers::cfr::{Cfr, CfrConfig, CfrSolver, CfrState, Variant};
use galac_solvers::solver::{RunToEnd, Solution};

use crate::repo_root;

/// A game of the repository, interpreted.
fn game_of(path: &str, params: &[&str]) -> galac_compiler::interp::Interp {
    let src = std::fs::read(repo_root().join(path)).expect("game file");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    galac_compiler::driver::load_interp(path, &src, &params).unwrap_or_else(|e| panic!("{e}"))
}

/// A game's whole tree, and its shards for 1 to 4 ranks (`[r - 1][k]`:
/// rank `k`'s of `r`).
struct Game {
    whole: Tree,
    shards: Vec<Vec<Tree>>,
}

fn game(path: &str, params: &[&str]) -> Game {
    let game = game_of(path, params);
    let opts = BuildOptions { labels: true, ..BuildOptions::default() };
    let whole = build(&game, &opts).unwrap_or_else(|e| panic!("{e}")).0;
    let shard = |rank, ranks| build_shard(&game, &opts, Shard { rank, ranks }).unwrap_or_else(|e| panic!("{e}")).0;
    let shards = (1..=4).map(|r| (0..r).map(|k| shard(k, r)).collect()).collect();
    Game { whole, shards }
}

/// A distributed run on one thread per tree of `trees` (rank `k` holds
/// `trees[k]`), from `resume` if given: every rank's answer, state and
/// evaluation of the answer.
fn run_ranks(trees: &[Tree], config: &CfrConfig, resume: Option<&CfrState>) -> Vec<(Solution, CfrState, Evaluation)> {
    let shared = Shared::new(trees.len());
    std::thread::scope(|s| {
        let runs: Vec<_> = trees
            .iter()
            .enumerate()
            .map(|(k, tree)| {
                let shared = &shared;
                s.spawn(move || {
                    let cfr = Cfr::new_distributed(tree, config.clone(), resume.cloned()).expect("fits");
                    let (solution, state, traffic) = cfr.run_distributed(&mut RunToEnd, &shared.rank(k));
                    assert_eq!(traffic.iterations, config.iterations - resume.map_or(0, |r| r.iteration));
                    (solution, state, traffic.evaluation)
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().expect("a rank")).collect()
    })
}

/// An evaluation's numbers, as bits.
fn eval_bits(e: &Evaluation) -> Vec<u64> {
    e.values.iter().chain(&e.best_response).chain([&e.nash_conv]).map(|x| x.to_bits()).collect()
}

/// Every number of a state, as bits.
fn bits(state: &CfrState) -> Vec<u64> {
    let all = [&state.regrets, &state.average, &state.current, &state.prediction];
    all.iter().flat_map(|v| v.iter().map(|x| x.to_bits())).collect()
}

/// Runs 1 to 4 ranks, each on its shard, and checks that every rank of
/// every run holds the state, the profile and the evaluation of the run on
/// one rank, bit for bit, and that the ranks' evaluation is the
/// single-process evaluator's on the whole tree up to rounding; returns
/// the one-rank run's answer.
fn same_for_any_rank_count(g: &Game, config: &CfrConfig) -> (Solution, CfrState) {
    let mut one = run_ranks(&g.shards[0], config, None);
    let (solution, state, evaluation) = one.remove(0);
    let want = bits(&state);
    let probs: Vec<u64> = solution.profile.probs.iter().map(|x| x.to_bits()).collect();
    for ranks in 2..=4 {
        for (k, (s, st, e)) in run_ranks(&g.shards[ranks - 1], config, None).iter().enumerate() {
            assert_eq!(st.iteration, config.iterations);
            assert!(bits(st) == want, "{ranks} ranks, rank {k}: the state differs from one rank's");
            let got: Vec<u64> = s.profile.probs.iter().map(|x| x.to_bits()).collect();
            assert!(got == probs, "{ranks} ranks, rank {k}: the profile differs from one rank's");
            assert!(eval_bits(e) == eval_bits(&evaluation), "{ranks} ranks, rank {k}: {e:?} against {evaluation:?}");
        }
    }
    let single = evaluate(&g.whole, &solution.profile);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * (1.0 + b.abs());
    let pairs = single
        .values
        .iter()
        .chain(&single.best_response)
        .zip(evaluation.values.iter().chain(&evaluation.best_response));
    assert!(pairs.clone().all(|(a, b)| close(*b, *a)), "ranks {evaluation:?}, one process {single:?}");
    assert!(close(evaluation.nash_conv, single.nash_conv), "ranks {evaluation:?}, one process {single:?}");
    (solution, state)
}

/// Checks that 20 iterations on 3 ranks end at the threaded solver's
/// NashConv up to rounding. Only a few: the two sum the regrets in other
/// orders, and CFR's dynamics (a regret at exactly 0 or just above it) make
/// the last bits' difference grow with the iterations (Leduc CFR+: 1e-16
/// of the NashConv after 10 iterations, 6e-11 after 100, 4% after 500).
fn close_to_threaded(what: &str, g: &Game, config: &CfrConfig) {
    let config = CfrConfig { iterations: 20, ..config.clone() };
    let (distributed, _, _) = run_ranks(&g.shards[2], &config, None).remove(0);
    let threaded = CfrConfig { threads: 2, ..config };
    let (solution, _) = CfrSolver { config: threaded, resume: None }.run(&g.whole, &mut RunToEnd).expect("runs");
    let got = evaluate(&g.whole, &distributed.profile).nash_conv;
    let want = evaluate(&g.whole, &solution.profile).nash_conv;
    assert!((got - want).abs() <= 1e-9 * want, "{what}: NashConv {got:e} on 3 ranks, {want:e} threaded");
}

/// A shard holds the root, its children and its units' subtrees, node for
/// node as the whole tree has them, and every information set of the
/// whole tree: the shards' nodes below the root's children add up to the
/// whole tree's, and each of several shards holds fewer nodes.
fn shards_partition_the_tree(what: &str, g: &Game) {
    let whole = &g.whole;
    let kids = whole.children(NodeId::ROOT);
    let k = kids.count();
    let sets = |t: &Tree| {
        let labels = t.infosets.keys().map(|s| t.infoset_label(s).to_string());
        t.infosets.iter().map(|s| (s.player, s.n_actions, s.index_in_player)).zip(labels).collect::<Vec<_>>()
    };
    let one = &g.shards[0][0];
    let nodes = |t: &Tree| t.nodes().map(|n| t.node(n)).collect::<Vec<_>>();
    assert!(nodes(one) == nodes(whole) && one.preorder() == whole.preorder(), "{what}: one shard is the whole tree");
    for (r, shards) in g.shards.iter().enumerate() {
        let below: usize = shards.iter().map(|t| t.n_nodes() - 1 - k).sum();
        assert_eq!(below + 1 + k, whole.n_nodes(), "{what}, {} ranks: the shards' nodes", r + 1);
        for (rank, t) in shards.iter().enumerate() {
            assert!(sets(t) == sets(whole), "{what}, rank {rank} of {}: other information sets", r + 1);
            if r > 0 && k > r {
                assert!(t.n_nodes() < whole.n_nodes(), "{what}, rank {rank} of {}: the whole tree", r + 1);
            }
            // Each unit's subtree, node for node: its size and its leaves'
            // payoffs in preorder.
            for u in units(t, rank, r + 1) {
                let leaves = |t: &Tree| {
                    let mut out = Vec::new();
                    let mut stack = vec![u];
                    while let Some(n) = stack.pop() {
                        match t.children(n).is_empty() {
                            true => out.push(t.payoffs(n).to_vec()),
                            false => stack.extend(t.children(n).rev()),
                        }
                    }
                    out
                };
                assert!(leaves(t) == leaves(whole), "{what}, rank {rank} of {}: unit {u:?}", r + 1);
            }
        }
    }
}

#[test]
fn units_cover_the_root_children_once_for_any_rank_count() {
    let tree = game("examples/kuhn.gala", &[]).whole;
    let kids = tree.children(NodeId::ROOT);
    for size in 1..=8 {
        let runs: Vec<_> = (0..size).map(|r| units(&tree, r, size)).collect();
        assert_eq!(runs[0].start, kids.start);
        assert_eq!(runs[size - 1].end, kids.end);
        assert!(runs.windows(2).all(|w| w[0].end == w[1].start), "{size} ranks: {runs:?}");
    }
}

#[test]
fn leduc_cfr_plus_is_the_same_on_any_rank_count_and_reaches_the_game_value() {
    let leduc = game("examples/leduc.gala", &[]);
    shards_partition_the_tree("leduc", &leduc);
    let config = CfrConfig::new(Variant::CfrPlus, 1000);
    let (solution, _) = same_for_any_rank_count(&leduc, &config);
    let e = evaluate(&leduc.whole, &solution.profile);
    close_to_threaded("leduc", &leduc, &config);
    // Leduc's value for the first player (OpenSpiel, Lanctot's thesis).
    assert!((e.values[0] - -0.085_606_424_078).abs() < 2e-3, "value {}", e.values[0]);
    assert!(e.nash_conv < 5e-3, "NashConv {}", e.nash_conv);
}

#[test]
fn every_variant_is_the_same_on_any_rank_count() {
    let kuhn = game("examples/kuhn.gala", &[]);
    shards_partition_the_tree("kuhn", &kuhn);
    let variants = [Variant::Cfr, Variant::CfrPlus, Variant::DCFR, Variant::Lcfr, Variant::PCFR_PLUS];
    for variant in variants {
        for alternating in [true, false] {
            let config = CfrConfig { alternating, ..CfrConfig::new(variant, 400) };
            let (solution, _) = same_for_any_rank_count(&kuhn, &config);
            let e = evaluate(&kuhn.whole, &solution.profile);
            let what = format!("{} alternating {alternating}", variant.name());
            close_to_threaded(&what, &kuhn, &config);
            // Kuhn's value for the first player is -1/18.
            assert!((e.values[0] + 1.0 / 18.0).abs() < 1e-2, "{what}: value {}", e.values[0]);
        }
    }
}

#[test]
fn liars_dice_and_three_player_kuhn_are_the_same_on_any_rank_count() {
    for (path, params) in [("examples/liars_dice.gala", &["sides=4"][..]), ("cli/tests/games/kuhn3.gala", &[][..])] {
        let g = game(path, params);
        shards_partition_the_tree(path, &g);
        let config = CfrConfig::new(Variant::CfrPlus, 200);
        let (solution, _) = same_for_any_rank_count(&g, &config);
        let e = evaluate(&g.whole, &solution.profile);
        close_to_threaded(path, &g, &config);
        let first = evaluate(
            &g.whole,
            &CfrSolver { config: CfrConfig::new(Variant::CfrPlus, 10), resume: None }
                .run(&g.whole, &mut RunToEnd)
                .expect("runs")
                .0
                .profile,
        );
        assert!(e.nash_conv < first.nash_conv, "{path}: NashConv {} after 200 iterations", e.nash_conv);
    }
}

/// A run stopped and resumed on the same rank count (each rank from the
/// checkpoint of its shard) ends where one uninterrupted run ends, bit for
/// bit; a rank's checkpoint is refused on another rank's shard.
#[test]
fn a_run_resumed_on_its_rank_count_is_the_same() {
    let leduc = game("examples/leduc.gala", &[]);
    let whole = run_ranks(&leduc.shards[0], &CfrConfig::new(Variant::PCFR_PLUS, 100), None).remove(0).1;
    let shards = &leduc.shards[2];
    let fp = |t: &Tree| galac_solvers::cfr::Fingerprint::of(t, &Variant::PCFR_PLUS);
    let half = run_ranks(shards, &CfrConfig::new(Variant::PCFR_PLUS, 60), None);
    let files: Vec<Vec<u8>> = half.iter().zip(shards).map(|((_, state, _), t)| state.to_bytes(&fp(t))).collect();
    assert!(CfrState::from_bytes(&files[0], &fp(&shards[1])).is_err(), "rank 0's file read as rank 1's");
    let read: Vec<CfrState> =
        files.iter().zip(shards).map(|(f, t)| CfrState::from_bytes(f, &fp(t)).expect("reads back")).collect();
    // Each rank resumes from its own file (the states are equal).
    assert!(read.iter().all(|s| bits(s) == bits(&read[0])));
    for (k, (_, state, _)) in
        run_ranks(shards, &CfrConfig::new(Variant::PCFR_PLUS, 100), Some(&read[0])).iter().enumerate()
    {
        assert!(bits(state) == bits(&whole), "rank {k} of 3 after resuming differs from one uninterrupted run");
    }
}
