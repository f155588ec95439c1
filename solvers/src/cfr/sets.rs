//! One player's information sets in slot order, the compact list the CFR
//! crew walks and the average strategy accumulates over.

use std::ops::Range;

use galac_runtime::tree::{NodeView, Tree};

use crate::treeplex::Treeplex;

/// One player's information sets in slot order, compactly: the slot
/// bounds and the parent sequence of each.
pub struct Sets {
    /// The first slot of each set, then one past the last.
    pub starts: Vec<u32>,
    /// Per set: the player's sequence leading to it.
    pub parents: Vec<u32>,
    /// The index in this list of the root's set, if the root is the player's.
    pub root: Option<usize>,
}

impl Sets {
    /// Player `p`'s sets.
    pub(super) fn new(tree: &Tree, plex: &Treeplex, p: usize) -> Sets {
        let of = &plex.infosets_of[p];
        let mut starts: Vec<u32> = of.iter().map(|&s| plex.slots.first_slot[s as usize]).collect();
        starts.push(plex.slots.player_slots[p + 1]);
        let parents = of.iter().map(|&s| plex.parent_seq[s as usize]).collect();
        let root = match tree.n_nodes() {
            0 => None,
            _ => match tree.node(0) {
                NodeView::Decision { player, infoset } if player as usize == p => of.iter().position(|&s| s == infoset),
                _ => None,
            },
        };
        Sets { starts, parents, root }
    }

    /// The player's slots.
    pub(super) fn slots(&self) -> Range<usize> {
        self.starts[0] as usize..self.starts[self.parents.len()] as usize
    }
}
