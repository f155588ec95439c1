//! Hold'em builtins: `deck52`, `hand_rank` (5 to 7 cards) and `deal_hands`
//! (two players' hands dealt jointly from weighted ranges).
//!
//! The standard deck is `deck(13, 4)`: rank 0 is a two and rank 12 an ace;
//! suit 0 is spades, 1 hearts, 2 diamonds, 3 clubs (the order the labels
//! print them in). `hand_rank` answers from perfect-hash tables (OMPEval's
//! method, [`Tables`]) keyed by the deck's own card numbers and filled with
//! rs_poker's values by the crate's build script: per card one table index
//! and one 16-byte read, no branch on the hand's class (the `hand_rank`
//! bench measures the rate).
//! Its value is rs_poker's: the hand's class (1 for high card up to 9 for a
//! straight flush) times 4096 plus a rank within the class, so a higher value
//! wins and equal values split.

use super::checked::{make_items, mul, other, At};
pub use super::holdem_keys::class;
use super::holdem_keys::{CLASS_SHIFT, LOOKUP_LEN, RANK_KEYS, ROWS, ROW_SHIFT};
use crate::error::GameError;
use crate::value::{List, Scalar, SUIT_BITS};
use wide::u64x2;

/// Ranks and suits of the standard deck.
pub const RANKS: i64 = 13;
pub const SUITS: i64 = 4;

/// The 52 cards of the standard deck, rank-major (`deck(13, 4)`).
#[inline]
pub fn deck52(left: &mut u64, limit: u64, at: impl At) -> Result<List<i64>, GameError> {
    super::deck(RANKS, SUITS, left, limit, at)
}

/// The class of a [`hand_rank`] value.
#[inline]
pub fn hand_class(rank: i64) -> u32 {
    (rank >> CLASS_SHIFT) as u32
}

/// The strength of the best five-card hand among `cards` (5 to 7 cards of
/// the standard deck, no card twice): higher wins, equal splits.
///
/// Seven cards, the river's hands and the one count whose rate matters, take
/// a path of their own as an array (the loop unrolled), inlined into the
/// caller: as a call, a hand also paid for saving registers and returning
/// the `Result` through memory (BENCHMARKS.md, "Hold'em"). Fewer cards, or
/// a wrong count, take a call.
#[inline(always)]
pub fn hand_rank<T: Scalar>(cards: &[T], at: impl At) -> Result<i64, GameError> {
    let Ok(seven) = <&[T; 7]>::try_from(cards) else {
        return hand_rank_short(cards, at);
    };
    match TABLES.rank(seven) {
        Some(value) => Ok(value.into()),
        None => Err(bad_hand(cards, at)),
    }
}

/// [`hand_rank`] of other than seven cards (an error unless 5 or 6).
#[inline(never)]
fn hand_rank_short<T: Scalar>(cards: &[T], at: impl At) -> Result<i64, GameError> {
    if !(5..=7).contains(&cards.len()) {
        return Err(other(format!("hand_rank needs 5 to 7 cards, got {}", cards.len()), at));
    }
    TABLES.rank(cards).ok_or_else(|| bad_hand(cards, at)).map(i64::from)
}

/// The suit counters' start: each suit's four bits of a key start at 3, so
/// its top bit (8) is set when the suit has 5 cards or more (7 cards at
/// most, so a counter never passes 10).
const BIASED_SUITS: u64 = 0x3333 << SUIT_COUNTERS;
/// Where a key's suit counters start: below them is the sum of the cards' rank keys.
const SUIT_COUNTERS: u32 = 48;
/// The bits of a key that mark the cards past the deck's 52 (each adds
/// `1 << POISON_SHIFT`, between the rank keys' sum, below 2^26, and the
/// suit counters; [`Tables::rank`] reads them from the keys' union).
const POISON_SHIFT: u32 = 40;
const POISONED: u64 = 0xff << POISON_SHIFT;
/// The multiplier of a card's index ([`Tables::rank`]): `rank << SUIT_BITS
/// | suit` times it, in 32 bits, has `rank * 4 + suit` in its top six, and
/// below them the card's bit 13.
const INDEX: u32 = 1 << (28 - SUIT_BITS) | 1 << 26;
/// Bits of a suit in a card set `mask`: 13 ranks, padded to 16.
const SUIT_STRIDE: u32 = 16;

/// The evaluator's tables, indexed by the standard deck's card number
/// `rank * 4 + suit` and by perfect hash (OMPEval's method: a hand is the
/// sum of its cards' keys and the union of their bits; a flush is read from
/// the flushing suit's ranks, any other hand from its rank key). Their
/// values are rs_poker's, which the crate's build script reads from it
/// (`holdem_rs.rs`) and writes as statics (`ROW_OFFSETS`, `LOOKUP`,
/// `FLUSH`), so the two agree on every hand (holdem_tests.rs checks it)
/// while a hand costs a read and two vector operations a card and two
/// table reads, without rs_poker's card conversions. Statics, not made on
/// first use: no run makes them or reads rs_poker's own tables to do so,
/// and only the pages a run reads are in its memory.
/// Their size: 305 KiB, of which the hot part (`ROW_OFFSETS` and
/// `LOOKUP`, read by every hand without a flush) is 288 KiB, which an L2
/// of 512 KiB or more holds.
struct Tables {
    /// Each card's key (at twice its number) and bit (next to it), one
    /// 16-byte read; the last entry only pads the reads of odd indexes,
    /// which only cards outside the deck make. A key: the card's rank key
    /// plus one in its suit's counter, or past the deck's 52 cards a
    /// poisoned key. A bit: `suit * SUIT_STRIDE + rank`.
    cards: [u64; 129],
}

// `static ROW_OFFSETS: [u32; ROWS]` (the offset of each row of rank keys),
// `static LOOKUP: [u16; LOOKUP_LEN]` (the value of each non-flush hand, at
// its rank key's slot) and `static FLUSH: [u16; 1 << 13]` (the value of
// each flush, by its suit's 13 rank bits), written by the build script.
include!(concat!(env!("OUT_DIR"), "/holdem_tables.rs"));

static TABLES: Tables = Tables { cards: card_entries() };

/// [`Tables::cards`].
const fn card_entries() -> [u64; 129] {
    let mut cards = [0u64; 129];
    let mut i = 0;
    while i < 64 {
        let (rank, suit) = (i / 4, (i % 4) as u32);
        if i < 52 {
            cards[2 * i] = RANK_KEYS[rank] as u64 + (1 << (SUIT_COUNTERS + 4 * suit));
            cards[2 * i + 1] = 1 << (suit * SUIT_STRIDE + rank as u32);
        } else {
            cards[2 * i] = 1 << POISON_SHIFT;
        }
        i += 1;
    }
    cards
}

impl Tables {
    /// The value of the hand of `cards`, or `None` if one is not a card of
    /// the standard deck or two are the same.
    #[inline(always)]
    fn rank<'a, T: Scalar + 'a>(&self, cards: impl IntoIterator<Item = &'a T>) -> Option<u16> {
        // Per card, its key and its bit are one 16-byte read, summed in one
        // vector add (lanes: the key, the sum of the bits) and joined in
        // one vector or (lanes: the union of the keys, of the bits), which
        // take two integer operations a card fewer than one lane at a time.
        //
        // Checked in aggregate, branch-free per card. A card of the deck
        // has bits only in its rank's four (16 to 19) and its suit's two
        // (0 and 1): the union of the cards shows any other (a negative
        // card has them all). Ranks 13 to 15 read the poisoned keys of cards
        // 52 to 63, seen in the keys' union. The cards' bits summed differ
        // from their union when a card comes twice (no carry passes bit 63:
        // the bits are below 2^61, seven at most). The index is in 0..128
        // whatever the card, so a bad card only reads a wrong entry before
        // it is refused.
        let (mut sums, mut ors, mut all) = (u64x2::new([BIASED_SUITS, 0]), u64x2::new([0, 0]), 0u64);
        for c in cards {
            let c = c.int() as u64;
            all |= c;
            // Twice rank * 4 + suit on a card of the deck, in one multiply
            // (by an immediate: a 32-bit one) and one shift: [`INDEX`] moves
            // the rank's four bits to bits 28 to 31, the suit's two to 26
            // and 27 and the card's bit 13 (0 on a card of the deck) to bit
            // 25; what else the product holds is below bit 25, without a
            // carry into it, or past bit 31.
            let at = ((c as u32).wrapping_mul(INDEX) >> 25) as usize;
            let card = u64x2::new([self.cards[at], self.cards[at + 1]]);
            sums += card;
            ors |= card;
        }
        let ([key, sum], [keys, mask]) = (sums.to_array(), ors.to_array());
        // One test of the three checks: with a branch each, the compiler
        // delays the key's sum past the first and keeps every card's
        // index alive (spilled) until then.
        let bad = (all & !(0xf << SUIT_BITS | 3)) | (keys & POISONED) | (sum ^ mask);
        if bad != 0 {
            return None;
        }
        Some(self.value(key, mask))
    }

    /// The value of the hand whose keys sum to `key` and whose cards are `mask`.
    #[inline]
    fn value(&self, key: u64, mask: u64) -> u16 {
        let flush = key & 0x8888 << SUIT_COUNTERS;
        if flush != 0 {
            // At most one suit has 5 of 7 cards: its counter's top bit.
            let suit = (flush.trailing_zeros() - SUIT_COUNTERS - 3) / 4;
            return FLUSH[(mask >> (suit * SUIT_STRIDE)) as usize & 0x1fff];
        }
        let rank_key = key as u32;
        let offset = ROW_OFFSETS[(rank_key >> ROW_SHIFT) as usize & (ROWS - 1)];
        LOOKUP[rank_key.wrapping_add(offset) as usize & (LOOKUP_LEN - 1)]
    }
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
/// its weight and then the other from what is left is not.
///
/// Checked, counted and their steps taken at once when made (the first
/// weight's product that overflows fails after the steps), then made one
/// at a time by [`Pairs::iter`], without a list: both executions' chance
/// over `deal_hands` make their candidates from them (the interpreter's
/// rows, generated code's tuples by [`Pairs::deals`]), so that the pairs
/// are not also held as a list (with every hand, 1.07M pairs of 24 bytes;
/// generated code's deals of 40).
pub struct Pairs<'a, H> {
    first: &'a [(H, i64)],
    second: &'a [(H, i64)],
    /// The hands of each range that share no card with the board.
    live: [Vec<usize>; 2],
    len: usize,
}

impl<'a, H: AsRef<[i64]>> Pairs<'a, H> {
    pub fn new(
        first: &'a [(H, i64)],
        second: &'a [(H, i64)],
        board: &[i64],
        left: &mut u64,
        limit: u64,
        at: impl At,
    ) -> Result<Self, GameError> {
        let live = |hands: &[(H, i64)]| -> Vec<usize> {
            (0..hands.len()).filter(|&i| !meets(hands[i].0.as_ref(), board)).collect()
        };
        let mut pairs = Pairs { first, second, live: [live(first), live(second)], len: 0 };
        // Counted before any is made, so a deal too large fails at once;
        // the first product that overflows fails after the steps, where
        // the list's making met it.
        let (mut len, mut overflow) = (0, None);
        for (i, j) in pairs.indexes() {
            len += 1;
            if overflow.is_none() && first[i].1.checked_mul(second[j].1).is_none() {
                overflow = Some((i, j));
            }
        }
        pairs.len = len;
        if pairs.len == 0 {
            let [ones, twos] = &pairs.live;
            return Err(no_deal([(first.len(), ones.len()), (second.len(), twos.len())], at));
        }
        make_items(left, pairs.len, limit, at)?;
        if let Some((i, j)) = overflow {
            mul(first[i].1, second[j].1, at)?;
        }
        Ok(pairs)
    }

    /// How many pairs.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never: a deal of no pair fails in [`Pairs::new`].
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The indexes of the pairs, in order.
    fn indexes(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let [ones, twos] = &self.live;
        ones.iter().flat_map(move |&i| {
            twos.iter()
                .filter(move |&&j| !meets(self.first[i].0.as_ref(), self.second[j].0.as_ref()))
                .map(move |&j| (i, j))
        })
    }

    /// The pairs, in order: their indexes and the product of their
    /// weights (none overflows: checked by [`Pairs::new`]).
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, i64)> + '_ {
        self.indexes().map(|(i, j)| (i, j, self.first[i].1.wrapping_mul(self.second[j].1)))
    }
}

impl Pairs<'_, List<i64>> {
    /// The deals as generated code holds them, in order.
    pub fn deals(&self) -> impl Iterator<Item = Deal> + '_ {
        self.iter().map(|(i, j, w)| (self.first[i].0.clone(), self.second[j].0.clone(), w))
    }
}

/// Whether hands (or a hand and the board) share a card.
fn meets(a: &[i64], b: &[i64]) -> bool {
    a.iter().any(|c| b.contains(c))
}

/// Why [`Pairs::new`] deals no pair, from each range's hands and those of
/// them that share no card with the board: a range is empty, or every hand
/// of one meets the board, or every pair shares a card. A deal of nothing
/// would leave the game no first move; said here, in the ranges' terms.
#[cold]
#[inline(never)]
fn no_deal(ranges: [(usize, usize); 2], at: impl At) -> GameError {
    let hands = |which: &str, n: usize| match n {
        1 => format!("its {which} range's one hand"),
        n => format!("each of its {which} range's {n} hands"),
    };
    let why = match ranges {
        [(0, _), _] => "its first range has no hand".to_string(),
        [_, (0, _)] => "its second range has no hand".to_string(),
        [(n, 0), _] => format!("{} shares a card with the board", hands("first", n)),
        [_, (n, 0)] => format!("{} shares a card with the board", hands("second", n)),
        _ => "each hand of its first range shares a card with each hand of its second".to_string(),
    };
    other(format!("deal_hands deals no pair of hands: {why}"), at)
}

/// One dealt pair of hands and its weight, as generated code holds it.
pub type Deal = (List<i64>, List<i64>, i64);

/// [`Pairs`] on typed ranges, as generated code holds them: the
/// pairs made into the list in place (one allocation, no `Vec` of the
/// pairs or the deals copied into it).
pub fn deal_hands(
    first: &[(List<i64>, i64)],
    second: &[(List<i64>, i64)],
    board: &[i64],
    left: &mut u64,
    limit: u64,
    at: impl At,
) -> Result<List<Deal>, GameError> {
    let pairs = Pairs::new(first, second, board, left, limit, at)?;
    Ok(List::from_exact(pairs.len(), pairs.deals()))
}

#[cfg(test)]
#[path = "holdem_tests.rs"]
mod tests;
