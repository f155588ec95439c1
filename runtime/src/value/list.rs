//! [`List`]: the compiled games' lists and arrays whose length is a param,
//! shared between states and copied on write. A list of a few bytes
//! (enum values, players, booleans: [`Elem::Inline`]) is held in the list
//! itself, so a board's rows are copied with the board and writing a cell
//! allocates once, for the board.

use std::convert::Infallible;
use std::rc::Rc;

use crate::error::GameError;

/// A list shared between states until one of them changes it (`Rc`: a
/// state lives on one thread, and cloning it costs no atomic operation).
/// The items live in the counted allocation itself (`Rc<[T]>`, not
/// `Rc<Vec<T>>`): copying a shared list on write is one allocation. Short
/// lists of one-byte items are held inline and allocate nothing.
/// The empty list holds no allocation, so that `Default` (an unset or
/// released field) allocates nothing and clones without a reference count.
#[derive(Clone)]
pub struct List<T: Elem>(Repr<T>);

/// Where a list's items are.
#[derive(Clone)]
enum Repr<T: Elem> {
    Empty,
    Inline(T::Inline),
    Shared(Rc<[T]>),
}

/// An item type of [`List`]: whether (and how) short lists of it are held
/// inline. Items of other types say `Infallible`: their lists are never inline.
pub trait Elem: Clone + PartialEq + Ord {
    /// A short list of these items held in place.
    type Inline: Clone;

    /// `items` held inline, if they are few enough and of such a type.
    #[inline]
    fn inline(items: &[Self]) -> Option<Self::Inline> {
        let _ = items;
        None
    }

    /// The first `len` of `items` held inline, if that many fit (else
    /// `items` is left untouched).
    #[inline]
    fn inline_from(len: usize, items: &mut impl Iterator<Item = Self>) -> Option<Self::Inline> {
        let _ = (len, items);
        None
    }

    /// The items of an inline list.
    fn inline_items(list: &Self::Inline) -> &[Self];

    /// The items of an inline list, to write one in place.
    fn inline_items_mut(list: &mut Self::Inline) -> &mut [Self];

    /// A short list of lists of these items held in place ([`Rows`]), the
    /// inline form of a `List<List<Self>>`; `Infallible` for most types.
    type Rows: Clone;

    /// `rows` held inline, if they are few enough and of such a type.
    #[inline]
    fn rows(rows: &[List<Self>]) -> Option<Self::Rows> {
        let _ = rows;
        None
    }

    /// The first `len` of `rows` held inline, if that many fit (else
    /// `rows` is left untouched).
    #[inline]
    fn rows_from(len: usize, rows: &mut impl Iterator<Item = List<Self>>) -> Option<Self::Rows> {
        let _ = (len, rows);
        None
    }

    /// The rows of an inline list of lists.
    fn rows_items(rows: &Self::Rows) -> &[List<Self>];

    /// The rows of an inline list of lists, to write one in place.
    fn rows_items_mut(rows: &mut Self::Rows) -> &mut [List<Self>];
}

/// Up to [`INLINE_ROWS`] lists of one-byte items held in place: a small
/// board of enum cells is copied with its state and writing a cell
/// allocates nothing (a shared board is copied on write and counted on
/// each clone and drop: `malloc`, `free` and the counts at every node of a
/// board game; docs/perf/tree-build.md, "Generated code and board
/// operations").
#[derive(Clone)]
pub struct Rows<T: Elem> {
    len: RowCount,
    items: [List<T>; INLINE_ROWS],
}

/// How many rows a list of lists of bytes holds inline (a 3 x 3 board: more rows made every state larger to copy).
const INLINE_ROWS: usize = 3;

impl<T: Elem> Rows<T> {
    /// The first `len` of `rows` in place, if that many fit.
    #[inline]
    fn new(len: usize, rows: &mut impl Iterator<Item = List<T>>) -> Option<Rows<T>> {
        let mut held = Rows { len: *RowCount::ALL.get(len)?, items: Default::default() };
        for (slot, row) in held.items[..len].iter_mut().zip(rows) {
            *slot = row;
        }
        Some(held)
    }
}

/// Up to [`INLINE_BYTES`] one-byte items and their count, as large and
/// aligned as a shared list's pointer and length (24 bytes with the tag):
/// aligned, a copy is two word moves (unaligned, it stalled on the stack).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
pub struct Bytes<T: Copy> {
    len: ByteCount,
    items: [T; INLINE_BYTES],
}

/// How many one-byte items a list holds inline.
const INLINE_BYTES: usize = 15;

/// Counts that the compiler knows are in bounds: an inline list's length
/// is one of these enums (a byte), so taking its items is no bounds check
/// and no panic path, without `unsafe` (blind tic-tac-toe reads a board
/// row at every cell test).
macro_rules! counts {
    ($($(#[$doc:meta])* $name:ident: $($v:ident)+;)+) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy)]
        #[repr(u8)]
        enum $name {
            $($v),+
        }

        impl $name {
            /// Every count, in order (`ALL[n]` counts `n`).
            const ALL: &[$name] = &[$($name::$v),+];
        }
    )+};
}
counts! {
    /// The length of a [`Bytes`] list: 0 to [`INLINE_BYTES`].
    ByteCount: B0 B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B14 B15;
    /// The length of a [`Rows`] list: 0 to [`INLINE_ROWS`].
    RowCount: R0 R1 R2 R3;
}
const _: () = assert!(ByteCount::ALL.len() == INLINE_BYTES + 1 && RowCount::ALL.len() == INLINE_ROWS + 1);

/// One-byte items: short lists are inline ([`Bytes`]).
macro_rules! elem_bytes {
    ($($t:ty => $zero:expr),+) => {$(
        impl Elem for $t {
            type Inline = Bytes<$t>;

            #[inline]
            fn inline(items: &[$t]) -> Option<Bytes<$t>> {
                let len = *ByteCount::ALL.get(items.len())?;
                let mut list = Bytes { len, items: [$zero; INLINE_BYTES] };
                list.items[..items.len()].copy_from_slice(items);
                Some(list)
            }

            #[inline]
            fn inline_from(len: usize, items: &mut impl Iterator<Item = $t>) -> Option<Bytes<$t>> {
                let mut list = Bytes { len: *ByteCount::ALL.get(len)?, items: [$zero; INLINE_BYTES] };
                for (slot, x) in list.items[..len].iter_mut().zip(items) {
                    *slot = x;
                }
                Some(list)
            }

            #[inline]
            fn inline_items(list: &Bytes<$t>) -> &[$t] {
                &list.items[..list.len as usize]
            }

            #[inline]
            fn inline_items_mut(list: &mut Bytes<$t>) -> &mut [$t] {
                &mut list.items[..list.len as usize]
            }

            type Rows = Rows<$t>;

            #[inline]
            fn rows(rows: &[List<$t>]) -> Option<Rows<$t>> {
                Rows::new(rows.len(), &mut rows.iter().cloned())
            }

            #[inline]
            fn rows_from(len: usize, rows: &mut impl Iterator<Item = List<$t>>) -> Option<Rows<$t>> {
                Rows::new(len, rows)
            }

            #[inline]
            fn rows_items(rows: &Rows<$t>) -> &[List<$t>] {
                &rows.items[..rows.len as usize]
            }

            #[inline]
            fn rows_items_mut(rows: &mut Rows<$t>) -> &mut [List<$t>] {
                &mut rows.items[..rows.len as usize]
            }
        }
    )+};
}
elem_bytes!(u8 => 0, bool => false);

/// Types whose lists are always shared (`Infallible`: no inline list),
/// each with its generics in brackets.
macro_rules! elem_shared {
    ($(impl[$($g:tt)*] for $t:ty;)+) => {$(
        impl<$($g)*> Elem for $t where $t: Clone + PartialEq + Ord {
            type Inline = Infallible;

            fn inline_items(list: &Infallible) -> &[Self] {
                match *list {}
            }

            fn inline_items_mut(list: &mut Infallible) -> &mut [Self] {
                match *list {}
            }

            type Rows = Infallible;

            fn rows_items(rows: &Infallible) -> &[List<Self>] {
                match *rows {}
            }

            fn rows_items_mut(rows: &mut Infallible) -> &mut [List<Self>] {
                match *rows {}
            }
        }
    )+};
}
elem_shared! {
    impl[] for i64;
    impl[] for u32;
    impl[A] for (A,);
    impl[A, B] for (A, B);
    impl[A, B, C] for (A, B, C);
    impl[A, B, C, D] for (A, B, C, D);
    impl[A, B, C, D, E] for (A, B, C, D, E);
    impl[A, B, C, D, E, F] for (A, B, C, D, E, F);
    impl[A, B, C, D, E, F, G] for (A, B, C, D, E, F, G);
    impl[A, B, C, D, E, F, G, H] for (A, B, C, D, E, F, G, H);
    // Per-player arrays in a list.
    impl[T, const N: usize] for [T; N];
}

/// A list of lists is held inline as its items' type says ([`Rows`]: a
/// small board of bytes), else shared.
impl<T: Elem> Elem for List<T> {
    type Inline = T::Rows;

    #[inline]
    fn inline(items: &[Self]) -> Option<T::Rows> {
        T::rows(items)
    }

    #[inline]
    fn inline_from(len: usize, items: &mut impl Iterator<Item = Self>) -> Option<T::Rows> {
        T::rows_from(len, items)
    }

    #[inline]
    fn inline_items(list: &T::Rows) -> &[Self] {
        T::rows_items(list)
    }

    #[inline]
    fn inline_items_mut(list: &mut T::Rows) -> &mut [Self] {
        T::rows_items_mut(list)
    }

    type Rows = Infallible;

    fn rows_items(rows: &Infallible) -> &[List<Self>] {
        match *rows {}
    }

    fn rows_items_mut(rows: &mut Infallible) -> &mut [List<Self>] {
        match *rows {}
    }
}

impl<T: Elem> Default for List<T> {
    fn default() -> Self {
        List(Repr::Empty)
    }
}

impl<T: Elem + std::fmt::Debug> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.slice()).finish()
    }
}

/// Lists compare and hash as their elements (however they are held).
impl<T: Elem> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        self.slice() == other.slice()
    }
}

impl<T: Elem> Eq for List<T> {}

/// A hand's cards as [`crate::ops::holdem::Pairs`] reads them, in either execution's form.
impl<T: Elem> AsRef<[T]> for List<T> {
    fn as_ref(&self) -> &[T] {
        self.slice()
    }
}

impl<T: Elem> PartialOrd for List<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Elem> Ord for List<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.slice().cmp(other.slice())
    }
}

impl<T: Elem + std::hash::Hash> std::hash::Hash for List<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slice().hash(state)
    }
}

impl<T: Elem> List<T> {
    #[inline]
    pub(super) fn slice(&self) -> &[T] {
        match &self.0 {
            Repr::Empty => &[],
            Repr::Inline(list) => T::inline_items(list),
            Repr::Shared(items) => items,
        }
    }

    pub fn from_vec(items: Vec<T>) -> List<T> {
        if items.is_empty() {
            return List(Repr::Empty);
        }
        match T::inline(&items) {
            Some(list) => List(Repr::Inline(list)),
            None => List(Repr::Shared(Rc::from(items))),
        }
    }

    /// The list of these `len` items, built in place: inline, or else the
    /// standard library collects an iterator of known length (slices,
    /// chained or cloned) into an `Rc<[T]>` with one allocation and no `Vec`.
    pub(crate) fn from_exact(len: usize, mut items: impl Iterator<Item = T>) -> List<T> {
        if len == 0 {
            return List(Repr::Empty);
        }
        match T::inline_from(len, &mut items) {
            Some(list) => List(Repr::Inline(list)),
            None => List(Repr::Shared(items.collect())),
        }
    }

    pub fn len(&self) -> i64 {
        self.slice().len() as i64
    }

    pub fn is_empty(&self) -> bool {
        self.slice().is_empty()
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.slice()
    }

    pub fn get(&self, index: i64) -> Option<&T> {
        usize::try_from(index).ok().and_then(|i| self.slice().get(i))
    }

    /// A mutable element; copies the list first if it is shared.
    #[inline]
    pub fn get_mut(&mut self, index: i64) -> Option<&mut T> {
        let i = usize::try_from(index).ok()?;
        match &mut self.0 {
            Repr::Empty => None,
            Repr::Inline(list) => T::inline_items_mut(list).get_mut(i),
            Repr::Shared(items) if i < items.len() => Rc::make_mut(items).get_mut(i),
            Repr::Shared(_) => None,
        }
    }

    pub fn contains(&self, x: &T) -> bool {
        self.slice().contains(x)
    }

    pub fn count(&self, x: &T) -> i64 {
        self.slice().iter().filter(|y| *y == x).count() as i64
    }

    /// A new list with `x` appended, counted as
    /// [`ops::pushed`](crate::ops::pushed) counts, built in place.
    pub fn push(&self, x: T, left: &mut u64, limit: u64, at: impl crate::ops::At) -> Result<List<T>, GameError> {
        let xs = self.slice();
        crate::ops::make_items(left, xs.len() + 1, limit, at)?;
        Ok(List::from_exact(xs.len() + 1, xs.iter().cloned().chain(std::iter::once(x))))
    }

    /// A new list without the first occurrence of `x`, counted as
    /// [`ops::removed`](crate::ops::removed) counts, built in place.
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

#[cfg(test)]
mod tests {
    use super::List;

    /// A board of up to three rows of bytes is held in place: a clone is a
    /// copy, a written cell changes one board only, and it is the same
    /// value as a shared board.
    #[test]
    fn small_boards_of_bytes_are_held_in_place() {
        for rows in [1usize, 3, 4] {
            let board: Vec<List<u8>> = (0..rows).map(|r| List::from_vec(vec![r as u8; 3])).collect();
            let mut a = List::from_vec(board.clone());
            assert_eq!(matches!(a.0, super::Repr::Inline(_)), rows <= 3);
            let b = a.clone();
            *a.get_mut(rows as i64 - 1).and_then(|row| row.get_mut(2)).expect("in bounds") = 9;
            assert_eq!(b.as_slice(), &board[..]);
            assert_eq!(a.as_slice()[rows - 1].as_slice(), &[rows as u8 - 1, rows as u8 - 1, 9]);
            assert!(a != b && a > b);
            let steps = &mut 1000;
            let longer = b.push(List::default(), steps, 1000, "").expect("fits");
            assert_eq!(longer.as_slice()[..rows], board[..]);
        }
    }

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

    #[test]
    fn inline_and_shared_lists_of_bytes_are_the_same_values() {
        assert_eq!(std::mem::size_of::<List<u8>>(), 24);
        let steps = &mut 1000;
        let long: Vec<u8> = (0..40).collect();
        for n in [0, 1, 14, 15, 16, 40] {
            let items = long[..n].to_vec();
            let mut a = List::from_vec(items.clone());
            let b = a.clone();
            assert_eq!(a.as_slice(), &items[..]);
            let pushed = a.push(200, steps, 1000, "").expect("fits");
            assert_eq!(pushed.as_slice(), &[&items[..], &[200]].concat()[..]);
            let shorter = pushed.remove(&200, steps, 1000, "").expect("fits");
            assert_eq!((shorter.cmp(&a), shorter == a), (std::cmp::Ordering::Equal, true));
            if let Some(x) = a.get_mut(n as i64 - 1) {
                *x = 99;
                assert_eq!((b.as_slice(), a.as_slice()[n - 1]), (&items[..], 99));
                assert!(a > b);
            }
            assert_eq!(a.get_mut(n as i64), None);
        }
        let flags = List::from_vec(vec![true, false]);
        assert_eq!(flags.as_slice(), &[true, false]);
    }
}
