//! [`DealSets`]: the deals at a public decision of the draft and each
//! one's information set ([`SetIds`]), as the derivations list them (a
//! leaf of `draft`).

use std::rc::Rc;

use super::Deals;

/// The deals at a public decision and each one's information set, a list
/// each (a `u32` a deal and a [`SetIds`], which the draft keeps as they are; the deals
/// made only once one is out of order, as the first moves' are every deal
/// in order), and the moves offered: the first deal's, and the first deal
/// offered others.
#[derive(Default)]
pub(in super::super) struct DealSets {
    /// The deals, empty while they are `0..sets.len()`.
    pub(super) deals: Vec<u32>,
    pub(super) sets: SetIds,
    pub(super) moves: u32,
    pub(super) odd: Option<usize>,
}

impl DealSets {
    /// No deals yet, with room for `n` sets (the deals' room is taken
    /// when one is out of order).
    pub fn with_capacity(n: usize) -> DealSets {
        DealSets { sets: SetIds::with_capacity(n), ..Default::default() }
    }

    /// `deal` is at `set`, offered `moves` moves.
    #[inline]
    pub fn push(&mut self, deal: u32, set: u32, moves: u32) {
        let i = self.sets.len();
        if i == 0 {
            self.moves = moves;
        } else if moves != self.moves && self.odd.is_none() {
            self.odd = Some(i);
        }
        if !self.deals.is_empty() || deal as usize != i {
            if self.deals.is_empty() {
                self.deals.reserve_exact(self.sets.capacity());
                self.deals.extend(0..i as u32);
            }
            self.deals.push(deal);
        }
        self.sets.push(set);
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The moves offered to the first deal (0 without deals).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Where every deal's set here is `to[s]`, `s` its set in `by`, a list
    /// of the same deals in order at another decision (`by_deals`), keeps
    /// the sets as that: `by`, shared, and `to` (checked deal by deal);
    /// whether it did.
    pub fn follow(&mut self, by_deals: &Deals, by: &mut SetIds, to: Box<[u32]>) -> bool {
        let n = self.sets.len();
        let same_deals = self.deals.is_empty() && by_deals.len() == n && by.len() == n && by_deals.in_order();
        let mapped = |s: u32| to.get(s as usize).copied().unwrap_or(u32::MAX);
        if !same_deals || !matches!(self.sets, SetIds::Listed(_)) || !self.sets.iter().eq(by.iter().map(mapped)) {
            return false;
        }
        self.sets = SetIds::Mapped { by: by.share(), to };
        true
    }

    /// The deals (`None` where they are `0..` the sets' number, in order)
    /// and their sets.
    pub(super) fn into_lists(self) -> (Option<Vec<u32>>, SetIds) {
        ((!self.deals.is_empty()).then_some(self.deals), self.sets)
    }
}

/// Information sets, one a deal of a decision (the first moves' with every
/// hand: a million a decision, a few thousand distinct): listed ([`Listed`]);
/// or, where each deal's set here follows from its set at another decision
/// (a class of deals the player cannot tell apart there cannot be told
/// apart here: `from_game`'s `Follow`), that decision's list, shared, and
/// per set there the set here (a few thousand entries, not a million).
#[derive(Clone)]
pub enum SetIds {
    Listed(Listed),
    /// A list made once and read by other decisions' `Mapped`.
    Shared(Rc<Listed>),
    /// Per deal, `to[s]` where `s` is the deal's set in `by`.
    Mapped {
        by: Rc<Listed>,
        to: Box<[u32]>,
    },
}

/// Sets listed, a deal each: a `u16` each while every set's number fits,
/// made `u32`s when one does not.
#[derive(Clone)]
pub enum Listed {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for SetIds {
    fn default() -> SetIds {
        SetIds::Listed(Listed::Narrow(Vec::new()))
    }
}

impl SetIds {
    /// None yet, with room for `n`.
    pub fn with_capacity(n: usize) -> SetIds {
        let mut narrow = Vec::new();
        narrow.reserve_exact(n);
        SetIds::Listed(Listed::Narrow(narrow))
    }

    /// Adds `set` (to a shared or mapped list, listed apart first).
    #[inline(always)]
    pub fn push(&mut self, set: u32) {
        match self {
            SetIds::Listed(listed) => listed.push(set),
            _ => {
                let mut listed = self.listed();
                listed.push(set);
                *self = SetIds::Listed(listed);
            }
        }
    }

    /// These sets in a list of their own.
    #[cold]
    #[inline(never)]
    fn listed(&self) -> Listed {
        let mut listed = Listed::Narrow(Vec::with_capacity(self.len()));
        self.iter().for_each(|s| listed.push(s));
        listed
    }

    /// These sets' list, shared (listed apart first if they are mapped),
    /// for other decisions' `Mapped` to read.
    pub fn share(&mut self) -> Rc<Listed> {
        let listed = match std::mem::take(self) {
            SetIds::Listed(listed) => Rc::new(listed),
            SetIds::Shared(shared) => shared,
            mapped => Rc::new(mapped.listed()),
        };
        *self = SetIds::Shared(listed.clone());
        listed
    }

    /// The list the sets are read from and, where they are mapped, the table.
    #[inline(always)]
    fn parts(&self) -> (&Listed, Option<&[u32]>) {
        match self {
            SetIds::Listed(s) => (s, None),
            SetIds::Shared(s) => (s, None),
            SetIds::Mapped { by, to } => (by, Some(to)),
        }
    }

    pub fn len(&self) -> usize {
        self.parts().0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The room reserved.
    fn capacity(&self) -> usize {
        match self {
            SetIds::Listed(Listed::Narrow(s)) => s.capacity(),
            SetIds::Listed(Listed::Wide(s)) => s.capacity(),
            SetIds::Shared(_) | SetIds::Mapped { .. } => 0,
        }
    }

    /// The `i`th deal's set.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<u32> {
        let (listed, to) = self.parts();
        let s = listed.get(i)?;
        match to {
            None => Some(s),
            Some(to) => to.get(s as usize).copied(),
        }
    }

    /// The sets as a `u16` list and, where they are mapped, the table:
    /// for a pass that reads many by position without a test of the form
    /// at each (`None` where they are `u32`s).
    #[inline]
    pub fn narrow(&self) -> Option<(&[u16], Option<&[u32]>)> {
        let (listed, to) = self.parts();
        match listed {
            Listed::Narrow(s) => Some((s, to)),
            Listed::Wide(_) => None,
        }
    }

    /// The `i`th deal's set, `u32::MAX` (no set) past the end.
    #[inline(always)]
    pub fn at(&self, i: usize) -> u32 {
        self.get(i).unwrap_or(u32::MAX)
    }

    /// The sets, in the deals' order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        let (listed, to) = self.parts();
        match listed {
            Listed::Narrow(s) => Iter::Narrow(s.iter(), to),
            Listed::Wide(s) => Iter::Wide(s.iter(), to),
        }
    }
}

impl Listed {
    /// Adds `set`, widening the list first if it does not fit a `u16`.
    #[inline(always)]
    fn push(&mut self, set: u32) {
        match self {
            Listed::Narrow(narrow) if set <= u32::from(u16::MAX) => narrow.push(set as u16),
            Listed::Narrow(_) => self.widen(set),
            Listed::Wide(wide) => wide.push(set),
        }
    }

    /// The sets as `u32`s, with the room reserved, then `set`.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, set: u32) {
        if let Listed::Narrow(narrow) = self {
            let mut wide = Vec::new();
            wide.reserve_exact(narrow.capacity().max(narrow.len() + 1));
            wide.extend(narrow.iter().map(|&s| u32::from(s)));
            *self = Listed::Wide(wide);
        }
        if let Listed::Wide(wide) = self {
            wide.push(set);
        }
    }

    fn len(&self) -> usize {
        match self {
            Listed::Narrow(s) => s.len(),
            Listed::Wide(s) => s.len(),
        }
    }

    #[inline(always)]
    fn get(&self, i: usize) -> Option<u32> {
        match self {
            Listed::Narrow(s) => s.get(i).map(|&s| u32::from(s)),
            Listed::Wide(s) => s.get(i).copied(),
        }
    }
}

/// [`SetIds::iter`]: the sets listed, each mapped through the table where
/// there is one (a set past its end maps to `u32::MAX`, as no set is).
#[derive(Clone)]
pub enum Iter<'a> {
    Narrow(std::slice::Iter<'a, u16>, Option<&'a [u32]>),
    Wide(std::slice::Iter<'a, u32>, Option<&'a [u32]>),
}

impl Iterator for Iter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let (set, to) = match self {
            Iter::Narrow(s, to) => (u32::from(*s.next()?), *to),
            Iter::Wide(s, to) => (*s.next()?, *to),
        };
        Some(match to {
            None => set,
            Some(to) => to.get(set as usize).copied().unwrap_or(u32::MAX),
        })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Iter::Narrow(s, _) => s.len(),
            Iter::Wide(s, _) => s.len(),
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FromIterator<u32> for SetIds {
    fn from_iter<I: IntoIterator<Item = u32>>(sets: I) -> SetIds {
        let mut out = SetIds::default();
        sets.into_iter().for_each(|s| out.push(s));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{DealSets, Deals, Listed, SetIds};

    /// Sets that follow another decision's by class are kept as its list
    /// and a table, read back deal by deal; a deal off its class's set, or
    /// other deals, keep them listed; a push or a share lists them apart.
    #[test]
    fn sets_that_follow_by_class_are_kept_as_a_table() {
        let classes = [3u32, 1, 3, 0, 1];
        let to = |t: &[u32]| t.to_vec().into_boxed_slice();
        let here = |sets: &[u32]| {
            let mut listed = DealSets::with_capacity(sets.len());
            sets.iter().enumerate().for_each(|(d, &s)| listed.push(d as u32, s, 2));
            listed
        };
        let mut by: SetIds = classes.into_iter().collect();
        let deals = Deals::All(5);
        let mut sets = here(&[9, 8, 9, 7, 8]);
        assert!(sets.follow(&deals, &mut by, to(&[7, 8, u32::MAX, 9])));
        assert!(matches!(sets.sets, SetIds::Mapped { .. }) && matches!(by, SetIds::Shared(_)));
        assert!(sets.sets.iter().eq([9, 8, 9, 7, 8]) && by.iter().eq(classes));
        assert_eq!((sets.sets.len(), sets.sets.get(3), sets.sets.get(5)), (5, Some(7), None));
        // The shared list again, for a third decision.
        let mut third = here(&[4, 4, 4, 5, 4]);
        assert!(third.follow(&deals, &mut by, to(&[5, 4, 0, 4])));
        assert!(third.sets.iter().eq([4, 4, 4, 5, 4]));
        // A deal whose set is not its class's; other deals.
        let mut off = here(&[9, 8, 9, 7, 7]);
        assert!(!off.follow(&deals, &mut by, to(&[7, 8, 0, 9])));
        assert!(matches!(off.sets, SetIds::Listed(_)) && off.sets.iter().eq([9, 8, 9, 7, 7]));
        let mut fewer = here(&[9, 8, 9, 7]);
        assert!(!fewer.follow(&Deals::All(4), &mut by, to(&[7, 8, 0, 9])));
        let (mut mapped, mut shared) = (sets.sets.clone(), by.clone());
        mapped.push(6);
        shared.push(2);
        assert!(matches!(mapped, SetIds::Listed(_)) && mapped.iter().eq([9, 8, 9, 7, 8, 6]));
        assert!(shared.iter().eq([3, 1, 3, 0, 1, 2]) && by.iter().eq(classes));
        let mut again = sets.sets.clone();
        assert!(again.share().len() == 5 && again.iter().eq([9, 8, 9, 7, 8]));
    }

    /// Sets past a `u16` widen the list, each set kept, before and after.
    #[test]
    fn sets_past_a_u16_widen_and_keep_every_set() {
        let want: Vec<u32> = vec![0, 7, 65_535, 3, 65_536, 1 << 30, 5];
        let mut sets = SetIds::with_capacity(2);
        for (i, &s) in want.iter().enumerate() {
            sets.push(s);
            assert_eq!(matches!(sets, SetIds::Listed(Listed::Wide(_))), s > 65_535 || i > 4, "after {s}");
        }
        assert_eq!(sets.iter().collect::<Vec<u32>>(), want);
        assert_eq!((sets.len(), sets.get(4), sets.get(7)), (7, Some(65_536), None));
        let narrow: SetIds = [4u32, 2].into_iter().collect();
        assert!(matches!(narrow, SetIds::Listed(Listed::Narrow(_))) && narrow.iter().eq([4, 2]));
    }
}
