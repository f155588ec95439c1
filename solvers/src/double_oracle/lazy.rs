//! The explored part of a game: nodes are made on demand through the
//! [`Game`] trait, never the whole tree at once.
//!
//! Nodes live in flat arrays (u32 ids, 20 bytes a node) and keep no game
//! state: the interner's pending facts follow a stack discipline, so a state
//! cannot outlive the traversal that made it. Expanding a node replays the
//! actions from the root to it once, then explores the wanted region below
//! it depth-first with states on a stack, as the tree builder does.
//! Information sets keep the interner's ids; each gets a range of global
//! action slots when first met (a slot is a sequence: perfect recall makes
//! the set of its last action name the whole sequence).

use std::ops::Range;

use galac_runtime::game::{Game, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::memory::MemoryLimit;
use galac_runtime::rational::Ratio;

use crate::solver::SolveError;

/// No node, slot or set.
pub(super) const NONE: u32 = u32::MAX;
/// Node data tag of a chance node (with its index in the chance table).
const CHANCE: u32 = 1 << 31;
/// Node data tag of a leaf (with its index in the payoffs); untagged data is a set id.
const TERMINAL: u32 = 1 << 30;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Decision { player: u32, set: u32 },
    Chance,
    Terminal,
}

/// An information set met so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct SetInfo {
    pub player: u32,
    pub n_actions: u32,
    /// Its first global action slot (the others follow).
    pub first_slot: u32,
    /// The player's sequence (last action slot) leading to it, or `NONE`.
    pub parent_slot: u32,
    /// The first node met in it (to label it later).
    pub node: u32,
}

/// The explored nodes and what they hold.
#[derive(Default)]
pub(super) struct Arena {
    /// Per node: a set id, `CHANCE | chance index` or `TERMINAL | leaf index`.
    data: Vec<u32>,
    first_child: Vec<u32>,
    parent: Vec<u32>,
    /// Per node: each player's last action slot on the path (`NONE`: empty).
    pub seq: Vec<[u32; 2]>,
    /// Per interned set id (`None`: not met by this exploration).
    pub sets: Vec<Option<SetInfo>>,
    /// Per global slot: its set.
    pub slot_set: Vec<u32>,
    /// Per chance node: (start in `probs`, outcomes).
    chances: Vec<(u32, u32)>,
    probs: Vec<f64>,
    /// Per leaf: the first player's payoff.
    payoff: Vec<i64>,
    /// What the two payoffs sum to at every leaf met.
    pub constant_sum: Option<i64>,
    /// The smallest and largest first-player payoff met anywhere.
    pub payoff_range: Option<(i64, i64)>,
}

impl Arena {
    /// Bytes the arena's arrays hold.
    pub fn bytes(&self) -> u64 {
        fn of<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        of(&self.data)
            + of(&self.first_child)
            + of(&self.parent)
            + of(&self.seq)
            + of(&self.sets)
            + of(&self.slot_set)
            + of(&self.chances)
            + of(&self.probs)
            + of(&self.payoff)
    }

    /// Nodes explored.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// What `node` is.
    pub fn kind(&self, node: u32) -> Kind {
        let d = self.data[node as usize];
        if d & CHANCE != 0 {
            Kind::Chance
        } else if d & TERMINAL != 0 {
            Kind::Terminal
        } else {
            Kind::Decision { player: self.set(d).player, set: d }
        }
    }

    /// A set met by the exploration.
    pub fn set(&self, set: u32) -> &SetInfo {
        self.sets[set as usize].as_ref().expect("a node's set is registered with the node")
    }

    /// Children `node` has in the game (made or not).
    pub fn n_children(&self, node: u32) -> u32 {
        let d = self.data[node as usize];
        if d & CHANCE != 0 {
            self.chances[(d & !CHANCE) as usize].1
        } else if d & TERMINAL != 0 {
            0
        } else {
            self.set(d).n_actions
        }
    }

    /// The node's children, empty while it is not expanded.
    pub fn children(&self, node: u32) -> Range<u32> {
        let first = self.first_child[node as usize];
        if first == NONE {
            0..0
        } else {
            first..first + self.n_children(node)
        }
    }

    /// Whether the children of `node` are made.
    pub fn is_expanded(&self, node: u32) -> bool {
        self.first_child[node as usize] != NONE
    }

    /// Probabilities of a chance node's outcomes.
    pub fn chance_probs(&self, node: u32) -> &[f64] {
        let (start, n) = self.chances[(self.data[node as usize] & !CHANCE) as usize];
        &self.probs[start as usize..(start + n) as usize]
    }

    /// The payoff of player `p` at a leaf.
    pub fn payoff(&self, node: u32, p: u32) -> f64 {
        let x = self.payoff[(self.data[node as usize] & !TERMINAL) as usize];
        if p == 0 {
            x as f64
        } else {
            (self.constant_sum.unwrap_or(0) - x) as f64
        }
    }

    /// Global slot of action `a` at a decision node of set `set`.
    pub fn slot(&self, set: u32, a: u32) -> u32 {
        self.set(set).first_slot + a
    }

    /// Widens the payoff range met to `x`.
    fn note_payoff(&mut self, x: i64) {
        let (lo, hi) = self.payoff_range.unwrap_or((x, x));
        self.payoff_range = Some((lo.min(x), hi.max(x)));
    }

    /// Checks that a leaf's payoffs are two and sum to the common constant.
    pub(super) fn check_leaf(&mut self, pay: &[i64]) -> Result<i64, SolveError> {
        let unsupported = |reason: String| SolveError::Unsupported { solver: "the double oracle", reason };
        if pay.len() != 2 {
            return Err(unsupported(format!("it needs exactly 2 players; a leaf has {} payoffs", pay.len())));
        }
        let sum = pay[0] + pay[1];
        match self.constant_sum {
            None => self.constant_sum = Some(sum),
            Some(c) if c != sum => {
                return Err(unsupported(format!(
                    "the game is not zero-sum or constant-sum: payoffs sum to {c} at one leaf and to {sum} at another"
                )))
            }
            Some(_) => {}
        }
        self.note_payoff(pay[0]);
        Ok(pay[0])
    }
}

/// The arena with the game that fills it.
pub(super) struct Explorer<'a, G: Game> {
    pub game: &'a G,
    pub interner: &'a mut InfoInterner,
    pub arena: Arena,
    /// The most nodes the arena may hold.
    pub max_nodes: u64,
    /// The most bytes the arena and the interner may hold together.
    pub limit: MemoryLimit,
    /// Scratch buffers for chance probabilities and payoffs.
    pub probs_buf: Vec<Ratio>,
    pub pay_buf: Vec<i64>,
}

/// A node whose children are being made, with its state before its
/// `advance` (see [`Explorer::child_before`]).
struct Open<S> {
    node: u32,
    before: S,
    /// The interner's mark once `before` was made.
    mark: u32,
    /// The next child to make.
    next: u32,
}

/// Whether a traversal follows action `a` of a node: a pure function of
/// what the arena knows.
pub(super) type Follow<'f> = &'f dyn Fn(&Arena, u32, u32) -> bool;

impl<'a, G: Game> Explorer<'a, G> {
    /// The arena with the root alone, to hold at most `max_nodes` nodes
    /// and `limit` bytes (with the interner).
    pub fn new(
        game: &'a G,
        interner: &'a mut InfoInterner,
        max_nodes: u64,
        limit: MemoryLimit,
    ) -> Result<Self, SolveError> {
        let n_players = game.info().players.len();
        if n_players != 2 {
            return Err(SolveError::Unsupported {
                solver: "the double oracle",
                reason: format!("it needs exactly 2 players; this game has {n_players}"),
            });
        }
        let mut ex = Explorer {
            game,
            interner,
            arena: Arena::default(),
            max_nodes,
            limit,
            probs_buf: Vec::new(),
            pay_buf: Vec::new(),
        };
        let base = ex.interner.mark();
        let mut root = game.root()?;
        let event = game.advance(&mut root, ex.interner)?;
        ex.push_node(NONE, [NONE, NONE]);
        ex.fill(0, &root, event)?;
        ex.interner.truncate(base);
        Ok(ex)
    }

    /// Appends a node to be filled in by [`Self::fill`].
    fn push_node(&mut self, parent: u32, seq: [u32; 2]) {
        let a = &mut self.arena;
        a.data.push(TERMINAL);
        a.first_child.push(NONE);
        a.parent.push(parent);
        a.seq.push(seq);
    }

    /// Records what node `node` is, from its state right after `advance`.
    fn fill(&mut self, node: u32, state: &G::State, event: Node) -> Result<(), SolveError> {
        let data = match event {
            Node::Terminal => {
                let pay = self.game.payoffs(state, &mut self.pay_buf);
                let x = self.arena.check_leaf(pay)?;
                self.arena.payoff.push(x);
                TERMINAL | (self.arena.payoff.len() as u32 - 1)
            }
            Node::Chance { n_outcomes } => {
                self.game.chance_probs(state, &mut self.probs_buf);
                if self.probs_buf.len() != n_outcomes as usize {
                    return Err(SolveError::Unsupported {
                        solver: "the double oracle",
                        reason: format!(
                            "a chance node has {n_outcomes} outcomes but {} probabilities",
                            self.probs_buf.len()
                        ),
                    });
                }
                let a = &mut self.arena;
                a.chances.push((a.probs.len() as u32, n_outcomes));
                a.probs.extend(self.probs_buf.iter().map(|r| r.to_f64()));
                self.check_bytes()?;
                CHANCE | (self.arena.chances.len() as u32 - 1)
            }
            Node::Decision { player, infoset, n_actions } => {
                self.register_set(node, player, infoset, n_actions)?;
                infoset
            }
        };
        self.arena.data[node as usize] = data;
        Ok(())
    }

    /// Gives a new set its slots; checks a known one against this node.
    fn register_set(&mut self, node: u32, player: u32, set: u32, n_actions: u32) -> Result<(), SolveError> {
        let unsupported = |reason: &str| SolveError::Unsupported { solver: "the double oracle", reason: reason.into() };
        if n_actions == 0 {
            return Err(unsupported("a decision node has no actions"));
        }
        if set & (CHANCE | TERMINAL) != 0 {
            return Err(unsupported("the game has too many information sets"));
        }
        let a = &mut self.arena;
        let parent_slot = a.seq[node as usize][player as usize];
        if a.sets.len() <= set as usize {
            a.sets.resize(set as usize + 1, None);
        }
        match a.sets[set as usize] {
            Some(info) if info.n_actions != n_actions => {
                Err(unsupported("the nodes of one information set have different numbers of actions"))
            }
            Some(info) if info.parent_slot != parent_slot => {
                Err(unsupported("imperfect recall: one information set is reached by different own sequences"))
            }
            Some(_) => Ok(()),
            None => {
                let first_slot = a.slot_set.len() as u32;
                a.slot_set.extend(std::iter::repeat_n(set, n_actions as usize));
                a.sets[set as usize] = Some(SetInfo { player, n_actions, first_slot, parent_slot, node });
                Ok(())
            }
        }
    }

    /// The state at `node` before its `advance` (the root's first state,
    /// or right after the apply that led to `node`), replayed from the
    /// root. Its pending facts must be dropped (by the caller's
    /// `truncate`) once it is no longer used.
    pub fn replay_before(&mut self, node: u32) -> Result<G::State, SolveError> {
        let mut path = Vec::new();
        let mut n = node;
        while self.arena.parent[n as usize] != NONE {
            let p = self.arena.parent[n as usize];
            path.push(n - self.arena.first_child[p as usize]);
            n = p;
        }
        let mut state = self.game.root()?;
        for &a in path.iter().rev() {
            self.game.advance(&mut state, self.interner)?;
            self.game.apply(&mut state, a, self.interner)?;
        }
        Ok(state)
    }

    /// The state at `node` after its `advance` and what it waits for
    /// ([`Self::replay_before`], then `advance`).
    pub fn replay(&mut self, node: u32) -> Result<(G::State, Node), SolveError> {
        let mut state = self.replay_before(node)?;
        let event = self.game.advance(&mut state, self.interner)?;
        Ok((state, event))
    }

    /// Child `a` of the node whose state before its `advance` is `before`,
    /// itself before its `advance`. The node is advanced again, on a copy,
    /// right before the apply: a compiled game keeps a node's candidates
    /// only until its next `advance` of any state ([`Game::apply`]), and
    /// holding one state per node on the path, not one per child, keeps a
    /// chance node with a hundred thousand outcomes (each with its own
    /// deck) from filling the memory.
    pub fn child_before(&mut self, before: &G::State, a: u32) -> Result<G::State, SolveError> {
        let mut state = before.clone();
        self.game.advance(&mut state, self.interner)?;
        self.game.apply(&mut state, a, self.interner)?;
        Ok(state)
    }

    /// Makes the children of `node` and, below them, of every node that
    /// `follow` leads to, depth-first. Only the states on the current path
    /// are held: a node's children are first filled in one at a time
    /// (their states dropped at once), then the followed ones are made again
    /// to go below them. Filling siblings first meets the limits before a
    /// long descent into the first of them.
    pub fn expand_region(&mut self, node: u32, follow: Follow) -> Result<(), SolveError> {
        let base = self.interner.mark();
        let before = self.replay_before(node)?;
        let mut stack: Vec<Open<G::State>> = Vec::new();
        if self.open_children(node, follow)? {
            let mark = self.interner.mark();
            self.fill_children(node, &before, mark)?;
            stack.push(Open { node, before, mark, next: 0 });
        }
        while let Some(top) = stack.last_mut() {
            let parent = top.node;
            if top.next == self.arena.n_children(parent) {
                stack.pop();
                continue;
            }
            let a = top.next;
            top.next += 1;
            let c = self.arena.first_child[parent as usize] + a;
            if !follow(&self.arena, parent, a) || !self.open_children(c, follow)? {
                continue;
            }
            // Facts pushed after the parent's state belong to finished siblings.
            self.interner.truncate(top.mark);
            let child = self.child_before(&top.before, a)?;
            let mark = self.interner.mark();
            self.fill_children(c, &child, mark)?;
            stack.push(Open { node: c, before: child, mark, next: 0 });
        }
        self.interner.truncate(base);
        Ok(())
    }

    /// Fills in what each reserved child of `node` is, from the node's
    /// state `before` its advance (made when the interner was at `mark`),
    /// one child at a time.
    fn fill_children(&mut self, node: u32, before: &G::State, mark: u32) -> Result<(), SolveError> {
        let first = self.arena.first_child[node as usize];
        for a in 0..self.arena.n_children(node) {
            self.interner.truncate(mark);
            let mut child = self.child_before(before, a)?;
            let event = self.game.advance(&mut child, self.interner)?;
            self.fill(first + a, &child, event)?;
        }
        self.interner.truncate(mark);
        Ok(())
    }

    /// Reserves the children of `node` when it is not expanded and `follow`
    /// leads below it (they are filled in later by [`Self::fill`]); checks
    /// the node and memory limits. Whether the children were reserved.
    fn open_children(&mut self, node: u32, follow: Follow) -> Result<bool, SolveError> {
        let n = self.arena.n_children(node);
        if self.arena.is_expanded(node) || !(0..n).any(|a| follow(&self.arena, node, a)) {
            return Ok(false);
        }
        let first = self.arena.len() as u32;
        let limit = self.max_nodes.min(u64::from(TERMINAL - 1));
        if first as u64 + u64::from(n) > limit {
            return Err(SolveError::ExploredNodes { solver: "the double oracle", limit });
        }
        self.arena.first_child[node as usize] = first;
        let seq = self.arena.seq[node as usize];
        let mover = match self.arena.kind(node) {
            Kind::Decision { player, set } => Some((player as usize, self.arena.set(set).first_slot)),
            _ => None,
        };
        for a in 0..n {
            let mut s = seq;
            if let Some((p, first_slot)) = mover {
                s[p] = first_slot + a;
            }
            self.push_node(node, s);
        }
        self.check_bytes()?;
        Ok(true)
    }

    /// Checks the arena and the interner against the memory limit, as
    /// nodes are made: a wide game filled the machine's memory long before
    /// the node limit.
    fn check_bytes(&self) -> Result<(), SolveError> {
        let bytes = self.arena.bytes() + self.interner.bytes() as u64;
        self.limit
            .check(bytes)
            .map_err(|e| SolveError::ExploredMemory { solver: "the double oracle", limit: e.limit.bytes() })
    }

    /// The nodes reached from the root by following `follow`, in preorder,
    /// expanding whatever of them is not explored yet.
    pub fn region(&mut self, follow: Follow) -> Result<Vec<u32>, SolveError> {
        let mut order = Vec::new();
        let mut stack = vec![0u32];
        while let Some(node) = stack.pop() {
            order.push(node);
            let n = self.arena.n_children(node);
            if n == 0 || !(0..n).any(|a| follow(&self.arena, node, a)) {
                continue;
            }
            if !self.arena.is_expanded(node) {
                self.expand_region(node, follow)?;
            }
            let first = self.arena.first_child[node as usize];
            stack.extend((0..n).rev().filter(|&a| follow(&self.arena, node, a)).map(|a| first + a));
        }
        Ok(order)
    }

    /// A readable label of a set and of its actions (replayed to its first node).
    pub fn labels(&mut self, set: u32) -> Result<(String, Vec<String>), SolveError> {
        let info = *self.arena.set(set);
        let base = self.interner.mark();
        let (state, _) = self.replay(info.node)?;
        let label = self.game.infoset_label(self.interner, set);
        let actions = (0..info.n_actions).map(|a| self.game.action_label(&state, a)).collect();
        drop(state);
        self.interner.truncate(base);
        Ok((label, actions))
    }
}
