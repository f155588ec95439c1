//! The checked core of the operations: where an operation runs ([`At`]),
//! arithmetic that fails on overflow, the step and item budget of a play,
//! indexing and ranges. It needs no value type, so the values
//! ([`crate::value`]) build on it.

use crate::error::GameError;

/// Where an operation runs, made into the `file:line:column: ` prefix of its
/// error only when it fails.
pub trait At: Copy {
    fn at(self) -> String;
}

impl At for &str {
    #[inline]
    fn at(self) -> String {
        self.to_string()
    }
}

/// The most players a game may have: a tree node's kind is one byte, 2 +
/// the deciding player (`tree::DECISION`), and generated code holds a
/// player in a `u8`.
pub const MAX_PLAYERS: usize = 254;

/// Steps counted against the step limit (`--step-limit`) besides a flow
/// block's own (`ir::Block::steps` in the compiler): a fn call, a fn
/// statement, a round of a fn's loop, a `where` test of a candidate.
/// Every builtin that makes a list (`deck`, `cells`, a range or `[v; n]`
/// made into a list, `push`, `remove`, `sort`, `combinations`) takes one
/// more per item it makes ([`make_items`]), before making them, and
/// `contains`, `count` and `sum` one per item they read: the step limit
/// bounds memory and time, not only loops.
pub const STEP: u64 = 1;

// The errors are made out of line, so that the checks inline into the
// generated code's hot loops as a compare and a branch.
#[cold]
#[inline(never)]
pub fn overflow(at: impl At) -> GameError {
    GameError::Overflow { at: at.at() }
}

#[cold]
#[inline(never)]
fn division_by_zero(at: impl At) -> GameError {
    GameError::DivisionByZero { at: at.at() }
}

#[cold]
#[inline(never)]
pub fn other(message: String, at: impl At) -> GameError {
    GameError::Other { message, at: at.at() }
}

#[inline]
pub fn add(a: i64, b: i64, at: impl At) -> Result<i64, GameError> {
    a.checked_add(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn sub(a: i64, b: i64, at: impl At) -> Result<i64, GameError> {
    a.checked_sub(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn mul(a: i64, b: i64, at: impl At) -> Result<i64, GameError> {
    a.checked_mul(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn div(a: i64, b: i64, at: impl At) -> Result<i64, GameError> {
    if b == 0 {
        return Err(division_by_zero(at));
    }
    a.checked_div(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn rem(a: i64, b: i64, at: impl At) -> Result<i64, GameError> {
    if b == 0 {
        return Err(division_by_zero(at));
    }
    a.checked_rem(b).ok_or_else(|| overflow(at))
}

#[inline]
pub fn neg(a: i64, at: impl At) -> Result<i64, GameError> {
    a.checked_neg().ok_or_else(|| overflow(at))
}

#[inline]
pub fn abs(a: i64, at: impl At) -> Result<i64, GameError> {
    a.checked_abs().ok_or_else(|| overflow(at))
}

#[inline]
pub fn min(a: i64, b: i64) -> i64 {
    a.min(b)
}

#[inline]
pub fn max(a: i64, b: i64) -> i64 {
    a.max(b)
}

/// Takes `n` evaluation steps from `left`, the steps left of the step
/// limit (`limit`, which only the error names); fails when fewer are left
/// (an endless loop). Counting down, the check compares with `n` alone and
/// reads the limit only on failure: counting up read `g.step_limit` at
/// every check, and in the builder's loop, where generated code inlines
/// `advance`, the register allocator then spilled the state and game
/// pointers (docs/perf/tree-build.md, "Generated code and board
/// operations").
#[inline]
pub fn steps(left: &mut u64, n: u64, limit: u64, at: impl At) -> Result<(), GameError> {
    if *left < n {
        return Err(step_limit(limit, at));
    }
    *left -= n;
    Ok(())
}

/// Takes a step per item a builtin is about to make (see [`STEP`]), as
/// [`steps`]; the error says how many items were asked for.
#[inline]
pub fn make_items(left: &mut u64, n: usize, limit: u64, at: impl At) -> Result<(), GameError> {
    let n = n as u64;
    if *left < n {
        return Err(too_many_items(n, limit, at));
    }
    *left -= n;
    Ok(())
}

/// Takes a step per cell `count` or `contains` is about to read (see
/// [`STEP`]), as [`steps`]; the error says how many cells it was to read
/// (a `count` over a large board is no endless loop). `has_line` and `==`
/// on lists take theirs as [`steps`] (a repeated test skipped in
/// generated code has them checked with its block's by [`steps_of`]).
#[inline]
pub fn read_cells(left: &mut u64, cells: u64, limit: u64, at: impl At) -> Result<(), GameError> {
    let n = cells * STEP;
    if *left < n {
        return Err(too_many_cells(cells, limit, at));
    }
    *left -= n;
    Ok(())
}

#[cold]
#[inline(never)]
fn too_many_cells(cells: u64, limit: u64, at: impl At) -> GameError {
    GameError::TooManyCells { cells, limit, at: at.at() }
}

#[cold]
#[inline(never)]
fn too_many_items(items: u64, limit: u64, at: impl At) -> GameError {
    GameError::TooManyItems { items, limit, at: at.at() }
}

/// Takes the steps of blocks run one after another with nothing that can
/// fail between their counts, checked once: `parts` are each block's count
/// and place, in order, and `total` their sum. Short of steps, the error
/// names the block where counting them one by one stops, so it is the
/// error [`steps`] at each block gives (generated code: Leduc's `advance`
/// checked its count at almost every block).
#[inline]
pub fn steps_of(left: &mut u64, total: u64, parts: &[(u64, &str)], limit: u64) -> Result<(), GameError> {
    if *left < total {
        return Err(steps_short(*left, parts, limit));
    }
    *left -= total;
    Ok(())
}

/// The error of [`steps_of`]: the first block whose count `left` does not
/// cover.
#[cold]
#[inline(never)]
fn steps_short(mut left: u64, parts: &[(u64, &str)], limit: u64) -> GameError {
    for &(n, at) in parts {
        if left < n {
            return step_limit(limit, at);
        }
        left -= n;
    }
    step_limit(limit, parts.last().map_or("", |p| p.1))
}

/// Takes one evaluation step ([`STEP`]), as [`steps`].
#[inline]
pub fn step(left: &mut u64, limit: u64, at: impl At) -> Result<(), GameError> {
    steps(left, STEP, limit, at)
}

/// Takes `n` steps if that many are left, and says whether it did: a
/// `where` whose tests count no steps of their own counts all its
/// candidates' at once when they fit, and tests them unchecked.
#[inline]
pub fn steps_fit(left: &mut u64, n: u64) -> bool {
    let fit = n <= *left;
    if fit {
        *left -= n;
    }
    fit
}

#[cold]
#[inline(never)]
pub fn step_limit(limit: u64, at: impl At) -> GameError {
    GameError::StepLimit { limit, at: at.at() }
}

#[cold]
#[inline(never)]
pub(super) fn out_of_bounds(index: i64, len: usize, at: impl At) -> GameError {
    GameError::IndexOutOfBounds { index, len, at: at.at() }
}

#[inline]
pub fn index<T>(xs: &[T], i: i64, at: impl At) -> Result<&T, GameError> {
    get(xs, i).ok_or_else(|| out_of_bounds(i, xs.len(), at))
}

/// Item `i` of `xs`, if there is one: where [`index`] succeeds. A lookup
/// lifted out of a choice's inner candidate loops keeps this (a pointer,
/// not a `Result` with its error), and the candidate that finds `None`
/// looks up again with [`index`] for the error.
#[inline]
pub fn get<T>(xs: &[T], i: i64) -> Option<&T> {
    usize::try_from(i).ok().and_then(|k| xs.get(k))
}

#[inline]
pub fn index_slice_mut<T>(xs: &mut [T], i: i64, at: impl At) -> Result<&mut T, GameError> {
    let len = xs.len();
    usize::try_from(i).ok().and_then(|k| xs.get_mut(k)).ok_or_else(|| out_of_bounds(i, len, at))
}

/// The player after `p` in turn order (`next`).
#[inline]
pub fn next_player(p: u32, n_players: u32) -> u32 {
    (p + 1) % n_players
}

/// A player's number (`index`).
#[inline]
pub fn player_number(p: u32) -> i64 {
    i64::from(p)
}

/// A number that a size must not exceed (`combinations`, `deck`, `cells`).
pub(super) fn size(n: i64, what: &str, at: impl At) -> Result<usize, GameError> {
    usize::try_from(n).ok().filter(|n| *n <= 1 << 24).ok_or_else(|| other(format!("{what} {n} is out of range"), at))
}

/// The most values a range or a repeated list holds.
const MAX_SEQ: i64 = 100_000_000;

/// [`range_end`] for a range made into a list: its items' steps taken.
#[inline]
pub fn range_list_end(
    lo: i64,
    hi: i64,
    inclusive: bool,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<i64, GameError> {
    let hi = range_end(lo, hi, inclusive, at)?;
    make_items(left, hi.saturating_sub(lo).max(0) as usize, limit, at)?;
    Ok(hi)
}

/// The exclusive end of the range `lo..hi` (or `lo..=hi`), which must not
/// overflow nor hold more than 100 million values: domains loop over it
/// without making the list.
#[inline]
pub fn range_end(lo: i64, hi: i64, inclusive: bool, at: impl At) -> Result<i64, GameError> {
    let hi = if inclusive { add(hi, 1, at)? } else { hi };
    let n = hi.saturating_sub(lo).max(0);
    if n > MAX_SEQ {
        return Err(other(format!("range of {n} values is too large"), at));
    }
    Ok(hi)
}

/// How many copies `[v; n]` makes, their steps taken.
#[inline]
pub fn repeat_count(n: i64, left: &mut u64, limit: u64, at: impl At) -> Result<usize, GameError> {
    if !(0..=MAX_SEQ).contains(&n) {
        return Err(other(format!("cannot repeat a value {n} times"), at));
    }
    make_items(left, n as usize, limit, at)?;
    Ok(n as usize)
}

/// `[v; n]` as a Rust array of the length `N` the compiler knew (a game
/// compiled for its params' values, `codegen`'s fixed arrays): the steps of
/// [`repeat`](super::repeat), and an error if `n` is not `N`.
#[inline]
pub fn repeat_array<T: Copy, const N: usize>(
    v: T,
    n: i64,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<[T; N], GameError> {
    if repeat_count(n, left, limit, at)? != N {
        return Err(other(format!("an array of length {N} cannot hold {n} copies"), at));
    }
    Ok([v; N])
}

/// `xs` in ascending order (lists and tuples compare item by item): a new
/// list, a step per item.
#[inline]
pub fn sorted<T: Clone + Ord>(xs: &[T], left: &mut u64, limit: u64, at: impl At) -> Result<Vec<T>, GameError> {
    make_items(left, xs.len(), limit, at)?;
    let mut v = xs.to_vec();
    v.sort();
    Ok(v)
}
