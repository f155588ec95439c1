//! The deals and the states a public node's children are made from before
//! a representative walks ([`Parents`]). A deal is kept as the chance node
//! it comes out of and its outcome there ([`Dealt`]), not as a state: the
//! chance node's state (advanced, its candidates held: in the state where
//! it keeps them, [`Game::keeps_candidates`], else taken out of the game's
//! buffers, [`Game::hold_candidates`]) is kept once, and a deal's state is
//! made again from it by [`Game::apply`] ([`Game::apply_held`]) when it is
//! advanced (the hold'em spots deal both hands in one chance node, whose
//! children, kept as states, were most of the derivation's peak).

use std::rc::Rc;

use galac_runtime::game::{advance_out_of_line, Game, GameError, Held, Node};
use galac_runtime::info::InfoInterner;

use super::super::draft::{DealProbs, NONE};
use crate::solver::SolveError;

/// The deals, in the order of their paths through the chance nodes above
/// the first decision (depth first, each node's outcomes in order).
pub(in super::super) struct Dealt<S> {
    /// The states the deals are made from: each chance node above the
    /// first decision with a deal among its outcomes, advanced to it, with
    /// its candidates where the game held them apart (else the state holds
    /// them); or the root, not advanced, where it is no chance node (the
    /// one deal).
    chances: Vec<(S, Option<Held>)>,
    /// The deals as runs of consecutive outcomes of one chance node: per
    /// run (by its first deal, increasing), its first deal, its chance
    /// node's index in `chances` and the first deal's outcome there
    /// (`NONE`: the state as it is, a run of one). A chance node that deals
    /// them all is one run, not a pair of `u32`s a deal.
    runs: Vec<[u32; 3]>,
    /// The number of deals.
    len: usize,
}

impl<S> Dealt<S> {
    /// The number of deals.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Deal `d`'s chance node (its index in `chances`) and outcome there.
    fn deal(&self, d: usize) -> (u32, u32) {
        let [start, c, k] = self.runs[self.runs.partition_point(|r| r[0] as usize <= d) - 1];
        (c, if k == NONE { NONE } else { k + (d as u32 - start) })
    }

    /// The next deal: outcome `k` of chance node `c`.
    fn push(&mut self, c: u32, k: u32) {
        match self.runs.last() {
            Some(&[start, rc, rk]) if rc == c && rk != NONE && k != NONE && rk + (self.len as u32 - start) == k => {}
            _ => self.runs.push([self.len as u32, c, k]),
        }
        self.len += 1;
    }

    /// Deal `d`'s state before its first `advance`, made from its chance
    /// node's (the facts [`Game::apply`] pushes are the caller's to forget).
    fn state<G: Game<State = S>>(&self, game: &G, d: usize, info: &mut InfoInterner) -> Result<S, GameError>
    where
        S: Clone,
    {
        let (c, k) = self.deal(d);
        let (at, held) = &self.chances[c as usize];
        let mut state = at.clone();
        if k != NONE {
            apply(game, &mut state, held.as_ref(), k, info)?;
        }
        Ok(state)
    }
}

/// The deals with their probabilities ([`deals`]).
pub(in super::super) type Deals<S> = (Parents<S>, DealProbs);

/// [`Game::apply`] of outcome `k` to a copy of a chance node's state,
/// from its candidates `held` apart if the game held them.
fn apply<G: Game>(
    game: &G,
    state: &mut G::State,
    held: Option<&Held>,
    k: u32,
    info: &mut InfoInterner,
) -> Result<(), GameError> {
    match held {
        Some(held) => game.apply_held(state, held, k, info),
        None => game.apply(state, k, info),
    }
}

/// A chance node being enumerated: its state (advanced to it) and its
/// candidates where the game held them apart, its index in [`Dealt`]'s
/// `chances` once a deal comes out of it, its outcomes' probabilities,
/// the next outcome and the path's probability to it.
struct Frame<S> {
    at: S,
    held: Option<Held>,
    kept: Option<u32>,
    probs: DealProbs,
    next: usize,
    prob: f64,
    /// Whether an outcome may lead to another chance node
    /// ([`Game::chance_may_follow`]): else each is a deal, not advanced.
    chance_may_follow: bool,
}

/// The deals: the paths through the chance nodes above the first
/// decision (depth first, each node's outcomes in order), with their
/// probabilities. Each outcome's state is made and advanced once, to tell
/// a deal (not at a chance node) from a chance node further down, unless
/// the game tells that none follows ([`Game::chance_may_follow`]).
pub(in super::super) fn deals<G: Game>(game: &G, info: &mut InfoInterner) -> Result<Deals<G::State>, SolveError> {
    let (mut chances, mut deal_prob) = (Vec::<Option<(G::State, Option<Held>)>>::new(), DealProbs::default());
    let mut dealt = Dealt { chances: Vec::new(), runs: Vec::new(), len: 0 };
    let root = game.root()?;
    let mut at = root.clone();
    let start = info.mark();
    if !matches!(advance_out_of_line(game, &mut at, info)?, Node::Chance { .. }) {
        info.truncate(start);
        return Ok((
            Parents::Dealt(Dealt { chances: vec![(root, None)], runs: vec![[0, 0, NONE]], len: 1 }),
            DealProbs::Same(1.0, 1),
        ));
    }
    // The outcomes' probabilities as the draft keeps them (one where they
    // are equal: a deal each where one node deals them all, not listed),
    // read before the candidates are held, which may let the odds go.
    let chance_probs = |at: &G::State| {
        let mut probs = DealProbs::default();
        game.each_chance_prob(at, |p| probs.push(p.to_f64()));
        probs
    };
    // A game whose states neither keep their candidates nor let them be
    // held apart keeps its deals as states (and so where some chance node
    // below cannot hold them).
    let keeps = game.keeps_candidates();
    let root_probs = chance_probs(&at);
    let held = game.hold_candidates(&at);
    if !keeps && held.is_none() {
        info.truncate(start);
        return deals_as_states(game, info);
    }
    // The facts of a chance node's advance are kept (its state may be);
    // a deal's are forgotten (its state is made again from its node's).
    let chance_may_follow = game.chance_may_follow(&at);
    let mut stack = vec![Frame { at, held, kept: None, probs: root_probs, next: 0, prob: 1.0, chance_may_follow }];
    while let Some(top) = stack.last_mut() {
        let Some(p) = (top.next < top.probs.len()).then(|| top.probs.get(top.next)) else {
            let done = stack.pop().expect("a frame on top");
            if let Some(c) = done.kept {
                chances[c as usize] = Some((done.at, done.held));
            }
            continue;
        };
        let k = top.next as u32;
        top.next += 1;
        let prob = top.prob * p;
        // The outcome advanced to tell a deal from a chance node below,
        // unless none may follow (then it is a deal).
        let mut below = None;
        if top.chance_may_follow {
            let mut child = top.at.clone();
            apply(game, &mut child, top.held.as_ref(), k, info)?;
            let mark = info.mark();
            match advance_out_of_line(game, &mut child, info)? {
                Node::Chance { .. } => below = Some(child),
                _ => info.truncate(mark),
            }
        }
        if let Some(child) = below {
            let probs = chance_probs(&child);
            let held = game.hold_candidates(&child);
            if !keeps && held.is_none() {
                drop((stack, child, chances, dealt));
                info.truncate(start);
                return deals_as_states(game, info);
            }
            let chance_may_follow = game.chance_may_follow(&child);
            stack.push(Frame { at: child, held, kept: None, probs, next: 0, prob, chance_may_follow });
        } else {
            let c = *top.kept.get_or_insert_with(|| {
                // Room for every outcome of the node at once (most are
                // deals where one node deals them all), not grown by doubling.
                deal_prob.reserve(top.probs.len());
                chances.push(None);
                chances.len() as u32 - 1
            });
            dealt.push(c, k);
            deal_prob.push(prob);
        }
    }
    dealt.runs.shrink_to_fit();
    deal_prob.shrink_to_fit();
    dealt.chances =
        chances.into_iter().map(|c| c.expect("each kept chance node's state, put back when it is done")).collect();
    Ok((Parents::Dealt(dealt), deal_prob))
}

/// [`deals`] for a game whose states do not keep their candidates
/// ([`Game::keeps_candidates`]) nor let them be held apart
/// ([`Game::hold_candidates`]): each deal's state before its first
/// `advance`, the first whole and the others as what differs from it
/// ([`Game::delta`]). A chance node's children are made at once, right
/// after its `advance`, and wait on the stack as deltas too (the hold'em
/// spots deal both hands in one chance node: a state per deal).
fn deals_as_states<G: Game>(game: &G, info: &mut InfoInterner) -> Result<Deals<G::State>, SolveError> {
    let (mut deals, mut deal_prob) = (Vec::<(u32, G::State)>::new(), DealProbs::default());
    let mut probs = Vec::new();
    let root = game.root()?;
    let mut stack = vec![(Rc::new(root.clone()), root, 1.0f64)];
    while let Some((base, delta, prob)) = stack.pop() {
        let mut state = (*base).clone();
        game.undelta(&mut state, &delta);
        drop((base, delta));
        let mut at = state.clone();
        // The facts `at`'s advance pushes: kept for a chance node's
        // children, which hold them; forgotten for a deal, which is kept
        // as it was before that advance (else the interner would hold
        // facts per deal for the whole derivation).
        let mark = info.mark();
        if let Node::Chance { n_outcomes } = advance_out_of_line(game, &mut at, info)? {
            game.chance_probs(&at, &mut probs);
            // Pushed in order, then turned around in place (the stack pops
            // the first outcome first): no second list of the children.
            let start = stack.len();
            stack.reserve(n_outcomes as usize);
            let mut first: Option<Rc<G::State>> = None;
            for (k, p) in probs.iter().enumerate() {
                let mut child = at.clone();
                game.apply(&mut child, k as u32, info)?;
                let base = first.get_or_insert_with(|| Rc::new(child.clone())).clone();
                let child = game.delta(&base, &child);
                stack.push((base, child, prob * p.to_f64()));
            }
            stack[start..].reverse();
        } else {
            drop(at);
            info.truncate(mark);
            let state = match deals.first() {
                Some((_, first)) => game.delta(first, &state),
                None => state,
            };
            deals.push((deals.len() as u32, state));
            deal_prob.push(prob);
        }
    }
    // The lists grew by doubling: their slack given back (a large block
    // shrinks in place), a deal's state kept for the first moves.
    deals.shrink_to_fit();
    deal_prob.shrink_to_fit();
    Ok((Parents::Deltas(deals), deal_prob))
}

/// The states a decision's children are made from before a representative
/// walks: the deals as enumerated (the root's), or each deal's state before
/// its `advance`, the first whole and the others as what differs from it
/// ([`Game::delta`]), or of the deals as enumerated only those a step
/// still advances ([`Parents::thin`]).
pub(in super::super) enum Parents<S> {
    Dealt(Dealt<S>),
    Deltas(Vec<(u32, S)>),
    /// Of `n` deals (numbered as enumerated), the states kept, by deal.
    Thin {
        n: usize,
        kept: Vec<(u32, S)>,
    },
}

impl<S> Parents<S> {
    pub fn len(&self) -> usize {
        match self {
            Parents::Dealt(d) => d.len(),
            Parents::Deltas(list) => list.len(),
            Parents::Thin { n, .. } => *n,
        }
    }

    /// The deal of the `i`th parent.
    pub fn deal(&self, i: usize) -> u32 {
        match self {
            Parents::Dealt(_) | Parents::Thin { .. } => i as u32,
            Parents::Deltas(list) => list[i].0,
        }
    }

    /// The state of the `i`th parent, before its `advance` (`None` where
    /// it was not kept: [`Parents::thin`]).
    pub fn state<G: Game<State = S>>(&self, game: &G, i: usize, info: &mut InfoInterner) -> Result<Option<S>, GameError>
    where
        S: Clone,
    {
        Ok(Some(match self {
            Parents::Dealt(d) => d.state(game, i, info)?,
            Parents::Deltas(list) => {
                let mut state = list[0].1.clone();
                game.undelta(&mut state, &list[i].1);
                state
            }
            Parents::Thin { kept, .. } => match kept.binary_search_by_key(&(i as u32), |(d, _)| *d) {
                Ok(at) => kept[at].1.clone(),
                Err(_) => return Ok(None),
            },
        }))
    }

    /// Keeps `state` (before its `advance`) as the next parent's, `deal`'s.
    pub fn push<G: Game<State = S>>(&mut self, game: &G, deal: u32, state: S) {
        if let Parents::Deltas(list) = self {
            let state = match list.first() {
                Some((_, base)) => game.delta(base, &state),
                None => state,
            };
            list.push((deal, state));
        }
    }

    /// The deals as enumerated, once their sets at their first action's
    /// child are known where that is the other player's first decision
    /// (`sets`: its deals in order, each with its set): a later action's step advances
    /// only the first deal and the first of each set there, and gives the
    /// others their class's set (`step::Follow`), so only those deals'
    /// states are kept, made now, and the rest let go (the chance nodes'
    /// states with their candidates, or the deals' deltas: a deal each).
    /// Other parents are kept as they are.
    pub fn thin<G: Game<State = S>>(
        self,
        game: &G,
        sets: impl ExactSizeIterator<Item = (u32, u32)> + Clone,
        info: &mut InfoInterner,
    ) -> Result<Parents<S>, GameError>
    where
        S: Clone,
    {
        let n = self.len();
        // Every deal at the sibling, in order (numbered so: the deals as
        // enumerated): else `Follow` tells none apart.
        let in_order = |i: usize, d: u32| d as usize == i && self.deal(i) == d;
        if matches!(self, Parents::Thin { .. })
            || sets.len() != n
            || !sets.clone().enumerate().all(|(i, (d, _))| in_order(i, d))
        {
            return Ok(self);
        }
        let mut seen = rustc_hash::FxHashSet::default();
        let mut kept = Vec::new();
        for (i, (_, set)) in sets.enumerate() {
            if seen.insert(set) {
                if let Some(state) = self.state(game, i, info)? {
                    kept.push((i as u32, state));
                }
            }
        }
        kept.shrink_to_fit();
        Ok(Parents::Thin { n, kept })
    }
}

#[cfg(test)]
mod tests {
    use super::{Dealt, NONE};

    /// Deals kept as runs of a chance node's consecutive outcomes give back
    /// each deal's node and outcome, across nodes and broken runs.
    #[test]
    fn runs_give_back_each_deals_node_and_outcome() {
        let listed = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (0, 5), (0, 6), (2, 3)];
        let mut dealt = Dealt::<()> { chances: Vec::new(), runs: Vec::new(), len: 0 };
        listed.iter().for_each(|&(c, k)| dealt.push(c, k));
        assert_eq!((dealt.len(), dealt.runs.len()), (8, 4));
        for (d, &expected) in listed.iter().enumerate() {
            assert_eq!(dealt.deal(d), expected);
        }
        let mut one = Dealt::<()> { chances: Vec::new(), runs: Vec::new(), len: 0 };
        one.push(0, NONE);
        assert_eq!(one.deal(0), (0, NONE));
    }
}
