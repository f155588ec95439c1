//! The average strategy's accumulation: once per information set and
//! iteration, the player's own reach of the set times its current strategy,
//! weighted by the variant's iteration weight. One pass over the player's
//! sets in slot order (a set's parent sequence comes before it), no tree
//! walk, so neither pruning nor threads can change it.

use super::sets::Sets;

/// Adds `weight` times the reach-weighted current strategy of the player
/// of `sets` into `average` (per slot). `seq_reach` is scratch of at least
/// the player's sequence count.
pub fn accumulate(sets: &Sets, current: &[f64], weight: f64, average: &mut [f64], seq_reach: &mut [f64]) {
    let offset = sets.starts.first().map_or(0, |s| s.index());
    seq_reach[0] = 1.0;
    for (w, &parent) in sets.starts.windows(2).zip(&sets.parents) {
        let reach = seq_reach[parent.index()];
        for slot in w[0].index()..w[1].index() {
            let x = reach * current[slot];
            seq_reach[slot - offset + 1] = x;
            average[slot] += weight * x;
        }
    }
}
