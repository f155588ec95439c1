//! What a tree's numbers say about its public game's forms: the players'
//! prior weights when the deal's probabilities factor (card removal
//! aside), and a ranking of both players' states when a leaf's payoffs are
//! a showdown.

use crate::solver::SolveError;

/// The players' weights when the deal's probabilities factor as
/// `w0(i) * w1(j)` over the pairs dealt together, else the refusal. The
/// pairs dealt together form a bipartite graph; along a search of each of
/// its connected parts, one weight fixed to 1 gives every other from the
/// pair that reaches it (`w1(j) = P(i, j) / w0(i)` and back), and then
/// every pair is checked. (The players' marginals would not do: with card
/// removal each hand meets a different set of the other's hands, so a
/// marginal is not proportional to the hand's own weight.) A connected part
/// has its own scale; only products within it are ever used. `joint(k)`
/// is pair `(k / n1, k % n1)`'s probability.
pub(super) fn factor(joint: impl Fn(usize) -> f64, n: [usize; 2]) -> Result<[Vec<f64>; 2], SolveError> {
    let (n0, n1) = (n[0], n[1]);
    let mut w = [vec![0.0; n0], vec![0.0; n1]];
    let mut seen = [vec![false; n0], vec![false; n1]];
    let mut queue = std::collections::VecDeque::new();
    for start in 0..n0 {
        if seen[0][start] || (start * n1..(start + 1) * n1).all(|k| joint(k) == 0.0) {
            continue;
        }
        seen[0][start] = true;
        w[0][start] = 1.0;
        queue.push_back((0, start));
        while let Some((side, k)) = queue.pop_front() {
            if side == 0 {
                for j in 0..n1 {
                    let x = joint(k * n1 + j);
                    if x != 0.0 && !seen[1][j] {
                        seen[1][j] = true;
                        w[1][j] = x / w[0][k];
                        queue.push_back((1, j));
                    }
                }
            } else {
                for i in 0..n0 {
                    let x = joint(i * n1 + k);
                    if x != 0.0 && !seen[0][i] {
                        seen[0][i] = true;
                        w[0][i] = x / w[1][k];
                        queue.push_back((0, i));
                    }
                }
            }
        }
    }
    for (k, x) in (0..n0 * n1).map(|k| (k, joint(k))) {
        if x != 0.0 && (x - w[0][k / n1] * w[1][k % n1]).abs() > 1e-9 * x {
            return Err(refuse(
                "the deal's probabilities are not each player's own odds times which pairs can be dealt together \
                 (the private states are correlated beyond card removal)"
                    .into(),
            ));
        }
    }
    Ok(w)
}

/// A ranking of both players' states that explains a leaf's payoffs
/// (`pairs`: each pair of states, once, with player 0's payoff; read in a
/// few passes), with the win, lose and tie
/// payoffs: the highest value is a win, the lowest a loss, a third one a
/// tie; ties are merged, wins and losses are edges, and the ranks are the
/// longest paths of the topological order. `None` when no ranking fits.
pub(super) fn showdown<I: Iterator<Item = ([u32; 2], f64)>>(
    pairs: &impl Fn() -> I,
    n: [usize; 2],
) -> Option<([Vec<u32>; 2], [f64; 3])> {
    // The distinct values, at most three (no sorted copy of a value a pair).
    let mut values: Vec<f64> = Vec::with_capacity(3);
    for (_, v) in pairs() {
        if !values.contains(&v) {
            if values.len() == 3 {
                return None;
            }
            values.push(v);
        }
    }
    values.sort_by(f64::total_cmp);
    let (lose, win) = (*values.first()?, *values.last()?);
    let tie = match values.len() {
        2 => f64::NAN,
        3 => values[1],
        _ => return None,
    };
    // Nodes: player 0's states, then player 1's.
    let total = n[0] + n[1];
    let mut ties = Classes::new(total);
    for ([i, j], v) in pairs() {
        if v == tie {
            ties.union(i, n[0] as u32 + j);
        }
    }
    // Each state's class, found once (not twice per pair and pass).
    let class: Vec<u32> = (0..total as u32).map(|x| ties.find(x)).collect();
    // Edges from the weaker to the stronger class, as lists per class
    // (counted, then filled: no list of the edges beside them).
    let edge = |[i, j]: [u32; 2], v: f64| {
        let (i, j) = (class[i as usize], class[n[0] + j as usize]);
        if v == win {
            Some((j, i))
        } else if v == lose {
            Some((i, j))
        } else {
            None
        }
    };
    let mut indegree = vec![0u32; total];
    let mut starts = vec![0u32; total + 1];
    for (k, v) in pairs() {
        if let Some((a, b)) = edge(k, v) {
            indegree[b as usize] += 1;
            starts[a as usize + 1] += 1;
        }
    }
    for x in 0..total {
        starts[x + 1] += starts[x];
    }
    let mut next = starts.clone();
    let mut out = vec![0u32; starts[total] as usize];
    for (k, v) in pairs() {
        if let Some((a, b)) = edge(k, v) {
            out[next[a as usize] as usize] = b;
            next[a as usize] += 1;
        }
    }
    let mut level = vec![0u32; total];
    let mut ready: Vec<u32> = (0..total as u32).filter(|&x| indegree[x as usize] == 0).collect();
    let mut done = 0;
    while let Some(x) = ready.pop() {
        done += 1;
        for &y in &out[starts[x as usize] as usize..starts[x as usize + 1] as usize] {
            level[y as usize] = level[y as usize].max(level[x as usize] + 1);
            indegree[y as usize] -= 1;
            if indegree[y as usize] == 0 {
                ready.push(y);
            }
        }
    }
    if done < total {
        return None; // a cycle: no ranking
    }
    let rank0: Vec<u32> = (0..n[0]).map(|i| level[class[i] as usize]).collect();
    let rank1: Vec<u32> = (0..n[1]).map(|j| level[class[n[0] + j] as usize]).collect();
    let explained = pairs().all(|([i, j], v)| {
        let (a, b) = (rank0[i as usize], rank1[j as usize]);
        v == if a > b {
            win
        } else if a < b {
            lose
        } else {
            tie
        }
    });
    explained.then_some(([rank0, rank1], [win, lose, if tie.is_nan() { 0.0 } else { tie }]))
}

/// The refusal of a game outside vector CFR's class.
pub(super) fn refuse(reason: String) -> SolveError {
    SolveError::Unsupported { solver: "vcfr", reason }
}

/// A union-find over `0..n` (path halving, union by index).
pub(super) struct Classes(Vec<u32>);

impl Classes {
    pub(super) fn new(n: usize) -> Classes {
        Classes((0..n as u32).collect())
    }
    pub(super) fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            self.0[x as usize] = self.0[self.0[x as usize] as usize];
            x = self.0[x as usize];
        }
        x
    }
    pub(super) fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

#[cfg(test)]
mod factor_tests {
    use super::factor;

    /// One card each from three, never the same: P(i, j) ∝ a(i) b(j) for
    /// i ≠ j. The weights found give back every probability (the marginals
    /// would not: each card meets a different pair of the other's), and a
    /// deal correlated beyond card removal is refused.
    #[test]
    fn a_deal_with_card_removal_factors_and_a_correlated_one_does_not() {
        let (a, b) = ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]);
        let mut joint = vec![0.0; 9];
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    joint[i * 3 + j] = a[i] * b[j];
                }
            }
        }
        let total: f64 = joint.iter().sum();
        joint.iter_mut().for_each(|x| *x /= total);
        let w = factor(|k| joint[k], [3, 3]).unwrap();
        for (k, &x) in joint.iter().enumerate() {
            if x != 0.0 {
                assert!((w[0][k / 3] * w[1][k % 3] - x).abs() < 1e-15, "{w:?}");
            }
        }
        let mut correlated = joint.clone();
        correlated[1] *= 2.0;
        assert!(factor(|k| correlated[k], [3, 3]).is_err());
    }
}
