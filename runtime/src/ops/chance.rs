//! The odds of a choice's candidates, shared by both executions: a
//! `weight` must be positive, an unweighted chance node is uniform, a
//! chance table's probabilities were made exact when the game was lowered,
//! and a choice without candidates is an error.

use super::checked::{other, At};
use crate::error::GameError;
use crate::rational::{normalize, Ratio};

/// The weights and probabilities of the current choice's candidates.
#[derive(Clone, Debug, Default)]
pub struct Odds {
    weights: Vec<u64>,
    probs: Vec<Ratio>,
}

#[cold]
#[inline(never)]
fn bad_weight(weight: i64, at: impl At) -> GameError {
    GameError::BadWeight { weight, at: at.at() }
}

impl Odds {
    #[inline]
    pub fn clear(&mut self) {
        self.weights.clear();
        self.probs.clear();
    }

    /// A kept candidate's `weight`, which must be positive.
    #[inline]
    pub fn weigh(&mut self, weight: i64, at: impl At) -> Result<(), GameError> {
        if weight <= 0 {
            return Err(bad_weight(weight, at));
        }
        self.weights.push(weight as u64);
        Ok(())
    }

    /// A chance table's entry.
    #[inline]
    pub fn table(&mut self, p: Ratio) {
        self.probs.push(p);
    }

    /// After the `n` candidates of a chance node over a domain: their
    /// probabilities, proportional to the weights (uniform without).
    #[inline]
    pub fn finish_domain(&mut self, n: usize, at: impl At) -> Result<(), GameError> {
        if self.weights.is_empty() {
            self.weights.resize(n, 1);
        }
        normalize(&self.weights, &mut self.probs)
            .ok_or_else(|| other("chance weights are too large to add up".into(), at))
    }

    /// Lets the weights go once [`Odds::finish_domain`] has read them, for
    /// odds kept with their node (the interpreter's: a weight a deal).
    pub fn forget_weights(&mut self) {
        self.weights = Vec::new();
    }

    /// The chance node's probabilities (empty at a decision).
    #[inline]
    pub fn probs(&self) -> &[Ratio] {
        &self.probs
    }
}

/// The error of a choice whose domain (after `where`) is empty; `who`
/// names the chooser, `None` for nature.
#[cold]
#[inline(never)]
pub fn no_choices(who: Option<&str>, at: impl At) -> GameError {
    GameError::NoChoices { who: who.unwrap_or("nature").to_string(), at: at.at() }
}
