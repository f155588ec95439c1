//! A showdown leaf's payoffs from each player's strengths, not from the
//! payoff's code run once per deal ([`super::from_game`]'s representative
//! walk, where the game gives [`galac_runtime::game::Game::strengths`]).
//!
//! There, what a deal pays follows from the public values (the leaf's) and
//! how player 0's strength compares with player 1's, and each strength
//! follows from its player's private values. Deals whose player has the
//! same information set at its latest decision above have the same
//! private values (they are revealed to it), so the same strength. So the
//! payoff's code runs only for enough deals to meet every such set of
//! both players (a deal meets one of each), plus one per comparison
//! outcome (below, equal, above) not met yet; each deal then pays its
//! outcome's amount, a byte per deal (`Draft::outcome_table`). The
//! deals' sets are read from the decisions above as the deals are met (no
//! list per deal). Runs that disagree (a set with two strengths, an
//! outcome with two amounts) are an internal error, never a wrong table.

use std::cmp::Ordering;

use super::draft::{Deals, SetIds};
use super::infer::refuse;
use crate::solver::SolveError;

/// Per deal present at a leaf, each player's information set at its
/// latest decision above, as a class (the set less the least of the deals
/// present): read from that decision's deals (in order) and their sets as
/// the deals are met (no list of classes per deal). The showdowns below
/// one chance outcome on one line of first moves (the turn's river lines
/// at each stake) have the same deals and sets: the caller's key says so
/// ([`Sets::fill`]), and the deals to run for the strengths are found once
/// for them, and the last leaf's outcomes per deal (a byte each) kept for
/// the next whose strengths are the same.
#[derive(Default)]
pub(super) struct Sets {
    /// What the lists were filled for (the caller's key), if filled.
    key: Option<(*const Deals, [usize; 2])>,
    /// Per key filled so far, its least sets, span and runs (a few KB a
    /// key): the turn's lines of first moves reach each river card's
    /// showdowns again at new stakes, after other cards'.
    #[allow(clippy::type_complexity)]
    filled: rustc_hash::FxHashMap<(*const Deals, [usize; 2]), ([u32; 2], [usize; 2], Vec<(u32, [u32; 2])>)>,
    /// Per player, the least set of the deals present and the number of
    /// classes (from the least set to the most).
    least: [u32; 2],
    span: [usize; 2],
    /// The deals (with their classes, in order) whose runs meet
    /// every class: each deal where a class of each player is met first,
    /// then each where one of either player is.
    runs: Vec<(u32, [u32; 2])>,
    /// The strengths the outcomes below were found with (per player and
    /// class), each deal's comparison outcome, and the first deal of each.
    strength: [Vec<i64>; 2],
    outcomes: Vec<u8>,
    first: [Option<(u32, [u32; 2])>; 3],
    /// Names `outcomes`' contents: a new number each time they are found
    /// again (unique in the process), so that a table of the same
    /// outcomes takes the last one's bytes without reading them.
    outcomes_id: u64,
}

/// The next [`Sets::outcomes_id`] (0 names no outcomes).
static NEXT_OUTCOMES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The deals present and, per player, its decision's deals and their sets.
pub(super) type Decisions<'a> = (&'a Deals, [(&'a Deals, &'a SetIds); 2]);

/// Calls `f` with each deal present and its sets, in order; `false` when
/// a deal present is not among a decision's.
fn each_set((present, decisions): Decisions, mut f: impl FnMut(u32, [u32; 2])) -> bool {
    // Both lists are in the deals' order: one pass. A decision's deals
    // `0..n` (every deal: the first moves') are its sets' indices.
    let every = decisions.map(|(deals, _)| !deals.is_empty() && deals.in_order());
    if every == [true, true] {
        // Both read in place (the turn's showdowns below the first moves).
        let [(_, s0), (_, s1)] = decisions;
        if let (Some(a), Some(b)) = (s0.narrow(), s1.narrow()) {
            // Two `u16` lists (one mapped, maybe), read with no test of
            // their form per deal.
            let get = |(l, to): (&[u16], Option<&[u32]>), d: u32| {
                let s = u32::from(*l.get(d as usize)?);
                match to {
                    None => Some(s),
                    Some(to) => to.get(s as usize).copied(),
                }
            };
            for d in present.iter() {
                let (Some(x), Some(y)) = (get(a, d), get(b, d)) else { return false };
                f(d, [x, y]);
            }
            return true;
        }
        for d in present.iter() {
            let (Some(a), Some(b)) = (s0.get(d as usize), s1.get(d as usize)) else { return false };
            f(d, [a, b]);
        }
        return true;
    }
    let mut at = [0usize; 2];
    for d in present.iter() {
        let mut found = [0; 2];
        for (p, (deals, sets)) in decisions.iter().enumerate() {
            if every[p] {
                at[p] = d as usize;
            } else {
                while deals.get(at[p]).is_some_and(|e| e != d) {
                    at[p] += 1;
                }
            }
            let Some(set) = sets.get(at[p]) else { return false };
            found[p] = set;
        }
        f(d, found);
    }
    true
}

impl Sets {
    /// The classes' span and the deals to run of `deals`, unless they were
    /// found last for `key`; `false` when a deal present is not among a
    /// decision's.
    pub fn fill(&mut self, key: (*const Deals, [usize; 2]), deals: Decisions) -> bool {
        if self.key == Some(key) {
            return true;
        }
        self.key = None;
        // The outcomes kept are another key's: found again at the next leaf.
        self.strength = [Vec::new(), Vec::new()];
        if let Some((least, span, runs)) = self.filled.get(&key) {
            (self.least, self.span) = (*least, *span);
            self.runs.clone_from(runs);
            self.key = Some(key);
            return true;
        }
        // The classes span the decisions' sets (a flat pass over each,
        // not over the deals present: every deal present is a decision's).
        let span = deals.1.map(|(_, sets)| (sets.iter().min(), sets.iter().max()));
        let [(Some(l0), Some(m0)), (Some(l1), Some(m1))] = span else { return false };
        let least = [l0, l1];
        self.least = least;
        self.span = [(m0 - l0) as usize + 1, (m1 - l1) as usize + 1];
        // In one pass: each deal whose classes are both unmet is run (each
        // run meets two: the first deal, then about one a class of the
        // player with more), and each class's first deal kept; after it,
        // a class still unmet never met an unmet class of the other
        // player, so its first deal is run alone.
        let mut met = self.span.map(|n| vec![false; n]);
        let mut first = self.span.map(|n| vec![(u32::MAX, [0; 2]); n]);
        self.runs.clear();
        let found = each_set(deals, |d, sets| {
            let classes = [0, 1].map(|p| sets[p] - least[p]);
            let [a, b] = classes.map(|c| c as usize);
            if !met[0][a] && !met[1][b] {
                (met[0][a], met[1][b]) = (true, true);
                self.runs.push((d, classes));
            }
            for (p, c) in [a, b].into_iter().enumerate() {
                if first[p][c].0 == u32::MAX {
                    first[p][c] = (d, classes);
                }
            }
        });
        if !found {
            return false;
        }
        let before = self.runs.len();
        for p in 0..2 {
            let unmet = (0..self.span[p]).filter(|&c| !met[p][c] && first[p][c].0 != u32::MAX);
            self.runs.extend(unmet.map(|c| first[p][c]));
        }
        if self.runs.len() > before {
            self.runs.sort_unstable();
        }
        self.filled.insert(key, (self.least, self.span, self.runs.clone()));
        self.key = Some(key);
        true
    }

    /// Each deal's comparison outcome under `strength` (per player and
    /// class) and the first deal of each, kept for the next leaf.
    fn find_outcomes(&mut self, deals: Decisions, strength: [Vec<i64>; 2]) {
        if self.strength == strength {
            return;
        }
        self.outcomes.clear();
        // A byte a deal present (a million with every hand), not grown by doubling.
        self.outcomes.reserve_exact(deals.0.len());
        self.outcomes_id = NEXT_OUTCOMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.first = [None; 3];
        let least = self.least;
        each_set(deals, |d, sets| {
            let [a, b] = [0, 1].map(|p| sets[p] - least[p]);
            let o = outcome(strength[0][a as usize].cmp(&strength[1][b as usize]));
            self.first[o].get_or_insert((d, [a, b]));
            self.outcomes.push(o as u8);
        });
        self.strength = strength;
    }
}

/// What a run of the payoff's code gave for a deal: its payoffs and the
/// strengths ([`galac_runtime::game::Game::strengths`]).
pub(super) type Run = ([i64; 2], Option<[i64; 2]>);

/// Each comparison outcome's pay, from the runs the deals `sets` (filled
/// for `deals`) need: one per class of either player met first (`first`
/// is the first deal and its run), then one per comparison outcome not met
/// yet; `run` runs the payoff's code for a deal;
/// `leaf` names the leaf in errors. The deals' outcomes (an index of the
/// pays each) are then [`Sets::outcomes`].
pub(super) fn showdown(
    sets: &mut Sets,
    deals: Decisions,
    first: (u32, Run),
    mut run: impl FnMut(u32) -> Result<Run, SolveError>,
    leaf: &str,
) -> Result<[Option<[i64; 2]>; 3], SolveError> {
    let mut met = Showdown { strength: sets.span.map(|n| vec![None; n]), pays: [None; 3], leaf };
    for &(d, classes) in &sets.runs {
        met.record(classes, if d == first.0 { first.1 } else { run(d)? })?;
    }
    // Every class present is met: an outcome not met yet is run once, at
    // its first deal, in the deals' order.
    let strength = met.strength.each_ref().map(|s| s.iter().map(|s| s.unwrap_or_default()).collect());
    sets.find_outcomes(deals, strength);
    let mut firsts: Vec<(u32, [u32; 2])> =
        (0..3).filter(|&o| met.pays[o].is_none()).filter_map(|o| sets.first[o]).collect();
    firsts.sort_unstable();
    for (d, classes) in firsts {
        met.record(classes, run(d)?)?;
    }
    Ok(met.pays)
}

impl Sets {
    /// Each deal's comparison outcome, in order (an index of the pays
    /// [`showdown`] gave), and the number naming them (equal numbers,
    /// equal outcomes).
    pub fn outcomes(&self) -> (&[u8], u64) {
        (&self.outcomes, self.outcomes_id)
    }
}

/// What the runs gave: per player, a strength per class, and per
/// comparison outcome (player 0's strength below, equal to or above
/// player 1's) its pay.
struct Showdown<'s> {
    strength: [Vec<Option<i64>>; 2],
    pays: [Option<[i64; 2]>; 3],
    leaf: &'s str,
}

impl Showdown<'_> {
    /// Records a run of a deal of these classes.
    fn record(&mut self, classes: [u32; 2], (pay, strengths): Run) -> Result<(), SolveError> {
        let Some(st) = strengths else { return Err(internal(self.leaf, "a run gives no strengths")) };
        for p in 0..2 {
            match self.strength[p][classes[p] as usize].replace(st[p]) {
                Some(was) if was != st[p] => return Err(internal(self.leaf, "one private state has two strengths")),
                _ => {}
            }
        }
        match self.pays[outcome(st[0].cmp(&st[1]))].replace(pay) {
            Some(was) if was != pay => Err(internal(self.leaf, "one comparison outcome pays two amounts")),
            _ => Ok(()),
        }
    }
}

/// A comparison outcome's index.
fn outcome(o: Ordering) -> usize {
    match o {
        Ordering::Less => 0,
        Ordering::Equal => 1,
        Ordering::Greater => 2,
    }
}

fn internal(leaf: &str, what: &str) -> SolveError {
    refuse(format!("internal error, please report: at the showdown after {leaf}, {what}"))
}

#[cfg(test)]
mod tests {
    use super::{Deals, SetIds, Sets};

    /// The runs meet every class of both players, in the deals' order from
    /// the first: on every pair of 4 x 4 classes dealt in order (player
    /// 0's slowest), one run per class of each player at once (4, where
    /// running each deal that meets a class of either would take 7); with
    /// a pair missing, the class it leaves unmet alone is run at its first
    /// deal.
    #[test]
    fn runs_meet_every_class_pairing_both_players() {
        for missing in [None, Some((3, 3))] {
            let pairs: Vec<(u32, u32)> =
                (0..4).flat_map(|i| (0..4).map(move |j| (i, j))).filter(|&p| Some(p) != missing).collect();
            let all: Vec<u32> = (0..pairs.len() as u32).collect();
            let sets = [pairs.iter().map(|p| 10 + p.0).collect::<Vec<u32>>(), pairs.iter().map(|p| 20 + p.1).collect()];
            let ids: [SetIds; 2] = sets.each_ref().map(|s| s.iter().copied().collect());
            let present: Deals = all.clone().into();
            // Player 0's deals listed, player 1's as every deal: the same.
            let (listed, every): (Deals, Deals) = (all.clone().into(), Deals::All(all.len()));
            let deals = (&present, [(&listed, &ids[0]), (&every, &ids[1])]);
            let mut s = Sets::default();
            assert!(s.fill((&present as *const Deals, [0, 1]), deals));
            let runs: Vec<u32> = s.runs.iter().map(|r| r.0).collect();
            assert_eq!(runs[0], 0);
            assert!(runs.windows(2).all(|w| w[0] < w[1]), "{runs:?}");
            for p in 0..2 {
                let mut met: Vec<u32> = runs.iter().map(|&i| sets[p][i as usize] - [10, 20][p]).collect();
                met.sort_unstable();
                met.dedup();
                assert_eq!(met, [0, 1, 2, 3], "player {p}");
            }
            for &(i, classes) in &s.runs {
                assert_eq!(classes, [sets[0][i as usize] - 10, sets[1][i as usize] - 20]);
            }
            assert_eq!(runs.len(), if missing.is_none() { 4 } else { 5 }, "{runs:?}");
        }
    }

    /// Keys filled in turn (two lists of deals present, as two river
    /// cards' showdowns met again) give each the runs a fresh fill gives,
    /// and the outcomes found after a key changes are that key's.
    #[test]
    fn runs_kept_per_key_are_each_keys_own() {
        let pairs: Vec<(u32, u32)> = (0..3).flat_map(|i| (0..3).map(move |j| (i, j))).collect();
        let all: Vec<u32> = (0..pairs.len() as u32).collect();
        let sets = [pairs.iter().map(|p| p.0).collect::<Vec<u32>>(), pairs.iter().map(|p| p.1).collect()];
        let ids: [SetIds; 2] = sets.each_ref().map(|s| s.iter().copied().collect());
        let every = Deals::All(all.len());
        let decisions = [(&every, &ids[0]), (&every, &ids[1])];
        let (a, b): (Deals, Deals) = (vec![0, 4, 8].into(), vec![1, 2, 5, 6].into());
        let fresh = |present: &Deals| {
            let mut s = Sets::default();
            assert!(s.fill((present as *const Deals, [0, 1]), (present, decisions)));
            s.runs.clone()
        };
        let mut s = Sets::default();
        for present in [&a, &b, &a, &b] {
            assert!(s.fill((present as *const Deals, [0, 1]), (present, decisions)));
            assert_eq!(s.runs, fresh(present));
            s.find_outcomes((present, decisions), [vec![0, 1, 2], vec![0, 1, 2]]);
            let want: Vec<u8> =
                present.iter().map(|d| super::outcome(pairs[d as usize].0.cmp(&pairs[d as usize].1)) as u8).collect();
            assert_eq!(s.outcomes().0, &want[..]);
        }
    }
}
