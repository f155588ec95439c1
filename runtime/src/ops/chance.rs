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
    /// Set by [`Odds::keep`]: a domain's probabilities let go, made again
    /// by [`Odds::probs_into`].
    kept: Option<Kept>,
}

/// A domain's probabilities as [`Odds::keep`] keeps them.
#[derive(Clone, Copy, Debug)]
enum Kept {
    /// Each candidate's weight over the weights' total.
    Weights(u64),
    /// This many candidates, each of this probability (equal weights).
    Same(Ratio, usize),
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
        self.kept = None;
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

    /// For odds kept with their node (the interpreter's, a candidate each
    /// where one chance node deals every hand): once [`Odds::finish_domain`]
    /// has made a domain's probabilities, they are let go and only what
    /// makes them again is kept: nothing a candidate where the weights are
    /// equal, else the weights and their total (8 bytes a candidate, not a
    /// 16-byte `Ratio`). A table's probabilities are kept as they are.
    pub fn keep(&mut self) {
        let weights = std::mem::take(&mut self.weights);
        let Some(&first) = self.probs.first() else { return };
        if weights.len() != self.probs.len() {
            return;
        }
        self.kept = Some(if self.probs.iter().all(|&p| p == first) {
            Kept::Same(first, self.probs.len())
        } else {
            // `finish_domain` added them up without overflow.
            let total = weights.iter().sum();
            self.weights = weights;
            Kept::Weights(total)
        });
        self.probs = Vec::new();
    }

    /// The chance node's probabilities (empty at a decision), where they
    /// are not [`Odds::keep`]'s.
    #[inline]
    pub fn probs(&self) -> &[Ratio] {
        debug_assert!(self.kept.is_none(), "odds kept: read them by `probs_into`");
        &self.probs
    }

    /// Appends the chance node's probabilities to `out` (none at a
    /// decision), kept ([`Odds::keep`]) or not: the same as
    /// [`Odds::finish_domain`] made.
    pub fn probs_into(&self, out: &mut Vec<Ratio>) {
        match self.kept {
            None => out.extend_from_slice(&self.probs),
            Some(Kept::Same(p, n)) => out.resize(out.len() + n, p),
            Some(Kept::Weights(total)) => {
                out.extend(self.weights.iter().map(|&w| Ratio::new(w, total).unwrap_or(Ratio::ZERO)))
            }
        }
    }
}

/// The error of a choice whose domain (after `where`) is empty; `who`
/// names the chooser, `None` for nature.
#[cold]
#[inline(never)]
pub fn no_choices(who: Option<&str>, at: impl At) -> GameError {
    GameError::NoChoices { who: who.unwrap_or("nature").to_string(), at: at.at() }
}
