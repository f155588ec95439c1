//! Floats to rationals: the profile's probabilities or realization plans
//! rounded to fractions of bounded denominator, and chance probabilities
//! as exact rationals, for the exact checks ([`crate::exact`]) and the
//! support solver ([`crate::support`]).

use galac_runtime::ids::{IdVec, InfosetId, PlayerId};
use galac_runtime::rational::Ratio;
use galac_runtime::tree::Tree;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::treeplex::Treeplex;
use crate::Profile;

/// An exact number.
pub type Q = BigRational;

/// The profile's realization plan (per player, the product of its own
/// probabilities along the way to each sequence) rounded to denominators at
/// most `max_den`, turned back into behaviour: each action's share of its
/// set's rounded sequences (the rounded behaviour where they are all 0).
pub fn round_plan(tree: &Tree, treeplex: &Treeplex, profile: &Profile, max_den: u64) -> IdVec<InfosetId, Vec<Q>> {
    let fallback = round_profile(tree, profile, max_den);
    let plans = float_plans(tree, treeplex, profile);
    tree.infosets
        .iter_enumerated()
        .map(|(set, info)| {
            let p = info.player;
            let first = treeplex.first_seq(p, set).index();
            let n = info.n_actions as usize;
            let rounded: Vec<Q> =
                plans[p][first..first + n].iter().map(|&x| approximate(x.clamp(0.0, 1.0), max_den)).collect();
            let total = rounded.iter().fold(Q::zero(), |acc, x| acc + x);
            if total.is_zero() {
                fallback[set].clone()
            } else {
                rounded.iter().map(|x| x / &total).collect()
            }
        })
        .collect()
}

/// Every player's realization plan under `profile`: per sequence, the
/// product of the player's own probabilities along the way to it.
pub fn float_plans(tree: &Tree, treeplex: &Treeplex, profile: &Profile) -> IdVec<PlayerId, Vec<f64>> {
    let mut plans: IdVec<PlayerId, Vec<f64>> = tree.players().map(|p| vec![0.0; treeplex.n_seqs(p)]).collect();
    for (p, plan) in plans.iter_mut_enumerated() {
        plan[0] = 1.0;
        // Sets in slot order: a set's parent sequence is filled before it.
        for &set in &treeplex.infosets_of[p] {
            let parent = plan[treeplex.parent_seq[set].index()];
            let first = treeplex.first_seq(p, set).index();
            for (a, x) in profile.probs(set).iter().enumerate() {
                plan[first + a] = parent * x;
            }
        }
    }
    plans
}

/// The profile's probabilities as fractions with denominators at most `max_den`;
/// each set sums to exactly 1 (the largest probability absorbs the rounding,
/// or, if that would make it negative, the set is divided by its sum).
pub fn round_profile(tree: &Tree, profile: &Profile, max_den: u64) -> IdVec<InfosetId, Vec<Q>> {
    tree.infosets
        .keys()
        .map(|set| {
            let floats = profile.probs(set);
            let mut probs: Vec<Q> = floats.iter().map(|&x| approximate(x.clamp(0.0, 1.0), max_den)).collect();
            let total = probs.iter().fold(Q::zero(), |acc, x| acc + x);
            if total.is_one() {
                return probs;
            }
            let largest = (0..probs.len()).fold(0, |b, a| if floats[a] > floats[b] { a } else { b });
            let fixed = Q::one() - (&total - &probs[largest]);
            if !fixed.is_negative() {
                probs[largest] = fixed;
            } else {
                probs.iter_mut().for_each(|x| *x = &*x / &total);
            }
            probs
        })
        .collect()
}

/// The best rational approximation of `x` in [0, 1] with a denominator at
/// most `max_den` (the semiconvergents of its continued fraction, as
/// Python's `Fraction.limit_denominator`).
pub fn approximate(x: f64, max_den: u64) -> Q {
    let exact = exact_f64(x);
    let max = BigInt::from(max_den);
    if *exact.denom() <= max {
        return exact;
    }
    let (mut p0, mut q0, mut p1, mut q1) = (BigInt::zero(), BigInt::one(), BigInt::one(), BigInt::zero());
    let (mut n, mut d) = (exact.numer().clone(), exact.denom().clone());
    // The denominator exceeds `max`, so the expansion stops before it ends.
    loop {
        let a = &n / &d;
        let q2 = &q0 + &a * &q1;
        if q2 > max {
            break;
        }
        let p2 = &p0 + &a * &p1;
        (p0, q0, p1, q1) = (p1, q1, p2, q2);
        let r = &n - &a * &d;
        (n, d) = (d, r);
    }
    let k = (&max - &q0) / &q1;
    let bound1 = Q::new(&p0 + &k * &p1, &q0 + &k * &q1);
    let bound2 = Q::new(p1, q1);
    if (&bound2 - &exact).abs() <= (&bound1 - &exact).abs() {
        bound2
    } else {
        bound1
    }
}

/// The nearest float (NaN if out of range).
pub fn to_f64(q: &Q) -> f64 {
    num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

/// A finite float as the exact rational it stands for.
fn exact_f64(x: f64) -> Q {
    Q::from_float(x).unwrap_or_else(Q::zero)
}

/// A chance probability as an exact rational.
pub(crate) fn ratio(r: Ratio) -> Q {
    Q::new(BigInt::from(r.num), BigInt::from(r.den))
}
