//! Checked operations for compiled games: every failure is a [`GameError`]
//! carrying the source location (`at`, e.g. `"kuhn.gala:12:5: "`) that the
//! generated code passes in. The semantics equal the interpreter's.

use crate::game::GameError;
use crate::value::{List, SUIT_BITS};

// The errors are made out of line, so that the checks inline into the
// generated code's hot loops as a compare and a branch.
#[cold]
#[inline(never)]
fn overflow(at: &str) -> GameError {
    GameError::Overflow { at: at.to_string() }
}

#[inline]
pub fn add(a: i64, b: i64, at: &str) -> Result<i64, GameError> {
    a.checked_add(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn sub(a: i64, b: i64, at: &str) -> Result<i64, GameError> {
    a.checked_sub(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn mul(a: i64, b: i64, at: &str) -> Result<i64, GameError> {
    a.checked_mul(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn div(a: i64, b: i64, at: &str) -> Result<i64, GameError> {
    if b == 0 {
        return Err(GameError::DivisionByZero { at: at.to_string() });
    }
    a.checked_div(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn rem(a: i64, b: i64, at: &str) -> Result<i64, GameError> {
    if b == 0 {
        return Err(GameError::DivisionByZero { at: at.to_string() });
    }
    a.checked_rem(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn neg(a: i64, at: &str) -> Result<i64, GameError> {
    a.checked_neg().ok_or_else(|| overflow(at))
}

#[inline]
pub fn abs(a: i64, at: &str) -> Result<i64, GameError> {
    a.checked_abs().ok_or_else(|| overflow(at))
}

/// Counts one evaluation step; fails past the limit (an endless loop).
#[inline]
pub fn step(steps: &mut u64, limit: u64, at: &str) -> Result<(), GameError> {
    *steps += 1;
    if *steps > limit {
        return Err(step_limit(limit, at));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn step_limit(limit: u64, at: &str) -> GameError {
    GameError::StepLimit { limit, at: at.to_string() }
}

#[inline]
pub fn index<'a, T>(xs: &'a [T], i: i64, at: &str) -> Result<&'a T, GameError> {
    usize::try_from(i).ok().and_then(|k| xs.get(k)).ok_or_else(|| GameError::IndexOutOfBounds {
        index: i,
        len: xs.len(),
        at: at.to_string(),
    })
}

#[inline]
pub fn index_mut<'a, T: Clone + PartialEq + Ord>(
    xs: &'a mut List<T>,
    i: i64,
    at: &str,
) -> Result<&'a mut T, GameError> {
    let len = xs.len() as usize;
    xs.get_mut(i).ok_or_else(|| GameError::IndexOutOfBounds { index: i, len, at: at.to_string() })
}

#[inline]
pub fn next_player(p: u8, n_players: u8) -> u8 {
    ((u32::from(p) + 1) % u32::from(n_players)) as u8
}

fn too_big(what: &str, n: i64, at: &str) -> GameError {
    GameError::Other { message: format!("{what} {n} is out of range"), at: at.to_string() }
}

fn size(n: i64, what: &str, at: &str) -> Result<usize, GameError> {
    usize::try_from(n).ok().filter(|n| *n <= 1 << 24).ok_or_else(|| too_big(what, n, at))
}

/// The size `k` of `combinations(xs, k)`, checked as the interpreter does.
#[inline]
pub fn combination_size(k: i64, at: &str) -> Result<i64, GameError> {
    size(k, "combination size", at).map(|_| k)
}

#[inline]
pub fn range(lo: i64, hi: i64, inclusive: bool, at: &str) -> Result<List<i64>, GameError> {
    let hi = range_end(lo, hi, inclusive, at)?;
    Ok(List::from_vec((lo..hi).collect()))
}

/// The exclusive end of the range `lo..hi` (or `lo..=hi`), which must not
/// overflow nor hold more than 100 million values (as the interpreter
/// checks): domains loop over it without making the list.
#[inline]
pub fn range_end(lo: i64, hi: i64, inclusive: bool, at: &str) -> Result<i64, GameError> {
    let hi = if inclusive { add(hi, 1, at)? } else { hi };
    let n = hi.saturating_sub(lo).max(0);
    if n > 100_000_000 {
        return Err(GameError::Other { message: format!("range of {n} values is too large"), at: at.to_string() });
    }
    Ok(hi)
}

#[inline]
pub fn repeat<T: Clone + PartialEq + Ord>(v: T, n: i64, at: &str) -> Result<List<T>, GameError> {
    if !(0..=100_000_000).contains(&n) {
        return Err(GameError::Other { message: format!("cannot repeat a value {n} times"), at: at.to_string() });
    }
    Ok(List::from_vec(vec![v; n as usize]))
}

#[inline]
pub fn sum(xs: &[i64], at: &str) -> Result<i64, GameError> {
    xs.iter().try_fold(0i64, |acc, x| add(acc, *x, at))
}

/// Cells of a 2-D board equal to `x`.
#[inline]
pub fn count2d<T: Clone + Ord>(rows: &[List<T>], x: &T) -> i64 {
    rows.iter().map(|r| r.iter().filter(|v| *v == x).count() as i64).sum()
}

#[inline]
pub fn deck(ranks: i64, suits: i64, at: &str) -> Result<List<i64>, GameError> {
    let ranks = size(ranks, "number of ranks", at)?;
    let suits = size(suits, "number of suits", at)?;
    if suits > 1 << SUIT_BITS {
        return Err(GameError::Other { message: format!("{suits} suits are too many"), at: at.to_string() });
    }
    let mut v = Vec::with_capacity(ranks * suits);
    for r in 0..ranks {
        for s in 0..suits {
            v.push(((r as i64) << SUIT_BITS) | s as i64);
        }
    }
    Ok(List::from_vec(v))
}

#[inline]
pub fn card(rank: i64, suit: i64, at: &str) -> Result<i64, GameError> {
    if !(0..1 << SUIT_BITS).contains(&suit) || !(0..1 << 40).contains(&rank) {
        return Err(GameError::Other { message: format!("card({rank}, {suit}) is out of range"), at: at.to_string() });
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
pub fn cells(rows: i64, cols: i64, at: &str) -> Result<List<(i64, i64)>, GameError> {
    let rows = size(rows, "number of rows", at)?;
    let cols = size(cols, "number of columns", at)?;
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
pub fn has_line<T: PartialEq + Clone + Ord>(board: &[List<T>], k: i64, v: &T) -> bool {
    has_line_by(board.len(), |r| board[r].len() as usize, |r, c| board[r].get(c as i64) == Some(v), k)
}

/// [`has_line`] over any board: `rows`, the length of each row, and whether
/// the cell `(r, c)` holds the value (shared with the interpreter).
pub fn has_line_by(rows: usize, row_len: impl Fn(usize) -> usize, is_v: impl Fn(usize, usize) -> bool, k: i64) -> bool {
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

/// Calls `visit` with every `k`-subset of `0..n` (sorted positions), in
/// lexicographic order (shared with the interpreter).
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
