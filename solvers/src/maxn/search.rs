//! The max^n search with the payoff entries of the leaves evaluated only when
//! a comparison needs them: Luckhardt & Irani's shallow pruning (a node of
//! player `i` needs the `i`-th entry of each child, then the entries its own
//! parent asks for, of the chosen child only), and optionally Korf's
//! bound-based shallow pruning (1991), which skips the remaining children of
//! a node once its parent can no longer prefer it.
//!
//! The search runs over any [`SearchSpace`]: the flat tree (entries read from
//! its payoff vectors) or a look-ahead whose leaves a heuristic evaluates.
//! Every backed-up vector is a convex combination of leaf vectors, so each
//! node's entries are memoised and computed at most once: the number of leaf
//! entries evaluated is the paper's measure of work.

/// How a node backs up its children's vectors when several are best for the
/// player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The first best child in move order.
    First,
    /// The mean vector of the tied children (the paper's example); the
    /// profile plays them uniformly.
    Average,
}

/// What a node of a [`SearchSpace`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchNode {
    /// A leaf of the search: its entries come from [`SearchSpace::evaluate`].
    Leaf,
    Chance,
    Decision {
        player: u32,
    },
}

/// A tree to search, with nodes numbered `0..n_nodes` (root 0).
pub trait SearchSpace {
    fn n_players(&self) -> usize;
    fn n_nodes(&self) -> usize;
    fn node(&self, node: u32) -> SearchNode;
    /// Children in move order.
    fn children(&self, node: u32) -> std::ops::Range<u32>;
    /// Probability of a chance node's `k`-th child.
    fn chance_prob(&self, node: u32, k: usize) -> f64;
    /// Entry `player` of a leaf's payoff (or estimate) vector: one evaluation.
    fn evaluate(&self, leaf: u32, player: usize) -> f64;
}

/// Korf's bounds: every entry is at least `min_entry` and each vector sums to
/// `sum`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstantSum {
    pub sum: f64,
    pub min_entry: f64,
}

/// Which pruning the search does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pruning {
    /// Every entry of every leaf is evaluated (the paper's exhaustive count).
    None,
    /// Entries are evaluated on demand (Luckhardt & Irani, section V).
    Shallow,
    /// On demand, and a node's remaining children are skipped when its parent
    /// cannot prefer it given the bounds (Korf 1991).
    Bounds(ConstantSum),
}

/// Counts of one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes whose value (or part of it) the search computed.
    pub nodes: u64,
    /// Leaf entries evaluated.
    pub evaluations: u64,
    /// Decision nodes where two or more children tie for the mover's best.
    pub ties: u64,
    /// Nodes whose remaining children a bound cut off.
    pub cutoffs: u64,
}

/// The outcome of a search from the root.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The root's max^n vector.
    pub value: Vec<f64>,
    /// The root's chosen child (`None` when the root is not a decision).
    pub choice: Option<u32>,
    pub stats: SearchStats,
}

/// Two values are tied when they differ by at most this, relative to their
/// size: backed-up values are sums of products of exact probabilities and
/// integer payoffs, rounded.
pub const TIE_TOLERANCE: f64 = 1e-12;

/// `a` counts as equal to `b`.
pub fn tied(a: f64, b: f64) -> bool {
    (a - b).abs() <= TIE_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// Deepest search the recursion accepts (each level is one native frame).
pub const MAX_SEARCH_DEPTH: u32 = 20_000;

/// Searches `space` from the root. The caller checks the depth against
/// [`MAX_SEARCH_DEPTH`].
pub fn search<S: SearchSpace>(space: &S, ties: Ties, pruning: Pruning) -> SearchResult {
    let n = space.n_players();
    let mut s = Search {
        space,
        ties,
        pruning,
        n,
        val: vec![f64::NAN; space.n_nodes() * n],
        best: vec![UNDECIDED; space.n_nodes()],
        stats: SearchStats::default(),
    };
    let value: Vec<f64> = (0..n).map(|p| s.entry(0, p)).collect();
    let choice = match space.node(0) {
        SearchNode::Decision { .. } => Some(s.best[0]),
        _ => None,
    };
    SearchResult { value, choice, stats: s.stats }
}

/// `best` of a node not yet decided.
const UNDECIDED: u32 = u32::MAX;
/// `best` of a node whose children a bound cut off: its parent never picks it.
const CUT: u32 = u32::MAX - 1;

struct Search<'a, S> {
    space: &'a S,
    ties: Ties,
    pruning: Pruning,
    n: usize,
    /// Entries known so far (NaN: not computed), `node * n + player`.
    val: Vec<f64>,
    /// Per decision node: its first best child once decided.
    best: Vec<u32>,
    stats: SearchStats,
}

impl<S: SearchSpace> Search<'_, S> {
    /// Entry `p` of the max^n vector of `node`.
    fn entry(&mut self, node: u32, p: usize) -> f64 {
        let at = node as usize * self.n + p;
        if !self.val[at].is_nan() {
            return self.val[at];
        }
        if self.pruning == Pruning::None && self.space.node(node) == SearchNode::Leaf {
            // Exhaustive: the whole vector of every leaf reached.
            for q in 0..self.n {
                self.val[node as usize * self.n + q] = self.space.evaluate(node, q);
            }
            self.stats.evaluations += self.n as u64;
            self.stats.nodes += 1;
            return self.val[at];
        }
        let v = match self.space.node(node) {
            SearchNode::Leaf => {
                self.stats.evaluations += 1;
                self.space.evaluate(node, p)
            }
            SearchNode::Chance => {
                let mut v = 0.0;
                for (k, child) in self.space.children(node).enumerate() {
                    v += self.space.chance_prob(node, k) * self.entry(child, p);
                }
                v
            }
            SearchNode::Decision { player } => {
                self.decide(node, player as usize, None);
                self.backed_up(node, player as usize, p)
            }
        };
        if self.val[node as usize * self.n..(node as usize + 1) * self.n].iter().all(|x| x.is_nan()) {
            self.stats.nodes += 1;
        }
        self.val[at] = v;
        v
    }

    /// Entry `p` of a decided node: its best child's, or the mean over the
    /// tied best children.
    fn backed_up(&mut self, node: u32, player: usize, p: usize) -> f64 {
        let best = self.best[node as usize];
        match self.ties {
            Ties::First => self.entry(best, p),
            Ties::Average => {
                let top = self.entry(best, player);
                let (mut sum, mut count) = (0.0, 0u32);
                for child in self.space.children(node) {
                    if self.best[child as usize] != CUT && tied(self.entry(child, player), top) {
                        sum += self.entry(child, p);
                        count += 1;
                    }
                }
                sum / f64::from(count)
            }
        }
    }

    /// Chooses the best child of a node of `player`. `parent` is the parent
    /// decision's best entry so far when Korf's bound applies: the node is
    /// cut (returns false) as soon as the parent cannot prefer it.
    fn decide(&mut self, node: u32, player: usize, parent: Option<f64>) -> bool {
        if self.best[node as usize] != UNDECIDED {
            return self.best[node as usize] != CUT;
        }
        let mut best = UNDECIDED;
        let mut top = f64::NEG_INFINITY;
        let mut n_top = 0u32;
        for child in self.space.children(node) {
            // A decision child of another player gets this node's bound.
            let bound = match (self.pruning, self.space.node(child)) {
                (Pruning::Bounds(_), SearchNode::Decision { player: q })
                    if q as usize != player && best != UNDECIDED =>
                {
                    Some(top)
                }
                _ => None,
            };
            if let (Some(b), SearchNode::Decision { player: q }) = (bound, self.space.node(child)) {
                if !self.decide(child, q as usize, Some(b)) {
                    continue;
                }
            }
            let v = self.entry(child, player);
            if best == UNDECIDED || (v > top && !tied(v, top)) {
                best = child;
                top = v;
                n_top = 1;
            } else if tied(v, top) {
                n_top += 1;
            }
            if let (Some(v_i), Pruning::Bounds(cs)) = (parent, self.pruning) {
                // The parent's entry here is at most what the others leave.
                let most_for_i = cs.sum - top - (self.n as f64 - 2.0) * cs.min_entry;
                let cut = match self.ties {
                    Ties::First => most_for_i < v_i || tied(most_for_i, v_i),
                    Ties::Average => most_for_i < v_i && !tied(most_for_i, v_i),
                };
                if cut && child + 1 < self.space.children(node).end {
                    self.best[node as usize] = CUT;
                    self.stats.cutoffs += 1;
                    self.stats.nodes += 1;
                    return false;
                }
            }
        }
        if n_top > 1 {
            self.stats.ties += 1;
        }
        self.best[node as usize] = best;
        true
    }
}
