//! [`DealSets`]: the deals at a public decision of the draft and each
//! one's information set, as the derivations list them (a leaf of `draft`).

/// The deals at a public decision and each one's information set, a list
/// each (a `u32` a deal each, which the draft keeps as they are; the deals
/// made only once one is out of order, as the first moves' are every deal
/// in order), and the moves offered: the first deal's, and the first deal
/// offered others.
#[derive(Default)]
pub(in super::super) struct DealSets {
    /// The deals, empty while they are `0..sets.len()`.
    pub(super) deals: Vec<u32>,
    pub(super) sets: Vec<u32>,
    pub(super) moves: u32,
    pub(super) odd: Option<usize>,
}

impl DealSets {
    /// No deals yet, with room for `n` sets (the deals' room is taken
    /// when one is out of order).
    pub fn with_capacity(n: usize) -> DealSets {
        DealSets { sets: Vec::with_capacity(n), ..Default::default() }
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
    pub(super) fn into_lists(self) -> (Option<Vec<u32>>, Vec<u32>) {
        ((!self.deals.is_empty()).then_some(self.deals), self.sets)
    }
}
