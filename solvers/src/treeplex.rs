//! The treeplex: every player's sequences, numbered once for all solvers.
//!
//! An action slot is an (information set, action) pair. Slots are laid out
//! player by player, and within a player by the order in which the tree met
//! the player's information sets (`Infoset::index_in_player`): the slots of
//! player `p` are `player_slots[p] .. player_slots[p + 1]`, those of a set
//! `I` are `first_slot[I] .. first_slot[I] + n_actions`. A [`crate::Profile`]
//! stores its probabilities in this layout, and player `p`'s sequence of
//! slot `s` is `s - player_slots[p] + 1` (sequence 0 is the empty one), so
//! realization plans, behaviour strategies and regret tables all share it.
//! Slots are [`SlotId`](galac_runtime::ids::SlotId)s, sequences
//! [`SeqId`]s; a realization plan of player `p` is a plain `[f64]` indexed
//! by `SeqId::index`.

use galac_runtime::ids::{IdVec, InfosetId, NodeId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};

pub use crate::slots::Slots;

/// Sequences of every player: the slot layout plus, per information set,
/// the sequence of its player that leads to it.
#[derive(Clone, Debug)]
pub struct Treeplex {
    pub slots: Slots,
    /// Per information set: its player's sequence leading to it
    /// ([`SeqId::EMPTY`] at the player's first sets).
    pub parent_seq: IdVec<InfosetId, SeqId>,
    /// Per player: the player's information sets, in slot order.
    pub infosets_of: IdVec<PlayerId, Vec<InfosetId>>,
}

impl Treeplex {
    /// One walk over the tree. With perfect recall (checked when the tree is
    /// built) every node of a set has the same parent sequence.
    pub fn new(tree: &Tree) -> Treeplex {
        Treeplex::with_slots(tree, Slots::new(tree))
    }

    /// [`Treeplex::new`] from the tree's slot layout, made beforehand
    /// (`Slots::new(tree)`: CFR lays its tree out from the slots on
    /// another thread meanwhile).
    pub fn with_slots(tree: &Tree, slots: Slots) -> Treeplex {
        let n_players = tree.n_players as usize;
        let mut infosets_of: IdVec<PlayerId, Vec<InfosetId>> = IdVec::from(vec![Vec::new(); n_players]);
        let mut order: Vec<InfosetId> = tree.infosets.keys().collect();
        order.sort_by_key(|&i| slots.first_slot[i]);
        for i in order {
            infosets_of[tree.infosets[i].player].push(i);
        }
        let mut parent_seq: IdVec<InfosetId, SeqId> = IdVec::from(vec![SeqId::EMPTY; tree.infosets.len()]);
        // Depth-first, keeping each player's current sequence in `seqs`; a
        // decision's child is entered after setting its player's sequence,
        // which is restored after the child's subtree.
        enum Step {
            Enter(NodeId),
            Set(PlayerId, SeqId),
        }
        let mut seqs: IdVec<PlayerId, SeqId> = IdVec::from(vec![SeqId::EMPTY; n_players]);
        let mut stack: Vec<Step> = if tree.n_nodes() > 0 { vec![Step::Enter(NodeId::ROOT)] } else { Vec::new() };
        while let Some(step) = stack.pop() {
            let node = match step {
                Step::Set(p, seq) => {
                    seqs[p] = seq;
                    continue;
                }
                Step::Enter(node) => node,
            };
            match tree.node(node) {
                NodeView::Terminal => {}
                NodeView::Chance => stack.extend(tree.children(node).rev().map(Step::Enter)),
                NodeView::Decision { player: p, infoset } => {
                    parent_seq[infoset] = seqs[p];
                    let first = slots.first_slot[infoset].0 - slots.player_slots[p].0 + 1;
                    for (a, child) in tree.children(node).enumerate().rev() {
                        stack.push(Step::Set(p, seqs[p]));
                        stack.push(Step::Enter(child));
                        stack.push(Step::Set(p, SeqId(first + a as u32)));
                    }
                }
            }
        }
        Treeplex { slots, parent_seq, infosets_of }
    }

    /// Sequences of player `p`, counting the empty one.
    pub fn n_seqs(&self, p: PlayerId) -> usize {
        self.slots.of_player(p).len() + 1
    }

    /// Player `p`'s first sequence of information set `set` (its sequences
    /// are this and the next `n_actions - 1`).
    pub fn first_seq(&self, p: PlayerId, set: InfosetId) -> SeqId {
        SeqId(self.slots.first_slot[set].0 - self.slots.player_slots[p].0 + 1)
    }

    /// Turns a realization plan of player `p` into behaviour probabilities per
    /// information set (flattened, see [`crate::Profile`]); where the
    /// plan never reaches an information set, play is uniform and the set is
    /// listed in the returned vector. Within a set the probabilities are the
    /// plan's shares, so a plan whose children outweigh their parent (as
    /// Lemke's relaxed constraints allow) is normalised too.
    pub fn behaviour(&self, tree: &Tree, p: PlayerId, plan: &[f64], profile: &mut crate::Profile) -> Vec<InfosetId> {
        let mut unreached = Vec::new();
        for &set in &self.infosets_of[p] {
            let n = tree.infosets[set].n_actions as usize;
            let parent = plan[self.parent_seq[set].index()];
            let first = self.first_seq(p, set).index();
            let probs = profile.probs_mut(set);
            if parent > 1e-12 {
                let mut total = 0.0;
                for a in 0..n {
                    probs[a] = plan[first + a].max(0.0);
                    total += probs[a];
                }
                if total > 0.0 {
                    probs.iter_mut().for_each(|x| *x /= total);
                    continue;
                }
            }
            probs.iter_mut().for_each(|x| *x = 1.0 / n as f64);
            unreached.push(set);
        }
        unreached
    }
}
