//! [`Draft::payoffs`]: each leaf's payoff per pair of private states, the
//! average over the pair's deals of its table's amounts, in its cheapest
//! form (a constant, a showdown's ranking, or a matrix).

use rustc_hash::FxHashMap;

use super::super::game::{Payoff, Ranking};
use super::super::infer::showdown;
use super::Draft;

/// What [`Draft::payoffs`] makes: per leaf its payoff, the showdowns'
/// rankings, and the matrices' entries.
type Payoffs = (Vec<Payoff>, Vec<Ranking>, Vec<f64>);

impl Draft {
    /// Each leaf's payoff to player 0 per pair (the deals' average), in its
    /// cheapest form. `single`: every pair is dealt by one deal at most,
    /// whose average is then its own amount, computed as the general
    /// case does (`(w * pay) / w`, the same bits) with no array per pair;
    /// else a table's weighted sums and masses are gathered per pair.
    pub(super) fn payoffs(&self, class_of: &[Vec<u32>; 2], n: [usize; 2], single: bool) -> Payoffs {
        let mut out: Payoffs = (Vec::new(), Vec::new(), Vec::new());
        let mut interned: FxHashMap<[Vec<u32>; 2], u32> = FxHashMap::default();
        let pair = |deal: u32| class_of[0][deal as usize] as usize * n[1] + class_of[1][deal as usize] as usize;
        // Per pair (where pairs share deals): the weighted sum of a table's
        // payoffs, then (divided by its mass) their average, in place; and
        // the pairs the table's deals touch, in order met, each once (a
        // `u32` a pair, reused from table to table; both arrays zero again
        // between tables).
        let (mut avg, mut mass) = (Vec::new(), Vec::new());
        let mut pairs: Vec<u32> = Vec::new();
        // Per table: its form, worked out at its first leaf (a matrix is
        // copied for each further leaf, as one is made per leaf).
        let mut form: Vec<Option<Payoff>> = vec![None; self.tables.len()];
        for &(_, table) in &self.leaves {
            let (payoffs, _, matrix) = &mut out;
            match form[table as usize] {
                Some(Payoff::Matrix { start }) => {
                    let at = matrix.len() as u32;
                    matrix.extend_from_within(start as usize..start as usize + n[0] * n[1]);
                    payoffs.push(Payoff::Matrix { start: at });
                    continue;
                }
                Some(payoff) => {
                    payoffs.push(payoff);
                    continue;
                }
                None => {}
            }
            let t = table as usize;
            let table = &self.tables[t];
            let payoff = if single {
                let each = || {
                    table.each().map(|(deal, pay)| {
                        let w = self.deal_prob[deal as usize];
                        (pair(deal), (w * pay as f64) / w)
                    })
                };
                form_of(each, n, &mut out, &mut interned)
            } else {
                if avg.is_empty() {
                    (avg, mass) = (vec![0.0f64; n[0] * n[1]], vec![0.0f64; n[0] * n[1]]);
                }
                for (deal, pay) in table.each() {
                    let k = pair(deal);
                    if mass[k] == 0.0 {
                        pairs.push(k as u32);
                    }
                    let w = self.deal_prob[deal as usize];
                    avg[k] += w * pay as f64;
                    mass[k] += w;
                }
                for &k in &pairs {
                    avg[k as usize] /= mass[k as usize];
                }
                let payoff =
                    form_of(|| pairs.iter().map(|&k| (k as usize, avg[k as usize])), n, &mut out, &mut interned);
                for &k in &pairs {
                    (avg[k as usize], mass[k as usize]) = (0.0, 0.0);
                }
                pairs.clear();
                payoff
            };
            form[t] = Some(payoff);
            out.0.push(payoff);
        }
        out
    }
}

/// The cheapest form of a table's payoffs per pair (`pairs`: each pair
/// touched once, with its average, in the order met; read in a few
/// passes): one amount, a showdown (its ranking interned among
/// `out`'s), or a matrix (its entries added to `out`'s).
fn form_of<I: Iterator<Item = (usize, f64)>>(
    pairs: impl Fn() -> I,
    n: [usize; 2],
    out: &mut Payoffs,
    interned: &mut FxHashMap<[Vec<u32>; 2], u32>,
) -> Payoff {
    let (_, rankings, matrix) = out;
    debug_assert!(pairs().all(|(_, v)| v.is_finite()));
    // A table has a deal at least (a leaf's deals present).
    let first = pairs().next().map_or(0.0, |(_, v)| v);
    if pairs().all(|(_, v)| v == first) {
        Payoff::Constant(first)
    } else if let Some((rank, [win, lose, tie])) = showdown(&pairs, n) {
        let next = interned.len() as u32;
        let ranking = *interned.entry(rank.clone()).or_insert_with(|| {
            rankings.push(Ranking::new(rank));
            next
        });
        Payoff::Showdown { ranking, win, lose, tie }
    } else {
        let start = matrix.len() as u32;
        matrix.resize(matrix.len() + n[0] * n[1], 0.0);
        for (k, v) in pairs() {
            matrix[start as usize + k] = v;
        }
        Payoff::Matrix { start }
    }
}
