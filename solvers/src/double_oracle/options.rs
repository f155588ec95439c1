//! The settings of a double-oracle run: its [`Variant`] (who computes best
//! responses) and [`DoOptions`].

use galac_runtime::ids::{IdVec, InfosetId};
use galac_runtime::memory::MemoryLimit;

use super::default_strategy::DefaultStrategy;
use crate::lp::Backend;

/// Which players compute best responses in an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// DO-B: both players.
    Both,
    /// DO-SA: one player, alternating.
    Alternating,
    /// DO-SWP: the player with the worse bound.
    WorsePlayer,
}

impl Variant {
    /// Every variant, in the paper's order.
    pub const ALL: &'static [Variant] = &[Variant::Both, Variant::Alternating, Variant::WorsePlayer];

    /// The paper's suffix: b, sa, swp.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Both => "b",
            Variant::Alternating => "sa",
            Variant::WorsePlayer => "swp",
        }
    }

    /// The variant of a [`Variant::name`].
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.iter().copied().find(|v| v.name() == name)
    }
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct DoOptions {
    pub variant: Variant,
    /// The LP backend for the restricted games (`None`: clarabel, which
    /// took the oracle fewer iterations and less time than HiGHS where
    /// measured: docs/perf/double-oracle.md, "Restricted LPs"). HiGHS starts
    /// each LP from the last one's basis.
    pub backend: Option<Backend>,
    /// Stop when the gap is at most this times the payoff range.
    pub epsilon: f64,
    /// Stop after this many iterations even with a gap left.
    pub max_iterations: u64,
    /// Record labels of the sets the answer defines (for a report without a tree).
    pub labels: bool,
    /// Stop with an error when the explored part of the game would exceed
    /// this many nodes (the explored nodes take 20 bytes each).
    pub max_nodes: u64,
    /// The most bytes the explored part of the game may hold (`u64::MAX`:
    /// no limit; see [`DoOptions::memory`]).
    pub memory: MemoryLimit,
    /// Prune the best-response searches with bounds (an answer is then
    /// certified by unpruned searches before the run stops).
    pub prune: bool,
    /// Per interned information set: actions the restricted game starts
    /// with (at the sets a path of such actions reaches), for instance
    /// the support of a short CFR+ run; empty: the paper's start.
    pub seed: IdVec<InfosetId, Vec<u32>>,
    /// Play where the restricted game defines nothing, per interned set
    /// (default: the paper's first action).
    pub default: DefaultStrategy,
    /// Also solve every restricted LP from scratch and stop with an error
    /// when its value differs from the warm-started one by more than 1e-9
    /// of the payoff range (a check for tests; doubles the LP time).
    pub check_warm: bool,
    /// Stops the restricted LPs when set ([`crate::lp::solve`]).
    pub cancel: Option<galac_runtime::cancel::Cancel>,
}

impl DoOptions {
    /// The restricted LPs' backend: the one named, else clarabel.
    pub fn lp_backend(&self) -> Backend {
        self.backend.unwrap_or(Backend::Clarabel)
    }
}

impl Default for DoOptions {
    fn default() -> Self {
        DoOptions {
            variant: Variant::Both,
            backend: None,
            epsilon: 1e-9,
            max_iterations: u64::MAX,
            labels: false,
            max_nodes: u64::MAX,
            memory: MemoryLimit::NONE,
            prune: true,
            seed: IdVec::new(),
            default: DefaultStrategy::default(),
            check_warm: false,
            cancel: None,
        }
    }
}
