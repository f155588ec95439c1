//! max^n (Luckhardt & Irani, AAAI 1986) for perfect-information games with
//! any number of players and chance nodes (expected payoff vectors): every
//! node backs up the vector of the child that is best for the player to
//! move, which is an equilibrium point (subgame perfect).
//!
//! [`full`] computes every node bottom-up for the complete profile;
//! [`search`] is the paper's search that evaluates leaf entries only when a
//! comparison needs them (shallow pruning, and Korf's bound-based pruning
//! for constant-sum payoffs), for counting the work pruning saves;
//! [`states`] searches the game's own states, with transpositions.

pub mod full;
pub mod search;
pub mod states;
#[cfg(test)]
mod tests;

use std::time::Instant;

use galac_runtime::ids::{IdVec, InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};

use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
pub use search::Ties;
use search::{ConstantSum, Pruning, SearchNode, SearchSpace, SearchStats};

/// Everything max^n found, beyond the profile.
#[derive(Clone, Debug)]
pub struct MaxnReport {
    /// The root's max^n vector (expected payoffs, one per player).
    pub value: Vec<f64>,
    /// Decision nodes with tied best children, in the whole tree.
    pub ties: u64,
    /// The principal variation: (information set, action) of each decision
    /// on the chosen path from the root, until a leaf or chance node.
    pub principal_variation: Vec<(InfosetId, u32)>,
    /// The path ends at a chance node (not a leaf).
    pub pv_ends_at_chance: bool,
    /// Work of the exhaustive search, the shallow-pruned one, and the
    /// bound-pruned one (when payoffs are constant-sum).
    pub exhaustive: SearchStats,
    pub shallow: SearchStats,
    pub bounds: Option<SearchStats>,
}

/// The flat tree as a [`SearchSpace`]: leaves are its terminals (the
/// search's node numbers are the tree's [`NodeId`]s).
pub struct TreeSpace<'a>(pub &'a Tree);

impl SearchSpace for TreeSpace<'_> {
    fn n_players(&self) -> usize {
        self.0.n_players as usize
    }
    fn n_nodes(&self) -> usize {
        self.0.n_nodes()
    }
    fn node(&self, node: u32) -> SearchNode {
        match self.0.node(NodeId(node)) {
            NodeView::Terminal => SearchNode::Leaf,
            NodeView::Chance => SearchNode::Chance,
            NodeView::Decision { player, .. } => SearchNode::Decision { player: player.0 },
        }
    }
    fn children(&self, node: u32) -> std::ops::Range<u32> {
        let children = self.0.children(NodeId(node));
        children.start.0..children.end.0
    }
    fn chance_prob(&self, node: u32, k: usize) -> f64 {
        self.0.chance_probs(NodeId(node))[k].to_f64()
    }
    fn evaluate(&self, leaf: u32, player: usize) -> f64 {
        self.0.payoffs(NodeId(leaf))[player] as f64
    }
}

/// The bounds for Korf's pruning when every leaf's payoffs sum to the same
/// total: that total and the least payoff of any player at any leaf.
pub fn constant_sum(tree: &Tree) -> Option<ConstantSum> {
    let mut sum = None;
    let mut min_entry = i64::MAX;
    for node in tree.nodes() {
        if tree.node(node) != NodeView::Terminal {
            continue;
        }
        let pay = tree.payoffs(node);
        let total: i128 = pay.iter().map(|x| i128::from(*x)).sum();
        match sum {
            None => sum = Some(total),
            Some(s) if s != total => return None,
            Some(_) => {}
        }
        min_entry = min_entry.min(pay.iter().copied().min().unwrap_or(0));
    }
    sum.map(|s| ConstantSum { sum: s as f64, min_entry: min_entry as f64 })
}

/// The first information set that holds two nodes, with both nodes.
pub fn shared_infoset(tree: &Tree) -> Option<(InfosetId, NodeId, NodeId)> {
    let mut seen: IdVec<InfosetId, Option<NodeId>> = IdVec::from(vec![None; tree.infosets.len()]);
    for node in tree.preorder() {
        if let NodeView::Decision { infoset, .. } = tree.node(node) {
            if let Some(first) = seen[infoset] {
                return Some((infoset, first, node));
            }
            seen[infoset] = Some(node);
        }
    }
    None
}

/// "a, b, c": the labels of the moves from the root to `target`.
pub fn path_to(tree: &Tree, target: NodeId) -> String {
    let mut parent = vec![(NodeId::ROOT, 0u32); tree.n_nodes()];
    for node in tree.nodes() {
        for (k, child) in tree.children(node).enumerate() {
            parent[child.index()] = (node, k as u32);
        }
    }
    let mut path = Vec::new();
    let mut node = target;
    while node != NodeId::ROOT {
        let (up, k) = parent[node.index()];
        let label = match tree.infoset(up) {
            Some(set) => tree.action_labels(set).get(k as usize).cloned(),
            None => tree.chance_outcome_labels(up).get(k as usize).cloned(),
        };
        path.push(label.unwrap_or_else(|| format!("#{k}")));
        node = up;
    }
    path.reverse();
    if path.is_empty() {
        "the root".to_string()
    } else {
        format!("after {}", path.join(", "))
    }
}

/// Solves a perfect-information tree: the profile (through
/// [`Solution`]) and the report.
pub fn solve(tree: &Tree, ties: Ties) -> Result<(crate::Profile, MaxnReport), SolveError> {
    if let Some((set, a, b)) = shared_infoset(tree) {
        let label = tree.infoset_label(set);
        let label = if label.is_empty() { format!("#{set}") } else { format!("\"{label}\"") };
        return Err(SolveError::Unsupported {
            solver: "max^n",
            reason: format!(
                "the game is not of perfect information: information set {label} holds two nodes ({} and {})",
                path_to(tree, a),
                path_to(tree, b)
            ),
        });
    }
    if tree.max_depth > search::MAX_SEARCH_DEPTH {
        return Err(SolveError::Unsupported {
            solver: "max^n",
            reason: format!(
                "the tree is {} moves deep; the search goes to {}",
                tree.max_depth,
                search::MAX_SEARCH_DEPTH
            ),
        });
    }
    let back = full::backward(tree, ties);
    let space = TreeSpace(tree);
    let exhaustive = search::search(&space, ties, Pruning::None).stats;
    let shallow = search::search(&space, ties, Pruning::Shallow).stats;
    let bounds = constant_sum(tree).map(|cs| search::search(&space, ties, Pruning::Bounds(cs)).stats);
    let (pv, end) = back.principal_variation(tree);
    let n = tree.n_players as usize;
    let report = MaxnReport {
        value: back.values[..n].to_vec(),
        ties: back.ties,
        principal_variation: pv,
        pv_ends_at_chance: tree.node(end) == NodeView::Chance,
        exhaustive,
        shallow,
        bounds,
    };
    Ok((back.profile(tree, ties), report))
}

/// max^n as a [`Solver`].
pub struct MaxnSolver {
    pub ties: Ties,
}

impl Solver for MaxnSolver {
    fn name(&self) -> String {
        let ties = match self.ties {
            Ties::First => "first",
            Ties::Average => "average",
        };
        format!("max^n (ties: {ties})")
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let (profile, _report) = solve(tree, self.ties)?;
        let seconds = start.elapsed().as_secs_f64();
        let progress = Progress { iteration: 1, seconds, exploitability: None, bounds: None, evaluation: None };
        let stopped = observer.progress(&progress) == Control::Stop;
        Ok(Solution { profile, unreached: Vec::new(), phases: vec![("max^n", seconds)], stopped })
    }
}
