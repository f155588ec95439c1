//! The solver layer's shared pieces: the treeplex against the tree's own
//! sequence counts, best responses whose pure strategies are evaluated
//! independently, and the LP driven through the `Solver` trait.

use galac_runtime::ids::{NodeId, SeqId};
use galac_runtime::tree::{build, BuildOptions, NodeView, Tree};
use galac_solvers::best_response::{best_response, evaluate, expected_values};
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{Control, Progress, SolveError, Solver};
use galac_solvers::treeplex::Treeplex;
use galac_solvers::Profile;

use crate::repo_root;

fn example_tree(file: &str, params: &[&str]) -> Tree {
    let src = std::fs::read(repo_root().join("examples").join(file)).expect("example");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(file, &src, &params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

/// Every player's sequences, as the treeplex numbers them, are the tree's
/// count (made by the tree builder on its own); a set's parent sequence is
/// one of its player's sequences that the tree met before the set, and each
/// decision node's own sequence below a parent set's action is that action.
#[test]
fn treeplex_numbers_the_sequences_the_tree_counts() {
    for (file, params) in [
        ("kuhn.gala", &[][..]),
        ("leduc.gala", &[][..]),
        ("poker.gala", &[][..]),
        ("nim222.gala", &[][..]),
        ("inspection.gala", &["stages=4", "inspections=2"][..]),
    ] {
        let tree = example_tree(file, params);
        let plex = Treeplex::new(&tree);
        let stats = tree.stats();
        for p in tree.players() {
            assert_eq!(plex.n_seqs(p) as u64, stats.sequences[p.index()], "{file}: player {p}");
            for &set in &plex.infosets_of[p] {
                assert!(plex.parent_seq[set] < plex.first_seq(p, set), "{file}: set {set}");
            }
        }
        // Walk down independently: the parent sequence of a set is the last
        // action its player took above any of its nodes.
        let mut stack: Vec<(NodeId, Vec<SeqId>)> = vec![(NodeId::ROOT, vec![SeqId::EMPTY; tree.n_players as usize])];
        while let Some((node, seqs)) = stack.pop() {
            if let NodeView::Decision { player, infoset } = tree.node(node) {
                let p = player.index();
                assert_eq!(plex.parent_seq[infoset], seqs[p], "{file}: node {node}");
                for (a, child) in tree.children(node).enumerate() {
                    let mut s = seqs.clone();
                    s[p] = plex.first_seq(player, infoset) + a as u32;
                    stack.push((child, s));
                }
            } else {
                stack.extend(tree.children(node).map(|c| (c, seqs.clone())));
            }
        }
    }
}

/// A best response's pure strategy, played against the same others, earns
/// exactly its value (computed by the expected-value pass, not the best
/// response's own), and no single set's deviation earns more.
#[test]
fn best_responses_return_strategies_that_reach_their_value() {
    for file in ["kuhn.gala", "leduc.gala", "nim222.gala"] {
        let tree = example_tree(file, &[]);
        let uniform = Profile::uniform(&tree);
        let order = tree.preorder();
        for me in tree.players() {
            let br = best_response(&tree, &uniform, me);
            for (set, info) in tree.infosets.iter_enumerated() {
                assert_eq!(br.choice[set].is_some(), info.player == me, "{file}: set {set}");
            }
            let played = br.apply_to(&uniform);
            let value = expected_values(&tree, &played, &order)[me.index()];
            assert!((value - br.value).abs() < 1e-9, "{file} player {me}: {value} != {}", br.value);
            assert!(br.value >= expected_values(&tree, &uniform, &order)[me.index()] - 1e-12);
            for set in tree.infosets.keys().filter(|&s| tree.infosets[s].player == me) {
                for a in 0..tree.infosets[set].n_actions as usize {
                    let mut other = played.clone();
                    let probs = other.probs_mut(set);
                    probs.fill(0.0);
                    probs[a] = 1.0;
                    let v = expected_values(&tree, &other, &order)[me.index()];
                    assert!(v <= br.value + 1e-9, "{file}: set {set} action {a} earns {v} > {}", br.value);
                }
            }
        }
    }
}

/// Kuhn poker through the `Solver` trait: the known value -1/18, an
/// equilibrium (NashConv ~ 0), one progress report; a three-player game is
/// refused with a reason and no flag in the message.
/// The full LP's answer is exact to 1e-9 of the payoff range where the
/// interior-point solution alone is not: on the search game (graph 0,
/// depth 5, value -1 for the evader) its crumbs on actions an exact
/// solution never plays leave NashConv above that (docs/perf/lp.md, "Crumbs").
#[test]
fn the_lp_answer_is_exact_to_1e9_of_the_range() {
    let tree = example_tree("search_game.gala", &["graph=0", "depth=5"]);
    let sol = LpSolver { backend: Backend::Clarabel, cancel: None }
        .solve(&tree, &mut galac_solvers::solver::RunToEnd)
        .expect("solves");
    let eval = evaluate(&tree, &sol.profile);
    assert!((eval.values[0] + 1.0).abs() <= 2e-9, "value {}", eval.values[0]);
    assert!(eval.nash_conv <= 2e-9, "NashConv {:e}", eval.nash_conv);
}

#[test]
fn the_lp_runs_behind_the_solver_trait() {
    let tree = example_tree("kuhn.gala", &[]);
    let solver = LpSolver { backend: Backend::Clarabel, cancel: None };
    let mut reports: Vec<Progress> = Vec::new();
    let mut observer = |p: &Progress| {
        reports.push(p.clone());
        Control::Continue
    };
    let sol = solver.solve(&tree, &mut observer).expect("kuhn solves");
    let eval = evaluate(&tree, &sol.profile);
    assert!((eval.values[0] + 1.0 / 18.0).abs() < 1e-9, "{}", eval.values[0]);
    assert!(eval.nash_conv.abs() < 1e-9, "{}", eval.nash_conv);
    assert_eq!(reports.len(), 1);
    assert!(!sol.stopped);
    let nim = example_tree("nim222.gala", &[]);
    let err = solver.solve(&nim, &mut galac_solvers::solver::RunToEnd).err();
    let msg = err.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(matches!(err, Some(SolveError::Unsupported { .. })), "{msg}");
    assert!(msg.contains("exactly 2 players") && !msg.contains("--"), "{msg}");
}
