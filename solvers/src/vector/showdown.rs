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
//! outcome's amount. No list per deal is made: the deals' sets are read
//! from the decisions above as the deals are met. Runs that disagree (a set with two strengths, an
//! outcome with two amounts) are an internal error, never a wrong table.

use std::cmp::Ordering;

use super::infer::refuse;
use crate::solver::SolveError;

/// Per deal present at a leaf, each player's information set at its
/// latest decision above: read from that decision's deals (in order) and
/// their sets, as the deals are met (no list per deal).
pub(super) struct Sets<'a> {
    present: &'a [u32],
    decisions: [(&'a [u32], &'a [u32]); 2],
    /// Per player, the least set of a deal present.
    least: [u32; 2],
    /// Per player, the number of sets from the least to the most.
    span: [usize; 2],
}

impl<'a> Sets<'a> {
    /// The sets of the deals `present` from each player's decision above
    /// (its deals and their sets); `None` when a deal present is not
    /// among a decision's.
    pub fn new(present: &'a [u32], decisions: [(&'a [u32], &'a [u32]); 2]) -> Option<Sets<'a>> {
        let mut sets = Sets { present, decisions, least: [u32::MAX; 2], span: [0; 2] };
        let (mut least, mut most) = ([u32::MAX; 2], [0; 2]);
        for found in sets.each() {
            let found = found?;
            for p in 0..2 {
                least[p] = least[p].min(found[p]);
                most[p] = most[p].max(found[p]);
            }
        }
        sets.least = least;
        sets.span = [0, 1].map(|p| most[p].saturating_sub(least[p]) as usize + 1);
        Some(sets)
    }

    /// Per deal present, in order, each player's set, if found.
    fn each(&self) -> impl Iterator<Item = Option<[u32; 2]>> + '_ {
        // Both lists are in the deals' order: one pass.
        let mut at = [0usize; 2];
        self.present.iter().map(move |&d| {
            let mut found = [0; 2];
            for (p, (deals, sets)) in self.decisions.iter().enumerate() {
                while deals.get(at[p]).is_some_and(|&e| e != d) {
                    at[p] += 1;
                }
                found[p] = *sets.get(at[p])?;
            }
            Some(found)
        })
    }

    /// Per deal present, in order, each player's class: its set less the
    /// least (every deal's found: [`Sets::new`]).
    fn classes(&self) -> impl Iterator<Item = [usize; 2]> + '_ {
        self.each().map(|found| {
            let found = found.unwrap_or(self.least);
            [0, 1].map(|p| (found[p] - self.least[p]) as usize)
        })
    }
}

/// What a run of the payoff's code gave for a deal: its payoffs and the
/// strengths ([`galac_runtime::game::Game::strengths`]).
pub(super) type Run = ([i64; 2], Option<[i64; 2]>);

/// Each player's strength per class and each comparison outcome's pay,
/// from the runs the deals `sets` need: `first` is the first deal's run,
/// `run` runs the payoff's code for the deal at an index of the deals;
/// `leaf` names the leaf in errors. [`Showdown::pays`] then pays each deal.
pub(super) fn showdown<'s>(
    sets: &Sets,
    first: Run,
    mut run: impl FnMut(usize) -> Result<Run, SolveError>,
    leaf: &'s str,
) -> Result<Showdown<'s>, SolveError> {
    let mut met = Showdown { strength: sets.span.map(|n| vec![None; n]), pays: [None; 3], leaf };
    for (i, classes) in sets.classes().enumerate() {
        match i {
            0 => met.record(classes, first)?,
            _ if met.strength[0][classes[0]].is_none() || met.strength[1][classes[1]].is_none() => {
                met.record(classes, run(i)?)?
            }
            _ => {}
        }
    }
    for (i, classes) in sets.classes().enumerate() {
        if met.pays[met.outcome(classes)].is_none() {
            met.record(classes, run(i)?)?;
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
    fn record(&mut self, classes: [usize; 2], (pay, strengths): Run) -> Result<(), SolveError> {
        let Some(st) = strengths else { return Err(internal(self.leaf, "a run gives no strengths")) };
        for p in 0..2 {
            match self.strength[p][classes[p]].replace(st[p]) {
                Some(was) if was != st[p] => return Err(internal(self.leaf, "one private state has two strengths")),
                _ => {}
            }
        }
        match self.pays[outcome(st[0].cmp(&st[1]))].replace(pay) {
            Some(was) if was != pay => Err(internal(self.leaf, "one comparison outcome pays two amounts")),
            _ => Ok(()),
        }
    }

    /// The comparison outcome of a deal of these classes (both met).
    fn outcome(&self, classes: [usize; 2]) -> usize {
        let [a, b] = [0, 1].map(|p| self.strength[p][classes[p]].unwrap_or_default());
        outcome(a.cmp(&b))
    }

    /// What each deal of `sets` pays, in order (every outcome met: [`showdown`]).
    pub fn pays<'a>(&'a self, sets: &'a Sets) -> impl Iterator<Item = [i64; 2]> + 'a {
        sets.classes().map(|classes| self.pays[self.outcome(classes)].unwrap_or_default())
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
