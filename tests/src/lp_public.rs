//! The public LP (`galac_solvers::lp_public`): the sequence-form LP over
//! a game's public tree reaches the known values (Kuhn's -1/18; Leduc's
//! from OpenSpiel, in examples/leduc.gala's header; the scalar LP's on
//! liar's dice), and its profile, mapped to the tree, is an equilibrium by
//! the independent scalar best response.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lp::{self, Backend};
use galac_solvers::lp_public::{PublicLp, PublicLpSolver};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::vector::from_tree;

use crate::repo_root;

fn tree_of(file: &str, params: &[&str]) -> Tree {
    let src = std::fs::read(repo_root().join("examples").join(file)).expect("example");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(file, &src, &params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// The LP's value by `backend` and the scalar best response's value and
/// NashConv of its profile.
fn solve_with(tree: &Tree, backend: Backend) -> (f64, f64, f64) {
    let derived = from_tree(tree).unwrap_or_else(|e| panic!("{e}"));
    let lp = PublicLp::new(&derived.game);
    let sol = lp.solve(backend, None).expect("the engine solves");
    let (profile, _) = lp.profile(tree, &derived, &sol.plans);
    let eval = evaluate(tree, &profile);
    (sol.value, eval.values[0], eval.nash_conv)
}

/// [`solve_with`] by HiGHS where its library loads, else by clarabel.
fn solve(tree: &Tree) -> (f64, f64, f64) {
    solve_with(tree, if Backend::Highs.available().is_ok() { Backend::Highs } else { Backend::Clarabel })
}

#[test]
fn kuhn_public_lp_is_exact() {
    let (lp, value, nash_conv) = solve(&tree_of("kuhn.gala", &[]));
    assert!((lp + 1.0 / 18.0).abs() < 1e-12, "{lp}");
    assert!((value + 1.0 / 18.0).abs() < 1e-12, "{value}");
    assert!(nash_conv < 1e-12, "{nash_conv}");
}

/// Leduc (6 cards): folds are constants, showdowns rankings with card
/// removal; the value from examples/leduc.gala's header (OpenSpiel's).
#[test]
fn leduc_public_lp_reaches_openspiels_value() {
    let (lp, value, nash_conv) = solve(&tree_of("leduc.gala", &[]));
    assert!((lp + 0.0856064).abs() < 1e-6, "{lp}");
    assert!((value - lp).abs() < 1e-9, "{value} against {lp}");
    assert!(nash_conv < 1e-9, "{nash_conv}");
}

/// 4-rank Leduc by both engines against the scalar LP's value (clarabel,
/// two LPs), the public one's profile checked by the scalar best response;
/// and the solver's answer, crumbs dropped, as exact.
#[test]
fn four_rank_leduc_matches_the_scalar_lp() {
    let tree = tree_of("leduc.gala", &["ranks=4"]);
    let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
    let scalar = lp::solve(&sf, Backend::Clarabel, None).expect("clarabel solves").value;
    let mut engines = vec![Backend::Clarabel];
    if Backend::Highs.available().is_ok() {
        engines.push(Backend::Highs);
    }
    for backend in engines {
        let (value, played, nash_conv) = solve_with(&tree, backend);
        assert!((value - scalar).abs() < 1e-9, "{}: {value} against the scalar LP's {scalar}", backend.name());
        assert!((played - scalar).abs() < 1e-8, "{}: {played}", backend.name());
        assert!(nash_conv < 1e-8, "{}: {nash_conv}", backend.name());
        let solution = PublicLpSolver { backend, cancel: None }.solve(&tree, &mut RunToEnd).expect("solves");
        let eval = evaluate(&tree, &solution.profile);
        assert!(eval.nash_conv < 1e-8, "{}: {}", backend.name(), eval.nash_conv);
        assert!(solution.phases.iter().any(|(p, _)| *p == "public game"));
    }
}

/// Liar's dice with four sides: every leaf a payoff matrix (no running
/// sums); the value from examples/liars_dice.gala's header (1/16).
#[test]
fn liars_dice_public_lp_reaches_its_value() {
    let (lp, value, nash_conv) = solve_with(&tree_of("liars_dice.gala", &["sides=4"]), Backend::Clarabel);
    assert!((lp - 1.0 / 16.0).abs() < 1e-8, "{lp}");
    assert!((value - 1.0 / 16.0).abs() < 1e-8, "{value}");
    assert!(nash_conv < 1e-8, "{nash_conv}");
}

/// A game outside vector CFR's class is refused with the reason, not
/// solved wrong: goofspiel's simultaneous moves are not seen by both.
#[test]
fn games_outside_the_class_are_refused() {
    let tree = tree_of("goofspiel.gala", &["cards=3"]);
    let err = PublicLpSolver { backend: Backend::Clarabel, cancel: None }
        .solve(&tree, &mut RunToEnd)
        .expect_err("outside the class");
    assert!(err.to_string().contains("cannot solve this game"), "{err}");
}
