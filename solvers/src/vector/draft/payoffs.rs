//! [`Draft::payoffs`]: each leaf's payoff per pair of private states, the
//! average over the pair's deals of its table's amounts, in its cheapest
//! form (a constant, a showdown's ranking, or a matrix).

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::super::game::{Payoff, Ranking};
use super::super::infer::showdown;
use super::deal_sets::Listed;
use super::{Draft, Index, Pays, SetIds};

/// What [`Draft::payoffs`] makes: per leaf its payoff, the showdowns'
/// rankings, and the matrices' entries.
type Payoffs = (Vec<Payoff>, Vec<Ranking>, Vec<f64>);

impl Draft {
    /// Each leaf's payoff to player 0 per pair (the deals' average), in its
    /// cheapest form. `single`: every pair is dealt by one deal at most,
    /// whose average is then its own amount, computed as the general
    /// case does (`(w * pay) / w`, the same bits) with no array per pair;
    /// else a table's weighted sums and masses are gathered per pair.
    pub(super) fn payoffs(&self, class_of: &[SetIds; 2], n: [usize; 2], single: bool) -> Payoffs {
        // The passes read a deal's classes at every deal of every table:
        // from two `u16` lists read directly where they are (a form each).
        match class_of {
            [SetIds::Listed(Listed::Narrow(a)), SetIds::Listed(Listed::Narrow(b))] => {
                self.payoffs_by(|d| [u32::from(a[d as usize]), u32::from(b[d as usize])], n, single)
            }
            _ => self.payoffs_by(|d| [class_of[0].at(d as usize), class_of[1].at(d as usize)], n, single),
        }
    }

    /// [`Draft::payoffs`], `pair(deal)` being a deal's pair: each player's
    /// private state (no index to divide back per pass).
    fn payoffs_by(&self, pair: impl Fn(u32) -> [u32; 2] + Copy, n: [usize; 2], single: bool) -> Payoffs {
        let mut out: Payoffs = (Vec::new(), Vec::new(), Vec::new());
        let mut interned: FxHashMap<[Vec<u32>; 2], u32> = FxHashMap::default();
        let at = |[i, j]: [u32; 2]| i as usize * n[1] + j as usize;
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
        // Per (deals, byte pattern, number of amounts) of a table whose
        // deals' averages are its amounts' own (`per_index`), strictly
        // increasing: the ranking its showdown form found. The form reads
        // only which pairs win, tie and lose, which those three give, so a
        // table of other stakes with them has the same ranking (the turn's
        // showdowns on one river card: 11 stakes a pattern).
        let mut shapes: FxHashMap<(*const super::Deals, *const u8, usize), u32> = FxHashMap::default();
        // The deals' one probability, where they share it.
        let uniform = self.deal_prob.uniform();
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
                match (per_index(table, &self.deal_prob, uniform), table) {
                    // One amount, one probability: every pair's average is the same.
                    (_, Pays::Constant(pay, deals)) if uniform.is_some() => {
                        let w = uniform.unwrap_or_default();
                        Payoff::Constant(if deals.is_empty() { 0.0 } else { (w * *pay as f64) / w })
                    }
                    (Some((deals, bytes, avg)), _) => {
                        let key = (Rc::as_ptr(deals), Rc::as_ptr(bytes) as *const u8, avg.len());
                        let increasing = avg.windows(2).all(|w| w[0] < w[1]);
                        match shapes.get(&key) {
                            Some(&ranking) if increasing => Payoff::Showdown {
                                ranking,
                                win: avg[avg.len() - 1],
                                lose: avg[0],
                                tie: if avg.len() == 3 { avg[1] } else { 0.0 },
                            },
                            _ => {
                                let each = || deals.iter().zip(bytes.iter()).map(|(d, &k)| (pair(d), avg[k as usize]));
                                let payoff = form_of(each, n, &mut out, &mut interned);
                                if let (Payoff::Showdown { ranking, .. }, true) = (payoff, increasing) {
                                    shapes.insert(key, ranking);
                                }
                                payoff
                            }
                        }
                    }
                    (None, _) => {
                        let each = || {
                            table.each().map(|(deal, pay)| {
                                let w = self.deal_prob.get(deal as usize);
                                (pair(deal), (w * pay as f64) / w)
                            })
                        };
                        form_of(each, n, &mut out, &mut interned)
                    }
                }
            } else {
                if avg.is_empty() {
                    (avg, mass) = (vec![0.0f64; n[0] * n[1]], vec![0.0f64; n[0] * n[1]]);
                }
                for (deal, pay) in table.each() {
                    let k = at(pair(deal));
                    if mass[k] == 0.0 {
                        pairs.push(k as u32);
                    }
                    let w = self.deal_prob.get(deal as usize);
                    avg[k] += w * pay as f64;
                    mass[k] += w;
                }
                for &k in &pairs {
                    avg[k as usize] /= mass[k as usize];
                }
                let payoff =
                    form_of(|| pairs.iter().map(|&k| (state_pair(k, n), avg[k as usize])), n, &mut out, &mut interned);
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

/// Where a table's payoffs are a byte per deal: its deals, bytes and, per
/// amount, the average each of its deals has (`(w * pay) / w`, as
/// [`Draft::payoffs`] computes it per deal), found to be the same for every
/// deal of the amount (always so where the deals have one probability,
/// `uniform`); `None` otherwise.
#[allow(clippy::type_complexity)]
fn per_index<'t>(
    table: &'t Pays,
    deal_prob: &super::DealProbs,
    uniform: Option<f64>,
) -> Option<(&'t Rc<super::Deals>, &'t Rc<[u8]>, Vec<f64>)> {
    let Pays::Deals { deals, values, index: Index::Bytes(bytes) } = table else { return None };
    let avg = |w: f64, pay: i64| (w * pay as f64) / w;
    if let Some(w) = uniform {
        return Some((deals, bytes, values.iter().map(|&pay| avg(w, pay)).collect()));
    }
    let mut each: Vec<Option<f64>> = vec![None; values.len()];
    for (d, &k) in deals.iter().zip(bytes.iter()) {
        let v = avg(deal_prob.get(d as usize), values[k as usize]);
        match each[k as usize] {
            None => each[k as usize] = Some(v),
            Some(was) if was.to_bits() == v.to_bits() => {}
            Some(_) => return None,
        }
    }
    Some((deals, bytes, each.into_iter().collect::<Option<Vec<f64>>>()?))
}

/// The pair of private states at index `k` of a matrix of `n` columns.
fn state_pair(k: u32, n: [usize; 2]) -> [u32; 2] {
    [k / n[1] as u32, k % n[1] as u32]
}

/// The cheapest form of a table's payoffs per pair (`pairs`: each pair of
/// private states touched once, with its average, in the order met; read
/// in a few passes): one amount, a showdown (its ranking interned among
/// `out`'s), or a matrix (its entries added to `out`'s).
fn form_of<I: Iterator<Item = ([u32; 2], f64)>>(
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
        for ([i, j], v) in pairs() {
            matrix[start as usize + i as usize * n[1] + j as usize] = v;
        }
        Payoff::Matrix { start }
    }
}
