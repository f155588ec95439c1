//! Gambit interop: every small example, exported as .efg, loads in pygambit
//! with the same counts as galac's tree, and the zero-sum ones solve to the
//! known values.
//!
//! Needs Python with pygambit (`pip install -r tests/interop/requirements.txt`,
//! the README's set-up). A slow suite (about a minute of CPU, most of it
//! Python's): it runs with `GALAC_SLOW_TESTS=1` or `GALAC_PYGAMBIT=1` (CI
//! sets both) when that Python imports pygambit, and otherwise passes;
//! either way it says which on standard error, past libtest's capture.
//! `GALAC_PYGAMBIT=1` makes a missing pygambit a failure;
//! `GALAC_PYGAMBIT=0` skips the test. `GALAC_PYTHON` names the interpreter
//! (default `python3`).

use std::path::{Path, PathBuf};
use std::process::Command;

use galac_app::formats::write_efg;
use galac_compiler::diagnostic::SourceMap;
use galac_compiler::interp::{Interp, Locator};
use galac_runtime::tree::{build, BuildOptions, Tree};

use crate::repo_root;

/// How the checker computes the value of a two-player zero-sum game.
#[derive(Clone, Copy)]
enum Solver {
    /// `pygambit.nash.lp_solve`, Gambit's own sequence-form LP.
    Gambit,
    /// The sequence-form LP of the tree as Gambit read it, solved by SciPy:
    /// `lp_solve` takes more than 10 minutes on Leduc.
    SequenceLp,
}

/// (example, params, solver, known value of the first player). Gambit's
/// value must equal galac's LP value on the same tree (and the known value,
/// where there is one). nim222 and nim3 have three players and beer_quiche
/// is general-sum (counts only); blind_tictactoe is too big for Gambit.
const EXAMPLES: &[(&str, &[&str], Solver, Option<f64>)] = &[
    ("kuhn.gala", &[], Solver::Gambit, Some(-1.0 / 18.0)),
    ("leduc.gala", &[], Solver::SequenceLp, Some(-0.085_606_424)),
    ("poker.gala", &[], Solver::Gambit, None),
    ("inspection.gala", &[], Solver::Gambit, None),
    ("inspection.gala", &["stages=3", "inspections=1"], Solver::Gambit, None),
    ("inspection.gala", &["stages=5", "inspections=2"], Solver::Gambit, None),
    ("inspection.gala", &["stages=6", "inspections=3"], Solver::Gambit, None),
    ("nim222.gala", &[], Solver::Gambit, None),
    ("nim3.gala", &["piles=2", "last_wins=true"], Solver::Gambit, None),
    ("liars_dice.gala", &["sides=3"], Solver::Gambit, None),
    ("goofspiel.gala", &[], Solver::Gambit, Some(0.0)),
    ("generic_poker.gala", &["types=2", "bet_sizes=2"], Solver::SequenceLp, None),
    ("phantom_ttt.gala", &["marks=3"], Solver::Gambit, Some(0.0)),
    ("search_game.gala", &[], Solver::Gambit, Some(-1.0 / 3.0)),
    ("beer_quiche.gala", &[], Solver::Gambit, None),
];

/// galac's own LP value of the first player, for two-player zero-sum trees.
fn galac_value(tree: &Tree) -> Option<f64> {
    use galac_solvers::lp::{self, Backend};
    let sf = galac_solvers::sequence_form::SequenceForm::new(tree).ok()?;
    lp::solve(&sf, Backend::Clarabel, None).ok().map(|s| s.value)
}

/// Builds an example's tree with labels, as `galac export` does.
fn example_tree(file: &str, params: &[&str]) -> Result<Tree, String> {
    let name = format!("examples/{file}");
    let bytes = std::fs::read(repo_root().join(&name)).map_err(|e| format!("{name}: {e}"))?;
    let mut sources = SourceMap::new();
    let checked = galac_compiler::driver::check_source(&mut sources, &name, &bytes)
        .map_err(|d| format!("{name}: {} diagnostics", d.len()))?;
    let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
    let overrides = galac_compiler::driver::parse_param_overrides(&checked.program, &params)?;
    let values = galac_compiler::driver::param_values(&checked.program, &overrides)?;
    let ir = galac_compiler::lower::lower(&checked.program);
    let interp = Interp::new(ir, &values, Locator::new(&name, &String::from_utf8_lossy(&bytes)));
    let opts = BuildOptions { labels: true, ..BuildOptions::default() };
    build(&interp, &opts).map(|(tree, _, _)| tree).map_err(|e| format!("{name}: {e}"))
}

fn join(counts: &[u64]) -> String {
    counts.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// Exports `file` into `dir` and runs the checker on it; returns its report.
fn check_example(
    dir: &Path,
    python: &str,
    file: &str,
    params: &[&str],
    solver: Solver,
    known: Option<f64>,
) -> Result<String, String> {
    let tree = example_tree(file, params)?;
    let value = galac_value(&tree);
    if let (Some(v), Some(k)) = (value, known) {
        if (v - k).abs() > 1e-6 {
            return Err(format!("{file}: galac's value {v} is not the known {k}"));
        }
    }
    let efg = dir.join(format!("{}{}.efg", file.trim_end_matches(".gala"), params.join("_")));
    let out = std::fs::File::create(&efg).map_err(|e| format!("{}: {e}", efg.display()))?;
    write_efg(&tree, file, "galac-tests gambit interop", out).map_err(|e| format!("{}: {e}", efg.display()))?;
    let s = tree.stats();
    let mut cmd = Command::new(python);
    cmd.arg(repo_root().join("tests/interop/gambit_check.py"))
        .arg(&efg)
        .args(["--nodes", &s.nodes.to_string()])
        .args(["--terminals", &s.terminals.to_string()])
        .args(["--chance", &s.chance_nodes.to_string()])
        .args(["--decisions", &join(&s.decision_nodes)])
        .args(["--infosets", &join(&s.infosets)])
        .arg("--solve")
        .args([
            "--solver",
            match solver {
                Solver::Gambit => "gambit",
                Solver::SequenceLp => "sequence-lp",
            },
        ]);
    if let Some(v) = value {
        cmd.args(["--value", &v.to_string(), "--tol", "1e-6"]);
    }
    let output = cmd.output().map_err(|e| format!("cannot run {python}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.success() {
        Ok(format!("{file} {params:?}: galac {value:?}, gambit {}", stdout.trim()))
    } else {
        Err(format!("{file}: gambit_check.py failed ({}):\n{stdout}{stderr}", output.status))
    }
}

/// The Python that imports pygambit, or `None` when the test `test` is to
/// be skipped, which it says past libtest's capture (a plain `cargo test`
/// shows it); panics when `GALAC_PYGAMBIT=1` and there is none.
pub(crate) fn python_with_pygambit(test: &str) -> Option<String> {
    let python = std::env::var("GALAC_PYTHON").unwrap_or_else(|_| "python3".into());
    let wanted = std::env::var("GALAC_PYGAMBIT").ok();
    if wanted.as_deref() == Some("0") {
        crate::announce(&format!("gambit interop ({test}): skipped (GALAC_PYGAMBIT=0)"));
        return None;
    }
    if wanted.is_none() && !crate::slow_tests() {
        crate::announce(&format!(
            "gambit interop ({test}): skipped, a slow suite (GALAC_SLOW_TESTS=1 or GALAC_PYGAMBIT=1 runs it)"
        ));
        return None;
    }
    let importable = Command::new(&python).args(["-c", "import pygambit"]).output().is_ok_and(|o| o.status.success());
    if !importable {
        assert_ne!(wanted.as_deref(), Some("1"), "GALAC_PYGAMBIT=1 but `{python}` cannot import pygambit");
        crate::announce(&format!(
            "gambit interop ({test}): skipped: `{python}` cannot import pygambit \
             (the README's set-up installs it; GALAC_PYGAMBIT=1 makes this a failure)"
        ));
        return None;
    }
    Some(python)
}

#[test]
fn examples_load_and_solve_in_pygambit() {
    let Some(python) = python_with_pygambit("examples") else { return };
    let dir: PathBuf = std::env::temp_dir().join(format!("galac-gambit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut failures = Vec::new();
    for (file, params, solver, known) in EXAMPLES {
        match check_example(&dir, &python, file, params, *solver, *known) {
            Ok(report) => eprintln!("{report}"),
            Err(e) => failures.push(e),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    crate::announce(&format!(
        "gambit interop (examples): ran with `{python}`: {} of {} examples agree",
        EXAMPLES.len() - failures.len(),
        EXAMPLES.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
