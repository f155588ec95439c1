//! The search against the paper's own example (section VI: 3-player 2-2-2 Nim
//! looked ahead three moves, leaves valued by the paper's heuristic) and
//! against a plain recursive max^n on random trees.

use super::search::{search, ConstantSum, Pruning, SearchNode, SearchSpace};
use super::Ties;

/// An explicit tree: per node its kind, children, chance probabilities and
/// leaf vector.
#[derive(Default)]
struct Explicit {
    n: usize,
    kind: Vec<SearchNode>,
    children: Vec<std::ops::Range<u32>>,
    probs: Vec<Vec<f64>>,
    leaf: Vec<Vec<f64>>,
}

impl SearchSpace for Explicit {
    fn n_players(&self) -> usize {
        self.n
    }
    fn n_nodes(&self) -> usize {
        self.kind.len()
    }
    fn node(&self, node: u32) -> SearchNode {
        self.kind[node as usize]
    }
    fn children(&self, node: u32) -> std::ops::Range<u32> {
        self.children[node as usize].clone()
    }
    fn chance_prob(&self, node: u32, k: usize) -> f64 {
        self.probs[node as usize][k]
    }
    fn evaluate(&self, leaf: u32, player: usize) -> f64 {
        self.leaf[leaf as usize][player]
    }
}

impl Explicit {
    fn push(&mut self, kind: SearchNode, leaf: Vec<f64>) -> u32 {
        self.kind.push(kind);
        self.children.push(0..0);
        self.probs.push(Vec::new());
        self.leaf.push(leaf);
        self.kind.len() as u32 - 1
    }
}

/// The positions a move leads to from sorted piles, each distinct position
/// once (the paper's figure draws positions up to the order of the piles).
fn nim_moves(piles: &[u32]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    for i in 0..piles.len() {
        for take in 1..=piles[i] {
            let mut next = piles.to_vec();
            next[i] -= take;
            next.sort_unstable();
            if !out.contains(&next) {
                out.push(next);
            }
        }
    }
    out
}

/// The paper's estimate at a position where `mover` is to play: with `a`
/// non-empty piles and `b` tokens, the game lasts between `a` and `b` more
/// moves; the player to move wins when that number is 0 mod 3 (the player
/// who moves after the last taker wins), the next player when it is 1, and
/// so on; each gets the fraction of the possible lengths that make it win.
fn nim_estimate(piles: &[u32], mover: usize) -> Vec<f64> {
    let a = piles.iter().filter(|&&h| h > 0).count() as u32;
    let b: u32 = piles.iter().sum();
    let mut v = vec![0.0; 3];
    for k in a..=b {
        v[(mover + k as usize) % 3] += 1.0 / f64::from(b - a + 1);
    }
    v
}

/// 2-2-2 Nim looked ahead `depth` moves, as the paper's figure 5.
fn nim_lookahead(depth: u32) -> (Explicit, Vec<Vec<u32>>) {
    let mut t = Explicit { n: 3, ..Explicit::default() };
    let mut positions = Vec::new();
    // Breadth-first so that children are contiguous.
    let root = t.push(SearchNode::Decision { player: 0 }, Vec::new());
    positions.push(vec![2, 2, 2]);
    let mut queue = std::collections::VecDeque::from([(root, 0u32)]);
    while let Some((node, d)) = queue.pop_front() {
        let mover = (d % 3) as usize;
        let moves = nim_moves(&positions[node as usize]);
        let first = t.kind.len() as u32;
        for next in moves {
            let (kind, leaf) = if d + 1 == depth || next.iter().all(|&h| h == 0) {
                (SearchNode::Leaf, nim_estimate(&next, (mover + 1) % 3))
            } else {
                (SearchNode::Decision { player: (d + 1) % 3 }, Vec::new())
            };
            let child = t.push(kind, leaf);
            positions.push(next);
            if kind != SearchNode::Leaf {
                queue.push_back((child, d + 1));
            }
        }
        t.children[node as usize] = first..t.kind.len() as u32;
    }
    (t, positions)
}

/// Section VI: "an exhaustive search would require 39 evaluations while the
/// shallow pruning requires 24", with ties backed up as averages; A's best
/// first move takes a whole pile (the lower child of the figure).
#[test]
fn paper_nim_example_counts() {
    let (t, positions) = nim_lookahead(3);
    let exhaustive = search(&t, Ties::Average, Pruning::None);
    let shallow = search(&t, Ties::Average, Pruning::Shallow);
    assert_eq!(exhaustive.stats.evaluations, 39);
    assert_eq!(shallow.stats.evaluations, 24);
    assert_eq!(exhaustive.value, shallow.value);
    assert_eq!(exhaustive.choice, shallow.choice);
    let choice = shallow.choice.expect("the root is A's move");
    assert_eq!(positions[choice as usize], vec![0, 2, 2]);
    // The estimates sum to 1 and are at least 0: Korf's bounds apply and
    // keep the root's choice and value.
    let bounds = search(&t, Ties::Average, Pruning::Bounds(ConstantSum { sum: 1.0, min_entry: 0.0 }));
    assert_eq!(bounds.choice, shallow.choice);
    assert_eq!(bounds.value, shallow.value);
    assert!(bounds.stats.evaluations <= shallow.stats.evaluations);
}

/// Plain recursive max^n (no memo, no pruning): (vector, first best child).
fn reference(t: &Explicit, node: u32, ties: Ties) -> (Vec<f64>, Option<u32>) {
    match t.node(node) {
        SearchNode::Leaf => (t.leaf[node as usize].clone(), None),
        SearchNode::Chance => {
            let mut v = vec![0.0; t.n];
            for (k, c) in t.children(node).enumerate() {
                let (w, _) = reference(t, c, ties);
                v.iter_mut().zip(w).for_each(|(a, b)| *a += t.probs[node as usize][k] * b);
            }
            (v, None)
        }
        SearchNode::Decision { player } => {
            let vs: Vec<(u32, Vec<f64>)> = t.children(node).map(|c| (c, reference(t, c, ties).0)).collect();
            let top = vs.iter().map(|(_, v)| v[player as usize]).fold(f64::NEG_INFINITY, f64::max);
            let best: Vec<&(u32, Vec<f64>)> =
                vs.iter().filter(|(_, v)| (v[player as usize] - top).abs() < 1e-9).collect();
            let v = match ties {
                Ties::First => best[0].1.clone(),
                Ties::Average => {
                    (0..t.n).map(|p| best.iter().map(|(_, v)| v[p]).sum::<f64>() / best.len() as f64).collect()
                }
            };
            (v, Some(best[0].0))
        }
    }
}

/// A random tree of `n` players: payoffs are small integers summing to 6
/// (so ties are common and Korf's bounds apply), some chance nodes.
fn random_tree(seed: u64, n: usize) -> Explicit {
    let mut rng = seed;
    let mut next = move |m: u64| {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (rng >> 33) % m
    };
    let mut t = Explicit { n, ..Explicit::default() };
    t.push(SearchNode::Decision { player: 0 }, Vec::new());
    let mut queue = std::collections::VecDeque::from([(0u32, 0u32)]);
    while let Some((node, d)) = queue.pop_front() {
        let k = 2 + next(2) as u32;
        let first = t.kind.len() as u32;
        for _ in 0..k {
            let r = next(10);
            if d >= 3 || r < 2 {
                let mut v = vec![0.0; n];
                for _ in 0..6 {
                    v[next(n as u64) as usize] += 1.0;
                }
                t.push(SearchNode::Leaf, v);
            } else {
                let kind =
                    if r < 3 { SearchNode::Chance } else { SearchNode::Decision { player: next(n as u64) as u32 } };
                let c = t.push(kind, Vec::new());
                queue.push_back((c, d + 1));
            }
        }
        t.children[node as usize] = first..t.kind.len() as u32;
        if t.kind[node as usize] == SearchNode::Chance {
            t.probs[node as usize] = vec![1.0 / f64::from(k); k as usize];
        }
    }
    t
}

/// Every pruning finds the reference's root vector and choice, with no more
/// work than the exhaustive search.
#[test]
fn pruned_searches_agree_with_plain_maxn() {
    let mut cutoffs = 0;
    for seed in 0..300 {
        let n = 2 + (seed % 3) as usize;
        let t = random_tree(seed, n);
        for ties in [Ties::First, Ties::Average] {
            let (value, choice) = reference(&t, 0, ties);
            let bounds = Pruning::Bounds(ConstantSum { sum: 6.0, min_entry: 0.0 });
            let exhaustive = search(&t, ties, Pruning::None);
            for pruning in [Pruning::None, Pruning::Shallow, bounds] {
                let r = search(&t, ties, pruning);
                for (a, b) in r.value.iter().zip(&value) {
                    assert!((a - b).abs() < 1e-9, "seed {seed} {ties:?} {pruning:?}: {:?} vs {value:?}", r.value);
                }
                assert_eq!(r.choice, choice, "seed {seed} {ties:?} {pruning:?}");
                assert!(r.stats.evaluations <= exhaustive.stats.evaluations);
                assert!(r.stats.nodes <= exhaustive.stats.nodes);
                cutoffs += r.stats.cutoffs;
            }
        }
    }
    assert!(cutoffs > 0, "the bounds never cut: the test does not exercise them");
}
