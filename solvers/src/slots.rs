//! The action-slot layout shared by profiles, realization plans and regret
//! tables (see [`crate::treeplex`] for how slots map to sequences): slots
//! are laid out player by player, and within a player in the order the
//! tree met the player's information sets.

use galac_runtime::ids::{IdRange, IdVec, InfosetId, PlayerId, SlotId};
use galac_runtime::tree::Tree;

/// The slot layout alone (no tree walk): a set `I` has the slots
/// `first_slot[I] .. first_slot[I] + n_actions`, player `p` the slots
/// `player_slots[p] .. player_slots[p + 1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slots {
    /// Per information set: its first action slot.
    pub first_slot: IdVec<InfosetId, SlotId>,
    /// Per player, and one past the last: the player's first slot.
    pub player_slots: IdVec<PlayerId, SlotId>,
}

impl Slots {
    pub fn new(tree: &Tree) -> Slots {
        let n_players = tree.n_players as usize;
        let mut actions_of: IdVec<PlayerId, u32> = IdVec::from(vec![0u32; n_players]);
        for info in &tree.infosets {
            actions_of[info.player] += info.n_actions;
        }
        let mut player_slots = IdVec::with_capacity(n_players + 1);
        let mut total = 0u32;
        for n in &actions_of {
            player_slots.push(SlotId(total));
            total += n;
        }
        player_slots.push(SlotId(total));
        // Sets of one player appear in the tree in their `index_in_player`
        // order, so a running counter per player lays them out in that order.
        let mut next: IdVec<PlayerId, SlotId> = IdVec::from(player_slots.raw[..n_players].to_vec());
        let first_slot = tree
            .infosets
            .iter()
            .map(|info| {
                let at = next[info.player];
                next[info.player].0 += info.n_actions;
                at
            })
            .collect();
        Slots { first_slot, player_slots }
    }

    /// All slots of all players.
    pub fn len(&self) -> usize {
        self.player_slots.last().copied().unwrap_or_default().index()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Player `p`'s slots.
    pub fn of_player(&self, p: PlayerId) -> IdRange<SlotId> {
        IdRange::new(self.player_slots[p], self.player_slots[PlayerId(p.0 + 1)])
    }
}
