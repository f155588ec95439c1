//! [`Encode`]: the exact words a value is interned as, for scalars, lists,
//! arrays and tuples (see [`crate::value`]).

use super::list::{Elem, List};

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

impl<T: Encode + Elem> Encode for List<T> {
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
