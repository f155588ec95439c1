//! The list builtins (`contains`, `count`, `push`, `remove`, `sort`, `sum`,
//! `combinations`) over slices, so that lists, per-player arrays and the
//! interpreter's sequences share one definition.

use super::{size, steps, At};
use crate::game::GameError;
use crate::value::{Items, List, Scalar};

#[inline]
pub fn contains<T: PartialEq>(xs: &[T], x: &T) -> bool {
    xs.contains(x)
}

/// Items of `xs` equal to `x`.
#[inline]
pub fn count<T: PartialEq>(xs: &[T], x: &T) -> i64 {
    xs.iter().filter(|y| *y == x).count() as i64
}

/// Cells of a 2-D board equal to `x`.
#[inline]
pub fn count2d<R: Items>(rows: &[R], x: &R::Item) -> i64
where
    R::Item: PartialEq,
{
    rows.iter().map(|r| count(r.items(), x)).sum()
}

/// `xs` with `x` appended.
#[inline]
pub fn pushed<T: Clone>(xs: &[T], x: T) -> Vec<T> {
    let mut v = Vec::with_capacity(xs.len() + 1);
    v.extend_from_slice(xs);
    v.push(x);
    v
}

/// `xs` without the first occurrence of `x`.
#[inline]
pub fn removed<T: Clone + PartialEq>(xs: &[T], x: &T) -> Vec<T> {
    let mut v = xs.to_vec();
    if let Some(i) = v.iter().position(|y| y == x) {
        v.remove(i);
    }
    v
}

/// `xs` in ascending order (lists and tuples compare item by item).
#[inline]
pub fn sorted<T: Clone + Ord>(xs: &[T]) -> Vec<T> {
    let mut v = xs.to_vec();
    v.sort();
    v
}

#[inline]
pub fn sum<T: Scalar>(xs: &[T], at: impl At) -> Result<i64, GameError> {
    xs.iter().try_fold(0i64, |acc, x| super::add(acc, x.int(), at))
}

/// The size `k` of `combinations(xs, k)`, checked.
#[inline]
pub fn combination_size(k: i64, at: impl At) -> Result<usize, GameError> {
    size(k, "combination size", at)
}

/// All `k`-item sub-lists of `xs`, in lexicographic order of positions.
/// They cost a step each, and one more for the call (taken from `left`,
/// as [`steps`]).
pub fn combinations<T: Clone>(
    xs: &[T],
    k: i64,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<Vec<Vec<T>>, GameError> {
    let k = combination_size(k, at)?;
    let mut out = Vec::new();
    for_each_combination(xs.len(), k, |pick| out.push(pick.iter().map(|i| xs[*i].clone()).collect()));
    steps(left, out.len() as u64 + super::STEP, limit, at)?;
    Ok(out)
}

/// [`combinations`] of a list, as a list of lists.
pub fn combinations_list<T: Clone + PartialEq + Ord>(
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
