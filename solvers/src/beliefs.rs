//! What a profile means at each information set: how likely the set is
//! reached, the distribution over the histories it holds (the beliefs of
//! the player moving there), and the expected payoff of each action to that
//! player, given the set is reached and play follows the profile after.
//!
//! A set the profile never reaches has no beliefs by Bayes' rule. When only
//! its own player's choices keep play away from it, the beliefs are those
//! the others' and chance's play give (as if the player had steered there);
//! when the others' play never gets there either, there are none.

use galac_runtime::ids::{IdVec, InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};

use crate::Profile;

/// One information set under a profile.
#[derive(Clone, Debug, PartialEq)]
pub struct SetView {
    /// Probability that play reaches the set.
    pub reach: f64,
    /// Per member node, in preorder: the belief (probability of being there
    /// when at the set); empty when nothing reaches the set.
    pub beliefs: Vec<(NodeId, f64)>,
    /// Per action: the moving player's expected payoff after taking it
    /// (weighted by the beliefs); NaN without beliefs.
    pub action_values: Vec<f64>,
}

/// Every information set's view under `profile`.
pub fn explain(tree: &Tree, profile: &Profile) -> IdVec<InfosetId, SetView> {
    let order = tree.preorder();
    let n = tree.n_players as usize;
    let n_nodes = tree.n_nodes();
    // reach[node]: by everyone; others[node * n + p]: by chance and every
    // player but `p`.
    let mut reach = vec![0.0f64; n_nodes];
    let mut others = vec![1.0f64; n_nodes * n];
    if n_nodes > 0 {
        reach[0] = 1.0;
    }
    let mut members: IdVec<InfosetId, Vec<NodeId>> = IdVec::from(vec![Vec::new(); tree.infosets.len()]);
    let mut row = vec![0.0f64; n];
    for &node in &order {
        let base = node.index() * n;
        let r = reach[node.index()];
        row.copy_from_slice(&others[base..base + n]);
        match tree.node(node) {
            NodeView::Terminal => {}
            NodeView::Chance => {
                for (child, p) in tree.children(node).zip(tree.chance_probs(node)) {
                    let (cb, w) = (child.index() * n, p.to_f64());
                    reach[child.index()] = r * w;
                    others[cb..cb + n].iter_mut().zip(&row).for_each(|(x, y)| *x = y * w);
                }
            }
            NodeView::Decision { player, infoset } => {
                members[infoset].push(node);
                for (child, &w) in tree.children(node).zip(profile.probs(infoset)) {
                    let cb = child.index() * n;
                    reach[child.index()] = r * w;
                    for (p, (x, y)) in others[cb..cb + n].iter_mut().zip(&row).enumerate() {
                        *x = if p == player.index() { *y } else { y * w };
                    }
                }
            }
        }
    }
    let values = node_values(tree, profile, &order);
    members
        .iter_enumerated()
        .map(|(set, nodes)| {
            let player = tree.infosets[set].player.index();
            let total: f64 = nodes.iter().map(|&h| reach[h.index()]).sum();
            // Without reach, the others' and chance's part alone.
            let weight = |h: NodeId| if total > 0.0 { reach[h.index()] } else { others[h.index() * n + player] };
            let weights: Vec<f64> = nodes.iter().map(|&h| weight(h)).collect();
            let sum: f64 = weights.iter().sum();
            let n_actions = tree.infosets[set].n_actions as usize;
            if sum <= 0.0 {
                return SetView { reach: total, beliefs: Vec::new(), action_values: vec![f64::NAN; n_actions] };
            }
            let beliefs: Vec<(NodeId, f64)> = nodes.iter().zip(&weights).map(|(&h, w)| (h, w / sum)).collect();
            let action_values = (0..n_actions)
                .map(|a| {
                    beliefs.iter().map(|&(h, b)| b * values[(tree.children(h).start.index() + a) * n + player]).sum()
                })
                .collect();
            SetView { reach: total, beliefs, action_values }
        })
        .collect()
}

/// Every node's expected payoff vector under the profile (flat, `n` per node).
fn node_values(tree: &Tree, profile: &Profile, order: &[NodeId]) -> Vec<f64> {
    let n = tree.n_players as usize;
    let mut val = vec![0.0f64; tree.n_nodes() * n];
    for &node in order.iter().rev() {
        let base = node.index() * n;
        let weights: Vec<f64> = match tree.node(node) {
            NodeView::Terminal => {
                for (p, x) in tree.payoffs(node).iter().enumerate() {
                    val[base + p] = *x as f64;
                }
                continue;
            }
            NodeView::Chance => tree.chance_probs(node).iter().map(|r| r.to_f64()).collect(),
            NodeView::Decision { infoset, .. } => profile.probs(infoset).to_vec(),
        };
        for (child, w) in tree.children(node).zip(weights) {
            for p in 0..n {
                val[base + p] += w * val[child.index() * n + p];
            }
        }
    }
    val
}
