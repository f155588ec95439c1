//! [`PublicGame`]: a two-player zero-sum game as its public tree plus, per
//! player, the private states the deal gives. It is what vector CFR walks,
//! one vector of private states per player at each public node, and it is
//! meant to be produced without a scalar tree (by the compiler, for
//! hold'em) as well as from one ([`super::from_tree`]).
//!
//! Probabilities: the deal gives player 0 the state `i` and player 1 the
//! state `j` with probability `w0(i) * w1(j) * compatible(i, j)` (the
//! weights are the players' priors, with any normalising constant folded
//! into player 1's). A public chance outcome `o` then happens with
//! probability `prob(o)` for every pair that it does not exclude, and
//! never for the others (card removal). Payoffs are player 0's; player
//! 1's are their negation.

use std::ops::Range;

/// A public node. Children are `children` in [`PublicGame::child_ids`].
#[derive(Clone, Debug, PartialEq)]
pub enum PublicNode {
    /// `player` picks one of the children's public actions; its regrets and
    /// average strategy are the node's `slab` in the solver's arrays.
    Decision { player: u8, children: Range<u32> },
    /// Nature picks an outcome: child `k` is outcome `outcomes.start + k` of
    /// [`PublicGame::outcomes`].
    Chance { children: Range<u32>, outcomes: Range<u32> },
    /// The game ends; payoff `payoff` of [`PublicGame::payoffs`].
    Terminal { payoff: u32 },
}

/// A public chance outcome: its probability for the pairs it allows, and
/// the private states it excludes (per player, as a range of
/// [`PublicGame::excluded`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub prob: f64,
    pub excluded: [Range<u32>; 2],
}

/// A leaf's payoff to player 0, in one of three forms, from the cheapest
/// to evaluate to the most general.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payoff {
    /// The same for every pair (a fold).
    Constant(f64),
    /// A comparison of strengths (a showdown): player 0 gets `win` when its
    /// state's rank in `ranking` is higher than player 1's, `lose` when
    /// lower, `tie` when equal.
    Showdown { ranking: u32, win: f64, lose: f64, tie: f64 },
    /// Any payoff per pair: row-major `n0 x n1` from `start` in
    /// [`PublicGame::matrix`] (0 for pairs never dealt together).
    Matrix { start: u32 },
}

/// Per player, the rank of every private state at a showdown, and the
/// states with their ranks in increasing rank order (what the O(n)
/// evaluation walks).
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    pub rank: [Vec<u32>; 2],
    /// `(rank, state)`, sorted.
    pub sorted: [Vec<(u32, u32)>; 2],
}

impl Ranking {
    /// A ranking from the ranks alone.
    pub fn new(rank: [Vec<u32>; 2]) -> Ranking {
        let sorted = [0, 1].map(|p| {
            let mut sorted: Vec<(u32, u32)> = rank[p].iter().enumerate().map(|(i, &r)| (r, i as u32)).collect();
            sorted.sort_unstable();
            sorted
        });
        Ranking { rank, sorted }
    }
}

/// One player's private states.
#[derive(Clone, Debug, PartialEq)]
pub struct PrivateStates {
    /// A readable label per state (the card, the hand).
    pub labels: Vec<String>,
    /// The prior weight of each state (see the module comment).
    pub weights: Vec<f64>,
}

impl PrivateStates {
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }
}

/// Which pairs of private states the deal never gives together, per
/// player as lists of the other player's states (compressed rows: the
/// states of `conflicts[p][i]` are `list[p][starts[p][i]..starts[p][i + 1]]`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conflicts {
    pub starts: [Vec<u32>; 2],
    pub list: [Vec<u32>; 2],
}

impl Conflicts {
    /// From the incompatible pairs `(i, j)` (player 0's state, player 1's).
    pub fn from_pairs(n: [usize; 2], pairs: &[(u32, u32)]) -> Conflicts {
        let rows = |p: usize| {
            let mut starts = vec![0u32; n[p] + 1];
            for pair in pairs {
                let mine = if p == 0 { pair.0 } else { pair.1 };
                starts[mine as usize + 1] += 1;
            }
            for i in 0..n[p] {
                starts[i + 1] += starts[i];
            }
            let mut next = starts.clone();
            let mut list = vec![0u32; pairs.len()];
            for &(i, j) in pairs {
                let (mine, other) = if p == 0 { (i, j) } else { (j, i) };
                list[next[mine as usize] as usize] = other;
                next[mine as usize] += 1;
            }
            (starts, list)
        };
        let ((s0, l0), (s1, l1)) = (rows(0), rows(1));
        Conflicts { starts: [s0, s1], list: [l0, l1] }
    }

    /// The other player's states that player `p`'s state `i` is never dealt with.
    #[inline]
    pub fn of(&self, p: usize, i: usize) -> &[u32] {
        &self.list[p][self.starts[p][i] as usize..self.starts[p][i + 1] as usize]
    }
}

/// How pairs that the deal never gives together are found: lists per
/// state, or hands of cards that must not share one.
#[derive(Clone, Debug, PartialEq)]
pub enum Removal {
    Lists(Conflicts),
    Cards(super::cards::Cards),
}

/// A two-player zero-sum game on its public tree (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct PublicGame {
    pub player_names: [String; 2],
    pub states: [PrivateStates; 2],
    pub removal: Removal,
    /// Node 0 is the root; every node comes before its subtree, and a
    /// subtree's nodes are contiguous (so are its decisions' slabs).
    pub nodes: Vec<PublicNode>,
    /// The children of every node, by the ranges in [`PublicNode`].
    pub child_ids: Vec<u32>,
    /// The label of each node's public action or outcome (the root's empty).
    pub labels: Vec<String>,
    pub outcomes: Vec<Outcome>,
    /// The excluded states of the outcomes.
    pub excluded: Vec<u32>,
    pub payoffs: Vec<Payoff>,
    pub rankings: Vec<Ranking>,
    pub matrix: Vec<f64>,
}

/// Public nodes per street ([`PublicGame::per_street`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PerStreet {
    pub decisions: Vec<u64>,
    pub leaves: Vec<u64>,
}

/// Why a public game is malformed: a producer's bug, or a file's fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameShapeError {
    #[error("public node {node}: {what}")]
    Node { node: u32, what: String },
    #[error("the private states of player {player}: {what}")]
    States { player: usize, what: String },
}

impl PublicGame {
    /// The children of a decision or chance node (empty for a leaf).
    #[inline]
    pub fn children(&self, node: u32) -> &[u32] {
        let range = match &self.nodes[node as usize] {
            PublicNode::Decision { children, .. } | PublicNode::Chance { children, .. } => children.clone(),
            PublicNode::Terminal { .. } => 0..0,
        };
        &self.child_ids[range.start as usize..range.end as usize]
    }

    /// The states of player `p` that outcome `o` excludes.
    #[inline]
    pub fn excluded(&self, o: u32, p: usize) -> &[u32] {
        let r = &self.outcomes[o as usize].excluded[p];
        &self.excluded[r.start as usize..r.end as usize]
    }

    /// Whether the deal gives player 0's state `i` together with player
    /// 1's state `j` (the pairs the walk's card removal leaves out are
    /// exactly the others).
    pub fn dealt_together(&self, i: usize, j: usize) -> bool {
        match &self.removal {
            Removal::Cards(cards) => cards.hands[0][i] & cards.hands[1][j] == 0,
            Removal::Lists(conflicts) => !conflicts.of(0, i).contains(&(j as u32)),
        }
    }

    /// Per state of player `p`: `other` (one entry per state of the other
    /// player) summed over the other's states it is dealt with. With the
    /// other's weights, times the state's own weight: the deal's weight of
    /// the state. O(n0 x n1): for answers and play, not the walk.
    pub fn compatible_sums(&self, p: usize, other: &[f64]) -> Vec<f64> {
        let together = |i: usize, j: usize| if p == 0 { self.dealt_together(i, j) } else { self.dealt_together(j, i) };
        (0..self.states[p].len())
            .map(|i| other.iter().enumerate().filter(|&(j, _)| together(i, j)).map(|(_, x)| x).sum())
            .collect()
    }

    /// Checks what the solver relies on: ranges in bounds, children after
    /// their parent and subtrees contiguous, probabilities and weights
    /// finite and non-negative, rankings and matrices of the right sizes.
    pub fn validate(&self) -> Result<(), GameShapeError> {
        let n = [self.states[0].len(), self.states[1].len()];
        for (p, s) in self.states.iter().enumerate() {
            if s.labels.len() != s.weights.len() {
                return Err(GameShapeError::States { player: p, what: "a label per state is needed".into() });
            }
            if s.weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
                return Err(GameShapeError::States { player: p, what: "a weight is negative or not finite".into() });
            }
            let fits = match &self.removal {
                Removal::Lists(c) => {
                    c.starts[p].len() == n[p] + 1 && c.list[p].iter().all(|&j| (j as usize) < n[1 - p])
                }
                Removal::Cards(c) => c.fits(n),
            };
            if !fits {
                return Err(GameShapeError::States { player: p, what: "the conflicts do not fit".into() });
            }
        }
        if self.nodes.is_empty() || self.labels.len() != self.nodes.len() {
            return Err(GameShapeError::Node { node: 0, what: "no root, or not a label per node".into() });
        }
        let bad = |node: usize, what: &str| GameShapeError::Node { node: node as u32, what: what.into() };
        // Every node's subtree ends where `end[node]` says: children follow
        // their parent in order, each right after its elder sibling's subtree.
        let mut end = vec![0usize; self.nodes.len()];
        for node in (0..self.nodes.len()).rev() {
            let (range, outcomes) = match &self.nodes[node] {
                PublicNode::Decision { player, children } => {
                    if *player > 1 {
                        return Err(bad(node, "a decision of a third player"));
                    }
                    (children.clone(), None)
                }
                PublicNode::Chance { children, outcomes } => (children.clone(), Some(outcomes.clone())),
                PublicNode::Terminal { payoff } => {
                    self.check_payoff(*payoff as usize, n).map_err(|what| bad(node, &what))?;
                    end[node] = node + 1;
                    continue;
                }
            };
            if range.start >= range.end || range.end as usize > self.child_ids.len() {
                return Err(bad(node, "no children, or children out of bounds"));
            }
            let mut next = node + 1;
            for &child in &self.child_ids[range.start as usize..range.end as usize] {
                if child as usize != next {
                    return Err(bad(node, "children are not in preorder"));
                }
                next = end[next];
            }
            end[node] = next;
            if let Some(outcomes) = outcomes {
                if outcomes.len() != range.len() || outcomes.end as usize > self.outcomes.len() {
                    return Err(bad(node, "not an outcome per child"));
                }
                for o in outcomes {
                    let out = &self.outcomes[o as usize];
                    if !(out.prob.is_finite() && out.prob >= 0.0) {
                        return Err(bad(node, "a probability is negative or not finite"));
                    }
                    for (p, r) in out.excluded.iter().enumerate() {
                        if r.start > r.end || r.end as usize > self.excluded.len() {
                            return Err(bad(node, "excluded states out of bounds"));
                        }
                        if self.excluded(o, p).iter().any(|&i| i as usize >= n[p]) {
                            return Err(bad(node, "an excluded state does not exist"));
                        }
                    }
                }
            }
        }
        if end[0] != self.nodes.len() {
            return Err(bad(0, "some nodes are not in the root's subtree"));
        }
        Ok(())
    }

    fn check_payoff(&self, payoff: usize, n: [usize; 2]) -> Result<(), String> {
        match self.payoffs.get(payoff) {
            None => Err("its payoff does not exist".into()),
            Some(Payoff::Constant(v)) if !v.is_finite() => Err("a payoff is not finite".into()),
            Some(Payoff::Showdown { ranking, win, lose, tie }) => {
                let ok = self
                    .rankings
                    .get(*ranking as usize)
                    .is_some_and(|r| (0..2).all(|p| r.rank[p].len() == n[p] && r.sorted[p].len() == n[p]));
                if !ok || ![win, lose, tie].iter().all(|x| x.is_finite()) {
                    return Err("its showdown's ranking or stakes do not fit".into());
                }
                Ok(())
            }
            Some(Payoff::Matrix { start }) => {
                let (s, len) = (*start as usize, n[0] * n[1]);
                if s + len > self.matrix.len() || self.matrix[s..s + len].iter().any(|x| !x.is_finite()) {
                    return Err("its payoff matrix does not fit".into());
                }
                Ok(())
            }
            Some(Payoff::Constant(_)) => Ok(()),
        }
    }

    /// The decision nodes' slabs: per node, the first of its
    /// `n_actions * n_states(player)` entries in the solver's arrays, in
    /// node order (so a subtree's slabs are contiguous), and the total.
    pub fn slabs(&self) -> (Vec<usize>, usize) {
        let mut at = 0usize;
        let offsets = self
            .nodes
            .iter()
            .map(|node| {
                let start = at;
                if let PublicNode::Decision { player, children } = node {
                    at += children.len() * self.states[*player as usize].len();
                }
                start
            })
            .collect();
        (offsets, at)
    }

    /// Bytes the game's arrays hold (labels' text aside).
    pub fn bytes(&self) -> u64 {
        let n: usize = self.states.iter().map(|s| s.len() * (8 + std::mem::size_of::<String>())).sum();
        let rankings: usize = self.rankings.iter().map(|r| 12 * (r.rank[0].len() + r.rank[1].len())).sum();
        (n + 4
            * (match &self.removal {
                Removal::Lists(c) => c.list[0].len() + c.list[1].len(),
                Removal::Cards(c) => 4 * (c.hands[0].len() + c.hands[1].len()),
            } + self.states[0].len()
                + self.states[1].len())
            + self.nodes.len() * (std::mem::size_of::<PublicNode>() + std::mem::size_of::<String>() + 4)
            + self.outcomes.len() * std::mem::size_of::<Outcome>()
            + 4 * self.excluded.len()
            + self.payoffs.len() * std::mem::size_of::<Payoff>()
            + rankings
            + 8 * self.matrix.len()) as u64
    }

    /// Decision and terminal nodes per street (a street: the chance nodes
    /// above a node, the root's street 0; chance nodes not counted), the
    /// counts postflop-solver's action tree gives for a hold'em spot.
    pub fn per_street(&self) -> PerStreet {
        let mut street = vec![0usize; self.nodes.len()];
        let mut counts = PerStreet::default();
        for node in 0..self.nodes.len() {
            let s = street[node];
            let is_chance = matches!(self.nodes[node], PublicNode::Chance { .. });
            let list = match self.nodes[node] {
                PublicNode::Decision { .. } => Some(&mut counts.decisions),
                PublicNode::Terminal { .. } => Some(&mut counts.leaves),
                PublicNode::Chance { .. } => None,
            };
            if let Some(list) = list {
                if list.len() <= s {
                    list.resize(s + 1, 0);
                }
                list[s] += 1;
            }
            for &c in self.children(node as u32) {
                street[c as usize] = s + usize::from(is_chance);
            }
        }
        counts
    }
}
