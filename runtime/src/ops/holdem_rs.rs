//! The hold'em evaluator's tables made from rs_poker's values: a module
//! of the crate's build script, which writes them as the crate's statics
//! (`ops::holdem`), and of the tests, which check the evaluator against
//! rs_poker; beside a module `holdem_keys` (`holdem_keys.rs`). rs_poker is
//! a build and a dev dependency, not the crate's own: a run of galac never
//! reads rs_poker's tables, only these.

use super::holdem_keys::{class, CLASS_SHIFT, LOOKUP_LEN, RANK_KEYS, ROWS, ROW_SHIFT};
use rs_poker::core::{Card, CoreRank, Rank, SevenCardAccum, Suit, Value};

/// The perfect hash of every rank key of 5 to 7 cards (OMPEval's method):
/// each row's offset (`ROWS`), each non-flush hand's value at its key's
/// slot (`LOOKUP_LEN`), and each flush's value by its suit's 13 rank bits.
/// First fit, densest rows first; a row's offset is tried only where its
/// first key lands on a free slot.
pub fn tables() -> (Vec<u32>, Vec<u16>, Vec<u16>) {
    // Every multiset of 5 to 7 ranks (each at most four times), its rank
    // key and rs_poker's value of it with suits dealt in turn (no flush),
    // grouped by row: counted first, then placed at its row's start in
    // one array of exactly their number (a counting sort).
    let mut counts = [0u8; 13];
    fn each(counts: &mut [u8; 13], r: usize, left: u8, f: &mut impl FnMut(&[u8; 13])) {
        if r == 13 {
            let n: u8 = counts.iter().sum();
            if n >= 5 {
                f(counts);
            }
            return;
        }
        for k in 0..=left.min(4) {
            counts[r] = k;
            each(counts, r + 1, left - k, f);
        }
        counts[r] = 0;
    }
    let rank_key = |counts: &[u8; 13]| {
        let key = counts.iter().zip(RANK_KEYS).fold(0u32, |key, (&k, r)| key.wrapping_add(u32::from(k) * r));
        let row = (key >> ROW_SHIFT) as usize;
        assert!(row < ROWS, "internal error, please report: a rank key past the rows");
        (key, row)
    };
    // `start[r]..start[r + 1]`: row `r`'s hands in `hands`.
    let mut start = vec![0u32; ROWS + 1];
    each(&mut counts, 0, 7, &mut |counts| start[rank_key(counts).1 + 1] += 1);
    for r in 0..ROWS {
        start[r + 1] += start[r];
    }
    let mut hands = vec![(0u32, 0u16); start[ROWS] as usize];
    let mut next = start.clone();
    each(&mut counts, 0, 7, &mut |counts| {
        let mut acc = SevenCardAccum::new();
        let mut n = 0;
        for (r, &k) in counts.iter().enumerate() {
            for _ in 0..k {
                acc.add(RS_CARDS[r * 4 + n % 4]);
                n += 1;
            }
        }
        let (key, row) = rank_key(counts);
        hands[next[row] as usize] = (key, rs_value(acc.rank()));
        next[row] += 1;
    });
    drop(next);
    let row_of = |r: usize| &hands[start[r] as usize..start[r + 1] as usize];
    let mut order: Vec<usize> = (0..ROWS).filter(|&r| !row_of(r).is_empty()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(row_of(r).len()));
    // First fit, densest rows first; a row's offset is tried only where
    // its first key lands on a free slot.
    let mut lookup = vec![0u16; LOOKUP_LEN];
    let mut rows = vec![0u32; ROWS];
    let slot = |k: u32, offset: u32| k.wrapping_add(offset) as usize & (LOOKUP_LEN - 1);
    // Rows of one size are tried from where the last one fitted, the
    // free slots below it being mostly too scattered for them (any slot
    // that fits is right; this only keeps the first use fast).
    let (mut first_free, mut from, mut last_len) = (0, 0, 0);
    for r in order {
        let row = row_of(r);
        while lookup[first_free] != 0 {
            first_free += 1;
        }
        if row.len() != last_len {
            (from, last_len) = (first_free, row.len());
        }
        let fits = |s: usize| {
            let o = (s as u32).wrapping_sub(row[0].0);
            (lookup[s] == 0 && row.iter().all(|&(k, _)| lookup[slot(k, o)] == 0)).then_some(o)
        };
        let (at, offset) = (from..LOOKUP_LEN)
            .chain(first_free..from)
            .find_map(|s| fits(s).map(|o| (s, o)))
            .expect("internal error, please report: the hand table is too small");
        for &(k, v) in row {
            lookup[slot(k, offset)] = v;
        }
        rows[r] = offset;
        from = at;
    }
    // Every rank key found its own slot: no two hands shared a key.
    let placed = lookup.iter().filter(|&&v| v != 0).count();
    assert_eq!(placed, hands.len(), "internal error, please report: rank keys collide");
    let mut flush = vec![0u16; 1 << 13];
    for (bits, v) in flush.iter_mut().enumerate() {
        if (5..=7).contains(&bits.count_ones()) {
            let mut acc = SevenCardAccum::new();
            (0..13).filter(|r| bits >> r & 1 == 1).for_each(|r| acc.add(RS_CARDS[r * 4]));
            *v = rs_value(acc.rank());
        }
    }
    (rows, lookup, flush)
}

/// rs_poker's card of each card of the standard deck, by its number
/// `rank * 4 + suit`. Suits map one to one; which to which does not matter
/// to a hand's strength.
pub const RS_CARDS: [Card; 52] = {
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
pub fn rs_value(r: Rank) -> u16 {
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
    (class << CLASS_SHIFT) as u16 | r.value_bits()
}
