//! One player's information sets in slot order, the compact list the CFR
//! crew walks and the average strategy accumulates over.

use std::ops::Range;

use galac_runtime::ids::{NodeId, PlayerId, SeqId, SlotId};
use galac_runtime::tree::{NodeView, Tree};

use crate::treeplex::Treeplex;

/// One player's information sets in slot order, compactly: the slot
/// bounds and the parent sequence of each.
pub struct Sets {
    /// The first slot of each set, then one past the last.
    pub starts: Vec<SlotId>,
    /// Per set: the player's sequence leading to it.
    pub parents: Vec<SeqId>,
    /// The index in this list of the root's set, if the root is the player's.
    pub root: Option<usize>,
}

impl Sets {
    /// Player `p`'s sets.
    pub(super) fn new(tree: &Tree, plex: &Treeplex, p: PlayerId) -> Sets {
        let of = &plex.infosets_of[p];
        let mut starts: Vec<SlotId> = of.iter().map(|&s| plex.slots.first_slot[s]).collect();
        starts.push(plex.slots.of_player(p).end);
        let parents = of.iter().map(|&s| plex.parent_seq[s]).collect();
        let root = match tree.n_nodes() {
            0 => None,
            _ => match tree.node(NodeId::ROOT) {
                NodeView::Decision { player, infoset } if player == p => of.iter().position(|&s| s == infoset),
                _ => None,
            },
        };
        Sets { starts, parents, root }
    }

    /// The player's slots.
    pub(super) fn slots(&self) -> Range<usize> {
        self.starts[0].index()..self.starts[self.parents.len()].index()
    }
}
