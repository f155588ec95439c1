//! Building on several threads, with the tree identical to [`super::build`]'s.
//!
//! The root is expanded on the calling thread; the subtrees of runs of its
//! children are built by worker threads, each with its own game instance and its own
//! information-state interner. The sequential numbering gives every child's
//! subtree a contiguous block of node ids, in child order, and numbers
//! information sets by first appearance: so the parts are concatenated in
//! child order, and each part's information sets, in its own order, are
//! re-interned exactly (fact by fact) into the global interner, which
//! reproduces the sequential numbers. The first part's interner becomes the
//! global one (its numbers already are the sequential ones). Each part's
//! nodes then move into the final arrays on a thread per part, while the
//! next part's sets are re-interned, from the part's end a chunk at a time,
//! each chunk's memory given back as it is copied: the merge holds about
//! one copy of the node arrays, not two.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::build::{explore, finish, Budget, BuildError, BuildOptions, RootMove, ROOM_SETS, ROOM_STATES};
use super::parts::{agree_on_moves_before, import_infosets, match_two_parts, Match, Part, PartInfo};
use super::recall::{MovesBefore, NO_MOVE};
use super::stream::Outflow;
use super::{ChanceNode, Infoset, Tree, CHANCE_BIT};
use crate::game::{advance_out_of_line, Game, Node};
use crate::info::InfoInterner;
use crate::rational::Ratio;

/// Parts per thread: more would balance uneven subtrees, but each part
/// interns the information sets it meets on its own, and one part per
/// thread was the fastest on the poker and Leduc trees, whose root's
/// children have subtrees of equal size (Leduc13 on two threads: 52 ms
/// with two parts per thread, 44 ms with one).
const PARTS_PER_THREAD: usize = 1;

/// Builds the tree of the game `make` creates, on up to `threads` threads
/// (each calls `make` once), with the seconds it took. Falls back to one
/// thread when the root has fewer than two children. Unlike
/// [`super::build`] it returns no interner: the last part's new
/// information sets are numbered without being interned (see [`Match`]).
pub fn build_parallel<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
) -> Result<(Tree, f64), BuildError> {
    let start = Instant::now();
    let game = make().ok_or_else(|| {
        BuildError::Game(crate::game::GameError::Other { message: "cannot create the game".into(), at: String::new() })
    })?;
    let mut global = InfoInterner::new();
    let mut root_state = game.root()?;
    let root = advance_out_of_line(&game, &mut root_state, &mut global)?;
    let n_children = match root {
        Node::Terminal => 0,
        Node::Chance { n_outcomes } => n_outcomes,
        Node::Decision { n_actions, .. } => n_actions,
    };
    if threads < 2 || n_children < 2 {
        return on_one_thread(&game, opts);
    }
    // Each part: the subtrees of a run of the root's children, with its own
    // interner (see `PARTS_PER_THREAD`).
    let n_parts = (threads * PARTS_PER_THREAD).min(n_children as usize);
    let bounds: Vec<u32> = (0..=n_parts).map(|k| (k as u64 * u64::from(n_children) / n_parts as u64) as u32).collect();
    let parts: Vec<Mutex<Option<Result<Part, BuildError>>>> = (0..n_parts).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    // The parts share the node and memory limits.
    let budget = Budget::default();
    let part_opts = BuildOptions { labels: opts.labels, ..opts.clone() };
    // Each thread, the calling one included, builds parts until none is
    // left, each with its own instance (an instance's choice candidates
    // belong to its last `advance`; the merge reads the root's).
    let work = |game: &G| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n_parts {
            break;
        }
        let result = build_part(game, &bounds, i, &part_opts, &budget).map(|(tree, interner, before)| {
            // What the merge does not use goes back now, while other parts
            // may still be building: of two parts, the first done keeps
            // only its keys (see `match_two_parts`); of more, all but the
            // first.
            let held = tree.build_bytes;
            let first_done = finished.fetch_add(1, Ordering::Relaxed) == 0;
            let info = if (n_parts == 2 && !first_done) || (n_parts > 2 && i == 0) {
                let mut interner = interner;
                interner.forget_memo();
                PartInfo::Global(Box::new(interner))
            } else {
                PartInfo::Keys(interner.into_keys())
            };
            let part = Part { tree, info, before };
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
    // The first part that did not finish decides. Parts hold more memory
    // at once than one thread does: over the budget, one thread may still
    // fit, so it builds the tree instead (as it does when a part is missing).
    let mut done: Vec<Part> = Vec::with_capacity(parts.len());
    let mut one_thread = false;
    for slot in parts {
        match slot.into_inner().ok().flatten() {
            Some(Ok(part)) => done.push(part),
            Some(Err(BuildError::TooMuchMemory { .. })) | None => {
                one_thread = true;
                break;
            }
            Some(Err(e)) => return Err(e),
        }
    }
    if one_thread {
        drop(done);
        return on_one_thread(&game, opts);
    }
    let merged = match merge(&game, &mut global, &root_state, root, done, &bounds, opts) {
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
    Ok((tree, start.elapsed().as_secs_f64()))
}

/// Builds part `i` of a parallel build: the subtrees of the root's
/// children `bounds[i]..bounds[i + 1]`, with its own interner; returns the
/// part's tree (holding what it held at its end in `build_bytes`), its
/// interner and, per set, the own move before it.
fn build_part<G: Game>(
    game: &G,
    bounds: &[u32],
    i: usize,
    opts: &BuildOptions,
    budget: &Budget,
) -> Result<(Tree, InfoInterner, MovesBefore), BuildError> {
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
    let outflow = &mut Outflow::none();
    Budget::count_start();
    let explored = explore(game, children, root_move, Some(bounds[i]), opts, &mut interner, budget, outflow);
    // What it held at its end, counted (or nothing, on an error).
    let held = explored.as_ref().map_or(0, |(tree, _)| tree.build_bytes);
    budget.count_end(held);
    let (tree, before) = explored?;
    Ok((tree, interner, before))
}

/// The tree built by [`super::build`], on this thread.
fn on_one_thread<G: Game>(game: &G, opts: &BuildOptions) -> Result<(Tree, f64), BuildError> {
    super::build(game, opts).map(|(tree, _, seconds)| (tree, seconds))
}

/// How a part's node ids shift in the merged tree: its node `k` (its first
/// non-root node) becomes `base`.
#[derive(Clone, Copy)]
struct Shift {
    base: u32,
    /// The part's root count.
    k: u32,
}

impl Shift {
    /// Children of part nodes are never part roots, so first children
    /// shift by one offset.
    #[inline]
    fn first(&self, f: u32) -> u32 {
        if f == 0 {
            0
        } else {
            self.base + f - self.k
        }
    }
}

/// How a part's information sets, payoff vectors and chance nodes map to
/// the merged tree's.
struct Remap {
    map: Vec<u32>,
    pay_map: Vec<u32>,
    chances_base: u32,
}

impl Remap {
    /// The data of a part's node with first child `first` (0 for a leaf:
    /// the node's kind) and data `d`.
    #[inline]
    fn data(&self, first: u32, d: u32) -> u32 {
        if first == 0 {
            self.pay_map[d as usize]
        } else if d & CHANCE_BIT != 0 {
            d + self.chances_base
        } else {
            self.map[d as usize]
        }
    }
}

/// Nodes moved at a time by [`move_nodes`]: the memory in flight (16 MiB
/// per array).
const MOVE_CHUNK: usize = 1 << 22;

/// Moves a part's nodes from its `k`-th on (`k` its root count) into their
/// place in the merged tree, `data` and `first_child`, mapped and shifted.
/// The part's arrays are moved from their end, `chunk` nodes at a time, and cut
/// after each chunk: `shrink_to_fit` gives the chunk's pages back (glibc
/// shrinks a large block in place), so the merged arrays, whose pages are
/// first touched here, grow as the part's shrink and the merge holds
/// about one copy of the tree, not two.
fn move_nodes(
    remap: &Remap,
    shift: Shift,
    (mut part_data, mut part_first): (Vec<u32>, Vec<u32>),
    data: &mut [u32],
    first_child: &mut [u32],
    chunk: usize,
) {
    let k = shift.k as usize;
    while part_data.len() > k {
        let from = part_data.len().saturating_sub(chunk).max(k);
        let to = from - k;
        let nodes = data[to..].iter_mut().zip(&mut first_child[to..]).zip(&part_first[from..]).zip(&part_data[from..]);
        for (((out_d, out_f), &f), &d) in nodes {
            *out_d = remap.data(f, d);
            *out_f = shift.first(f);
        }
        part_data.truncate(from);
        part_data.shrink_to_fit();
        part_first.truncate(from);
        part_first.shrink_to_fit();
    }
}

/// The root node, then the parts in child order, renumbered; `None` if
/// the parts disagree on perfect recall.
fn merge<G: Game>(
    game: &G,
    global: &mut InfoInterner,
    root_state: &G::State,
    root: Node,
    mut parts: Vec<Part>,
    bounds: &[u32],
    opts: &BuildOptions,
) -> Result<Option<Tree>, BuildError> {
    let n = *bounds.last().unwrap_or(&0);
    let n_players = game.info().players.len() as u32;
    debug_assert_eq!(parts.len() + 1, bounds.len());
    match_two_parts(&mut parts);
    let (total, held) = check_merge_limits(&parts, opts)?;
    let mut tree = Tree::empty(game.info().players.clone());
    tree.build_bytes = held;
    // Zeroed by the allocator (fresh pages, not touched until written):
    // the parts' nodes move into them chunk by chunk (see `move_nodes`).
    let mut data = vec![0u32; total];
    let mut first_child = vec![0u32; total];
    let mut counts = vec![0u32; n_players as usize];
    // The root and the block of its children (filled from each part's
    // first nodes, its roots).
    data[0] = push_root(game, global, root_state, root, n, opts, &mut tree, &mut counts)?;
    first_child[0] = 1;
    let root_set = match root {
        Node::Decision { infoset, .. } => infoset,
        _ => u32::MAX,
    };
    // Per global information set: the own move before it (as in `OwnMoves`).
    let mut before = MovesBefore::default();
    if root_set != u32::MAX {
        before.set(root_set, NO_MOVE);
    }
    let head = 1 + n as usize;
    let (head_data, mut rest_data) = data.split_at_mut(head);
    let (head_first, mut rest_first) = first_child.split_at_mut(head);
    let agreed = std::thread::scope(|scope| -> Result<bool, BuildError> {
        // Part `i`'s roots are the root's children `bounds[i]..`; its other
        // nodes follow in order from `base`. Its information sets are
        // re-interned here, in part order, then a thread moves its nodes
        // while the next part's sets are re-interned.
        let mut base = 1 + n;
        for (i, Part { tree: mut part, info, before: local_before }) in parts.into_iter().enumerate() {
            let shift = Shift { base, k: bounds[i + 1] - bounds[i] };
            let k = shift.k as usize;
            let len = part.n_nodes() - k;
            let (dd, td) = std::mem::take(&mut rest_data).split_at_mut(len);
            let (df, tf) = std::mem::take(&mut rest_first).split_at_mut(len);
            (rest_data, rest_first) = (td, tf);
            base += len as u32;
            // The first part's interner becomes the global one: it numbers
            // its information sets as the sequential builder does (after
            // the root's, which both interned first), so they map to
            // themselves and only the later parts are re-interned.
            // The last part's sets are only looked up: the global interner
            // is not used after it, so the sets new there need no states.
            let source = match info {
                PartInfo::Global(interner) => {
                    *global = *interner;
                    Match::Own
                }
                PartInfo::Numbered => Match::Own,
                PartInfo::Keys(keys) if i + 2 == bounds.len() => Match::Find(keys),
                PartInfo::Keys(keys) => Match::Import(keys),
                PartInfo::Matched(found) => Match::Known(found),
            };
            let map = import_infosets(&mut part, source, global, root_set, &mut tree, &mut counts)?;
            // The part's sets are in `tree` now.
            part.infosets = Vec::new();
            if !agree_on_moves_before(&map, &local_before, &mut before) {
                return Ok(false);
            }
            let (pay_map, chances_base) = import_tables(&mut part, &mut tree)?;
            let remap = Remap { map, pay_map, chances_base };
            for j in 0..k {
                let (d, f) = (part.data[j], part.first_child[j]);
                let g = (1 + bounds[i]) as usize + j;
                head_data[g] = remap.data(f, d);
                head_first[g] = shift.first(f);
            }
            let arrays = (part.data, part.first_child);
            scope.spawn(move || move_nodes(&remap, shift, arrays, dd, df, MOVE_CHUNK));
        }
        Ok(true)
    })?;
    if !agreed {
        return Ok(None);
    }
    tree.data = data;
    tree.first_child = first_child;
    Ok(Some(tree))
}

/// Appends a part's payoff vectors, chance nodes and chance labels (moved)
/// to `tree`; returns the map of its payoff ids (in the part's order of first
/// appearance, which is the sequential order) and where its chance nodes
/// start.
fn import_tables(part: &mut Tree, tree: &mut Tree) -> Result<(Vec<u32>, u32), BuildError> {
    let pay_map: Vec<u32> =
        (0..part.payoffs.len() as u32).map(|id| tree.payoffs.intern(part.payoffs.get(id))).collect();
    let chances_base = tree.chances.len() as u32;
    let labels_base = tree.chance_labels.len() as u32;
    for c in &part.chances {
        let start = tree.dists.intern(part.dists.get(c.start, c.n), c.n)?;
        tree.push_chance(ChanceNode { start, n: c.n, labels: c.labels + labels_base })?;
    }
    for label in std::mem::take(&mut part.chance_labels) {
        tree.push_chance_label(label);
    }
    tree.max_depth = tree.max_depth.max(part.max_depth + 1);
    Ok((pay_map, chances_base))
}

/// Checks the merged tree against the node and memory limits before any
/// copying; returns its node count and the bytes held while merging: the
/// parts with their interners, the merged tree's tables (made from the
/// parts' while these are held) and the chunks in flight. The node arrays
/// move from the parts into the merged tree (see [`move_nodes`]), so they
/// count once.
fn check_merge_limits(parts: &[Part], opts: &BuildOptions) -> Result<(usize, u64), BuildError> {
    let total: usize = 1 + parts.iter().map(|p| p.tree.n_nodes()).sum::<usize>();
    let most = opts.max_nodes.min(u64::from(u32::MAX - 1));
    if total as u64 > most {
        return Err(BuildError::TooManyNodes { limit: most });
    }
    let held: u64 = parts.iter().map(Part::bytes).sum();
    // (Their labels' text is moved, not copied.)
    let tables: u64 = parts.iter().map(|p| p.tree.bytes() - p.tree.node_bytes() - p.tree.label_bytes).sum();
    let in_flight: u64 = parts.iter().map(|p| (MOVE_CHUNK.min(p.tree.n_nodes()) * 8) as u64).sum();
    if held + tables + in_flight > opts.max_bytes {
        return Err(BuildError::TooMuchMemory { limit_mib: opts.max_bytes >> 20 });
    }
    Ok((total, held + tables + in_flight))
}

/// Records the root (a chance node or a decision with its information set)
/// in `tree`; returns the root's node data.
#[allow(clippy::too_many_arguments)]
fn push_root<G: Game>(
    game: &G,
    global: &InfoInterner,
    root_state: &G::State,
    root: Node,
    n: u32,
    opts: &BuildOptions,
    tree: &mut Tree,
    counts: &mut [u32],
) -> Result<u32, BuildError> {
    match root {
        Node::Chance { n_outcomes } => {
            let mut probs: Vec<Ratio> = Vec::new();
            game.chance_probs(root_state, &mut probs);
            let start = tree.dists.intern(&probs, n_outcomes)?;
            let data = tree.push_chance(ChanceNode { start, n: n_outcomes, labels: 0 })?;
            if opts.labels {
                for a in 0..n {
                    tree.push_chance_label(game.action_label(root_state, a));
                }
            }
            Ok(data)
        }
        Node::Decision { player, infoset, n_actions } => {
            let labels = opts.labels.then(|| {
                let actions: Vec<String> = (0..n_actions).map(|a| game.action_label(root_state, a)).collect();
                (game.infoset_label(global, infoset), actions)
            });
            let labels = labels.as_ref().map(|(label, actions)| (label.as_str(), actions.as_slice()));
            counts[player as usize] += 1;
            tree.push_infoset(Infoset { player, index_in_player: 0, n_actions }, labels)?;
            Ok(infoset)
        }
        Node::Terminal => unreachable!("a terminal root has no children to build in parallel"),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        build_parallel, build_part, move_nodes, Budget, BuildOptions, Part, PartInfo, Remap, Shift, CHANCE_BIT,
    };
    use crate::game::{Game, GameError, GameInfo, Node};
    use crate::info::{InfoInterner, InfoState};
    use crate::rational::Ratio;

    /// Two players take turns choosing 0 or 1 down to `depth`, each seeing
    /// every move: each decision node is an information set of its own, so
    /// a part's interner holds more than its tree.
    struct Open {
        info: GameInfo,
        depth: u32,
    }

    impl Game for Open {
        type State = (u32, InfoState);
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
    /// its tree and keys. (It used to count what the parts held once both
    /// had given back their indexes, at the merge: less.)
    #[test]
    fn the_build_held_counts_what_the_parts_hold_at_once() {
        let game = || Open {
            info: GameInfo { name: "open".into(), players: vec!["a".into(), "b".into()], params: Vec::new() },
            depth: 14,
        };
        let opts = BuildOptions::default();
        // Each part on its own: what it held at its end, and once done
        // (its tree and keys).
        let [(whole0, done0), (whole1, done1)] = [0, 1].map(|i| {
            let (tree, interner, before) = build_part(&game(), &[0, 1, 2], i, &opts, &Budget::default()).unwrap();
            let whole = tree.build_bytes;
            (whole, Part { tree, info: PartInfo::Keys(interner.into_keys()), before }.bytes())
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
