//! Card removal by inclusion-exclusion, for games whose private states are
//! hands of cards (hold'em: two cards of 52): two states conflict when
//! their hands share a card. A leaf's sums over the other player's
//! compatible states are the sums over all of them, minus those per card
//! of the hand, plus the sum over the states holding both of its cards
//! (the same hand, counted twice by the cards): O(n) per leaf with no
//! conflict lists, where the lists would cost O(n) per state (a hold'em
//! hand conflicts with about a tenth of the other range).

use rustc_hash::FxHashMap;

/// A state whose hand has fewer than two cards (no same-hand sum).
pub const NO_PAIR: u32 = u32::MAX;

/// Both players' hands as card masks (bit `c`: card `c`), at most two
/// cards each, and each two-card hand's slot among the distinct two-card
/// hands of both players (the same hand has the same slot).
#[derive(Clone, Debug, PartialEq)]
pub struct Cards {
    pub hands: [Vec<u64>; 2],
    pub pair: [Vec<u32>; 2],
    pub n_pairs: usize,
}

impl Cards {
    /// The hands' slots; a hand of more than two cards is refused.
    pub fn new(hands: [Vec<u64>; 2]) -> Result<Cards, String> {
        let mut slots: FxHashMap<u64, u32> = FxHashMap::default();
        let mut pair = [Vec::new(), Vec::new()];
        for (p, list) in hands.iter().enumerate() {
            for (i, &hand) in list.iter().enumerate() {
                let slot = match hand.count_ones() {
                    0 | 1 => NO_PAIR,
                    2 => {
                        let next = slots.len() as u32;
                        *slots.entry(hand).or_insert(next)
                    }
                    k => {
                        return Err(format!("state {i} of player {p} holds {k} cards; card removal takes at most two"))
                    }
                };
                pair[p].push(slot);
            }
        }
        Ok(Cards { hands, pair, n_pairs: slots.len() })
    }

    /// Scratch a leaf's evaluation takes (three sums per two-card hand).
    pub fn scratch_len(&self) -> usize {
        3 * self.n_pairs
    }
}

/// Sums of the other player's reach: over every state, per card, and per
/// two-card hand (in `pair`, a part of the caller's scratch).
struct Sums<'s> {
    all: f64,
    card: [f64; 64],
    pair: &'s mut [f64],
}

impl<'s> Sums<'s> {
    fn new(pair: &'s mut [f64]) -> Sums<'s> {
        pair.fill(0.0);
        Sums { all: 0.0, card: [0.0; 64], pair }
    }

    #[inline]
    fn add(&mut self, hand: u64, slot: u32, r: f64) {
        self.all += r;
        let mut h = hand;
        while h != 0 {
            self.card[h.trailing_zeros() as usize] += r;
            h &= h - 1;
        }
        if slot != NO_PAIR {
            self.pair[slot as usize] += r;
        }
    }

    /// Sets the entries `hand` touches back to 0.
    #[inline]
    fn clear(&mut self, hand: u64, slot: u32) {
        self.all = 0.0;
        let mut h = hand;
        while h != 0 {
            self.card[h.trailing_zeros() as usize] = 0.0;
            h &= h - 1;
        }
        if slot != NO_PAIR {
            self.pair[slot as usize] = 0.0;
        }
    }

    /// The sum over the states that share no card with `hand`.
    #[inline]
    fn compatible(&self, hand: u64, slot: u32) -> f64 {
        let mut x = self.all;
        let mut h = hand;
        while h != 0 {
            x -= self.card[h.trailing_zeros() as usize];
            h &= h - 1;
        }
        if slot != NO_PAIR {
            x += self.pair[slot as usize];
        }
        x
    }
}

/// Every compatible pair pays `v` to player `p`.
pub fn constant(cards: &Cards, p: usize, v: f64, opp: &[f64], out: &mut [f64], scratch: &mut [f64]) {
    let o = 1 - p;
    let mut all = Sums::new(&mut scratch[..cards.n_pairs]);
    for ((&h, &s), &r) in cards.hands[o].iter().zip(&cards.pair[o]).zip(opp) {
        all.add(h, s, r);
    }
    for ((x, &h), &s) in out.iter_mut().zip(&cards.hands[p]).zip(&cards.pair[p]) {
        *x = v * all.compatible(h, s);
    }
}

/// A showdown (see [`super::leaf`]) with the sums below and at each rank
/// kept per card and per hand as the states are walked in rank order
/// (`ranking`: a `game::Ranking`'s ranks and orders).
pub fn showdown(
    cards: &Cards,
    ranking: (&[Vec<u32>; 2], &[Vec<u32>; 2]),
    p: usize,
    [win, lose, tie]: [f64; 3],
    opp: &[f64],
    out: &mut [f64],
    scratch: &mut [f64],
) {
    let (hands, pairs) = (&cards.hands[1 - p], &cards.pair[1 - p]);
    let ((rank, order), o) = (ranking, 1 - p);
    let (my_rank, their_rank, their_order) = (&rank[p], &rank[o], &order[o]);
    let (a, rest) = scratch.split_at_mut(cards.n_pairs);
    let (b, c) = rest.split_at_mut(cards.n_pairs);
    let (mut all, mut below, mut equal) = (Sums::new(a), Sums::new(b), Sums::new(&mut c[..cards.n_pairs]));
    for ((&h, &s), &r) in hands.iter().zip(pairs).zip(opp) {
        all.add(h, s, r);
    }
    let (mut k, mut group, mut at_rank) = (0usize, 0usize, u32::MAX);
    for &i in &order[p] {
        let r = my_rank[i as usize];
        if r != at_rank {
            // The last rank's group goes below: its sums start again.
            for &j in &their_order[k..group] {
                equal.clear(hands[j as usize], pairs[j as usize]);
            }
            while k < their_order.len() && their_rank[their_order[k] as usize] < r {
                let j = their_order[k] as usize;
                below.add(hands[j], pairs[j], opp[j]);
                k += 1;
            }
            group = k;
            while group < their_order.len() && their_rank[their_order[group] as usize] == r {
                let j = their_order[group] as usize;
                equal.add(hands[j], pairs[j], opp[j]);
                group += 1;
            }
            at_rank = r;
        }
        let (h, s) = (cards.hands[p][i as usize], cards.pair[p][i as usize]);
        let (lo, eq, total) = (below.compatible(h, s), equal.compatible(h, s), all.compatible(h, s));
        out[i as usize] = win * lo + tie * eq + lose * (total - lo - eq);
    }
}
