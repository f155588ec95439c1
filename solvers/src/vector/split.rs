//! How the walks share their work between two threads. [`splits`] says
//! where: at the topmost chance nodes of enough work (a turn spot's river
//! card under each turn line), else at the root. The CFR walk then splits
//! once per walk ([`Plan`]): the nodes above those subtrees (the top: the
//! split nodes and their ancestors) are walked top-down first, so that the
//! reach each subtree starts from is known (it depends only on the
//! strategies above it, which the walk updates only after their subtrees);
//! then every subtree hanging from the top (a unit) goes into one queue
//! that both threads work ([`share`]); then the top is combined and
//! updated bottom-up. The evaluation walk shares each split node's
//! children ([`super::evaluate`]).
//!
//! A unit's decisions have contiguous slabs, so each unit gets its own
//! `&mut` part of the arrays (no atomics, no `unsafe`), and its own row
//! of its parent's values; a node sums its rows in child order after both
//! threads, the order one thread sums them in, so the answer is the same
//! bit for bit on one thread or two.

use super::game::{PublicGame, PublicNode};
use super::leaf;
use super::store::{Layout, Store};
use super::walk::{exclude, product, two_rows, Walk};

/// Where the walks share their work between two threads, per node (see
/// [`Walk::split`]): at the topmost chance nodes whose subtree holds at
/// least `min_work` (nodes times the larger player's states), as that is
/// where the work is (a turn spot's 48 river subtrees under each line);
/// in a game with no such chance node, at the root (the river). Splits
/// never nest: below one, each child walks on one thread. Empty when
/// nothing is split.
pub fn splits(game: &PublicGame, min_work: usize) -> Vec<bool> {
    let n = game.states[0].len().max(game.states[1].len()).max(1);
    let mut split = vec![false; game.nodes.len()];
    let end = subtree_ends(game);
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

/// Per node, where its subtree ends: a subtree's nodes are contiguous,
/// and node `v`'s end where the next sibling's (or an ancestor's next
/// sibling's) begins, set before `v`'s children are reached (a parent
/// comes first).
fn subtree_ends(game: &PublicGame) -> Vec<u32> {
    let mut end = vec![game.nodes.len() as u32; game.nodes.len()];
    for v in 0..game.nodes.len() as u32 {
        let kids = game.children(v);
        for (i, &c) in kids.iter().enumerate() {
            end[c as usize] = kids.get(i + 1).copied().unwrap_or(end[v as usize]);
        }
    }
    end
}

/// The CFR walk's one split, worked out once per run from [`splits`].
pub struct Plan {
    /// The top nodes in node order (a parent before its children): the
    /// split nodes and their ancestors.
    top: Vec<u32>,
    /// Per top node but the root, its parent's position in `top` and its
    /// own among the parent's children.
    parent: Vec<(usize, usize)>,
    /// Per top node and one past the last, its first row (a row per
    /// child, a top node's rows consecutive) and its strategy's first
    /// entry (actions times its player's states; none at a chance node).
    row_at: Vec<usize>,
    sigma_at: Vec<usize>,
    /// The units, the children of top nodes that are not top, in node
    /// order: (node, end of its subtree, parent's position in `top`,
    /// position among the parent's children).
    units: Vec<(u32, u32, usize, usize)>,
    /// Positions in `units`, the largest subtree first: the order the
    /// threads take them in, so that the last ones taken are small.
    order: Vec<usize>,
    /// The larger player's states: a reach's room.
    n: usize,
}

/// The top nodes' vectors of a CFR walk ([`Plan`]), allocated once per
/// run: per top node, the traverser's reach and the other player's
/// (`2 * n`), its strategy, and its children's values (a row each).
pub struct Tops {
    reach: Vec<f32>,
    sigma: Vec<f32>,
    rows: Vec<f32>,
}

impl Plan {
    /// The plan of `game` split at `split` (non-empty: [`splits`]'s).
    pub fn new(game: &PublicGame, split: &[bool]) -> Plan {
        let end = subtree_ends(game);
        // A node is top if it is split or has a top child (children come
        // after their parent: from the last node back).
        let mut is_top = split.to_vec();
        for v in (0..game.nodes.len()).rev() {
            is_top[v] = is_top[v] || game.children(v as u32).iter().any(|&c| is_top[c as usize]);
        }
        let top: Vec<u32> = (0..game.nodes.len() as u32).filter(|&v| is_top[v as usize]).collect();
        let mut at = vec![usize::MAX; game.nodes.len()];
        top.iter().enumerate().for_each(|(t, &v)| at[v as usize] = t);
        let mut parent = vec![(0, 0); top.len()];
        let mut units = Vec::new();
        let (mut row_at, mut sigma_at) = (vec![0], vec![0]);
        for (t, &v) in top.iter().enumerate() {
            let kids = game.children(v);
            for (a, &c) in kids.iter().enumerate() {
                match at[c as usize] {
                    usize::MAX => units.push((c, end[c as usize], t, a)),
                    j => parent[j] = (t, a),
                }
            }
            let n = match &game.nodes[v as usize] {
                PublicNode::Decision { player, .. } => game.states[*player as usize].len(),
                _ => 0,
            };
            row_at.push(row_at[t] + kids.len());
            sigma_at.push(sigma_at[t] + kids.len() * n);
        }
        units.sort_unstable_by_key(|u| u.0);
        let mut order: Vec<usize> = (0..units.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(units[i].1 - units[i].0));
        let n = game.states[0].len().max(game.states[1].len());
        Plan { top, parent, row_at, sigma_at, units, order, n }
    }

    /// The vectors a walk of this plan needs.
    pub fn tops(&self) -> Tops {
        let [reach, sigma, rows] = self.top_lens();
        Tops { reach: vec![0.0; reach], sigma: vec![0.0; sigma], rows: vec![0.0; rows] }
    }

    /// The lengths of [`Tops`]' three vectors.
    fn top_lens(&self) -> [usize; 3] {
        let rows = self.row_at.last().copied().unwrap_or(0) * self.n;
        [2 * self.n * self.top.len(), self.sigma_at.last().copied().unwrap_or(0), rows]
    }

    /// Bytes of the plan and of its [`Tops`].
    pub fn bytes(&self) -> usize {
        let vectors = self.top_lens().iter().sum::<usize>() * size_of::<f32>();
        let lists = self.top.len() * (4 + 2 * 8 + 2 * 8) + self.units.len() * (4 + 4 + 8 + 8 + 8);
        vectors + lists
    }

    /// `walk`'s CFR walk of the whole game on two threads, as
    /// [`Walk::update`] of the root with `own`, `opp` and `out` (the
    /// same arithmetic, so the same bits), each thread in its arena.
    pub fn update<L: Layout>(
        &self,
        walk: &Walk,
        store: &mut Store<L>,
        tops: &mut Tops,
        [own, opp]: [&[f32]; 2],
        out: &mut [f32],
        [arena, spare]: [&mut [f32]; 2],
    ) {
        self.down(walk, store, tops, [own, opp], arena);
        self.share_units(walk, store, tops, [arena, spare]);
        self.up(walk, store, tops, out);
    }

    /// The top's reaches and strategies, top-down from the root's `own`
    /// and `opp`, and the leaves a decision of the traverser values in
    /// one go (a fold and a call beside it, as [`Walk::children`] does).
    fn down<L: Layout>(
        &self,
        walk: &Walk,
        store: &Store<L>,
        tops: &mut Tops,
        [own, opp]: [&[f32]; 2],
        arena: &mut [f32],
    ) {
        let game = walk.game;
        let (n, me) = (self.n, walk.me);
        let (n_me, n_opp) = (game.states[me].len(), game.states[1 - me].len());
        tops.reach[..n_me].copy_from_slice(own);
        tops.reach[n..n + n_opp].copy_from_slice(opp);
        for (t, &v) in self.top.iter().enumerate() {
            let (above, here) = tops.reach.split_at_mut(t * 2 * n);
            let (own_t, opp_t) = here[..2 * n].split_at_mut(n);
            if t > 0 {
                // The reach of child `a` of the parent `p`, as the walk
                // passes it down.
                let (p, a) = self.parent[t];
                let (own_p, opp_p) = above[p * 2 * n..(p + 1) * 2 * n].split_at(n);
                let (own_p, opp_p) = (&own_p[..n_me], &opp_p[..n_opp]);
                let (own_t, opp_t) = (&mut own_t[..n_me], &mut opp_t[..n_opp]);
                let sigma_p = &tops.sigma[self.sigma_at[p]..self.sigma_at[p + 1]];
                match &game.nodes[self.top[p] as usize] {
                    PublicNode::Chance { outcomes, .. } => {
                        let o = outcomes.start + a as u32;
                        let prob = game.outcomes[o as usize].prob as f32;
                        opp_t.iter_mut().zip(opp_p).for_each(|(r, x)| *r = x * prob);
                        exclude(opp_t, game.excluded(o, 1 - me));
                        own_t.copy_from_slice(own_p);
                        exclude(own_t, game.excluded(o, me));
                    }
                    PublicNode::Decision { player, .. } if *player as usize == me => {
                        product(own_t, own_p, &sigma_p[a * n_me..(a + 1) * n_me]);
                        opp_t.copy_from_slice(opp_p);
                    }
                    _ => {
                        own_t.copy_from_slice(own_p);
                        opp_t.copy_from_slice(&sigma_p[a * n_opp..(a + 1) * n_opp]);
                    }
                }
            }
            let opp_t = &opp_t[..n_opp];
            let sigma = &mut tops.sigma[self.sigma_at[t]..self.sigma_at[t + 1]];
            walk.strategy(v, &*store.regrets, store.base, opp_t, sigma, arena);
            if let Some(([f, c], payoffs)) = walk.leaves.fused(v).filter(|_| walk.decides(v)) {
                let payoffs = payoffs.map(|p| &game.payoffs[p as usize]);
                let rows = &mut tops.rows[self.row_at[t] * n_me..self.row_at[t + 1] * n_me];
                let [fold_row, call_row] = two_rows(rows, [f, c], n_me);
                leaf::fused_values(game, walk.leaves, payoffs, me, opp_t, fold_row, call_row);
            }
        }
    }

    /// Every unit (but the leaves [`Self::down`] valued) walked by the
    /// two threads from one queue, each with its part of the arrays and
    /// its row of its parent's values.
    fn share_units<L: Layout>(&self, walk: &Walk, store: &mut Store<L>, tops: &mut Tops, arenas: [&mut [f32]; 2]) {
        let game = walk.game;
        let (n, n_me) = (self.n, game.states[walk.me].len());
        let n_opp = game.states[1 - walk.me].len();
        // Each unit's part of the arrays, cut in node order (the top's
        // own slabs, between them, are left out). One vector of parts
        // and one of rows a walk.
        let total = store.base + store.regrets.len();
        let (mut regrets, mut sums, mut base) = (&mut *store.regrets, &mut *store.sums, store.base);
        let (mut scales, mut first_node) = (&mut *store.scales, store.first_node);
        let mut parts: Vec<Option<Store<L>>> = Vec::with_capacity(self.units.len());
        for &(u, end, _, _) in &self.units {
            let slab_at = |v: u32| walk.slab.get(v as usize).copied().unwrap_or(total);
            let (start, stop) = (slab_at(u) - base, slab_at(end) - base);
            let (_, r) = std::mem::take(&mut regrets).split_at_mut(start);
            let (r, r_rest) = r.split_at_mut(stop - start);
            let (_, m) = std::mem::take(&mut sums).split_at_mut(start);
            let (m, m_rest) = m.split_at_mut(stop - start);
            // The unit's nodes' scales (none kept: none split).
            let (skip, nodes) = if L::SCALED { (u as usize - first_node, (end - u) as usize) } else { (0, 0) };
            let (_, x) = std::mem::take(&mut scales).split_at_mut(skip);
            let (x, x_rest) = x.split_at_mut(nodes);
            let unit_first = first_node + skip;
            parts.push(Some(Store::<L> { regrets: r, sums: m, scales: x, base: slab_at(u), first_node: unit_first }));
            (regrets, sums, base) = (r_rest, m_rest, slab_at(end));
            (scales, first_node) = (x_rest, unit_first + nodes);
        }
        let rows = &mut tops.rows[..self.row_at.last().copied().unwrap_or(0) * n_me];
        let mut rows: Vec<Option<&mut [f32]>> = rows.chunks_exact_mut(n_me).map(Some).collect();
        let (reach, sigma) = (&tops.reach, &tops.sigma);
        let queue = self.order.iter().filter_map(|&i| {
            let (_, _, t, a) = self.units[i];
            let v = self.top[t];
            let fused = walk.leaves.fused(v).is_some_and(|(fc, _)| fc.contains(&a)) && walk.decides(v);
            let part = parts[i].take().filter(|_| !fused)?;
            Some((t, a, part, rows[self.row_at[t] + a].take()?))
        });
        share(queue, arenas, |(t, a, mut part, row), arena| {
            let (own_t, opp_t) = reach[t * 2 * n..(t + 1) * 2 * n].split_at(n);
            let sigma_t = &sigma[self.sigma_at[t]..self.sigma_at[t + 1]];
            let (v, own_t, opp_t) = (self.top[t], &own_t[..n_me], &opp_t[..n_opp]);
            walk.children(v, a..a + 1, &mut part, own_t, opp_t, sigma_t, row, arena);
        });
    }

    /// The top's values, combined (and the traverser's decisions updated)
    /// bottom-up into `out`, the root's values.
    fn up<L: Layout>(&self, walk: &Walk, store: &mut Store<L>, tops: &mut Tops, out: &mut [f32]) {
        let game = walk.game;
        let (n, n_me) = (self.n, game.states[walk.me].len());
        for (t, &v) in self.top.iter().enumerate().rev() {
            let (above, rows) = tops.rows.split_at_mut(self.row_at[t] * n_me);
            let rows = &mut rows[..(self.row_at[t + 1] - self.row_at[t]) * n_me];
            let own = &tops.reach[t * 2 * n..][..n_me];
            let sigma = &mut tops.sigma[self.sigma_at[t]..self.sigma_at[t + 1]];
            if t == 0 {
                walk.combine(v, store, own, sigma, rows, out);
                continue;
            }
            let (p, a) = self.parent[t];
            let row = &mut above[(self.row_at[p] + a) * n_me..][..n_me];
            walk.combine(v, store, own, sigma, rows, row);
            // Below a chance outcome, the states it excludes are worth 0.
            if let PublicNode::Chance { outcomes, .. } = &game.nodes[self.top[p] as usize] {
                exclude(row, game.excluded(outcomes.start + a as u32, walk.me));
            }
        }
    }
}

/// Runs `work` on every part on two threads, each with its own arena: the
/// parts are handed out one at a time, so a thread that the machine's load
/// holds back leaves its share to the other. One thread takes them from
/// the front and the other from the back, so that a part goes to the same
/// thread walk after walk (where the two meet aside), its arrays still in
/// that thread's caches.
pub fn share<P: Send, T: Send>(
    parts: impl DoubleEndedIterator<Item = P> + Send,
    [a, b]: [&mut [T]; 2],
    work: impl Fn(P, &mut [T]) + Sync,
) {
    let queue = std::sync::Mutex::new(parts);
    // By the pool's thread index where there is one: which of the pool's
    // threads runs the join's first half differs from walk to walk.
    let run = |arena: &mut [T], first: bool| loop {
        let front = rayon_core::current_thread_index().map_or(first, |i| i % 2 == 0);
        let mut parts = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let next = if front { parts.next() } else { parts.next_back() };
        drop(parts);
        let Some(part) = next else { break };
        work(part, arena);
    };
    // In the run's pool (`VectorCfr`'s) the other thread is alive and
    // takes the second half of the join (or finds the queue empty).
    rayon_core::join(|| run(a, true), || run(b, false));
}
