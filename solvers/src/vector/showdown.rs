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
//! outcome's amount, a byte per deal (`Draft::outcome_table`). Each
//! deal's sets are read once from the decisions above into a list reused
//! from leaf to leaf. Runs that disagree (a set with two strengths, an
//! outcome with two amounts) are an internal error, never a wrong table.

use std::cmp::Ordering;

use super::infer::refuse;
use crate::solver::SolveError;

/// Per deal present at a leaf, each player's information set at its
/// latest decision above, as a class (the set less the least of the deals
/// present): read from that decision's deals (in order) and their sets,
/// in one pass, into lists kept from leaf to leaf (no allocation once
/// they have grown). The showdowns below one chance outcome on one line of
/// first moves (the turn's river lines at each stake) have the same deals
/// and sets: the caller fills them once for all ([`Sets::fill`]'s key),
/// with the deals to run for the strengths, and the last leaf's outcomes
/// per deal are kept for the next whose strengths are the same.
#[derive(Default)]
pub(super) struct Sets {
    /// What the lists were filled for (the caller's key), if filled.
    key: Option<(*const Vec<u32>, [usize; 2])>,
    classes: Vec<[u32; 2]>,
    /// Per player, the number of classes (from the least set to the most).
    span: [usize; 2],
    /// The deals (indices) whose runs meet every class: each deal where a
    /// class of either player is met first, in order.
    runs: Vec<u32>,
    /// The strengths the outcomes below were found with (per player and
    /// class), each deal's comparison outcome, and the first deal of each.
    strength: [Vec<i64>; 2],
    outcomes: Vec<u8>,
    first: [Option<u32>; 3],
}

impl Sets {
    /// The classes of the deals `present` from each player's decision above
    /// (its deals and their sets), unless they were filled last for `key`;
    /// `false` when a deal present is not among a decision's.
    pub fn fill(
        &mut self,
        key: (*const Vec<u32>, [usize; 2]),
        present: &[u32],
        decisions: [(&[u32], &[u32]); 2],
    ) -> bool {
        if self.key == Some(key) {
            return true;
        }
        self.key = None;
        self.classes.clear();
        self.classes.reserve(present.len());
        // Both lists are in the deals' order: one pass. A decision's
        // deals `0..n` (every deal: the first moves') are its sets' indices.
        let every = decisions.map(|(deals, _)| deals.last().is_some_and(|&d| d as usize + 1 == deals.len()));
        let mut at = [0usize; 2];
        let (mut least, mut most) = ([u32::MAX; 2], [0; 2]);
        for &d in present {
            let mut found = [0; 2];
            for (p, (deals, sets)) in decisions.iter().enumerate() {
                if every[p] {
                    at[p] = d as usize;
                } else {
                    while deals.get(at[p]).is_some_and(|&e| e != d) {
                        at[p] += 1;
                    }
                }
                let Some(&set) = sets.get(at[p]) else { return false };
                found[p] = set;
                least[p] = least[p].min(set);
                most[p] = most[p].max(set);
            }
            self.classes.push(found);
        }
        for c in &mut self.classes {
            *c = [c[0] - least[0], c[1] - least[1]];
        }
        self.span = [0, 1].map(|p| most[p].saturating_sub(least[p]) as usize + 1);
        let mut met = self.span.map(|n| vec![false; n]);
        self.runs.clear();
        for (i, &[a, b]) in self.classes.iter().enumerate() {
            if !met[0][a as usize] || !met[1][b as usize] {
                (met[0][a as usize], met[1][b as usize]) = (true, true);
                self.runs.push(i as u32);
            }
        }
        self.strength = [Vec::new(), Vec::new()];
        self.key = Some(key);
        true
    }

    /// Each deal's comparison outcome under `strength` (per player and
    /// class) and the first deal of each, kept for the next leaf.
    fn find_outcomes(&mut self, strength: [Vec<i64>; 2]) {
        if self.strength == strength {
            return;
        }
        self.outcomes.clear();
        self.first = [None; 3];
        for (i, &[a, b]) in self.classes.iter().enumerate() {
            let o = outcome(strength[0][a as usize].cmp(&strength[1][b as usize]));
            self.first[o].get_or_insert(i as u32);
            self.outcomes.push(o as u8);
        }
        self.strength = strength;
    }
}

/// What a run of the payoff's code gave for a deal: its payoffs and the
/// strengths ([`galac_runtime::game::Game::strengths`]).
pub(super) type Run = ([i64; 2], Option<[i64; 2]>);

/// Each comparison outcome's pay, from the runs the deals `sets` need:
/// one per class of either player met first (`first` is the first deal's
/// run), then one per comparison outcome not met yet; `run` runs the
/// payoff's code for the deal at an index of the deals; `leaf` names the
/// leaf in errors. The deals' outcomes (an index of the pays each) are
/// then [`Sets::outcomes`].
pub(super) fn showdown(
    sets: &mut Sets,
    first: Run,
    mut run: impl FnMut(usize) -> Result<Run, SolveError>,
    leaf: &str,
) -> Result<[Option<[i64; 2]>; 3], SolveError> {
    let mut met = Showdown { strength: sets.span.map(|n| vec![None; n]), pays: [None; 3], leaf };
    for &i in &sets.runs {
        let classes = sets.classes[i as usize];
        met.record(classes, if i == 0 { first } else { run(i as usize)? })?;
    }
    // Every class present is met: an outcome not met yet is run once, at
    // its first deal, in the deals' order.
    sets.find_outcomes(met.strength.each_ref().map(|s| s.iter().map(|s| s.unwrap_or_default()).collect()));
    let mut firsts: Vec<u32> = (0..3).filter(|&o| met.pays[o].is_none()).filter_map(|o| sets.first[o]).collect();
    firsts.sort_unstable();
    for i in firsts {
        met.record(sets.classes[i as usize], run(i as usize)?)?;
    }
    Ok(met.pays)
}

impl Sets {
    /// Each deal's comparison outcome, in order (an index of the pays
    /// [`showdown`] gave).
    pub fn outcomes(&self) -> &[u8] {
        &self.outcomes
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
