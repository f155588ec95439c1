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
    let Ok(n) = usize::try_from(k) else { return false };
    let width = board.first().map_or(0, |row| row.items().len());
    let padded = board.len().saturating_mul(width + 1);
    let lines = if padded <= 64 {
        cell_mask::<R, u64>(board, width, v).map(|mask| mask_has_line(mask, board.len(), width, n))
    } else if padded <= 128 {
        cell_mask::<R, u128>(board, width, v).map(|mask| mask_has_line(mask, board.len(), width, n))
    } else {
        None
    };
    lines.unwrap_or_else(|| has_line_by(board.len(), |r| board[r].items().len(), |r, c| board[r].items()[c] == *v, k))
}

/// The bits of [`cell_mask`]: `u64` for a board of up to 64 padded cells
/// (blind tic-tac-toe's 12), `u128` up to 128.
trait Bits: Copy + Eq + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> {
    /// No bit set.
    const ZERO: Self;
    /// Bit 0 set iff `set`.
    fn from_bool(set: bool) -> Self;
    /// `self << 1`.
    fn shl1(self) -> Self;
    /// How many bits are set.
    fn ones(self) -> u32;
    /// `self >> n`, zero once `n` is past the width.
    fn shr(self, n: usize) -> Self;
}

/// [`Bits`] for the unsigned integers.
macro_rules! bits {
    ($($t:ty),+) => {$(
        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline]
            fn from_bool(set: bool) -> $t {
                <$t>::from(set)
            }
            #[inline]
            fn shl1(self) -> $t {
                self << 1
            }
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn shr(self, n: usize) -> $t {
                u32::try_from(n).ok().and_then(|n| self.checked_shr(n)).unwrap_or(0)
            }
        }
    )+};
}
bits!(u64, u128);

/// The cells of a rectangular board `width` cells wide that hold `v`, a
/// bit each, with one clear bit beside each row (the padding keeps a line
/// from running off one row into the next, so that [`mask_has_line`]
/// needs no masks of where lines may start); `None` for a ragged board or
/// one without columns. The bits are shifted in one by one, so that the
/// last cell is bit 0 and each row's padding bit lies above its cells:
/// the board turned half a turn, whose lines are the board's. (A bit set
/// at each cell's index was vectorized into 64-bit shifts: 8% more
/// instructions a call on a 3 x 3 board.) Blind tic-tac-toe asks
/// `has_line` after each move, and the cell-by-cell search was 22% of its
/// compiled build.
#[inline]
fn cell_mask<R: Items, B: Bits>(board: &[R], width: usize, v: &R::Item) -> Option<B>
where
    R::Item: PartialEq,
{
    if width == 0 {
        return None;
    }
    let mut mask = B::ZERO;
    for row in board {
        let cells = row.items();
        if cells.len() != width {
            return None;
        }
        mask = mask.shl1();
        for cell in cells {
            mask = mask.shl1() | B::from_bool(*cell == *v);
        }
    }
    Some(mask)
}

/// [`has_line`] on [`cell_mask`]'s bits (rows `width + 1` bits apart): for
/// each direction, the cells where `k` cells in a row hold the value are
/// the mask ANDed with itself shifted by one step along the line `k - 1`
/// times. A line that would leave the board meets a padding bit or the
/// bits past the last row, all clear.
#[inline]
fn mask_has_line<B: Bits>(mask: B, rows: usize, width: usize, k: usize) -> bool {
    if k == 0 {
        return true;
    }
    // Early in a game, most boards hold fewer cells than a line.
    if k > rows.max(width) || (mask.ones() as usize) < k {
        return false;
    }
    // Across, down, down-right, down-left.
    for step in [1, width + 1, width + 2, width] {
        let mut line = mask;
        for i in 1..k {
            if line == B::ZERO {
                break;
            }
            line = line & mask.shr(i * step);
        }
        if line != B::ZERO {
            return true;
        }
    }
    false
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

#[cfg(test)]
mod tests {
    use super::{has_line, has_line_by};
    use crate::rng::SplitMix64;

    /// The mask search answers as the cell-by-cell one on random boards of
    /// every shape up to 64 cells (square, one row, one column, 8 x 8),
    /// ragged boards (which take the cell-by-cell path) and every length.
    #[test]
    fn the_mask_search_agrees_with_the_cell_by_cell_one() {
        let mut rng = SplitMix64::stream(27, 0);
        let mut shapes: Vec<Vec<usize>> = Vec::new();
        for rows in 1..=5 {
            for width in 1..=5 {
                shapes.push(vec![width; rows]);
            }
        }
        shapes.extend([vec![64], vec![1; 64], vec![8; 8], vec![3, 2, 3], vec![9; 8], vec![12; 11], vec![], vec![0, 0]]);
        for shape in &shapes {
            for _ in 0..200 {
                // Mostly ones, so that long lines occur.
                let board: Vec<Vec<u8>> =
                    shape.iter().map(|&w| (0..w).map(|_| u8::from(rng.next() & 3 != 0)).collect()).collect();
                let rows: Vec<Row> = board.iter().map(|r| Row(r.clone())).collect();
                for k in -1..=9 {
                    for v in 0..2 {
                        let slow = has_line_by(board.len(), |r| board[r].len(), |r, c| board[r][c] == v, k);
                        assert_eq!(has_line(&rows, k, &v), slow, "{board:?} k={k} v={v}");
                    }
                }
            }
        }
    }

    /// A row of a test board.
    struct Row(Vec<u8>);

    impl crate::value::Items for Row {
        type Item = u8;
        fn items(&self) -> &[u8] {
            &self.0
        }
    }
}
