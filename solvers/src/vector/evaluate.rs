//! The evaluation walk of [`Walk`]: both players play their average
//! strategies, or the traverser a best response, and nothing changes
//! (the exploitability checks). Where [`Walk::split`] says, a node's
//! children are shared between two threads ([`share`]).

use super::game::PublicNode;
use super::leaf;
use super::split::share;
use super::store::Cell;
use super::walk::{average, exclude, product, Walk};

impl Walk<'_> {
    /// The evaluation walk: both players play their average strategies;
    /// `avg` gets the traverser's counterfactual values so, and `best`
    /// those of its best response (per private state, the action of
    /// highest value) against the other's average. One walk gives both:
    /// the other player's reach, and so every leaf's values, are the same
    /// for the two, which differ only in how the traverser's decisions
    /// combine their children. `sums` are the average sums; `spare` is a
    /// second thread's arena (as long as `arena`), given until a node
    /// shares its children between two threads: where [`Walk::split`] says, the children are
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
