//! Card and board builtins: `deck`, `card`, `rank`, `suit`, `cells`,
//! `has_line`.

use std::sync::OnceLock;

use super::checked::{make_items, other, size, At};
use crate::error::GameError;
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

/// True iff some row, column or diagonal has `k` consecutive cells equal
/// to `v`: a step per cell of the board read (taken before it is read, as
/// [`steps`](super::steps)), so that a search over a large board costs
/// what it takes.
#[inline]
pub fn has_line<R: Items>(
    board: &[R],
    k: i64,
    v: &R::Item,
    left: &mut u64,
    limit: u64,
    at: impl super::At,
) -> Result<bool, crate::error::GameError>
where
    R::Item: PartialEq,
{
    let cells: usize = board.iter().map(|row| row.items().len()).sum();
    super::steps(left, cells as u64 * super::STEP, limit, at)?;
    Ok(line(board, k, v))
}

/// [`has_line`] without its steps.
/// Boards of up to [`TABLE_CELLS`] cells answer from a table here, the
/// others in [`has_line_large`], out of line so that this path stays short
/// (blind tic-tac-toe asks after each move; the table answers in about half
/// the padded mask's instructions: docs/perf/tree-build.md, "Generated
/// code and board operations").
#[inline]
fn line<R: Items>(board: &[R], k: i64, v: &R::Item) -> bool
where
    R::Item: PartialEq,
{
    let rows = board.len();
    let width = board.first().map_or(0, |row| row.items().len());
    if rows <= TABLE_CELLS && width <= TABLE_CELLS && rows * width <= TABLE_CELLS {
        if let (Ok(n), Some(mask)) = (usize::try_from(k), table_mask(board, width, v)) {
            return table_has_line(mask, rows, width, n);
        }
    }
    has_line_large(board, k, v)
}

/// [`has_line`] of `v` on `board` without its steps and, in the same
/// pass, how many of its cells equal `x` and how many cells it has (what
/// [`has_line`] and [`count2d`] charge steps for: the caller charges them
/// where each would have, [`counted`]). Generated code asks this when a loop's `until has_line`
/// is followed by its `unless count(board, x) == 0` on the same board
/// (blind tic-tac-toe after each move), saving the count's own pass over
/// the board.
///
/// [`count2d`]: super::count2d
/// [`counted`]: super::counted
#[inline]
pub fn line_and_count<R: Items>(board: &[R], k: i64, v: &R::Item, x: &R::Item) -> (bool, i64, u64)
where
    R::Item: PartialEq,
{
    // The width is the one every row has, found in the pass over the
    // rows (3 tried first), not read from the first row beforehand: one
    // read of the rows, not two.
    const ROWS_OF_3: usize = TABLE_CELLS / 3;
    const ROWS_OF_4: usize = TABLE_CELLS / 4;
    let rows = board.len();
    let counted = match rows {
        1..=ROWS_OF_3 => fixed_mask_count::<R, 3>(board, v, x).map(|c| (3, c)),
        _ => None,
    };
    let counted = match (counted, rows) {
        (None, 1..=ROWS_OF_4) => fixed_mask_count::<R, 4>(board, v, x).map(|c| (4, c)),
        (counted, _) => counted,
    };
    if let (Ok(n), Some((width, (mask, count)))) = (usize::try_from(k), counted) {
        return (table_has_line(mask, rows, width, n), count as i64, (rows * width) as u64);
    }
    line_and_count_by_parts(board, k, v, x)
}

/// [`line_and_count`] on any other board: [`has_line`], then the count.
#[inline(never)]
fn line_and_count_by_parts<R: Items>(board: &[R], k: i64, v: &R::Item, x: &R::Item) -> (bool, i64, u64)
where
    R::Item: PartialEq,
{
    let (cells, count) = super::lists::cells_and_count(board, x);
    (line(board, k, v), count as i64, cells as u64)
}

/// [`fixed_mask`] and the cells equal to `x`.
#[inline]
fn fixed_mask_count<R: Items, const N: usize>(board: &[R], v: &R::Item, x: &R::Item) -> Option<(u16, usize)>
where
    R::Item: PartialEq,
{
    let (mut mask, mut count) = (0u16, 0);
    for row in board {
        let cells: &[R::Item; N] = row.items().try_into().ok()?;
        for cell in cells {
            mask = mask << 1 | u16::from(*cell == *v);
            count += usize::from(*cell == *x);
        }
    }
    Some((mask, count))
}

/// [`has_line`] on boards of more than [`TABLE_CELLS`] cells (by
/// [`cell_mask`] up to 128 padded cells), on ragged boards and for
/// negative lengths.
#[inline(never)]
fn has_line_large<R: Items>(board: &[R], k: i64, v: &R::Item) -> bool
where
    R::Item: PartialEq,
{
    let Ok(n) = usize::try_from(k) else { return false };
    let rows = board.len();
    let width = board.first().map_or(0, |row| row.items().len());
    let padded = rows.saturating_mul(width + 1);
    let lines = if padded <= 64 {
        cell_mask::<R, u64>(board, width, v, 1).map(|mask| mask_has_line(mask, rows, width, n))
    } else if padded <= 128 {
        cell_mask::<R, u128>(board, width, v, 1).map(|mask| mask_has_line(mask, rows, width, n))
    } else {
        None
    };
    lines.unwrap_or_else(|| has_line_by(rows, |r| board[r].items().len(), |r, c| board[r].items()[c] == *v, k))
}

/// The bits of [`cell_mask`]: `u16` for [`table_has_line`]'s boards of up
/// to [`TABLE_CELLS`] cells, unpadded; `u64` for a board of up to 64 padded
/// cells, `u128` up to 128.
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
bits!(u16, u64, u128);

/// The cells of a rectangular board `width` cells wide that hold `v`, a
/// bit each, with `pad` clear bits beside each row; `None` for a ragged
/// board or one without columns. The bits are shifted in one by one, so
/// that the last cell is bit 0 and each row's padding lies above its
/// cells: the board turned half a turn, whose lines are the board's.
/// [`mask_has_line`] takes one bit of padding (it keeps a line from
/// running off one row into the next, so that no masks of where lines may
/// start are needed), [`table_has_line`] none. (A bit set at each cell's
/// index instead is vectorized into 64-bit shifts, which cost more on a
/// small board.) Blind tic-tac-toe asks `has_line` after each move, so
/// the cell-by-cell search was a large share of its build
/// (docs/perf/tree-build.md, "Generated code and board operations").
#[inline]
fn cell_mask<R: Items, B: Bits>(board: &[R], width: usize, v: &R::Item, pad: usize) -> Option<B>
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
        for _ in 0..pad {
            mask = mask.shl1();
        }
        for cell in cells {
            mask = mask.shl1() | B::from_bool(*cell == *v);
        }
    }
    Some(mask)
}

/// [`cell_mask`] without padding, for [`table_has_line`]: on boards 3 or
/// 4 cells wide (tic-tac-toe's and its 4 x 4 variant's) with each row's
/// cells compared in unrolled code ([`fixed_mask`]).
#[inline]
fn table_mask<R: Items>(board: &[R], width: usize, v: &R::Item) -> Option<u16>
where
    R::Item: PartialEq,
{
    match width {
        3 => fixed_mask::<R, 3>(board, v),
        4 => fixed_mask::<R, 4>(board, v),
        _ => cell_mask::<R, u16>(board, width, v, 0),
    }
}

/// [`cell_mask`] without padding on a board `N` cells wide, in unrolled
/// code: a loop over a row of a width known only at run time pays its
/// bookkeeping at every cell of a small board.
#[inline]
fn fixed_mask<R: Items, const N: usize>(board: &[R], v: &R::Item) -> Option<u16>
where
    R::Item: PartialEq,
{
    let mut mask = 0u16;
    for row in board {
        let cells: &[R::Item; N] = row.items().try_into().ok()?;
        for cell in cells {
            mask = mask << 1 | u16::from(*cell == *v);
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

/// Boards of up to this many cells answer [`has_line`] from a table of
/// all their masks ([`table_has_line`]).
const TABLE_CELLS: usize = 16;

/// A table of [`table_has_line`]: a bit for each mask of up to
/// [`TABLE_CELLS`] cells (8 KiB; a 3 x 3 board reads its first 64 bytes).
type LineTable = Box<[u64; 1 << (TABLE_CELLS - 6)]>;

/// The tables of [`table_has_line`] by rows, width and line length (each
/// 1 to 16), made at first use and kept for the process (a few per game:
/// blind tic-tac-toe uses one). The slots are 64 KiB of static data, of
/// which a game touches the pages of the slots it uses.
static LINE_TABLES: [OnceLock<LineTable>; 16 * 16 * 16] = [const { OnceLock::new() }; 16 * 16 * 16];

/// [`has_line`] on a board of `rows` x `width` cells, at most
/// [`TABLE_CELLS`], from [`cell_mask`]'s bits without padding: one bit of
/// the shape's table. On a small board the padded mask's shifts and tests
/// (four directions, `k - 1` shifts each, and the early count of the
/// cells) are most of its cost; one load from the table replaces them.
#[inline]
fn table_has_line(mask: u16, rows: usize, width: usize, k: usize) -> bool {
    if k == 0 {
        return true;
    }
    if k > rows.max(width) {
        return false;
    }
    let slot = &LINE_TABLES[((rows - 1) * 16 + width - 1) * 16 + k - 1];
    let table = match slot.get() {
        Some(table) => table,
        None => first_line_table(slot, rows, width, k),
    };
    table[usize::from(mask >> 6)] >> (mask & 63) & 1 != 0
}

/// The table in `slot`, made now if no thread has made it yet (apart
/// from [`table_has_line`], which inlines only its reading).
#[cold]
#[inline(never)]
fn first_line_table(slot: &'static OnceLock<LineTable>, rows: usize, width: usize, k: usize) -> &'static LineTable {
    slot.get_or_init(|| line_table(rows, width, k))
}

/// The table of [`table_has_line`] for a `rows` x `width` board and lines
/// of `k` cells: bit `m` is set iff the cells of mask `m` (cell `(r, c)` at
/// bit `r * width + c`) hold such a line. [`cell_mask`] puts that cell at
/// bit `rows * width - 1 - (r * width + c)` instead: the board turned half
/// a turn, which has the same lines.
fn line_table(rows: usize, width: usize, k: usize) -> LineTable {
    let mut lines: Vec<u16> = Vec::new();
    for r in 0..rows as isize {
        for c in 0..width as isize {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let line = (0..k as isize).try_fold(0u16, |line, i| {
                    let (r, c) = (r + dr * i, c + dc * i);
                    let inside = (0..rows as isize).contains(&r) && (0..width as isize).contains(&c);
                    inside.then(|| line | 1 << (r as usize * width + c as usize))
                });
                lines.extend(line);
            }
        }
    }
    let mut table = Box::new([0u64; 1 << (TABLE_CELLS - 6)]);
    for m in 0..1u32 << (rows * width) {
        if lines.iter().any(|&line| line & !(m as u16) == 0) {
            table[m as usize / 64] |= 1 << (m % 64);
        }
    }
    table
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
    use super::{has_line, has_line_by, line_and_count};
    use crate::rng::SplitMix64;

    /// Whether `has_line` (and `line_and_count`, with the count of each
    /// value) answers as `has_line_by` on `board`, for both values and
    /// every length from -1 to one past the longest side (to 11 and the
    /// longest side's two on larger sides).
    fn agrees(board: &[Vec<u8>]) {
        let rows: Vec<Row> = board.iter().map(|r| Row(r.clone())).collect();
        let longest = board.iter().map(Vec::len).max().unwrap_or(0).max(board.len()) as i64;
        for k in (-1..=longest.min(10) + 1).chain([longest, longest + 1]) {
            for v in 0..2 {
                let slow = has_line_by(board.len(), |r| board[r].len(), |r, c| board[r][c] == v, k);
                let cells = board.iter().map(Vec::len).sum::<usize>() as u64;
                // A step per cell: exactly enough steps answer, one fewer fails.
                let mut left = cells;
                assert_eq!(has_line(&rows, k, &v, &mut left, 9, "t"), Ok(slow), "{board:?} k={k} v={v}");
                assert_eq!(left, 0);
                if cells > 0 {
                    let mut short = cells - 1;
                    assert!(has_line(&rows, k, &v, &mut short, 9, "t").is_err());
                }
                for x in 0..3 {
                    let count = board.iter().flatten().filter(|c| **c == x).count() as i64;
                    assert_eq!(line_and_count(&rows, k, &v, &x), (slow, count, cells), "{board:?} k={k} v={v} x={x}");
                }
            }
        }
    }

    /// The table search answers as the cell-by-cell one on every board of
    /// up to 10 cells, of every shape.
    #[test]
    fn the_table_search_agrees_on_every_small_board() {
        for rows in 1..=10 {
            for width in 1..=10 / rows {
                for mask in 0..1u32 << (rows * width) {
                    let cell = |r: usize, c: usize| (mask >> (r * width + c) & 1) as u8;
                    agrees(&(0..rows).map(|r| (0..width).map(|c| cell(r, c)).collect()).collect::<Vec<_>>());
                }
            }
        }
    }

    /// The table search (boards of up to 16 cells) and the mask search
    /// answer as the cell-by-cell one on random boards of every shape of up
    /// to 16 cells and up to 6 x 6, and larger ones (one row, one column,
    /// 8 x 8, over 128 padded cells), ragged boards (which take the
    /// cell-by-cell path) and every length.
    #[test]
    fn the_table_and_mask_searches_agree_with_the_cell_by_cell_one() {
        let mut rng = SplitMix64::stream(27, 0);
        let mut shapes: Vec<Vec<usize>> = Vec::new();
        for rows in 1..=16 {
            for width in 1..=16 {
                if rows * width <= 16 || rows.max(width) <= 6 {
                    shapes.push(vec![width; rows]);
                }
            }
        }
        shapes.extend([
            vec![17],
            vec![1; 17],
            vec![64],
            vec![1; 64],
            vec![8; 8],
            vec![3, 2, 3],
            vec![9; 8],
            vec![12; 11],
        ]);
        shapes.extend([vec![], vec![0, 0], vec![2, 3], vec![4, 4, 4, 3]]);
        for shape in &shapes {
            for _ in 0..200 {
                // Mostly ones, so that long lines occur.
                agrees(
                    &shape.iter().map(|&w| (0..w).map(|_| u8::from(rng.next() & 3 != 0)).collect()).collect::<Vec<_>>(),
                );
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
