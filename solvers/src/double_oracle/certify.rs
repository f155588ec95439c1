//! The answer as a profile of a tree, and its certification there.
//!
//! A run stops on pruned bounds only once they are certified exact (see
//! the crate's `double_oracle` docs). Its own certification searches the
//! game unpruned, exploring lazily what the pruned searches skipped (on
//! blind tic-tac-toe ten times the nodes the whole run had explored). A
//! caller that holds the game's full tree, built with the run's interner
//! (the seeded oracle builds it for CFR+), can give a [`Certifier`]
//! instead: one exact evaluation of the answer on that tree, which the
//! caller keeps as the answer's check, so that the tree is walked once
//! where the run's certification and the check walked twice.

use galac_runtime::tree::Tree;

use super::best::Bests;
use super::lazy::{Arena, NONE};
use super::restricted::Extended;
use crate::solver::SolveError;
use crate::Profile;

/// Each player's best-response value against the other's strategy in the
/// candidate (index `p`: player `p`'s), exact up to floating point.
pub type Certifier<'c> = &'c mut dyn FnMut(&Candidate<'_>) -> Result<[f64; 2], SolveError>;

/// An answer: each player's extended strategy, and where each interned
/// set's slots start.
pub struct Candidate<'a> {
    pub(super) strategies: [&'a Extended; 2],
    /// Per interned set met: its first global slot (`NONE` if not met) and
    /// its actions.
    pub(super) set_slots: &'a [(u32, u32)],
}

/// Per interned set of `arena`: its first global slot (`NONE` if not met)
/// and its actions.
pub(super) fn set_slots(arena: &Arena) -> Vec<(u32, u32)> {
    arena.sets.iter().map(|s| s.map_or((NONE, 0), |s| (s.first_slot, s.n_actions))).collect()
}

impl Candidate<'_> {
    /// The answer as a profile of `tree`, which must have been built with
    /// the interner the run used (so that set ids agree); the default
    /// strategy where the restricted game defines nothing.
    pub fn profile(&self, tree: &Tree) -> Result<Profile, SolveError> {
        let mut profile = Profile::uniform(tree);
        for (set, info) in tree.infosets.iter_enumerated() {
            let probs = profile.probs_mut(set);
            probs.fill(0.0);
            let p = info.player.index();
            match self.set_slots.get(set.index()) {
                Some(&(first, n)) if first != NONE && p < 2 => {
                    if n != info.n_actions {
                        return Err(SolveError::Unsupported {
                            solver: "the double oracle",
                            reason: "the tree was not built with the run's information sets".into(),
                        });
                    }
                    for (a, x) in probs.iter_mut().enumerate() {
                        *x = self.strategies[p].prob(set.0, first, a as u32);
                    }
                }
                // A two-player game: `p` is 0 or 1.
                _ => {
                    let default = self.strategies[p.min(1)];
                    probs.iter_mut().enumerate().for_each(|(a, x)| *x = default.default_prob(set.0, a as u32));
                }
            }
        }
        Ok(profile)
    }
}

/// (lower, upper) on the first player's value, as [`Bests::bounds`] gives them.
type Bounds = (Option<f64>, Option<f64>);

/// Asks `certifier` for the exact values of the responses to the answer
/// that `bests` and the `current` strategies make (each player's best);
/// where they close the gap (at most `tolerance`, payoffs summing to
/// `constant`) they become the bests' values and the bounds are returned,
/// else `None`, the bests left as they were.
pub(super) fn certified_by(
    certifier: Certifier<'_>,
    bests: &mut Bests,
    current: &[Extended; 2],
    arena: &Arena,
    (constant, tolerance): (f64, f64),
) -> Result<Option<Bounds>, SolveError> {
    let set_slots = set_slots(arena);
    let values = certifier(&Candidate { strategies: bests.answer(current), set_slots: &set_slots })?;
    // Player `p`'s best is answered by the other player's response.
    let responses = [values[1], values[0]];
    let gap = responses[0] + responses[1] - constant;
    // A NaN leaves the gap open.
    if gap.is_nan() || gap > tolerance {
        return Ok(None);
    }
    bests.certified(responses);
    Ok(Some(bests.bounds(constant)))
}
