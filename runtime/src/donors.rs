//! [`Donors`]: what [`Game::transplant`](crate::game::Game::transplant)
//! reads of each deal, kept for a whole derivation of the public game (a
//! deal each: over a million on hold'em's river with every hand). A game
//! keeps either its whole state per deal ([`Donors::push_state`], the
//! default), or its private values as [`Rows`], each distinct value once
//! and a `u32` per deal and value ([`Donors::push_values`], the
//! interpreter's: a hold'em deal is two hands and a weight, each shared by
//! many deals), or a state per distinct private value and a `u32` per deal
//! and value naming the state that holds it ([`Donors::push_exemplar`],
//! generated code's, whose values are typed fields), not a state per deal.

use rustc_hash::FxHashMap;

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
    /// Per deal, a state holding each of its values (a game keeping
    /// exemplars; made by the first push).
    exemplars: Option<Exemplars<S>>,
    /// Deals pushed so far.
    len: usize,
}

impl<S> Donors<S> {
    /// An empty store for `deals` deals.
    pub fn new(deals: usize) -> Self {
        Donors { expected: deals, states: Vec::new(), rows: None, exemplars: None, len: 0 }
    }

    /// The number of deals pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no deal was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many states are kept (whole, or as exemplars).
    pub fn states_kept(&self) -> usize {
        self.states.len() + self.exemplars.as_ref().map_or(0, |e| e.states.len())
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

    /// Keeps the next deal's private values, those of `state`, as a state
    /// holding each: value `i` is encoded as `words[ends[i - 1]..ends[i]]`
    /// (from 0 for the first; the same number of values for every deal,
    /// encodings equal exactly where the values are), and `state` is kept
    /// (cloned) only if one of its values was not met before.
    pub fn push_exemplar(&mut self, state: &S, words: &[u64], ends: &[usize])
    where
        S: Clone,
    {
        let expected = self.expected;
        let kept = self.exemplars.get_or_insert_with(|| Exemplars {
            states: Vec::new(),
            index: vec![FxHashMap::default(); ends.len()],
            cells: Vec::with_capacity(ends.len() * expected),
        });
        let mut new = None;
        let mut start = 0;
        for (index, &end) in kept.index.iter_mut().zip(ends) {
            let value = &words[start..end];
            start = end;
            let at = match index.get(value) {
                Some(&at) => at,
                None => {
                    let at = *new.get_or_insert_with(|| {
                        kept.states.push(state.clone());
                        kept.states.len() as u32 - 1
                    });
                    index.insert(value.into(), at);
                    at
                }
            };
            kept.cells.push(at);
        }
        self.len += 1;
    }

    /// A state holding `deal`'s `i`th value as kept by [`Donors::push_exemplar`].
    ///
    /// # Panics
    /// If `deal` was not pushed as exemplars (a caller's bug).
    pub fn exemplar(&self, deal: u32, i: usize) -> &S {
        let kept = self.exemplars.as_ref().expect("donors kept as exemplars");
        &kept.states[kept.cells[deal as usize * kept.index.len() + i] as usize]
    }
}

/// Private values kept as states holding them ([`Donors::push_exemplar`]).
struct Exemplars<S> {
    /// The states kept: the first deal's to hold each distinct value.
    states: Vec<S>,
    /// Per value (its position in a deal's), each distinct encoding's state in `states`.
    index: Vec<FxHashMap<Box<[u64]>, u32>>,
    /// Per deal, per value, its state in `states`.
    cells: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::Donors;

    /// Exemplars give back each deal's values, each read from a state that
    /// holds it, and keep a state only for a deal with a value not met
    /// before: a few states for many deals.
    #[test]
    fn exemplars_give_back_each_deals_values() {
        // A deal: two values, as a state (a, b) would hold them.
        let deals: Vec<(i64, i64)> = (0..60).map(|d| (d % 6, (d / 6) % 10)).collect();
        let mut donors = Donors::new(deals.len());
        for &(a, b) in &deals {
            donors.push_exemplar(&(a, b), &[a as u64, b as u64], &[1, 2]);
        }
        assert_eq!(donors.len(), deals.len());
        for (d, &(a, b)) in deals.iter().enumerate() {
            assert_eq!(donors.exemplar(d as u32, 0).0, a, "deal {d}'s first value");
            assert_eq!(donors.exemplar(d as u32, 1).1, b, "deal {d}'s second value");
        }
        // Deals 0-5 bring the first values 0-5 (and deal 0 the second's 0),
        // every sixth from 6 on a new second value.
        assert_eq!(donors.states_kept(), 6 + 9);
    }
}
