//! The default strategy: how each player plays where the restricted game
//! defines nothing, both in the extended strategies the best responses
//! answer and below temporary leaves ([`super::leaf_value`]).
//!
//! The paper's default is the first action everywhere. It can also be
//! mixed (for instance a short CFR+ run's average restricted to its
//! support): against a pure default the opponent learns everything the
//! default player knows from its own choices, which on a game like blind
//! tic-tac-toe hands it a perfect-information win wherever the restricted
//! game is silent, and a best response steers there. A sparse default
//! keeps the lazy walks small: they follow only its support.

use galac_runtime::ids::{IdSlice, InfosetId};

/// Per interned information set (numbered as the tree built with the same
/// interner numbers its sets): the actions the default plays, with their
/// probabilities (a set not listed: the first action).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DefaultStrategy {
    /// Per set: where its actions start in `actions` (one more entry than
    /// sets; empty range: the first action).
    start: Vec<u32>,
    actions: Vec<u32>,
    probs: Vec<f64>,
}

impl DefaultStrategy {
    /// A default from per-set weights `(action, weight)`: weights that are
    /// not positive are dropped and the rest renormalised; a set with no
    /// positive weight plays its first action. The actions must exist at
    /// their sets (a run fails at a set whose default plays none of its
    /// actions).
    pub fn from_weights(per_set: &IdSlice<InfosetId, Vec<(u32, f64)>>) -> DefaultStrategy {
        let mut d = DefaultStrategy { start: vec![0], actions: Vec::new(), probs: Vec::new() };
        for set in per_set {
            let total: f64 = set.iter().map(|&(_, w)| w).filter(|&w| w > 0.0).sum();
            if total > 0.0 {
                for &(a, w) in set.iter().filter(|&&(_, w)| w > 0.0) {
                    d.actions.push(a);
                    d.probs.push(w / total);
                }
            }
            d.start.push(d.actions.len() as u32);
        }
        d
    }

    /// Whether this is the paper's default (the first action everywhere).
    pub fn is_first_action(&self) -> bool {
        self.actions.is_empty()
    }

    /// The probability of action `a` at interned set `set`.
    pub fn prob(&self, set: InfosetId, a: u32) -> f64 {
        let s = set.index();
        match (self.start.get(s), self.start.get(s + 1)) {
            (Some(&lo), Some(&hi)) if hi > lo => {
                let (lo, hi) = (lo as usize, hi as usize);
                self.actions[lo..hi].iter().position(|&b| b == a).map_or(0.0, |i| self.probs[lo + i])
            }
            _ => f64::from(u8::from(a == 0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_renormalised_and_unlisted_sets_play_the_first_action() {
        let weights = [vec![(1, 0.2), (2, 0.6), (0, 0.0)], vec![], vec![(0, -1.0)]];
        let d = DefaultStrategy::from_weights(IdSlice::from_ref(&weights));
        let p = |set: u32, a: u32| d.prob(InfosetId(set), a);
        assert!((p(0, 1) - 0.25).abs() < 1e-15 && (p(0, 2) - 0.75).abs() < 1e-15);
        assert_eq!((p(0, 0), p(1, 0), p(1, 1), p(2, 0), p(7, 0)), (0.0, 1.0, 0.0, 1.0, 1.0));
        assert!(!d.is_first_action() && DefaultStrategy::default().is_first_action());
    }
}
