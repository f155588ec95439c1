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
/// in one pass, into a list kept from leaf to leaf (a `u32` per deal and
/// player, with no allocation once it has grown).
#[derive(Default)]
pub(super) struct Sets {
    classes: Vec<[u32; 2]>,
    /// Per player, the number of classes (from the least set to the most).
    span: [usize; 2],
}

impl Sets {
    /// The classes of the deals `present` from each player's decision above
    /// (its deals and their sets); `false` when a deal present is not
    /// among a decision's.
    pub fn fill(&mut self, present: &[u32], decisions: [(&[u32], &[u32]); 2]) -> bool {
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
        true
    }
}

/// What a run of the payoff's code gave for a deal: its payoffs and the
/// strengths ([`galac_runtime::game::Game::strengths`]).
pub(super) type Run = ([i64; 2], Option<[i64; 2]>);

/// Each player's strength per class and each comparison outcome's pay,
/// from the runs the deals `sets` need: `first` is the first deal's run,
/// `run` runs the payoff's code for the deal at an index of the deals;
/// `leaf` names the leaf in errors. [`Showdown::outcomes`] then gives each
/// deal's outcome, and [`Showdown::pays`] what each outcome pays.
pub(super) fn showdown<'s>(
    sets: &Sets,
    first: Run,
    mut run: impl FnMut(usize) -> Result<Run, SolveError>,
    leaf: &'s str,
) -> Result<Showdown<'s>, SolveError> {
    let mut met = Showdown { strength: sets.span.map(|n| vec![None; n]), pays: [None; 3], leaf };
    for (i, &classes) in sets.classes.iter().enumerate() {
        match i {
            0 => met.record(classes, first)?,
            _ if met.strength[0][classes[0] as usize].is_none() || met.strength[1][classes[1] as usize].is_none() => {
                met.record(classes, run(i)?)?
            }
            _ => {}
        }
    }
    // Every strength is met: an outcome not met yet is run once.
    let strength = met.strength.each_ref().map(|s| s.iter().map(|s| s.unwrap_or_default()).collect::<Vec<_>>());
    for (i, &[a, b]) in sets.classes.iter().enumerate() {
        if met.pays[outcome(strength[0][a as usize].cmp(&strength[1][b as usize]))].is_none() {
            met.record([a, b], run(i)?)?;
        }
    }
    Ok(met)
}

/// What the runs gave: per player, a strength per class, and per
/// comparison outcome (player 0's strength below, equal to or above
/// player 1's) its pay.
pub(super) struct Showdown<'s> {
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

    /// Each deal's comparison outcome (an index of [`Showdown::pays`]), in
    /// order, into `out` (every strength met: [`showdown`]).
    pub fn outcomes(&self, sets: &Sets, out: &mut Vec<u8>) {
        let strength = self.strength.each_ref().map(|s| s.iter().map(|s| s.unwrap_or_default()).collect::<Vec<_>>());
        out.clear();
        out.extend(
            sets.classes.iter().map(|&[a, b]| outcome(strength[0][a as usize].cmp(&strength[1][b as usize])) as u8),
        );
    }

    /// What each comparison outcome pays, where a deal has it.
    pub fn pays(&self) -> [Option<[i64; 2]>; 3] {
        self.pays
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
