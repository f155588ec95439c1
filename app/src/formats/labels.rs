//! The labels both writers give actions and chance outcomes: the tree's
//! own, or the number where the tree was built without labels.

use galac_runtime::ids::{InfosetId, NodeId};
use galac_runtime::tree::Tree;

/// The label of action `a` of a decision node's information set, or the
/// action number when the tree carries no labels.
pub(crate) fn action_label(tree: &Tree, infoset: InfosetId, a: usize) -> String {
    tree.action_labels(infoset).get(a).cloned().unwrap_or_else(|| a.to_string())
}

/// The label of outcome `a` of a chance node, or its number.
pub(crate) fn chance_label(tree: &Tree, node: NodeId, a: usize) -> String {
    tree.chance_outcome_labels(node).get(a).cloned().unwrap_or_else(|| a.to_string())
}
