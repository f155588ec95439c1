//! The game tree in flat arrays (struct of arrays, `u32` indices inside;
//! [`NodeId`], [`InfosetId`] and [`PlayerId`] at the API).
//!
//! Node 0 is the root. The children of a node are contiguous
//! (from `first_child`, as many as the node has); nodes are numbered by a
//! depth-first walk that numbers all children of a node before descending,
//! so the numbering is deterministic. Per node: one `u32` of data
//! (information set, chance node or payoff vector) and the first child: 8
//! bytes. The kind is not stored apart: a leaf's first child is 0 (no node
//! has the root as a child), a chance node's data has [`CHANCE_BIT`] set,
//! and a decision node's player is its information set's. The child count
//! is not stored per node either: it is the information set's action count
//! or the chance node's outcome count. Leaves store the id of their payoff
//! vector, kept once per distinct vector. Chance probabilities are exact.

use super::chances::Distributions;
use super::options::BuildError;
use super::payoffs::PayoffTable;
use super::set_labels::SetLabels;
use crate::ids::{IdRange, IdVec, InfosetId, NodeId, PlayerId};
use crate::rational::Ratio;

/// Node kinds: `TERMINAL`, `CHANCE`, or `DECISION + player`.
pub const TERMINAL: u8 = 0;
pub const CHANCE: u8 = 1;
pub const DECISION: u8 = 2;

/// Set in the data of a chance node, over its index in `chances`. A
/// decision node's data is its information set, always below this bit (see
/// [`BuildError::TableFull`]).
pub(super) const CHANCE_BIT: u32 = 1 << 31;

/// An information set of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Infoset {
    pub player: PlayerId,
    /// Index among the infosets of the same player (0-based, by first visit).
    pub index_in_player: u32,
    pub n_actions: u32,
}

/// A chance node's outcomes: their probabilities are the `n` from `start`
/// in [`Distributions`], their labels (if any) the `n` from `labels` in
/// `chance_labels`.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChanceNode {
    pub(super) start: u32,
    pub(super) n: u32,
    pub(super) labels: u32,
}

pub struct Tree {
    pub n_players: u32,
    pub player_names: Vec<String>,
    /// Decision: the information set; chance: the index in `chances` with
    /// [`CHANCE_BIT`]; terminal: the payoff vector's id in `payoffs`.
    pub(super) data: Vec<u32>,
    /// 0 for a leaf.
    pub(super) first_child: Vec<u32>,
    pub(super) chances: Vec<ChanceNode>,
    pub(super) dists: Distributions,
    pub(super) payoffs: PayoffTable,
    /// Action count per information set (a compact copy of
    /// `infosets[i].n_actions`, for [`Tree::children`]; made once a build
    /// is done).
    pub(super) set_actions: Vec<u32>,
    pub infosets: IdVec<InfosetId, Infoset>,
    /// Readable labels of each information set and its actions, if built
    /// with labels (kept apart from [`Infoset`]: a tree built without
    /// labels holds 12 bytes per set).
    pub(super) set_labels: SetLabels,
    /// Labels of chance outcomes, per chance node's outcome (if built with labels).
    pub chance_labels: Vec<String>,
    /// Bytes of the label strings' text, counted in [`Tree::bytes`] (their
    /// lengths, so that every builder counts alike; a list of action
    /// labels shared by sets once, see [`SetLabels`]): a set's label grows
    /// with the facts before it, and a deep game's labels would otherwise
    /// escape the memory limit.
    pub(super) label_bytes: u64,
    pub max_depth: u32,
    /// The most bytes its build held at once: the tree's arrays while they
    /// grew and the information-set interner(s) with their memos, what
    /// `memory` bounded (0 for a tree read from a file).
    pub(super) build_bytes: u64,
}

/// A tree's labels, taken from a second build of it ([`Tree::labels_of`])
/// for [`Tree::adopt_labels`], without that build's nodes.
pub struct TreeLabels {
    set_labels: SetLabels,
    chance_labels: Vec<String>,
    /// The chance nodes, with where their outcomes' labels start.
    chances: Vec<ChanceNode>,
    label_bytes: u64,
}

/// A node as [`Tree::node`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeView {
    Terminal,
    Chance,
    Decision { player: PlayerId, infoset: InfosetId },
}

/// Counts that describe a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub terminals: u64,
    pub chance_nodes: u64,
    pub decision_nodes: Vec<u64>,
    pub infosets: Vec<u64>,
    /// Sequences per player, counting the empty sequence.
    pub sequences: Vec<u64>,
    pub max_depth: u32,
    pub bytes: u64,
}

impl Tree {
    pub fn n_nodes(&self) -> usize {
        self.data.len()
    }

    /// `TERMINAL`, `CHANCE`, or `DECISION` + the deciding player.
    pub fn kind(&self, node: NodeId) -> u8 {
        let d = self.data[node.index()];
        if self.first_child[node.index()] == 0 {
            TERMINAL
        } else if d & CHANCE_BIT != 0 {
            CHANCE
        } else {
            DECISION + self.infosets[InfosetId(d)].player.0 as u8
        }
    }

    /// The deciding player at a decision node.
    pub fn player(&self, node: NodeId) -> Option<PlayerId> {
        self.infoset(node).map(|set| self.infosets[set].player)
    }

    pub fn infoset(&self, node: NodeId) -> Option<InfosetId> {
        let d = self.data[node.index()];
        (self.first_child[node.index()] != 0 && d & CHANCE_BIT == 0).then_some(InfosetId(d))
    }

    /// The players, `0 .. n_players`.
    pub fn players(&self) -> IdRange<PlayerId> {
        PlayerId::all(self.n_players)
    }

    /// Every node, root first.
    pub fn nodes(&self) -> IdRange<NodeId> {
        IdRange::new(NodeId::ROOT, NodeId::from_index(self.n_nodes()))
    }

    /// What a node is, with its player and information set when it is a
    /// decision: solvers match on this instead of asking [`Tree::infoset`]
    /// and falling back on an id that would be wrong.
    #[inline]
    pub fn node(&self, node: NodeId) -> NodeView {
        let d = self.data[node.index()];
        if self.first_child[node.index()] == 0 {
            NodeView::Terminal
        } else if d & CHANCE_BIT != 0 {
            NodeView::Chance
        } else {
            let infoset = InfosetId(d);
            NodeView::Decision { player: self.infosets[infoset].player, infoset }
        }
    }

    /// A node's children, contiguous, in action (or outcome) order.
    #[inline]
    pub fn children(&self, node: NodeId) -> IdRange<NodeId> {
        let first = self.first_child[node.index()];
        if first == 0 {
            return IdRange::new(NodeId(0), NodeId(0));
        }
        let d = self.data[node.index()];
        let n =
            if d & CHANCE_BIT != 0 { self.chances[(d & !CHANCE_BIT) as usize].n } else { self.set_actions[d as usize] };
        IdRange::new(NodeId(first), NodeId(first + n))
    }

    pub(super) fn chance_node(&self, node: NodeId) -> Option<ChanceNode> {
        let d = self.data[node.index()];
        (self.first_child[node.index()] != 0 && d & CHANCE_BIT != 0).then(|| self.chances[(d & !CHANCE_BIT) as usize])
    }

    /// Exact probabilities of a chance node's children.
    pub fn chance_probs(&self, node: NodeId) -> &[Ratio] {
        self.chance_node(node).map_or(&[], |c| self.dists.get(c.start, c.n))
    }

    /// Labels of a chance node's outcomes (empty if built without labels).
    pub fn chance_outcome_labels(&self, node: NodeId) -> &[String] {
        match self.chance_node(node) {
            Some(c) if !self.chance_labels.is_empty() => {
                &self.chance_labels[c.labels as usize..(c.labels + c.n) as usize]
            }
            _ => &[],
        }
    }

    /// The readable label of an information set (its player's facts), empty
    /// if the tree was built without labels.
    pub fn infoset_label(&self, set: InfosetId) -> &str {
        self.set_labels.label(set.0)
    }

    /// The labels of an information set's actions, empty if the tree was
    /// built without labels.
    pub fn action_labels(&self, set: InfosetId) -> &[String] {
        self.set_labels.actions(set.0)
    }

    /// The labels of `donor`, the same game's tree built again with them
    /// (the same nodes, sets and chance nodes in the same order, as one
    /// game's builds on one thread are), for [`Tree::adopt_labels`]: a
    /// caller who needs this tree early builds the labels on another thread
    /// meanwhile (the double oracle's seeded run: docs/perf/double-oracle.md)
    /// and lets go of `donor`'s nodes as soon as they are checked. An error
    /// if the two differ in shape.
    pub fn labels_of(&self, donor: Tree) -> Result<TreeLabels, String> {
        let same_sets =
            self.infosets.len() == donor.infosets.len()
                && self.infosets.iter().zip(donor.infosets.iter()).all(|(a, b)| {
                    (a.player, a.index_in_player, a.n_actions) == (b.player, b.index_in_player, b.n_actions)
                });
        if !(same_sets
            && self.same_chances(&donor.chances)
            && self.data == donor.data
            && self.first_child == donor.first_child)
        {
            return Err("the tree built again for its labels differs from the first build".into());
        }
        Ok(TreeLabels {
            set_labels: donor.set_labels,
            chance_labels: donor.chance_labels,
            chances: donor.chances,
            label_bytes: donor.label_bytes,
        })
    }

    /// Whether `chances` are this tree's chance nodes, outcome for outcome.
    fn same_chances(&self, chances: &[ChanceNode]) -> bool {
        self.chances.len() == chances.len()
            && self.chances.iter().zip(chances).all(|(a, b)| (a.start, a.n) == (b.start, b.n))
    }

    /// Takes `labels` ([`Tree::labels_of`] this tree) into this tree, built
    /// without labels. An error, leaving this tree as it was, if it has
    /// labels or `labels` are another tree's.
    pub fn adopt_labels(&mut self, labels: TreeLabels) -> Result<(), String> {
        if !self.set_labels.is_empty() || !self.chance_labels.is_empty() {
            return Err("the tree already has labels".into());
        }
        if labels.set_labels.len() != self.infosets.len() || !self.same_chances(&labels.chances) {
            return Err("the labels are another tree's".into());
        }
        self.set_labels = labels.set_labels;
        self.chance_labels = labels.chance_labels;
        self.chances = labels.chances;
        self.label_bytes = labels.label_bytes;
        Ok(())
    }

    /// The largest payoff of the tree's payoff table in absolute value:
    /// of every leaf the build met, so on a distributed run's shard
    /// (`build_shard`) the whole tree's, the same on every rank.
    pub fn max_abs_payoff(&self) -> u64 {
        (0..self.payoffs.len() as u32).flat_map(|id| self.payoffs.get(id)).map(|x| x.unsigned_abs()).max().unwrap_or(0)
    }

    /// The payoff vector of a terminal node.
    pub fn payoffs(&self, node: NodeId) -> &[i64] {
        if self.first_child[node.index()] != 0 {
            return &[];
        }
        self.payoffs.get(self.data[node.index()])
    }

    /// Bytes held by the node arrays and tables (labels' strings aside:
    /// counting them would walk every label at each memory check). The
    /// arrays' lengths, not their capacities: an array grows by doubling
    /// its reserved room, but a page of it takes memory only once written
    /// (counting the room, a build would say it holds far more than its
    /// resident memory, and the memory limit would stop it early).
    pub fn bytes(&self) -> u64 {
        (self.data.len() * 4
            + self.first_child.len() * 4
            + self.chances.len() * std::mem::size_of::<ChanceNode>()
            + self.set_actions.len() * 4
            + self.infosets.len() * std::mem::size_of::<Infoset>()
            + self.chance_labels.len() * std::mem::size_of::<String>()) as u64
            + self.dists.bytes()
            + self.payoffs.bytes()
            + self.set_labels.index_bytes()
            + self.label_bytes
    }

    /// Bytes of the two per-node arrays (part of [`Tree::bytes`]).
    pub(super) fn node_bytes(&self) -> u64 {
        (self.data.len() * 4 + self.first_child.len() * 4) as u64
    }

    /// Appends a chance outcome's label, counting its bytes.
    pub(super) fn push_chance_label(&mut self, label: String) {
        self.label_bytes += label.len() as u64;
        self.chance_labels.push(label);
    }

    /// See [`Tree::build_bytes`](Tree#structfield.build_bytes): everything
    /// its build held, for the memory report (0 for a tree read from a file).
    pub fn build_bytes(&self) -> u64 {
        self.build_bytes
    }

    pub fn stats(&self) -> Stats {
        let n = self.n_players as usize;
        let mut s = Stats {
            nodes: self.n_nodes() as u64,
            terminals: 0,
            chance_nodes: 0,
            decision_nodes: vec![0; n],
            infosets: vec![0; n],
            sequences: vec![1; n],
            max_depth: self.max_depth,
            bytes: self.bytes(),
        };
        for (&d, &first) in self.data.iter().zip(&self.first_child) {
            if first == 0 {
                s.terminals += 1;
            } else if d & CHANCE_BIT != 0 {
                s.chance_nodes += 1;
            } else {
                s.decision_nodes[self.infosets[InfosetId(d)].player.index()] += 1;
            }
        }
        for info in &self.infosets {
            s.infosets[info.player.index()] += 1;
            s.sequences[info.player.index()] += u64::from(info.n_actions);
        }
        s
    }

    /// The nodes in depth-first preorder (each node before its subtree,
    /// children in action order), without recursion.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.n_nodes());
        let mut stack = vec![NodeId::ROOT];
        while let Some(node) = stack.pop() {
            out.push(node);
            stack.extend(self.children(node).rev());
        }
        out
    }
}

impl Tree {
    /// A checksum of the game the tree is: its shape (every node's kind,
    /// player and information set, in order), every chance probability and
    /// every payoff (labels not counted). Two trees of the same shape but
    /// other payoffs or probabilities (a game with other params) differ, so
    /// files made for one tree (a CFR checkpoint) are refused for another.
    pub fn content_digest(&self) -> u32 {
        let mut crc = crc32fast::Hasher::new();
        crc.update(&self.n_players.to_le_bytes());
        for node in self.nodes() {
            match self.node(node) {
                NodeView::Terminal => {
                    crc.update(&[0]);
                    for x in self.payoffs(node) {
                        crc.update(&x.to_le_bytes());
                    }
                }
                NodeView::Chance => {
                    crc.update(&[1]);
                    for p in self.chance_probs(node) {
                        crc.update(&p.num.to_le_bytes());
                        crc.update(&p.den.to_le_bytes());
                    }
                }
                NodeView::Decision { player, infoset } => {
                    crc.update(&[2]);
                    crc.update(&player.0.to_le_bytes());
                    crc.update(&infoset.0.to_le_bytes());
                    crc.update(&self.infosets[infoset].n_actions.to_le_bytes());
                }
            }
        }
        crc.finalize()
    }
}

impl Tree {
    /// Takes the set labels of `part`, a parallel build's first part, whose
    /// sets are this tree's from the first on, as this tree's: moved, not
    /// copied (they are most of the labels, and a copy doubled them while
    /// it was made). The part's first set, an empty placeholder for this
    /// tree's root set if it has one, gets its labels. The label bytes come
    /// out as if each set had been added (each distinct list counted once).
    /// Takes nothing if the part's sets do not start so (the merge then
    /// copies the labels, as for the other parts).
    pub(super) fn adopt_set_labels(&mut self, part: &mut Tree) {
        let n = self.infosets.len();
        let placeholders = part.infosets.len() >= n && part.infosets.raw[..n].iter().all(|s| s.n_actions == 0);
        let labelled = self.set_labels.len() == n && part.set_labels.len() >= n;
        if n > 1 || !placeholders || !labelled || (n == 1 && !part.set_labels.label(0).is_empty()) {
            return;
        }
        let mut labels = std::mem::take(&mut part.set_labels);
        if n == 1 {
            labels.relabel_first(self.set_labels.label(0), self.set_labels.actions(0));
        }
        self.label_bytes = self.label_bytes - self.set_labels.text_bytes() + labels.text_bytes();
        self.set_labels = labels;
    }
}

/// Making a tree's tables, for the builders and the loader.
impl Tree {
    /// A tree with no nodes yet.
    pub(super) fn empty(player_names: Vec<String>) -> Tree {
        let n_players = player_names.len() as u32;
        Tree {
            n_players,
            player_names,
            data: Vec::new(),
            first_child: Vec::new(),
            chances: Vec::new(),
            dists: Distributions::default(),
            payoffs: PayoffTable::new(n_players as usize),
            set_actions: Vec::new(),
            infosets: IdVec::new(),
            set_labels: SetLabels::default(),
            chance_labels: Vec::new(),
            label_bytes: 0,
            max_depth: 0,
            build_bytes: 0,
        }
    }
    /// Appends an information set, with, in a tree built with labels, its
    /// label and its actions' labels (the compact action counts are made
    /// when the build is done, [`Tree::fill_set_actions`]).
    pub(super) fn push_infoset(&mut self, set: Infoset, labels: Option<(&str, &[String])>) -> Result<(), BuildError> {
        if self.infosets.len() >= CHANCE_BIT as usize {
            return Err(BuildError::TableFull { what: "information sets", limit: CHANCE_BIT.into() });
        }
        crate::room::push(&mut self.infosets.raw, set);
        if let Some((label, actions)) = labels {
            self.label_bytes += self.set_labels.push(label, actions);
        }
        Ok(())
    }
    /// Appends a chance node's outcomes and returns the node's data.
    pub(super) fn push_chance(&mut self, chance: ChanceNode) -> Result<u32, BuildError> {
        let index = self.chances.len() as u32;
        if index >= CHANCE_BIT {
            return Err(BuildError::TableFull { what: "chance nodes", limit: CHANCE_BIT.into() });
        }
        self.chances.push(chance);
        Ok(index | CHANCE_BIT)
    }
    /// Makes the compact action counts from the sets, once the build is
    /// done: a build does without them (reading `infosets`), 4 bytes a set
    /// less at its peak (docs/perf/tree-build.md, "Memory of a large build").
    pub(super) fn fill_set_actions(&mut self) {
        self.set_actions = self.infosets.iter().map(|s| s.n_actions).collect();
    }
    pub(super) fn shrink_to_fit(&mut self) {
        self.data.shrink_to_fit();
        self.first_child.shrink_to_fit();
        self.chances.shrink_to_fit();
        self.dists.shrink_to_fit();
        self.payoffs.shrink_to_fit();
        self.set_actions.shrink_to_fit();
        self.infosets.shrink_to_fit();
        self.set_labels.shrink_to_fit();
        self.chance_labels.shrink_to_fit();
    }
}
