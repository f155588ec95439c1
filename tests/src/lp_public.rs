//! The public LP (`galac_solvers::lp_public`): the sequence-form LP over
//! a game's public tree reaches the known values (Kuhn's -1/18; Leduc's
//! from OpenSpiel, in examples/leduc.gala's header; the scalar LP's on
//! liar's dice), and its profile, mapped to the tree, is an equilibrium by
//! the independent scalar best response.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lp_public::PublicLp;
use galac_solvers::vector::from_tree;

use crate::repo_root;

fn tree_of(file: &str, params: &[&str]) -> Tree {
    let src = std::fs::read(repo_root().join("examples").join(file)).expect("example");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(file, &src, &params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// The LP's value and the scalar best response's value and NashConv of
/// its profile.
fn solve(tree: &Tree) -> (f64, f64, f64) {
    let derived = from_tree(tree).unwrap_or_else(|e| panic!("{e}"));
    let lp = PublicLp::new(&derived.game);
    let sol = lp.solve(galac_solvers::lp::Backend::Highs, None).expect("HiGHS solves");
    let (profile, _) = lp.profile(tree, &derived, &sol.plans);
    let eval = evaluate(tree, &profile);
    (sol.value, eval.values[0], eval.nash_conv)
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
