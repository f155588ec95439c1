//! `solve --exact` (galac_solvers::exact): answers made exact (solved on
//! their supports, or rounded) and certified in exact arithmetic. Kuhn's
//! value is -1/18, Leduc's a certified fraction at its known float value; on every small two-player
//! zero-sum example the certified value equals the one Gambit's rational
//! `lp_solve` gives (through pygambit, as `gambit.rs`); where they differ,
//! Gambit's own profile is checked exactly on galac's tree and the test says
//! which of the two is an equilibrium.

use std::process::Command;
use std::str::FromStr;

use galac_app::formats::write_efg;
use galac_runtime::ids::{IdSlice, IdVec, InfosetId};
use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::cfr::{CfrConfig, CfrSolver, Variant};
use galac_solvers::exact::{certify, check, to_f64, Q};
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

use crate::gambit::python_with_pygambit;
use crate::repo_root;

fn tree_of(file: &str, params: &[&str]) -> Tree {
    let game = crate::games::load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0
}

fn lp(tree: &Tree, backend: Backend) -> Profile {
    LpSolver { backend, cancel: None }.solve(tree, &mut RunToEnd).expect("the LP solves").profile
}

/// A rational profile as floats, for the independent float evaluation.
fn floats(tree: &Tree, probs: &IdSlice<InfosetId, Vec<Q>>) -> Profile {
    let mut profile = Profile::uniform(tree);
    for (set, ps) in probs.iter_enumerated() {
        for (x, q) in profile.probs_mut(set).iter_mut().zip(ps) {
            *x = to_f64(q);
        }
    }
    profile
}

#[test]
fn kuhn_is_certified_at_minus_one_eighteenth() {
    let tree = tree_of("kuhn.gala", &[]);
    let minus_1_18 = Q::from_str("-1/18").expect("a fraction");
    for backend in [Backend::Clarabel, Backend::Microlp, Backend::Highs] {
        let cert = certify(&tree, &lp(&tree, backend));
        assert!(cert.certified(), "{backend:?}: exact NashConv {}", cert.nash_conv);
        assert_eq!(cert.values[0], minus_1_18, "{backend:?}");
        assert_eq!(cert.interval, Some((minus_1_18.clone(), minus_1_18.clone())));
        // The float evaluation of the rounded profile agrees: an equilibrium.
        let eval = evaluate(&tree, &floats(&tree, &cert.probs));
        assert!(eval.nash_conv.abs() < 1e-12 && (eval.values[0] + 1.0 / 18.0).abs() < 1e-12, "{eval:?}");
    }
}

#[test]
fn leduc_is_certified_as_a_fraction() {
    // Gambit's rational `lp_solve` takes more than 10 minutes on Leduc
    // (gambit.rs), so the fraction is checked otherwise: it is certified by
    // exact best responses (NashConv exactly 0), it is the known float value
    // (-0.085606424, OpenSpiel's and the float LP's), the float evaluation of
    // the exact profile is an equilibrium, and generic_poker, Leduc written
    // independently, gets the same fraction.
    let tree = tree_of("leduc.gala", &[]);
    let cert = certify(&tree, &lp(&tree, Backend::Clarabel));
    assert!(cert.certified() && cert.solved, "exact NashConv {}", cert.nash_conv);
    assert!((to_f64(&cert.values[0]) + 0.085_606_424).abs() < 1e-9, "{}", cert.values[0]);
    assert_eq!(cert.values[0], -cert.values[1].clone());
    let eval = evaluate(&tree, &floats(&tree, &cert.probs));
    assert!(eval.nash_conv.abs() < 1e-12, "{eval:?}");
    assert!((eval.values[0] - to_f64(&cert.values[0])).abs() < 1e-12, "{eval:?}");
    let generic = tree_of("generic_poker.gala", &[]);
    let other = certify(&generic, &lp(&generic, Backend::Clarabel));
    assert!(other.certified(), "generic_poker: exact NashConv {}", other.nash_conv);
    assert_eq!(other.values[0], cert.values[0]);
}

/// Lemke's answer is a vertex: the rows its opponent does not play but
/// that are tight must be part of the equations, or free unknowns are left
/// that rounding cannot fix (without those rows these two come out "not
/// certified"). Its
/// certified value is the LP's fraction: a zero-sum game has one value.
#[test]
fn lemkes_vertex_answers_are_certified_at_the_lps_fraction() {
    use galac_solvers::lemke::LemkeSolver;
    for params in [&[][..], &["ranks=3", "max_raises=1"]] {
        let tree = tree_of("leduc.gala", params);
        let vertex = LemkeSolver.solve(&tree, &mut RunToEnd).expect("Lemke solves").profile;
        let cert = certify(&tree, &vertex);
        assert!(cert.certified() && cert.solved, "{params:?}: exact NashConv {}", cert.nash_conv);
        let by_lp = certify(&tree, &lp(&tree, Backend::Clarabel));
        assert!(by_lp.certified(), "{params:?}");
        assert_eq!(cert.values, by_lp.values, "{params:?}");
    }
}

#[test]
fn an_approximate_answer_gets_an_exact_interval_around_the_value() {
    // 200 CFR+ iterations are far from exact: the interval must still hold
    // -1/18, and its ends are the float best responses' (to rounding).
    let tree = tree_of("kuhn.gala", &[]);
    let solver = CfrSolver { config: CfrConfig::new(Variant::CfrPlus, 200), resume: None };
    let profile = solver.solve(&tree, &mut RunToEnd).expect("CFR+ runs").profile;
    let cert = certify(&tree, &profile);
    let (lo, hi) = cert.interval.clone().expect("Kuhn is zero-sum");
    let value = Q::from_str("-1/18").expect("a fraction");
    assert!(lo <= value && value <= hi, "[{lo}, {hi}]");
    let eval = evaluate(&tree, &floats(&tree, &cert.probs));
    assert!((to_f64(&lo) + eval.best_response[1]).abs() < 1e-9, "{lo} vs {eval:?}");
    assert!((to_f64(&hi) - eval.best_response[0]).abs() < 1e-9, "{hi} vs {eval:?}");
}

#[test]
fn exact_and_float_evaluations_agree() {
    for (file, params) in [("leduc.gala", &[][..]), ("beer_quiche.gala", &[]), ("nim222.gala", &[])] {
        let tree = tree_of(file, params);
        let uniform = Profile::uniform(&tree);
        let probs: IdVec<InfosetId, Vec<Q>> = tree
            .infosets
            .keys()
            .map(|s| {
                let n = tree.infosets[s].n_actions as i64;
                vec![Q::new(1.into(), n.into()); n as usize]
            })
            .collect();
        let cert = check(&tree, probs, 0);
        let eval = evaluate(&tree, &uniform);
        for p in 0..tree.n_players as usize {
            assert!((to_f64(&cert.values[p]) - eval.values[p]).abs() < 1e-9, "{file}: value of {p}");
            let br = to_f64(&cert.best_response[p]);
            assert!((br - eval.best_response[p]).abs() < 1e-9, "{file}: best response of {p}");
        }
    }
}

/// Per player, each information set's probabilities (Gambit's order).
type Sets = [Vec<Vec<Q>>; 2];

/// Gambit's rational `lp_solve`: payoffs and per player the sets' probabilities.
fn gambit_exact(python: &str, efg: &std::path::Path) -> Result<(Vec<Q>, Sets), String> {
    let out = Command::new(python)
        .arg(repo_root().join("tests/interop/gambit_exact.py"))
        .arg(efg)
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("gambit_exact.py failed: {text}{}", String::from_utf8_lossy(&out.stderr)));
    }
    let q = |s: &str| Q::from_str(s).map_err(|e| format!("`{s}`: {e}"));
    let (mut payoffs, mut sets) = (Vec::new(), [Vec::new(), Vec::new()]);
    for line in text.lines() {
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["payoffs", rest @ ..] => payoffs = rest.iter().map(|w| q(w)).collect::<Result<_, _>>()?,
            ["infoset", p, _k, probs @ ..] => {
                let p: usize = p.parse().map_err(|_| format!("bad line {line}"))?;
                sets[p.min(1)].push(probs.iter().map(|w| q(w)).collect::<Result<_, _>>()?);
            }
            _ => {}
        }
    }
    Ok((payoffs, sets))
}

#[test]
fn certified_values_equal_gambits_rational_lp() {
    let Some(python) = python_with_pygambit("exact") else { return };
    let dir = std::env::temp_dir().join(format!("galac-gambit-exact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let games: [(&str, &[&str]); 5] = [
        ("kuhn.gala", &[]),
        ("inspection.gala", &[]),
        ("poker.gala", &[]),
        ("goofspiel.gala", &["cards=3"]),
        ("search_game.gala", &["depth=2"]),
    ];
    let mut failures = Vec::new();
    for (i, (file, params)) in games.iter().enumerate() {
        let tree = tree_of(file, params);
        let ours = certify(&tree, &lp(&tree, Backend::Microlp));
        if !ours.certified() {
            failures.push(format!("{file}: not certified (exact NashConv {})", ours.nash_conv));
            continue;
        }
        let efg = dir.join(format!("g{i}.efg"));
        write_efg(&tree, file, "galac-tests exact interop", std::fs::File::create(&efg).expect("efg file"))
            .expect("efg written");
        let (payoffs, sets) = match gambit_exact(&python, &efg) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        if payoffs.first() == Some(&ours.values[0]) {
            eprintln!("{file}: galac {} = Gambit {}", ours.values[0], payoffs[0]);
            continue;
        }
        // They differ: Gambit's profile, checked exactly on galac's tree, decides.
        let probs: IdVec<InfosetId, Vec<Q>> = tree
            .infosets
            .iter()
            .map(|info| sets[info.player.index()].get(info.index_in_player as usize).cloned().unwrap_or_default())
            .collect();
        let theirs = check(&tree, probs, 0);
        if theirs.certified() {
            failures.push(format!(
                "{file}: two exact equilibria of a zero-sum game pay {} and {}",
                ours.values[0], theirs.values[0]
            ));
        } else {
            eprintln!(
                "{file}: Gambit says {:?}, galac {} (certified); Gambit's profile is no equilibrium (exact NashConv {})",
                payoffs.iter().map(|q| q.to_string()).collect::<Vec<_>>(),
                ours.values[0],
                theirs.nash_conv
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    crate::announce(&format!(
        "gambit interop (exact): ran with `{python}`: {} of {} games checked against Gambit's rational LP",
        games.len() - failures.len(),
        games.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
