//! The leaves' cheap forms against the general one: a constant and a
//! showdown give, state by state, the values of the payoff matrix they
//! stand for, card removal included.

use super::game::{Conflicts, Payoff, PrivateStates, PublicGame, PublicNode, Ranking};
use super::leaf;

/// A small deterministic generator (SplitMix64), enough for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A one-leaf game with `payoff`, these conflicts and rankings.
fn leaf_game(
    n: [usize; 2],
    conflicts: &[(u32, u32)],
    payoff: Payoff,
    rankings: Vec<Ranking>,
    matrix: Vec<f64>,
) -> PublicGame {
    let states = |k: usize| PrivateStates { labels: vec![String::new(); k], weights: vec![1.0; k] };
    let game = PublicGame {
        player_names: ["a".into(), "b".into()],
        states: [states(n[0]), states(n[1])],
        conflicts: Conflicts::from_pairs(n, conflicts),
        nodes: vec![PublicNode::Terminal { payoff: 0 }],
        child_ids: Vec::new(),
        labels: vec![String::new()],
        outcomes: Vec::new(),
        excluded: Vec::new(),
        payoffs: vec![payoff],
        rankings,
        matrix,
    };
    game.validate().expect("a valid game");
    game
}

#[test]
fn constants_and_showdowns_equal_their_matrices() {
    let mut rng = Rng(7);
    for case in 0..200 {
        let n = [1 + rng.below(7) as usize, 1 + rng.below(7) as usize];
        let conflicts: Vec<(u32, u32)> = (0..n[0] as u32)
            .flat_map(|i| (0..n[1] as u32).map(move |j| (i, j)))
            .filter(|_| rng.below(4) == 0)
            .collect();
        let rank = [0, 1].map(|p| (0..n[p]).map(|_| rng.below(4) as u32).collect::<Vec<u32>>());
        let [win, lose, tie] = [1.0 + rng.below(5) as f64, -(1.0 + rng.below(5) as f64), rng.below(3) as f64 - 1.0];
        let constant = rng.below(9) as f64 - 4.0;
        let conflicting = |i: usize, j: usize| conflicts.contains(&(i as u32, j as u32));
        let mut shown = vec![0.0; n[0] * n[1]];
        let mut flat = vec![0.0; n[0] * n[1]];
        for i in 0..n[0] {
            for j in 0..n[1] {
                if !conflicting(i, j) {
                    let (a, b) = (rank[0][i], rank[1][j]);
                    shown[i * n[1] + j] = if a > b {
                        win
                    } else if a < b {
                        lose
                    } else {
                        tie
                    };
                    flat[i * n[1] + j] = constant;
                }
            }
        }
        let showdown = Payoff::Showdown { ranking: 0, win, lose, tie };
        let fast = [
            leaf_game(n, &conflicts, showdown, vec![Ranking::new(rank.clone())], Vec::new()),
            leaf_game(n, &conflicts, Payoff::Constant(constant), Vec::new(), Vec::new()),
        ];
        let slow = [shown, flat].map(|m| leaf_game(n, &conflicts, Payoff::Matrix { start: 0 }, Vec::new(), m));
        for p in 0..2 {
            let opp: Vec<f64> = (0..n[1 - p]).map(|_| rng.unit()).collect();
            for (fast, slow) in fast.iter().zip(&slow) {
                let (mut got, mut want) = (vec![0.0; n[p]], vec![0.0; n[p]]);
                leaf::values(fast, &fast.payoffs[0], p, &opp, &mut got);
                leaf::values(slow, &slow.payoffs[0], p, &opp, &mut want);
                for (g, w) in got.iter().zip(&want) {
                    assert!((g - w).abs() < 1e-12, "case {case}, player {p}: {got:?} against {want:?}");
                }
            }
        }
    }
}
