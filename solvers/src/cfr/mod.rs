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
pub mod layout;
pub mod rules;
pub mod state;
pub mod walk;

use std::time::Instant;

use galac_runtime::tree::Tree;

pub use rules::Variant;
pub use state::{CfrState, Fingerprint};

use crate::best_response::evaluate;
use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
use crate::treeplex::Treeplex;
use crate::Profile;

/// When a run computes the exact exploitability of its average strategy
/// (a best response per player: far dearer than an iteration on most trees).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Never during the run.
    Never,
    /// Every this many iterations (and after the last): a reproducible curve.
    Every(u64),
    /// When the iterations since the last check took at least nine times as
    /// long as that check, so checks cost about a tenth of the run.
    Auto,
}

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
    /// Threads per traversal; the result is the same for any count.
    pub threads: usize,
    /// Bytes the tree and the solver's arrays may hold together.
    pub max_bytes: u64,
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
            max_bytes: u64::MAX,
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
    /// Instantaneous regrets of the iteration, per slot.
    inst: Vec<f64>,
    /// Per sequence of the player being averaged: its own reach.
    seq_reach: Vec<f64>,
    buffers: walk::Buffers,
    layout: layout::Layout,
}

impl<'t> Cfr<'t> {
    /// Sets a run up, refusing when the tree and the arrays would need more
    /// than `config.max_bytes`, and checking a resumed state's shape.
    pub fn new(tree: &'t Tree, config: CfrConfig, resume: Option<CfrState>) -> Result<Cfr<'t>, SolveError> {
        let needed = tree.bytes() + Self::estimate_bytes(tree, &config);
        if needed > config.max_bytes {
            return Err(SolveError::TooMuchMemory { needed, limit: config.max_bytes });
        }
        let plex = Treeplex::new(tree);
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
        let max_slots = max_player_slots(&plex);
        let max_seqs = max_slots + 1;
        Ok(Cfr {
            layout: layout::Layout::new(tree, &plex.slots.first_slot),
            inst: vec![0.0; plex.slots.len()],
            seq_reach: vec![0.0; max_seqs],
            buffers: walk::Buffers::new(tree, max_slots),
            tree,
            plex,
            config,
            state,
        })
    }

    /// Bytes of the solver's arrays (the tree's own not counted), estimated
    /// from the tree alone before anything is allocated.
    pub fn estimate_bytes(tree: &Tree, config: &CfrConfig) -> u64 {
        let slots: u64 = tree.infosets.iter().map(|i| u64::from(i.n_actions)).sum();
        let mut per_player = vec![0u64; tree.n_players as usize];
        for i in &tree.infosets {
            per_player[i.player as usize] += u64::from(i.n_actions);
        }
        let max_slots = per_player.iter().copied().max().unwrap_or(0);
        let sets = tree.infosets.len() as u64;
        CfrState::estimate_bytes(slots as usize, config.variant.predictive())
            + 8 * slots // instantaneous regrets
            + 8 * (max_slots + 1) // own reach per sequence
            + 16 * sets // the treeplex: first slot, parent sequence, sets per player
            + walk::Buffers::estimate_bytes(tree, max_slots as usize)
            + layout::Layout::estimate_bytes(tree)
    }

    /// What identifies this run's checkpoints.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(self.tree, &self.config.variant)
    }

    /// The run's state so far.
    pub fn state(&self) -> &CfrState {
        &self.state
    }

    /// One iteration.
    pub fn iterate(&mut self) {
        let t = self.state.iteration + 1;
        let n = self.tree.n_players;
        let weight = self.config.variant.average_weight(t);
        if self.config.alternating {
            for p in 0..n {
                self.accumulate(p, weight);
                self.traverse(p);
                self.update(p, t);
            }
        } else {
            for p in 0..n {
                self.accumulate(p, weight);
            }
            for p in 0..n {
                self.traverse(p);
            }
            for p in 0..n {
                self.update(p, t);
            }
        }
        self.state.iteration = t;
    }

    /// Player `p`'s share of the average strategy at this iteration.
    fn accumulate(&mut self, p: u32, weight: f64) {
        let s = &mut self.state;
        average::accumulate(self.tree, &self.plex, p as usize, &s.current, weight, &mut s.average, &mut self.seq_reach);
    }

    /// Player `p`'s instantaneous regrets into `inst`.
    fn traverse(&mut self, p: u32) {
        let range =
            self.plex.slots.player_slots[p as usize] as usize..self.plex.slots.player_slots[p as usize + 1] as usize;
        let mine = &mut self.inst[range.clone()];
        mine.fill(0.0);
        let inputs = walk::Inputs {
            tree: self.tree,
            layout: &self.layout,
            first_slot: &self.plex.slots.first_slot,
            current: &self.state.current,
            me: p,
            offset: range.start,
        };
        walk::traverse(inputs, &mut self.buffers, mine, self.config.threads);
    }

    /// Player `p`'s accumulated regrets and current strategy, set by set.
    fn update(&mut self, p: u32, t: u64) {
        let predictive = self.config.variant.predictive();
        for &set in &self.plex.infosets_of[p as usize] {
            let s = self.plex.slots.first_slot[set as usize] as usize;
            let r = s..s + self.tree.infosets[set as usize].n_actions as usize;
            let pred = if predictive { &mut self.state.prediction[r.clone()] } else { &mut [][..] };
            self.config.variant.update(
                t,
                &mut self.state.regrets[r.clone()],
                &self.inst[r.clone()],
                pred,
                &mut self.state.current[r],
            );
        }
    }

    /// The average strategy, and the sets it never reaches.
    pub fn average(&self) -> (Profile, Vec<u32>) {
        self.state.average_profile(self.tree, &self.plex)
    }

    /// Iterates until the configured count or until `observer` stops the
    /// run, reporting after every iteration (with the exact exploitability
    /// when a check is due). Returns the answer and the final state.
    pub fn run(mut self, observer: &mut dyn Observer) -> (Solution, CfrState) {
        let start = Instant::now();
        let base = self.state.seconds;
        let mut stopped = false;
        let mut last_check = Instant::now();
        let mut check_cost = 0.0f64;
        let mut check_total = 0.0f64;
        while self.state.iteration < self.config.iterations {
            self.iterate();
            let t = self.state.iteration;
            let last = t == self.config.iterations;
            let due = match self.config.checks {
                Checks::Never => false,
                Checks::Every(k) => last || t.is_multiple_of(k.max(1)),
                Checks::Auto => last || last_check.elapsed().as_secs_f64() >= 9.0 * check_cost,
            };
            let evaluation = due.then(|| {
                let at = Instant::now();
                let e = evaluate(self.tree, &self.average().0);
                check_cost = at.elapsed().as_secs_f64();
                check_total += check_cost;
                last_check = Instant::now();
                e
            });
            let progress = Progress {
                iteration: t,
                seconds: base + start.elapsed().as_secs_f64(),
                exploitability: evaluation.as_ref().map(|e| e.nash_conv),
                bounds: None,
                evaluation,
            };
            if observer.progress(&progress) == Control::Stop {
                stopped = true;
                break;
            }
        }
        self.state.seconds = base + start.elapsed().as_secs_f64();
        let (profile, unreached) = self.average();
        let phases = vec![("cfr", start.elapsed().as_secs_f64() - check_total), ("exploitability checks", check_total)];
        (Solution { profile, unreached, phases, stopped }, self.state)
    }
}

/// The most action slots any one player has.
fn max_player_slots(plex: &Treeplex) -> usize {
    plex.slots.player_slots.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
}

impl CfrSolver {
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
