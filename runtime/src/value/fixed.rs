//! [`Fixed`]: the encoding of values without a list inside, whose number of
//! words depends on the type alone, written into an array on the stack
//! (generated code reveals such facts and records such choices without a
//! growing buffer). The words are [`Encode`]'s; a test checks it.

use super::encode::Encode;

/// A value whose encoding is always [`Fixed::WORDS`] words.
pub trait Fixed: Encode {
    const WORDS: usize;

    /// Writes the words of [`Encode::encode`] into `out[..Self::WORDS]`.
    fn put(&self, out: &mut [u64]);
}

/// Scalars are one word: an `i64` as its bits, the others as their number.
macro_rules! fixed_scalar {
    ($($t:ty => $x:ident $word:expr),+) => {$(
        impl Fixed for $t {
            const WORDS: usize = 1;

            #[inline(always)]
            fn put(&self, out: &mut [u64]) {
                let $x = *self;
                out[0] = $word;
            }
        }
    )+};
}
fixed_scalar!(i64 => x x as u64, bool => x u64::from(x), u8 => x u64::from(x), u32 => x u64::from(x));

impl<T: Fixed, const N: usize> Fixed for [T; N] {
    const WORDS: usize = 1 + N * T::WORDS;

    #[inline(always)]
    fn put(&self, out: &mut [u64]) {
        out[0] = N as u64;
        for (i, x) in self.iter().enumerate() {
            x.put(&mut out[1 + i * T::WORDS..]);
        }
    }
}

macro_rules! fixed_tuple {
    ($n:expr; $($t:ident $i:tt),+) => {
        impl<$($t: Fixed),+> Fixed for ($($t,)+) {
            const WORDS: usize = 1 $(+ $t::WORDS)+;

            #[inline(always)]
            fn put(&self, out: &mut [u64]) {
                out[0] = $n;
                let mut _k = 1;
                $(self.$i.put(&mut out[_k..]); _k += $t::WORDS;)+
            }
        }
    };
}
fixed_tuple!(1; A 0);
fixed_tuple!(2; A 0, B 1);
fixed_tuple!(3; A 0, B 1, C 2);
fixed_tuple!(4; A 0, B 1, C 2, D 3);
fixed_tuple!(5; A 0, B 1, C 2, D 3, E 4);
fixed_tuple!(6; A 0, B 1, C 2, D 3, E 4, F 5);
fixed_tuple!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
fixed_tuple!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

#[cfg(test)]
mod tests {
    use super::Fixed;

    fn same<T: Fixed>(v: T) {
        let mut encoded = Vec::new();
        v.encode(&mut encoded);
        let mut put = vec![0; T::WORDS];
        v.put(&mut put);
        assert_eq!(put, encoded);
    }

    #[test]
    fn fixed_words_are_the_encoding() {
        same(-5i64);
        same(true);
        same(300u32);
        same((7u8, (-1i64, [false, true]), [(1u32, 2i64); 3]));
        same([[4u8; 2]; 40]);
    }
}
