//! Splitting the root's children into parts and building each part on a
//! thread of its own (with its own game and interner), then merging them
//! ([`super::merge`]) or, for a saved tree, handing them to
//! [`super::spill`]. Why the tree is the one a build on one thread makes:
//! see [`super`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::merge::merge;
use super::parts::{Part, PartInfo};
use super::scratch::{MakeScratch, PartFile, Spill};
use crate::game::{advance_out_of_line, Game, Node};
use crate::info::InfoInterner;
use crate::tree::build::{explore, finish, Budget, RootMove, ROOM_SETS, ROOM_STATES};
use crate::tree::nodes::Tree;
use crate::tree::options::{BuildError, BuildOptions};
use crate::tree::outflow::Outflow;
use crate::tree::recall::MovesBefore;

/// Parts per thread: more would balance uneven subtrees, but each part
/// interns the information sets it meets on its own, and one part per
/// thread was the fastest on the poker and Leduc trees, whose root's
/// children have subtrees of equal size (docs/perf/tree-build.md, "Fresh
/// small builds").
const PARTS_PER_THREAD: usize = 1;

/// Builds the tree of the game `make` creates, on up to `threads` threads
/// (each calls `make` once), with the seconds it took. Falls back to one
/// thread when the root has fewer than two children. Unlike
/// [`crate::tree::build`] it returns no interner: the last part's new
/// information sets are numbered without being interned (see
/// [`super::parts::Match`]).
pub fn build_parallel<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
) -> Result<(Tree, f64), BuildError> {
    build_on_threads(make, opts, threads, false).map(|(tree, _, seconds)| (tree, seconds))
}

/// [`build_parallel`] that also returns the interner, with every set of
/// the tree in it under the number [`crate::tree::build`] gives it, for a
/// caller that goes on asking a game `make` makes for sets in it (the
/// double oracle on the tree its warm start was run on). Its merge
/// interns the last part's new sets too, and keeps the first part's
/// interner whole throughout (the parts' sets are not matched with each
/// other beforehand to give both back): it holds more than
/// [`build_parallel`] does.
pub fn build_parallel_own<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
) -> Result<(Tree, InfoInterner, f64), BuildError> {
    build_on_threads(make, opts, threads, true)
}

/// [`build_parallel`], or with `keep` [`build_parallel_own`].
fn build_on_threads<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
    keep: bool,
) -> Result<(Tree, InfoInterner, f64), BuildError> {
    let start = Instant::now();
    let Split { game, mut global, state, root, bounds } = split(make, threads, opts)?;
    if bounds.is_empty() {
        return on_one_thread(&game, opts);
    }
    // The parts share the node and memory limits.
    let budget = Budget::default();
    let Some(parts) = build_parts(make, &bounds, opts, threads, &budget, None, keep)? else {
        return on_one_thread(&game, opts);
    };
    let merged = match merge(&game, &mut global, &state, root, parts, &bounds, opts, &budget, keep) {
        Err(BuildError::TooMuchMemory { .. }) => None,
        merged => merged?,
    };
    // Too large to merge, or parts that disagree on perfect recall (the
    // build on one thread names the sets).
    let Some(mut tree) = merged else { return on_one_thread(&game, opts) };
    // The parts held the most at once while they were built (both
    // interners whole, on two threads), or the merge did.
    tree.build_bytes = tree.build_bytes.max(budget.peak());
    finish(&mut tree, &global, opts)?;
    Ok((tree, global, start.elapsed().as_secs_f64()))
}

/// A parallel build's root, expanded on the calling thread.
pub(super) struct Split<G: Game> {
    pub(super) game: G,
    /// The interner with the root's information states.
    pub(super) global: InfoInterner,
    pub(super) state: G::State,
    pub(super) root: Node,
    /// Part `i` builds the subtrees of the root's children `bounds[i]..
    /// bounds[i + 1]`; empty when the build is better made on one thread.
    pub(super) bounds: Vec<u32>,
}

/// Creates the game, expands its root and splits the root's children
/// into parts for up to `threads` threads (none if fewer than two threads
/// or children). A root whose children alone pass `opts.max_nodes` is
/// refused here, as the one-thread build refuses it: the parts would first
/// make every child's state, which for a wide root of large states takes
/// minutes before any part counts a node.
pub(super) fn split<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    threads: usize,
    opts: &BuildOptions,
) -> Result<Split<G>, BuildError> {
    let game = make().ok_or_else(|| {
        BuildError::Game(crate::game::GameError::Other { message: "cannot create the game".into(), at: String::new() })
    })?;
    let mut global = InfoInterner::new();
    let mut state = game.root()?;
    let root = advance_out_of_line(&game, &mut state, &mut global)?;
    let n_children = match root {
        Node::Terminal => 0,
        Node::Chance { n_outcomes } => n_outcomes,
        Node::Decision { n_actions, .. } => n_actions,
    };
    if 1 + u64::from(n_children) > opts.max_nodes {
        return Err(BuildError::TooManyNodes { limit: opts.max_nodes.min(u64::from(u32::MAX - 1)) });
    }
    let mut bounds = Vec::new();
    if threads >= 2 && n_children >= 2 {
        // Each part: the subtrees of a run of the root's children, with its
        // own interner (see `PARTS_PER_THREAD`).
        let n_parts = (threads * PARTS_PER_THREAD).min(n_children as usize);
        bounds = (0..=n_parts).map(|k| (k as u64 * u64::from(n_children) / n_parts as u64) as u32).collect();
    }
    Ok(Split { game, global, state, root, bounds })
}

/// Builds the parts `bounds` says on up to `threads` threads, counted in
/// `budget`; each part's nodes go to a scratch file of its own if
/// `scratch` makes them. `None` if the tree is better built on one thread:
/// parts hold more memory at once than one thread does, so over the budget
/// one thread may still fit (as when a part is missing). With `keep` the
/// first part keeps its interner and the others their keys, whatever the
/// order they end in (see [`build_parallel_own`]).
pub(super) fn build_parts<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    bounds: &[u32],
    opts: &BuildOptions,
    threads: usize,
    budget: &Budget,
    scratch: Option<&MakeScratch<'_>>,
    keep: bool,
) -> Result<Option<Vec<Part>>, BuildError> {
    let n_parts = bounds.len() - 1;
    let parts: Vec<Mutex<Option<Result<Part, BuildError>>>> = (0..n_parts).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let part_opts = BuildOptions { labels: opts.labels, ..opts.clone() };
    // Each thread, the calling one included, builds parts until none is
    // left, each with its own instance (an instance's choice candidates
    // belong to its last `advance`; the merge reads the root's).
    let work = |game: &G| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n_parts {
            break;
        }
        let result = build_part(game, bounds, i, &part_opts, budget, scratch).map(|(tree, interner, before, spill)| {
            // What the merge does not use goes back now, while other parts
            // may still be building: of two parts, the first done keeps
            // only its keys (see `match_two_parts`); of more, all but the
            // first.
            let held = tree.build_bytes;
            let first_done = finished.fetch_add(1, Ordering::Relaxed) == 0;
            let global = if keep { i == 0 } else { (n_parts == 2 && !first_done) || (n_parts > 2 && i == 0) };
            let info = if global {
                let mut interner = interner;
                interner.forget_memo();
                PartInfo::Global(Box::new(interner))
            } else {
                PartInfo::Keys(interner.into_keys())
            };
            let part = Part { tree, info, before, spill };
            budget.change(held, part.bytes());
            part
        });
        let failed = result.is_err();
        if let Ok(mut slot) = parts[i].lock() {
            *slot = Some(result);
        }
        if failed {
            break;
        }
    };
    let work_on_new = || {
        if let Some(game) = make() {
            work(&game);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(n_parts) {
            scope.spawn(work_on_new);
        }
        work_on_new();
    });
    // The first part that did not finish decides.
    let mut done: Vec<Part> = Vec::with_capacity(parts.len());
    for slot in parts {
        match slot.into_inner().ok().flatten() {
            Some(Ok(part)) => done.push(part),
            Some(Err(BuildError::TooMuchMemory { .. })) | None => return Ok(None),
            Some(Err(e)) => return Err(e),
        }
    }
    Ok(Some(done))
}

/// Builds part `i` of a parallel build: the subtrees of the root's
/// children `bounds[i]..bounds[i + 1]`, with its own interner; returns the
/// part's tree (holding what it held at its end in `build_bytes`), its
/// interner, per set the own move before it and, with `scratch`, its nodes
/// in a scratch file (the tree then has none).
fn build_part<G: Game>(
    game: &G,
    bounds: &[u32],
    i: usize,
    opts: &BuildOptions,
    budget: &Budget,
    scratch: Option<&MakeScratch<'_>>,
) -> Result<(Tree, InfoInterner, MovesBefore, Option<Spill>), BuildError> {
    let mut interner = InfoInterner::with_room(ROOM_STATES, ROOM_SETS);
    let mut root = game.root()?;
    let root_move = match advance_out_of_line(game, &mut root, &mut interner)? {
        Node::Decision { player, infoset, .. } => Some(RootMove { player, infoset, first_action: bounds[i] }),
        _ => None,
    };
    let mut children = Vec::new();
    for a in bounds[i]..bounds[i + 1] {
        let mut child = root.clone();
        game.apply(&mut child, a, &mut interner)?;
        children.push(child);
    }
    let mut file = match scratch {
        Some(make) => Some(PartFile::new(make().map_err(|e| BuildError::Write(e.to_string()))?)),
        None => None,
    };
    let mut outflow = match &mut file {
        Some(file) => Outflow::to(file),
        None => Outflow::none(),
    };
    Budget::count_start();
    let explored = explore(game, children, root_move, Some(bounds[i]), None, opts, &mut interner, budget, &mut outflow);
    let Outflow { base: n_nodes, late, kinds, .. } = outflow;
    let spill = file.map(|file| Spill::new(file, n_nodes, late, kinds));
    // What it held at its end, counted (or nothing, on an error).
    let held = explored.as_ref().map_or(0, |(tree, _)| tree.build_bytes + spill.as_ref().map_or(0, Spill::bytes));
    budget.count_end(held);
    let (mut tree, before) = explored?;
    tree.build_bytes = held;
    if spill.is_some() {
        // Its nodes are in the scratch file: the emptied node arrays'
        // room (about 16 MiB a part) is given back now, not when the
        // merge reaches this part.
        tree.data = Vec::new();
        tree.first_child = Vec::new();
    }
    Ok((tree, interner, before, spill))
}

/// The tree built on this thread by the builder on one thread. `game` is
/// already the specialised copy when the game has one (see
/// `tree/specialised.rs`), as [`crate::tree::build`] would pick.
fn on_one_thread<G: Game>(game: &G, opts: &BuildOptions) -> Result<(Tree, InfoInterner, f64), BuildError> {
    crate::tree::build::build(game, opts)
}

#[cfg(test)]
mod tests {
    use super::super::merge::{move_nodes, prepare, Remap, Shift};
    use super::{build_parallel, build_part, Budget, BuildOptions, Part, PartInfo};
    use crate::game::{Game, GameError, GameInfo, Node};
    use crate::info::{InfoInterner, InfoState};
    use crate::rational::Ratio;
    use crate::tree::nodes::CHANCE_BIT;

    /// Two players take turns choosing 0 or 1 down to `depth`, each seeing
    /// every move: each decision node is an information set of its own, so
    /// a part's interner holds more than its tree.
    struct Open {
        info: GameInfo,
        depth: u32,
    }

    impl Game for Open {
        type State = (u32, InfoState);
        type Specialised = Self;
        fn info(&self) -> &GameInfo {
            &self.info
        }
        fn root(&self) -> Result<(u32, InfoState), GameError> {
            Ok((0, InfoState::EMPTY))
        }
        fn advance(&self, s: &mut (u32, InfoState), info: &mut InfoInterner) -> Result<Node, GameError> {
            if s.0 == self.depth {
                return Ok(Node::Terminal);
            }
            let (infoset, _) = info.infoset(s.0 % 2, s.1, &[2]);
            Ok(Node::Decision { player: s.0 % 2, infoset, n_actions: 2 })
        }
        fn apply(&self, s: &mut (u32, InfoState), action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
            *s = (s.0 + 1, info.push(s.1, &[5, u64::from(action)]));
            Ok(())
        }
        fn chance_probs(&self, _: &(u32, InfoState), out: &mut Vec<Ratio>) {
            out.clear();
        }
        fn payoffs<'a>(&self, _: &'a (u32, InfoState), out: &'a mut Vec<i64>) -> &'a [i64] {
            out.clear();
            out.extend([1, -1]);
            out
        }
        fn action_label(&self, _: &(u32, InfoState), action: u32) -> String {
            action.to_string()
        }
        fn infoset_label(&self, _: &InfoInterner, infoset: u32) -> String {
            infoset.to_string()
        }
    }

    /// What a two-thread build says it held counts what its parts held at
    /// once: when the part done last ends, whole, the other holds at least
    /// its tree and keys, not what they hold once both have given back
    /// their indexes at the merge (less than the real peak).
    #[test]
    fn the_build_held_counts_what_the_parts_hold_at_once() {
        let game = || Open {
            info: GameInfo {
                name: "open".into(),
                players: vec!["a".into(), "b".into()],
                params: Vec::new(),
                program: 0,
            },
            depth: 14,
        };
        let opts = BuildOptions::default();
        // Each part on its own: what it held at its end, and once done
        // (its tree and keys).
        let [(whole0, done0), (whole1, done1)] = [0, 1].map(|i| {
            let (tree, interner, before, spill) =
                build_part(&game(), &[0, 1, 2], i, &opts, &Budget::default(), None).unwrap();
            let whole = tree.build_bytes;
            (whole, Part { tree, info: PartInfo::Keys(interner.into_keys()), before, spill }.bytes())
        });
        let make = || Some(game());
        let (tree, _) = build_parallel(&make, &opts, 2).unwrap();
        let least = (whole0 + done1).min(whole1 + done0);
        assert!(
            tree.build_bytes() >= least,
            "held {} < {least} ({whole0} {done0} {whole1} {done1})",
            tree.build_bytes()
        );
    }

    /// Matching two parts' sets counts the cache it maps one part's states
    /// and facts with (a word each) on top of what the parts hold: its peak
    /// is more than the parts' bytes.
    #[test]
    fn matching_two_parts_counts_its_cache() {
        let game = Open {
            info: GameInfo {
                name: "open".into(),
                players: vec!["a".into(), "b".into()],
                params: Vec::new(),
                program: 0,
            },
            depth: 12,
        };
        let opts = BuildOptions::default();
        let mut parts: Vec<Part> = [0, 1]
            .map(|i| {
                let (tree, mut interner, before, spill) =
                    build_part(&game, &[0, 1, 2], i, &opts, &Budget::default(), None).unwrap();
                let info = if i == 0 {
                    PartInfo::Keys(interner.into_keys())
                } else {
                    interner.forget_memo();
                    PartInfo::Global(Box::new(interner))
                };
                Part { tree, info, before, spill }
            })
            .into();
        let budget = Budget::default();
        let held: u64 = parts.iter().map(Part::bytes).sum();
        budget.change(0, held);
        prepare(&mut parts, &budget, &opts, false).unwrap();
        assert!(matches!(parts[1].info, PartInfo::Matched(_)));
        // The first part's states (2^11 of them), a word each, and its facts.
        assert!(budget.peak() >= held + 4 * 2048, "peak {} for {held} held", budget.peak());
    }

    /// Moving a part's nodes a few at a time gives what moving them at
    /// once gives: every node mapped and shifted once, in place.
    #[test]
    fn nodes_moved_in_chunks_land_where_moved_at_once() {
        // Two roots, then nodes of every kind: leaves (first child 0, data
        // a payoff id), chance nodes and decisions.
        let k = 2;
        let first: Vec<u32> = (0..40).map(|i| if i % 3 == 0 { 0 } else { i + 5 }).collect();
        let data: Vec<u32> = (0..40).map(|i| if i % 3 == 1 { (i / 3) | CHANCE_BIT } else { i % 7 }).collect();
        let remap = Remap { map: (100..140).collect(), pay_map: (200..240).collect(), chances_base: 9 };
        let shift = Shift { base: 50, k };
        let moved = |chunk| {
            let (mut d, mut f) = (vec![0; 38], vec![0; 38]);
            move_nodes(&remap, shift, (data.clone(), first.clone()), &mut d, &mut f, chunk);
            (d, f)
        };
        let (d, f) = moved(usize::MAX);
        for chunk in [1, 3, 7, 38] {
            assert_eq!(moved(chunk), (d.clone(), f.clone()), "chunks of {chunk}");
        }
        for i in 2..40 {
            let (want_f, want_d) = match first[i] {
                0 => (0, 200 + data[i]),
                f if data[i] & CHANCE_BIT != 0 => (50 + f - 2, data[i] + 9),
                f => (50 + f - 2, 100 + data[i]),
            };
            assert_eq!((f[i - 2], d[i - 2]), (want_f, want_d), "node {i}");
        }
    }
}
