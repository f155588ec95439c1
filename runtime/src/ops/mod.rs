//! The language's operations, defined once for both executions: the
//! interpreter calls them on [`Dyn`](crate::value::Dyn) values, generated
//! code on typed ones. Every failure is a [`GameError`] located by an
//! [`At`]: generated code passes a literal `"kuhn.gala:12:5: "`, the
//! interpreter a span it formats only if the operation fails.

mod board;
mod chance;
mod checked;
pub mod holdem;
mod holdem_keys;
mod lists;

pub use board::{card, cells, deck, has_line, line_and_count, rank, suit};
pub use chance::{no_choices, Odds};
pub use checked::{
    abs, add, div, get, index, index_slice_mut, make_items, max, min, mul, neg, next_player, other, overflow,
    player_number, range_end, range_list_end, read_cells, rem, repeat_array, repeat_count, sorted, step, step_limit,
    steps, steps_fit, steps_of, sub, At, MAX_PLAYERS, STEP,
};
pub use holdem::{deal_hands, deck52, hand_rank};
pub use lists::{
    combination_size, combinations, combinations_list, contains, count, count2d, counted, equality_cells,
    for_each_combination, pushed, removed, sum,
};

use crate::error::GameError;
use crate::value::{Elem, ItemsMut, List};
use checked::out_of_bounds;

/// Item `i` of a list or array, to write in place.
#[inline]
pub fn index_mut<S: ItemsMut>(xs: &mut S, i: i64, at: impl At) -> Result<&mut S::Item, GameError> {
    let len = xs.items().len();
    xs.item_mut(i).ok_or_else(|| out_of_bounds(i, len, at))
}

/// The range `lo..hi` (or `lo..=hi`) made into a list.
#[inline]
pub fn range(
    lo: i64,
    hi: i64,
    inclusive: bool,
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<List<i64>, GameError> {
    let hi = range_list_end(lo, hi, inclusive, left, limit, at)?;
    Ok(List::from_vec((lo..hi).collect()))
}

#[inline]
pub fn repeat<T: Elem>(v: T, n: i64, left: &mut u64, limit: u64, at: impl At) -> Result<List<T>, GameError> {
    Ok(List::from_vec(vec![v; repeat_count(n, left, limit, at)?]))
}

#[cfg(test)]
mod tests {
    use super::{steps, steps_of};

    /// Blocks' steps checked at once fail where checking them block by
    /// block fails, with the same message, and leave the same count.
    #[test]
    fn steps_of_fails_where_steps_one_by_one_fail() {
        let parts = [(2, "a: "), (1, "b: "), (3, "c: ")];
        for start in 0..8u64 {
            let mut one = start;
            let by_one = parts.iter().try_for_each(|&(n, at)| steps(&mut one, n, 99, at)).map_err(|e| e.to_string());
            let mut all = start;
            let at_once = steps_of(&mut all, 6, &parts, 99).map_err(|e| e.to_string());
            assert_eq!(at_once, by_one, "{start} steps left");
            if at_once.is_ok() {
                assert_eq!(all, one);
            }
        }
    }
}
