//! Building on several threads, with the tree identical to [`crate::tree::build`]'s.
//!
//! The root is expanded on the calling thread; the subtrees of runs of its
//! children are built by worker threads, each with its own game instance and its own
//! information-state interner. The sequential numbering gives every child's
//! subtree a contiguous block of node ids, in child order, and numbers
//! information sets by first appearance: so the parts are concatenated in
//! child order, and each part's information sets, in its own order, are
//! re-interned exactly (fact by fact) into the global interner, which
//! reproduces the sequential numbers (see [`merge`]). The first
//! part's interner becomes the global one (its numbers already are the
//! sequential ones). Each part's nodes then move into the final arrays on
//! a thread per part, while the next part's sets are re-interned, from the
//! part's end a chunk at a time, each chunk's memory given back as it is
//! copied: the merge holds about one copy of the node arrays, not two. A
//! build that saves its tree has its parts write their nodes to scratch
//! files instead, and holds none ([`spill`]).
//!
//! The files: `threads.rs` splits the root and builds the parts;
//! `parts.rs` holds a part and matches its sets with the global ones;
//! `merge.rs` merges the parts into one tree; `scratch.rs` is a part's
//! scratch file of nodes; `spill.rs` merges parts spilled to scratch files
//! into a saved file. How they fit with the other builders:
//! docs/tree-build.md.

mod merge;
mod parts;
mod scratch;
mod spill;
mod threads;

pub use scratch::{MakeScratch, Scratch};
pub(super) use spill::build_parallel_saving;
pub(super) use threads::{build_parallel, build_parallel_own};
