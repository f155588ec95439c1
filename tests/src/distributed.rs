//! Distributed CFR (`galac_solvers::cfr::distributed`) with threads
//! standing in for the ranks of an MPI job ([`LocalRanks`]): the state and
//! the answer are the same bit for bit for 1 to 4 ranks, every variant,
//! two and three players; the answer is the threaded solver's up to the
//! last bits and reaches the known game values. The same runs under
//! `mpirun` are in cli/tests/cli/mpi.rs (the `mpi` feature).

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::cfr::distributed::{units, Shared};
use galac_solvers::cfr::{Cfr, CfrConfig, CfrSolver, CfrState, Variant};
use galac_solvers::solver::{RunToEnd, Solution};

use crate::repo_root;

fn tree_of(path: &str, params: &[&str]) -> Tree {
    let src = std::fs::read(repo_root().join(path)).expect("game file");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(path, &src, &params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// A distributed run on `ranks` threads, from `resume` if given: every
/// rank's answer and state.
fn run_ranks(tree: &Tree, config: &CfrConfig, ranks: usize, resume: Option<&CfrState>) -> Vec<(Solution, CfrState)> {
    let shared = Shared::new(ranks);
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..ranks)
            .map(|k| {
                let shared = &shared;
                s.spawn(move || {
                    let cfr = Cfr::new_distributed(tree, config.clone(), resume.cloned()).expect("fits");
                    let (solution, state, traffic) = cfr.run_distributed(&mut RunToEnd, &shared.rank(k));
                    assert_eq!(traffic.iterations, config.iterations - resume.map_or(0, |r| r.iteration));
                    (solution, state)
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().expect("a rank")).collect()
    })
}

/// Every number of a state, as bits.
fn bits(state: &CfrState) -> Vec<u64> {
    let all = [&state.regrets, &state.average, &state.current, &state.prediction];
    all.iter().flat_map(|v| v.iter().map(|x| x.to_bits())).collect()
}

/// Runs 1 to 4 ranks and checks that every rank of every run holds the
/// state and the profile of the run on one rank, bit for bit; returns
/// that run's answer.
fn same_for_any_rank_count(tree: &Tree, config: &CfrConfig) -> (Solution, CfrState) {
    let mut one = run_ranks(tree, config, 1, None);
    let (solution, state) = one.remove(0);
    let want = bits(&state);
    let probs: Vec<u64> = solution.profile.probs.iter().map(|x| x.to_bits()).collect();
    for ranks in 2..=4 {
        for (k, (s, st)) in run_ranks(tree, config, ranks, None).iter().enumerate() {
            assert_eq!(st.iteration, config.iterations);
            assert!(bits(st) == want, "{ranks} ranks, rank {k}: the state differs from one rank's");
            let got: Vec<u64> = s.profile.probs.iter().map(|x| x.to_bits()).collect();
            assert!(got == probs, "{ranks} ranks, rank {k}: the profile differs from one rank's");
        }
    }
    (solution, state)
}

/// Checks that 20 iterations on 3 ranks end at the threaded solver's
/// NashConv up to rounding. Only a few: the two sum the regrets in other
/// orders, and CFR's dynamics (a regret at exactly 0 or just above it) make
/// the last bits' difference grow with the iterations (Leduc CFR+: 1e-16
/// of the NashConv after 10 iterations, 6e-11 after 100, 4% after 500).
fn close_to_threaded(what: &str, tree: &Tree, config: &CfrConfig) {
    let config = CfrConfig { iterations: 20, ..config.clone() };
    let (distributed, _) = run_ranks(tree, &config, 3, None).remove(0);
    let threaded = CfrConfig { threads: 2, ..config };
    let (solution, _) = CfrSolver { config: threaded, resume: None }.run(tree, &mut RunToEnd).expect("runs");
    let (got, want) = (evaluate(tree, &distributed.profile).nash_conv, evaluate(tree, &solution.profile).nash_conv);
    assert!((got - want).abs() <= 1e-9 * want, "{what}: NashConv {got:e} on 3 ranks, {want:e} threaded");
}

#[test]
fn units_cover_the_root_children_once_for_any_rank_count() {
    let tree = tree_of("examples/kuhn.gala", &[]);
    let sizes = galac_solvers::cfr::walk::subtree_sizes(&tree);
    let kids = tree.children(galac_runtime::ids::NodeId::ROOT);
    for size in 1..=8 {
        let runs: Vec<_> = (0..size).map(|r| units(&tree, &sizes, r, size)).collect();
        assert_eq!(runs[0].start, kids.start);
        assert_eq!(runs[size - 1].end, kids.end);
        assert!(runs.windows(2).all(|w| w[0].end == w[1].start), "{size} ranks: {runs:?}");
    }
}

#[test]
fn leduc_cfr_plus_is_the_same_on_any_rank_count_and_reaches_the_game_value() {
    let leduc = tree_of("examples/leduc.gala", &[]);
    let config = CfrConfig::new(Variant::CfrPlus, 1000);
    let (solution, _) = same_for_any_rank_count(&leduc, &config);
    let e = evaluate(&leduc, &solution.profile);
    close_to_threaded("leduc", &leduc, &config);
    // Leduc's value for the first player (OpenSpiel, Lanctot's thesis).
    assert!((e.values[0] - -0.085_606_424_078).abs() < 2e-3, "value {}", e.values[0]);
    assert!(e.nash_conv < 5e-3, "NashConv {}", e.nash_conv);
}

#[test]
fn every_variant_is_the_same_on_any_rank_count() {
    let kuhn = tree_of("examples/kuhn.gala", &[]);
    let variants = [Variant::Cfr, Variant::CfrPlus, Variant::DCFR, Variant::Lcfr, Variant::PCFR_PLUS];
    for variant in variants {
        for alternating in [true, false] {
            let config = CfrConfig { alternating, ..CfrConfig::new(variant, 400) };
            let (solution, _) = same_for_any_rank_count(&kuhn, &config);
            let e = evaluate(&kuhn, &solution.profile);
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
        let tree = tree_of(path, params);
        let config = CfrConfig::new(Variant::CfrPlus, 200);
        let (solution, _) = same_for_any_rank_count(&tree, &config);
        let e = evaluate(&tree, &solution.profile);
        close_to_threaded(path, &tree, &config);
        let first = evaluate(
            &tree,
            &CfrSolver { config: CfrConfig::new(Variant::CfrPlus, 10), resume: None }
                .run(&tree, &mut RunToEnd)
                .expect("runs")
                .0
                .profile,
        );
        assert!(e.nash_conv < first.nash_conv, "{path}: NashConv {} after 200 iterations", e.nash_conv);
    }
}

/// A run stopped and resumed on another rank count ends where one
/// uninterrupted run ends, bit for bit: the state is the same on every
/// rank, so a checkpoint does not depend on the rank count either.
#[test]
fn a_run_resumed_on_another_rank_count_is_the_same() {
    let leduc = tree_of("examples/leduc.gala", &[]);
    let whole = run_ranks(&leduc, &CfrConfig::new(Variant::PCFR_PLUS, 100), 1, None).remove(0).1;
    let half = run_ranks(&leduc, &CfrConfig::new(Variant::PCFR_PLUS, 60), 2, None).remove(1).1;
    let bytes = half.to_bytes(&galac_solvers::cfr::Fingerprint::of(&leduc, &Variant::PCFR_PLUS));
    let read = CfrState::from_bytes(&bytes, &galac_solvers::cfr::Fingerprint::of(&leduc, &Variant::PCFR_PLUS))
        .expect("reads back");
    for (k, (_, state)) in
        run_ranks(&leduc, &CfrConfig::new(Variant::PCFR_PLUS, 100), 3, Some(&read)).iter().enumerate()
    {
        assert!(bits(state) == bits(&whole), "rank {k} of 3 after resuming differs from one uninterrupted run");
    }
}
