//! One traversal of the public tree for one player (the traverser), with a
//! vector per node: the traverser's own reach and counterfactual values
//! per private state, the other player's reach per state (chance and
//! priors included). The CFR walk ([`update`]) updates the traverser's
//! regrets and average at its decisions; the evaluation walk
//! ([`evaluate`]) plays the average strategies, or a best response for the
//! traverser, and changes nothing.
//!
//! No allocation per node: every level of the recursion takes its vectors
//! from the front of an arena ([`arena_len`]) and passes the rest down.
//! Storage is addressed by absolute slab offsets minus the `base` of the
//! slice a walk holds, so two threads can walk disjoint subtrees, each
//! with its own part of the arrays: both walks split a node's children
//! between two threads where [`Walk::split`] says (see [`splits`]). The
//! walks are generic over the storage's layout ([`super::store`]).

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
    /// Per node, whether the walks share its children between two
    /// threads ([`splits`]; empty: one thread).
    pub split: &'a [bool],
}

/// Where the CFR walk shares its work between two threads, per node (see
/// [`Walk::split`]): at the topmost chance nodes whose subtree holds at
/// least `min_work` (nodes times the larger player's states), as that is
/// where the work is (a turn spot's 48 river subtrees under each line);
/// in a game with no such chance node, at the root (the river). A subtree
/// with none of these nodes walks on the first thread; splits never nest:
/// below one, each child walks on one thread. Empty when nothing is split.
pub fn splits(game: &PublicGame, min_work: usize) -> Vec<bool> {
    let n = game.states[0].len().max(game.states[1].len()).max(1);
    let mut split = vec![false; game.nodes.len()];
    // A subtree's nodes are contiguous: node v's ends where the next
    // sibling's (or an ancestor's next sibling's) begins; `end[v]` is its
    // end, set before `v`'s children are reached (a parent comes first).
    let mut end = vec![game.nodes.len() as u32; game.nodes.len()];
    for v in 0..game.nodes.len() as u32 {
        let kids = game.children(v);
        for (i, &c) in kids.iter().enumerate() {
            end[c as usize] = kids.get(i + 1).copied().unwrap_or(end[v as usize]);
        }
    }
    let enough = |v: u32| (end[v as usize] - v) as usize * n >= min_work.max(1);
    // The topmost chance nodes of enough work, depth first.
    let mut stack = vec![0u32];
    let mut any = false;
    while let Some(v) = stack.pop() {
        if !enough(v) {
            continue;
        }
        let kids = game.children(v);
        if matches!(game.nodes[v as usize], PublicNode::Chance { .. }) && kids.len() >= 2 {
            split[v as usize] = true;
            any = true;
        } else {
            stack.extend_from_slice(kids);
        }
    }
    if !any && game.children(0).len() >= 2 && enough(0) {
        split[0] = true;
        any = true;
    }
    if any {
        split
    } else {
        Vec::new()
    }
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
fn product<T: Real>(out: &mut [T], a: &[T], b: &[T]) {
    out.iter_mut().zip(a).zip(b).for_each(|((o, &x), &y)| *o = x * y);
}

/// Rows `i` and `j` (different) of `rows`, `n` entries a row.
fn two_rows<T>(rows: &mut [T], [i, j]: [usize; 2], n: usize) -> [&mut [T]; 2] {
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
fn exclude<T: Real>(v: &mut [T], states: &[u32]) {
    for &i in states {
        v[i as usize] = T::zero();
    }
}

impl Walk<'_> {
    /// Whether `node` is a decision of the traverser.
    fn decides(&self, node: u32) -> bool {
        matches!(&self.game.nodes[node as usize], PublicNode::Decision { player, .. } if *player as usize == self.me)
    }

    /// The CFR walk of `node`'s subtree: `out` gets the traverser's
    /// counterfactual values; its regrets and average sums are updated.
    /// `spare` is a second thread's arena (as long as `arena`), given
    /// until a node shares its children between two threads ([`Self::split`]).
    #[allow(clippy::too_many_arguments)]
    pub fn update<L: Layout>(
        &self,
        node: u32,
        store: &mut Store<L>,
        own: &[f32],
        opp: &[f32],
        out: &mut [f32],
        arena: &mut [f32],
        spare: Option<&mut [f32]>,
    ) {
        let game = self.game;
        if let PublicNode::Terminal { payoff } = &game.nodes[node as usize] {
            return leaf::values(game, self.leaves, &game.payoffs[*payoff as usize], self.me, opp, out);
        }
        let k = game.children(node).len();
        let (sigma, rows, rest) = self.prepare(node, store.regrets, store.base, opp, arena);
        match (spare, self.split.get(node as usize).copied().unwrap_or(false)) {
            (Some(spare), true) => {
                // The children are handed out one at a time to the two
                // threads, each with its own arena, so a thread that the
                // machine's load holds back leaves its share to the other.
                // A child's row and part of the arrays (its slabs) are its
                // own, and the node sums the rows in child order after both
                // threads, so the split changes no arithmetic. One small
                // vector per split node and walk, not per node.
                let n_me = game.states[self.me].len();
                let kids = game.children(node);
                let mut parts = Vec::with_capacity(k);
                let (mut regrets, mut sums, mut base) = (&mut *store.regrets, &mut *store.sums, store.base);
                let (mut scales, mut first_node) = (&mut *store.scales, store.first_node);
                for (a, row) in rows.chunks_exact_mut(n_me).enumerate() {
                    let end = kids.get(a + 1).map_or(regrets.len(), |&c| self.slab[c as usize] - base);
                    let (r, r_rest) = std::mem::take(&mut regrets).split_at_mut(end);
                    let (m, m_rest) = std::mem::take(&mut sums).split_at_mut(end);
                    // The child's nodes' scales (none kept: none split).
                    let nodes = match kids.get(a + 1) {
                        _ if !L::SCALED => 0,
                        Some(&c) => c as usize - first_node,
                        None => scales.len(),
                    };
                    let (x, x_rest) = std::mem::take(&mut scales).split_at_mut(nodes);
                    parts.push((a, Store::<L> { regrets: r, sums: m, scales: x, base, first_node }, row));
                    (regrets, sums, base) = (r_rest, m_rest, base + end);
                    (scales, first_node) = (x_rest, first_node + nodes);
                }
                let sigma = &*sigma;
                share(parts.into_iter(), [rest, spare], |(a, mut part, row), arena| {
                    self.children(node, a..a + 1, &mut part, own, opp, sigma, row, arena, None)
                });
            }
            (spare, _) => self.children(node, 0..k, store, own, opp, sigma, rows, rest, spare),
        }
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
        let (n, scale) = match &game.nodes[node as usize] {
            PublicNode::Decision { player, .. } if *player as usize == self.me => (n_me, None),
            PublicNode::Decision { player, .. } => (game.states[*player as usize].len(), Some(opp)),
            _ => (0, None),
        };
        let (sigma, rest) = arena.split_at_mut(k * n);
        let (rows, rest) = rest.split_at_mut(k * n_me);
        if n > 0 {
            let off = self.slab[node as usize] - base;
            let (denom, _) = rest.split_at_mut(2 * n);
            regret_matching_times(&regrets[off..off + k * n], n, scale, sigma, denom);
        }
        (sigma, rows, rest)
    }

    /// Walks the children `range` of `node` (a decision or chance node
    /// whose strategy is `sigma`, times the other player's reach at its
    /// decisions: [`Self::prepare`]'s), writing their values into `rows`
    /// (a row per child of the range); `spare` as in [`Self::update`].
    #[allow(clippy::too_many_arguments)]
    fn children<L: Layout>(
        &self,
        node: u32,
        range: std::ops::Range<usize>,
        store: &mut Store<L>,
        own: &[f32],
        opp: &[f32],
        sigma: &[f32],
        rows: &mut [f32],
        arena: &mut [f32],
        mut spare: Option<&mut [f32]>,
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
                    self.update(child, store, own, reach, row, rest, spare.as_deref_mut());
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
                        self.update(child, store, reach, opp, row, rest, spare.as_deref_mut());
                    }
                }
            }
            _ => {
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    self.update(child, store, own, &sigma[a * n_opp..(a + 1) * n_opp], row, rest, spare.as_deref_mut());
                }
            }
        }
    }

    /// `node`'s values from its children's `rows`; at a decision of the
    /// traverser, its regrets and average sums updated too (`sigma` and
    /// `rows` are then overwritten: [`Layout::update`]).
    fn combine<L: Layout>(
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

    /// The evaluation walk: both players play their average strategies;
    /// `avg` gets the traverser's counterfactual values so, and `best`
    /// those of its best response (per private state, the action of
    /// highest value) against the other's average. One walk gives both:
    /// the other player's reach, and so every leaf's values, are the same
    /// for the two, which differ only in how the traverser's decisions
    /// combine their children. `sums` are the average sums; `spare` as in
    /// [`Self::update`]: where [`Self::split`] says, the children are
    /// shared between two threads, each child's two vectors kept in its
    /// own rows and gathered in child order after both, as one thread
    /// gathers them one by one, so the answer is the same bit for bit.
    /// Without `AVG`, `best` alone: `avg` is left as it was, and the
    /// traverser's average strategy is not worked out (the other's is).
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate<C: Cell, const AVG: bool>(
        &self,
        node: u32,
        sums: &[C],
        opp: &[f64],
        avg: &mut [f64],
        best: &mut [f64],
        arena: &mut [f64],
        spare: Option<&mut [f64]>,
    ) {
        let game = self.game;
        let n_me = game.states[self.me].len();
        let n = match &game.nodes[node as usize] {
            PublicNode::Terminal { payoff } => {
                let payoff = &game.payoffs[*payoff as usize];
                if AVG {
                    leaf::values(game, self.leaves, payoff, self.me, opp, avg);
                    best.copy_from_slice(avg);
                } else {
                    leaf::values(game, self.leaves, payoff, self.me, opp, best);
                }
                return;
            }
            PublicNode::Chance { .. } => 0,
            // The best response needs no average strategy of its own.
            PublicNode::Decision { player, .. } if !AVG && *player as usize == self.me => 0,
            PublicNode::Decision { player, .. } => game.states[*player as usize].len(),
        };
        let k = game.children(node).len();
        let (sigma, rest) = arena.split_at_mut(k * n);
        if n > 0 {
            let off = self.slab[node as usize];
            let (denom, _) = rest.split_at_mut(2 * n);
            average(&sums[off..off + k * n], n, sigma, denom);
        }
        let sigma = &*sigma;
        match (spare, self.split.get(node as usize).copied().unwrap_or(false)) {
            (Some(spare), true) => {
                let (avg_rows, rest) = rest.split_at_mut(k * n_me);
                let (best_rows, rest) = rest.split_at_mut(k * n_me);
                let parts = avg_rows.chunks_exact_mut(n_me).zip(best_rows.chunks_exact_mut(n_me)).enumerate();
                share(parts, [rest, spare], |(a, (avg_row, best_row)), arena| {
                    self.evaluate_child::<C, AVG>(node, a, sums, opp, sigma, avg_row, best_row, arena, None)
                });
                let rows = avg_rows.chunks_exact(n_me).zip(best_rows.chunks_exact(n_me));
                for (a, (avg_row, best_row)) in rows.enumerate() {
                    self.gather::<AVG>(node, a, sigma, avg_row, best_row, avg, best);
                }
            }
            (mut spare, _) => {
                let (tmp_avg, rest) = rest.split_at_mut(n_me);
                let (tmp_best, rest) = rest.split_at_mut(n_me);
                // A fold and a call beside it at the traverser's decision
                // see the other player's reach as it is here: both valued
                // in one go, first, into two rows of their own (the
                // arena's level has room: its children's rows are not
                // kept here). A leaf's two vectors are one.
                let mine = self.decides(node);
                let fused = self.leaves.fused(node).filter(|_| mine);
                let (leaf_rows, rest) = rest.split_at_mut(if fused.is_some() { 2 * n_me } else { 0 });
                if let Some((_, payoffs)) = fused {
                    let payoffs = payoffs.map(|p| &game.payoffs[p as usize]);
                    let (fold_row, call_row) = leaf_rows.split_at_mut(n_me);
                    leaf::fused_values(game, self.leaves, payoffs, self.me, opp, fold_row, call_row);
                }
                for a in 0..k {
                    match fused.and_then(|(fc, _)| fc.iter().position(|&x| x == a)) {
                        Some(i) => {
                            let row = &leaf_rows[i * n_me..(i + 1) * n_me];
                            self.gather::<AVG>(node, a, sigma, row, row, avg, best);
                        }
                        None => {
                            let spare = spare.as_deref_mut();
                            self.evaluate_child::<C, AVG>(node, a, sums, opp, sigma, tmp_avg, tmp_best, rest, spare);
                            self.gather::<AVG>(node, a, sigma, tmp_avg, tmp_best, avg, best);
                        }
                    }
                }
            }
        }
    }

    /// The evaluation walk of child `a` of `node` (strategy `sigma` at a
    /// decision), its two vectors into `avg` and `best`, the states the
    /// child's outcome excludes zeroed.
    #[allow(clippy::too_many_arguments)]
    fn evaluate_child<C: Cell, const AVG: bool>(
        &self,
        node: u32,
        a: usize,
        sums: &[C],
        opp: &[f64],
        sigma: &[f64],
        avg: &mut [f64],
        best: &mut [f64],
        arena: &mut [f64],
        spare: Option<&mut [f64]>,
    ) {
        let game = self.game;
        let n_opp = game.states[1 - self.me].len();
        let child = game.children(node)[a];
        let (reach, rest) = arena.split_at_mut(n_opp);
        match &game.nodes[node as usize] {
            PublicNode::Chance { outcomes, .. } => {
                let o = outcomes.start + a as u32;
                let prob = game.outcomes[o as usize].prob;
                reach.iter_mut().zip(opp).for_each(|(r, x)| *r = x * prob);
                exclude(reach, game.excluded(o, 1 - self.me));
                self.evaluate::<C, AVG>(child, sums, reach, avg, best, rest, spare);
                if AVG {
                    exclude(avg, game.excluded(o, self.me));
                }
                exclude(best, game.excluded(o, self.me));
            }
            PublicNode::Decision { player, .. } if *player as usize == self.me => {
                self.evaluate::<C, AVG>(child, sums, opp, avg, best, rest, spare)
            }
            _ => {
                product(reach, opp, &sigma[a * n_opp..(a + 1) * n_opp]);
                self.evaluate::<C, AVG>(child, sums, reach, avg, best, rest, spare);
            }
        }
    }

    /// Adds child `a`'s vectors (`tmp_avg`, `tmp_best`) into `node`'s
    /// (`avg`, `best`; child 0's set them): at the traverser's decisions
    /// the average weighs them by `sigma` and the best response takes the
    /// highest, elsewhere they add up; `best` alone without `AVG`.
    #[allow(clippy::too_many_arguments)]
    fn gather<const AVG: bool>(
        &self,
        node: u32,
        a: usize,
        sigma: &[f64],
        tmp_avg: &[f64],
        tmp_best: &[f64],
        avg: &mut [f64],
        best: &mut [f64],
    ) {
        let (n_me, mine) = (self.game.states[self.me].len(), self.decides(node));
        match (a, mine) {
            (0, true) => {
                if AVG {
                    product(avg, &sigma[..n_me], tmp_avg);
                }
                best.copy_from_slice(tmp_best);
            }
            (_, true) => {
                if AVG {
                    let row = &sigma[a * n_me..(a + 1) * n_me];
                    avg.iter_mut().zip(row).zip(tmp_avg).for_each(|((o, s), t)| *o += s * t);
                }
                best.iter_mut().zip(tmp_best).for_each(|(o, t)| *o = o.max(*t));
            }
            (0, false) => {
                if AVG {
                    avg.copy_from_slice(tmp_avg);
                }
                best.copy_from_slice(tmp_best);
            }
            (_, false) => {
                if AVG {
                    avg.iter_mut().zip(tmp_avg).for_each(|(o, t)| *o += t);
                }
                best.iter_mut().zip(tmp_best).for_each(|(o, t)| *o += t);
            }
        }
    }
}

/// Runs `work` on every part on two threads, each with its own arena: the
/// parts are handed out one at a time, so a thread that the machine's load
/// holds back leaves its share to the other.
fn share<P: Send, T: Send>(
    parts: impl Iterator<Item = P> + Send,
    [a, b]: [&mut [T]; 2],
    work: impl Fn(P, &mut [T]) + Sync,
) {
    let queue = std::sync::Mutex::new(parts);
    let run = |arena: &mut [T]| loop {
        let next = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).next();
        let Some(part) = next else { break };
        work(part, arena);
    };
    // In the run's pool (`VectorCfr`'s) the other thread is alive and
    // takes the second half of the join (or finds the queue empty).
    rayon_core::join(|| run(a), || run(b));
}
