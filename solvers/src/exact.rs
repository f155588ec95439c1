//! Exact values: a floating-point profile turned into rationals and checked
//! in exact arithmetic, so that a game value can be stated as a fraction.
//!
//! In a two-player constant-sum game the rationals are first found by
//! solving the equilibrium conditions on the float answer's supports
//! exactly ([`crate::support`]); when that gives no exact equilibrium (or
//! in other games), a solver's probabilities are rounded to small-denominator fractions (the
//! best approximations with a bounded denominator, as continued fractions
//! give them), each set's largest probability taking up what makes the sum
//! exactly 1. The rounded profile is then evaluated with rational chance
//! probabilities and integer payoffs: every player's expected payoff and
//! best-response value are exact, so is the exploitability (NashConv). When
//! it is 0 the rounded profile is an equilibrium and its payoffs are the
//! value, certified. Otherwise, in a two-player constant-sum game, the
//! best responses still bound the value exactly: the first player can
//! guarantee `c - br[1]` and cannot get more than `br[0]`.

use galac_runtime::ids::{IdSlice, IdVec, InfosetId, NodeId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};
use num_bigint::BigInt;
use num_traits::{One, Zero};

use crate::rounding::ratio;
pub use crate::rounding::{approximate, float_plans, round_plan, round_profile, to_f64, Q};
use crate::support::Supports;
use crate::treeplex::Treeplex;
use crate::Profile;

/// The exact check of a rounded profile.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The rounded profile: per information set, its action probabilities.
    pub probs: IdVec<InfosetId, Vec<Q>>,
    /// The largest denominator the rounding allowed.
    pub max_denominator: u64,
    /// The profile solves the equilibrium conditions on the float answer's
    /// supports exactly ([`crate::support`]); otherwise it is the float
    /// profile rounded.
    pub solved: bool,
    /// Each player's exact expected payoff under the rounded profile.
    pub values: Vec<Q>,
    /// Each player's exact best-response value against the others.
    pub best_response: Vec<Q>,
    /// `sum_p (best_response[p] - values[p])`: 0 exactly at an equilibrium.
    pub nash_conv: Q,
    /// In a two-player constant-sum game: an exact interval holding the
    /// first player's game value (a single point when certified).
    pub interval: Option<(Q, Q)>,
}

impl Certificate {
    /// The rounded profile is an exact equilibrium.
    pub fn certified(&self) -> bool {
        self.nash_conv.is_zero()
    }
}

/// The denominator bounds tried, smallest first.
const DENOMINATORS: [u64; 7] = [10, 100, 1_000, 10_000, 100_000, 1_000_000, 100_000_000];

/// What a rounding guarantees one player: the payoff, the rounded profile,
/// its denominator bound.
type Guarantee = (Q, IdVec<InfosetId, Vec<Q>>, u64);

/// Rounds `profile` with growing denominator bounds, two ways (the
/// behaviour probabilities, and the realization plan whose shares then give
/// them: a vertex of the sequence-form LP is rational there), and checks
/// each rounding exactly. In a two-player constant-sum game each player's
/// rounding is chosen apart, the one guaranteeing that player the most, and
/// the search stops as the two guarantees meet; otherwise the first
/// rounding that is an exact equilibrium wins, or the one with the smallest
/// exact NashConv.
pub fn certify(tree: &Tree, profile: &Profile) -> Certificate {
    let order = tree.preorder();
    let treeplex = Treeplex::new(tree);
    let roundings = |den: u64| [round_profile(tree, profile, den), round_plan(tree, &treeplex, profile, den)];
    let Some(c) = constant_sum(tree).filter(|_| tree.n_players == 2) else {
        let mut best: Option<Certificate> = None;
        for den in DENOMINATORS {
            for probs in roundings(den) {
                let cert = check(tree, probs, den);
                if cert.certified() {
                    return cert;
                }
                if best.as_ref().is_none_or(|b| cert.nash_conv < b.nash_conv) {
                    best = Some(cert);
                }
            }
        }
        return best.expect("at least one rounding is tried");
    };
    if let Some(cert) = solve_on_supports(tree, profile) {
        return cert;
    }
    let c = Q::from_integer(BigInt::from(c));
    // Per player: (guarantee, rounding, its denominator bound).
    let mut best: [Option<Guarantee>; 2] = [None, None];
    for den in DENOMINATORS {
        for probs in roundings(den) {
            // What the first player's part guarantees it (c minus the second
            // player's best response), and what the second's holds it to.
            let lower = &c - best_response_value(tree, &probs, &order, PlayerId(1));
            let upper = -best_response_value(tree, &probs, &order, PlayerId(0));
            for (p, g) in [(0, lower), (1, upper)] {
                if best[p].as_ref().is_none_or(|(b, _, _)| g > *b) {
                    best[p] = Some((g, probs.clone(), den));
                }
            }
        }
        if let [Some((lo, _, _)), Some((hi, _, _))] = &best {
            if *lo == -hi {
                break;
            }
        }
    }
    let [Some((_, first, d0)), Some((_, second, d1))] = best else { unreachable!("every player has a rounding") };
    let probs = tree
        .infosets
        .iter_enumerated()
        .map(|(set, info)| if info.player == PlayerId(0) { first[set].clone() } else { second[set].clone() })
        .collect();
    check(tree, probs, d0.max(d1))
}

/// The support thresholds tried (a sequence is played when its float
/// realization weight exceeds one), and the denominator bounds of the
/// unknowns the supports leave free.
const TOLERANCES: [f64; 3] = [1e-9, 1e-6, 1e-12];
const FREE_DENOMINATORS: [u64; 3] = [1_000, 1_000_000, 1_000_000_000];

/// The first exact equilibrium found by solving the equilibrium conditions
/// on `profile`'s supports ([`crate::support`]), if any.
fn solve_on_supports(tree: &Tree, profile: &Profile) -> Option<Certificate> {
    for (all_tight, tolerance) in [false, true].into_iter().flat_map(|t| TOLERANCES.map(|x| (t, x))) {
        let Some(supports) = Supports::new(tree, profile, tolerance, all_tight) else { continue };
        for den in FREE_DENOMINATORS {
            let Some(probs) = supports.profile(den) else { continue };
            let cert = check(tree, probs, den);
            if cert.certified() {
                return Some(Certificate { solved: true, ..cert });
            }
        }
    }
    None
}

/// Checks a rational profile exactly (see [`Certificate`]).
pub fn check(tree: &Tree, probs: IdVec<InfosetId, Vec<Q>>, max_denominator: u64) -> Certificate {
    let order = tree.preorder();
    let values = expected_values(tree, &probs, &order);
    let best_response: Vec<Q> = tree.players().map(|p| best_response_value(tree, &probs, &order, p)).collect();
    let nash_conv = best_response.iter().zip(&values).fold(Q::zero(), |acc, (b, v)| acc + b - v);
    let interval = constant_sum(tree).filter(|_| tree.n_players == 2).map(|c| {
        let lower = Q::from_integer(BigInt::from(c)) - &best_response[1];
        (lower, best_response[0].clone())
    });
    Certificate { probs, max_denominator, solved: false, values, best_response, nash_conv, interval }
}

/// The payoff sum shared by every leaf, if there is one.
pub fn constant_sum(tree: &Tree) -> Option<i64> {
    let mut sums = tree.nodes().filter(|&v| tree.node(v) == NodeView::Terminal).map(|v| tree.payoffs(v).iter().sum());
    let first: i64 = sums.next()?;
    sums.all(|s: i64| s == first).then_some(first)
}

/// Exact expected payoffs of every player, bottom-up over the reversed preorder.
pub fn expected_values(tree: &Tree, probs: &IdSlice<InfosetId, Vec<Q>>, order: &[NodeId]) -> Vec<Q> {
    let n = tree.n_players as usize;
    let mut val: Vec<Vec<Q>> = vec![Vec::new(); tree.n_nodes()];
    for &node in order.iter().rev() {
        let weights: Vec<Q> = match tree.node(node) {
            NodeView::Terminal => {
                val[node.index()] = tree.payoffs(node).iter().map(|&x| Q::from_integer(BigInt::from(x))).collect();
                continue;
            }
            NodeView::Chance => tree.chance_probs(node).iter().map(|&r| ratio(r)).collect(),
            NodeView::Decision { infoset, .. } => probs[infoset].clone(),
        };
        let mut sum = vec![Q::zero(); n];
        for (child, w) in tree.children(node).zip(&weights) {
            if w.is_zero() {
                continue;
            }
            for (s, x) in sum.iter_mut().zip(&val[child.index()]) {
                *s += w * x;
            }
        }
        val[node.index()] = sum;
    }
    val.swap_remove(0)
}

/// Player `me`'s exact best-response value to the others' strategies, in
/// sequence form: a leaf adds its payoff, weighted by chance's and the
/// others' reach, to `me`'s last sequence above it; then, from the sets met
/// last in preorder to the first (a set's parent sequence belongs to a set
/// met before it), each set adds its best action's total to its parent
/// sequence. The empty sequence ends with the best-response value.
pub fn best_response_value(tree: &Tree, probs: &IdSlice<InfosetId, Vec<Q>>, order: &[NodeId], me: PlayerId) -> Q {
    let treeplex = Treeplex::new(tree);
    let n_nodes = tree.n_nodes();
    let mut reach: Vec<Q> = vec![Q::zero(); n_nodes];
    let mut seq = vec![SeqId::EMPTY; n_nodes];
    let mut totals: Vec<Q> = vec![Q::zero(); treeplex.n_seqs(me)];
    let mut met: Vec<InfosetId> = Vec::new();
    let mut seen = vec![false; tree.infosets.len()];
    reach[0] = Q::one();
    for &node in order {
        let (r, s) = (reach[node.index()].clone(), seq[node.index()]);
        match tree.node(node) {
            NodeView::Terminal => {
                totals[s.index()] += &r * Q::from_integer(BigInt::from(tree.payoffs(node)[me.index()]));
            }
            NodeView::Chance => {
                for (child, p) in tree.children(node).zip(tree.chance_probs(node)) {
                    (reach[child.index()], seq[child.index()]) = (&r * ratio(*p), s);
                }
            }
            NodeView::Decision { player, infoset } if player == me => {
                if !std::mem::replace(&mut seen[infoset.index()], true) {
                    met.push(infoset);
                }
                let first = treeplex.first_seq(me, infoset);
                for (a, child) in tree.children(node).enumerate() {
                    (reach[child.index()], seq[child.index()]) = (r.clone(), first + a as u32);
                }
            }
            NodeView::Decision { infoset, .. } => {
                for (child, w) in tree.children(node).zip(&probs[infoset]) {
                    (reach[child.index()], seq[child.index()]) = (&r * w, s);
                }
            }
        }
    }
    for &set in met.iter().rev() {
        let first = treeplex.first_seq(me, set).index();
        let n = tree.infosets[set].n_actions as usize;
        let best = totals[first..first + n].iter().max().cloned().unwrap_or_else(Q::zero);
        totals[treeplex.parent_seq[set].index()] += best;
    }
    totals.swap_remove(0)
}
