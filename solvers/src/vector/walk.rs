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
//! with its own part of the arrays.

use super::game::{PublicGame, PublicNode};
use super::leaf;

/// How regrets and the average move at a decision of the traverser.
#[derive(Clone, Copy, Debug)]
pub struct Update {
    /// CFR+ clips regrets at 0; DCFR multiplies them by `pos` or `neg`
    /// (after adding the iteration's regret) by their sign.
    pub clip: bool,
    pub pos: f32,
    pub neg: f32,
    /// The average strategy's sums are multiplied by this before the
    /// iteration's strategy (weighted by the traverser's own reach) is added.
    pub keep: f32,
}

/// What a walk reads.
pub struct Walk<'a> {
    pub game: &'a PublicGame,
    /// Per node, its slab's first entry (see [`PublicGame::slabs`]).
    pub slab: &'a [usize],
    /// The traverser.
    pub me: usize,
    /// The CFR walk's update rule (the evaluation walk ignores it).
    pub u: Update,
}

/// A part of the solver's arrays: entries from `base` on.
pub struct Store<'s> {
    pub regrets: &'s mut [f32],
    pub sums: &'s mut [f32],
    pub base: usize,
}

/// The arena a walk needs: per level, the strategy and the children's
/// values (actions x states) and two vectors.
pub fn arena_len(game: &PublicGame) -> usize {
    let n = game.states[0].len().max(game.states[1].len()).max(1);
    let actions = (0..game.nodes.len() as u32).map(|v| game.children(v).len()).max().unwrap_or(1).max(1);
    game.depth() * (2 * actions * n + 2 * n)
}

/// The current strategy of a decision from its regrets (`n_actions` rows
/// of `n` states): regret matching, uniform where no regret is positive.
/// `denom` is scratch of `n`.
#[inline]
pub fn regret_matching(regrets: &[f32], n: usize, sigma: &mut [f64], denom: &mut [f64]) {
    denom.fill(0.0);
    for r_row in regrets.chunks_exact(n) {
        denom.iter_mut().zip(r_row).for_each(|(d, &r)| *d += f64::from(r.max(0.0)));
    }
    // One division per state, not per entry.
    denom.iter_mut().for_each(|d| *d = if *d > 0.0 { 1.0 / *d } else { 0.0 });
    let uniform = 1.0 / (sigma.len() / n.max(1)) as f64;
    for (s_row, r_row) in sigma.chunks_exact_mut(n).zip(regrets.chunks_exact(n)) {
        for ((s, &r), &inv) in s_row.iter_mut().zip(r_row).zip(denom.iter()) {
            *s = if inv > 0.0 { f64::from(r.max(0.0)) * inv } else { uniform };
        }
    }
}

/// The average strategy of a decision from its sums, as [`regret_matching`].
#[inline]
pub fn average(sums: &[f32], n: usize, sigma: &mut [f64], denom: &mut [f64]) {
    // The sums are non-negative: regret matching on them is their normalisation.
    regret_matching(sums, n, sigma, denom)
}

/// `out = a * b` elementwise.
#[inline]
fn product(out: &mut [f64], a: &[f64], b: &[f64]) {
    out.iter_mut().zip(a).zip(b).for_each(|((o, x), y)| *o = x * y);
}

/// Zeroes the entries `states` of `v`.
#[inline]
fn exclude(v: &mut [f64], states: &[u32]) {
    for &i in states {
        v[i as usize] = 0.0;
    }
}

impl Walk<'_> {
    /// The CFR walk of `node`'s subtree: `out` gets the traverser's
    /// counterfactual values; its regrets and average sums are updated.
    pub fn update(&self, node: u32, store: &mut Store, own: &[f64], opp: &[f64], out: &mut [f64], arena: &mut [f64]) {
        let game = self.game;
        if let PublicNode::Terminal { payoff } = &game.nodes[node as usize] {
            return leaf::values(game, &game.payoffs[*payoff as usize], self.me, opp, out);
        }
        let k = game.children(node).len();
        let (sigma, rows, rest) = self.prepare(node, store.regrets, store.base, arena);
        self.children(node, 0..k, store, own, opp, sigma, rows, rest);
        self.combine(node, store, own, sigma, rows, out);
    }

    /// The current strategy of `node` (if a decision) in the front of the
    /// arena, then room for its children's values, then the rest.
    pub fn prepare<'x>(
        &self,
        node: u32,
        regrets: &[f32],
        base: usize,
        arena: &'x mut [f64],
    ) -> (&'x [f64], &'x mut [f64], &'x mut [f64]) {
        let game = self.game;
        let n_me = game.states[self.me].len();
        let k = game.children(node).len();
        let n = match &game.nodes[node as usize] {
            PublicNode::Decision { player, .. } => game.states[*player as usize].len(),
            _ => 0,
        };
        let (sigma, rest) = arena.split_at_mut(k * n);
        let (rows, rest) = rest.split_at_mut(k * n_me);
        if n > 0 {
            let off = self.slab[node as usize] - base;
            let (denom, _) = rest.split_at_mut(n);
            regret_matching(&regrets[off..off + k * n], n, sigma, denom);
        }
        (sigma, rows, rest)
    }

    /// Walks the children `range` of `node` (a decision or chance node
    /// whose strategy is `sigma`), writing their values into `rows` (a row
    /// per child of the range).
    #[allow(clippy::too_many_arguments)]
    pub fn children(
        &self,
        node: u32,
        range: std::ops::Range<usize>,
        store: &mut Store,
        own: &[f64],
        opp: &[f64],
        sigma: &[f64],
        rows: &mut [f64],
        arena: &mut [f64],
    ) {
        let game = self.game;
        let (n_me, n_opp) = (game.states[self.me].len(), game.states[1 - self.me].len());
        let (reach, rest) = arena.split_at_mut(n_me.max(n_opp));
        let kids = &game.children(node)[range.clone()];
        // One loop per kind, so the kind is not matched per child.
        match &game.nodes[node as usize] {
            PublicNode::Chance { outcomes, .. } => {
                let reach = &mut reach[..n_opp];
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    let o = outcomes.start + a as u32;
                    let prob = game.outcomes[o as usize].prob;
                    reach.iter_mut().zip(opp).for_each(|(r, x)| *r = x * prob);
                    exclude(reach, game.excluded(o, 1 - self.me));
                    self.update(child, store, own, reach, row, rest);
                    exclude(row, game.excluded(o, self.me));
                }
            }
            PublicNode::Decision { player, .. } if *player as usize == self.me => {
                let reach = &mut reach[..n_me];
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    product(reach, own, &sigma[a * n_me..(a + 1) * n_me]);
                    self.update(child, store, reach, opp, row, rest);
                }
            }
            _ => {
                let reach = &mut reach[..n_opp];
                for ((a, &child), row) in range.zip(kids).zip(rows.chunks_exact_mut(n_me)) {
                    product(reach, opp, &sigma[a * n_opp..(a + 1) * n_opp]);
                    self.update(child, store, own, reach, row, rest);
                }
            }
        }
    }

    /// `node`'s values from its children's `rows`; at a decision of the
    /// traverser, its regrets and average sums updated too.
    #[allow(clippy::too_many_arguments)]
    pub fn combine(&self, node: u32, store: &mut Store, own: &[f64], sigma: &[f64], rows: &[f64], out: &mut [f64]) {
        let game = self.game;
        let n_me = game.states[self.me].len();
        out.fill(0.0);
        let mine =
            matches!(&game.nodes[node as usize], PublicNode::Decision { player, .. } if *player as usize == self.me);
        if !mine {
            for row in rows.chunks_exact(n_me) {
                out.iter_mut().zip(row).for_each(|(x, t)| *x += t);
            }
            return;
        }
        for (s_row, v_row) in sigma.chunks_exact(n_me).zip(rows.chunks_exact(n_me)) {
            out.iter_mut().zip(s_row).zip(v_row).for_each(|((o, s), v)| *o += s * v);
        }
        let off = self.slab[node as usize] - store.base;
        let len = sigma.len();
        let regrets = &mut store.regrets[off..off + len];
        for (r_row, v_row) in regrets.chunks_exact_mut(n_me).zip(rows.chunks_exact(n_me)) {
            for ((r, v), o) in r_row.iter_mut().zip(v_row).zip(out.iter()) {
                let x = *r + (v - o) as f32;
                *r = if self.u.clip { x.max(0.0) } else { x * if x >= 0.0 { self.u.pos } else { self.u.neg } };
            }
        }
        let sums = &mut store.sums[off..off + len];
        for (m_row, s_row) in sums.chunks_exact_mut(n_me).zip(sigma.chunks_exact(n_me)) {
            for ((m, s), w) in m_row.iter_mut().zip(s_row).zip(own) {
                *m = *m * self.u.keep + (s * w) as f32;
            }
        }
    }

    /// The evaluation walk: both players play their average strategies,
    /// except the traverser when `best` (it then takes, per private state,
    /// the action of highest value). `out` gets the traverser's
    /// counterfactual values; `sums` are the average sums.
    pub fn evaluate(&self, best: bool, node: u32, sums: &[f32], opp: &[f64], out: &mut [f64], arena: &mut [f64]) {
        let game = self.game;
        let (n_me, n_opp) = (game.states[self.me].len(), game.states[1 - self.me].len());
        match &game.nodes[node as usize] {
            PublicNode::Terminal { payoff } => leaf::values(game, &game.payoffs[*payoff as usize], self.me, opp, out),
            PublicNode::Chance { outcomes, .. } => {
                let (reach, rest) = arena.split_at_mut(n_opp);
                let (tmp, rest) = rest.split_at_mut(n_me);
                out.fill(0.0);
                for (o, &child) in outcomes.clone().zip(game.children(node)) {
                    let prob = game.outcomes[o as usize].prob;
                    reach.iter_mut().zip(opp).for_each(|(r, x)| *r = x * prob);
                    exclude(reach, game.excluded(o, 1 - self.me));
                    self.evaluate(best, child, sums, reach, tmp, rest);
                    exclude(tmp, game.excluded(o, self.me));
                    out.iter_mut().zip(tmp.iter()).for_each(|(x, t)| *x += t);
                }
            }
            PublicNode::Decision { player, .. } => {
                let mine = *player as usize == self.me;
                let n = if mine { n_me } else { n_opp };
                let kids = game.children(node);
                let len = kids.len() * n;
                let (sigma, rest) = arena.split_at_mut(len);
                let (reach, rest) = rest.split_at_mut(n_me.max(n_opp));
                let (tmp, rest) = rest.split_at_mut(n_me);
                let off = self.slab[node as usize];
                average(&sums[off..off + len], n, sigma, &mut reach[..n]);
                let reach = &mut reach[..n_opp];
                for (a, &child) in kids.iter().enumerate() {
                    let row = &sigma[a * n..(a + 1) * n];
                    if mine {
                        self.evaluate(best, child, sums, opp, tmp, rest);
                    } else {
                        product(reach, opp, row);
                        self.evaluate(best, child, sums, reach, tmp, rest);
                    }
                    match (a, mine, best) {
                        (0, true, true) => out.copy_from_slice(tmp),
                        (_, true, true) => out.iter_mut().zip(tmp.iter()).for_each(|(o, t)| *o = o.max(*t)),
                        (0, true, false) => product(out, row, tmp),
                        (_, true, false) => out.iter_mut().zip(row).zip(tmp.iter()).for_each(|((o, s), t)| *o += s * t),
                        (0, false, _) => out.copy_from_slice(tmp),
                        (_, false, _) => out.iter_mut().zip(tmp.iter()).for_each(|(o, t)| *o += t),
                    }
                }
            }
        }
    }
}
