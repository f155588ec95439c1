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
    match cell_mask(board, v) {
        Some((mask, width)) => mask_has_line(mask, board.len(), width, k),
        None => has_line_by(board.len(), |r| board[r].items().len(), |r, c| board[r].items()[c] == *v, k),
    }
}

/// The cells of a rectangular board of at most 64 cells that hold `v`, a
/// bit each in row-major order, with the row length; `None` for another
/// board. One pass over the cells, then [`mask_has_line`] checks every
/// line with shifts: blind tic-tac-toe asks `has_line` twice a move, and
/// the cell-by-cell search was 22% of its compiled build.
#[inline]
fn cell_mask<R: Items>(board: &[R], v: &R::Item) -> Option<(u64, usize)>
where
    R::Item: PartialEq,
{
    let width = board.first()?.items().len();
    if width == 0 || board.len().checked_mul(width)? > 64 {
        return None;
    }
    let mut mask = 0u64;
    let mut bit = 0;
    for row in board {
        let cells = row.items();
        if cells.len() != width {
            return None;
        }
        for cell in cells {
            mask |= u64::from(*cell == *v) << bit;
            bit += 1;
        }
    }
    Some((mask, width))
}

/// [`has_line`] on [`cell_mask`]'s bits: for each direction, the cells
/// where a line of `k` starts and stays on the board, ANDed with the mask
/// shifted by one step along the line `k` times.
#[inline]
fn mask_has_line(mask: u64, rows: usize, width: usize, k: i64) -> bool {
    let Ok(k) = usize::try_from(k) else { return false };
    if k == 0 {
        return true;
    }
    // Fewer cells than a line (early in a game, most boards) have none.
    if k > rows.max(width) || (mask.count_ones() as usize) < k {
        return false;
    }
    let low = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    // (rows the line may start in, its first column range, its step in bits)
    let (fits_down, fits_across) = (rows.checked_sub(k - 1), width.checked_sub(k - 1));
    let directions = [
        (Some(rows), fits_across.map(|n| (0, n)), 1),
        (fits_down, Some((0, width)), width),
        (fits_down, fits_across.map(|n| (0, n)), width + 1),
        (fits_down, fits_across.map(|n| (k - 1, k - 1 + n)), width - 1),
    ];
    for (start_rows, columns, step) in directions {
        let (Some(start_rows), Some((from, to))) = (start_rows, columns) else { continue };
        let row_bits = low(to - from) << from;
        let mut line = 0u64;
        for r in 0..start_rows {
            line |= row_bits << (r * width);
        }
        line &= mask;
        // Every start's cells lie on the board: each shift is below 64.
        for i in 1..k {
            if line == 0 {
                break;
            }
            line &= mask >> (i * step);
        }
        if line != 0 {
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
        shapes.extend([vec![64], vec![1; 64], vec![8; 8], vec![3, 2, 3], vec![9; 8], vec![]]);
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
