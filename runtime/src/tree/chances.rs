//! The distinct chance distributions of a tree.
//!
//! The chance nodes of a game mostly share a few distributions (a uniform
//! deal from a deck of each size: 13-rank Leduc has 3,277 chance nodes and
//! 2 distributions), so a chance node refers to its distribution, kept
//! once, and the check that it sums to 1 runs once per distribution.

use rustc_hash::FxHashMap;

use super::options::BuildError;
use crate::rational::Ratio;

/// Distributions, each a run of `probs`, found by their probabilities.
#[derive(Default)]
pub(super) struct Distributions {
    probs: Vec<Ratio>,
    /// Probabilities → the start of their run in `probs`.
    index: FxHashMap<Box<[Ratio]>, u32>,
}

impl Distributions {
    /// The start of `probs` (the distribution of a chance node with
    /// `n_outcomes` outcomes) in the table, added if new: one probability
    /// per outcome, summing to exactly 1.
    pub(super) fn intern(&mut self, probs: &[Ratio], n_outcomes: u32) -> Result<u32, BuildError> {
        if probs.len() != n_outcomes as usize {
            return Err(BuildError::ChanceMismatch { n: n_outcomes, got: probs.len() });
        }
        if let Some(&start) = self.index.get(probs) {
            return Ok(start);
        }
        let sum = Ratio::checked_sum(probs);
        if sum != Some(Ratio::ONE) {
            let sum = sum.map_or_else(|| "more than 1".to_string(), |s| s.to_string());
            return Err(BuildError::ChanceSum { sum });
        }
        let start = self.probs.len() as u32;
        self.probs.extend_from_slice(probs);
        self.index.insert(probs.into(), start);
        Ok(start)
    }

    /// The `n` probabilities from `start`.
    pub(super) fn get(&self, start: u32, n: u32) -> &[Ratio] {
        &self.probs[start as usize..(start + n) as usize]
    }

    /// Every distribution's probabilities, one run after another.
    pub(super) fn probs(&self) -> &[Ratio] {
        &self.probs
    }

    pub(super) fn shrink_to_fit(&mut self) {
        self.probs.shrink_to_fit();
    }

    pub(super) fn bytes(&self) -> u64 {
        // The index holds a copy of each distribution and a word per entry.
        (2 * self.probs.capacity() * std::mem::size_of::<Ratio>() + self.index.capacity() * 24) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::{BuildError, Distributions, Ratio};

    fn r(num: u64, den: u64) -> Ratio {
        Ratio { num, den }
    }

    #[test]
    fn equal_distributions_share_a_run_and_each_is_checked_once_added() {
        let mut d = Distributions::default();
        let third = [r(1, 3), r(1, 3), r(1, 3)];
        let half = [r(1, 2), r(1, 2)];
        assert_eq!(d.intern(&third, 3), Ok(0));
        assert_eq!(d.intern(&half, 2), Ok(3));
        assert_eq!(d.intern(&third, 3), Ok(0));
        assert_eq!(d.get(3, 2), &half);
        assert_eq!(d.intern(&[r(1, 2), r(1, 3)], 2), Err(BuildError::ChanceSum { sum: "5/6".into() }));
        assert_eq!(d.intern(&half, 3), Err(BuildError::ChanceMismatch { n: 3, got: 2 }));
        assert_eq!(d.get(0, 5), [third.as_slice(), half.as_slice()].concat());
    }
}
