//! Hold'em builtins: `deck52`, `hand_rank` (5 to 7 cards) and `deal_hands`
//! (two players' hands dealt jointly from weighted ranges).
//!
//! The standard deck is `deck(13, 4)`: rank 0 is a two and rank 12 an ace;
//! suit 0 is spades, 1 hearts, 2 diamonds, 3 clubs (the order the labels
//! print them in). `hand_rank` answers from rs_poker's perfect-hash tables
//! (OMPEval's method): a few table reads and no branch on the hand's class,
//! which bit tests of each class cannot avoid on mixed hands (the
//! `hand_rank` bench measures the rate). Its value is the hand's class (1 for high card up to 9 for
//! a straight flush) times 4096 plus a rank within the class, so a higher
//! value wins and equal values split.

use super::checked::{make_items, mul, other, At};
use crate::error::GameError;
use crate::value::{List, Scalar, SUIT_BITS};
use rs_poker::core::{Card, CoreRank, Rank, SevenCardAccum, Suit, Value};

/// Ranks and suits of the standard deck.
pub const RANKS: i64 = 13;
pub const SUITS: i64 = 4;

/// The 52 cards of the standard deck, rank-major (`deck(13, 4)`).
#[inline]
pub fn deck52(left: &mut u64, limit: u64, at: impl At) -> Result<List<i64>, GameError> {
    super::deck(RANKS, SUITS, left, limit, at)
}

/// The classes of hands, [`hand_class`] of a [`hand_rank`] value.
pub mod class {
    pub const HIGH_CARD: u32 = 1;
    pub const PAIR: u32 = 2;
    pub const TWO_PAIR: u32 = 3;
    pub const TRIPS: u32 = 4;
    pub const STRAIGHT: u32 = 5;
    pub const FLUSH: u32 = 6;
    pub const FULL_HOUSE: u32 = 7;
    pub const QUADS: u32 = 8;
    pub const STRAIGHT_FLUSH: u32 = 9;
}

/// Where the class starts in a [`hand_rank`] value.
const CLASS_SHIFT: u32 = 12;

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
    // Checked in aggregate, branch-free per card: the largest card bounds
    // every rank (as unsigned, a negative card is out of range too), the
    // union of the cards' suit bits every suit, and a card met twice leaves
    // its bit in `twice`. The table lookups read clamped indexes, so a bad
    // hand is only refused after them.
    let (mut largest, mut suits, mut seen, mut twice) = (0u64, 0u64, 0u64, 0u64);
    let mut acc = SevenCardAccum::new();
    for c in cards {
        let c = c.int() as u64;
        largest = largest.max(c);
        suits |= c;
        let index = ((c >> SUIT_BITS) as usize).min(RANKS as usize - 1) * 4 + (c & 3) as usize;
        let bit = 1 << index;
        twice |= seen & bit;
        seen |= bit;
        acc.add(RS_CARDS[index]);
    }
    let suit_mask = (1u64 << SUIT_BITS) - 1;
    if largest >> SUIT_BITS >= RANKS as u64 || suits & suit_mask & !3 != 0 || twice != 0 {
        return Err(bad_hand(cards, at));
    }
    Ok(class_value(acc.rank()))
}

/// rs_poker's card of each card of the standard deck, by its number
/// `rank * 4 + suit` (read from a table: its own conversions are calls
/// through a jump table). Suits map one to one; which to which does not
/// matter to a hand's strength.
const RS_CARDS: [Card; 52] = {
    const VALUES: [Value; 13] = [
        Value::Two,
        Value::Three,
        Value::Four,
        Value::Five,
        Value::Six,
        Value::Seven,
        Value::Eight,
        Value::Nine,
        Value::Ten,
        Value::Jack,
        Value::Queen,
        Value::King,
        Value::Ace,
    ];
    const SUITS: [Suit; 4] = [Suit::Spade, Suit::Heart, Suit::Diamond, Suit::Club];
    let mut cards = [Card { value: Value::Two, suit: Suit::Spade }; 52];
    let mut i = 0;
    while i < 52 {
        cards[i] = Card { value: VALUES[i / 4], suit: SUITS[i % 4] };
        i += 1;
    }
    cards
};

/// rs_poker's rank as one integer: its class (1 to 9) above its rank in the class.
#[inline]
fn class_value(r: Rank) -> i64 {
    let class = match r.category() {
        CoreRank::HighCard => class::HIGH_CARD,
        CoreRank::OnePair => class::PAIR,
        CoreRank::TwoPair => class::TWO_PAIR,
        CoreRank::ThreeOfAKind => class::TRIPS,
        CoreRank::Straight => class::STRAIGHT,
        CoreRank::Flush => class::FLUSH,
        CoreRank::FullHouse => class::FULL_HOUSE,
        CoreRank::FourOfAKind => class::QUADS,
        CoreRank::StraightFlush => class::STRAIGHT_FLUSH,
    };
    i64::from(class << CLASS_SHIFT | u32::from(r.value_bits()))
}

/// The error of a hand with a card outside the standard deck or a card twice.
#[cold]
#[inline(never)]
fn bad_hand<T: Scalar>(cards: &[T], at: impl At) -> GameError {
    let mut seen = Vec::new();
    for c in cards.iter().map(Scalar::int) {
        let (rank, suit) = (c >> SUIT_BITS, c & ((1 << SUIT_BITS) - 1));
        if !(0..RANKS).contains(&rank) || !(0..SUITS).contains(&suit) {
            return other(
                format!("card({rank}, {suit}) is not a card of the standard deck (ranks 0 to 12, suits 0 to 3)"),
                at,
            );
        }
        if seen.contains(&c) {
            break;
        }
        seen.push(c);
    }
    other("hand_rank was given a card twice".into(), at)
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

/// One dealt pair of hands and its weight, as generated code holds it.
pub type Deal = (List<i64>, List<i64>, i64);

/// [`deal_pairs`] on typed ranges, as generated code holds them.
pub fn deal_hands(
    first: &[(List<i64>, i64)],
    second: &[(List<i64>, i64)],
    board: &[i64],
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<List<Deal>, GameError> {
    let cards = |r: &[(List<i64>, i64)]| -> Vec<(Vec<i64>, i64)> {
        r.iter().map(|(h, w)| (h.as_slice().to_vec(), *w)).collect()
    };
    let pairs = deal_pairs(&cards(first), &cards(second), board, left, limit, at)?;
    Ok(List::from_vec(pairs.into_iter().map(|(i, j, w)| (first[i].0.clone(), second[j].0.clone(), w)).collect()))
}

#[cfg(test)]
#[path = "holdem_tests.rs"]
mod tests;
