//! What a build is asked for and how it fails: [`BuildOptions`] (the
//! limits, labels, progress) and [`BuildError`], shared by every builder
//! and by loading a saved tree.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use crate::cancel::Cancel;
use crate::game::GameError;
use crate::memory::{MemoryLimit, TooMuch};

/// Limits and options of a build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Stop with an error beyond this many nodes.
    pub max_nodes: u64,
    /// Stop with an error when the tree and interner exceed this many bytes.
    pub memory: MemoryLimit,
    /// Record readable labels of information sets, actions and chance
    /// outcomes (for export and display; costs time on big trees).
    pub labels: bool,
    /// Where the build posts how many nodes it has made so far, for a
    /// progress bar drawn by the caller's thread. Posted where the limits
    /// are checked (every 65,536 nodes), so it costs the hot loop nothing.
    pub progress: Option<Arc<AtomicU64>>,
    /// Stops the build with [`BuildError::Cancelled`] when set, looked at
    /// where the limits are checked.
    pub cancel: Option<Cancel>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_nodes: 200_000_000,
            memory: crate::memory::MemoryLimit::from_bytes(8 << 30),
            labels: false,
            progress: None,
            cancel: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("the game tree has more than {limit} nodes, the node limit")]
    TooManyNodes { limit: u64 },
    #[error("the game tree needs more than {limit_mib} MiB, the memory limit")]
    TooMuchMemory { limit_mib: u64 },
    #[error(transparent)]
    Game(#[from] GameError),
    /// A game error below the root, with the play that led there.
    #[error("{error}\n  in the play: {play}")]
    InPlay { error: GameError, play: String },
    #[error("a chance node has {n} outcomes but {got} probabilities")]
    ChanceMismatch { n: u32, got: usize },
    #[error("a chance node's probabilities sum to {sum}, not 1")]
    ChanceSum { sum: String },
    #[error("a leaf has {got} payoffs but the game has {n} players")]
    PayoffArity { n: u32, got: usize },
    #[error("a node has {n} children; at most {max} are supported")]
    TooManyChildren { n: u64, max: u64 },
    #[error("a decision node has no actions")]
    NoActions,
    #[error("the nodes of one information set have {first} and {other} actions")]
    ActionCountMismatch { first: u32, other: u32 },
    #[error("imperfect recall: {0}")]
    ImperfectRecall(String),
    #[error("the game tree has more than {limit} {what}, the most a tree can hold")]
    TableFull { what: &'static str, limit: u64 },
    /// Writing a tree out while it is built failed.
    #[error("cannot write the tree: {0}")]
    Write(String),
    /// The build's [`BuildOptions::cancel`] was set.
    #[error("the build was cancelled")]
    Cancelled,
}

impl From<TooMuch> for BuildError {
    fn from(e: TooMuch) -> Self {
        BuildError::TooMuchMemory { limit_mib: e.limit.mib() }
    }
}
