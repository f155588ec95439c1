//! Building a game's tree for a command: the limits every command shares
//! (`LimitArgs`), on one thread or several, with a progress counter, or
//! read from a saved file; and flag groups at their defaults.

use galac_runtime::game::{Game, GameInfo, DEFAULT_STEP_LIMIT};
use galac_runtime::info::InfoInterner;
use galac_runtime::memory::MemoryLimit;
use galac_runtime::tree::{BuildError, BuildOptions};

/// `--max-memory`'s default (MiB), also the limit of the commands that
/// compile a game without building it (`check`, `ir`, `build`).
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 8192;

/// Limits of tree generation, shared by every command that builds a tree.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Stop with an error when the tree would exceed this many nodes.
    #[arg(long, value_name = "N", default_value_t = 200_000_000)]
    pub max_nodes: u64,
    /// Stop with an error when the work would need more memory (MiB): the
    /// game's source, the tree and each solver's own data; while a tree is
    /// built or a solver runs (all but max^n over states), the whole
    /// process is held to it
    /// (its resident memory, read every millisecond near the limit: a run
    /// may pass it by what it touches until the next read).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_MEMORY_MIB)]
    pub max_memory: u64,
    /// Evaluation steps allowed between two events of a play (catches endless loops).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STEP_LIMIT)]
    pub step_limit: u64,
    /// Threads for building the tree (0, the default, is all cores, or one
    /// for a tree that a few random plays estimate at under 80,000 nodes).
    /// The tree is the same whatever the number; more threads
    /// pay off on large trees (a small one only pays their start-up, about
    /// half a millisecond) and need more memory: each thread's part has its
    /// own information-set interner (`--max-memory` counts the parts and
    /// the merged tree together; when they do not fit, one thread builds
    /// the tree).
    /// The CFR solvers use up to two threads (0: as many as there are cores,
    /// at most two; 1: one), with the same answer whatever N; with two they
    /// time one thread against two as they run and use the faster.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Read the tree from FILE, saved by `tree --save` for the same game
    /// and params, instead of building it (docs/tree-format.md).
    #[arg(long, value_name = "FILE")]
    pub tree: Option<std::path::PathBuf>,
    /// No progress (bars on a terminal, a line every 10 s off one) and no
    /// announcement of a large tree.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Set by a library caller (the Python module) to stop the work from
    /// another thread: the build, the LP, Lemke and the double oracle look
    /// at it, and the memory watch sets it instead of ending the process
    /// (`crate::memory::watch`). Never set on the command line.
    #[arg(skip)]
    pub cancel: Option<galac_runtime::cancel::Cancel>,
}

impl LimitArgs {
    /// `--threads`, with 0 (the default) meaning all cores.
    pub fn threads_or_all(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// `--max-memory`, the one limit every command's work keeps.
    pub fn memory(&self) -> MemoryLimit {
        MemoryLimit::from_mib(self.max_memory)
    }

    /// A watch of the process's resident memory against `--max-memory`
    /// while `what` runs ([`crate::memory::watch`]).
    pub fn watch(&self, what: &'static str) -> crate::memory::Watch {
        crate::memory::watch(self.memory(), self.cancel.clone(), what)
    }

    pub fn build_options(&self, labels: bool) -> BuildOptions {
        BuildOptions {
            max_nodes: self.max_nodes,
            memory: self.memory(),
            labels,
            progress: None,
            cancel: self.cancel.clone(),
        }
    }
}

/// A group of flags with every flag at its default, as the command line
/// gives them (one source of defaults: the flags' own attributes).
pub fn defaults<T: clap::Args + clap::FromArgMatches>() -> T {
    let command = T::augment_args(clap::Command::new("defaults"));
    let matches = command.try_get_matches_from(["defaults"]).expect("every flag has a default or is optional");
    T::from_arg_matches(&matches).expect("the defaults parse")
}

/// Makes another instance of the game, for another thread.
pub type Maker<'a, G> = Option<&'a (dyn Fn() -> Option<G> + Sync)>;

/// Builds the tree, on several threads when the game can be instantiated
/// again, with its generation time; or prints why it cannot (`None`: the
/// command exits with 1).
pub fn build_tree<G: Game>(
    game: &G,
    make: Maker<G>,
    limits: &LimitArgs,
    labels: bool,
) -> Option<(galac_runtime::tree::Tree, f64)> {
    if let Some(path) = &limits.tree {
        return read_tree(game.info(), path, limits, labels);
    }
    match try_build_tree(game, make, limits, labels) {
        Ok(built) => Some(built),
        Err(e) => {
            eprintln!("error: {e}");
            print_limit_hint(&e);
            None
        }
    }
}

/// [`build_tree`]'s tree read from `path` (`--tree`), or `None` after the
/// message.
fn read_tree(
    info: &GameInfo,
    path: &std::path::Path,
    limits: &LimitArgs,
    labels: bool,
) -> Option<(galac_runtime::tree::Tree, f64)> {
    match load_tree(info, path, &limits.build_options(labels)) {
        Ok(loaded) => Some(loaded),
        Err(galac_runtime::tree::LoadError::Limit(e)) => {
            eprintln!("error: cannot read the tree in `{}`: {e}", path.display());
            print_limit_hint(&e);
            None
        }
        Err(e) => {
            eprintln!("error: cannot read the tree in `{}`: {e}", path.display());
            None
        }
    }
}

/// The flag that raises the limit `e` is about, if any.
pub(crate) fn print_limit_hint(e: &BuildError) {
    if let Some(hint) = limit_hint(e) {
        eprintln!("{hint}");
    }
}

/// The line that names the flag raising the limit `e` is about, if any.
pub(crate) fn limit_hint(e: &BuildError) -> Option<&'static str> {
    match e {
        BuildError::TooManyNodes { .. } => Some("hint: raise the limit with --max-nodes"),
        BuildError::TooMuchMemory { .. } => Some("hint: raise the limit with --max-memory"),
        _ => None,
    }
}

/// Reads a tree that `tree --save` wrote, within the node and memory limits
/// of `opts`, with the seconds it took.
pub fn load_tree(
    info: &GameInfo,
    path: &std::path::Path,
    opts: &BuildOptions,
) -> Result<(galac_runtime::tree::Tree, f64), galac_runtime::tree::LoadError> {
    let start = std::time::Instant::now();
    let file = std::fs::File::open(path)?;
    let tree = galac_runtime::tree::load(file, info, opts)?;
    Ok((tree, start.elapsed().as_secs_f64()))
}

/// [`build_tree`] without a saved tree, its error returned rather than
/// printed (for a library caller: the Python module).
pub fn try_build_tree<G: Game>(
    game: &G,
    make: Maker<G>,
    limits: &LimitArgs,
    labels: bool,
) -> Result<(galac_runtime::tree::Tree, f64), galac_runtime::tree::BuildError> {
    let _watch = watch_build(limits);
    let opts = limits.build_options(labels);
    // The guess counts as generation time.
    let start = std::time::Instant::now();
    let estimate = announce(game, limits, EXPLORE_LESS);
    let threads = threads_for(make, limits, estimate);
    let guess = start.elapsed().as_secs_f64();
    let build = |opts: &BuildOptions| match make {
        Some(make) if threads > 1 => galac_runtime::tree::build_parallel(make, opts, threads),
        _ => galac_runtime::tree::build(game, opts).map(|(tree, _, seconds)| (tree, seconds)),
    };
    let (tree, seconds) = with_progress(limits, opts, estimate, build)?;
    Ok((tree, guess + seconds))
}

/// [`try_build_tree`] keeping the build's interner, for a caller that goes
/// on interning in it (the double oracle's warm start): on several threads
/// when `parallel` says so of the estimate (`None`: a random play failed)
/// and the game can be instantiated again.
pub fn try_build_tree_own<G: Game>(
    game: &G,
    make: Maker<G>,
    limits: &LimitArgs,
    labels: bool,
    parallel: impl FnOnce(Option<f64>) -> bool,
) -> Result<(galac_runtime::tree::Tree, InfoInterner), galac_runtime::tree::BuildError> {
    let _watch = watch_build(limits);
    let less = "the double oracle without --warm-start-cfr explores only the part of the game it needs";
    let estimate = announce(game, limits, less);
    let make = make.filter(|_| limits.threads_or_all() > 1 && parallel(estimate));
    let build = |opts: &BuildOptions| match make {
        Some(make) => galac_runtime::tree::build_parallel_own(make, opts, limits.threads_or_all()),
        None => galac_runtime::tree::build_own(game, opts),
    };
    let (tree, interner, _) = with_progress(limits, limits.build_options(labels), estimate, build)?;
    Ok((tree, interner))
}

/// The memory watch over a build held in memory ([`crate::memory::watch`]):
/// a build counts its tree and interner against `--max-memory`, not the
/// game states it holds (a deal's outcomes, made all at once), which can
/// hold as much again. A build that saves as it goes keeps its own parts
/// within the limit, falling back to one thread ([`build_saving`]).
fn watch_build(limits: &LimitArgs) -> crate::memory::Watch {
    limits.watch("the tree's build")
}

/// Builds the tree with its labels and writes it to `file` (which will be
/// `path`) in the saved format, block by block as the build goes, so the
/// tree need not fit in memory: on one thread straight into `file`; on
/// more, each part of the build into a scratch file beside `path`, then
/// renumbered into `file` (over the memory limit, or if a scratch file
/// fails, again on one thread).
pub fn build_saving<G: Game>(
    game: &G,
    make: Maker<G>,
    limits: &LimitArgs,
    file: &std::fs::File,
    path: &std::path::Path,
) -> Result<galac_runtime::tree::Saved, galac_runtime::tree::BuildError> {
    let start = std::time::Instant::now();
    let estimate = announce(game, limits, EXPLORE_LESS);
    let threads = threads_for(make, limits, estimate);
    let scratch = || scratch_beside(path);
    let build = |opts: &BuildOptions| match make {
        Some(make) if threads > 1 => galac_runtime::tree::build_parallel_saving(make, opts, threads, file, &scratch),
        _ => galac_runtime::tree::build_saving(game, opts, file),
    };
    let mut saved = with_progress(limits, limits.build_options(true), estimate, build)?;
    saved.seconds = start.elapsed().as_secs_f64();
    Ok(saved)
}

/// A scratch file beside `path` for a part of a parallel build (made here,
/// once, not in each game's crate: its `Scratch` methods with it).
fn scratch_beside(path: &std::path::Path) -> std::io::Result<Box<dyn galac_runtime::tree::Scratch>> {
    Ok(Box::new(crate::output::scratch_beside(path)?))
}

/// The threads to build on: `--threads`, or with 0 all cores unless the
/// tree looks too small to gain from them (`estimate`); one if the game
/// cannot be instantiated again.
fn threads_for<G: Game>(make: Maker<G>, limits: &LimitArgs, estimate: Option<f64>) -> usize {
    match (make, limits.threads) {
        (None, _) => 1,
        (_, 0) if estimate.is_some_and(|n| n < PARALLEL_MIN_NODES) => 1,
        _ => limits.threads_or_all(),
    }
}

/// Whether this process is a compiled solver (its `main`,
/// [`crate::main`], says so): its messages never tell its user to run galac.
static COMPILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process as a compiled solver.
pub(crate) fn mark_compiled_solver() {
    COMPILED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// From about this many nodes a build takes long enough (seconds through
/// the interpreter: BENCHMARKS.md, Tree generation) to be announced with
/// its size and the faster ways.
pub const ANNOUNCED_NODES: f64 = 5e6;

/// What [`announce`] says of a tree's build: the ways that need less of it.
const EXPLORE_LESS: &str =
    "`solve --solver do` (two-player zero-sum games) explores only the part of the game it needs";

/// Knuth's estimate of the tree's size (`None`: a random play failed; the
/// build will say why). A large tree is announced on standard error
/// before its build starts, unless `--quiet`, with `less`, the ways that
/// need less of it, and the faster ways.
fn announce<G: Game>(game: &G, limits: &LimitArgs, less: &str) -> Option<f64> {
    let estimate = galac_runtime::tree::estimate(game, 1e15)?.nodes;
    if estimate >= ANNOUNCED_NODES && !limits.quiet {
        let over = if estimate > limits.max_nodes as f64 {
            format!(", more than --max-nodes ({}): the build will stop there", limits.max_nodes)
        } else {
            String::new()
        };
        let compile = if COMPILED.load(std::sync::atomic::Ordering::Relaxed) {
            ""
        } else {
            "; a solver compiled from the game (galac FILE.gala -o SOLVER) builds it several times faster"
        };
        eprintln!(
            "note: the tree is estimated at about {} nodes (from random plays){over}; {less}{compile}",
            indicatif::HumanCount(estimate as u64)
        );
    }
    Some(estimate)
}

/// Runs `build` with a progress line (none with `--quiet`): a counter of
/// nodes, or with an estimate of a large tree's size, a bar with the time
/// left.
fn with_progress<T>(
    limits: &LimitArgs,
    opts: BuildOptions,
    estimate: Option<f64>,
    build: impl FnOnce(&BuildOptions) -> T,
) -> T {
    // The progress is compiled once, not in each game's crate: `build`
    // runs through `&mut dyn FnMut`, which `progress_around` calls once.
    let mut build = Some(build);
    let mut result = None;
    progress_around(limits, opts, estimate, &mut |opts| result = build.take().map(|build| build(opts)));
    result.expect("progress_around runs the build")
}

/// [`with_progress`] for a build that keeps its own result.
fn progress_around(
    limits: &LimitArgs,
    opts: BuildOptions,
    estimate: Option<f64>,
    build: &mut dyn FnMut(&BuildOptions),
) {
    let bar = match estimate.filter(|n| *n >= ANNOUNCED_NODES) {
        Some(n) => crate::progress::estimated(n as u64, "nodes", limits.quiet),
        None => crate::progress::counter("nodes", limits.quiet),
    };
    if bar.is_hidden() {
        build(&opts)
    } else {
        build_showing(&bar, opts, build)
    }
}

/// Runs `build` while a ticker thread shows, on `bar`, the node count the
/// builder posts (every 65,536 nodes); clears the bar when done.
fn build_showing(bar: &indicatif::ProgressBar, mut opts: BuildOptions, build: &mut dyn FnMut(&BuildOptions)) {
    let made = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    opts.progress = Some(made.clone());
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let ticker = s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                crate::progress::advance_to(bar, made.load(std::sync::atomic::Ordering::Relaxed));
                // Woken at once when the build ends: a small tree waits for no tick.
                std::thread::park_timeout(std::time::Duration::from_millis(100));
            }
        });
        build(&opts);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        ticker.thread().unpark();
    });
    bar.finish_and_clear();
}

/// Below about this many nodes, the default thread count builds on one
/// thread: the threads' start-up and the merge cost more than the second
/// core saves (docs/perf/tree-build.md, "Fresh small builds").
pub const PARALLEL_MIN_NODES: f64 = 80_000.0;
