//! The list builtins (`contains`, `count`, `push`, `remove`, `sort`, `sum`,
//! `combinations`) over slices, so that lists, per-player arrays and the
//! interpreter's sequences share one definition.

use super::checked::{add, make_items, read_cells, size, steps, At, STEP};
use crate::error::GameError;
use crate::value::{Elem, Items, List, Scalar};

/// Whether `xs` holds `x`: a step per item read, so that reading a long
/// list in a loop costs what it takes.
#[inline]
pub fn contains<T: PartialEq>(xs: &[T], x: &T, left: &mut u64, limit: u64, at: impl At) -> Result<bool, GameError> {
    read_cells(left, xs.len() as u64, limit, at)?;
    Ok(xs.contains(x))
}

/// Items of `xs` equal to `x`: a step per item read.
#[inline]
pub fn count<T: PartialEq>(xs: &[T], x: &T, left: &mut u64, limit: u64, at: impl At) -> Result<i64, GameError> {
    read_cells(left, xs.len() as u64, limit, at)?;
    Ok(xs.iter().filter(|y| *y == x).count() as i64)
}

/// The cells `==` or `!=` on lists or arrays reads, a step each (taken
/// before comparing, as [`steps`]): those of its left operand `x` through
/// its `depth` levels of lists (a list of lists counts the items of each;
/// a tuple or data item is one cell). Values the interpreter holds;
/// generated code counts the same cells in code written for the
/// operand's Rust type (`codegen::emit::expr`).
pub fn equality_cells<R: Items<Item = R>>(x: &R, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => x.items().len() as u64,
        _ => x.items().iter().map(|item| equality_cells(item, depth - 1)).sum(),
    }
}

/// A count of `cells` cells made already ([`line_and_count`]), with its
/// steps: [`count2d`]'s, charged where it would have counted.
///
/// [`line_and_count`]: super::line_and_count
#[inline]
pub fn counted(n: i64, cells: u64, left: &mut u64, limit: u64, at: impl At) -> Result<i64, GameError> {
    read_cells(left, cells, limit, at)?;
    Ok(n)
}

/// Cells of a 2-D board equal to `x`: a step per cell read. Boards whose
/// rows are 3 or 4 cells wide are read in unrolled code ([`count_fixed`]):
/// blind tic-tac-toe counts its empty cells before each move, and loops
/// over rows of a width known only at run time (the lengths summed first,
/// then the cells) pay their bookkeeping at every cell of a small board.
#[inline]
pub fn count2d<R: Items>(rows: &[R], x: &R::Item, left: &mut u64, limit: u64, at: impl At) -> Result<i64, GameError>
where
    R::Item: PartialEq,
{
    let fixed = match rows.first().map_or(0, |row| row.items().len()) {
        3 => count_fixed::<R, 3>(rows, x),
        4 => count_fixed::<R, 4>(rows, x),
        _ => None,
    };
    let (cells, n) = fixed.unwrap_or_else(|| cells_and_count(rows, x));
    counted(n as i64, cells as u64, left, limit, at)
}

/// The cells of any board (ragged too) and how many of them equal `x`.
pub(super) fn cells_and_count<R: Items>(rows: &[R], x: &R::Item) -> (usize, usize)
where
    R::Item: PartialEq,
{
    rows.iter().fold((0, 0), |(cells, n), row| {
        let items = row.items();
        (cells + items.len(), n + items.iter().filter(|y| *y == x).count())
    })
}

/// The cells of a board whose rows are all `N` cells wide and how many of
/// them equal `x`; `None` for any other board.
#[inline]
fn count_fixed<R: Items, const N: usize>(rows: &[R], x: &R::Item) -> Option<(usize, usize)>
where
    R::Item: PartialEq,
{
    let mut n = 0;
    for row in rows {
        let cells: &[R::Item; N] = row.items().try_into().ok()?;
        n += cells.iter().filter(|y| *y == x).count();
    }
    Some((rows.len() * N, n))
}

/// `xs` with `x` appended: a new list, a step per item.
#[inline]
pub fn pushed<T: Clone>(xs: &[T], x: T, left: &mut u64, limit: u64, at: impl At) -> Result<Vec<T>, GameError> {
    make_items(left, xs.len() + 1, limit, at)?;
    let mut v = Vec::with_capacity(xs.len() + 1);
    v.extend_from_slice(xs);
    v.push(x);
    Ok(v)
}

/// `xs` without the first occurrence of `x`: a new list, a step per item.
#[inline]
pub fn removed<T: Clone + PartialEq>(
    xs: &[T],
    x: &T,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<Vec<T>, GameError> {
    make_items(left, xs.len(), limit, at)?;
    let mut v = xs.to_vec();
    if let Some(i) = v.iter().position(|y| y == x) {
        v.remove(i);
    }
    Ok(v)
}

/// The sum of `xs`, checked: a step per item read.
#[inline]
pub fn sum<T: Scalar>(xs: &[T], left: &mut u64, limit: u64, at: impl At) -> Result<i64, GameError> {
    steps(left, xs.len() as u64 * STEP, limit, at)?;
    xs.iter().try_fold(0i64, |acc, x| add(acc, x.int(), at))
}

/// The size `k` of `combinations(xs, k)`, checked.
#[inline]
pub fn combination_size(k: i64, at: impl At) -> Result<usize, GameError> {
    size(k, "combination size", at)
}

/// All `k`-item sub-lists of `xs`, in lexicographic order of positions.
/// They cost a step per item made (at least one per sub-list), and one
/// more for the call (taken from `left`, as [`steps`]), counted before
/// anything is made: steps bound the memory as well as the time (a count
/// taken after the list was built would let a large call run out of
/// memory first).
pub fn combinations<T: Clone>(
    xs: &[T],
    k: i64,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<Vec<Vec<T>>, GameError> {
    let k = combination_size(k, at)?;
    let count = combination_count(xs.len() as u64, k as u64);
    steps(left, STEP, limit, at)?;
    make_items(left, count.saturating_mul(k.max(1) as u64).min(usize::MAX as u64) as usize, limit, at)?;
    let mut out = Vec::with_capacity(count as usize);
    for_each_combination(xs.len(), k, |pick| out.push(pick.iter().map(|i| xs[*i].clone()).collect()));
    Ok(out)
}

/// The binomial coefficient `n` choose `k`, saturating at `u64::MAX`.
pub fn combination_count(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    // After step i the running value is (n-k+1..=n-k+i) choose i, exact.
    let mut c: u128 = 1;
    for i in 1..=u128::from(k) {
        c = c * (u128::from(n - k) + i) / i;
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// [`combinations`] of a list, as a list of lists.
pub fn combinations_list<T: Elem>(
    xs: &List<T>,
    k: i64,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<List<List<T>>, GameError> {
    let all = combinations(xs.as_slice(), k, left, limit, at)?;
    Ok(List::from_vec(all.into_iter().map(List::from_vec).collect()))
}

/// Calls `visit` with every `k`-subset of `0..n` (sorted positions), in
/// lexicographic order.
pub fn for_each_combination(n: usize, k: usize, mut visit: impl FnMut(&[usize])) {
    if k > n {
        return;
    }
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        visit(&pick);
        let mut i = k;
        while i > 0 && pick[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return;
        }
        pick[i - 1] += 1;
        for j in i..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combination_counts_are_binomials_and_saturate() {
        assert_eq!(combination_count(52, 5), 2_598_960);
        assert_eq!(combination_count(5, 0), 1);
        assert_eq!(combination_count(3, 4), 0);
        assert_eq!(combination_count(1000, 500), u64::MAX);
        for n in 0..12u64 {
            for k in 0..=n + 1 {
                let mut made = 0;
                for_each_combination(n as usize, k as usize, |_| made += 1);
                assert_eq!(combination_count(n, k), made, "{n} choose {k}");
            }
        }
    }

    /// `count2d` counts and charges as a count over every cell, on boards
    /// of every width from 0 to 6 (3 and 4 take the unrolled path), ragged
    /// ones and inline and shared rows; and fails when the cells are more
    /// steps than are left.
    #[test]
    fn count2d_counts_every_cell_of_any_board() {
        let mut rng = crate::rng::SplitMix64::stream(10, 0);
        let mut shapes: Vec<Vec<usize>> = Vec::new();
        for rows in 0..=5 {
            for width in 0..=6 {
                shapes.push(vec![width; rows]);
            }
        }
        shapes.extend([vec![3, 3, 2], vec![4, 3], vec![3, 4, 4], vec![2, 3], vec![20; 3], vec![3; 20]]);
        for shape in &shapes {
            for _ in 0..50 {
                let board: Vec<Vec<u8>> =
                    shape.iter().map(|&w| (0..w).map(|_| (rng.next() % 3) as u8).collect()).collect();
                let rows: Vec<List<u8>> = board.iter().map(|row| List::from_vec(row.clone())).collect();
                let cells = board.iter().map(Vec::len).sum::<usize>() as u64 * STEP;
                for x in 0..3 {
                    let want = board.iter().flatten().filter(|&&y| y == x).count() as i64;
                    let mut left = 1000;
                    assert_eq!(count2d(&rows, &x, &mut left, 1000, "").ok(), Some(want), "{board:?} {x}");
                    assert_eq!(left, 1000 - cells, "{board:?}");
                    if cells > 0 {
                        let mut left = cells - 1;
                        assert!(count2d(&rows, &x, &mut left, 1000, "").is_err(), "{board:?}");
                    }
                }
            }
        }
    }

    /// A `count` or `contains` that reads more cells than are left says
    /// so, how many it was to read (issue 52.11: a count over a 300 x 300
    /// board was called an endless loop); `==` on lists counts a step per
    /// cell of its left operand through its levels of lists.
    #[test]
    fn reads_past_the_limit_say_how_many_cells() {
        let row = List::from_vec(vec![0u8; 300]);
        let board = vec![row; 300];
        // Fewer steps left than the board's cells, within a far larger limit.
        let mut left = 90_000 - 1;
        let err = count2d(&board, &0, &mut left, 1_000_000, "g.gala:3:9: ").err().map(|e| e.to_string());
        let want =
            "g.gala:3:9: no event within 1000000 steps: reading 90000 cells passes the limit (a step per cell read)";
        assert_eq!(err.as_deref(), Some(want));
        let mut left = 10;
        let err = contains(&[1i64; 11], &2, &mut left, 10, "").err();
        assert_eq!(err, Some(GameError::TooManyCells { cells: 11, limit: 10, at: String::new() }));
        let dyn_board = crate::value::Dyn::Seq(std::rc::Rc::new(vec![
            crate::value::Dyn::Seq(std::rc::Rc::new(vec![crate::value::Dyn::Int(1); 3])),
            crate::value::Dyn::Seq(std::rc::Rc::new(Vec::new())),
            crate::value::Dyn::Seq(std::rc::Rc::new(vec![crate::value::Dyn::Int(2); 4])),
        ]));
        assert_eq!((0..3).map(|depth| equality_cells(&dyn_board, depth)).collect::<Vec<_>>(), [1, 3, 7]);
    }

    /// `combinations` on a large list fails on its steps before it makes
    /// any sub-list (so it cannot exhaust memory first).
    #[test]
    fn a_large_combinations_call_fails_before_allocating() {
        let xs: Vec<i64> = (0..100).collect();
        let mut left = 1_000_000;
        let r = combinations(&xs, 5, &mut left, 1_000_000, "");
        assert!(matches!(r, Err(GameError::TooManyItems { .. })));
        let mut left = 1_000_000;
        let small = combinations(&xs[..10], 3, &mut left, 1_000_000, "").unwrap_or_default();
        assert_eq!(small.len(), 120);
        assert_eq!(left, 1_000_000 - 120 * 3 - 1);
    }
}
