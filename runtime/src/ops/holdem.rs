//! Hold'em builtins: `deck52`, `hand_rank` (5 to 7 cards) and `deal_hands`
//! (two players' hands dealt jointly from weighted ranges).
//!
//! The standard deck is `deck(13, 4)`: rank 0 is a two and rank 12 an ace;
//! suit 0 is spades, 1 hearts, 2 diamonds, 3 clubs (the order the labels
//! print them in). `hand_rank` reads a hand as four 13-bit rank masks, one
//! per suit, and answers from bit operations alone (no table): its value
//! is the hand's class in bits 26.. (high card 0 up to straight flush 8)
//! above two 13-bit fields of the ranks that break ties within the class,
//! so a higher value wins and equal values split.

use super::checked::{make_items, mul, other, At};
use crate::error::GameError;
use crate::value::{List, Scalar, SUIT_BITS};

/// Ranks and suits of the standard deck.
pub const RANKS: i64 = 13;
pub const SUITS: i64 = 4;

/// The 52 cards of the standard deck, rank-major (`deck(13, 4)`).
#[inline]
pub fn deck52(left: &mut u64, limit: u64, at: impl At) -> Result<List<i64>, GameError> {
    super::deck(RANKS, SUITS, left, limit, at)
}

/// The classes of hands, the top field of a [`hand_rank`] value.
pub mod class {
    pub const HIGH_CARD: u32 = 0;
    pub const PAIR: u32 = 1;
    pub const TWO_PAIR: u32 = 2;
    pub const TRIPS: u32 = 3;
    pub const STRAIGHT: u32 = 4;
    pub const FLUSH: u32 = 5;
    pub const FULL_HOUSE: u32 = 6;
    pub const QUADS: u32 = 7;
    pub const STRAIGHT_FLUSH: u32 = 8;
}

/// Where the class starts in a [`hand_rank`] value, and the first tie field.
const CLASS_SHIFT: u32 = 26;
const MAIN_SHIFT: u32 = 13;

/// The class of a [`hand_rank`] value.
#[inline]
pub fn hand_class(rank: i64) -> u32 {
    (rank >> CLASS_SHIFT) as u32
}

/// The strength of the best five-card hand among `cards` (5 to 7 cards of
/// the standard deck, no card twice): higher wins, equal splits.
#[inline]
pub fn hand_rank<T: Scalar>(cards: &[T], at: impl At) -> Result<i64, GameError> {
    if !(5..=7).contains(&cards.len()) {
        return Err(other(format!("hand_rank needs 5 to 7 cards, got {}", cards.len()), at));
    }
    // Each suit's rank bits and count; no popcount (slow without the
    // instruction, which the default x86-64 target lacks).
    let mut suits = [0u32; 4];
    let mut counts = [0u32; 4];
    for c in cards {
        let c = c.int();
        let (rank, suit) = (c >> SUIT_BITS, c & ((1 << SUIT_BITS) - 1));
        if !(0..RANKS).contains(&rank) || suit >= SUITS {
            return Err(not_standard(c, at));
        }
        let bit = 1 << rank;
        if suits[suit as usize] & bit != 0 {
            return Err(other("hand_rank was given a card twice".into(), at));
        }
        suits[suit as usize] |= bit;
        counts[suit as usize] += 1;
    }
    Ok(i64::from(rank_masks(suits, counts)))
}

#[cold]
#[inline(never)]
fn not_standard(c: i64, at: impl At) -> GameError {
    let (rank, suit) = (c >> SUIT_BITS, c & ((1 << SUIT_BITS) - 1));
    other(format!("card({rank}, {suit}) is not a card of the standard deck (ranks 0 to 12, suits 0 to 3)"), at)
}

/// The strength of the hand whose cards of suit `s` are the rank bits of
/// `suits[s]`, `counts[s]` of them (at most 7 cards, none twice).
#[inline]
fn rank_masks(suits: [u32; 4], counts: [u32; 4]) -> u32 {
    let [a, b, c, d] = suits;
    let value = |class: u32, main: u32, kick: u32| class << CLASS_SHIFT | main << MAIN_SHIFT | kick;
    // With at most 7 cards a flush leaves too few cards for quads or a
    // full house, so it is looked at first.
    for (m, n) in suits.into_iter().zip(counts) {
        if n >= 5 {
            let top = straight_top(m);
            return if top != 0 {
                value(class::STRAIGHT_FLUSH, top, 0)
            } else {
                value(class::FLUSH, keep_top(m, 5), 0)
            };
        }
    }
    let any = a | b | c | d;
    let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    let four = a & b & c & d;
    if four != 0 {
        return value(class::QUADS, four, top_bit(any & !four));
    }
    let trips = top_bit(three);
    if trips != 0 {
        // A second trips counts as the pair of a full house.
        let pair = top_bit(two & !trips);
        if pair != 0 {
            return value(class::FULL_HOUSE, trips, pair);
        }
    }
    let top = straight_top(any);
    if top != 0 {
        return value(class::STRAIGHT, top, 0);
    }
    if trips != 0 {
        return value(class::TRIPS, trips, keep_top(any & !trips, 2));
    }
    if two == 0 {
        value(class::HIGH_CARD, keep_top(any, 5), 0)
    } else if two & (two - 1) == 0 {
        value(class::PAIR, two, keep_top(any & !two, 3))
    } else {
        let pairs = keep_top(two, 2);
        value(class::TWO_PAIR, pairs, top_bit(any & !pairs))
    }
}

/// The highest set bit of `m` alone (0 for 0).
#[inline]
fn top_bit(m: u32) -> u32 {
    if m == 0 {
        0
    } else {
        1 << (31 - m.leading_zeros())
    }
}

/// The `n` highest set bits of `m` (all of them if it has fewer).
#[inline]
fn keep_top(mut m: u32, n: u32) -> u32 {
    let mut kept = 0;
    for _ in 0..n {
        let t = top_bit(m);
        kept |= t;
        m ^= t;
    }
    kept
}

/// The rank bit of the top card of the highest straight among the ranks
/// `m` (the ace also plays below the two), or 0.
#[inline]
fn straight_top(m: u32) -> u32 {
    // Bit i + 1 is rank i; bit 0 is the ace played low.
    let w = m << 1 | (m >> 12 & 1);
    let runs = w & w >> 1 & w >> 2 & w >> 3 & w >> 4;
    if runs == 0 {
        0
    } else {
        // A run starting at bit j holds ranks j - 1 to j + 3.
        1 << (31 - runs.leading_zeros() + 3)
    }
}

/// Every pair of hands, one from `first` and one from `second` (each its
/// cards and a positive weight), that share no card with each other or
/// with `board`: their indexes and the product of their weights, in the
/// order of `first`, then of `second`. This is the joint deal of two
/// players' hands: probabilities proportional to those products are the
/// distribution of (hand, hand) given the board, which dealing one hand by
/// its weight and then the other from what is left is not. Both
/// executions make their lists from these pairs.
pub fn deal_pairs(
    first: &[(Vec<i64>, i64)],
    second: &[(Vec<i64>, i64)],
    board: &[i64],
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<Vec<(usize, usize, i64)>, GameError> {
    let meets = |a: &[i64], b: &[i64]| a.iter().any(|c| b.contains(c));
    let live = |hands: &[(Vec<i64>, i64)]| -> Vec<usize> {
        (0..hands.len()).filter(|&i| !meets(&hands[i].0, board)).collect()
    };
    let (ones, twos) = (live(first), live(second));
    // Counted before the list is made, so a deal too large fails at once.
    let n = ones.iter().map(|&i| twos.iter().filter(|&&j| !meets(&first[i].0, &second[j].0)).count()).sum();
    make_items(left, n, limit, at)?;
    let mut out = Vec::with_capacity(n);
    for &i in &ones {
        for &j in &twos {
            if !meets(&first[i].0, &second[j].0) {
                out.push((i, j, mul(first[i].1, second[j].1, at)?));
            }
        }
    }
    Ok(out)
}

/// [`deal_pairs`] on typed ranges, as generated code holds them.
pub fn deal_hands(
    first: &[(List<i64>, i64)],
    second: &[(List<i64>, i64)],
    board: &[i64],
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<List<(List<i64>, List<i64>, i64)>, GameError> {
    let cards = |r: &[(List<i64>, i64)]| -> Vec<(Vec<i64>, i64)> {
        r.iter().map(|(h, w)| (h.as_slice().to_vec(), *w)).collect()
    };
    let pairs = deal_pairs(&cards(first), &cards(second), board, left, limit, at)?;
    Ok(List::from_vec(pairs.into_iter().map(|(i, j, w)| (first[i].0.clone(), second[j].0.clone(), w)).collect()))
}

#[cfg(test)]
#[path = "holdem_tests.rs"]
mod tests;
