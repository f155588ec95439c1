//! Card removal by inclusion-exclusion, for games whose private states are
//! hands of cards (hold'em: two cards of 52): two states conflict when
//! their hands share a card. A leaf's sums over the other player's
//! compatible states are the sums over all of them, minus those per card
//! of the hand, plus the reach of the other player's same hand (counted
//! once per card): O(n) per leaf with no conflict lists, where the lists
//! would cost O(n) per state (a hold'em hand conflicts with about a tenth
//! of the other range). A showdown takes two passes over the states in
//! rank order, one summing the other player's lower ranks and one the
//! higher, as postflop-solver does; ties are what is left.

use rustc_hash::FxHashMap;

use super::real::Real;

/// No state: a hand that no state of the other player holds.
pub const NO_SAME: u32 = u32::MAX;

/// The cards a hand may hold: 0 to 51.
const CARDS: u32 = 52;
/// Where a hand's second card adds its reach when it has none (a slot no
/// sum reads), and where such a hand subtracts from (a slot never written).
const SINK: u8 = 52;
const ZERO: u8 = 53;
/// Slots of the per-card sums: one per value of a `u8` slot (only 54 are
/// used), so that indexing them by a slot needs no bounds check.
const SLOTS: usize = 256;

/// Both players' hands, at most two cards each (bit `c` of a mask: card
/// `c`, below 52), no two states of a player with the same cards.
#[derive(Clone, Debug, PartialEq)]
pub struct Cards {
    /// Per player and state: the hand's cards as a mask.
    pub hands: [Vec<u64>; 2],
    /// Per player and state: the slots of the per-card sums its reach is
    /// added to, and those subtracted for it (see [`SINK`], [`ZERO`]).
    add: [Vec<[u8; 2]>; 2],
    sub: [Vec<[u8; 2]>; 2],
    /// Per player and state: the other player's state with the same two
    /// cards, or [`NO_SAME`].
    pub same: [Vec<u32>; 2],
}

impl Cards {
    /// The hands' slots and same hands; a hand of more than two cards, or
    /// a hand held by two states of one player, is refused.
    pub fn new(hands: [Vec<u64>; 2]) -> Result<Cards, String> {
        let mut add = [Vec::new(), Vec::new()];
        let mut sub = [Vec::new(), Vec::new()];
        let mut index: [FxHashMap<u64, u32>; 2] = Default::default();
        for (p, list) in hands.iter().enumerate() {
            for (i, &hand) in list.iter().enumerate() {
                let (first, second) =
                    (hand.trailing_zeros() as u8, (hand & hand.wrapping_sub(1)).trailing_zeros() as u8);
                if hand >> CARDS != 0 {
                    let card = 63 - hand.leading_zeros();
                    return Err(format!(
                        "state {i} of player {p} holds card {card}; card removal takes cards 0 to {}",
                        CARDS - 1
                    ));
                }
                let (a, s) = match hand.count_ones() {
                    0 => ([SINK, SINK], [ZERO, ZERO]),
                    1 => ([first, SINK], [first, ZERO]),
                    2 => ([first, second], [first, second]),
                    k => {
                        return Err(format!("state {i} of player {p} holds {k} cards; card removal takes at most two"))
                    }
                };
                add[p].push(a);
                sub[p].push(s);
                if hand.count_ones() == 2 && index[p].insert(hand, i as u32).is_some() {
                    return Err(format!("two states of player {p} hold the same cards; card removal needs one"));
                }
            }
        }
        let same = [0, 1]
            .map(|p| hands[p].iter().map(|h| index[1 - p].get(h).copied().unwrap_or(NO_SAME)).collect::<Vec<u32>>());
        Ok(Cards { hands, add, sub, same })
    }

    /// The hands that the states' labels name, when they explain the
    /// deal's conflicts exactly: each label's cards (as labels show
    /// them, `card(12, 0)`) are its state's hand, and two states must conflict
    /// (`conflicts(i, j)`, player 0's `i` and player 1's `j`) exactly when
    /// their hands share a card. `None` when no label names a card, one names more
    /// than two, or the hands do not explain the conflicts (the labels are
    /// only read, never trusted: the check makes the removal exact).
    pub fn from_labels(labels: [&[String]; 2], conflicts: impl Fn(usize, usize) -> bool) -> Option<Cards> {
        let [h0, h1] = labels.map(|list| list.iter().map(|label| cards_in(label)).collect::<Option<Vec<u64>>>());
        let hands = [h0?, h1?];
        if hands.iter().flatten().all(|&h| h == 0) {
            return None;
        }
        let cards = Cards::new(hands).ok()?;
        let [h0, h1] = &cards.hands;
        let explained =
            h0.iter().enumerate().all(|(i, a)| h1.iter().enumerate().all(|(j, b)| (a & b != 0) == conflicts(i, j)));
        explained.then_some(cards)
    }

    /// Whether the arrays fit `n` states per player.
    pub fn fits(&self, n: [usize; 2]) -> bool {
        (0..2).all(|p| {
            self.hands[p].len() == n[p]
                && self.add[p].len() == n[p]
                && self.sub[p].len() == n[p]
                && self.same[p].len() == n[p]
                && self.same[p].iter().all(|&j| j == NO_SAME || (j as usize) < n[1 - p])
        })
    }
}

/// The cards a label shows ([`galac_runtime::labels::cards_shown`]) as a
/// mask, bit `4 * rank + suit`; `None` for a card outside the 52.
fn cards_in(label: &str) -> Option<u64> {
    let mut mask = 0u64;
    for (rank, suit) in galac_runtime::labels::cards_shown(label) {
        if !((0..13).contains(&rank) && (0..4).contains(&suit)) {
            return None;
        }
        mask |= 1 << (4 * rank + suit);
    }
    Some(mask)
}

/// The other player's reach summed over a set of its states, in total and
/// per card slot (the slots in a leaf's scratch, reused from leaf to leaf;
/// the total a local, kept in a register through the passes).
struct Sums<'a> {
    all: f64,
    card: &'a mut [f64; SLOTS],
}

/// The slots that sums write or read: the cards, [`SINK`] and [`ZERO`].
const USED: usize = ZERO as usize + 1;

impl Sums<'_> {
    /// Empty sums in `card`: the slots in use zeroed, as no other is ever
    /// written.
    #[inline(always)]
    fn zeroed(card: &mut [f64; SLOTS]) -> Sums<'_> {
        card[..USED].fill(0.0);
        Sums { all: 0.0, card }
    }

    #[inline(always)]
    fn add(&mut self, [a, b]: [u8; 2], r: f64) {
        self.all += r;
        self.card[usize::from(a)] += r;
        self.card[usize::from(b)] += r;
    }

    /// The sum over the states sharing no card with a hand (`sub` its
    /// slots), but for the same hand, which the caller adds back.
    #[inline(always)]
    fn apart(&self, [a, b]: [u8; 2]) -> f64 {
        self.all - self.card[usize::from(a)] - self.card[usize::from(b)]
    }
}

/// Every compatible pair pays `v` to player `p`.
pub fn constant<T: Real>(cards: &Cards, p: usize, v: f64, opp: &[T], out: &mut [T]) {
    SCRATCH.with_borrow_mut(|scratch| fold(cards, p, v, &mut scratch.sums[0], opp, out))
}

/// [`constant`] with its sums' slots (a function of its own, so that the
/// slices are its arguments, which the stores to `out` cannot alias).
fn fold<T: Real>(cards: &Cards, p: usize, v: f64, sums: &mut [f64; SLOTS], opp: &[T], out: &mut [T]) {
    let mut all = Sums::zeroed(sums);
    // A reach is never negative (weights, probabilities and strategies
    // multiplied), so `> 0` tells the live states in one branch where
    // `!= 0` takes a second for NaN (a NaN reach, which only regrets that
    // overflowed give, counts as none).
    for (&a, &r) in cards.add[1 - p].iter().zip(opp) {
        if r > T::zero() {
            all.add(a, r.wide());
        }
    }
    // No reach at all (a line the other player no longer takes: positive
    // reaches never sum to 0): every state's sum is `+0` however the zeros
    // are signed, so the value is `v * 0` throughout, as the loop would
    // write it.
    if all.all == 0.0 {
        out.fill(T::of(v * 0.0));
        return;
    }
    for ((x, &s), &same) in out.iter_mut().zip(&cards.sub[p]).zip(&cards.same[p]) {
        // `NO_SAME` is past the end: one comparison for both.
        let back = opp.get(same as usize).map_or(0.0, |r| r.wide());
        *x = T::of(v * (all.apart(s) + back));
    }
}

/// A private state at a showdown, with what the showdown's evaluation
/// reads of it, so that its passes over the states in rank order read one
/// record per state ([`Cards::ranked`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    pub rank: u32,
    pub state: u32,
    /// The slots its reach is added to, as the other player's state, and
    /// those subtracted for it ([`Cards`]'s `add` and `sub`).
    add: [u8; 2],
    sub: [u8; 2],
    /// The other player's state with the same cards, or [`NO_SAME`].
    same: u32,
    /// That state's rank against this one's, `Equal` without one. A pair
    /// that is never dealt is never compared, so the ranks worked out from
    /// the deals may set the same hand apart (hold'em's often do).
    side: std::cmp::Ordering,
}

/// One player's states at a showdown in rank order ([`Ranked`]), and the
/// runs of them of equal rank, so that the passes compare the other
/// player's ranks with a run's, not with each state's.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    pub states: Vec<Ranked>,
    /// Each of `states`' `sub` slots, in the same order: what the pass
    /// going up reads, one after the other.
    subs: Vec<[u8; 2]>,
    /// The runs of equal rank, in order: consecutive, their lengths
    /// adding up to `states`' (no run is empty).
    runs: Vec<Run>,
    /// The states left out of `states`: the deal never gives them at a
    /// showdown of this ranking (a card of the board holds a card of
    /// theirs). As the other player's, their reach there is zero; as the
    /// player's valued, their values are zero (the chance node above
    /// zeroes them anyway).
    dropped: Vec<u32>,
}

/// The next `len` states of an [`Order`] (after the runs before) have
/// rank `rank`; `apart` when some of them have the other player's same
/// hand at another rank (`side` not `Equal`), so that only such runs take
/// the test of it going down. The passes take a run's states off the
/// front (or the back) of what is left, so a run costs one length's
/// check, not a range's.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Run {
    rank: u32,
    len: u32,
    apart: bool,
}

/// The most bytes an [`Order`] takes per state (a run per state at most).
pub const ORDER_BYTES: usize = size_of::<Ranked>() + size_of::<[u8; 2]>() + size_of::<Run>();

impl Cards {
    /// Each player's states in the rank order of a showdown's ranking
    /// (`rank` and `sorted`: a `game::Ranking`'s), as [`showdown`] reads
    /// them, but those `never` marks (per player and state: never dealt
    /// at a showdown of this ranking; see [`Order`]'s `dropped`).
    pub fn ranked(&self, rank: &[Vec<u32>; 2], sorted: &[Vec<(u32, u32)>; 2], never: &[Vec<bool>; 2]) -> [Order; 2] {
        [0, 1].map(|p| {
            let dealt = |i: u32| !never[p].get(i as usize).copied().unwrap_or(false);
            let dropped = sorted[p].iter().map(|&(_, i)| i).filter(|&i| !dealt(i)).collect();
            let states: Vec<Ranked> = sorted[p]
                .iter()
                .filter(|&&(_, i)| dealt(i))
                .map(|&(r, i)| {
                    let i = i as usize;
                    let same = self.same[p][i];
                    let side =
                        if same == NO_SAME { std::cmp::Ordering::Equal } else { rank[1 - p][same as usize].cmp(&r) };
                    Ranked { rank: r, state: i as u32, add: self.add[p][i], sub: self.sub[p][i], same, side }
                })
                .collect();
            let runs = states
                .chunk_by(|a, b| a.rank == b.rank)
                .map(|run| Run {
                    rank: run[0].rank,
                    len: run.len() as u32,
                    apart: run.iter().any(|s| s.side != std::cmp::Ordering::Equal),
                })
                .collect();
            let subs = states.iter().map(|s| s.sub).collect();
            Order { states, subs, runs, dropped }
        })
    }
}

/// The other player's state at a showdown, in its passes: its rank, the
/// slots its reach adds to, and that reach (not zero).
#[derive(Clone, Copy, Debug)]
struct Live {
    rank: u32,
    add: [u8; 2],
    reach: f64,
}

/// Per thread, what the leaves reuse from one to the next.
struct Scratch {
    /// The other player's states of nonzero reach at the showdown being
    /// evaluated, in rank order: grown once to the larger player's
    /// states, then reused by every showdown.
    live: Vec<Live>,
    /// The pass going up's sums over the lower ranks, per state of the
    /// player valued in rank order (each rounded to the walk's `Real`, as
    /// stored in the values before), read back going down; grown as `live`.
    lo: Vec<f64>,
    /// Two sets of per-card sums ([`Sums`]), zeroed by each leaf that uses them.
    sums: [[f64; SLOTS]; 2],
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> =
        const { std::cell::RefCell::new(Scratch { live: Vec::new(), lo: Vec::new(), sums: [[0.0; SLOTS]; 2] }) };
}

/// A showdown (see [`super::leaf`]): player `p`'s states in rank order
/// (`ranked`: [`Cards::ranked`] of the showdown's ranking), the other
/// player's reach over the lower ranks summed going up and over the
/// higher ones going down; the equal ranks are the rest. The other
/// player's states of zero reach (most of them deep in the tree, where
/// its strategy has settled) are left out once, before both passes.
pub fn showdown<T: Real>(ranked: &[Order; 2], p: usize, stakes: [f64; 3], opp: &[T], out: &mut [T]) {
    showdown_and_constant::<T, false>(ranked, p, stakes, 0.0, opp, out, &mut [])
}

/// A showdown into `out` and, when `CONSTANT`, a leaf where every
/// compatible pair pays `v` to player `p` ([`constant`]) into `constant`,
/// against the same reach `opp`: a fold beside the call of the same
/// player (both children of that player's decision, which leaves the
/// other's reach as it is). The fold's sums over the other player's
/// states are the showdown's over the lower ranks carried on to the top,
/// so it costs a product per state. `ranked[p]` must hold each of `p`'s
/// states once (see [`super::leaf::Leaves`]) when `CONSTANT`.
pub fn showdown_and_constant<T: Real, const CONSTANT: bool>(
    ranked: &[Order; 2],
    p: usize,
    stakes: [f64; 3],
    v: f64,
    opp: &[T],
    out: &mut [T],
    constant: &mut [T],
) {
    SCRATCH.with_borrow_mut(|Scratch { live, lo, sums: [below, above] }| {
        let theirs = &ranked[1 - p].states;
        if live.len() < theirs.len() {
            live.resize(theirs.len(), Live { rank: 0, add: [SINK; 2], reach: 0.0 });
        }
        if lo.len() < ranked[p].states.len() {
            lo.resize(ranked[p].states.len(), 0.0);
        }
        let live = live_states(theirs, opp, live);
        let scratch = [below, above];
        // No live state: the other player's reach is zero throughout (the
        // states left out of the ranking's are never dealt here, and so
        // zeroed by the chance node above).
        if live.is_empty() {
            no_reach::<T, CONSTANT>(&ranked[p], stakes, v, out, constant)
        } else if stakes[2] == 0.0 {
            // A tie that pays nothing needs no sum over every state.
            passes::<T, false, CONSTANT>(&ranked[p], live, lo, scratch, stakes, v, opp, out, constant)
        } else {
            passes::<T, true, CONSTANT>(&ranked[p], live, lo, scratch, stakes, v, opp, out, constant)
        }
        for &i in &ranked[p].dropped {
            out[i as usize] = T::zero();
            if CONSTANT {
                constant[i as usize] = T::zero();
            }
        }
    })
}

/// The states of `theirs` whose reach in `opp` is not zero, written into
/// the front of `live` (as long as `theirs`), which is returned.
#[inline(never)]
fn live_states<'a, T: Real>(theirs: &[Ranked], opp: &[T], live: &'a mut [Live]) -> &'a [Live] {
    let live = &mut live[..theirs.len()];
    let mut len = 0;
    for t in theirs {
        let reach = opp[t.state as usize];
        // Never negative: `> 0` is one branch (see [`fold`]).
        if reach > T::zero() {
            live[len] = Live { rank: t.rank, add: t.add, reach: reach.wide() };
            len += 1;
        }
    }
    &live[..len]
}

/// A showdown's values where the other player's reach is zero throughout
/// (a line it no longer takes): what [`passes`] writes then, the sums
/// all `+0` (a zero reach's sign is lost in the sums), once for every state.
fn no_reach<T: Real, const CONSTANT: bool>(
    mine: &Order,
    [win, lose, tie]: [f64; 3],
    v_constant: f64,
    out: &mut [T],
    constant: &mut [T],
) {
    let (lo, hi, total) = (0.0, 0.0, 0.0);
    let mut v = win * lo + lose * hi;
    // As `passes` does: a tie that pays nothing adds no term.
    if tie != 0.0 {
        v += tie * (total - lo - hi);
    }
    let v = T::of(v);
    let c = T::of(v_constant * total);
    for m in &mine.states {
        out[m.state as usize] = v;
        if CONSTANT {
            constant[m.state as usize] = c;
        }
    }
}

/// [`showdown`]'s two passes over `mine` in rank order against `live`,
/// with two sets of sums to zero and fill and `lo` (as long as `mine`'s
/// states) for the sums going up; `TIE` when a tie pays something. A
/// state's value is `win * lo + lose * hi + tie * (total - lo - hi)` over
/// the compatible reach below (`lo`), above (`hi`) and in total: `lo` is
/// kept going up (rounded to `T`), and the value written going down.
/// With `CONSTANT`, `constant` gets `v * total` ([`showdown_and_constant`]).
#[allow(clippy::too_many_arguments)]
fn passes<T: Real, const TIE: bool, const CONSTANT: bool>(
    mine: &Order,
    live: &[Live],
    lo: &mut [f64],
    [below, above]: [&mut [f64; SLOTS]; 2],
    [win, lose, tie]: [f64; 3],
    v_constant: f64,
    opp: &[T],
    out: &mut [T],
    constant: &mut [T],
) {
    // As long as `out` (with `CONSTANT`), so that one bounds check of a
    // state serves both.
    let constant = if CONSTANT { &mut constant[..out.len()] } else { constant };
    // Going up: the reach below each rank, in rank order (the other
    // player's same hand is added back going down).
    let mut below = Sums::zeroed(below);
    let mut theirs = live;
    let (mut subs, mut los) = (&mine.subs[..], &mut lo[..mine.subs.len()]);
    for &Run { rank, len, .. } in &mine.runs {
        while let [t, rest @ ..] = theirs {
            if t.rank >= rank {
                break;
            }
            below.add(t.add, t.reach);
            theirs = rest;
        }
        let (run_subs, subs_rest) = subs.split_at(len as usize);
        let (run_los, los_rest) = std::mem::take(&mut los).split_at_mut(len as usize);
        for (x, &sub) in run_los.iter_mut().zip(run_subs) {
            *x = T::of(below.apart(sub)).wide();
        }
        (subs, los) = (subs_rest, los_rest);
    }
    // With ties or a constant, `below` goes on to sum every live state.
    if TIE || CONSTANT {
        theirs.iter().for_each(|t| below.add(t.add, t.reach));
    }
    // Going down: the reach above, and the values.
    let mut above = Sums::zeroed(above);
    let mut theirs = live;
    let (mut states, mut los) = (&mine.states[..], &lo[..mine.states.len()]);
    for &Run { rank, len, apart } in mine.runs.iter().rev() {
        while let [rest @ .., t] = theirs {
            if t.rank <= rank {
                break;
            }
            above.add(t.add, t.reach);
            theirs = rest;
        }
        let (states_rest, run) = states.split_at(states.len() - len as usize);
        let (los_rest, run_los) = los.split_at(los.len() - len as usize);
        let (run, stakes) = (run.iter().zip(run_los).rev(), [win, lose, tie]);
        if apart {
            run.for_each(|(m, &lo)| {
                down::<T, TIE, CONSTANT, true>(m, lo, &below, &above, stakes, v_constant, opp, out, constant)
            });
        } else {
            run.for_each(|(m, &lo)| {
                down::<T, TIE, CONSTANT, false>(m, lo, &below, &above, stakes, v_constant, opp, out, constant)
            });
        }
        (states, los) = (states_rest, los_rest);
    }
}

/// A state's value going down (see [`passes`]), `lo` its sum going up:
/// `below` sums every live
/// state with `TIE` or `CONSTANT`, `above` those of a higher rank;
/// `APART` when the other player's same hand may be ranked apart from it
/// (else `side` is `Equal`: the run holds none such).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn down<T: Real, const TIE: bool, const CONSTANT: bool, const APART: bool>(
    m: &Ranked,
    lo: f64,
    below: &Sums,
    above: &Sums,
    [win, lose, tie]: [f64; 3],
    v_constant: f64,
    opp: &[T],
    out: &mut [T],
    constant: &mut [T],
) {
    let i = m.state as usize;
    let (mut lo, mut hi) = (lo, above.apart(m.sub));
    // The other player's same hand, taken out twice (once per card):
    // back into the sum of its side (`side` is `Equal` without one).
    if APART && m.side != std::cmp::Ordering::Equal {
        let back = opp[m.same as usize].wide();
        if m.side == std::cmp::Ordering::Less {
            lo += back;
        } else {
            hi += back;
        }
    }
    let mut v = win * lo + lose * hi;
    if TIE || CONSTANT {
        // The compatible total: `apart` took the same hand out twice.
        let back = opp.get(m.same as usize).map_or(0.0, |r| r.wide());
        let total = below.apart(m.sub) + back;
        if TIE {
            v += tie * (total - lo - hi);
        }
        if CONSTANT {
            constant[i] = T::of(v_constant * total);
        }
    }
    out[i] = T::of(v);
}
