//! The double oracle's restricted LPs by HiGHS, each from the basis the
//! last one ended at: every warm LP's value a cold solve's, and the answers
//! exact (known values and the full LP's, NashConv on the full tree), from
//! the paper's start and from a CFR+ seed. Split from `double_oracle.rs`.

use galac_runtime::tree::{build_own, BuildOptions};
use galac_solvers::double_oracle::{solve_game, DoOptions, Variant};
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::solver::RunToEnd;

use crate::double_oracle::{cfr_default, check_answer};
use crate::repo_root;

/// The restricted LPs by HiGHS, each from the basis the last one ended at:
/// every one's value equals a from-scratch solve of the same restricted game
/// (`DoOptions::check_warm` fails the run otherwise), all but the first
/// start from a basis, and
/// the answers are exact: Kuhn's -1/18 and Leduc's value (OpenSpiel's,
/// -0.085606424078), and on search and phantom tic-tac-toe games the value
/// of clarabel's full LP, every variant.
#[test]
fn warm_started_restricted_lps_equal_cold_solves() {
    let known: [(&str, &[&str], Option<f64>); 4] = [
        ("kuhn.gala", &[], Some(-1.0 / 18.0)),
        ("leduc.gala", &[], Some(-0.085_606_424_078)),
        ("search_game.gala", &["graph=1", "depth=4"], None),
        ("phantom_ttt.gala", &["marks=4"], None),
    ];
    let mut warm_lps = 0;
    for (file, params, value) in known {
        let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example");
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let game = galac_compiler::driver::load_interp(file, src.as_bytes(), &params).expect("loads");
        let (tree, mut interner, _) = build_own(&game, &BuildOptions::default()).expect("builds");
        let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
        let lp_value = lp::solve(&sf, Backend::Clarabel, None).expect("LP").value;
        if let Some(v) = value {
            assert!((lp_value - v).abs() < 1e-9, "{file}: clarabel's LP {lp_value} != {v}");
        }
        for &variant in Variant::ALL {
            let options =
                DoOptions { variant, backend: Some(Backend::Highs), check_warm: true, ..DoOptions::default() };
            let what = format!("{file} {params:?} do-{}", variant.name());
            let sol =
                solve_game(&game, &mut interner, &options, &mut RunToEnd).unwrap_or_else(|e| panic!("{what}: {e}"));
            check_answer(&tree, &sol, lp_value, &what);
            let [warm, cold] = sol.lp_starts;
            assert_eq!(cold, 1, "{what}: {warm} LPs from the last basis, {cold} from scratch");
            warm_lps += warm;
        }
    }
    assert!(warm_lps >= 20, "only {warm_lps} LPs started from a basis");
}

/// The oracle as `solve --solver do --warm-start-cfr 100 --lp-backend
/// highs` runs it (seeded with a CFR+ support, the CFR+ average as the
/// default strategy, each restricted LP by HiGHS from the last one's basis):
/// the full LP's value to 1e-9 on Leduc (OpenSpiel's value), liar's dice
/// with four sides (1/16) and with six (HiGHS's and clarabel's full LPs,
/// which agree), NashConv on the full tree (`evaluate`, not the oracle's
/// searches) at most 1e-9 of the range, each warm LP's value a cold
/// solve's (`check_warm`). On liar's dice this run was faster than the full
/// LP, where the paper's start took 368 LPs (docs/perf/double-oracle.md).
#[test]
fn cfr_seeded_oracle_with_warm_highs_lps_matches_the_full_lp() {
    let cases: [(&str, &[&str], Option<f64>); 3] = [
        ("leduc.gala", &[], Some(-0.085_606_424_078)),
        ("liars_dice.gala", &["sides=4"], Some(1.0 / 16.0)),
        ("liars_dice.gala", &[], None),
    ];
    let mut warm_lps = 0;
    for (file, params, known) in cases {
        let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example");
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let what = format!("{file} {params:?}");
        let game = galac_compiler::driver::load_interp(file, src.as_bytes(), &params).expect("loads");
        let (tree, mut interner, _) = build_own(&game, &BuildOptions::default()).expect("builds");
        let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
        let lp_value = lp::solve(&sf, Backend::Highs, None).expect("HiGHS's LP").value;
        let clarabel = lp::solve(&sf, Backend::Clarabel, None).expect("clarabel's LP").value;
        assert!((lp_value - clarabel).abs() < 1e-9, "{what}: HiGHS's LP {lp_value}, clarabel's {clarabel}");
        if let Some(v) = known {
            assert!((lp_value - v).abs() < 1e-9, "{what}: the LP's {lp_value} != {v}");
        }
        let (default, seed) = cfr_default(&tree, 100);
        let options =
            DoOptions { seed, default, backend: Some(Backend::Highs), check_warm: true, ..DoOptions::default() };
        let sol = solve_game(&game, &mut interner, &options, &mut RunToEnd).unwrap_or_else(|e| panic!("{what}: {e}"));
        check_answer(&tree, &sol, lp_value, &what);
        let [warm, cold] = sol.lp_starts;
        assert_eq!(cold, 1, "{what}: {warm} LPs from the last basis, {cold} from scratch");
        assert!(sol.simplex_iterations > 0, "{what}: no simplex iteration counted");
        warm_lps += warm;
    }
    assert!(warm_lps >= 2, "only {warm_lps} LPs started from a basis");
}
