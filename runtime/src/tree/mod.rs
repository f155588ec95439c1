//! The game tree: built by one of the builders below, or loaded from a
//! saved file, and read by the solvers through [`Tree`] ([`nodes`]).
//! How a tree is built, by which module: docs/tree-build.md.

mod build;
mod chances;
mod estimate;
mod nodes;
mod options;
mod outflow;
mod parallel;
mod payoffs;
mod play;
mod recall;
mod saved;
mod set_labels;
mod specialised;
mod stream;
mod validate;

pub use build::Shard;
pub use estimate::{estimate, looks_smaller_than, Estimate};
pub use nodes::{Infoset, NodeView, Stats, Tree, TreeLabels, CHANCE, DECISION, TERMINAL};
pub use options::{BuildError, BuildOptions};
pub use parallel::{MakeScratch, Scratch};
pub use saved::{load, save, LoadError, FORMAT_VERSION};
pub use specialised::{
    build, build_own, build_parallel, build_parallel_own, build_parallel_saving, build_saving, build_shard,
};
pub use stream::{save_consuming, Saved};

#[cfg(test)]
mod test_games;
#[cfg(test)]
mod tests {
    use super::{build, build_parallel, BuildError, BuildOptions};
    use crate::game::{Game, GameError, GameInfo, Node};
    use crate::info::InfoInterner;
    use crate::rational::Ratio;

    fn one_player(name: &str) -> GameInfo {
        GameInfo { name: name.into(), players: vec!["p".into()], params: Vec::new(), program: 0 }
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

    /// A root whose children alone pass the node limit is refused before
    /// any part makes a child's state (as one thread refuses it), not after
    /// every part has made all of its children.
    #[test]
    fn the_parallel_builder_refuses_a_root_wider_than_the_node_limit_at_once() {
        let applied = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let wide_root = || {
            let mut game = chances("wide root", vec![vec![Ratio { num: 1, den: 5000 }; 5000]]);
            game.applied = applied.clone();
            Some(game)
        };
        let opts = BuildOptions { max_nodes: 1000, ..BuildOptions::default() };
        assert!(matches!(build_parallel(&wide_root, &opts, 2), Err(BuildError::TooManyNodes { limit: 1000 })));
        assert_eq!(applied.load(std::sync::atomic::Ordering::Relaxed), 0);
    }

    /// A cancelled build stops at its next check of the limits (within
    /// 65,536 nodes a part), on one thread and on two.
    #[test]
    fn a_cancelled_build_stops_at_its_next_check() {
        let applied = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let deep = || {
            let mut game = deep();
            game.applied = applied.clone();
            game
        };
        let cancel = crate::cancel::Cancel::new();
        cancel.cancel(crate::cancel::Reason::Interrupted);
        let opts = BuildOptions { cancel: Some(cancel), ..BuildOptions::default() };
        assert_eq!(build(&deep(), &opts).err(), Some(BuildError::Cancelled));
        let serial = applied.swap(0, std::sync::atomic::Ordering::Relaxed);
        let make = || Some(deep());
        assert!(matches!(build_parallel(&make, &opts, 2), Err(BuildError::Cancelled)));
        let parallel = applied.load(std::sync::atomic::Ordering::Relaxed);
        let whole = build(&deep(), &BuildOptions::default()).unwrap().0.n_nodes() as u64;
        assert!(whole > 8 * 65_536, "{whole}");
        assert!(serial < 2 * 65_536 && parallel < 4 * 65_536, "{serial} and {parallel} moves of {whole}");
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

    /// `memory` and [`Tree::build_bytes`] count the interner with its
    /// memo, not only the tree: a limit above the tree's arrays (as they
    /// were before shrinking) but below them with the interner is refused,
    /// on one thread and on two.
    #[test]
    fn the_memory_limit_and_report_count_the_interner() {
        let (tree, interner, _) = build(&wide(), &BuildOptions::default()).unwrap();
        let (held, interned) = (tree.build_bytes(), interner.bytes() as u64);
        assert!(interned > 10_000 && held >= tree.bytes() + interned, "{held} {} {interned}", tree.bytes());
        let between = BuildOptions {
            memory: crate::memory::MemoryLimit::from_bytes(held - interned / 2),
            ..BuildOptions::default()
        };
        assert!(matches!(build(&wide(), &between), Err(BuildError::TooMuchMemory { .. })));
        let make = || Some(wide());
        assert!(matches!(build_parallel(&make, &between, 2), Err(BuildError::TooMuchMemory { .. })));
        let (again, _, _) = build(
            &wide(),
            &BuildOptions { memory: crate::memory::MemoryLimit::from_bytes(held), ..BuildOptions::default() },
        )
        .unwrap();
        assert_eq!(again.build_bytes(), held);
    }

    #[test]
    fn over_the_memory_limit_on_two_threads_the_parallel_builder_builds_on_one() {
        let make = || Some(wide());
        let (tree, interner, _) = build(&wide(), &BuildOptions::default()).unwrap();
        let finished = tree.bytes() + interner.bytes() as u64;
        // The least limit (in steps of a twentieth) one thread builds within.
        let fits = |max_bytes| {
            build(
                &wide(),
                &BuildOptions { memory: crate::memory::MemoryLimit::from_bytes(max_bytes), ..BuildOptions::default() },
            )
            .is_ok()
        };
        let limit = (20..).map(|k| finished * k / 20).find(|&b| fits(b)).unwrap();
        // Two threads hold the parts and the merged tree at once: more.
        let parts_and_merge = {
            let (part_tree, part_info, _) =
                build(&chances("half", wide().levels[1..].to_vec()), &BuildOptions::default()).unwrap();
            2 * (part_tree.bytes() + part_info.bytes() as u64) + 2 * part_tree.bytes()
        };
        assert!(parts_and_merge > limit, "{parts_and_merge} {limit}");
        let opts = BuildOptions { memory: crate::memory::MemoryLimit::from_bytes(limit), ..BuildOptions::default() };
        let (parallel, _) = build_parallel(&make, &opts, 2).unwrap();
        assert_eq!(parallel.n_nodes(), tree.n_nodes());
        assert_eq!(parallel.preorder(), tree.preorder());
        // Below what one thread needs, both builders say so.
        let opts =
            BuildOptions { memory: crate::memory::MemoryLimit::from_bytes(finished / 2), ..BuildOptions::default() };
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
