//! The counterfactual regret family (vanilla CFR, CFR+, DCFR, Linear CFR,
//! predictive CFR+) over the flat tree, for any number of players.
//!
//! An iteration follows OpenSpiel's `CFRSolverBase::EvaluateAndUpdatePolicy`:
//! with alternating updates each player in turn adds its share to the
//! average strategy, has its instantaneous regrets computed by one traversal
//! ([`walk`]) against the others' current strategies (those already updated
//! in this iteration included), and gets its next current strategy
//! ([`rules`]); with simultaneous updates every player is traversed against
//! the same current strategies before any is updated. The average strategy
//! is accumulated once per information set from the player's own reach
//! ([`average`]), which is OpenSpiel's per-history sum divided by the set's
//! history count, a constant that normalisation removes.

pub mod average;
pub mod crew;
pub mod distributed;
pub mod layout;
pub mod pace;
pub mod rules;
pub mod schedule;
pub mod sets;
pub mod state;
pub mod sync;
pub mod walk;

use std::time::Instant;

use galac_runtime::memory::MemoryLimit;
use galac_runtime::tree::Tree;

pub use rules::Variant;
pub use schedule::Checks;
pub use state::{CfrState, Fingerprint};

use crate::best_response::{Evaluation, Evaluator};
use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
use crate::treeplex::Treeplex;
use crate::Profile;
use schedule::Schedule;

/// How a CFR run is set up.
#[derive(Clone, Debug)]
pub struct CfrConfig {
    pub variant: Variant,
    /// Alternating updates (OpenSpiel's `CFRSolver` and `CFRPlusSolver`
    /// alternate) rather than simultaneous ones.
    pub alternating: bool,
    /// Stop after this many iterations in all (counting resumed ones).
    pub iterations: u64,
    pub checks: Checks,
    /// Threads (at most two are used: see [`crew`]); the result is the
    /// same for any count.
    pub threads: usize,
    /// Bytes the tree and the solver's arrays may hold together
    /// (`u64::MAX`: no limit; see [`CfrConfig::memory`]).
    pub memory: MemoryLimit,
}

impl CfrConfig {
    /// The variant with its usual update order: simultaneous for vanilla
    /// CFR, alternating for the others.
    pub fn new(variant: Variant, iterations: u64) -> CfrConfig {
        CfrConfig {
            variant,
            alternating: variant != Variant::Cfr,
            iterations,
            checks: Checks::Never,
            threads: 1,
            memory: MemoryLimit::NONE,
        }
    }
}

/// A CFR solver behind the [`Solver`] trait; [`CfrSolver::run`] also
/// returns the state, for checkpoints.
#[derive(Clone, Debug)]
pub struct CfrSolver {
    pub config: CfrConfig,
    /// A state to continue from (read from a checkpoint).
    pub resume: Option<CfrState>,
}

/// A CFR run on one tree: the state plus what iterations reuse.
pub struct Cfr<'t> {
    tree: &'t Tree,
    plex: Treeplex,
    config: CfrConfig,
    state: CfrState,
    layout: layout::Layout,
    /// The root's two chunks ([`walk::split`]).
    chunks: Chunks,
}

impl<'t> Cfr<'t> {
    /// Sets a run up, refusing when the tree and the arrays would need more
    /// than `config.memory`, and checking a resumed state's shape.
    pub fn new(tree: &'t Tree, config: CfrConfig, resume: Option<CfrState>) -> Result<Cfr<'t>, SolveError> {
        let bytes = Self::estimate_bytes(tree, &config);
        Self::set_up(tree, bytes, config, resume)
    }

    /// [`Self::new`] for a run whose own arrays take `bytes`.
    fn set_up(tree: &'t Tree, bytes: u64, config: CfrConfig, resume: Option<CfrState>) -> Result<Cfr<'t>, SolveError> {
        config.memory.check(tree.bytes() + bytes)?;
        let (plex, layout, chunks) = plex_and_layout(tree, config.threads > 1);
        let predictive = config.variant.predictive();
        let n = plex.slots.len();
        let state = match resume {
            Some(s) => {
                let pred = if predictive { n } else { 0 };
                let fits = [s.regrets.len(), s.average.len(), s.current.len()] == [n; 3] && s.prediction.len() == pred;
                if !fits {
                    let reason = format!("the state to resume has {} action slots, the tree {n}", s.regrets.len());
                    return Err(SolveError::Unsupported { solver: "cfr", reason });
                }
                s
            }
            None => CfrState::new(tree, &plex, predictive),
        };
        Ok(Cfr { layout, chunks, tree, plex, config, state })
    }

    /// Bytes of the solver's arrays (the tree's own not counted), estimated
    /// from the tree alone before anything is allocated.
    pub fn estimate_bytes(tree: &Tree, config: &CfrConfig) -> u64 {
        let (slots, max_slots) = slot_counts(tree);
        let two = config.threads > 1 && tree.n_nodes() >= crew::PARALLEL_MIN_NODES;
        Self::shared_bytes(tree, config) + crew::estimate_bytes(tree, slots, max_slots, two)
    }

    /// What [`Self::estimate_bytes`] counts besides the threads' buffers:
    /// the state, the treeplex, the layout and the checks.
    fn shared_bytes(tree: &Tree, config: &CfrConfig) -> u64 {
        let (slots, _) = slot_counts(tree);
        let sets = tree.infosets.len() as u64;
        CfrState::estimate_bytes(slots as usize, config.variant.predictive())
            + 16 * sets // the treeplex: first slot, parent sequence, sets per player
            + layout::Layout::estimate_bytes(tree)
            + Evaluator::estimate_bytes(tree, config.threads)
            + 8 * slots // the average profile of a check
    }

    /// What identifies this run's checkpoints.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(self.tree, &self.config.variant)
    }

    /// Iterates until the configured count or until `observer` stops the
    /// run, reporting after every iteration (with the exact exploitability
    /// when a check is due). Returns the answer and the final state.
    pub fn run(self, observer: &mut dyn Observer) -> (Solution, CfrState) {
        let two = self.two_threads();
        self.run_paced(observer, pace::Pace::new(two))
    }

    /// Whether the run may use a second thread.
    fn two_threads(&self) -> bool {
        self.config.threads > 1 && self.tree.n_nodes() >= crew::PARALLEL_MIN_NODES
    }

    /// [`Self::run`] with the thread count of each iteration chosen by
    /// `pace` (tests script it).
    pub fn run_paced(self, observer: &mut dyn Observer, pace: pace::Pace) -> (Solution, CfrState) {
        let tree = self.tree;
        let (state, plex, phases, stopped) = self.iterate(observer, pace);
        let (profile, unreached) = state.average_profile(tree, &plex);
        (Solution { profile, unreached, phases, stopped }, state)
    }

    /// Iterates as [`Self::run`] does and returns the average strategy's
    /// sums only, per slot, with each set's first slot: what a warm start
    /// reads, without the normalised profile (an array over every slot,
    /// made, filled and read once more on one thread).
    pub fn run_sums(self, observer: &mut dyn Observer) -> AverageSums {
        let pace = pace::Pace::new(self.two_threads());
        let (state, plex, _, _) = self.iterate(observer, pace);
        AverageSums { sums: state.average, first_slot: plex.slots.first_slot }
    }

    /// The iterations of [`Self::run_paced`]: the final state, the
    /// treeplex, the phases' seconds and whether the observer stopped it.
    fn iterate(self, observer: &mut dyn Observer, mut pace: pace::Pace) -> (CfrState, Treeplex, Phases, bool) {
        let threads = if self.two_threads() { 2 } else { 1 };
        let Cfr { tree, plex, config, mut state, layout, chunks } = self;
        let start = Instant::now();
        let base = state.seconds;
        let mut iteration = state.iteration;
        let take = std::mem::take;
        let arrays = (take(&mut state.regrets), take(&mut state.prediction), take(&mut state.current));
        let mut p0 = crew::Part::main(tree, &plex, arrays.0, arrays.1, arrays.2, take(&mut state.average));
        let rules = (config.variant, config.alternating);
        let team = crew::Team::new(tree, &plex, &layout, chunks, rules, threads);
        let mut checker = Checker::new(tree, &plex, config.checks, iteration, config.threads);
        let p1 = std::sync::Mutex::new(if threads > 1 { crew::Part::worker(&p0) } else { crew::Part::empty() });
        let stopped = std::thread::scope(|s| {
            if threads > 1 {
                let (team, p1) = (&team, &p1);
                s.spawn(move || team.work(p1));
            }
            // A panic on this thread must not leave the worker waiting.
            let _guard = team.guard();
            let mut stopped = false;
            while iteration < config.iterations {
                iteration += 1;
                pace.iterate(&team, iteration, &mut p0, &p1);
                let last = iteration == config.iterations;
                let evaluation = checker.check(iteration, last, p0.average_sums());
                let progress = Progress::checked(iteration, base + start.elapsed().as_secs_f64(), evaluation);
                if observer.progress(&progress) == Control::Stop {
                    stopped = true;
                    break;
                }
            }
            team.finish();
            stopped
        });
        drop(p1);
        (state.regrets, state.prediction, state.current) =
            (take(&mut p0.regrets), take(&mut p0.prediction), take(&mut p0.current));
        state.iteration = iteration;
        state.seconds = base + start.elapsed().as_secs_f64();
        let check_total = checker.total;
        let phases = vec![("cfr", start.elapsed().as_secs_f64() - check_total), ("exploitability checks", check_total)];
        // The borrows of the treeplex end before it is handed back.
        state.average = p0.into_average();
        drop((checker, team));
        (state, plex, phases, stopped)
    }
}

/// A run's phases and their seconds, as [`Solution::phases`].
type Phases = Vec<(&'static str, f64)>;

/// The average strategy's sums of a run, per action slot (not normalised:
/// a set's probabilities are its sums over their total; a set whose total
/// is not positive was never reached).
pub struct AverageSums {
    pub sums: Vec<f64>,
    /// Per information set: its first slot.
    pub first_slot: galac_runtime::ids::IdVec<galac_runtime::ids::InfosetId, galac_runtime::ids::SlotId>,
}

impl AverageSums {
    /// The sums of `set`'s actions.
    pub fn of(&self, tree: &Tree, set: galac_runtime::ids::InfosetId) -> &[f64] {
        let s = self.first_slot[set].index();
        &self.sums[s..s + tree.infosets[set].n_actions as usize]
    }
}

/// The tree's treeplex, its layout for the walks and the root's two chunks
/// ([`walk::split`]): with `two` threads side by side, the layout and the
/// chunks on a second thread (they need only the slots, and each is a walk
/// over every node). The same either way.
fn plex_and_layout(tree: &Tree, two: bool) -> (Treeplex, layout::Layout, Chunks) {
    if !two || tree.n_nodes() < crew::PARALLEL_MIN_NODES {
        let plex = Treeplex::new(tree);
        let layout = layout::Layout::new(tree, &plex.slots.first_slot);
        return (plex, layout, walk::split(tree));
    }
    let slots = crate::treeplex::Slots::new(tree);
    let first_slot = slots.first_slot.clone();
    std::thread::scope(|s| {
        let other = s.spawn(|| (layout::Layout::new(tree, &first_slot), walk::split(tree)));
        let plex = Treeplex::with_slots(tree, slots);
        let (layout, chunks) = other.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (plex, layout, chunks)
    })
}

/// The root's children of each of the two chunks of a walk.
type Chunks = [galac_runtime::ids::IdRange<galac_runtime::ids::NodeId>; 2];

/// The action slots of a tree: in all, and the most of one player.
fn slot_counts(tree: &Tree) -> (u64, u64) {
    let mut per_player = vec![0u64; tree.n_players as usize];
    for i in &tree.infosets {
        per_player[i.player.index()] += u64::from(i.n_actions);
    }
    (per_player.iter().sum(), per_player.iter().copied().max().unwrap_or(0))
}

/// The exact exploitability checks of a run: when they are due, and the
/// buffers they reuse.
struct Checker<'t> {
    tree: &'t Tree,
    plex: &'t Treeplex,
    schedule: Schedule,
    /// The evaluator and the profile it reads, made at the first check: a
    /// run without checks (a seed's, `Checks::Never`) never pays for them
    /// (on blind tic-tac-toe's 87M nodes, gigabytes zeroed for nothing).
    buffers: Option<(Evaluator, Profile)>,
    /// The run's threads, which its checks use too.
    threads: usize,
    /// The end of the last check (or the start).
    since: Instant,
    /// The iteration of the last check (or the first).
    since_iteration: u64,
    /// Seconds spent in checks.
    total: f64,
}

impl<'t> Checker<'t> {
    /// No check done yet; the run starts after `iteration`.
    fn new(tree: &'t Tree, plex: &'t Treeplex, checks: Checks, iteration: u64, threads: usize) -> Checker<'t> {
        let schedule = Schedule::new(checks, iteration);
        let since = Instant::now();
        Checker { tree, plex, schedule, threads, buffers: None, since, since_iteration: iteration, total: 0.0 }
    }

    /// The evaluation of the average strategy after iteration `t`, if due.
    fn check(&mut self, t: u64, last: bool, average: &[f64]) -> Option<Evaluation> {
        if !self.schedule.due(t, last) {
            return None;
        }
        let at = Instant::now();
        let iteration_secs = (at - self.since).as_secs_f64() / (t - self.since_iteration).max(1) as f64;
        let tree = self.tree;
        let threads = self.threads;
        let make = || (Evaluator::with_threads(tree, threads), Profile::uniform(tree));
        let (evaluator, profile) = self.buffers.get_or_insert_with(make);
        state::average_into(tree, self.plex, average, profile);
        let e = evaluator.evaluate(tree, profile);
        let secs = at.elapsed().as_secs_f64();
        self.total += secs;
        self.schedule.checked(t, e.nash_conv, iteration_secs, secs);
        (self.since, self.since_iteration) = (Instant::now(), t);
        Some(e)
    }
}

impl CfrSolver {
    /// Runs the solver and returns the average strategy's sums only
    /// ([`Cfr::run_sums`]).
    pub fn run_sums(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<AverageSums, SolveError> {
        let cfr = Cfr::new(tree, self.config.clone(), self.resume.clone())?;
        Ok(cfr.run_sums(observer))
    }

    /// Runs the solver and returns its final state as well.
    pub fn run(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<(Solution, CfrState), SolveError> {
        let cfr = Cfr::new(tree, self.config.clone(), self.resume.clone())?;
        Ok(cfr.run(observer))
    }
}

impl Solver for CfrSolver {
    fn name(&self) -> String {
        let order = match (self.config.variant, self.config.alternating) {
            (Variant::Cfr, true) => ", alternating updates",
            (Variant::Cfr, false) => "",
            (_, true) => "",
            (_, false) => ", simultaneous updates",
        };
        format!("{}{order}", self.config.variant.name())
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        self.run(tree, observer).map(|(solution, _)| solution)
    }
}
