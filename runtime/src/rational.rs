//! Exact chance probabilities: non-negative fractions in lowest terms.
//!
//! Probabilities stay exact from the game description to the tree and the
//! Gambit export; solvers convert them to `f64` once, with [`Ratio::to_f64`].

use std::fmt;

/// A fraction `num/den` with `den > 0`, always reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub num: u64,
    pub den: u64,
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num/den` reduced; `None` if `den` is 0.
    pub fn new(num: u64, den: u64) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Ratio { num: num / g, den: den / g })
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Exact sum, or `None` on overflow.
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, other.den);
        let den = (self.den / g).checked_mul(other.den)?;
        let num = self.num.checked_mul(other.den / g)?.checked_add(other.num.checked_mul(self.den / g)?)?;
        Ratio::new(num, den)
    }

    /// Exact sum of `xs`, or `None` on overflow. Uniform and other
    /// common-denominator lists (the usual chance nodes) take a fast path.
    pub fn checked_sum(xs: &[Ratio]) -> Option<Ratio> {
        let den = xs.first().map_or(1, |x| x.den);
        if xs.iter().all(|x| x.den == den) {
            let num = xs.iter().try_fold(0u64, |acc, x| acc.checked_add(x.num))?;
            return Ratio::new(num, den);
        }
        xs.iter().try_fold(Ratio::ZERO, |acc, x| acc.checked_add(*x))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// The weights' exact sum, or `None` on overflow: the denominator of
/// [`normalize`]'s probabilities.
pub fn total(weights: &[u64]) -> Option<u64> {
    weights.iter().try_fold(0u64, |acc, w| acc.checked_add(*w))
}

/// Exact probabilities proportional to positive integer weights.
pub fn normalize(weights: &[u64], out: &mut Vec<Ratio>) -> Option<()> {
    let total = total(weights)?;
    out.clear();
    // Equal weights (a deal from a deck): one reduction serves every outcome.
    if let Some(&w) = weights.first() {
        if weights.iter().all(|&x| x == w) {
            out.resize(weights.len(), Ratio::new(w, total)?);
            return Some(());
        }
    }
    for w in weights {
        out.push(Ratio::new(*w, total)?);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_and_adds_exactly() {
        assert_eq!(Ratio::new(2, 6), Some(Ratio { num: 1, den: 3 }));
        let third = Ratio::new(1, 3).unwrap_or(Ratio::ZERO);
        let sixth = Ratio::new(1, 6).unwrap_or(Ratio::ZERO);
        assert_eq!(third.checked_add(sixth), Ratio::new(1, 2));
        assert_eq!(Ratio::checked_sum(&[third, sixth]), Ratio::new(1, 2));
        assert_eq!(Ratio::checked_sum(&[sixth, sixth, sixth]), Ratio::new(1, 2));
        assert_eq!(Ratio::checked_sum(&[]), Some(Ratio::ZERO));
        let huge = Ratio { num: u64::MAX / 2 + 1, den: u64::MAX };
        assert_eq!(Ratio::checked_sum(&[huge, huge]), None);
        let mut out = Vec::new();
        normalize(&[1, 2, 3], &mut out);
        assert_eq!(out.iter().map(|r| r.to_string()).collect::<Vec<_>>(), ["1/6", "1/3", "1/2"]);
        // Equal weights take their own path, reduced as any other.
        normalize(&[4, 4, 4, 4], &mut out);
        assert_eq!(out, vec![Ratio { num: 1, den: 4 }; 4]);
        assert_eq!(normalize(&[u64::MAX, u64::MAX], &mut out), None);
    }
}
