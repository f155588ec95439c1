//! The sequence form of a two-player game tree (Koller, Megiddo and von
//! Stengel): each player's sequences, the realization-plan constraints
//! `E x = e`, `F y = f`, and the sparse payoff matrix `A` of the first player,
//! weighted by chance.
//!
//! Numeric contract: chance probabilities are exact rationals in the tree;
//! here they are multiplied out in `f64` once, when `A` is built.

use rustc_hash::FxHashMap;

use galac_runtime::ids::{IdVec, InfosetId, NodeId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};

use crate::treeplex::Treeplex;

/// The sequences are the treeplex's ([`Treeplex`]): sequence 0 of each
/// player is the empty one.
pub struct SequenceForm {
    pub treeplex: Treeplex,
    /// Per information set: its number of actions.
    pub n_actions: IdVec<InfosetId, u32>,
    /// Nonzero entries `(seq1, seq2, a)` of the first player's payoff matrix,
    /// sorted by `(seq1, seq2)`.
    pub payoff: Vec<(SeqId, SeqId, f64)>,
    /// Payoffs of the two players sum to this at every leaf.
    pub constant_sum: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeqFormError {
    #[error("the sequence-form LP needs exactly 2 players; this game has {0}")]
    NotTwoPlayers(u32),
    #[error(
        "the game is not zero-sum or constant-sum: the payoffs at {leaf} sum to {sum}, but to {first} at {first_leaf}"
    )]
    NotConstantSum { leaf: String, sum: i64, first_leaf: String, first: i64 },
    #[error("the payoffs at {leaf} sum past the range of 64-bit integers")]
    SumOverflow { leaf: String },
}

impl SequenceForm {
    pub fn new(tree: &Tree) -> Result<SequenceForm, SeqFormError> {
        if tree.n_players != 2 {
            return Err(SeqFormError::NotTwoPlayers(tree.n_players));
        }
        let treeplex = Treeplex::new(tree);
        let mut entries: FxHashMap<(SeqId, SeqId), f64> = FxHashMap::default();
        let mut constant: Option<(i64, NodeId)> = None;
        // Depth-first: (node, sequence of each player, chance reach).
        let mut stack: Vec<(NodeId, [SeqId; 2], f64)> = vec![(NodeId::ROOT, [SeqId::EMPTY; 2], 1.0)];
        while let Some((node, seqs, reach)) = stack.pop() {
            match tree.node(node) {
                NodeView::Terminal => {
                    let pay = tree.payoffs(node);
                    let Some(sum) = pay[0].checked_add(pay[1]) else {
                        return Err(SeqFormError::SumOverflow { leaf: describe_leaf(tree, node) });
                    };
                    match constant {
                        None => constant = Some((sum, node)),
                        Some((c, first)) if c != sum => {
                            return Err(SeqFormError::NotConstantSum {
                                leaf: describe_leaf(tree, node),
                                sum,
                                first_leaf: describe_leaf(tree, first),
                                first: c,
                            })
                        }
                        Some(_) => {}
                    }
                    if pay[0] != 0 && reach > 0.0 {
                        *entries.entry((seqs[0], seqs[1])).or_insert(0.0) += reach * pay[0] as f64;
                    }
                }
                NodeView::Chance => {
                    // Reversed, so that leaves are met in tree order.
                    for (child, p) in tree.children(node).zip(tree.chance_probs(node)).rev() {
                        stack.push((child, seqs, reach * p.to_f64()));
                    }
                }
                NodeView::Decision { player, infoset } => {
                    let first = treeplex.first_seq(player, infoset);
                    for (a, child) in tree.children(node).enumerate().rev() {
                        let mut s = seqs;
                        s[player.index()] = SeqId(first.0 + a as u32);
                        stack.push((child, s, reach));
                    }
                }
            }
        }
        let mut payoff: Vec<(SeqId, SeqId, f64)> = entries.into_iter().map(|((i, j), a)| (i, j, a)).collect();
        payoff.sort_by_key(|&(i, j, _)| (i, j));
        Ok(SequenceForm {
            treeplex,
            n_actions: tree.infosets.iter().map(|i| i.n_actions).collect(),
            payoff,
            constant_sum: constant.map_or(0, |(c, _)| c),
        })
    }

    /// Turns a realization plan of player `p` into behaviour probabilities per
    /// information set (flattened, see [`crate::Profile`]); where the
    /// plan never reaches an information set, play is uniform and the set is
    /// listed in the returned vector.
    pub fn behaviour(&self, tree: &Tree, p: PlayerId, plan: &[f64], profile: &mut crate::Profile) -> Vec<InfosetId> {
        self.treeplex.behaviour(tree, p, plan, profile)
    }
}

/// "the leaf after a, b, c" from the labels recorded in the tree (or action
/// numbers when the tree has no labels).
pub fn describe_leaf(tree: &Tree, leaf: NodeId) -> String {
    // Find the path by walking down from the root (children are contiguous).
    let mut path = Vec::new();
    let mut node = NodeId::ROOT;
    while node != leaf {
        let children = tree.children(node);
        // The child whose subtree contains `leaf`: the last child <= leaf in
        // numbering is not enough (subtrees are not contiguous), so search.
        let Some((a, child)) = children.enumerate().find(|(_, c)| subtree_contains(tree, *c, leaf)) else {
            break;
        };
        let label = match tree.infoset(node) {
            Some(set) => tree.action_labels(set).get(a).cloned(),
            None => tree.chance_outcome_labels(node).get(a).cloned(),
        };
        path.push(label.unwrap_or_else(|| format!("#{a}")));
        node = child;
    }
    if path.is_empty() {
        "the root".to_string()
    } else {
        format!("the leaf after {}", path.join(", "))
    }
}

fn subtree_contains(tree: &Tree, root: NodeId, target: NodeId) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n == target {
            return true;
        }
        stack.extend(tree.children(n));
    }
    false
}
