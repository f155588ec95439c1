//! What a tree's numbers say about its public game's forms: the players'
//! prior weights when the deal's probabilities factor (card removal
//! aside), and a ranking of both players' states when a leaf's payoffs are
//! a showdown.

use crate::solver::SolveError;

/// The players' weights when the deal's probabilities factor as
/// `w0(i) * w1(j)` over the pairs dealt together (the constant folded into
/// player 1's); else the refusal.
pub(super) fn factor(joint: &[f64], n: [usize; 2]) -> Result<[Vec<f64>; 2], SolveError> {
    let mut w = [vec![0.0; n[0]], vec![0.0; n[1]]];
    for (k, &x) in joint.iter().enumerate() {
        w[0][k / n[1]] += x;
        w[1][k % n[1]] += x;
    }
    let mut scale = None;
    for (k, &x) in joint.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        let c = x / (w[0][k / n[1]] * w[1][k % n[1]]);
        let c0 = *scale.get_or_insert(c);
        if (c - c0).abs() > 1e-9 * c0 {
            return Err(refuse(
                "the deal's probabilities are not each player's own odds times which pairs can be dealt together \
                 (the private states are correlated beyond card removal)"
                    .into(),
            ));
        }
    }
    let c = scale.unwrap_or(1.0);
    w[1].iter_mut().for_each(|x| *x *= c);
    Ok(w)
}

/// A ranking of both players' states that explains a leaf's payoffs
/// (`pairs`: pair index and player 0's payoff), with the win, lose and tie
/// payoffs: the highest value is a win, the lowest a loss, a third one a
/// tie; ties are merged, wins and losses are edges, and the ranks are the
/// longest paths of the topological order. `None` when no ranking fits.
pub(super) fn showdown(pairs: &[(usize, f64)], n: [usize; 2]) -> Option<([Vec<u32>; 2], [f64; 3])> {
    let mut values: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let (lose, win) = (values[0], *values.last()?);
    let tie = match values.len() {
        2 => f64::NAN,
        3 => values[1],
        _ => return None,
    };
    // Nodes: player 0's states, then player 1's.
    let total = n[0] + n[1];
    let mut ties = Classes::new(total);
    for &(k, v) in pairs {
        if v == tie {
            ties.union((k / n[1]) as u32, (n[0] + k % n[1]) as u32);
        }
    }
    // Edges from the weaker to the stronger class.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(pairs.len());
    for &(k, v) in pairs {
        let (i, j) = (ties.find((k / n[1]) as u32), ties.find((n[0] + k % n[1]) as u32));
        if v == win {
            edges.push((j, i));
        } else if v == lose {
            edges.push((i, j));
        }
    }
    let mut indegree = vec![0u32; total];
    let mut starts = vec![0u32; total + 1];
    for &(a, b) in &edges {
        indegree[b as usize] += 1;
        starts[a as usize + 1] += 1;
    }
    for x in 0..total {
        starts[x + 1] += starts[x];
    }
    let mut next = starts.clone();
    let mut out = vec![0u32; edges.len()];
    for &(a, b) in &edges {
        out[next[a as usize] as usize] = b;
        next[a as usize] += 1;
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
    let rank0: Vec<u32> = (0..n[0]).map(|i| level[ties.find(i as u32) as usize]).collect();
    let rank1: Vec<u32> = (0..n[1]).map(|j| level[ties.find((n[0] + j) as u32) as usize]).collect();
    let explained = pairs.iter().all(|&(k, v)| {
        let (a, b) = (rank0[k / n[1]], rank1[k % n[1]]);
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
