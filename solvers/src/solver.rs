//! The solver interface every algorithm implements, so that the command
//! line, tests and benchmarks drive the LP, the CFR family, the double
//! oracle, max^n and Lemke alike.
//!
//! A solver works on a built [`Tree`], reports its progress to an
//! [`Observer`] (which draws progress lines, records curves, enforces time
//! limits or Ctrl-C) and returns a [`Solution`]. Solvers never print and
//! never parse flags.

use galac_runtime::memory::{mib_down, mib_up, TooMuch};
use galac_runtime::tree::Tree;

use crate::best_response::Evaluation;
use crate::Profile;

/// A snapshot of a running solver.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Iterations done (1 for a one-shot solver such as the LP).
    pub iteration: u64,
    /// Seconds since the solver started.
    pub seconds: f64,
    /// The exploitability (NashConv) of the current answer, when known.
    pub exploitability: Option<f64>,
    /// Lower and upper bounds on the first player's value, when known.
    pub bounds: Option<(f64, f64)>,
    /// The exact evaluation (values, best responses, NashConv) behind
    /// `exploitability`, when the solver computed one.
    pub evaluation: Option<Evaluation>,
}

impl Progress {
    /// An iterative solver's report after `iteration`, with the exact
    /// evaluation of its answer when it checked one this time (the
    /// exploitability is that evaluation's NashConv).
    pub fn checked(iteration: u64, seconds: f64, evaluation: Option<Evaluation>) -> Progress {
        let exploitability = evaluation.as_ref().map(|e| e.nash_conv);
        Progress { iteration, seconds, exploitability, bounds: None, evaluation }
    }
}

/// What the observer wants after a progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop as soon as possible and return the current answer.
    Stop,
}

/// Sees every progress report; may stop the solver.
pub trait Observer {
    fn progress(&mut self, progress: &Progress) -> Control;
}

impl<F: FnMut(&Progress) -> Control> Observer for F {
    fn progress(&mut self, progress: &Progress) -> Control {
        self(progress)
    }
}

/// An observer that lets every solver run to its end.
pub struct RunToEnd;

impl Observer for RunToEnd {
    fn progress(&mut self, _: &Progress) -> Control {
        Control::Continue
    }
}

/// A solver's answer.
#[derive(Clone, Debug)]
pub struct Solution {
    /// A behaviour strategy for every information set.
    pub profile: Profile,
    /// Information sets that the answer never reaches; the profile's play
    /// there is uniform and carries no meaning.
    pub unreached: Vec<galac_runtime::ids::InfosetId>,
    /// Where the time went: (phase, seconds), e.g. ("solve LP", 0.1).
    pub phases: Vec<(&'static str, f64)>,
    /// The observer stopped the solver before it finished.
    pub stopped: bool,
}

/// A failure of the LP backend (the sequence-form LP, the double
/// oracle's restricted games); [`crate::lp`] re-exports it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LpError {
    #[error("the LP solver ({backend}) failed on the {which} LP: {status}")]
    Solver { backend: &'static str, which: &'static str, status: String },
    /// Its [`galac_runtime::cancel::Cancel`] was set.
    #[error("the LP was cancelled")]
    Cancelled,
}

/// Why a solver could not solve a game. Messages say what the game lacks,
/// never which flag to use.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("{solver} cannot solve this game: {reason}")]
    Unsupported { solver: &'static str, reason: String },
    #[error("the solver's arrays and the tree need {} MiB, more than the {} MiB allowed", mib_up(*needed), mib_down(*limit))]
    TooMuchMemory { needed: u64, limit: u64 },
    /// A solver that explores the game itself went past the node limit.
    #[error("{solver} cannot solve this game: the explored part of the game exceeds {limit} nodes, the node limit")]
    ExploredNodes { solver: &'static str, limit: u64 },
    /// A solver that explores the game itself went past the memory limit.
    #[error("{solver} cannot solve this game: the explored part of the game needs more than {} MiB, the memory limit", mib_down(*limit))]
    ExploredMemory { solver: &'static str, limit: u64 },
    #[error(transparent)]
    Lp(#[from] LpError),
    /// The solver's [`galac_runtime::cancel::Cancel`] was set.
    #[error("the solver was cancelled")]
    Cancelled,
    /// A solver that explores the game itself (the double oracle) met an
    /// error of the game's rules.
    #[error(transparent)]
    Game(#[from] galac_runtime::game::GameError),
}

/// An algorithm that computes a strategy profile for a game tree.
///
/// Not every solver fits this shape: the double oracle
/// ([`crate::double_oracle::solve_game`]) must never build the whole tree,
/// so it takes the game itself (any [`galac_runtime::game::Game`], the
/// interpreter or generated code) and expands only the part it needs; a
/// `solve(&Tree)` would force every caller to pay for the full tree first,
/// which is what the algorithm exists to avoid. Its answer is indexed by
/// the information-set ids of the interner it was given, so a caller that
/// also built the tree with that interner maps it onto the tree's profile
/// ([`crate::double_oracle::DoSolution::profile`]).
pub trait Solver {
    /// A short name for reports, e.g. "lp (clarabel)".
    fn name(&self) -> String;
    /// Solves the game, reporting progress to `observer`.
    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError>;
}

impl From<TooMuch> for SolveError {
    fn from(e: TooMuch) -> Self {
        SolveError::TooMuchMemory { needed: e.needed, limit: e.limit.bytes() }
    }
}
