//! The interpreter's values, [`Dyn`]: a scalar is one `i64`; tuples, arrays
//! and lists are shared sequences, copied on write. Their words are the
//! typed values' words ([`Encode`]), so both executions intern alike; and
//! [`Items`] and [`Scalar`] let the builtins of [`ops`](crate::ops) take
//! either kind of value.

use std::rc::Rc;

use super::encode::{fold_seq, Encode};
use super::list::{Elem, List};

/// A value of any Gala type, as the interpreter holds it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dyn {
    Int(i64),
    Seq(Rc<Vec<Dyn>>),
}

impl Dyn {
    pub fn seq(items: Vec<Dyn>) -> Dyn {
        Dyn::Seq(Rc::new(items))
    }

    pub fn bool(b: bool) -> Dyn {
        Dyn::Int(i64::from(b))
    }
}

/// A scalar is its word; a sequence is its length, then its items (as a
/// typed tuple, array or list is).
impl Encode for Dyn {
    fn encode(&self, out: &mut Vec<u64>) {
        match self {
            Dyn::Int(n) => n.encode(out),
            Dyn::Seq(xs) => {
                out.push(xs.len() as u64);
                for x in xs.iter() {
                    x.encode(out);
                }
            }
        }
    }

    #[inline]
    fn word(&self) -> Option<u64> {
        match self {
            Dyn::Int(n) => n.word(),
            Dyn::Seq(items) => fold_seq(items.len(), items.iter().map(Encode::word)),
        }
    }
}

/// A sequence value read as a slice of its items (a scalar has none).
pub trait Items {
    type Item;
    fn items(&self) -> &[Self::Item];
}

impl Items for Dyn {
    type Item = Dyn;

    #[inline]
    fn items(&self) -> &[Dyn] {
        match self {
            Dyn::Seq(xs) => xs,
            Dyn::Int(_) => &[],
        }
    }
}

impl<T: Elem> Items for List<T> {
    type Item = T;

    #[inline]
    fn items(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> Items for [T; N] {
    type Item = T;

    #[inline]
    fn items(&self) -> &[T] {
        self
    }
}

/// A sequence value whose items can be written in place: a [`List`]
/// (copied first if shared) or a Rust array (`codegen`'s fixed arrays).
pub trait ItemsMut: Items {
    /// Item `i`, to write, if there is one.
    fn item_mut(&mut self, i: i64) -> Option<&mut Self::Item>;
}

impl<T: Elem> ItemsMut for List<T> {
    #[inline]
    fn item_mut(&mut self, i: i64) -> Option<&mut T> {
        self.get_mut(i)
    }
}

impl<T, const N: usize> ItemsMut for [T; N] {
    #[inline]
    fn item_mut(&mut self, i: i64) -> Option<&mut T> {
        usize::try_from(i).ok().and_then(|k| self.get_mut(k))
    }
}

/// A scalar value read as an integer (a sequence reads as 0; the checker
/// never lets one reach a scalar's place).
pub trait Scalar {
    fn int(&self) -> i64;
}

impl Scalar for i64 {
    #[inline]
    fn int(&self) -> i64 {
        *self
    }
}

impl Scalar for Dyn {
    #[inline]
    fn int(&self) -> i64 {
        match self {
            Dyn::Int(n) => *n,
            Dyn::Seq(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Dyn, Encode, List};

    fn words<T: Encode>(v: &T) -> (Vec<u64>, Option<u64>) {
        let mut out = Vec::new();
        v.encode(&mut out);
        (out, v.word())
    }

    #[test]
    fn dynamic_values_encode_as_typed_ones() {
        let int = |n: i64| Dyn::Int(n);
        let tuple = Dyn::seq(vec![int(3), int(1), Dyn::seq(vec![int(-2)])]);
        assert_eq!(words(&tuple), words(&(3i64, true, List::from_vec(vec![-2i64]))));
        assert_eq!(words(&Dyn::seq(vec![int(300), int(2)])), words(&(300u32, 2u8)));
        assert_eq!(words(&Dyn::seq(vec![])), words(&List::<i64>::default()));
        assert_eq!(words(&Dyn::seq(vec![int(1), int(0)])), words(&[true, false]));
    }
}
