//! Public-state vector CFR for two-player zero-sum games in which every
//! move is seen by both players and private information comes only from
//! chance deals: CFR walks the public tree once per player and iteration,
//! with a vector of private states per player at each node, instead of one
//! node per deal (docs/perf/vector-cfr.md).
//!
//! [`game`] is the public game, [`from_tree`] derives it from a built tree
//! and [`from_game`] from the game's rules without a tree (both through
//! [`draft`]),
//! [`walk`] and [`leaf`] are one traversal and the leaves' values,
//! [`cfr`] the run's arrays and iterations. [`VcfrSolver`] runs it on a
//! tree and maps the answer back to the tree's [`Profile`].

pub mod cards;
pub mod cfr;
mod draft;
mod evaluate;
pub mod from_game;
mod from_game_parts;
pub mod from_tree;
pub mod game;
pub mod infer;
pub mod leaf;
pub mod real;
mod showdown;
pub mod split;
pub mod store;
pub mod walk;

use std::time::Instant;

use galac_runtime::memory::MemoryLimit;
use galac_runtime::tree::Tree;

use crate::cfr::schedule::Schedule;
use crate::cfr::{Checks, Variant};
use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
pub use cfr::{VectorCfr, POSTFLOP_DCFR};
pub use from_game::{from_game, from_game_by_deal, from_game_per_deal_showdowns, FromGame};
pub use from_tree::{from_tree, FromTree};
pub use game::{PerStreet, PublicGame};
pub use store::Storage;

/// How a vector CFR run is set up.
#[derive(Clone, Debug)]
pub struct VcfrConfig {
    /// CFR+ or DCFR ([`POSTFLOP_DCFR`] by default).
    pub variant: Variant,
    /// Stop after this many iterations.
    pub iterations: u64,
    /// When to compute the exploitability (from the vector best response).
    pub checks: Checks,
    /// Threads (at most two are used).
    pub threads: usize,
    /// Bytes the tree, the public game and the run's arrays may hold.
    pub memory: MemoryLimit,
    /// How the regrets and average sums are kept (`f32` by default).
    pub storage: Storage,
}

impl VcfrConfig {
    pub fn new(variant: Variant, iterations: u64) -> VcfrConfig {
        VcfrConfig {
            variant,
            iterations,
            checks: Checks::Never,
            threads: 1,
            memory: MemoryLimit::NONE,
            storage: Storage::F32,
        }
    }
}

/// Vector CFR behind the [`Solver`] trait: the public game from the tree,
/// the run, the average strategy as the tree's profile.
#[derive(Clone, Debug)]
pub struct VcfrSolver {
    pub config: VcfrConfig,
}

impl Solver for VcfrSolver {
    fn name(&self) -> String {
        let storage = match self.config.storage {
            Storage::F32 => "",
            Storage::Compressed => ", compressed to 16 bits",
        };
        format!("vcfr, {}{storage}", self.config.variant.name())
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        self.solve_public(tree, observer).map(|(solution, _)| solution)
    }
}

impl VcfrSolver {
    /// [`Solver::solve`], with the public game's nodes per street (what a
    /// comparison of action trees counts).
    pub fn solve_public(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<(Solution, PerStreet), SolveError> {
        let start = Instant::now();
        let derived = from_tree(tree)?;
        let game = &derived.game;
        let built = start.elapsed().as_secs_f64();
        let run = self.run(game, tree.bytes(), start, observer)?;
        let (profile, unreached) = derived.profile(tree, &run.cfr);
        let phases = run.phases(built, start);
        Ok((Solution { profile, unreached, phases, stopped: run.stopped }, game.per_street()))
    }

    /// Runs the iterations on `game` (derived by `start`; `held`: the bytes
    /// of what derived it, still held), checking the exploitability when the
    /// config says and stopping when `observer` says.
    pub fn run<'g>(
        &self,
        game: &'g PublicGame,
        held: u64,
        start: Instant,
        observer: &mut dyn Observer,
    ) -> Result<Run<'g>, SolveError> {
        let config = &self.config;
        let arrays = VectorCfr::estimate_bytes(game, config.threads, config.storage);
        config.memory.check(held + game.bytes() + arrays)?;
        let mut cfr = VectorCfr::with_storage(game, config.variant, config.threads, config.storage)?;
        let mut schedule = Schedule::new(config.checks, 0);
        let (mut checks, mut since, mut since_iteration) = (0.0, Instant::now(), 0u64);
        let (mut stopped, mut last) = (false, None);
        while cfr.iteration < config.iterations {
            cfr.iterate();
            let t = cfr.iteration;
            let evaluation = if schedule.due(t, t == config.iterations) {
                let at = Instant::now();
                let per_iteration = (at - since).as_secs_f64() / (t - since_iteration).max(1) as f64;
                let e = cfr.evaluate();
                let secs = at.elapsed().as_secs_f64();
                checks += secs;
                schedule.checked(t, e.nash_conv, per_iteration, secs);
                (since, since_iteration) = (Instant::now(), t);
                last = Some((t, e.clone()));
                Some(e)
            } else {
                None
            };
            let progress = Progress::checked(t, start.elapsed().as_secs_f64(), evaluation);
            if observer.progress(&progress) == Control::Stop {
                stopped = true;
                break;
            }
        }
        Ok(Run { cfr, checks, stopped, last })
    }
}

/// A finished run: the solver's arrays, the seconds its checks took,
/// whether the observer stopped it, and its last check with the
/// iteration it was made after.
pub struct Run<'g> {
    pub cfr: VectorCfr<'g>,
    pub checks: f64,
    pub stopped: bool,
    last: Option<(u64, crate::best_response::Evaluation)>,
}

impl Run<'_> {
    /// The values and exploitability of the average strategies now: the
    /// last check's when it was made after the last iteration (a run to a
    /// target stops right after one), else a new check's.
    pub fn evaluation(&mut self) -> crate::best_response::Evaluation {
        match &self.last {
            Some((t, e)) if *t == self.cfr.iteration => e.clone(),
            _ => self.cfr.evaluate(),
        }
    }

    /// Seconds per phase: the public game (`built`), the iterations, the checks.
    pub fn phases(&self, built: f64, start: Instant) -> Vec<(&'static str, f64)> {
        let total = start.elapsed().as_secs_f64();
        vec![("public game", built), ("vcfr", total - built - self.checks), ("exploitability checks", self.checks)]
    }
}

#[cfg(test)]
mod tests;
