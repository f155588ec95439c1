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
    /// Set by [`Odds::finish_domain_kept`]: a domain's probabilities not
    /// made, made by [`Odds::probs_into`].
    kept: Option<Kept>,
}

/// The most candidates of a chance node whose probabilities
/// [`Odds::finish_domain_reused`] makes at once.
const MADE_UP_TO: usize = 4096;

/// A domain's probabilities as [`Odds::finish_domain_kept`] keeps them.
#[derive(Clone, Copy, Debug)]
enum Kept {
    /// Each candidate's weight over the weights' total.
    Weights(u64),
    /// This many candidates, each of this probability (equal weights).
    Same(Ratio, usize),
}

/// The error of weights whose total does not fit.
#[cold]
#[inline(never)]
fn too_large(at: impl At) -> GameError {
    other("chance weights are too large to add up".into(), at)
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

    /// Room for `n` more weights, reserved exactly where a domain's size is
    /// known before its candidates are weighed (a deal of every hand: a
    /// million weights, grown by doubling twice the room).
    pub fn reserve_weights(&mut self, n: usize) {
        self.weights.reserve_exact(n);
    }

    /// A chance table's entry.
    #[inline]
    pub fn table(&mut self, p: Ratio) {
        self.probs.push(p);
    }

    /// After the `n` candidates of a chance node over a domain, for odds
    /// kept with their node (the interpreter's, a candidate each where one
    /// chance node deals every hand): their probabilities, proportional to
    /// the weights (uniform without), are not made, only what makes them
    /// again in [`Odds::probs_into`] (`rational::normalize`'s values):
    /// nothing a candidate where the weights are equal (or absent), else
    /// the weights and their total (8 bytes a candidate, not a 16-byte
    /// `Ratio`). The same errors.
    pub fn finish_domain_kept(&mut self, n: usize, at: impl At) -> Result<(), GameError> {
        self.keep(n, true, at)
    }

    /// [`Odds::finish_domain_kept`] for odds used again at the next node
    /// (generated code's scratch), the buffers kept for it: over
    /// [`MADE_UP_TO`] candidates a chance node holds no probability a
    /// candidate (with every hand 16 bytes a deal, beside the candidates),
    /// [`Odds::probs_into`] making them when they are read; up to it they
    /// are made now, as before, and a read copies them (a small node's
    /// list costs little, and is read at once by a tree's builder).
    #[inline]
    pub fn finish_domain_reused(&mut self, n: usize, at: impl At) -> Result<(), GameError> {
        if n > MADE_UP_TO {
            return self.keep(n, false, at);
        }
        if self.weights.is_empty() {
            self.weights.resize(n, 1);
        }
        normalize(&self.weights, &mut self.probs).ok_or_else(|| too_large(at))
    }

    /// [`Odds::finish_domain_kept`], letting the buffers go (`free`) or not.
    fn keep(&mut self, n: usize, free: bool, at: impl At) -> Result<(), GameError> {
        match free {
            true => self.probs = Vec::new(),
            false => self.probs.clear(),
        }
        let Some(&first) = self.weights.first() else {
            let p = Ratio::new(1, n as u64).ok_or_else(|| too_large(at))?;
            self.kept = Some(Kept::Same(p, n));
            return Ok(());
        };
        let total = crate::rational::total(&self.weights).ok_or_else(|| too_large(at))?;
        self.kept = Some(if self.weights.iter().all(|&w| w == first) {
            let n = self.weights.len();
            match free {
                true => self.weights = Vec::new(),
                false => self.weights.clear(),
            }
            Kept::Same(Ratio::new(first, total).ok_or_else(|| too_large(at))?, n)
        } else {
            if free {
                self.weights.shrink_to_fit();
            }
            Kept::Weights(total)
        });
        Ok(())
    }

    /// Lets the weights go where no probabilities are made from them (a
    /// table's, a decision's), for odds kept with their node.
    pub fn forget_weights(&mut self) {
        self.weights = Vec::new();
    }

    /// The chance node's probabilities (empty at a decision), where they
    /// are not kept ([`Odds::finish_domain_kept`]).
    #[inline]
    pub fn probs(&self) -> &[Ratio] {
        debug_assert!(self.kept.is_none(), "odds kept: read by `probs_into`");
        &self.probs
    }

    /// Appends the chance node's probabilities to `out` (none at a
    /// decision): a table's, or a domain's as `rational::normalize` makes them.
    #[inline]
    pub fn probs_into(&self, out: &mut Vec<Ratio>) {
        match self.kept {
            None => out.extend_from_slice(&self.probs),
            Some(Kept::Same(p, n)) => out.resize(out.len() + n, p),
            Some(Kept::Weights(_)) => self.each_prob(|p| out.push(p)),
        }
    }

    /// The probabilities [`Odds::probs_into`] appends, handed to `each` in
    /// order without a list of them.
    #[inline]
    pub fn each_prob(&self, mut each: impl FnMut(Ratio)) {
        match self.kept {
            None => self.probs.iter().for_each(|&p| each(p)),
            Some(Kept::Same(p, n)) => (0..n).for_each(|_| each(p)),
            Some(Kept::Weights(total)) => {
                self.weights.iter().for_each(|&w| each(Ratio::new(w, total).unwrap_or(Ratio::ZERO)))
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

#[cfg(test)]
mod tests {
    use super::{Odds, Ratio, MADE_UP_TO};

    /// Odds kept with their node, or reused from node to node, give back
    /// by `probs_into` and `each_prob` the probabilities `rational::normalize` makes of
    /// their weights (uniform without): uniform, equal weights and unequal
    /// ones, each node after the last on the reused odds; weights too
    /// large to add up fail alike.
    #[test]
    fn kept_odds_give_the_normalized_probabilities() {
        let mut reused = Odds::default();
        for weights in [
            vec![],
            vec![3, 3, 3],
            vec![1, 2, 3, 6],
            vec![5, 5],
            vec![7; MADE_UP_TO + 1],
            (1..=MADE_UP_TO as u64 + 2).collect(),
        ] {
            let n = if weights.is_empty() { 4 } else { weights.len() };
            let mut want = Vec::new();
            let all: Vec<u64> = if weights.is_empty() { vec![1; n] } else { weights.clone() };
            crate::rational::normalize(&all, &mut want).unwrap();
            let mut kept = Odds::default();
            reused.clear();
            for &w in &weights {
                kept.weigh(w as i64, "here").unwrap();
                reused.weigh(w as i64, "here").unwrap();
            }
            kept.finish_domain_kept(n, "here").unwrap();
            reused.finish_domain_reused(n, "here").unwrap();
            for odds in [&kept, &reused] {
                let mut out = vec![Ratio::ONE];
                odds.probs_into(&mut out);
                assert_eq!(out[1..], *want, "{weights:?}");
                assert_eq!(out[0], Ratio::ONE);
                let mut each = Vec::new();
                odds.each_prob(|p| each.push(p));
                assert_eq!(each, want, "{weights:?}");
            }
        }
        let (mut kept, mut reused) = (Odds::default(), Odds::default());
        for odds in [&mut kept, &mut reused] {
            odds.weigh(i64::MAX, "here").unwrap();
            odds.weigh(i64::MAX, "here").unwrap();
            odds.weigh(i64::MAX, "here").unwrap();
        }
        let (a, b) =
            (kept.finish_domain_kept(3, "here").unwrap_err(), reused.finish_domain_reused(3, "here").unwrap_err());
        assert_eq!(a.to_string(), b.to_string());
        assert!(a.to_string().ends_with("chance weights are too large to add up"), "{a}");
    }
}
