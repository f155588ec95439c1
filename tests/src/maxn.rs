//! max^n on real trees against enumerations written here: the shipped
//! 3-player Nim under both tie rules (root vector, root choice, nodes with
//! ties), a game with chance nodes, and the refusal of imperfect information.
//! Each answer's profile is also checked to be an equilibrium by the
//! independent best response.

use galac_runtime::tree::{build, BuildOptions, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::maxn::{self, Ties};
use galac_solvers::solver::SolveError;

use crate::games::load_interp;

fn tree_of(file: &str, params: &[&str]) -> Tree {
    let game = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

fn tree_of_source(name: &str, src: &str) -> Tree {
    let game = galac_compiler::driver::load_interp(name, src.as_bytes(), &[]).unwrap_or_else(|e| panic!("{e}"));
    build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).unwrap_or_else(|e| panic!("{e}")).0
}

const EPS: f64 = 1e-9;

/// Two vectors agree entry by entry.
fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < EPS)
}

/// max^n of Nim played as in examples/nim222.gala, straight from the rules:
/// (vector, the first best move as (pile, take), nodes with ties below).
fn nim(heap: &mut Vec<i64>, mover: usize, last: usize, ties: Ties) -> ([f64; 3], Option<(usize, i64)>, u64) {
    if heap.iter().sum::<i64>() == 0 {
        let mut v = [0.0; 3];
        v[(last + 1) % 3] = 1.0;
        return (v, None, 0);
    }
    let tokens = 2;
    let mut children = Vec::new();
    let mut n_ties = 0;
    for pile in 0..heap.len() {
        for take in 1..=tokens {
            if take <= heap[pile] {
                heap[pile] -= take;
                let (v, _, t) = nim(heap, (mover + 1) % 3, mover, ties);
                heap[pile] += take;
                n_ties += t;
                children.push(((pile, take), v));
            }
        }
    }
    let top = children.iter().map(|(_, v)| v[mover]).fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<&((usize, i64), [f64; 3])> = children.iter().filter(|(_, v)| (v[mover] - top).abs() < EPS).collect();
    if best.len() > 1 {
        n_ties += 1;
    }
    let v = match ties {
        Ties::First => best[0].1,
        Ties::Average => {
            let mut v = [0.0; 3];
            for (_, w) in &best {
                v.iter_mut().zip(w).for_each(|(a, b)| *a += b / best.len() as f64);
            }
            v
        }
    };
    (v, Some(best[0].0), n_ties)
}

#[test]
fn nim222_equals_the_enumeration_under_both_tie_rules() {
    let tree = tree_of("nim222.gala", &[]);
    for ties in [Ties::First, Ties::Average] {
        let (value, choice, n_ties) = nim(&mut vec![2, 2, 2], 0, 2, ties);
        let (profile, report) = maxn::solve(&tree, ties).expect("nim222 has perfect information");
        assert!(close(&report.value, &value), "{ties:?}: {:?} vs {value:?}", report.value);
        assert_eq!(report.ties, n_ties, "{ties:?}");
        let (set, action) = report.principal_variation[0];
        let (pile, take) = choice.expect("the root is a move");
        assert_eq!(tree.action_labels(set)[action as usize], format!("({pile}, {take})"), "{ties:?}");
        // The profile is an equilibrium worth the root vector.
        let eval = evaluate(&tree, &profile);
        assert!(eval.nash_conv.abs() < EPS, "{ties:?}: NashConv {}", eval.nash_conv);
        assert!(close(&eval.values, &value), "{ties:?}");
        // Pruning finds the same root and evaluates fewer payoff entries.
        assert!(report.shallow.evaluations < report.exhaustive.evaluations);
        let bounds = report.bounds.expect("nim's payoffs sum to 1");
        assert!(bounds.evaluations <= report.shallow.evaluations);
        assert!(bounds.nodes < report.exhaustive.nodes);
    }
}

/// Nature rolls a die everyone sees, then A and B move in view of all; B is
/// indifferent when A plays 0, so the tie rules differ.
const DICE3: &str = "game dice3 {
    players A, B, C;
    flow {
        choose nature d in 1..=3;
        reveal all rolled(d);
        choose A a in 0..=1;
        reveal all chose_a(a);
        choose B b in 0..=1;
        reveal all chose_b(b);
        payoff A += d * a + b;
        payoff B += (1 - a) * d + 2 * b * a;
        payoff C += 3 - d * b;
        end;
    }
}";

/// The expected vector of DICE3 under max^n, from its rules.
fn dice3(ties: Ties) -> [f64; 3] {
    let pay = |d: f64, a: f64, b: f64| [d * a + b, (1.0 - a) * d + 2.0 * b * a, 3.0 - d * b];
    let mut total = [0.0; 3];
    for d in 1..=3 {
        let d = f64::from(d);
        let after_a = |a: f64| {
            let (v0, v1) = (pay(d, a, 0.0), pay(d, a, 1.0));
            if (v0[1] - v1[1]).abs() < EPS {
                match ties {
                    Ties::First => v0,
                    Ties::Average => [0, 1, 2].map(|p| (v0[p] + v1[p]) / 2.0),
                }
            } else if v1[1] > v0[1] {
                v1
            } else {
                v0
            }
        };
        let (w0, w1) = (after_a(0.0), after_a(1.0));
        let v = if w1[0] > w0[0] + EPS { w1 } else { w0 };
        total.iter_mut().zip(v).for_each(|(a, b)| *a += b / 3.0);
    }
    total
}

#[test]
fn chance_nodes_back_up_expected_vectors() {
    let tree = tree_of_source("dice3.gala", DICE3);
    for ties in [Ties::First, Ties::Average] {
        let expected = dice3(ties);
        let (profile, report) = maxn::solve(&tree, ties).expect("perfect information");
        assert!(close(&report.value, &expected), "{ties:?}: {:?} vs {expected:?}", report.value);
        assert_eq!(report.ties, 3, "B is indifferent after A's 0 for every roll");
        assert!(report.principal_variation.is_empty() && report.pv_ends_at_chance);
        let eval = evaluate(&tree, &profile);
        assert!(eval.nash_conv.abs() < EPS, "{ties:?}: NashConv {}", eval.nash_conv);
    }
}

#[test]
fn imperfect_information_is_refused_naming_a_shared_set() {
    let tree = tree_of("kuhn.gala", &[]);
    let Err(SolveError::Unsupported { reason, .. }) = maxn::solve(&tree, Ties::First) else {
        panic!("kuhn has hidden cards");
    };
    assert!(reason.contains("not of perfect information") && reason.contains("holds two nodes"), "{reason}");
    assert!(reason.contains("after "), "the two nodes are named by their moves: {reason}");
}
