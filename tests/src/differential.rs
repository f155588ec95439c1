//! Differential test: random well-typed programs (`progen`), each built
//! through the interpreter and through its generated Rust (compiled into
//! this test by `build.rs`), must give identical trees: same stats, digest,
//! labels and chance labels, or the same error. Choose the programs with
//! `GALAC_DIFF_PROGRAMS`, `GALAC_DIFF_SEED` and `GALAC_DIFF_FEATURES` (see
//! `build.rs`); a failure prints the seed and the source, so
//! `progen::program_with(seed, features)` reproduces it. A module of the
//! crate's one test binary (`cargo test -p galac-tests differential::`): a
//! generated program that fails to compile stops the whole binary, which
//! is a codegen bug to fix first either way.

use std::panic::{catch_unwind, AssertUnwindSafe};

use galac_runtime::game::{Family, DEFAULT_STEP_LIMIT};
use galac_runtime::tree::{build, BuildError, BuildOptions, Stats, Tree};

use crate::games::{digest, position_digest};
use crate::progen;

/// Builds a program's tree with its compiled game, given the param overrides.
type Runner = fn(&[String]) -> Result<Summary, String>;

/// One generated program, as `build.rs` listed it.
pub struct Program {
    seed: u64,
    params: &'static [&'static str],
    source: &'static str,
    /// Builds the tree with the compiled game (none if the check failed).
    compiled: Option<Runner>,
    /// The checker's diagnostics, when it rejected the program.
    error: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/differential.rs"));

/// Everything that must be equal between the two executions.
#[derive(Debug, PartialEq)]
pub struct Summary {
    stats: Stats,
    digest: u64,
    labels: Vec<(String, Vec<String>)>,
    chance_labels: Vec<String>,
    /// [`crate::games::position_digest`]: max^n's transposition keys.
    positions: Result<u64, String>,
}

/// Trees beyond this many nodes are a generator bug (it aims below 20,000).
const MAX_NODES: u64 = 500_000;

fn options() -> BuildOptions {
    BuildOptions { labels: true, max_nodes: MAX_NODES, ..BuildOptions::default() }
}

fn summarize<I>(built: Result<(Tree, I, f64), BuildError>, positions: Result<u64, String>) -> Result<Summary, String> {
    let tree = built.map_err(|e| e.to_string())?.0;
    let labels = tree.infosets.keys().map(|i| (tree.infoset_label(i).to_string(), tree.action_labels(i).to_vec()));
    Ok(Summary {
        stats: tree.stats(),
        digest: digest(&tree),
        labels: labels.collect(),
        chance_labels: tree.chance_labels,
        positions,
    })
}

/// The compiled game's tree (the listing points here for each program).
fn run<F: Family>(family: &F, params: &[String]) -> Result<Summary, String> {
    let game = family.instantiate(params, DEFAULT_STEP_LIMIT).map_err(|e| format!("params: {e}"))?;
    summarize(build(&game, &options()), position_digest(&game, MAX_NODES))
}

fn interpreted(p: &Program, params: &[String]) -> Result<Summary, String> {
    let interp = galac_compiler::driver::load_interp(&format!("g{}.gala", p.seed), p.source.as_bytes(), params)
        .map_err(|e| format!("params: {e}"))?;
    summarize(build(&interp, &options()), position_digest(&interp, MAX_NODES))
}

/// Runs `f`, turning a panic into an error that names it.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|e| {
        let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("PANIC in {what}: {}", msg.unwrap_or_default()))
    })
}

/// How the two executions of one program compare.
enum Verdict {
    Same(Result<Summary, String>),
    Differ(String),
}

fn compare(p: &Program) -> Verdict {
    let params: Vec<String> = p.params.iter().map(|s| s.to_string()).collect();
    let Some(compiled) = p.compiled else { return Verdict::Differ("not compiled: the checker rejected it".into()) };
    let i = guarded("the interpreter", || interpreted(p, &params));
    let c = guarded("the compiled game", || compiled(&params));
    let what = match (&i, &c) {
        (Ok(a), Ok(b)) if a.stats != b.stats => {
            format!("stats differ:\n  interp   {:?}\n  compiled {:?}", a.stats, b.stats)
        }
        (Ok(a), Ok(b)) if a.digest != b.digest => "digests differ (same stats)".to_string(),
        (Ok(a), Ok(b)) if a.labels != b.labels => first_difference("labels", &a.labels, &b.labels),
        (Ok(a), Ok(b)) if a.chance_labels != b.chance_labels => {
            first_difference("chance labels", &a.chance_labels, &b.chance_labels)
        }
        (Ok(a), Ok(b)) if a.positions != b.positions => {
            format!("position keys differ:\n  interp   {:?}\n  compiled {:?}", a.positions, b.positions)
        }
        (Ok(_), Ok(_)) => return Verdict::Same(i),
        (Err(a), Err(b)) if a == b => return Verdict::Same(i),
        (a, b) => format!("results differ:\n  interp   {}\n  compiled {}", brief(a), brief(b)),
    };
    Verdict::Differ(what)
}

/// An error message without its location and values, to count kinds.
fn error_kind(e: &str) -> String {
    let text = match e.split_once(".gala:") {
        Some((_, rest)) => rest.splitn(3, ':').nth(2).unwrap_or(rest).trim(),
        None => e,
    };
    if text.contains("is reached after different own earlier moves") {
        return "imperfect recall".to_string();
    }
    let words = text.split_whitespace().take(8);
    words.map(|w| if w.chars().any(|c| c.is_ascii_digit()) { "N" } else { w }).collect::<Vec<_>>().join(" ")
}

fn brief(r: &Result<Summary, String>) -> String {
    match r {
        Ok(s) => format!("tree of {} nodes", s.stats.nodes),
        Err(e) => format!("error: {e}"),
    }
}

fn first_difference<T: std::fmt::Debug + PartialEq>(what: &str, a: &[T], b: &[T]) -> String {
    let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    format!(
        "{what} differ at {i} (lengths {} and {}):\n  interp   {:?}\n  compiled {:?}",
        a.len(),
        b.len(),
        a.get(i),
        b.get(i)
    )
}

fn report(p: &Program, what: &str) -> String {
    format!("=== seed {} (params {:?}): {what}\n{}", p.seed, p.params, p.source)
}

/// Every generated program passes the checker: a rejected one is a bug of
/// the generator, not of galac.
#[test]
fn generated_programs_check() {
    let rejected: Vec<String> =
        PROGRAMS.iter().filter_map(|p| p.error.map(|e| report(p, &format!("rejected by the checker:\n{e}")))).collect();
    assert!(
        rejected.is_empty(),
        "{} of {} programs rejected:\n{}",
        rejected.len(),
        PROGRAMS.len(),
        rejected.join("\n")
    );
}

/// The generator is a function of the seed, and `build.rs` (which compiled
/// the programs) generated the same text as the tests do.
#[test]
fn the_generator_is_deterministic() {
    if !GENERATED {
        return;
    }
    let features = progen::Features::parse(FEATURES).expect("features");
    for p in PROGRAMS.iter().take(50) {
        let again = progen::program_with(p.seed, features);
        assert_eq!(again, progen::program_with(p.seed, features), "seed {}", p.seed);
        assert_eq!(again.source, p.source, "seed {}: build.rs generated another text", p.seed);
        assert_eq!(again.params, p.params, "seed {}", p.seed);
    }
    assert_ne!(progen::program(1).source, progen::program(2).source);
}

/// The heart of the test: interpreter and compiled game agree on every
/// program. Runs on a thread with a large stack (deep expressions recurse).
#[test]
fn compiled_programs_build_the_interpreters_trees() {
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(|| {
        let (mut failures, mut trees, mut nodes) = (Vec::new(), 0, 0u64);
        let mut errors = std::collections::BTreeMap::<String, usize>::new();
        for p in PROGRAMS.iter().filter(|p| p.compiled.is_some()) {
            match compare(p) {
                Verdict::Same(Ok(s)) => {
                    trees += 1;
                    nodes = nodes.max(s.stats.nodes);
                }
                Verdict::Same(Err(e)) => *errors.entry(error_kind(&e)).or_default() += 1,
                Verdict::Differ(what) => failures.push(report(p, &what)),
            }
        }
        eprintln!(
            "differential: {} programs (features {FEATURES:?}): {trees} equal trees (largest {nodes} nodes), {} equal errors, {} divergences",
            PROGRAMS.len(),
            errors.values().sum::<usize>(),
            failures.len()
        );
        for (kind, n) in &errors {
            eprintln!("  {n:5} x {kind}");
        }
        failures
    });
    let failures = worker.expect("spawn the worker").join().expect("the worker panicked");
    assert!(failures.is_empty(), "{} programs diverge:\n{}", failures.len(), failures.join("\n"));
}
