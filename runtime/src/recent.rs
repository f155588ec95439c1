//! What both executions remember of a pure Gala fn's last calls: a ring
//! of [`RECENT`] entries ([`slot`]), and [`Calls`], generated code's
//! memo of a fn over plain arguments (the interpreter's `RecentCalls`
//! holds its values as `Dyn`s in the same ring). Fns are pure and the
//! params fixed, so the same arguments give the same result in the same
//! steps: a derivation advances every deal of a public node the same way
//! (a decision's moves are the same few calls at every deal), and a tree
//! repeats its betting under every deal.

/// How many calls of a fn, or recent choices, are remembered: a
/// derivation's first moves alternate between a few (a deal's state at
/// the root made again, then advanced to the other player's decision).
pub const RECENT: usize = 4;

/// The entry of `ring` to write into: a new one (`new()`) while fewer than
/// [`RECENT`] are in use, else the one written longest ago (`next` then
/// moves on), whose buffers the writer may reuse.
pub fn slot<T>(ring: &mut Vec<T>, next: &mut usize, new: impl FnOnce() -> T) -> usize {
    if ring.len() < RECENT {
        ring.push(new());
        return ring.len() - 1;
    }
    let i = *next;
    *next = (i + 1) % RECENT;
    i
}

/// A fn's last calls that ended without error, by their arguments `A`
/// (plain values: ints, bools, players, enums), each with its result and
/// the steps it took. Generated code keeps one per fn whose arguments are
/// plain and whose result is a list (made again, it is allocated again),
/// in its `Game` (one a thread).
pub struct Calls<A, R> {
    ring: Vec<(A, R, u64)>,
    next: usize,
}

impl<A, R> Default for Calls<A, R> {
    fn default() -> Self {
        Calls { ring: Vec::new(), next: 0 }
    }
}

impl<A: PartialEq, R: Clone> Calls<A, R> {
    /// The result of a remembered call on `args`, if its steps fit in
    /// `left` (then taken from it). Else the caller runs the body, which
    /// stops at the step limit where it would have without the memo.
    #[inline]
    pub fn recall(&self, args: &A, left: &mut u64) -> Option<R> {
        let (_, result, steps) = self.ring.iter().find(|(a, ..)| a == args)?;
        crate::ops::steps_fit(left, *steps).then(|| result.clone())
    }

    /// A call on `args` returned `result` after `steps`.
    pub fn put(&mut self, args: A, result: R, steps: u64) {
        let mut entry = Some((args, result, steps));
        let i = slot(&mut self.ring, &mut self.next, || entry.take().expect("the entry, not yet placed"));
        if let Some(entry) = entry {
            self.ring[i] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Calls, RECENT};

    /// A call is recalled by equal arguments only, its steps taken from
    /// those left where they fit (else nothing is taken and `None` says
    /// to run the body); the oldest of more than `RECENT` calls is forgotten.
    #[test]
    fn calls_are_recalled_by_their_arguments_where_their_steps_fit() {
        let mut calls: Calls<(i64, bool), Vec<i64>> = Calls::default();
        calls.put((1, true), vec![1], 5);
        let mut left = 7;
        assert_eq!(calls.recall(&(1, true), &mut left), Some(vec![1]));
        assert_eq!(left, 2);
        assert_eq!(calls.recall(&(1, true), &mut left), None);
        assert_eq!(left, 2);
        assert_eq!(calls.recall(&(1, false), &mut 100), None);
        for n in 2..=RECENT as i64 + 1 {
            calls.put((n, true), vec![n], 1);
        }
        assert_eq!(calls.recall(&(1, true), &mut 100), None);
        for n in 2..=RECENT as i64 + 1 {
            assert_eq!(calls.recall(&(n, true), &mut 100), Some(vec![n]), "call {n}");
        }
    }
}
