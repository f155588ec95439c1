//! Building the tree: explore every play of a [`Game`] depth-first with an
//! explicit stack, cloning the state once per child.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::nodes::{ChanceNode, Infoset, Tree};
use super::options::{BuildError, BuildOptions};
use super::outflow::Outflow;
use super::recall::{MovesBefore, OwnMoves, NO_MOVES};
use crate::game::{Game, GameError, Node};
use crate::ids::PlayerId;
use crate::info::InfoInterner;
use crate::memory::TooMuch;
use crate::rational::Ratio;

/// Room for a small game, reserved when an exploration starts: a tree of up
/// to this many nodes (and the sets and states below) is built without any
/// array growing by a copy, and each copy writes fresh pages (a large share
/// of a small game's fresh build: docs/perf/tree-build.md, "Fresh small
/// builds"). glibc maps a page only once it is written, so room a game
/// leaves unused costs no memory, only the page at each array's end. Past
/// it the arrays that grow with the tree jump to a larger room at once
/// ([`crate::room`]).
const ROOM_NODES: usize = 1 << 14;
/// The node arrays grow zeroed this many nodes at a time, not by each
/// expanded node's few children (two calls of `memset` per node).
const NODE_CHUNK: usize = 1 << 10;
/// Information sets (and memo entries) a build has room for.
pub(super) const ROOM_SETS: usize = 1 << 10;
/// Information states a build's interner has room for.
pub(super) const ROOM_STATES: usize = 1 << 12;

/// Builds the whole tree of `game`, and returns it with the build time.
pub fn build<G: Game>(game: &G, opts: &BuildOptions) -> Result<(Tree, InfoInterner, f64), BuildError> {
    build_shard(game, opts, None)
}

/// One rank's share of a distributed run's tree ([`build_shard`]): rank
/// `rank` of `ranks` keeps the subtrees of a contiguous run of the root's
/// children, cut by count (the same cut on every rank and in the solver,
/// which walks them as its units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub rank: u32,
    pub ranks: u32,
}

impl Shard {
    /// The root's children (of `n`) this shard keeps: `n * rank / ranks ..
    /// n * (rank + 1) / ranks` (none when the root has fewer children than
    /// there are ranks and this rank's run is empty).
    pub fn children(self, n: u32) -> Range<u32> {
        let cut = |r: u32| (u64::from(n) * u64::from(r) / u64::from(self.ranks.max(1))) as u32;
        cut(self.rank)..cut(self.rank + 1)
    }
}

/// [`build`], keeping only the subtrees of the root's children that
/// `shard` keeps (all of them with `None`): a distributed run's rank holds
/// its shard. The other children's subtrees are explored and dropped, each
/// as soon as it is done, and those children become leaves paying 0 to
/// everyone: so the shard's information sets (their numbers, labels and
/// actions), its chance and payoff tables and the perfect-recall check are
/// the whole tree's (every set of every child is interned in the
/// sequential order), and its nodes are the root, its children and the
/// kept subtrees, numbered as the whole tree numbers them less the dropped
/// subtrees. The node and memory limits apply to what is kept, plus the
/// dropped subtree being explored. The time is the whole build's.
pub fn build_shard<G: Game>(
    game: &G,
    opts: &BuildOptions,
    shard: Option<Shard>,
) -> Result<(Tree, InfoInterner, f64), BuildError> {
    let start = Instant::now();
    let mut interner = InfoInterner::with_room(ROOM_STATES, ROOM_SETS);
    let (mut tree, _) = explore(
        game,
        vec![game.root()?],
        None,
        None,
        shard,
        opts,
        &mut interner,
        &Budget::default(),
        &mut Outflow::none(),
    )?;
    finish(&mut tree, &interner, opts)?;
    Ok((tree, interner, start.elapsed().as_secs_f64()))
}

/// The subtree of a root child being dropped by [`build_shard`]: the
/// child, and the node count and chance tables' lengths before it.
struct Dropping {
    child: u32,
    n_nodes: usize,
    chances: usize,
    chance_labels: usize,
}

impl Dropping {
    /// Drops the subtree: the nodes and chance nodes made since it began,
    /// and the child becomes a leaf paying 0. Returns the node count.
    fn end(self, tree: &mut Tree, outflow: &mut Outflow) -> usize {
        tree.data.truncate(self.n_nodes);
        tree.first_child.truncate(self.n_nodes);
        tree.chances.truncate(self.chances);
        tree.chance_labels.truncate(self.chance_labels);
        let zeros = vec![0i64; tree.n_players as usize];
        let d = tree.payoffs.intern(&zeros);
        outflow.put(tree, self.child, d, 0);
        self.n_nodes
    }
}

/// Label bytes made between two checks of the budget (besides the check
/// every 65,536 nodes).
const LABEL_CHECK_BYTES: u64 = 1 << 20;

/// The bytes held and nodes made by the explorations of one build, against
/// [`BuildOptions::memory`] and [`BuildOptions::max_nodes`]: the
/// parallel builder's parts share one, so that together they stay within
/// the limits and a part stops soon after the build as a whole passes one
/// (not only when the parts are merged). The bytes are what the parts hold
/// now: a part done gives back what the merge does not use
/// ([`Budget::change`]); the most they held at once is kept for
/// [`Tree::build_bytes`](super::Tree::build_bytes).
#[derive(Default)]
pub(super) struct Budget {
    bytes: AtomicU64,
    peak: AtomicU64,
    nodes: AtomicU64,
}

/// What one exploration has counted in its [`Budget`] so far.
#[derive(Default)]
struct Counted {
    bytes: u64,
    nodes: u64,
}

impl Budget {
    /// Records that an exploration now holds `bytes` and has made `nodes`
    /// (only grows) and returns the build's totals.
    fn update(&self, counted: &mut Counted, bytes: u64, nodes: u64) -> (u64, u64) {
        let now = self.change(counted.bytes, bytes);
        counted.bytes = bytes;
        let made = nodes.saturating_sub(counted.nodes);
        counted.nodes += made;
        (now, self.nodes.fetch_add(made, Ordering::Relaxed) + made)
    }

    /// Records that an exploration that held `from` bytes (as last
    /// counted) now holds `to`, and returns what all hold now.
    pub(super) fn change(&self, from: u64, to: u64) -> u64 {
        let now = if to >= from {
            self.bytes.fetch_add(to - from, Ordering::Relaxed) + (to - from)
        } else {
            self.bytes.fetch_sub(from - to, Ordering::Relaxed) - (from - to)
        };
        self.peak.fetch_max(now, Ordering::Relaxed);
        now
    }

    /// The most bytes the explorations held at once.
    pub(super) fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Counts what an exploration on this thread holds at its end
    /// (`held`, its tree's `build_bytes`) in place of what it counted last.
    /// Done by its caller, not by [`explore`]: a call at the end of
    /// `explore` changes how its loop is compiled, and slowed the build
    /// (docs/perf/tree-build.md, "The interner").
    pub(super) fn count_end(&self, held: u64) -> u64 {
        self.change(COUNTED.with(|c| c.replace(0)), held)
    }

    /// Forgets what an earlier exploration on this thread counted (one not
    /// ended by [`Budget::count_end`]): call before an exploration whose
    /// end is counted.
    pub(super) fn count_start() {
        COUNTED.with(|c| c.set(0));
    }
}

thread_local! {
    /// What the exploration on this thread counted last in its budget
    /// ([`Budget::count_end`]).
    static COUNTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A node of a known information set must have its action count: a node's
/// child count is read from its set. (Gala's choice lists, which the set
/// includes, always agree; a hand-written [`Game`] might not.) A
/// placeholder (a set interned before a parallel part) has no count yet.
pub(super) fn check_action_count(first: u32, n_actions: u32) -> Result<(), BuildError> {
    if first != n_actions && first != 0 {
        return Err(BuildError::ActionCountMismatch { first, other: n_actions });
    }
    Ok(())
}

/// Records what the build held (the tree's arrays before shrinking and the
/// interner), shrinks the arrays and checks the memory limit.
pub(super) fn finish(tree: &mut Tree, interner: &InfoInterner, opts: &BuildOptions) -> Result<(), BuildError> {
    tree.fill_set_actions();
    tree.build_bytes = tree.build_bytes.max(tree.bytes() + interner.bytes() as u64);
    tree.shrink_to_fit();
    opts.memory.check(tree.bytes() + interner.bytes() as u64)?;
    Ok(())
}

/// Explores every play from `roots` (whose information states live in
/// `interner`) into a forest: nodes `0..roots.len()` are the roots, then
/// their subtrees in order, as the sequential builder numbers them.
/// Information-set indices are the interner's; sets interned before this
/// call get empty entries. Perfect recall is checked on the way: the roots
/// have no earlier moves, or the one `root_move` says; the result also has,
/// per information set, the own move before it (see
/// [`OwnMoves::into_before`]). The limits apply to the totals in `budget`.
/// The roots are the game's root, or (`first_root_action`) its children
/// from that action on: a game error names the play from the game's root.
/// With a sink in `outflow`, finished blocks of nodes are written out as
/// the build goes (and the tree's node arrays hold only the nodes from
/// `outflow.base` on), and all the rest at the end: the tree comes back
/// without nodes. With `shard` (one root, no sink: [`build_shard`]), only
/// the subtrees of the root's children it keeps are kept.
#[allow(clippy::too_many_arguments)]
pub(super) fn explore<G: Game>(
    game: &G,
    roots: Vec<G::State>,
    root_move: Option<RootMove>,
    first_root_action: Option<u32>,
    shard: Option<Shard>,
    opts: &BuildOptions,
    interner: &mut InfoInterner,
    budget: &Budget,
    outflow: &mut Outflow,
) -> Result<(Tree, MovesBefore), BuildError> {
    let info = game.info();
    let n_players = info.players.len() as u32;
    let mut tree = Tree::empty(info.players.clone());
    tree.reserve_room();
    let mut infoset_counts = vec![0u32; n_players as usize];
    let mut probs_buf: Vec<Ratio> = Vec::new();
    let mut pay_buf: Vec<i64> = Vec::new();
    // What this exploration has counted in `budget` so far.
    let mut counted = Counted::default();
    let mut labels_checked = 0u64;

    // Nodes `..n_nodes` exist; `tree`'s arrays run ahead (see `make_nodes`).
    let mut n_nodes = roots.len();
    tree.make_nodes(n_nodes);
    // The states waiting to be explored, the next one on top. A node's
    // children are cloned from it into their own slots right after its
    // `advance` (the only time the game's candidates are valid), the last
    // child taking the node's own slot, so states are never moved.
    let base = interner.mark();
    let mut own_moves = OwnMoves::with_capacity(ROOM_SETS);
    let paths: Vec<u32> = (0..roots.len() as u32)
        .map(|i| match root_move {
            Some(m) => own_moves.push(NO_MOVES, m.player, m.infoset, m.first_action + i),
            None => NO_MOVES,
        })
        .collect();
    let path_mark = own_moves.mark();
    // The nodes from a root to the current one, to name the play of an error.
    // With each node its first child, once expanded (the node arrays may
    // have been written out).
    let mut trail: Vec<(u32, u32)> = Vec::new();
    let in_play = |error: GameError, trail: &[(u32, u32)], last: Option<u32>| {
        let mut actions: Vec<u32> = first_root_action.map(|a| a + trail[0].0).into_iter().collect();
        actions.extend(trail.windows(2).map(|w| w[1].0 - w[0].1));
        actions.extend(last);
        if actions.is_empty() {
            return BuildError::Game(error);
        }
        BuildError::InPlay { error, play: super::play::describe(game, &actions) }
    };
    let mut stack: Vec<Frame<G::State>> = Vec::new();
    stack.extend(roots.into_iter().zip(paths).enumerate().rev().map(|(i, (state, path))| Frame {
        node: i as u32,
        depth: 0,
        mark: base,
        path,
        path_mark,
        state,
    }));
    debug_assert!(shard.is_none() || (stack.len() == 1 && outflow.sink.is_none()));
    // The root's children a shard keeps (known once the root is expanded),
    // and the subtree being dropped.
    let mut keep = 0..0;
    let mut dropping: Option<Dropping> = None;
    while let Some(top) = stack.last_mut() {
        // Pending facts and move records made after this state belong to
        // finished subtrees.
        interner.truncate(top.mark);
        own_moves.truncate(top.path_mark);
        let (node, depth) = (top.node, top.depth);
        if depth == 1 && shard.is_some() {
            // A root child (node `1 + index`): the subtree before it is done.
            if let Some(done) = dropping.take() {
                n_nodes = done.end(&mut tree, outflow);
            }
            if !keep.contains(&(node - 1)) {
                let (chances, chance_labels) = (tree.chances.len(), tree.chance_labels.len());
                dropping = Some(Dropping { child: node, n_nodes, chances, chance_labels });
            }
        }
        // The trail gets this node once it has children (a leaf, two
        // thirds of blind tic-tac-toe's nodes, never needs it), or here
        // to name the play of an error.
        trail.truncate(depth as usize);
        let event = match game.advance(&mut top.state, interner) {
            Ok(event) => event,
            Err(e) => {
                trail.push((node, 0));
                return Err(in_play(e, &trail, None));
            }
        };
        let (d, n_children) = match event {
            Node::Terminal => {
                let payoffs = game.payoffs(&top.state, &mut pay_buf);
                if payoffs.len() != n_players as usize {
                    return Err(BuildError::PayoffArity { n: n_players, got: payoffs.len() });
                }
                (tree.payoffs.intern(payoffs), 0)
            }
            Node::Chance { n_outcomes } => {
                (add_chance(game, &top.state, n_outcomes, &mut tree, &mut probs_buf, opts.labels)?, n_outcomes)
            }
            Node::Decision { player, infoset, n_actions } => {
                if n_actions == 0 {
                    return Err(BuildError::NoActions);
                }
                if infoset as usize >= tree.infosets.len() {
                    add_infoset(
                        game,
                        &top.state,
                        player,
                        infoset,
                        n_actions,
                        &mut tree,
                        &mut infoset_counts,
                        interner,
                        opts.labels,
                    )?;
                    // Labels grow with the facts before a set: a deep game
                    // makes them fast, so their bytes are checked as they come.
                    if tree.label_bytes > labels_checked + LABEL_CHECK_BYTES {
                        labels_checked = tree.label_bytes;
                        check_budget(&tree, interner, &own_moves, budget, &mut counted, opts, n_nodes as u64)?;
                    }
                } else {
                    check_action_count(tree.infosets.raw[infoset as usize].n_actions, n_actions)?;
                }
                own_moves.check(top.path, player, infoset, &tree.player_names, interner, game)?;
                (infoset, n_actions)
            }
        };
        if n_children == 0 {
            // The deepest nodes are leaves.
            tree.max_depth = tree.max_depth.max(depth);
            outflow.put(&mut tree, node, d, 0);
            // A leaf keeps first_child = 0. Dropped in place: `pop` would
            // move the whole frame out first.
            stack.truncate(stack.len() - 1);
            continue;
        }
        if let (0, Some(shard)) = (depth, shard) {
            keep = shard.children(n_children);
        }
        let first = n_nodes as u32;
        let total = n_nodes as u64 + u64::from(n_children);
        if total > opts.max_nodes || total > u64::from(u32::MAX - 1) {
            return Err(BuildError::TooManyNodes { limit: opts.max_nodes.min(u64::from(u32::MAX - 1)) });
        }
        outflow.put(&mut tree, node, d, first);
        trail.push((node, first));
        n_nodes += n_children as usize;
        tree.make_nodes(n_nodes - outflow.base);
        // Check the build's totals now and then (cheap, but not free), and
        // write out the nodes a streamed build is done with.
        if first & 0xffff > (first + n_children) & 0xffff || n_children > 0xffff {
            outflow.write_behind(&mut tree, n_nodes)?;
            check_budget(&tree, interner, &own_moves, budget, &mut counted, opts, n_nodes as u64)?;
        }
        // Slots: the node's own (`at`) becomes the last child, the clones
        // above it the others in reverse, so that action 0 is on top and is
        // explored first.
        let at = stack.len() - 1;
        let path = stack[at].path;
        stack.reserve(n_children as usize - 1);
        for _ in 1..n_children {
            // Node, depth and marks are set below. A clone and a push, not
            // `extend_from_within`: its call per child cost more than the copy.
            let copy = stack[at].clone();
            stack.push(copy);
        }
        let mover = match event {
            Node::Decision { player, infoset, .. } => Some((player, infoset)),
            _ => None,
        };
        // Children are applied from the last (deepest in the stack) to the
        // first, so each child's marks, taken right after its own apply,
        // keep its facts and records and drop only those of the children
        // explored before it.
        for (k, frame) in stack[at..].iter_mut().enumerate() {
            let action = n_children - 1 - k as u32;
            frame.node = first + action;
            frame.depth = depth + 1;
            if let Err(e) = game.apply(&mut frame.state, action, interner) {
                return Err(in_play(e, &trail, Some(action)));
            }
            if let Some((player, infoset)) = mover {
                frame.path = own_moves.push(path, player, infoset, action);
            }
            frame.mark = interner.mark();
            frame.path_mark = own_moves.mark();
        }
    }
    if let Some(done) = dropping.take() {
        n_nodes = done.end(&mut tree, outflow);
    }
    // What the exploration held at its end, the most (its tables only
    // grow; the parallel builder counts it, see `Budget::count_end`).
    tree.build_bytes = tree.bytes() + interner.bytes() as u64 + own_moves.bytes();
    tree.data.truncate(n_nodes - outflow.base);
    tree.first_child.truncate(n_nodes - outflow.base);
    outflow.write_rest(&mut tree, n_nodes)?;
    Ok((tree, own_moves.into_before()))
}

/// Records a chance node met by [`explore`] and returns its node data. Out
/// of line, as are the two below: rare next to leaves and known decisions,
/// they would take registers from the loop.
#[inline(never)]
fn add_chance<G: Game>(
    game: &G,
    state: &G::State,
    n_outcomes: u32,
    tree: &mut Tree,
    probs_buf: &mut Vec<Ratio>,
    labels: bool,
) -> Result<u32, BuildError> {
    game.chance_probs(state, probs_buf);
    let start = tree.dists.intern(probs_buf, n_outcomes)?;
    let data = tree.push_chance(ChanceNode { start, n: n_outcomes, labels: tree.chance_labels.len() as u32 })?;
    if labels {
        for a in 0..n_outcomes {
            tree.push_chance_label(game.action_label(state, a));
        }
    }
    Ok(data)
}

/// Appends the information set `infoset`, new to this exploration, after
/// empty entries for the sets interned before it (the root's, in a
/// parallel part).
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn add_infoset<G: Game>(
    game: &G,
    state: &G::State,
    player: u32,
    infoset: u32,
    n_actions: u32,
    tree: &mut Tree,
    infoset_counts: &mut [u32],
    interner: &InfoInterner,
    labels: bool,
) -> Result<(), BuildError> {
    while (infoset as usize) > tree.infosets.len() {
        let key = interner.infoset_key(tree.infosets.len() as u32);
        let labels = labels.then_some(("", &[][..]));
        tree.push_infoset(Infoset { player: PlayerId(key.player), index_in_player: 0, n_actions: 0 }, labels)?;
    }
    let index_in_player = infoset_counts[player as usize];
    infoset_counts[player as usize] += 1;
    let labels = labels.then(|| {
        let actions: Vec<String> = (0..n_actions).map(|a| game.action_label(state, a)).collect();
        (game.infoset_label(interner, infoset), actions)
    });
    let labels = labels.as_ref().map(|(label, actions)| (label.as_str(), actions.as_slice()));
    tree.push_infoset(Infoset { player: PlayerId(player), index_in_player, n_actions }, labels)
}

/// Counts the exploration's memory (the tree, the interner, the recall
/// check's records) and nodes in the build's totals; an error past a
/// limit, when the interner is close to the most ids it can name, or when
/// the build is cancelled.
#[cold]
#[inline(never)]
fn check_budget(
    tree: &Tree,
    interner: &InfoInterner,
    own_moves: &OwnMoves,
    budget: &Budget,
    counted: &mut Counted,
    opts: &BuildOptions,
    nodes: u64,
) -> Result<(), BuildError> {
    let held = tree.bytes() + interner.bytes() as u64 + own_moves.bytes();
    let (bytes, all_nodes) = budget.update(counted, held, nodes);
    COUNTED.with(|c| c.set(held));
    if let Some(progress) = &opts.progress {
        progress.fetch_max(all_nodes, Ordering::Relaxed);
    }
    if crate::cancel::requested(opts.cancel.as_ref()) {
        return Err(BuildError::Cancelled);
    }
    if all_nodes > opts.max_nodes {
        return Err(BuildError::TooManyNodes { limit: opts.max_nodes.min(u64::from(u32::MAX - 1)) });
    }
    let limit = opts.memory;
    limit.check(bytes)?;
    if interner.is_full() {
        return Err(TooMuch { needed: bytes, limit }.into());
    }
    Ok(())
}

/// The decision whose actions `first_action ..` led to the roots of an
/// exploration.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove {
    pub player: u32,
    pub infoset: u32,
    pub first_action: u32,
}

/// A state waiting on the build stack, and where its node goes.
#[derive(Clone)]
struct Frame<S> {
    node: u32,
    depth: u32,
    /// The interner's pending-fact mark once this state was made.
    mark: u32,
    /// The last own-move record on the path (for the recall check), and
    /// the records' mark once this state was made.
    path: u32,
    path_mark: u32,
    state: S,
}

impl Tree {
    /// Reserves [`ROOM_NODES`] nodes and [`ROOM_SETS`] information sets.
    fn reserve_room(&mut self) {
        self.data.reserve(ROOM_NODES);
        self.first_child.reserve(ROOM_NODES);
        self.infosets.reserve(ROOM_SETS);
    }

    /// Makes the node arrays at least `n` long, zeroed, to be filled in as
    /// nodes are explored (a leaf keeps `first_child = 0`). They grow
    /// [`NODE_CHUNK`] nodes at a time, ahead of the nodes made, and are cut
    /// back when the exploration ends.
    #[inline]
    fn make_nodes(&mut self, n: usize) {
        if n > self.data.len() {
            let len = n.next_multiple_of(NODE_CHUNK);
            if len > self.data.capacity() {
                self.grow_node_room(len);
            }
            self.data.resize(len, 0);
            self.first_child.resize(len, 0);
        }
    }

    /// Room for `len` nodes in the node arrays, as [`crate::room`] grows
    /// arrays (out of line: rare).
    #[inline(never)]
    fn grow_node_room(&mut self, len: usize) {
        let (data, first_child) = (self.data.len(), self.first_child.len());
        crate::room::grow(&mut self.data, len - data);
        crate::room::grow(&mut self.first_child, len - first_child);
    }
}
