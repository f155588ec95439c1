//! Card and board builtins: `deck`, `card`, `rank`, `suit`, `cells`,
//! `has_line`.

use super::{make_items, other, size, At};
use crate::game::GameError;
use crate::value::{Items, List, SUIT_BITS};

#[inline]
pub fn deck(ranks: i64, suits: i64, left: &mut u64, limit: u64, at: impl At) -> Result<List<i64>, GameError> {
    let ranks = size(ranks, "number of ranks", at)?;
    let suits = size(suits, "number of suits", at)?;
    if suits > 1 << SUIT_BITS {
        return Err(other(format!("{suits} suits are too many"), at));
    }
    make_items(left, ranks.saturating_mul(suits), limit, at)?;
    let mut v = Vec::with_capacity(ranks * suits);
    for r in 0..ranks {
        for s in 0..suits {
            v.push(((r as i64) << SUIT_BITS) | s as i64);
        }
    }
    Ok(List::from_vec(v))
}

#[inline]
pub fn card(rank: i64, suit: i64, at: impl At) -> Result<i64, GameError> {
    if !(0..1 << SUIT_BITS).contains(&suit) || !(0..1 << 40).contains(&rank) {
        return Err(other(format!("card({rank}, {suit}) is out of range"), at));
    }
    Ok((rank << SUIT_BITS) | suit)
}

#[inline]
pub fn rank(c: i64) -> i64 {
    c >> SUIT_BITS
}

#[inline]
pub fn suit(c: i64) -> i64 {
    c & ((1 << SUIT_BITS) - 1)
}

#[inline]
pub fn cells(rows: i64, cols: i64, left: &mut u64, limit: u64, at: impl At) -> Result<List<(i64, i64)>, GameError> {
    let rows = size(rows, "number of rows", at)?;
    let cols = size(cols, "number of columns", at)?;
    make_items(left, rows.saturating_mul(cols), limit, at)?;
    let mut v = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            v.push((r as i64, c as i64));
        }
    }
    Ok(List::from_vec(v))
}

/// True iff some row, column or diagonal has `k` consecutive cells equal to `v`.
#[inline]
pub fn has_line<R: Items>(board: &[R], k: i64, v: &R::Item) -> bool
where
    R::Item: PartialEq,
{
    has_line_by(board.len(), |r| board[r].items().len(), |r, c| board[r].items()[c] == *v, k)
}

/// [`has_line`] over any board: `rows`, the length of each row, and whether
/// the cell `(r, c)` holds the value.
fn has_line_by(rows: usize, row_len: impl Fn(usize) -> usize, is_v: impl Fn(usize, usize) -> bool, k: i64) -> bool {
    let Ok(k) = usize::try_from(k) else { return false };
    if k == 0 {
        return true;
    }
    let holds = |r: i64, c: i64| -> bool {
        r >= 0 && (r as usize) < rows && c >= 0 && (c as usize) < row_len(r as usize) && is_v(r as usize, c as usize)
    };
    for r in 0..rows as i64 {
        for c in 0..row_len(r as usize) as i64 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                if (0..k as i64).all(|i| holds(r + dr * i, c + dc * i)) {
                    return true;
                }
            }
        }
    }
    false
}
