//! The key of a choice list, for information-set keys and for the record
//! of an own choice: short forms for the common lists, one-to-one on the
//! lists of one type.

use crate::value::Encode;

/// The key of a choice list whose candidates have the type numbered `ty`,
/// for [`InfoInterner::infoset`](super::InfoInterner::infoset), in one of
/// four forms, each with its own first word:
/// - `[4 ty + 1, bitmask]` when every candidate is one word below 64 and
///   they strictly ascend (an enum's values, a small range: most decisions);
/// - else, when every candidate has one word ([`Encode::word`]: any scalar,
///   and tuples of small scalars such as a bet `(move, amount)`):
///   - `[4 ty + 3, common, varying, bitmask]` when there are at least four,
///     they strictly ascend and differ in at most six bits: `common` holds
///     the bits all of them have, `varying` the bits where they differ, and
///     bit `x` of the mask says that `common` with the bits of `x` spread
///     over `varying` is a candidate (blind tic-tac-toe's 18 squares and
///     marks `(row, col, mark)`: 4 words, not 19);
///   - else `[4 ty + 2, each candidate's word]`;
/// - else `[4 ty, each candidate's words]`.
///
/// Which form a list gets depends on the list alone, and each form is
/// one-to-one on lists of one type, so equal lists get equal keys and
/// different lists different ones. A key of a few words however many
/// candidates there are, or of one word per candidate, is cheaper to build
/// and compare than the full encoding (keying a choice list word by word
/// was 3% of the 9,457-node Leduc's build, and 5% of poker52's with its
/// tuple choices).
#[inline]
pub fn choice_key<'a, T: Encode>(
    ty: u32,
    candidates: &[T],
    short: &'a mut [u64; 2],
    words: &'a mut Vec<u64>,
) -> &'a [u64] {
    match mask_key(candidates) {
        Some(mask) => {
            *short = [4 * u64::from(ty) + 1, mask];
            short
        }
        None => {
            words.clear();
            long_choice_key(ty, candidates, words);
            words
        }
    }
}

/// Appends [`choice_key`]'s words to `out`: the list of options a player
/// was offered, which it remembers with its choice (no allocation beyond
/// `out`'s).
#[inline]
pub fn append_choice_key<T: Encode>(ty: u32, candidates: &[T], out: &mut Vec<u64>) {
    match mask_key(candidates) {
        Some(mask) => out.extend_from_slice(&[4 * u64::from(ty) + 1, mask]),
        None => long_choice_key(ty, candidates, out),
    }
}

/// The bitmask of [`choice_key`]'s first form, if the list has it.
#[inline]
fn mask_key<T: Encode>(candidates: &[T]) -> Option<u64> {
    let mut mask = 0u64;
    for c in candidates {
        match c.word() {
            // `mask >> w == 0`: above every candidate so far.
            Some(w) if w < 64 && mask >> w == 0 => mask |= 1 << w,
            _ => return None,
        }
    }
    Some(mask)
}

/// Appends [`choice_key`]'s spread-mask form, a word per candidate, or
/// the full encoding to `out`.
#[inline(never)]
fn long_choice_key<T: Encode>(ty: u32, candidates: &[T], out: &mut Vec<u64>) {
    let start = out.len();
    out.reserve(candidates.len() + 1);
    out.push(4 * u64::from(ty) + 2);
    for c in candidates {
        match c.word() {
            Some(w) => out.push(w),
            None => {
                out.truncate(start);
                out.push(4 * u64::from(ty));
                for c in candidates {
                    c.encode(out);
                }
                return;
            }
        }
    }
    if let Some([common, varying, mask]) = spread_mask(&out[start + 1..]) {
        out.truncate(start);
        out.extend_from_slice(&[4 * u64::from(ty) + 3, common, varying, mask]);
    }
}

/// The most bits in which the candidates of a spread-mask key differ.
const SPREAD_MAX_BITS: u32 = 6;

/// `[common, varying, mask]` of the spread-mask form, if `words` (the
/// candidates' words) have it.
#[inline]
fn spread_mask(words: &[u64]) -> Option<[u64; 3]> {
    if words.len() < 4 {
        return None;
    }
    if !words.windows(2).all(|pair| pair[0] < pair[1]) {
        return None;
    }
    let (all, any) = words.iter().fold((u64::MAX, 0), |(all, any), &w| (all & w, any | w));
    let varying = any & !all;
    if varying.count_ones() > SPREAD_MAX_BITS {
        return None;
    }
    // The runs of varying bits, low to high: `(shift, width mask, where
    // in x)`; blind tic-tac-toe's squares have three runs of two bits.
    let mut runs = [(0u32, 0u64, 0u32); SPREAD_MAX_BITS as usize];
    let (mut n, mut rest, mut out) = (0, varying, 0);
    while rest != 0 {
        let shift = rest.trailing_zeros();
        let width = (rest >> shift).trailing_ones();
        runs[n] = (shift, (1 << width) - 1, out);
        (n, out) = (n + 1, out + width);
        rest &= !(((1u64 << width) - 1) << shift);
    }
    let gather = |x, &(shift, width, at): &(u32, u64, u32), w: u64| x | ((w >> shift) & width) << at;
    let mut mask = 0u64;
    if n <= 3 {
        // Unused runs have an empty width mask: a fixed, unrolled gather.
        let [a, b, c] = [runs[0], runs[1], runs[2]];
        for &w in words {
            mask |= 1 << gather(gather(gather(0, &a, w), &b, w), &c, w);
        }
    } else {
        for &w in words {
            mask |= 1 << runs[..n].iter().fold(0, |x, run| gather(x, run, w));
        }
    }
    Some([all, varying, mask])
}

#[cfg(test)]
mod tests {
    use super::spread_mask;

    /// The spread-mask form names the list exactly: spreading each bit of
    /// the mask over `varying` and adding `common` gives the words back.
    #[test]
    fn a_spread_mask_gives_back_its_words() {
        let squares: Vec<u64> = (0..3u64)
            .flat_map(|r| (0..3u64).flat_map(move |c| (1..3u64).map(move |m| 3 << 24 | r << 16 | c << 8 | m)))
            .filter(|&w| w != (3 << 24 | 1 << 16 | 1 << 8 | 2))
            .collect();
        let [common, varying, mask] = spread_mask(&squares).expect("six varying bits");
        assert_eq!((common, varying.count_ones(), mask.count_ones()), (3 << 24, 6, 17));
        let bits: Vec<u32> = (0..64).filter(|b| varying >> b & 1 == 1).collect();
        let back: Vec<u64> = (0..64u64)
            .filter(|x| mask >> x & 1 == 1)
            .map(|x| bits.iter().enumerate().fold(common, |w, (j, &b)| w | (x >> j & 1) << b))
            .collect();
        assert_eq!(back, squares);
        // Too few candidates, not ascending, or more than six varying bits.
        assert_eq!(spread_mask(&squares[..3]), None);
        assert_eq!(spread_mask(&[9, 5, 3, 1]), None);
        assert_eq!(spread_mask(&[1, 2, 4, 8, 16, 32, 64]), None);
        assert_eq!(spread_mask(&[8, 9, 12, 13]), Some([8, 5, 0b1111]));
        assert_eq!(
            spread_mask(&[1, 2, 4, 8, 16, 32]),
            Some([0, 63, 1 << 1 | 1 << 2 | 1 << 4 | 1 << 8 | 1 << 16 | 1 << 32])
        );
    }
}
