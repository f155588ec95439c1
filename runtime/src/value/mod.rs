//! Values of both executions and their one word encoding.
//!
//! Compiled games hold typed values: scalars are plain Rust values (`i64`,
//! `bool`, `u8` for players, `u8` or `u32` for enum values); lists and arrays
//! whose length is a param are [`List`]s, shared and copied on write, so
//! cloning a state never allocates; a list is one allocation (its count
//! and items), so writing a shared one costs one copy. The interpreter holds [`Dyn`] values.
//! [`Encode`] (and [`Fixed`], its stack-array form) writes every value as the
//! exact words that facts and choice lists are interned from; it is defined
//! here only, for both, so equal values get equal words in either execution.

use std::rc::Rc;

use crate::game::GameError;

/// A list shared between states until one of them changes it (`Rc`: a
/// state lives on one thread, and cloning it costs no atomic operation).
/// The items live in the counted allocation itself (`Rc<[T]>`, not
/// `Rc<Vec<T>>`): copying a shared list on write, as a board does on each
/// move, is one allocation and one free instead of two of each.
/// The empty list holds no allocation, so that `Default` (an unset or
/// released field) allocates nothing and clones without a reference count.
#[derive(Clone)]
pub struct List<T>(Option<Rc<[T]>>);

impl<T> Default for List<T> {
    fn default() -> Self {
        List(None)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.slice()).finish()
    }
}

/// Lists compare and hash as their elements (however they are held).
impl<T: PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        self.slice() == other.slice()
    }
}

impl<T: Eq> Eq for List<T> {}

impl<T: PartialOrd> PartialOrd for List<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.slice().partial_cmp(other.slice())
    }
}

impl<T: Ord> Ord for List<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.slice().cmp(other.slice())
    }
}

impl<T: std::hash::Hash> std::hash::Hash for List<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slice().hash(state)
    }
}

impl<T> List<T> {
    fn slice(&self) -> &[T] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl<T: Clone + PartialEq + Ord> List<T> {
    pub fn from_vec(items: Vec<T>) -> List<T> {
        List((!items.is_empty()).then(|| Rc::from(items)))
    }

    /// The list of these `len` items, built in place: the standard
    /// library collects an iterator of known length (slices, chained or
    /// cloned) into an `Rc<[T]>` with one allocation and no `Vec`.
    fn from_exact(len: usize, items: impl Iterator<Item = T>) -> List<T> {
        List((len > 0).then(|| items.collect()))
    }

    pub fn len(&self) -> i64 {
        self.slice().len() as i64
    }

    pub fn is_empty(&self) -> bool {
        self.slice().is_empty()
    }

    pub fn as_slice(&self) -> &[T] {
        self.slice()
    }

    pub fn get(&self, index: i64) -> Option<&T> {
        usize::try_from(index).ok().and_then(|i| self.slice().get(i))
    }

    /// A mutable element; copies the list first if it is shared.
    pub fn get_mut(&mut self, index: i64) -> Option<&mut T> {
        let i = usize::try_from(index).ok().filter(|i| *i < self.slice().len())?;
        self.0.as_mut().and_then(|v| Rc::make_mut(v).get_mut(i))
    }

    pub fn contains(&self, x: &T) -> bool {
        self.slice().contains(x)
    }

    pub fn count(&self, x: &T) -> i64 {
        self.slice().iter().filter(|y| *y == x).count() as i64
    }

    /// A new list with `x` appended ([`ops::pushed`](crate::ops::pushed)).
    /// Counted as [`ops::pushed`](crate::ops::pushed) counts, built in place.
    pub fn push(&self, x: T, left: &mut u64, limit: u64, at: impl crate::ops::At) -> Result<List<T>, GameError> {
        let xs = self.slice();
        crate::ops::make_items(left, xs.len() + 1, limit, at)?;
        Ok(List::from_exact(xs.len() + 1, xs.iter().cloned().chain(std::iter::once(x))))
    }

    /// A new list without the first occurrence of `x` ([`ops::removed`](crate::ops::removed)).
    /// Counted as that counts, built in place.
    pub fn remove(&self, x: &T, left: &mut u64, limit: u64, at: impl crate::ops::At) -> Result<List<T>, GameError> {
        let xs = self.slice();
        crate::ops::make_items(left, xs.len(), limit, at)?;
        Ok(match xs.iter().position(|y| y == x) {
            Some(i) => List::from_exact(xs.len() - 1, xs[..i].iter().chain(&xs[i + 1..]).cloned()),
            None => self.clone(),
        })
    }

    /// A new list in ascending order ([`ops::sorted`](crate::ops::sorted)).
    pub fn sorted(&self, left: &mut u64, limit: u64, at: impl crate::ops::At) -> Result<List<T>, GameError> {
        Ok(List::from_vec(crate::ops::sorted(self.slice(), left, limit, at)?))
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.slice().iter()
    }
}

/// Exact word encoding of a value (see the module doc).
pub trait Encode {
    fn encode(&self, out: &mut Vec<u64>);

    /// The value as one word, if it has one: a scalar's word, or a short
    /// sequence of small scalars folded by [`fold_seq`]. Over the values of
    /// one type the fold is one-to-one, so a choice list can be keyed by
    /// its candidates' words (`info::choice_key`).
    #[inline]
    fn word(&self) -> Option<u64> {
        None
    }
}

/// A sequence (tuple, array or list) of at most this many items folds
/// into one word.
const FOLD_MAX_LEN: usize = 7;

/// The one-word fold of a sequence of `len` items with these words: the
/// length, then each item's word in 8 bits (59 bits at most); `None` if
/// the sequence is longer than [`FOLD_MAX_LEN`] or an item is not a word
/// below 256. One-to-one: sequences of one length differ in some byte, and
/// a longer one folds to a larger word (`len · 256^len` at least, above
/// every fold of fewer items).
#[inline]
pub fn fold_seq(len: usize, items: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
    if len > FOLD_MAX_LEN {
        return None;
    }
    let mut folded = len as u64;
    for item in items {
        match item {
            Some(w) if w < 256 => folded = folded << 8 | w,
            _ => return None,
        }
    }
    Some(folded)
}

impl Encode for i64 {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(*self as u64);
    }

    #[inline]
    fn word(&self) -> Option<u64> {
        Some(*self as u64)
    }
}

/// One word each: `bool` and the unsigned types widen losslessly.
macro_rules! encode_unsigned {
    ($($t:ty),+) => {$(
        impl Encode for $t {
            #[inline]
            fn encode(&self, out: &mut Vec<u64>) {
                out.push(u64::from(*self));
            }

            #[inline]
            fn word(&self) -> Option<u64> {
                Some(u64::from(*self))
            }
        }
    )+};
}
encode_unsigned!(bool, u8, u32);

impl<T: Encode> Encode for List<T> {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(self.slice().len() as u64);
        for x in self.slice() {
            x.encode(out);
        }
    }

    #[inline]
    fn word(&self) -> Option<u64> {
        fold_seq(self.slice().len(), self.slice().iter().map(Encode::word))
    }
}

impl<T: Encode, const N: usize> Encode for [T; N] {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(N as u64);
        for x in self {
            x.encode(out);
        }
    }

    #[inline]
    fn word(&self) -> Option<u64> {
        fold_seq(N, self.iter().map(Encode::word))
    }
}

macro_rules! encode_tuple {
    ($n:expr; $($t:ident $i:tt),+) => {
        impl<$($t: Encode),+> Encode for ($($t,)+) {
            #[inline]
            fn encode(&self, out: &mut Vec<u64>) {
                out.push($n);
                $(self.$i.encode(out);)+
            }

            #[inline]
            fn word(&self) -> Option<u64> {
                fold_seq($n, [$(self.$i.word()),+])
            }
        }
    };
}
encode_tuple!(1; A 0);
encode_tuple!(2; A 0, B 1);
encode_tuple!(3; A 0, B 1, C 2);
encode_tuple!(4; A 0, B 1, C 2, D 3);
encode_tuple!(5; A 0, B 1, C 2, D 3, E 4);
encode_tuple!(6; A 0, B 1, C 2, D 3, E 4, F 5);
encode_tuple!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
encode_tuple!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// Cards are `rank << SUIT_BITS | suit`: they order by rank, then suit.
pub const SUIT_BITS: u32 = 16;

mod dynamic;
mod fixed;

pub use dynamic::{Dyn, Items, Scalar};
pub use fixed::Fixed;

#[cfg(test)]
mod tests {
    use super::List;

    #[test]
    fn an_empty_list_is_one_value_however_it_was_made() {
        let unset = List::<i64>::default();
        let one = List::from_vec(vec![7]);
        let steps = &mut 100;
        let emptied = one.remove(&7, steps, 100, "").unwrap_or_default();
        assert_eq!(unset, emptied);
        assert_eq!(unset, List::from_vec(Vec::new()));
        assert_eq!(unset.cmp(&emptied), std::cmp::Ordering::Equal);
        assert!(unset < one);
        assert_eq!(unset.push(7, steps, 100, "").ok(), Some(one));
        assert_eq!((unset.len(), unset.get(0), unset.iter().count()), (0, None, 0));
    }

    #[test]
    fn writing_an_element_copies_a_shared_list_only() {
        let mut a = List::from_vec(vec![1i64, 2]);
        let b = a.clone();
        *a.get_mut(1).expect("in bounds") = 5;
        assert_eq!((a.as_slice(), b.as_slice()), (&[1, 5][..], &[1, 2][..]));
        assert_eq!(a.get_mut(2), None);
        assert_eq!(List::<i64>::default().get_mut(0), None);
    }
}
