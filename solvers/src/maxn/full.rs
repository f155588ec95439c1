//! max^n over the whole flat tree, bottom-up without recursion: every
//! decision node's vector and choice, so that the answer is a complete
//! strategy profile (an equilibrium in every subgame), with the tie rule's
//! mixing where children tie.

use galac_runtime::ids::{InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};

use super::search::{tied, Ties};
use crate::treeplex::Slots;
use crate::Profile;

/// The backward induction of every node.
pub struct Backward {
    /// Max^n vectors, `node * n_players + player`.
    pub values: Vec<f64>,
    /// The first best child of each decision node (the root elsewhere).
    pub best: Vec<NodeId>,
    /// Decision nodes where two or more children tie for the mover's best.
    pub ties: u64,
}

/// Computes every node's max^n vector under `ties`.
pub fn backward(tree: &Tree, ties: Ties) -> Backward {
    let n = tree.n_players as usize;
    let mut values = vec![0.0f64; tree.n_nodes() * n];
    let mut best = vec![NodeId::ROOT; tree.n_nodes()];
    let mut n_ties = 0u64;
    for node in tree.preorder().into_iter().rev() {
        let base = node.index() * n;
        match tree.node(node) {
            NodeView::Terminal => {
                for (p, x) in tree.payoffs(node).iter().enumerate() {
                    values[base + p] = *x as f64;
                }
            }
            NodeView::Chance => {
                for (child, pr) in tree.children(node).zip(tree.chance_probs(node)) {
                    let w = pr.to_f64();
                    for p in 0..n {
                        values[base + p] += w * values[child.index() * n + p];
                    }
                }
            }
            NodeView::Decision { player, .. } => {
                let i = player.index();
                let mut first = tree.children(node).start;
                for child in tree.children(node) {
                    let (v, top) = (values[child.index() * n + i], values[first.index() * n + i]);
                    if v > top && !tied(v, top) {
                        first = child;
                    }
                }
                best[node.index()] = first;
                let top = values[first.index() * n + i];
                let count = tree.children(node).filter(|c| tied(values[c.index() * n + i], top)).count();
                if count > 1 {
                    n_ties += 1;
                }
                match ties {
                    Ties::First => {
                        for p in 0..n {
                            values[base + p] = values[first.index() * n + p];
                        }
                    }
                    Ties::Average => {
                        for child in tree.children(node) {
                            if tied(values[child.index() * n + i], top) {
                                for p in 0..n {
                                    values[base + p] += values[child.index() * n + p] / count as f64;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Backward { values, best, ties: n_ties }
}

impl Backward {
    /// The strategy profile: the best child, or uniform play over the tied
    /// best children under [`Ties::Average`]. Each information set holds one
    /// node (perfect information, checked by the caller).
    pub fn profile(&self, tree: &Tree, ties: Ties) -> Profile {
        let n = tree.n_players as usize;
        let mut profile = Profile::uniform(tree);
        debug_assert_eq!(Slots::new(tree).len(), profile.probs.len());
        for node in tree.nodes() {
            let NodeView::Decision { player, infoset } = tree.node(node) else { continue };
            let i = player.index();
            let first = self.best[node.index()];
            let top = self.values[first.index() * n + i];
            let start = tree.children(node).start;
            let probs = profile.probs_mut(infoset);
            probs.fill(0.0);
            match ties {
                Ties::First => probs[(first - start) as usize] = 1.0,
                Ties::Average => {
                    let is_top = |c: &NodeId| tied(self.values[c.index() * n + i], top);
                    let count = tree.children(node).filter(is_top).count();
                    for c in tree.children(node).filter(is_top) {
                        probs[(c - start) as usize] = 1.0 / count as f64;
                    }
                }
            }
        }
        profile
    }

    /// The principal variation from the root: the chosen (first best) action
    /// at each decision, as (information set, action index), until a leaf or
    /// a chance node; and the node where it ends.
    pub fn principal_variation(&self, tree: &Tree) -> (Vec<(InfosetId, u32)>, NodeId) {
        let mut pv = Vec::new();
        let mut node = NodeId::ROOT;
        while let NodeView::Decision { infoset, .. } = tree.node(node) {
            let child = self.best[node.index()];
            pv.push((infoset, child - tree.children(node).start));
            node = child;
        }
        (pv, node)
    }
}
