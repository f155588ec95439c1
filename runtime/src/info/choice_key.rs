//! The key of a choice list, for information-set keys and for the record
//! of an own choice: short forms for the common lists, one-to-one on the
//! lists of one type.

use crate::value::Encode;

/// The key of a choice list whose candidates have the type numbered `ty`,
/// for [`InfoInterner::infoset`](super::InfoInterner::infoset), in one of
/// four forms, each with its own first word:
/// - `[4 ty + 1, bitmask]` when every candidate is one word below 64 and
///   they strictly ascend (an enum's values, a small range: most decisions);
/// - else `[4 ty + 3 + len · 2^48, bitmask]` when every candidate's word
///   is the fold of a tuple (or list) of `len` (1 to 3) small items, each
///   below 2^(6 / len), and they strictly ascend (blind tic-tac-toe's
///   `(row, col, mark)`: a key of two words where 18 candidates took 19);
/// - else `[4 ty + 2, each candidate's word]` when every candidate has one
///   ([`Encode::word`]: any scalar, and tuples of small scalars such as a
///   bet `(move, amount)`);
/// - else `[4 ty, each candidate's words]`.
///
/// Which form a list gets depends on the list alone, and each form is
/// one-to-one on lists of one type, so equal lists get equal keys and
/// different lists different ones. A key of a few words however many
/// candidates there are, or of one word per candidate, is cheaper to build
/// and compare than the full encoding, which a build does at every
/// decision node (docs/perf/tree-build.md, "The interner").
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
        None => match fold_mask_key(ty, candidates) {
            Some(key) => {
                *short = key;
                short
            }
            None => {
                words.clear();
                long_choice_key(ty, candidates, words);
                words
            }
        },
    }
}

/// Appends [`choice_key`]'s words to `out`: the list of options a player
/// was offered, which it remembers with its choice (no allocation beyond
/// `out`'s).
#[inline]
pub fn append_choice_key<T: Encode>(ty: u32, candidates: &[T], out: &mut Vec<u64>) {
    match mask_key(candidates) {
        Some(mask) => out.extend_from_slice(&[4 * u64::from(ty) + 1, mask]),
        None => match fold_mask_key(ty, candidates) {
            Some(key) => out.extend_from_slice(&key),
            None => long_choice_key(ty, candidates, out),
        },
    }
}

/// The bitmask of [`choice_key`]'s form `4 ty + 1`, if the list has it.
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

/// [`choice_key`]'s form `4 ty + 3`, if the list has it. The candidates' words
/// are `len · 256^len` plus their items, a byte each, the first the most
/// significant (`value::fold_seq`); with the items below `2^bits`, `bits =
/// 6 / len`, a word's bit in the mask is its items side by side, which
/// ascends with the word. The key names `len`, so the mask gives back
/// the words (a word of another type's list never meets these: keys are
/// compared within a type, which `ty` names).
#[inline]
fn fold_mask_key<T: Encode>(ty: u32, candidates: &[T]) -> Option<[u64; 2]> {
    let first = candidates.first()?.word()?;
    let len = (1..=3u64).find(|&len| first >> (8 * len) == len)?;
    let bits = 6 / len;
    let mut mask = 0u64;
    for c in candidates {
        let w = c.word()?;
        if w >> (8 * len) != len {
            return None;
        }
        let mut bit = 0u64;
        for i in (0..len).rev() {
            let item = (w >> (8 * i)) & 0xff;
            if item >> bits != 0 {
                return None;
            }
            bit = bit << bits | item;
        }
        // `mask >> bit == 0`: above every candidate so far.
        if mask >> bit != 0 {
            return None;
        }
        mask |= 1 << bit;
    }
    Some([4 * u64::from(ty) + 3 + (len << 48), mask])
}

/// Appends [`choice_key`]'s form `4 ty + 2` to `out`, a word per
/// candidate, or else its form `4 ty`.
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
}
