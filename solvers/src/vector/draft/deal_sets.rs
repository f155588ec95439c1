//! [`DealSets`]: the deals at a public decision of the draft and each
//! one's information set ([`SetIds`]), as the derivations list them (a
//! leaf of `draft`).

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

    /// The deals (`None` where they are `0..` the sets' number, in order)
    /// and their sets.
    pub(super) fn into_lists(self) -> (Option<Vec<u32>>, SetIds) {
        ((!self.deals.is_empty()).then_some(self.deals), self.sets)
    }
}

/// Information sets, one a deal of a decision (the first moves' with every
/// hand: a million a decision, a few thousand distinct): a `u16` each while
/// every set's number fits, made `u32`s when one does not.
#[derive(Clone)]
pub enum SetIds {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for SetIds {
    fn default() -> SetIds {
        SetIds::Narrow(Vec::new())
    }
}

impl SetIds {
    /// None yet, with room for `n`.
    pub fn with_capacity(n: usize) -> SetIds {
        let mut narrow = Vec::new();
        narrow.reserve_exact(n);
        SetIds::Narrow(narrow)
    }

    /// Adds `set`, widening the list first if it does not fit a `u16`.
    #[inline]
    pub fn push(&mut self, set: u32) {
        match self {
            SetIds::Narrow(narrow) if set <= u32::from(u16::MAX) => narrow.push(set as u16),
            SetIds::Narrow(_) => self.widen(set),
            SetIds::Wide(wide) => wide.push(set),
        }
    }

    /// The sets as `u32`s, with the room reserved, then `set`.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, set: u32) {
        if let SetIds::Narrow(narrow) = self {
            let mut wide = Vec::new();
            wide.reserve_exact(narrow.capacity().max(narrow.len() + 1));
            wide.extend(narrow.iter().map(|&s| u32::from(s)));
            *self = SetIds::Wide(wide);
        }
        if let SetIds::Wide(wide) = self {
            wide.push(set);
        }
    }

    pub fn len(&self) -> usize {
        match self {
            SetIds::Narrow(s) => s.len(),
            SetIds::Wide(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The room reserved.
    fn capacity(&self) -> usize {
        match self {
            SetIds::Narrow(s) => s.capacity(),
            SetIds::Wide(s) => s.capacity(),
        }
    }

    /// The `i`th deal's set.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            SetIds::Narrow(s) => s.get(i).map(|&s| u32::from(s)),
            SetIds::Wide(s) => s.get(i).copied(),
        }
    }

    /// The sets, in the deals' order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        match self {
            SetIds::Narrow(s) => Iter::Narrow(s.iter()),
            SetIds::Wide(s) => Iter::Wide(s.iter()),
        }
    }
}

/// [`SetIds::iter`].
#[derive(Clone)]
pub enum Iter<'a> {
    Narrow(std::slice::Iter<'a, u16>),
    Wide(std::slice::Iter<'a, u32>),
}

impl Iterator for Iter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Iter::Narrow(s) => s.next().map(|&s| u32::from(s)),
            Iter::Wide(s) => s.next().copied(),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Iter::Narrow(s) => s.len(),
            Iter::Wide(s) => s.len(),
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
    use super::SetIds;

    /// Sets past a `u16` widen the list, each set kept, before and after.
    #[test]
    fn sets_past_a_u16_widen_and_keep_every_set() {
        let want: Vec<u32> = vec![0, 7, 65_535, 3, 65_536, 1 << 30, 5];
        let mut sets = SetIds::with_capacity(2);
        for (i, &s) in want.iter().enumerate() {
            sets.push(s);
            assert_eq!(matches!(sets, SetIds::Wide(_)), s > 65_535 || i > 4, "after {s}");
        }
        assert_eq!(sets.iter().collect::<Vec<u32>>(), want);
        assert_eq!((sets.len(), sets.get(4), sets.get(7)), (7, Some(65_536), None));
        let narrow: SetIds = [4u32, 2].into_iter().collect();
        assert!(matches!(narrow, SetIds::Narrow(_)) && narrow.iter().eq([4, 2]));
    }
}
