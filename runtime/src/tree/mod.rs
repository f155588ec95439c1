//! The game tree in flat arrays (struct of arrays, `u32` indices).
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

mod build;
mod chances;
mod estimate;
mod merge;
mod parallel;
mod parts;
mod payoffs;
mod play;
mod recall;
mod saved;
mod set_labels;
mod specialised;
mod spill;
mod stream;
mod validate;

pub use build::{BuildError, BuildOptions};
pub use estimate::looks_smaller_than;
pub use saved::{load, save, LoadError, FORMAT_VERSION};
pub use specialised::{build, build_own, build_parallel, build_parallel_saving, build_saving};
pub use spill::{MakeScratch, Scratch};
pub use stream::{save_consuming, Saved};

use crate::rational::Ratio;
use chances::Distributions;
use payoffs::PayoffTable;
use set_labels::SetLabels;

/// Node kinds: `TERMINAL`, `CHANCE`, or `DECISION + player`.
pub const TERMINAL: u8 = 0;
pub const CHANCE: u8 = 1;
pub const DECISION: u8 = 2;

/// Set in the data of a chance node, over its index in `chances`. A
/// decision node's data is its information set, always below this bit (see
/// [`BuildError::TableFull`]).
const CHANCE_BIT: u32 = 1 << 31;

/// An information set of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Infoset {
    pub player: u32,
    /// Index among the infosets of the same player (0-based, by first visit).
    pub index_in_player: u32,
    pub n_actions: u32,
}

/// A chance node's outcomes: their probabilities are the `n` from `start`
/// in [`Distributions`], their labels (if any) the `n` from `labels` in
/// `chance_labels`.
#[derive(Clone, Copy, Debug)]
struct ChanceNode {
    start: u32,
    n: u32,
    labels: u32,
}

pub struct Tree {
    pub n_players: u32,
    pub player_names: Vec<String>,
    /// Decision: the information set; chance: the index in `chances` with
    /// [`CHANCE_BIT`]; terminal: the payoff vector's id in `payoffs`.
    data: Vec<u32>,
    /// 0 for a leaf.
    first_child: Vec<u32>,
    chances: Vec<ChanceNode>,
    dists: Distributions,
    payoffs: PayoffTable,
    /// Action count per information set (a compact copy of
    /// `infosets[i].n_actions`, for [`Tree::children`]; made once a build
    /// is done).
    set_actions: Vec<u32>,
    pub infosets: Vec<Infoset>,
    /// Readable labels of each information set and its actions, if built
    /// with labels (kept apart from [`Infoset`]: a tree built without
    /// labels holds 12 bytes per set).
    set_labels: SetLabels,
    /// Labels of chance outcomes, per chance node's outcome (if built with labels).
    pub chance_labels: Vec<String>,
    /// Bytes of the label strings' text, counted in [`Tree::bytes`] (their
    /// lengths, so that every builder counts alike; a list of action
    /// labels shared by sets once, see [`SetLabels`]): a set's label grows
    /// with the facts before it, and a deep game's labels would otherwise
    /// escape the memory limit.
    label_bytes: u64,
    pub max_depth: u32,
    /// The most bytes its build held at once: the tree's arrays while they
    /// grew and the information-set interner(s) with their memos, what
    /// `max_bytes` bounded (0 for a tree read from a file).
    build_bytes: u64,
}

/// A node as [`Tree::node`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeView {
    Terminal,
    Chance,
    Decision { player: u32, infoset: u32 },
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
    pub fn kind(&self, node: u32) -> u8 {
        let d = self.data[node as usize];
        if self.first_child[node as usize] == 0 {
            TERMINAL
        } else if d & CHANCE_BIT != 0 {
            CHANCE
        } else {
            DECISION + self.infosets[d as usize].player as u8
        }
    }

    /// The deciding player at a decision node.
    pub fn player(&self, node: u32) -> Option<u32> {
        self.infoset(node).map(|set| self.infosets[set as usize].player)
    }

    pub fn infoset(&self, node: u32) -> Option<u32> {
        let d = self.data[node as usize];
        (self.first_child[node as usize] != 0 && d & CHANCE_BIT == 0).then_some(d)
    }

    /// What a node is, with its player and information set when it is a
    /// decision: solvers match on this instead of asking [`Tree::infoset`]
    /// and falling back on an id that would be wrong.
    #[inline]
    pub fn node(&self, node: u32) -> NodeView {
        let d = self.data[node as usize];
        if self.first_child[node as usize] == 0 {
            NodeView::Terminal
        } else if d & CHANCE_BIT != 0 {
            NodeView::Chance
        } else {
            NodeView::Decision { player: self.infosets[d as usize].player, infoset: d }
        }
    }

    #[inline]
    pub fn children(&self, node: u32) -> std::ops::Range<u32> {
        let first = self.first_child[node as usize];
        if first == 0 {
            return 0..0;
        }
        let d = self.data[node as usize];
        let n =
            if d & CHANCE_BIT != 0 { self.chances[(d & !CHANCE_BIT) as usize].n } else { self.set_actions[d as usize] };
        first..first + n
    }

    fn chance_node(&self, node: u32) -> Option<ChanceNode> {
        let d = self.data[node as usize];
        (self.first_child[node as usize] != 0 && d & CHANCE_BIT != 0).then(|| self.chances[(d & !CHANCE_BIT) as usize])
    }

    /// Exact probabilities of a chance node's children.
    pub fn chance_probs(&self, node: u32) -> &[Ratio] {
        self.chance_node(node).map_or(&[], |c| self.dists.get(c.start, c.n))
    }

    /// Labels of a chance node's outcomes (empty if built without labels).
    pub fn chance_outcome_labels(&self, node: u32) -> &[String] {
        match self.chance_node(node) {
            Some(c) if !self.chance_labels.is_empty() => {
                &self.chance_labels[c.labels as usize..(c.labels + c.n) as usize]
            }
            _ => &[],
        }
    }

    /// The readable label of an information set (its player's facts), empty
    /// if the tree was built without labels.
    pub fn infoset_label(&self, set: u32) -> &str {
        self.set_labels.label(set)
    }

    /// The labels of an information set's actions, empty if the tree was
    /// built without labels.
    pub fn action_labels(&self, set: u32) -> &[String] {
        self.set_labels.actions(set)
    }

    /// The payoff vector of a terminal node.
    pub fn payoffs(&self, node: u32) -> &[i64] {
        if self.first_child[node as usize] != 0 {
            return &[];
        }
        self.payoffs.get(self.data[node as usize])
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
                s.decision_nodes[self.infosets[d as usize].player as usize] += 1;
            }
        }
        for info in &self.infosets {
            s.infosets[info.player as usize] += 1;
            s.sequences[info.player as usize] += u64::from(info.n_actions);
        }
        s
    }

    /// The nodes in depth-first preorder (each node before its subtree,
    /// children in action order), without recursion.
    pub fn preorder(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.n_nodes());
        let mut stack = vec![0u32];
        while let Some(node) = stack.pop() {
            out.push(node);
            stack.extend(self.children(node).rev());
        }
        out
    }
}

#[cfg(test)]
mod test_games;
#[cfg(test)]
mod tests {
    use super::{build, build_parallel, BuildError, BuildOptions};
    use crate::game::{Game, GameError, GameInfo, Node};
    use crate::info::InfoInterner;
    use crate::rational::Ratio;

    fn one_player(name: &str) -> GameInfo {
        GameInfo { name: name.into(), players: vec!["p".into()], params: Vec::new() }
    }

    /// A one-player game of chance only: the node at depth `d` has outcomes
    /// with the probabilities `levels[d]`; below the last level, leaves
    /// paying 0.
    pub(super) struct Chances {
        info: GameInfo,
        levels: Vec<Vec<Ratio>>,
        /// How many times `advance` met the root.
        root_advances: std::cell::Cell<u32>,
        /// Moves applied, counted across instances (threads).
        applied: std::sync::Arc<std::sync::atomic::AtomicU64>,
    }

    fn chances(name: &str, levels: Vec<Vec<Ratio>>) -> Chances {
        Chances { info: one_player(name), levels, root_advances: Default::default(), applied: Default::default() }
    }

    impl Game for Chances {
        type State = u32;
        type Specialised = Self;
        fn info(&self) -> &GameInfo {
            &self.info
        }
        fn root(&self) -> Result<u32, GameError> {
            Ok(0)
        }
        fn advance(&self, s: &mut u32, _: &mut InfoInterner) -> Result<Node, GameError> {
            if *s == 0 {
                self.root_advances.set(self.root_advances.get() + 1);
            }
            Ok(match self.levels.get(*s as usize) {
                Some(probs) => Node::Chance { n_outcomes: probs.len() as u32 },
                None => Node::Terminal,
            })
        }
        fn apply(&self, s: &mut u32, _: u32, _: &mut InfoInterner) -> Result<(), GameError> {
            self.applied.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            *s += 1;
            Ok(())
        }
        fn chance_probs(&self, s: &u32, out: &mut Vec<Ratio>) {
            out.clear();
            out.extend_from_slice(&self.levels[*s as usize]);
        }
        fn payoffs<'a>(&self, _: &'a u32, _: &'a mut Vec<i64>) -> &'a [i64] {
            &[0]
        }
        fn action_label(&self, _: &u32, action: u32) -> String {
            action.to_string()
        }
        fn infoset_label(&self, _: &InfoInterner, infoset: u32) -> String {
            infoset.to_string()
        }
    }

    /// A chance root whose two outcomes (then leaves) have `probs`.
    fn coin(probs: [Ratio; 2]) -> Chances {
        chances("coin", vec![probs.to_vec()])
    }

    /// Chance nodes of 4 outcomes down to depth 8, under a root of 2.
    fn wide() -> Chances {
        let uniform = |n: u64| vec![Ratio { num: 1, den: n }; n as usize];
        let mut levels = vec![uniform(2)];
        levels.extend(std::iter::repeat_n(uniform(4), 8));
        chances("wide", levels)
    }

    /// [`wide`] two levels deeper: 2,796,203 nodes.
    pub(super) fn deep() -> Chances {
        let mut game = wide();
        game.levels.extend(std::iter::repeat_n(game.levels[1].clone(), 2));
        game
    }

    #[test]
    fn the_size_guess_is_exact_on_a_uniform_tree_and_no_on_an_error() {
        use super::looks_smaller_than;
        // Every play of `wide` meets the same child counts: the guess is
        // the count, 1 + 2 + 2*4 + ... + 2*4^8.
        let nodes = 1 + (0..=8).map(|d| 2 * 4u32.pow(d)).sum::<u32>();
        assert_eq!(build(&wide(), &BuildOptions::default()).unwrap().0.n_nodes() as u32, nodes);
        let game = wide();
        assert!(looks_smaller_than(&game, f64::from(nodes) + 0.5));
        // The plays share the root's `advance` (a deal enumerating all its
        // outcomes, in a card game).
        assert_eq!(game.root_advances.get(), 1);
        assert!(!looks_smaller_than(&wide(), f64::from(nodes) - 0.5));
        // A root that is a leaf: one node.
        assert!(looks_smaller_than(&chances("leaf", Vec::new()), 1.5));
        assert!(!looks_smaller_than(&chances("leaf", Vec::new()), 0.5));
        // A play that stops with an error (here a chance node without
        // outcomes under the root) says nothing: not small.
        let failing = chances("failing", vec![wide().levels[0].clone(), Vec::new()]);
        assert!(!looks_smaller_than(&failing, 100.0));
        assert!(build(&failing, &BuildOptions::default()).is_err());
    }

    /// The parts of a parallel build share the node limit: the build stops
    /// soon after the nodes of all parts pass it, not when each part alone
    /// does (which would let two threads make twice the nodes).
    #[test]
    fn the_parallel_builder_stops_at_the_node_limit_of_the_whole_tree() {
        let applied = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let deep = || {
            let mut game = deep();
            game.applied = applied.clone();
            game
        };
        let make = || Some(deep());
        let limit = 400_000;
        let opts = BuildOptions { max_nodes: limit, ..BuildOptions::default() };
        assert!(matches!(build_parallel(&make, &opts, 2), Err(BuildError::TooManyNodes { .. })));
        // Slack: each part counts its nodes in the total every 65,536.
        let made = applied.load(std::sync::atomic::Ordering::Relaxed);
        assert!(made < limit + 3 * 65_536, "{made} moves applied under a limit of {limit} nodes");
    }

    /// Both builders post their node count for a progress bar, up to date
    /// within the 65,536 nodes between two checks of the limits, never more
    /// than the tree has.
    #[test]
    fn the_builders_post_how_many_nodes_they_have_made() {
        let posted = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let opts = BuildOptions { progress: Some(posted.clone()), ..BuildOptions::default() };
        let nodes = build(&wide(), &opts).unwrap().0.n_nodes() as u64;
        let seen = posted.load(std::sync::atomic::Ordering::Relaxed);
        assert!(nodes > 2 * 65_536 && seen + 65_536 + 4 > nodes && seen <= nodes, "{seen} of {nodes}");
        posted.store(0, std::sync::atomic::Ordering::Relaxed);
        let make = || Some(wide());
        let (parallel, _) = build_parallel(&make, &opts, 2).unwrap();
        let seen = posted.load(std::sync::atomic::Ordering::Relaxed);
        assert!(seen > 0 && seen <= parallel.n_nodes() as u64, "{seen} of {nodes}");
    }

    /// `max_bytes` and [`Tree::build_bytes`] count the interner with its
    /// memo, not only the tree: a limit above the tree's arrays (as they
    /// were before shrinking) but below them with the interner is refused,
    /// on one thread and on two.
    #[test]
    fn the_memory_limit_and_report_count_the_interner() {
        let (tree, interner, _) = build(&wide(), &BuildOptions::default()).unwrap();
        let (held, interned) = (tree.build_bytes(), interner.bytes() as u64);
        assert!(interned > 10_000 && held >= tree.bytes() + interned, "{held} {} {interned}", tree.bytes());
        let between = BuildOptions { max_bytes: held - interned / 2, ..BuildOptions::default() };
        assert!(matches!(build(&wide(), &between), Err(BuildError::TooMuchMemory { .. })));
        let make = || Some(wide());
        assert!(matches!(build_parallel(&make, &between, 2), Err(BuildError::TooMuchMemory { .. })));
        let (again, _, _) = build(&wide(), &BuildOptions { max_bytes: held, ..BuildOptions::default() }).unwrap();
        assert_eq!(again.build_bytes(), held);
    }

    #[test]
    fn over_the_memory_limit_on_two_threads_the_parallel_builder_builds_on_one() {
        let make = || Some(wide());
        let (tree, interner, _) = build(&wide(), &BuildOptions::default()).unwrap();
        let finished = tree.bytes() + interner.bytes() as u64;
        // The least limit (in steps of a twentieth) one thread builds within.
        let fits = |max_bytes| build(&wide(), &BuildOptions { max_bytes, ..BuildOptions::default() }).is_ok();
        let limit = (20..).map(|k| finished * k / 20).find(|&b| fits(b)).unwrap();
        // Two threads hold the parts and the merged tree at once: more.
        let parts_and_merge = {
            let (part_tree, part_info, _) =
                build(&chances("half", wide().levels[1..].to_vec()), &BuildOptions::default()).unwrap();
            2 * (part_tree.bytes() + part_info.bytes() as u64) + 2 * part_tree.bytes()
        };
        assert!(parts_and_merge > limit, "{parts_and_merge} {limit}");
        let opts = BuildOptions { max_bytes: limit, ..BuildOptions::default() };
        let (parallel, _) = build_parallel(&make, &opts, 2).unwrap();
        assert_eq!(parallel.n_nodes(), tree.n_nodes());
        assert_eq!(parallel.preorder(), tree.preorder());
        // Below what one thread needs, both builders say so.
        let opts = BuildOptions { max_bytes: finished / 2, ..BuildOptions::default() };
        assert!(matches!(build_parallel(&make, &opts, 2), Err(BuildError::TooMuchMemory { .. })));
    }

    /// A hidden coin, then one information set whose nodes have 2 or 3
    /// actions (a hand-written game's mistake; Gala's choice lists, part of
    /// the set, rule it out).
    struct Uneven {
        info: GameInfo,
    }

    impl Game for Uneven {
        type State = (u32, u32);
        type Specialised = Self;
        fn info(&self) -> &GameInfo {
            &self.info
        }
        fn root(&self) -> Result<(u32, u32), GameError> {
            Ok((0, 0))
        }
        fn advance(&self, s: &mut (u32, u32), info: &mut InfoInterner) -> Result<Node, GameError> {
            Ok(match s.0 {
                0 => Node::Chance { n_outcomes: 2 },
                1 => {
                    let (infoset, _) = info.infoset(0, crate::info::InfoState::EMPTY, &[7]);
                    Node::Decision { player: 0, infoset, n_actions: 2 + s.1 }
                }
                _ => Node::Terminal,
            })
        }
        fn apply(&self, s: &mut (u32, u32), action: u32, _: &mut InfoInterner) -> Result<(), GameError> {
            *s = (s.0 + 1, if s.0 == 0 { action } else { s.1 });
            Ok(())
        }
        fn chance_probs(&self, _: &(u32, u32), out: &mut Vec<Ratio>) {
            out.clear();
            out.resize(2, Ratio { num: 1, den: 2 });
        }
        fn payoffs<'a>(&self, _: &'a (u32, u32), _: &'a mut Vec<i64>) -> &'a [i64] {
            &[0]
        }
        fn action_label(&self, _: &(u32, u32), action: u32) -> String {
            action.to_string()
        }
        fn infoset_label(&self, _: &InfoInterner, infoset: u32) -> String {
            infoset.to_string()
        }
    }

    #[test]
    fn an_information_set_with_two_action_counts_is_an_error_on_every_builder() {
        let make = || Some(Uneven { info: one_player("uneven") });
        for threads in [1, 2] {
            match build_parallel(&make, &BuildOptions::default(), threads) {
                Err(BuildError::ActionCountMismatch { first: 2, other: 3 }) => {}
                other => {
                    panic!("{threads} threads: expected an action-count error, got {:?}", other.map(|t| t.0.n_nodes()))
                }
            }
        }
    }

    #[test]
    fn chance_probabilities_not_summing_to_one_are_an_error_on_every_builder() {
        let quarter = Ratio { num: 1, den: 4 };
        let half = Ratio { num: 1, den: 2 };
        let opts = BuildOptions::default();
        for threads in [1, 2] {
            let make = || Some(coin([quarter, quarter]));
            match build_parallel(&make, &opts, threads) {
                Err(BuildError::ChanceSum { sum }) => assert_eq!(sum, "1/2"),
                other => panic!("expected a chance-sum error, got {:?}", other.map(|t| t.0.n_nodes())),
            }
            let make = || Some(coin([half, half]));
            assert_eq!(build_parallel(&make, &opts, threads).map(|t| t.0.n_nodes()), Ok(3));
        }
        assert!(matches!(build(&coin([quarter, half]), &opts), Err(BuildError::ChanceSum { .. })));
    }
}
