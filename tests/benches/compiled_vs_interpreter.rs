//! Benchmark of game-tree generation (with information sets) of the same
//! game through the IR interpreter and through its compiled code (the Rust
//! that galac generates, included from `build.rs`'s `OUT_DIR`), in one run.
//!
//! For each case: load the `.gala` file into the interpreter (check, params,
//! lower, as `galac tree` does) and instantiate the compiled game with the
//! same params (as its solver binary does); build the whole tree of each
//! once and check that both have the expected node count and are identical
//! (`galac_tests::games::digest`); then build both again and again,
//! alternating interpreter and compiled runs so that machine noise hits both
//! alike. Only `galac_runtime::tree::build` (no labels, the default limits)
//! is timed, as `galac tree` builds. Reported per engine:
//! runs, best and median seconds, nodes/s (from the best run), tree bytes
//! per node (`Tree::bytes() / nodes`); and per case the speed-up, compiled
//! ÷ interpreter in nodes/s (= interpreter best s ÷ compiled best s).
//!
//! ```text
//! cargo bench -p galac-tests --bench compiled_vs_interpreter                  # every case
//! cargo bench -p galac-tests --bench compiled_vs_interpreter -- leduc leduc13 # some cases
//! cargo bench -p galac-tests --bench compiled_vs_interpreter -- --list
//! cargo bench -p galac-tests --bench compiled_vs_interpreter -- --min-runs 5 --min-secs 2
//! ```
//!
//! Each engine runs at least `--min-runs` times (3) and until its timed runs
//! add up to `--min-secs` (1 s), at most `--max-runs` times (1000); the
//! engine that is done sits out while the other continues. A first build
//! that takes less than a second is a warm-up (untimed); a longer one counts
//! as the engine's first run (so `poker52`, whose interpreted build takes
//! many seconds, builds `--min-runs` times through the interpreter, no
//! more).
//!
//! Besides the table, one machine-readable line per case goes to stdout:
//! `compiled_vs_interpreter case=NAME nodes=N interp_runs=R interp_best_s=S
//! interp_median_s=S interp_nodes_per_s=X compiled_runs=R compiled_best_s=S
//! compiled_median_s=S compiled_nodes_per_s=X speedup=Z bytes_per_node=Y
//! params=P` (on one line).
//!
//! `--keep-memory` (glibc only) raises glibc's trim threshold so that the
//! heap a build freed is not returned to the system, and the next build
//! does not fault it in again. By default glibc trims after every build,
//! which costs a small build its page faults again at every run in either
//! engine (a large share of Leduc's build: docs/perf/tree-build.md, "Fresh
//! small builds"); a one-shot `tree` pays them once.
//!
//! Without `--bench` on the command line (`cargo test --benches` runs the
//! binary that way) it only builds the smallest case once through each
//! engine and compares the trees, as a smoke test.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use galac_runtime::game::Game;
use galac_runtime::tree::{self, BuildOptions};
use galac_tests::games::{digest, instantiate, load_interp};

galac_tests::compiled_games!(leduc, poker);

/// Which generated game compiles the case's file.
#[derive(Clone, Copy)]
enum Compiled {
    Leduc,
    Poker,
}

struct Case {
    name: &'static str,
    /// Path relative to the workspace root.
    file: &'static str,
    params: &'static [&'static str],
    compiled: Compiled,
    /// The node count the case is known to have (checked; a different
    /// count is an error).
    expected_nodes: u64,
}

const CASES: &[Case] = &[
    Case { name: "leduc", file: "examples/leduc.gala", params: &[], compiled: Compiled::Leduc, expected_nodes: 9_457 },
    Case {
        name: "leduc13",
        file: "examples/leduc.gala",
        params: &["ranks=13"],
        compiled: Compiled::Leduc,
        expected_nodes: 1_179_777,
    },
    // A 52-card deck, one card per hand, bets up to 10 chips beyond the ante.
    Case {
        name: "poker52",
        file: "examples/poker.gala",
        params: &["suits=4", "ranks=13", "cards=1", "cash=10", "ante=1"],
        compiled: Compiled::Poker,
        expected_nodes: 16_285_933,
    },
];

struct Settings {
    min_runs: usize,
    max_runs: usize,
    min_secs: f64,
}

/// One build: wall seconds of `tree::build`, nodes, tree bytes, and the
/// tree's digest when asked for.
struct Run {
    seconds: f64,
    nodes: u64,
    bytes: u64,
    digest: Option<u64>,
}

/// The timed runs of one engine on one case.
struct Series {
    nodes: u64,
    bytes: u64,
    times: Vec<f64>,
}

impl Series {
    /// Starts the series with the first build: a warm-up when it is short,
    /// the first timed run when it is long.
    fn new(first: &Run) -> Series {
        let times = if first.seconds < 1.0 { Vec::new() } else { vec![first.seconds] };
        Series { nodes: first.nodes, bytes: first.bytes, times }
    }

    fn wants_more(&self, settings: &Settings) -> bool {
        self.times.len() < settings.max_runs
            && (self.times.len() < settings.min_runs || self.times.iter().sum::<f64>() < settings.min_secs)
    }

    fn push(&mut self, engine: &str, run: &Run) -> Result<(), String> {
        if run.nodes != self.nodes || run.bytes != self.bytes {
            return Err(format!(
                "{engine}: a run gave {} nodes / {} bytes, the first {} / {}",
                run.nodes, run.bytes, self.nodes, self.bytes
            ));
        }
        self.times.push(run.seconds);
        Ok(())
    }

    /// (best, median) seconds, as `tree --repeat` reports them.
    fn summary(&self) -> (f64, f64) {
        let timing = galac_app::tree::Timing { builds: self.times.clone() };
        (timing.best(), timing.median())
    }
}

struct Outcome {
    interp: Series,
    compiled: Series,
}

/// One build of `game`; the tree (and its digest, when `with_digest`) is
/// dealt with outside the timed region.
fn build_once<G: Game>(game: &G, with_digest: bool) -> Result<Run, String> {
    let opts = BuildOptions::default();
    let start = Instant::now();
    let result = tree::build(black_box(game), black_box(&opts));
    let seconds = start.elapsed().as_secs_f64();
    let (tree, interner, _) = result.map_err(|e| e.to_string())?;
    let tree = black_box(tree);
    let run =
        Run { seconds, nodes: tree.n_nodes() as u64, bytes: tree.bytes(), digest: with_digest.then(|| digest(&tree)) };
    drop(black_box(interner));
    drop(tree);
    Ok(run)
}

/// The first build through each engine: the expected node count, the same
/// tree (digest) and the same size in bytes.
fn first_builds<I: Game, C: Game>(case: &Case, interp: &I, compiled: &C) -> Result<(Run, Run), String> {
    let i = build_once(interp, true)?;
    let c = build_once(compiled, true)?;
    for (engine, run) in [("interpreter", &i), ("compiled", &c)] {
        if run.nodes != case.expected_nodes {
            return Err(format!("{engine}: {} nodes, expected {}", run.nodes, case.expected_nodes));
        }
    }
    if i.digest != c.digest {
        return Err(format!(
            "the interpreter's and the compiled tree differ (digests {:016x} and {:016x})",
            i.digest.unwrap_or_default(),
            c.digest.unwrap_or_default()
        ));
    }
    if i.bytes != c.bytes {
        return Err(format!("the interpreter's tree takes {} bytes, the compiled {}", i.bytes, c.bytes));
    }
    Ok((i, c))
}

fn compare<I: Game, C: Game>(case: &Case, interp: &I, compiled: &C, settings: &Settings) -> Result<Outcome, String> {
    let (i, c) = first_builds(case, interp, compiled)?;
    let mut o = Outcome { interp: Series::new(&i), compiled: Series::new(&c) };
    loop {
        let more_i = o.interp.wants_more(settings);
        let more_c = o.compiled.wants_more(settings);
        if !more_i && !more_c {
            return Ok(o);
        }
        if more_i {
            o.interp.push("interpreter", &build_once(interp, false)?)?;
        }
        if more_c {
            o.compiled.push("compiled", &build_once(compiled, false)?)?;
        }
    }
}

/// Loads both engines for the case and hands them to `f` (generic over the
/// compiled game's type).
macro_rules! with_games {
    ($case:expr, |$interp:ident, $compiled:ident| $body:expr) => {{
        let case: &Case = $case;
        let $interp = load_interp(case.file, case.params)?;
        match case.compiled {
            Compiled::Leduc => {
                let $compiled = instantiate(&leduc::Family, case.params)?;
                $body
            }
            Compiled::Poker => {
                let $compiled = instantiate(&poker::Family, case.params)?;
                $body
            }
        }
    }};
}

fn run_case(case: &Case, settings: &Settings) -> Result<Outcome, String> {
    with_games!(case, |interp, compiled| compare(case, &interp, &compiled, settings))
}

/// The smoke test: one build through each engine, the same tree.
fn smoke(case: &Case) -> Result<u64, String> {
    with_games!(case, |interp, compiled| first_builds(case, &interp, &compiled).map(|(i, _)| i.nodes))
}

fn usage() -> String {
    let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    format!(
        "usage: cargo bench -p galac-tests --bench compiled_vs_interpreter -- \
         [--list] [--keep-memory] [--min-runs N] [--max-runs N] [--min-secs S] [CASE...]\n\
         cases: {}",
        names.join(", ")
    )
}

fn print_row(case: &str, engine: &str, s: &Series, speedup: Option<f64>) {
    let (best, median) = s.summary();
    println!(
        "{:<9} {:<12} {:>11} {:>5} {:>11.6} {:>11.6} {:>12.0} {:>11.2} {:>9}",
        case,
        engine,
        s.nodes,
        s.times.len(),
        best,
        median,
        s.nodes as f64 / best,
        s.bytes as f64 / s.nodes as f64,
        speedup.map(|x| format!("{x:.2}x")).unwrap_or_default()
    );
}

/// Stops glibc from returning freed heap memory to the system (see the
/// module doc); an error elsewhere. The one `unsafe` of the workspace: a
/// foreign call that only sets an allocator parameter.
#[allow(unsafe_code)]
fn keep_freed_memory() -> Result<(), String> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_TRIM_THRESHOLD: i32 = -1;
        // SAFETY: mallopt only sets an allocator parameter; called before any build.
        if unsafe { mallopt(M_TRIM_THRESHOLD, i32::MAX) } == 1 {
            return Ok(());
        }
    }
    Err("`--keep-memory` needs glibc".into())
}

fn main() -> ExitCode {
    let mut settings = Settings { min_runs: 3, max_runs: 1000, min_secs: 1.0 };
    let mut bench_mode = false;
    let mut selected: Vec<&Case> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value =
            |name: &str| -> Result<String, String> { args.next().ok_or_else(|| format!("`{name}` needs a value")) };
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
            "--keep-memory" => keep_freed_memory(),
            "--min-runs" => {
                value(&arg).and_then(|v| v.parse().map(|n| settings.min_runs = n).map_err(|e| format!("{e}")))
            }
            "--max-runs" => {
                value(&arg).and_then(|v| v.parse().map(|n| settings.max_runs = n).map_err(|e| format!("{e}")))
            }
            "--min-secs" => {
                value(&arg).and_then(|v| v.parse().map(|s| settings.min_secs = s).map_err(|e| format!("{e}")))
            }
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
        // Test mode (`cargo test --benches`): one build per engine, no timing.
        let case = &CASES[0];
        return match smoke(case) {
            Ok(nodes) => {
                println!(
                    "compiled_vs_interpreter: `{}` builds the same {nodes} nodes interpreted and compiled \
                     (run with `cargo bench` to time)",
                    case.name
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: case `{}`: {e}", case.name);
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
        "{:<9} {:<12} {:>11} {:>5} {:>11} {:>11} {:>12} {:>11} {:>9}",
        "case", "engine", "nodes", "runs", "best s", "median s", "nodes/s", "bytes/node", "speed-up"
    );
    let mut failed = false;
    for case in selected {
        match run_case(case, &settings) {
            Ok(o) => {
                let (ib, im) = o.interp.summary();
                let (cb, cm) = o.compiled.summary();
                let speedup = ib / cb;
                print_row(case.name, "interpreter", &o.interp, None);
                print_row(case.name, "compiled", &o.compiled, Some(speedup));
                let nodes = o.compiled.nodes as f64;
                println!(
                    "compiled_vs_interpreter case={} nodes={} interp_runs={} interp_best_s={ib:.6} interp_median_s={im:.6} \
                     interp_nodes_per_s={:.0} compiled_runs={} compiled_best_s={cb:.6} compiled_median_s={cm:.6} \
                     compiled_nodes_per_s={:.0} speedup={speedup:.2} bytes_per_node={:.2} params={}",
                    case.name,
                    o.compiled.nodes,
                    o.interp.times.len(),
                    nodes / ib,
                    o.compiled.times.len(),
                    nodes / cb,
                    o.compiled.bytes as f64 / nodes,
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
