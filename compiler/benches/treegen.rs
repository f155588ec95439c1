//! Benchmark of game-tree generation through the IR interpreter.
//!
//! For each case: load a `.gala` file through the galac library (check,
//! params, lower), then build the whole tree with `galac_runtime::tree::build`
//! (no labels, the default limits, as `galac tree` does) again and again,
//! and report nodes, best and median seconds, nodes/s (from the best run)
//! and tree bytes per node (`Tree::bytes() / nodes`).
//!
//! ```text
//! cargo bench --bench treegen                  # every case
//! cargo bench --bench treegen -- leduc leduc13 # some cases, by name
//! cargo bench --bench treegen -- --list        # the case names
//! cargo bench --bench treegen -- --min-runs 5 --min-secs 2
//! ```
//!
//! Each case runs at least `--min-runs` times (3) and until the timed runs
//! add up to `--min-secs` (1 s), at most `--max-runs` times (1000). A build
//! that takes less than a second is first run once untimed, as a warm-up.
//!
//! Besides the table, one machine-readable line per case goes to stdout:
//! `treegen case=NAME nodes=N runs=R best_s=S median_s=S nodes_per_s=X bytes_per_node=Y params=P`.
//!
//! Without `--bench` on the command line (`cargo test --benches` runs the
//! binary that way) it only builds the smallest case once, as a smoke test.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use galac::diagnostic::{render, SourceMap};
use galac::driver;
use galac::interp::{Interp, Locator};
use galac_runtime::tree::{self, BuildOptions};

struct Case {
    name: &'static str,
    /// Path relative to the workspace root.
    file: &'static str,
    params: &'static [&'static str],
    /// The node count the case is known to have (a sanity check).
    expected_nodes: u64,
}

const CASES: &[Case] = &[
    Case { name: "leduc", file: "examples/leduc.gala", params: &[], expected_nodes: 9_457 },
    Case { name: "leduc13", file: "examples/leduc.gala", params: &["ranks=13"], expected_nodes: 1_179_777 },
    // A 52-card deck, one card per hand, bets up to 10 chips beyond the ante.
    Case {
        name: "poker52",
        file: "examples/poker.gala",
        params: &["suits=4", "ranks=13", "cards=1", "cash=10", "ante=1"],
        expected_nodes: 16_285_933,
    },
];

struct Settings {
    min_runs: usize,
    max_runs: usize,
    min_secs: f64,
}

struct Outcome {
    nodes: u64,
    bytes: u64,
    times: Vec<f64>,
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Reads, checks and lowers the case's game, as `galac tree` does.
fn load(case: &Case) -> Result<Interp, String> {
    let path = workspace_root().join(case.file);
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let mut sources = SourceMap::new();
    let checked = driver::check_source(&mut sources, case.file, &bytes)
        .map_err(|diagnostics| format!("`{}` does not check:\n{}", case.file, render(&sources, &diagnostics, false)))?;
    let program = checked.program;
    let overrides: Vec<String> = case.params.iter().map(|p| p.to_string()).collect();
    let values = driver::parse_param_overrides(&program, &overrides)
        .and_then(|o| driver::param_values(&program, &o))?;
    let ir = galac::lower::lower(&program);
    let text = String::from_utf8_lossy(&bytes);
    Ok(Interp::new(ir, &values, Locator::new(case.file, &text)))
}

/// One build; returns (wall seconds of `tree::build`, nodes, tree bytes).
/// The tree is dropped outside the timed region.
fn build_once(interp: &Interp, opts: &BuildOptions) -> Result<(f64, u64, u64), String> {
    let start = Instant::now();
    let result = tree::build(black_box(interp), black_box(opts));
    let seconds = start.elapsed().as_secs_f64();
    let (tree, interner, _) = result.map_err(|e| e.to_string())?;
    let tree = black_box(tree);
    let out = (seconds, tree.n_nodes() as u64, tree.bytes());
    drop(black_box(interner));
    drop(tree);
    Ok(out)
}

fn run_case(case: &Case, settings: &Settings) -> Result<Outcome, String> {
    let interp = load(case)?;
    let opts = BuildOptions::default();
    let (first, nodes, bytes) = build_once(&interp, &opts)?;
    if nodes != case.expected_nodes {
        eprintln!("warning: case `{}` has {nodes} nodes, expected {}", case.name, case.expected_nodes);
    }
    // A short build was a warm-up; a long one counts as the first run.
    let mut times = if first < 1.0 { Vec::new() } else { vec![first] };
    while times.len() < settings.max_runs
        && (times.len() < settings.min_runs || times.iter().sum::<f64>() < settings.min_secs)
    {
        let (t, n, b) = build_once(&interp, &opts)?;
        if n != nodes || b != bytes {
            return Err(format!("case `{}`: run gave {n} nodes / {b} bytes, the first {nodes} / {bytes}", case.name));
        }
        times.push(t);
    }
    Ok(Outcome { nodes, bytes, times })
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn usage() -> String {
    let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    format!(
        "usage: cargo bench --bench treegen -- [--list] [--min-runs N] [--max-runs N] [--min-secs S] [CASE...]\n\
         cases: {}",
        names.join(", ")
    )
}

fn main() -> ExitCode {
    let mut settings = Settings { min_runs: 3, max_runs: 1000, min_secs: 1.0 };
    let mut bench_mode = false;
    let mut selected: Vec<&Case> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<String, String> {
            args.next().ok_or_else(|| format!("`{name}` needs a value"))
        };
        let parsed: Result<(), String> = match arg.as_str() {
            // Cargo passes `--bench` under `cargo bench`.
            "--bench" => {
                bench_mode = true;
                Ok(())
            }
            "--list" => {
                for c in CASES {
                    println!("{}: {} {}", c.name, c.file, c.params.join(" "));
                }
                return ExitCode::SUCCESS;
            }
            "-h" | "--help" => {
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            "--min-runs" => value(&arg).and_then(|v| v.parse().map(|n| settings.min_runs = n).map_err(|e| format!("{e}"))),
            "--max-runs" => value(&arg).and_then(|v| v.parse().map(|n| settings.max_runs = n).map_err(|e| format!("{e}"))),
            "--min-secs" => value(&arg).and_then(|v| v.parse().map(|s| settings.min_secs = s).map_err(|e| format!("{e}"))),
            // Flags of the libtest harness that cargo may pass; nothing to do.
            a if a.starts_with('-') => Ok(()),
            name => match CASES.iter().find(|c| c.name == name) {
                Some(c) => {
                    if !selected.iter().any(|s| s.name == c.name) {
                        selected.push(c);
                    }
                    Ok(())
                }
                None => Err(format!("no case `{name}`")),
            },
        };
        if let Err(msg) = parsed {
            eprintln!("error: {msg}\n{}", usage());
            return ExitCode::from(2);
        }
    }
    if !bench_mode {
        // Test mode (`cargo test --benches`): one quick build, no timing.
        let case = &CASES[0];
        return match load(case).and_then(|i| build_once(&i, &BuildOptions::default())) {
            Ok((_, nodes, _)) if nodes == case.expected_nodes => {
                println!("treegen: `{}` builds {nodes} nodes (run with `cargo bench` to time)", case.name);
                ExitCode::SUCCESS
            }
            Ok((_, nodes, _)) => {
                eprintln!("error: case `{}` has {nodes} nodes, expected {}", case.name, case.expected_nodes);
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if selected.is_empty() {
        selected = CASES.iter().collect();
    }
    settings.min_runs = settings.min_runs.max(1);
    settings.max_runs = settings.max_runs.max(settings.min_runs);

    println!(
        "{:<10} {:>12} {:>5} {:>11} {:>11} {:>12} {:>11}",
        "case", "nodes", "runs", "best s", "median s", "nodes/s", "bytes/node"
    );
    let mut failed = false;
    for case in selected {
        match run_case(case, &settings) {
            Ok(mut o) => {
                o.times.sort_by(f64::total_cmp);
                let best = o.times[0];
                let med = median(&o.times);
                let rate = o.nodes as f64 / best;
                let per_node = o.bytes as f64 / o.nodes as f64;
                println!(
                    "{:<10} {:>12} {:>5} {:>11.6} {:>11.6} {:>12.0} {:>11.2}",
                    case.name,
                    o.nodes,
                    o.times.len(),
                    best,
                    med,
                    rate,
                    per_node
                );
                println!(
                    "treegen case={} nodes={} runs={} best_s={best:.6} median_s={med:.6} nodes_per_s={rate:.0} bytes_per_node={per_node:.2} params={}",
                    case.name,
                    o.nodes,
                    o.times.len(),
                    if case.params.is_empty() { "-".to_string() } else { case.params.join(",") }
                );
            }
            Err(e) => {
                eprintln!("error: case `{}`: {e}", case.name);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
