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
//! outcome's amount. Runs that disagree (a set with two strengths, an
//! outcome with two amounts) are an internal error, never a wrong table.

use std::cmp::Ordering;

use super::infer::refuse;
use crate::solver::SolveError;

/// Per deal present at a leaf, each player's information set at its
/// latest decision above, from that decision's deals (`deals`, in order)
/// and their sets (`sets`); `None` when a deal present is not among them.
pub(super) fn sets_of(present: &[u32], decisions: [(&[u32], &[u32]); 2]) -> Option<[Vec<u32>; 2]> {
    let mut out = [Vec::with_capacity(present.len()), Vec::with_capacity(present.len())];
    for (p, (deals, sets)) in decisions.into_iter().enumerate() {
        // Both lists are in the deals' order: one pass.
        let mut at = 0;
        for &d in present {
            while deals.get(at).is_some_and(|&e| e != d) {
                at += 1;
            }
            out[p].push(*sets.get(at)?);
        }
    }
    Some(out)
}

/// What a run of the payoff's code gave for a deal: its payoffs and the
/// strengths ([`galac_runtime::game::Game::strengths`]).
pub(super) type Run = ([i64; 2], Option<[i64; 2]>);

/// Each deal's comparison outcome (0 below, 1 equal, 2 above: player 0's
/// strength against player 1's), in `sets`' order, and the payoffs of each
/// outcome met. `first` is the first deal's run, `run` runs the payoff's
/// code for the deal at an index of `sets`; `leaf` names the leaf in
/// errors.
pub(super) fn showdown(
    sets: &[Vec<u32>; 2],
    first: Run,
    mut run: impl FnMut(usize) -> Result<Run, SolveError>,
    leaf: &str,
) -> Result<(Vec<u8>, [[i64; 2]; 3]), SolveError> {
    let n = sets[0].len();
    // Per player, a strength per set, indexed from the least set present.
    let least = sets.each_ref().map(|s| s.iter().copied().min().unwrap_or(0));
    let class = |p: usize, i: usize| (sets[p][i] - least[p]) as usize;
    let mut met = Met {
        strength: [0, 1].map(|p| {
            let most = sets[p].iter().copied().max().unwrap_or(0);
            vec![None; (most - least[p]) as usize + 1]
        }),
        pays: [None; 3],
        leaf,
    };
    met.record([class(0, 0), class(1, 0)], first)?;
    for i in 1..n {
        let classes = [class(0, i), class(1, i)];
        if met.strength[0][classes[0]].is_none() || met.strength[1][classes[1]].is_none() {
            met.record(classes, run(i)?)?;
        }
    }
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n {
        let classes = [class(0, i), class(1, i)];
        let st = [0, 1].map(|p| met.strength[p][classes[p]].unwrap_or_default());
        let o = outcome(st[0].cmp(&st[1]));
        if met.pays[o as usize].is_none() {
            met.record(classes, run(i)?)?;
        }
        outcomes.push(o);
    }
    Ok((outcomes, met.pays.map(Option::unwrap_or_default)))
}

/// What the runs so far gave: per player, a strength per set (by class:
/// the set less the least present), and per comparison outcome its pay.
struct Met<'a> {
    strength: [Vec<Option<i64>>; 2],
    pays: [Option<[i64; 2]>; 3],
    leaf: &'a str,
}

impl Met<'_> {
    /// Records a run of a deal of these classes.
    fn record(&mut self, classes: [usize; 2], (pay, strengths): Run) -> Result<(), SolveError> {
        let Some(st) = strengths else { return Err(internal(self.leaf, "a run gives no strengths")) };
        for p in 0..2 {
            match self.strength[p][classes[p]].replace(st[p]) {
                Some(was) if was != st[p] => return Err(internal(self.leaf, "one private state has two strengths")),
                _ => {}
            }
        }
        match self.pays[outcome(st[0].cmp(&st[1])) as usize].replace(pay) {
            Some(was) if was != pay => Err(internal(self.leaf, "one comparison outcome pays two amounts")),
            _ => Ok(()),
        }
    }
}

/// A comparison outcome's index.
fn outcome(o: Ordering) -> u8 {
    match o {
        Ordering::Less => 0,
        Ordering::Equal => 1,
        Ordering::Greater => 2,
    }
}

fn internal(leaf: &str, what: &str) -> SolveError {
    refuse(format!("internal error, please report: at the showdown after {leaf}, {what}"))
}
