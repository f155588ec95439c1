//! The action-slot layout shared by profiles, realization plans and regret
//! tables (see [`crate::treeplex`] for how slots map to sequences): slots
//! are laid out player by player, and within a player in the order the
//! tree met the player's information sets.

use galac_runtime::tree::Tree;

/// The slot layout alone (no tree walk): a set `I` has the slots
/// `first_slot[I] .. first_slot[I] + n_actions`, player `p` the slots
/// `player_slots[p] .. player_slots[p + 1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slots {
    /// Per information set (tree index): its first action slot.
    pub first_slot: Vec<u32>,
    /// Per player, and one past the last: the player's first slot.
    pub player_slots: Vec<u32>,
}

impl Slots {
    pub fn new(tree: &Tree) -> Slots {
        let n_players = tree.n_players as usize;
        let mut actions_of = vec![0u32; n_players];
        for info in &tree.infosets {
            actions_of[info.player as usize] += info.n_actions;
        }
        let mut player_slots = Vec::with_capacity(n_players + 1);
        let mut total = 0u32;
        for n in &actions_of {
            player_slots.push(total);
            total += n;
        }
        player_slots.push(total);
        // Sets of one player appear in the tree in their `index_in_player`
        // order, so a running counter per player lays them out in that order.
        let mut next = player_slots[..n_players].to_vec();
        let first_slot = tree
            .infosets
            .iter()
            .map(|info| {
                let at = next[info.player as usize];
                next[info.player as usize] += info.n_actions;
                at
            })
            .collect();
        Slots { first_slot, player_slots }
    }

    /// All slots of all players.
    pub fn len(&self) -> usize {
        self.player_slots.last().copied().unwrap_or_default() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
