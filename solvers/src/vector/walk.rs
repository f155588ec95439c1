//! One traversal of the public tree for one player (the traverser), with a
//! vector per node: the traverser's own reach and counterfactual values
//! per private state, the other player's reach per state (chance and
//! priors included). The CFR walk ([`Walk::update`]) updates the
//! traverser's regrets and average at its decisions; the evaluation walk
//! ([`super::evaluate`]) plays the average strategies, or a best response
//! for the traverser, and changes nothing.
//!
//! No allocation per node: every level of the recursion takes its vectors
//! from the front of an arena ([`arena_len`]) and passes the rest down.
//! Storage is addressed by absolute slab offsets minus the `base` of the
//! slice a walk holds, so two threads can walk disjoint subtrees, each
//! with its own part of the arrays ([`super::split`]). The walks are
//! generic over the storage's layout ([`super::store`]).

use super::game::{PublicGame, PublicNode};
use super::leaf::{self, Leaves};
use super::real::Real;
use super::store::{Cell, Layout, Store, Update};

/// What a walk reads.
pub struct Walk<'a> {
    pub game: &'a PublicGame,
    /// Per node, its slab's first entry (see [`PublicGame::slabs`]).
    pub slab: &'a [usize],
    /// The traverser.
    pub me: usize,
    /// The CFR walk's update rule (the evaluation walk ignores it).
    pub u: Update,
    /// The game's [`Leaves`].
    pub leaves: &'a Leaves,
    /// Per node, whether the evaluation walk shares its children between
    /// two threads ([`super::split::splits`]; empty: one thread). The CFR
    /// walk is shared above these nodes ([`super::split::Plan`]).
    pub split: &'a [bool],
}

/// The arena a walk needs: per level down to the deepest leaf, the
/// node's strategy and its children's values (its actions x states) and
/// two vectors; and once (splits never nest), the second row per child of
/// the evaluation walk's split node. Summed along each path, not the
/// widest level times the depth: a turn's 48 river cards are one level of
/// each path, its decisions' few actions the others.
pub fn arena_len(game: &PublicGame) -> usize {
    let n = game.states[0].len().max(game.states[1].len()).max(1);
    let widest = (0..game.nodes.len() as u32).map(|v| game.children(v).len()).max().unwrap_or(1).max(1);
    // `need[v]`: the arena the levels above `v` take (a parent comes
    // before its children in node order).
    let mut need = vec![0usize; game.nodes.len()];
    let mut most = 0;
    for v in 0..game.nodes.len() as u32 {
        let kids = game.children(v);
        let below = need[v as usize] + if kids.is_empty() { 0 } else { 2 * kids.len() * n + 2 * n };
        kids.iter().for_each(|&c| need[c as usize] = below);
        most = most.max(below);
    }
    most + widest * n
}

/// The current strategy of a decision from its regrets (`n_actions` rows
/// of `n` states): regret matching, uniform where no regret is positive.
/// `denom` is scratch of `2 * n`.
#[inline]
pub fn regret_matching<T: Real, C: Cell>(regrets: &[C], n: usize, sigma: &mut [T], denom: &mut [T]) {
    regret_matching_times(regrets, n, None, sigma, denom)
}

/// [`regret_matching`], each state's probabilities multiplied by
/// `scale[state]` if given (the other player's reach: its reach after each
/// action, in the pass that makes the strategy).
#[inline]
fn regret_matching_times<T: Real, C: Cell>(
    regrets: &[C],
    n: usize,
    scale: Option<&[T]>,
    sigma: &mut [T],
    denom: &mut [T],
) {
    // The positive parts into `sigma` and their sums per state, in one
    // pass over the regrets (as stored: a node's scale cancels).
    let positive = |r: C| T::of(f64::from(r.positive()));
    let mut rows = sigma.chunks_exact_mut(n).zip(regrets.chunks_exact(n));
    if let Some((s_row, r_row)) = rows.next() {
        for ((s, d), &r) in s_row.iter_mut().zip(denom.iter_mut()).zip(r_row) {
            *s = positive(r);
            *d = *s;
        }
    }
    for (s_row, r_row) in rows {
        for ((s, d), &r) in s_row.iter_mut().zip(denom.iter_mut()).zip(r_row) {
            *s = positive(r);
            *d += *s;
        }
    }
    // One division per state, not per entry, and what to add to each of
    // its entries times that inverse: the uniform strategy where the
    // inverse is 0 (no regret is positive, so its entries are all 0; or
    // their finite sum overflowed: an infinite entry itself gives NaN),
    // else 0 (`x * inv + 0` is `x * inv`, which is not negative), so that
    // the rows take no select.
    let zero = T::zero();
    let uniform = T::of(1.0 / (sigma.len() / n.max(1)) as f64);
    let (denom, fill) = denom.split_at_mut(n);
    for (d, f) in denom.iter_mut().zip(fill.iter_mut()) {
        *d = if *d > zero { d.recip() } else { zero };
        *f = if *d > zero { zero } else { uniform };
    }
    for s_row in sigma.chunks_exact_mut(n) {
        let rows = s_row.iter_mut().zip(denom.iter().zip(fill.iter()));
        match scale {
            None => rows.for_each(|(s, (&inv, &f))| *s = *s * inv + f),
            Some(scale) => rows.zip(scale).for_each(|((s, (&inv, &f)), &x)| *s = (*s * inv + f) * x),
        }
    }
}

/// The average strategy of a decision from its sums, as [`regret_matching`].
#[inline]
pub fn average<T: Real, C: Cell>(sums: &[C], n: usize, sigma: &mut [T], denom: &mut [T]) {
    // The sums are non-negative: regret matching on them is their normalisation.
    regret_matching(sums, n, sigma, denom)
}

/// `out = a * b` elementwise.
#[inline]
pub(super) fn product<T: Real>(out: &mut [T], a: &[T], b: &[T]) {
    out.iter_mut().zip(a).zip(b).for_each(|((o, &x), &y)| *o = x * y);
}

/// Rows `i` and `j` (different) of `rows`, `n` entries a row.
pub(super) fn two_rows<T>(rows: &mut [T], [i, j]: [usize; 2], n: usize) -> [&mut [T]; 2] {
    let (lo, hi) = rows.split_at_mut(i.max(j) * n);
    let (first, second) = (&mut lo[i.min(j) * n..][..n], &mut hi[..n]);
    if i < j {
        [first, second]
    } else {
        [second, first]
    }
}

/// Zeroes the entries `states` of `v`.
#[inline]
pub(super) fn exclude<T: Real>(v: &mut [T], states: &[u32]) {
    for &i in states {
        v[i as usize] = T::zero();
    }
}

impl Walk<'_> {
    /// Whether `node` is a decision of the traverser.
    pub(super) fn decides(&self, node: u32) -> bool {
        matches!(&self.game.nodes[node as usize], PublicNode::Decision { player, .. } if *player as usize == self.me)
    }

    /// The CFR walk of `node`'s subtree: `out` gets the traverser's
    /// counterfactual values; its regrets and average sums are updated.
    /// On one thread: two threads share a walk from above the subtrees
    /// they take ([`super::split`]).
    pub fn update<L: Layout>(
        &self,
        node: u32,
        store: &mut Store<L>,
        own: &[f32],
        opp: &[f32],
        out: &mut [f32],
        arena: &mut [f32],
    ) {
        let game = self.game;
        if let PublicNode::Terminal { payoff } = &game.nodes[node as usize] {
            return leaf::values(game, self.leaves, &game.payoffs[*payoff as usize], self.me, opp, out);
        }
        let k = game.children(node).len();
        let (sigma, rows, rest) = self.prepare(node, store.regrets, store.base, opp, arena);
        self.children(node, 0..k, store, own, opp, sigma, rows, rest);
        self.combine(node, store, own, sigma, rows, out);
    }

    /// The current strategy of `node` (if a decision) in the front of the
    /// arena, then room for its children's values, then the rest. At a
    /// decision of the other player, the strategy comes multiplied by its
    /// reach `opp`: a row is then the reach of the action's child.
    fn prepare<'x, C: Cell>(
        &self,
        node: u32,
        regrets: &[C],
        base: usize,
        opp: &[f32],
        arena: &'x mut [f32],
    ) -> (&'x mut [f32], &'x mut [f32], &'x mut [f32]) {
        let game = self.game;
        let n_me = game.states[self.me].len();
        let k = game.children(node).len();
        let (sigma, rest) = arena.split_at_mut(k * self.strategy_len(node));
        let (rows, rest) = rest.split_at_mut(k * n_me);
        self.strategy(node, regrets, base, opp, sigma, rest);
        (sigma, rows, rest)
    }

    /// The states per action of `node`'s strategy: its player's at a
    /// decision, none at a chance node.
    pub(super) fn strategy_len(&self, node: u32) -> usize {
        match &self.game.nodes[node as usize] {
            PublicNode::Decision { player, .. } => self.game.states[*player as usize].len(),
            _ => 0,
        }
    }

    /// `node`'s current strategy into `sigma` (its actions times
    /// [`Self::strategy_len`]), times the other player's reach `opp` at
    /// the other player's decisions; nothing at a chance node. `scratch`
    /// holds at least twice the decision's states.
    pub(super) fn strategy<C: Cell>(
        &self,
        node: u32,
        regrets: &[C],
        base: usize,
        opp: &[f32],
        sigma: &mut [f32],
        scratch: &mut [f32],
    ) {
        let n = self.strategy_len(node);
        if n > 0 {
            let scale = if self.decides(node) { None } else { Some(opp) };
            let off = self.slab[node as usize] - base;
            let (denom, _) = scratch.split_at_mut(2 * n);
            regret_matching_times(&regrets[off..off + sigma.len()], n, scale, sigma, denom);
        }
    }

    /// Walks the children `range` of `node` (a decision or chance node
    /// whose strategy is `sigma`, times the other player's reach at its
    /// decisions: [`Self::prepare`]'s), writing their values into `rows`
    /// (a row per child of the range).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn children<L: Layout>(
        &self,
        node: u32,
        range: std::ops::Range<usize>,
        store: &mut Store<L>,
        own: &[f32],
        opp: &[f32],
        sigma: &[f32],
        rows: &mut [f32],
        arena: &mut [f32],
    ) {
        let game = self.game;
        let (n_me, n_opp) = (game.states[self.me].len(), game.states[1 - self.me].len());
        let (reach, rest) = arena.split_at_mut(n_me.max(n_opp));
        let kids = &game.children(node)[range.clone()];
        // One loop per kind, so the kind is not matched per child.
        match &game.nodes[node as usize] {
            PublicNode::Chance { outcomes, .. } => {
                let reach = &mut reach[..n_opp];
                // The traverser's own reach without the states the outcome
                // excludes, so that their average sums below stay zero: a
                // hand the deal never gives there is never listed as
                // reaching a decision (nor is its strategy answered).
                let (own_here, rest) = rest.split_at_mut(n_me);
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    let o = outcomes.start + a as u32;
                    let prob = game.outcomes[o as usize].prob as f32;
                    reach.iter_mut().zip(opp).for_each(|(r, x)| *r = x * prob);
                    exclude(reach, game.excluded(o, 1 - self.me));
                    let mine = game.excluded(o, self.me);
                    let own = if mine.is_empty() {
                        own
                    } else {
                        own_here.copy_from_slice(own);
                        exclude(own_here, mine);
                        &*own_here
                    };
                    self.update(child, store, own, reach, row, rest);
                    exclude(row, mine);
                }
            }
            PublicNode::Decision { player, .. } if *player as usize == self.me => {
                // A fold and a call beside it see the other player's
                // reach as it is here: both valued in one go, first.
                let fused = self.leaves.fused(node).filter(|(fc, _)| fc.iter().all(|a| range.contains(a)));
                if let Some(([f, c], payoffs)) = fused {
                    let payoffs = payoffs.map(|p| &game.payoffs[p as usize]);
                    let [fold_row, call_row] = two_rows(rows, [f - range.start, c - range.start], n_me);
                    leaf::fused_values(game, self.leaves, payoffs, self.me, opp, fold_row, call_row);
                }
                let done = |a: usize| fused.is_some_and(|(fc, _)| fc.contains(&a));
                let reach = &mut reach[..n_me];
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    if !done(a) {
                        product(reach, own, &sigma[a * n_me..(a + 1) * n_me]);
                        self.update(child, store, reach, opp, row, rest);
                    }
                }
            }
            _ => {
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    self.update(child, store, own, &sigma[a * n_opp..(a + 1) * n_opp], row, rest);
                }
            }
        }
    }

    /// `node`'s values from its children's `rows`; at a decision of the
    /// traverser, its regrets and average sums updated too (`sigma` and
    /// `rows` are then overwritten: [`Layout::update`]).
    pub(super) fn combine<L: Layout>(
        &self,
        node: u32,
        store: &mut Store<L>,
        own: &[f32],
        sigma: &mut [f32],
        rows: &mut [f32],
        out: &mut [f32],
    ) {
        let (n_me, mine) = (self.game.states[self.me].len(), self.decides(node));
        // The first row written, not added to zeros (only a zero's sign differs).
        if !mine {
            out.copy_from_slice(&rows[..n_me]);
            for row in rows.chunks_exact(n_me).skip(1) {
                out.iter_mut().zip(row).for_each(|(x, t)| *x += t);
            }
            return;
        }
        out.iter_mut().zip(&sigma[..n_me]).zip(&rows[..n_me]).for_each(|((o, s), v)| *o = s * v);
        for (s_row, v_row) in sigma.chunks_exact(n_me).zip(rows.chunks_exact(n_me)).skip(1) {
            out.iter_mut().zip(s_row).zip(v_row).for_each(|((o, s), v)| *o += s * v);
        }
        let off = self.slab[node as usize] - store.base;
        let len = sigma.len();
        let (regrets, sums) = (&mut store.regrets[off..off + len], &mut store.sums[off..off + len]);
        let mut unscaled = [0.0; 2];
        let scale = if L::SCALED { &mut store.scales[node as usize - store.first_node] } else { &mut unscaled };
        let seed = super::store::seed(node, self.u.iteration);
        L::update(self.u, seed, regrets, sums, scale, n_me, sigma, rows, own, out);
    }
}
