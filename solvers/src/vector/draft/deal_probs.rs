//! [`DealProbs`]: each deal's probability, as the draft keeps it for the
//! whole derivation (a leaf of `draft`).

/// Each deal's probability, in the deals' order: one for all where they
/// are equal (ranges of equal weights: the hold'em spots, every hand, a
/// million deals, 8.6 MB as `f64`s), else one each.
#[derive(Clone, Debug)]
pub enum DealProbs {
    /// This many deals, each of this probability.
    Same(f64, usize),
    Each(Vec<f64>),
}

impl Default for DealProbs {
    fn default() -> DealProbs {
        DealProbs::Same(0.0, 0)
    }
}

impl DealProbs {
    /// The next deal's probability: kept once while every deal's is the
    /// same bits, else one each from the first that differs.
    pub fn push(&mut self, p: f64) {
        match self {
            DealProbs::Same(q, 0) => *q = p,
            DealProbs::Same(q, _) if q.to_bits() == p.to_bits() => {}
            DealProbs::Same(q, n) => {
                let mut each = Vec::new();
                each.reserve_exact(*n + 1);
                each.resize(*n, *q);
                *self = DealProbs::Each(each);
            }
            DealProbs::Each(_) => {}
        }
        match self {
            DealProbs::Same(_, n) => *n += 1,
            DealProbs::Each(each) => each.push(p),
        }
    }

    /// Room for `n` more, where they are kept one each.
    pub fn reserve(&mut self, n: usize) {
        if let DealProbs::Each(each) = self {
            each.reserve(n);
        }
    }

    pub fn shrink_to_fit(&mut self) {
        if let DealProbs::Each(each) = self {
            each.shrink_to_fit();
        }
    }

    /// How many deals.
    pub fn len(&self) -> usize {
        match self {
            DealProbs::Same(_, n) => *n,
            DealProbs::Each(each) => each.len(),
        }
    }

    /// Deal `d`'s probability (`d` below [`DealProbs::len`]).
    #[inline]
    pub fn get(&self, d: usize) -> f64 {
        match self {
            DealProbs::Same(p, _) => *p,
            DealProbs::Each(each) => each[d],
        }
    }

    /// The deals' one probability, where they share it.
    pub fn uniform(&self) -> Option<f64> {
        match self {
            DealProbs::Same(p, n) if *n > 0 => Some(*p),
            _ => None,
        }
    }
}

/// The probabilities in order, pushed one by one.
impl From<Vec<f64>> for DealProbs {
    fn from(each: Vec<f64>) -> DealProbs {
        let mut probs = DealProbs::default();
        each.into_iter().for_each(|p| probs.push(p));
        probs
    }
}

#[cfg(test)]
mod tests {
    use super::DealProbs;

    /// Equal probabilities are kept once, each one where one differs,
    /// every deal's the same either way.
    #[test]
    fn equal_probabilities_are_kept_once_and_each_read_back() {
        let mut same = DealProbs::default();
        assert_eq!((same.len(), same.uniform()), (0, None));
        for _ in 0..3 {
            same.push(0.25);
        }
        assert!(matches!(same, DealProbs::Same(_, 3)));
        assert_eq!((same.len(), same.get(2), same.uniform()), (3, 0.25, Some(0.25)));
        let mut each = same.clone();
        each.push(0.5);
        each.push(0.25);
        assert!(matches!(each, DealProbs::Each(_)));
        let read: Vec<f64> = (0..each.len()).map(|d| each.get(d)).collect();
        assert_eq!((read, each.uniform()), (vec![0.25, 0.25, 0.25, 0.5, 0.25], None));
    }
}
