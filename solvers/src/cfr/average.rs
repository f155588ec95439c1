//! The average strategy's accumulation: once per information set and
//! iteration, the player's own reach of the set times its current strategy,
//! weighted by the variant's iteration weight. One pass over the player's
//! sets in slot order (a set's parent sequence comes before it), no tree
//! walk, so neither pruning nor threads can change it.

use galac_runtime::tree::Tree;

use crate::treeplex::Treeplex;

/// Adds `weight` times player `p`'s reach-weighted current strategy into
/// `average`. `seq_reach` is scratch of at least `p`'s sequence count.
pub fn accumulate(
    tree: &Tree,
    plex: &Treeplex,
    p: usize,
    current: &[f64],
    weight: f64,
    average: &mut [f64],
    seq_reach: &mut [f64],
) {
    let offset = plex.slots.player_slots[p] as usize;
    seq_reach[0] = 1.0;
    for &set in &plex.infosets_of[p] {
        let reach = seq_reach[plex.parent_seq[set as usize] as usize];
        let s = plex.slots.first_slot[set as usize] as usize;
        for slot in s..s + tree.infosets[set as usize].n_actions as usize {
            let x = reach * current[slot];
            seq_reach[slot - offset + 1] = x;
            average[slot] += weight * x;
        }
    }
}
