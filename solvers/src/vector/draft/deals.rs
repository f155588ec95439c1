//! [`Deals`]: a list of deals of the draft (a leaf's or a chance
//! outcome's deals present), listed or as the positions of a listed
//! parent's deals that it keeps (a leaf of `draft`).

use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Deals (indices of the draft's deals), in increasing order: listed, or
/// the deals of a listed `parent` at the positions whose bit is set (a
/// chance outcome's deals present in a representative walk, a bit a deal
/// of the chance node's where a `u32` a deal of its own was 32 times the
/// bytes: the turn's 48 river cards with every hand, 1.07M deals each).
/// Equal and hashed by the deals, whatever the form (the walk's lists of
/// deals present are kept once each by their deals).
///
/// `All(n)` is every deal, `0..n` (the first moves' decisions and the
/// walk below them with every hand: a `u32` a deal, listed), and `Bits`
/// a subset of it by the positions' bits.
pub enum Deals {
    Listed(Rc<Vec<u32>>),
    Subset { parent: Rc<Vec<u32>>, bits: Box<[u64]>, len: usize },
    All(usize),
    Bits { bits: Box<[u64]>, len: usize },
}

impl Deals {
    /// The deals of `parent` whose position's bit is set in `bits` (`len`
    /// of them): `None` where that is every deal of `parent`, else listed
    /// where `parent` is itself a subset.
    pub fn subset(parent: &Deals, bits: Vec<u64>, len: usize) -> Option<Deals> {
        debug_assert_eq!(bits.len(), parent.len().div_ceil(64));
        if len == parent.len() {
            return None;
        }
        Some(match parent {
            Deals::Listed(parent) => Deals::Subset { parent: parent.clone(), bits: bits.into(), len },
            Deals::All(_) => Deals::Bits { bits: bits.into(), len },
            sub => {
                let kept = |i: usize| bits[i / 64] >> (i % 64) & 1 == 1;
                let mut listed = Vec::with_capacity(len);
                listed.extend(sub.iter().enumerate().filter(|&(i, _)| kept(i)).map(|(_, d)| d));
                Deals::Listed(Rc::new(listed))
            }
        })
    }

    pub fn len(&self) -> usize {
        match self {
            Deals::Listed(l) => l.len(),
            Deals::Subset { len, .. } | Deals::Bits { len, .. } | Deals::All(len) => *len,
        }
    }

    /// The `i`th deal (at once listed or all; a subset's by a walk).
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Deals::Listed(l) => l.get(i).copied(),
            Deals::All(n) => (i < *n).then_some(i as u32),
            sub => sub.iter().nth(i),
        }
    }

    /// Whether these are `0..` their number (every deal, in order).
    pub fn in_order(&self) -> bool {
        self.last().is_none_or(|d| d as usize + 1 == self.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The least deal.
    pub fn first(&self) -> Option<u32> {
        self.iter().next()
    }

    /// The greatest deal.
    pub fn last(&self) -> Option<u32> {
        let last_bit = |bits: &[u64]| {
            let (w, word) = bits.iter().enumerate().rev().find(|(_, &w)| w != 0)?;
            Some(w * 64 + 63 - word.leading_zeros() as usize)
        };
        match self {
            Deals::Listed(l) => l.last().copied(),
            Deals::Subset { parent, bits, .. } => Some(parent[last_bit(bits)?]),
            Deals::All(n) => n.checked_sub(1).map(|d| d as u32),
            Deals::Bits { bits, .. } => last_bit(bits).map(|d| d as u32),
        }
    }

    /// The deals, in order.
    pub fn iter(&self) -> Iter<'_> {
        match self {
            Deals::Listed(l) => Iter::Listed(l.iter()),
            Deals::Subset { parent, bits, len } => Iter::Subset { parent, at: Positions::new(bits), left: *len },
            Deals::All(n) => Iter::All(0..*n as u32),
            Deals::Bits { bits, len } => Iter::Bits { at: Positions::new(bits), left: *len },
        }
    }
}

impl From<Vec<u32>> for Deals {
    fn from(deals: Vec<u32>) -> Deals {
        Deals::Listed(Rc::new(deals))
    }
}

impl PartialEq for Deals {
    fn eq(&self, other: &Deals) -> bool {
        match (self, other) {
            (Deals::Listed(a), Deals::Listed(b)) => a == b,
            (Deals::Subset { parent: a, bits: x, .. }, Deals::Subset { parent: b, bits: y, .. })
                if Rc::ptr_eq(a, b) =>
            {
                x == y
            }
            (Deals::All(a), Deals::All(b)) => a == b,
            (Deals::Bits { bits: x, .. }, Deals::Bits { bits: y, .. }) => x == y,
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

impl Eq for Deals {}

/// By the number of deals and the least and greatest (equal deals, equal
/// hashes; lists that share them are told apart by `eq`).
impl Hash for Deals {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.len(), self.first(), self.last()).hash(state);
    }
}

/// The positions of the set bits, in order.
#[derive(Clone)]
pub struct Positions<'a> {
    bits: &'a [u64],
    word: u64,
    base: usize,
}

impl<'a> Positions<'a> {
    fn new(bits: &'a [u64]) -> Positions<'a> {
        Positions { bits, word: 0, base: 0usize.wrapping_sub(64) }
    }
}

impl Iterator for Positions<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            let (&w, rest) = self.bits.split_first()?;
            (self.word, self.bits, self.base) = (w, rest, self.base.wrapping_add(64));
        }
        let i = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base.wrapping_add(i))
    }
}

/// [`Deals::iter`].
#[derive(Clone)]
pub enum Iter<'a> {
    Listed(std::slice::Iter<'a, u32>),
    Subset {
        parent: &'a [u32],
        at: Positions<'a>,
        left: usize,
    },
    All(std::ops::Range<u32>),
    /// A subset of every deal: its positions are its deals.
    Bits {
        at: Positions<'a>,
        left: usize,
    },
}

impl Iterator for Iter<'_> {
    type Item = u32;

    // Always inlined, both forms: the draft's passes over a table's deals
    // (the showdowns' rankings, outcomes and forms) are loops of this.
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        match self {
            Iter::Listed(l) => l.next().copied(),
            Iter::Subset { parent, at, left } => {
                let i = at.next()?;
                *left -= 1;
                parent.get(i).copied()
            }
            Iter::All(all) => all.next(),
            Iter::Bits { at, left } => {
                let i = at.next()?;
                *left -= 1;
                Some(i as u32)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Iter::Listed(l) => l.len(),
            Iter::Subset { left, .. } | Iter::Bits { left, .. } => *left,
            Iter::All(all) => all.len(),
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// Builds a subset of a list of `n` deals by position, in order.
pub struct Picked {
    bits: Vec<u64>,
    len: usize,
}

impl Picked {
    /// None yet of `n` deals.
    pub fn new(n: usize) -> Picked {
        Picked { bits: vec![0; n.div_ceil(64)], len: 0 }
    }

    /// Keeps the deal at position `i` (each position once).
    #[inline]
    pub fn pick(&mut self, i: usize) {
        debug_assert_eq!(self.bits[i / 64] >> (i % 64) & 1, 0);
        self.bits[i / 64] |= 1 << (i % 64);
        self.len += 1;
    }

    /// The positions kept, in order.
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        Positions::new(&self.bits)
    }

    /// The deals of `parent` kept: `parent` itself where they are all of
    /// them.
    pub fn deals(self, parent: &Rc<Deals>) -> Rc<Deals> {
        match Deals::subset(parent, self.bits, self.len) {
            None => parent.clone(),
            Some(sub) => Rc::new(sub),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::rc::Rc;

    use super::{Deals, Picked};

    fn hash(d: &Deals) -> u64 {
        let mut h = DefaultHasher::new();
        d.hash(&mut h);
        h.finish()
    }

    /// A subset by position gives the parent's deals at those positions
    /// (across words, the last one partial), equal to and hashed as the
    /// same deals listed; every position gives the parent itself, and a
    /// subset of a subset is listed.
    #[test]
    fn a_subset_is_its_parents_deals_at_the_positions_picked() {
        let parent: Rc<Deals> = Rc::new((0..150u32).map(|d| 3 * d + 1).collect::<Vec<u32>>().into());
        let keep = |i: usize| i % 7 == 2 || i == 63 || i == 64 || i == 149;
        let mut picked = Picked::new(parent.len());
        (0..parent.len()).filter(|&i| keep(i)).for_each(|i| picked.pick(i));
        assert!(picked.positions().eq((0..150).filter(|&i| keep(i))));
        let sub = picked.deals(&parent);
        let want: Vec<u32> = (0..150).filter(|&i| keep(i)).map(|i| 3 * i as u32 + 1).collect();
        assert!(matches!(*sub, Deals::Subset { .. }));
        assert_eq!(sub.iter().collect::<Vec<u32>>(), want);
        assert_eq!(
            (sub.len(), sub.iter().len(), sub.first(), sub.last()),
            (want.len(), want.len(), Some(7), Some(448))
        );
        let listed: Deals = want.clone().into();
        // Equal both ways round (a subset against a list, and back).
        assert!(sub.as_ref().eq(&listed) && listed.eq(sub.as_ref()));
        assert_eq!(hash(&sub), hash(&listed));
        let mut shorter = want.clone();
        shorter.pop();
        assert!(*sub != Deals::from(shorter));

        let mut all = Picked::new(parent.len());
        (0..parent.len()).for_each(|i| all.pick(i));
        assert!(Rc::ptr_eq(&all.deals(&parent), &parent));

        let mut again = Picked::new(sub.len());
        (0..sub.len()).filter(|i| i % 2 == 0).for_each(|i| again.pick(i));
        let subsub = again.deals(&sub);
        assert!(matches!(*subsub, Deals::Listed(_)));
        assert_eq!(subsub.iter().collect::<Vec<u32>>(), want.iter().step_by(2).copied().collect::<Vec<u32>>());
    }

    /// Every deal, `0..n`, is the same deals as their list (equal, hashed
    /// alike, each read back); a subset of it by position is its
    /// positions, equal to them listed.
    #[test]
    fn every_deal_and_its_subsets_are_their_deals_listed() {
        let all = Rc::new(Deals::All(130));
        let listed: Deals = (0..130u32).collect::<Vec<u32>>().into();
        // Equal both ways round (every deal against a list, and back).
        assert!(all.as_ref().eq(&listed) && listed.eq(all.as_ref()) && hash(&all) == hash(&listed));
        assert_eq!(
            (all.len(), all.first(), all.last(), all.get(129), all.get(130)),
            (130, Some(0), Some(129), Some(129), None)
        );
        assert!(all.in_order() && all.iter().eq(0..130) && !Deals::from(vec![0u32, 2]).in_order());
        let keep = |i: usize| i % 5 == 1 || i == 64;
        let mut picked = Picked::new(130);
        (0..130).filter(|&i| keep(i)).for_each(|i| picked.pick(i));
        let sub = picked.deals(&all);
        let want: Vec<u32> = (0..130).filter(|&i| keep(i as usize)).collect();
        assert!(matches!(*sub, Deals::Bits { .. }));
        assert_eq!(sub.iter().collect::<Vec<u32>>(), want);
        assert_eq!(
            (sub.len(), sub.iter().len(), sub.last(), sub.get(2)),
            (want.len(), want.len(), Some(126), Some(11))
        );
        let same: Deals = want.into();
        assert!(sub.as_ref().eq(&same) && same.eq(sub.as_ref()) && hash(&sub) == hash(&same));
        assert!(Deals::All(0).is_empty() && Deals::All(0).in_order() && Deals::All(0) == Deals::from(Vec::new()));
    }

    /// No deal picked: an empty subset, equal to an empty list.
    #[test]
    fn an_empty_subset_has_no_deals() {
        let parent: Rc<Deals> = Rc::new(vec![4u32, 9].into());
        let none = Picked::new(2).deals(&parent);
        assert!(none.is_empty() && none.first().is_none() && none.last().is_none());
        assert!(*none == Deals::from(Vec::new()));
    }
}
