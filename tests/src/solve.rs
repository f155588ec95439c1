//! The sequence-form LP against values computed by others, with every answer
//! checked by an independent best response (NashConv ~ 0).

use galac_runtime::ids::PlayerId;
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::{evaluate, Evaluation};
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::Profile;

use crate::repo_root;

/// A game solved by the LP: its tree, the LP's profile, that profile's
/// independent evaluation and the LP's own value.
pub(crate) struct Solved {
    /// The tree, with labels.
    pub(crate) tree: Tree,
    /// The LP's equilibrium as behaviour strategies.
    pub(crate) profile: Profile,
    /// Values and best responses against the profile (best_response.rs).
    pub(crate) eval: Evaluation,
    /// The value the LP reports.
    pub(crate) lp_value: f64,
}

pub(crate) fn solve_src(src: &str, params: &[&str], backend: Backend) -> Solved {
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game =
        galac_compiler::driver::load_interp("test.gala", src.as_bytes(), &params).unwrap_or_else(|e| panic!("{e}"));
    let opts = BuildOptions { labels: true, ..BuildOptions::default() };
    let (tree, _, _) = build(&game, &opts).unwrap_or_else(|e| panic!("{e}"));
    let sf = SequenceForm::new(&tree).unwrap_or_else(|e| panic!("{e}"));
    let sol = lp::solve(&sf, backend, None).unwrap_or_else(|e| panic!("{e}"));
    let mut profile = Profile::uniform(&tree);
    sf.behaviour(&tree, PlayerId(0), &sol.plans[0], &mut profile);
    sf.behaviour(&tree, PlayerId(1), &sol.plans[1], &mut profile);
    let eval = evaluate(&tree, &profile);
    Solved { tree, profile, eval, lp_value: sol.value }
}

/// Solves `examples/FILE` with the given params.
pub(crate) fn solve_example(file: &str, params: &[&str], backend: Backend) -> Solved {
    let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example");
    solve_src(&src, params, backend)
}

/// The largest payoff difference between leaves (at least 1).
pub(crate) fn payoff_range(tree: &Tree) -> f64 {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for n in tree.nodes() {
        for x in tree.payoffs(n) {
            lo = lo.min(*x);
            hi = hi.max(*x);
        }
    }
    (hi - lo).max(1) as f64
}

/// Checks the value and that the profile is an equilibrium.
pub(crate) fn check(s: &Solved, value: f64, tol: f64) {
    assert!((s.eval.values[0] - value).abs() <= tol, "value {} != {value}", s.eval.values[0]);
    assert!((s.lp_value - value).abs() <= tol.max(1e-8), "LP value {} != {value}", s.lp_value);
    let nash_conv = s.eval.nash_conv;
    assert!(nash_conv.abs() <= 1e-9 * payoff_range(&s.tree), "NashConv {nash_conv:e}");
}

/// Probability of `action` at the information set labelled `label`.
fn prob(s: &Solved, label: &str, action: &str) -> f64 {
    let set = s.tree.infosets.keys().find(|&i| s.tree.infoset_label(i) == label).unwrap_or_else(|| {
        let labels: Vec<&str> = s.tree.infosets.keys().map(|i| s.tree.infoset_label(i)).collect();
        panic!("no info set {label:?}; have {labels:?}")
    });
    let a = s.tree.action_labels(set).iter().position(|l| l == action).expect("action");
    s.profile.probs(set)[a]
}

#[test]
fn kuhn_value_is_minus_one_eighteenth_with_the_known_equilibrium_family() {
    for &backend in Backend::ALL {
        let s = solve_example("kuhn.gala", &[], backend);
        check(&s, -1.0 / 18.0, 1e-9);
        // The first player's bluff with the lowest card is some alpha in
        // [0, 1/3]; with the highest card he bets 3 alpha.
        let alpha = prob(&s, "first: my_card(1)", "Bet");
        let high = prob(&s, "first: my_card(3)", "Bet");
        assert!((-1e-9..=1.0 / 3.0 + 1e-9).contains(&alpha), "alpha {alpha}");
        assert!((high - 3.0 * alpha).abs() < 1e-6, "{high} != 3 * {alpha}");
        // With the middle card he never bets first.
        assert!(prob(&s, "first: my_card(2)", "Bet") < 1e-6);
    }
}

#[test]
fn leduc_value_matches_openspiel() {
    for backend in [Backend::Clarabel, Backend::Highs] {
        let s = solve_example("leduc.gala", &[], backend);
        check(&s, -0.085606424078, 1e-6);
    }
}

/// HiGHS's one-off LP, its second player's set values `q` bounded
/// (`lp::solve_highs_bounded`, docs/perf/lp.md "Bounded set values"), on
/// liar's dice: -7/258 with six sides, 1/16 with four (the example's
/// header; OpenSpiel's CFR+ agrees), and an equilibrium by the independent
/// best response.
#[test]
fn highs_lp_with_bounded_set_values_solves_liars_dice() {
    for (params, value) in [(&["sides=4"][..], 1.0 / 16.0), (&[][..], -7.0 / 258.0)] {
        check(&solve_example("liars_dice.gala", params, Backend::Highs), value, 1e-9);
    }
}

/// A bound on the set values that cuts off every optimum (Kuhn's `q` are
/// far past 1e-3 after scaling) does not give a wrong answer: the LP falls
/// back to free `q` and still gives -1/18 and an equilibrium.
#[test]
fn a_too_tight_set_value_bound_falls_back_to_free_ones() {
    let src = std::fs::read_to_string(repo_root().join("examples").join("kuhn.gala")).expect("example");
    let game = galac_compiler::driver::load_interp("kuhn.gala", src.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let (tree, _, _) = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree");
    let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
    let sol = lp::solve_highs_bounded(&sf, 1e-3).expect("HiGHS's LP");
    let mut profile = Profile::uniform(&tree);
    sf.behaviour(&tree, PlayerId(0), &sol.plans[0], &mut profile);
    sf.behaviour(&tree, PlayerId(1), &sol.plans[1], &mut profile);
    let eval = evaluate(&tree, &profile);
    check(&Solved { tree, profile, eval, lp_value: sol.value }, -1.0 / 18.0, 1e-9);
}

#[test]
fn matching_pennies_and_rock_paper_scissors_are_fair_and_uniform() {
    let pennies = "game mp { players even, odd; flow {
        choose even e in bool; choose odd o in bool;
        if e == o { outcome [1, -1]; } else { outcome [-1, 1]; } } }";
    let rps = "game rps { players a, b; enum Hand { Rock, Paper, Scissors }
        fn beats(x: Hand, y: Hand) -> bool {
            return (x == Rock && y == Scissors) || (x == Paper && y == Rock) || (x == Scissors && y == Paper);
        }
        flow {
            choose a x in Hand; choose b y in Hand;
            if beats(x, y) { outcome [1, -1]; } else if beats(y, x) { outcome [-1, 1]; } else { outcome [0, 0]; }
        } }";
    for (src, n) in [(pennies, 2.0), (rps, 3.0)] {
        for &backend in Backend::ALL {
            let s = solve_src(src, &[], backend);
            check(&s, 0.0, 1e-9);
            for x in &s.profile.probs {
                assert!((x - 1.0 / n).abs() < 1e-6, "not uniform: {:?}", s.profile.probs);
            }
        }
    }
}

#[test]
fn simplified_poker_gambler_bluffs_with_his_lowest_cards() {
    // The paper's 8-card simplified poker (1995 Fig. 5, 1997 Fig. 17).
    let s = solve_example("poker.gala", &[], Backend::Clarabel);
    // Its value (for the dealer, who is the first player) comes from the
    // Gambit check in CI; here the answer must be an equilibrium.
    check(&s, s.eval.values[0], 1e-9);
    let bet = |rank: u32| prob(&s, &format!("gambler: myhand([card({rank}, 0)])"), "1");
    assert!(bet(0) > 0.05 && bet(1) > 0.05, "no bluff: {} {}", bet(0), bet(1));
    for middle in 2..=4 {
        assert!(bet(middle) < 1e-6, "bets {} with card {middle}", bet(middle));
    }
    assert!(bet(7) > bet(0), "bets less with the best card");
}

#[test]
fn lp_backends_agree_on_inspection_games() {
    for (stages, inspections) in [(2, 1), (3, 1), (4, 2), (5, 2)] {
        let params = [format!("stages={stages}"), format!("inspections={inspections}")];
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        let a = solve_example("inspection.gala", &params, Backend::Microlp);
        let b = solve_example("inspection.gala", &params, Backend::Clarabel);
        let c = solve_example("inspection.gala", &params, Backend::Highs);
        check(&a, a.eval.values[0], 1e-9);
        check(&b, a.eval.values[0], 1e-7);
        check(&c, a.eval.values[0], 1e-9);
    }
}

#[test]
fn non_zero_sum_and_non_two_player_games_are_refused() {
    let src = "game g { players a, b; flow { choose a x in bool; if x { outcome [1, 1]; } else { outcome [0, 0]; } } }";
    let game = galac_compiler::driver::load_interp("t.gala", src.as_bytes(), &[]).expect("valid");
    let opts = BuildOptions { labels: true, ..BuildOptions::default() };
    let tree = build(&game, &opts).expect("tree").0;
    let msg = SequenceForm::new(&tree).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(
        msg,
        "the game is not zero-sum or constant-sum: the payoffs at the leaf after true sum to 2, but to 0 at the leaf after false"
    );
    let nim = std::fs::read_to_string(repo_root().join("examples/nim222.gala")).expect("nim");
    let game = galac_compiler::driver::load_interp("nim.gala", nim.as_bytes(), &[]).expect("valid");
    let tree = build(&game, &opts).expect("tree").0;
    let msg = SequenceForm::new(&tree).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(msg, "the sequence-form LP needs exactly 2 players; this game has 3");
}

/// A cancelled LP stops at its first check with `LpError::Cancelled`,
/// through HiGHS's interrupt callback and clarabel's termination callback
/// alike, for one player's LP and for both plans from one; a flag never
/// set changes no answer (Leduc's value, OpenSpiel's).
#[test]
fn a_cancelled_lp_stops_with_cancelled() {
    use galac_runtime::cancel::{Cancel, Reason};
    let src = std::fs::read_to_string(repo_root().join("examples/leduc.gala")).expect("example");
    let game = galac_compiler::driver::load_interp("leduc.gala", src.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let (tree, _, _) = build(&game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let sf = SequenceForm::new(&tree).unwrap_or_else(|e| panic!("{e}"));
    let (unset, cancelled) = (Cancel::new(), Cancel::new());
    cancelled.cancel(Reason::Interrupted);
    for backend in [Backend::Clarabel, Backend::Highs] {
        let sol = lp::solve_both(&sf, backend, None, Some(&unset)).unwrap_or_else(|e| panic!("{e}"));
        assert!((sol.value - -0.085606424078).abs() < 1e-9, "{backend:?}: {}", sol.value);
        assert_eq!(lp::solve(&sf, backend, Some(&cancelled)).err(), Some(lp::LpError::Cancelled), "{backend:?}");
        assert_eq!(lp::solve_both(&sf, backend, None, Some(&cancelled)).err(), Some(lp::LpError::Cancelled));
        let one = lp::solve_player(&sf, PlayerId(1), backend, Some(&cancelled));
        assert_eq!(one.err(), Some(lp::LpError::Cancelled), "{backend:?}");
    }
}
