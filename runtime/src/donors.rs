//! [`Donors`]: what [`Game::transplant`](crate::game::Game::transplant)
//! reads of each deal, kept for a whole derivation of the public game (a
//! deal each: over a million on hold'em's river with every hand). A game
//! keeps either its whole state per deal ([`Donors::push_state`], the
//! default and generated code's) or its private values as [`Rows`], each
//! distinct value once and a `u32` per deal and value
//! ([`Donors::push_values`], the interpreter's: a hold'em deal is two
//! hands and a weight, each shared by many deals), not a state per deal.

use crate::value::{Dyn, Rows};

/// Per deal, in the order pushed, what a game keeps to transplant its
/// private values: a whole state, or a row of values. One game pushes one
/// kind for every deal.
pub struct Donors<S> {
    /// How many deals will be pushed (the first push sizes the store once).
    expected: usize,
    /// Per deal, its state (a game keeping whole states).
    states: Vec<S>,
    /// Per deal, its values (a game keeping values; made by the first push).
    rows: Option<Rows>,
    /// Deals pushed so far.
    len: usize,
}

impl<S> Donors<S> {
    /// An empty store for `deals` deals.
    pub fn new(deals: usize) -> Self {
        Donors { expected: deals, states: Vec::new(), rows: None, len: 0 }
    }

    /// The number of deals pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no deal was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps `state` whole as the next deal's.
    pub fn push_state(&mut self, state: S) {
        if self.states.capacity() == 0 {
            self.states.reserve_exact(self.expected);
        }
        self.states.push(state);
        self.len += 1;
    }

    /// The state kept for `deal` by [`Donors::push_state`].
    ///
    /// # Panics
    /// If `deal` was not pushed as a state (a caller's bug).
    pub fn state(&self, deal: u32) -> &S {
        &self.states[deal as usize]
    }

    /// Keeps `values` (the same number for every deal) as the next deal's.
    pub fn push_values<'v>(&mut self, values: impl ExactSizeIterator<Item = &'v Dyn>) {
        let expected = self.expected;
        self.rows.get_or_insert_with(|| Rows::new(values.len(), expected)).push(values);
        self.len += 1;
    }

    /// The values kept for `deal` by [`Donors::push_values`], in the order pushed.
    pub fn values(&self, deal: u32) -> impl Iterator<Item = &Dyn> {
        self.rows.iter().flat_map(move |rows| rows.row(deal as usize))
    }
}
