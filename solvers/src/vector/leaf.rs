//! A public leaf's counterfactual values for one player's private states,
//! given the other player's reach (chance included): a constant payoff and
//! a showdown in O(n + conflicts), any payoff matrix in O(n0 * n1).
//!
//! Card removal is exact: pairs the deal never gives together are taken
//! out of the sums, one by one from sparse conflict lists (a state of a
//! derived game conflicts with a handful of the other's), or by
//! inclusion-exclusion over the cards of each hand ([`super::cards`]).

use super::cards;
use super::game::{Conflicts, Payoff, PublicGame, PublicNode, Ranking, Removal};
use super::real::Real;

/// What a game's leaves read besides the game, worked out once for a run:
/// with card removal, each showdown ranking's states in rank order with
/// their cards' slots ([`cards::Ranked`]; empty otherwise), and per node
/// the fold and showdown among its children valued in one go
/// ([`Leaves::fused`]).
pub struct Leaves {
    ranked: Vec<[cards::Order; 2]>,
    /// Per node (empty without card removal): the positions among its
    /// children of a leaf of constant payoff and of a showdown whose
    /// ranking holds each state of the deciding player once, and their
    /// payoffs.
    fused: Vec<Option<([u32; 2], [u32; 2])>>,
}

impl Leaves {
    pub fn new(game: &PublicGame) -> Leaves {
        let Removal::Cards(hands) = &game.removal else { return Leaves { ranked: Vec::new(), fused: Vec::new() } };
        let never = never_dealt(game);
        let ranked =
            game.rankings.iter().zip(&never).map(|(r, never)| hands.ranked(&r.rank, &r.sorted, never)).collect();
        // Per ranking and player, whether its states in rank order are
        // each state once (a ranking made by `Ranking::new` always is).
        let whole: Vec<[bool; 2]> = game
            .rankings
            .iter()
            .map(|r| {
                [0, 1].map(|p| {
                    let mut seen = vec![false; r.sorted[p].len()];
                    r.sorted[p]
                        .iter()
                        .all(|&(_, i)| seen.get_mut(i as usize).is_some_and(|s| !std::mem::replace(s, true)))
                })
            })
            .collect();
        let leaf = |c: u32| match game.nodes[c as usize] {
            PublicNode::Terminal { payoff } => Some((payoff, game.payoffs[payoff as usize])),
            _ => None,
        };
        // Not at the root, whose children two threads shared one by one
        // when a split was a node's children. The CFR walk's one split
        // (`split::Plan`) values a fold and call of the top in one go on
        // any thread count, but the evaluation walk still shares a split
        // root's children one by one, where the fold's sums, added in
        // another order, would make a check depend on the threads.
        let fused = (0..game.nodes.len() as u32)
            .map(|v| {
                let PublicNode::Decision { player, .. } = game.nodes[v as usize] else { return None };
                if v == 0 {
                    return None;
                }
                let kids = game.children(v);
                let fold = kids.iter().position(|&c| matches!(leaf(c), Some((_, Payoff::Constant(_)))))?;
                let call = kids.iter().position(|&c| {
                    matches!(leaf(c), Some((_, Payoff::Showdown { ranking, .. })) if whole[ranking as usize][player as usize])
                })?;
                let payoff = |a: usize| leaf(kids[a]).map_or(0, |(p, _)| p);
                Some(([fold as u32, call as u32], [payoff(fold), payoff(call)]))
            })
            .collect();
        Leaves { ranked, fused }
    }

    /// The positions among decision `node`'s children of a leaf of
    /// constant payoff (a fold) and of a showdown (the call) that
    /// [`fused_values`] values in one go when the traverser decides at
    /// `node` (both then see the other player's same reach).
    /// Their payoffs come second.
    #[inline]
    pub fn fused(&self, node: u32) -> Option<([usize; 2], [u32; 2])> {
        self.fused.get(node as usize).copied().flatten().map(|([f, c], payoffs)| ([f as usize, c as usize], payoffs))
    }
}

/// Per ranking and player, per state: whether every path to a showdown
/// of that ranking passes a chance outcome that excludes the state (a
/// turn's river card holding a card of the hand), so that no deal gives
/// it there. False throughout for a ranking no showdown reads.
fn never_dealt(game: &PublicGame) -> Vec<[Vec<bool>; 2]> {
    let n = [game.states[0].len(), game.states[1].len()];
    let mut never: Vec<Option<[Vec<bool>; 2]>> = vec![None; game.rankings.len()];
    // Per player and state, how many outcomes on the path exclude it.
    let mut excluded = n.map(|n| vec![0u32; n]);
    // Depth first: (node, outcome entered to reach it); an outcome's
    // exclusions are taken back once its subtree is done (`Leave`).
    enum Step {
        Enter(u32, Option<u32>),
        Leave(u32),
    }
    let mut stack = vec![Step::Enter(0, None)];
    while let Some(step) = stack.pop() {
        let (v, outcome) = match step {
            Step::Leave(o) => {
                for (p, counts) in excluded.iter_mut().enumerate() {
                    game.excluded(o, p).iter().for_each(|&i| counts[i as usize] -= 1);
                }
                continue;
            }
            Step::Enter(v, outcome) => (v, outcome),
        };
        if let Some(o) = outcome {
            for (p, counts) in excluded.iter_mut().enumerate() {
                game.excluded(o, p).iter().for_each(|&i| counts[i as usize] += 1);
            }
            stack.push(Step::Leave(o));
        }
        match &game.nodes[v as usize] {
            PublicNode::Terminal { payoff } => {
                if let Payoff::Showdown { ranking, .. } = game.payoffs[*payoff as usize] {
                    let here = [0, 1].map(|p| excluded[p].iter().map(|&c| c > 0).collect::<Vec<bool>>());
                    let slot = &mut never[ranking as usize];
                    match slot {
                        None => *slot = Some(here),
                        Some(seen) => {
                            for (s, h) in seen.iter_mut().zip(&here) {
                                s.iter_mut().zip(h).for_each(|(s, &h)| *s &= h);
                            }
                        }
                    }
                }
            }
            PublicNode::Chance { outcomes, .. } => {
                for (k, &c) in game.children(v).iter().enumerate() {
                    stack.push(Step::Enter(c, Some(outcomes.start + k as u32)));
                }
            }
            PublicNode::Decision { .. } => game.children(v).iter().for_each(|&c| stack.push(Step::Enter(c, None))),
        }
    }
    never.into_iter().map(|seen| seen.unwrap_or_else(|| n.map(|n| vec![false; n]))).collect()
}

/// Player `p`'s values at the two leaves [`Leaves::fused`] names among
/// the children of a decision of `p` (`fold` and `call`: their payoffs),
/// against the other player's reach `opp` (the same at both), into
/// `fold_out` and `call_out`: what [`values`] gives for each, up to the
/// order of the fold's sums over the other player's states.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn fused_values<T: Real>(
    game: &PublicGame,
    leaves: &Leaves,
    [fold, call]: [&Payoff; 2],
    p: usize,
    opp: &[T],
    fold_out: &mut [T],
    call_out: &mut [T],
) {
    match (*fold, *call) {
        (Payoff::Constant(v), Payoff::Showdown { ranking, win, lose, tie }) => {
            let sign = if p == 0 { 1.0 } else { -1.0 };
            let stakes = if p == 0 { [win, lose, tie] } else { [-lose, -win, -tie] };
            let ranked = &leaves.ranked[ranking as usize];
            cards::showdown_and_constant::<T, true>(ranked, p, stakes, v * sign, opp, call_out, fold_out)
        }
        // Not what `Leaves::fused` names: one by one.
        _ => {
            values(game, leaves, fold, p, opp, fold_out);
            values(game, leaves, call, p, opp, call_out);
        }
    }
}

/// Player `p`'s values at a leaf paying `payoff` (player 0's payoff),
/// against the other player's reach `opp`, into `out` (one per state of
/// `p`); `leaves` is the game's. Sums over the other player's states are
/// `f64` whatever `T` is. Inlined into its one call per walk (where
/// the walks' generic layouts left it a call of its own, measurably slower).
#[inline(always)]
pub fn values<T: Real>(game: &PublicGame, leaves: &Leaves, payoff: &Payoff, p: usize, opp: &[T], out: &mut [T]) {
    let sign = if p == 0 { 1.0 } else { -1.0 };
    match (*payoff, &game.removal) {
        (Payoff::Constant(v), Removal::Lists(lists)) => constant(lists, p, v * sign, opp, out),
        (Payoff::Constant(v), Removal::Cards(hands)) => cards::constant(hands, p, v * sign, opp, out),
        (Payoff::Showdown { ranking, win, lose, tie }, removal) => {
            // Player 1 wins what player 0 loses.
            let stakes = if p == 0 { [win, lose, tie] } else { [-lose, -win, -tie] };
            match removal {
                Removal::Lists(lists) => showdown(lists, &game.rankings[ranking as usize], p, stakes, opp, out),
                Removal::Cards(_) => cards::showdown(&leaves.ranked[ranking as usize], p, stakes, opp, out),
            }
        }
        (Payoff::Matrix { start }, _) => {
            let n1 = game.states[1].len();
            let len = game.states[0].len() * n1;
            matrix(&game.matrix[start as usize..start as usize + len], n1, p, opp, out)
        }
    }
}

/// Every pair pays `v` to player `p`.
fn constant<T: Real>(conflicts: &Conflicts, p: usize, v: f64, opp: &[T], out: &mut [T]) {
    let total: f64 = opp.iter().map(|x| x.wide()).sum();
    for (i, o) in out.iter_mut().enumerate() {
        let removed: f64 = conflicts.of(p, i).iter().map(|&j| opp[j as usize].wide()).sum();
        *o = T::of(v * (total - removed));
    }
}

/// Player `p`'s state `i` gets `win` against lower ranks of the other
/// player, `lose` against higher, `tie` against equal: the states in rank
/// order, with running sums of the other player's reach below and at the rank.
fn showdown<T: Real>(
    conflicts: &Conflicts,
    ranking: &Ranking,
    p: usize,
    [win, lose, tie]: [f64; 3],
    opp: &[T],
    out: &mut [T],
) {
    let (their_rank, theirs) = (&ranking.rank[1 - p], &ranking.sorted[1 - p]);
    let total: f64 = opp.iter().map(|x| x.wide()).sum();
    let (mut below, mut k) = (0.0, 0usize);
    // The reach at the current rank, computed once per rank.
    let (mut at_rank, mut equal) = (u32::MAX, 0.0);
    for &(r, i) in &ranking.sorted[p] {
        while k < theirs.len() && theirs[k].0 < r {
            below += opp[theirs[k].1 as usize].wide();
            k += 1;
        }
        if r != at_rank {
            at_rank = r;
            equal = theirs[k..].iter().take_while(|&&(t, _)| t == r).map(|&(_, j)| opp[j as usize].wide()).sum();
        }
        let mut v = win * below + tie * equal + lose * (total - below - equal);
        for &j in conflicts.of(p, i as usize) {
            let theirs = their_rank[j as usize];
            let u = if theirs < r {
                win
            } else if theirs > r {
                lose
            } else {
                tie
            };
            v -= u * opp[j as usize].wide();
        }
        out[i as usize] = T::of(v);
    }
}

/// Player 0's payoffs `m` (row-major, `n1` columns; 0 for pairs never
/// dealt together), player 1's their negation: each state's value summed
/// in `f64` over the other player's states, a row for player 0, a column
/// for player 1.
fn matrix<T: Real>(m: &[f64], n1: usize, p: usize, opp: &[T], out: &mut [T]) {
    if p == 0 {
        for (o, row) in out.iter_mut().zip(m.chunks_exact(n1)) {
            *o = T::of(row.iter().zip(opp).map(|(u, r)| u * r.wide()).sum());
        }
    } else {
        for (j, o) in out.iter_mut().enumerate() {
            let column = m[j..].iter().step_by(n1);
            *o = T::of(-column.zip(opp).map(|(u, r)| u * r.wide()).sum::<f64>());
        }
    }
}
