//! Lemke's algorithm on the sequence form: its answers are equilibria
//! (regret checked by the independent best response), the signalling example
//! ends in one of its known equilibria, and on zero-sum games both players'
//! payoffs are the LP's value.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lemke;
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::solver::RunToEnd;

use crate::games::load_interp;

fn tree_of(file: &str, params: &[&str]) -> Tree {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

/// Regret of each player, from the best response module.
fn regrets(tree: &Tree, profile: &galac_solvers::Profile) -> [f64; 2] {
    let eval = evaluate(tree, profile);
    [eval.best_response[0] - eval.values[0], eval.best_response[1] - eval.values[1]]
}

#[test]
fn beer_quiche_ends_in_a_known_pooling_equilibrium() {
    let tree = tree_of("beer_quiche.gala", &[]);
    let sol = lemke::solve(&tree, &mut RunToEnd).expect("an equilibrium");
    for r in regrets(&tree, &sol.profile) {
        assert!(r.abs() <= 1e-9, "regret {r}");
    }
    let [s, r] = sol.payoffs;
    assert!((r - 0.9).abs() < 1e-9, "receiver {r}");
    assert!((s - 2.9).abs() < 1e-9 || (s - 2.1).abs() < 1e-9, "sender {s}");
}

#[test]
fn zero_sum_payoffs_are_the_lp_value() {
    for (file, params) in [
        ("kuhn.gala", &[][..]),
        ("poker.gala", &[][..]),
        ("inspection.gala", &[][..]),
        ("inspection.gala", &["stages=6", "inspections=3"][..]),
        // Degenerate: without the perturbation of `q` the float ratio test
        // wanders here, and fails on larger Leduc variants.
        ("leduc.gala", &["ranks=2", "suits=2", "max_raises=1"][..]),
        // A long path with the covering vector 1 (docs/perf/lemke.md).
        ("leduc.gala", &["ranks=2", "suits=2", "max_raises=2"][..]),
    ] {
        let tree = tree_of(file, params);
        let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
        let value = lp::solve(&sf, Backend::Microlp, None).expect("LP").value;
        let sol = lemke::solve(&tree, &mut RunToEnd).unwrap_or_else(|e| panic!("{file}: {e}"));
        for r in regrets(&tree, &sol.profile) {
            assert!(r.abs() <= 1e-9, "{file} {params:?}: regret {r}");
        }
        assert!((sol.payoffs[0] - value).abs() < 1e-7, "{file}: {} vs LP {value}", sol.payoffs[0]);
        assert!((sol.payoffs[1] + value - sf.constant_sum as f64).abs() < 1e-7, "{file}");
    }
}

/// Full Leduc (9,457 nodes, an LCP of 3,124 rows), where Gambit's
/// `lcp_solve` does not finish in minutes (BENCHMARKS.md, Lemke;
/// docs/perf/lemke.md). The value is OpenSpiel's (also the LP's, see
/// `solve.rs`), the regrets come from the independent best response.
#[test]
fn leduc_ends_in_an_equilibrium_with_openspiel_value() {
    let tree = tree_of("leduc.gala", &[]);
    let sol = lemke::solve(&tree, &mut RunToEnd).unwrap_or_else(|e| panic!("{e}"));
    for r in regrets(&tree, &sol.profile) {
        assert!(r.abs() <= 1e-9, "regret {r}");
    }
    assert!((sol.payoffs[0] - -0.085606424).abs() < 1e-8, "first {}", sol.payoffs[0]);
    assert!((sol.payoffs[0] + sol.payoffs[1]).abs() < 1e-12, "zero-sum: {:?}", sol.payoffs);
}

#[test]
fn more_than_two_players_are_refused() {
    let tree = tree_of("nim222.gala", &[]);
    let Err(e) = lemke::solve(&tree, &mut RunToEnd) else { panic!("nim222 has 3 players") };
    assert!(e.to_string().contains("exactly 2 players"), "{e}");
}
