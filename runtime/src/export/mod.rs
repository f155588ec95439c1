//! Writing a game tree in the formats of other tools: Gambit's extensive-form
//! files ([`efg`]) and Graphviz graphs ([`dot`]).
//!
//! Both writers read the labels a tree records when it is built with
//! [`BuildOptions::labels`](crate::tree::BuildOptions) set; without them they
//! fall back to action numbers. They write to any [`std::io::Write`] and
//! buffer internally; making the output file appear only when complete is
//! the caller's job.

pub mod dot;
pub mod efg;

pub use dot::{write_dot, DotError, DotOptions, DEFAULT_DOT_MAX_NODES};
pub use efg::write_efg;

use crate::tree::Tree;

/// The label of action `a` of a decision node's information set, or the
/// action number when the tree carries no labels.
fn action_label(tree: &Tree, infoset: u32, a: usize) -> String {
    tree.infosets
        .get(infoset as usize)
        .and_then(|info| info.action_labels.get(a))
        .cloned()
        .unwrap_or_else(|| a.to_string())
}

/// The label of outcome `a` of a chance node, or its number.
fn chance_label(tree: &Tree, node: u32, a: usize) -> String {
    tree.chance_outcome_labels(node).get(a).cloned().unwrap_or_else(|| a.to_string())
}
