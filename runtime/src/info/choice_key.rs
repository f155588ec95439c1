//! The key of a choice list, for information-set keys and for the record
//! of an own choice: short forms for the common lists, one-to-one on the
//! lists of one type.

use crate::value::Encode;

/// The key of a choice list whose candidates have the type numbered `ty`,
/// for [`InfoInterner::infoset`](super::InfoInterner::infoset), in one of
/// three forms, each with its own first word:
/// - `[4 ty + 1, bitmask]` when every candidate is one word below 64 and
///   they strictly ascend (an enum's values, a small range: most decisions);
/// - else `[4 ty + 2, each candidate's word]` when every candidate has one
///   ([`Encode::word`]: any scalar, and tuples of small scalars such as a
///   bet `(move, amount)`);
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

/// Appends [`choice_key`]'s second form to `out`, a word per candidate, or
/// the third.
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
