//! Values of compiled games: scalars are plain Rust values (`i64`, `bool`,
//! `u8` for players and enum values); lists and arrays whose length is a
//! param are [`List`]s, shared and copied on write, so cloning a state never
//! allocates. [`Encode`] writes every value as the exact words that facts and
//! choice lists are interned from, identical to the interpreter's encoding.

use std::rc::Rc;

/// A list shared between states until one of them changes it (`Rc`: a
/// state lives on one thread, and cloning it costs no atomic operation).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct List<T>(Rc<Vec<T>>);

impl<T: Clone + PartialEq + Ord> List<T> {
    pub fn from_vec(items: Vec<T>) -> List<T> {
        List(Rc::new(items))
    }

    pub fn len(&self) -> i64 {
        self.0.len() as i64
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_slice(&self) -> &[T] {
        &self.0
    }

    pub fn get(&self, index: i64) -> Option<&T> {
        usize::try_from(index).ok().and_then(|i| self.0.get(i))
    }

    /// A mutable element; copies the list first if it is shared.
    pub fn get_mut(&mut self, index: i64) -> Option<&mut T> {
        let i = usize::try_from(index).ok().filter(|i| *i < self.0.len())?;
        Rc::make_mut(&mut self.0).get_mut(i)
    }

    pub fn contains(&self, x: &T) -> bool {
        self.0.contains(x)
    }

    pub fn count(&self, x: &T) -> i64 {
        self.0.iter().filter(|y| *y == x).count() as i64
    }

    /// A new list with `x` appended.
    pub fn push(&self, x: T) -> List<T> {
        let mut v = (*self.0).clone();
        v.push(x);
        List::from_vec(v)
    }

    /// A new list without the first occurrence of `x`.
    pub fn remove(&self, x: &T) -> List<T> {
        let mut v = (*self.0).clone();
        if let Some(i) = v.iter().position(|y| y == x) {
            v.remove(i);
        }
        List::from_vec(v)
    }

    pub fn sorted(&self) -> List<T> {
        let mut v = (*self.0).clone();
        v.sort();
        List::from_vec(v)
    }

    /// All `k`-element sub-lists, in lexicographic order of positions.
    pub fn combinations(&self, k: i64) -> List<List<T>> {
        let mut out = Vec::new();
        if let Ok(k) = usize::try_from(k) {
            crate::ops::for_each_combination(self.0.len(), k, |pick| {
                out.push(List::from_vec(pick.iter().map(|i| self.0[*i].clone()).collect()));
            });
        }
        List::from_vec(out)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }
}

/// Exact word encoding of a value (see the module doc).
pub trait Encode {
    fn encode(&self, out: &mut Vec<u64>);
}

impl Encode for i64 {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(*self as u64);
    }
}

impl Encode for bool {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(u64::from(*self));
    }
}

impl Encode for u8 {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(u64::from(*self));
    }
}

impl<T: Encode> Encode for List<T> {
    #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(self.0.len() as u64);
        for x in self.0.iter() {
            x.encode(out);
        }
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
}

macro_rules! encode_tuple {
    ($n:expr; $($t:ident $i:tt),+) => {
        impl<$($t: Encode),+> Encode for ($($t,)+) {
            #[inline]
    fn encode(&self, out: &mut Vec<u64>) {
                out.push($n);
                $(self.$i.encode(out);)+
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
