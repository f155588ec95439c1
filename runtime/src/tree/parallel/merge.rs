//! A parallel build's merge: the root node, then the parts in child order,
//! renumbered. Each part's information sets are matched with the global
//! ones ([`super::parts`]), its tables appended, and its nodes mapped and
//! shifted into place: moved into the final node arrays ([`merge`]), or
//! copied from its scratch file into the saved file
//! ([`super::spill`]).

use super::parts::{agree_on_moves_before, import_infosets, match_two_parts, Match, Part, PartInfo, MOVE_CHUNK};
use crate::game::{Game, Node};
use crate::ids::{IdVec, PlayerId};
use crate::info::InfoInterner;
use crate::memory::MemoryLimit;
use crate::rational::Ratio;
use crate::tree::build::Budget;
use crate::tree::nodes::{ChanceNode, Infoset, Tree, CHANCE_BIT};
use crate::tree::options::{BuildError, BuildOptions};
use crate::tree::recall::{MovesBefore, NO_MOVE};
use crate::tree::set_labels::KeptLabels;

/// How a part's node ids shift in the merged tree: its node `k` (its first
/// non-root node) becomes `base`.
#[derive(Clone, Copy)]
pub(super) struct Shift {
    pub(super) base: u32,
    /// The part's root count.
    pub(super) k: u32,
}

impl Shift {
    /// Children of part nodes are never part roots, so first children
    /// shift by one offset.
    #[inline]
    pub(super) fn first(&self, f: u32) -> u32 {
        if f == 0 {
            0
        } else {
            self.base + f - self.k
        }
    }
}

/// How a part's information sets, payoff vectors and chance nodes map to
/// the merged tree's.
pub(super) struct Remap {
    pub(super) map: Vec<u32>,
    pub(super) pay_map: Vec<u32>,
    pub(super) chances_base: u32,
}

impl Remap {
    /// The data of a part's node with first child `first` (0 for a leaf:
    /// the node's kind) and data `d`.
    #[inline]
    pub(super) fn data(&self, first: u32, d: u32) -> u32 {
        if first == 0 {
            self.pay_map[d as usize]
        } else if d & CHANCE_BIT != 0 {
            d + self.chances_base
        } else {
            self.map[d as usize]
        }
    }
}

/// Moves a part's nodes from its `k`-th on (`k` its root count) into their
/// place in the merged tree, `data` and `first_child`, mapped and shifted.
/// The part's arrays are moved from their end, `chunk` nodes at a time, and cut
/// after each chunk: `shrink_to_fit` gives the chunk's pages back (glibc
/// shrinks a large block in place), so the merged arrays, whose pages are
/// first touched here, grow as the part's shrink and the merge holds
/// about one copy of the tree, not two.
pub(super) fn move_nodes(
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

/// The merged tree's tables as the parts are added, in part order.
pub(super) struct Merging<'g> {
    global: &'g mut InfoInterner,
    pub(super) tree: Tree,
    /// Per player, the sets so far.
    counts: Vec<u32>,
    /// Per global information set: the own move before it (as in `OwnMoves`).
    before: MovesBefore,
    /// The root's set (`u32::MAX` if the root is no decision).
    root_set: u32,
    /// What the merge holds besides a part's import cache (see
    /// [`check_merge_limits`]) and the labels copied from the parts.
    held: u64,
    /// The label bytes copied from the parts so far (each part's new sets'
    /// labels are copied while the part holds its own).
    copied: u64,
    limit: MemoryLimit,
    /// With `Some` (see [`Merging::keep_labels`]), the labels of the parts'
    /// new sets, left in the parts' tables: the tree has labels only for
    /// the sets of the part it adopted them from.
    pub(super) kept: Option<Vec<KeptLabels>>,
}

impl<'g> Merging<'g> {
    /// Starts the merged tree with its root (a chance node or a decision
    /// with its information set, `n` children); returns the root's node
    /// data too. `held`: what the merge holds (see [`check_merge_limits`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start<G: Game>(
        game: &G,
        global: &'g mut InfoInterner,
        root_state: &G::State,
        root: Node,
        n: u32,
        opts: &BuildOptions,
        held: u64,
    ) -> Result<(Merging<'g>, u32), BuildError> {
        let mut tree = Tree::empty(game.info().players.clone());
        tree.build_bytes = held;
        let mut counts = vec![0u32; game.info().players.len()];
        let data = push_root(game, global, root_state, root, n, opts, &mut tree, &mut counts)?;
        let root_set = match root {
            Node::Decision { infoset, .. } => infoset,
            _ => u32::MAX,
        };
        let mut before = MovesBefore::default();
        if root_set != u32::MAX {
            before.set(root_set, NO_MOVE);
        }
        let limit = opts.memory;
        let merging = Merging { global, tree, counts, before, root_set, held, copied: 0, limit, kept: None };
        Ok((merging, data))
    }

    /// From now on, leaves each part's new sets' labels in the part's
    /// tables instead of copying them into the tree (see [`KeptLabels`]):
    /// for a merge that writes the labels out rather than keeping the tree.
    pub(super) fn keep_labels(&mut self) {
        self.kept.get_or_insert_with(Vec::new);
    }

    /// Matches a part's information sets with the global ones (`last`: the
    /// last part) and appends its sets and tables to the merged tree;
    /// returns how its nodes map, or `None` if the parts disagree on perfect
    /// recall. The part's sets and chance labels are moved out.
    pub(super) fn add(
        &mut self,
        part: &mut Tree,
        info: PartInfo,
        local_before: &MovesBefore,
        last: bool,
    ) -> Result<Option<Remap>, BuildError> {
        // The first part's interner becomes the global one: it numbers
        // its information sets as the sequential builder does (after
        // the root's, which both interned first), so they map to
        // themselves and only the later parts are re-interned.
        // The last part's sets are only looked up: the global interner
        // is not used after it, so the sets new there need no states.
        let source = match info {
            PartInfo::Global(interner) => {
                *self.global = *interner;
                Match::Own
            }
            PartInfo::Numbered => Match::Own,
            PartInfo::Keys(keys) if last => Match::Find(keys),
            PartInfo::Keys(keys) => Match::Import(keys),
            PartInfo::Matched(found) => Match::Known(found),
        };
        // The first part's sets are the merged tree's: their labels too.
        if let Match::Own = source {
            self.tree.adopt_set_labels(part);
        }
        let labels = self.tree.label_bytes;
        let keep = self.kept.is_some() && !part.set_labels.is_empty();
        let mut sets = Vec::new();
        let kept = keep.then_some(&mut sets);
        let (map, cache_bytes) =
            import_infosets(part, source, self.global, self.root_set, &mut self.tree, &mut self.counts, kept)?;
        // Kept sets' labels stay with the part (counted with it); the rest
        // of what the tree's labels grew by (copied labels, new lists of
        // action labels) was copied.
        let kept_text: u64 = sets.iter().map(|&k| part.set_labels.label(k).len() as u64).sum();
        self.copied += self.tree.label_bytes - labels - kept_text;
        if let (true, Some(kept)) = (keep, self.kept.as_mut()) {
            kept.push(KeptLabels::new(std::mem::take(&mut part.set_labels), sets));
        }
        // The cache that maps the part's states and facts was held with
        // the rest.
        let with_cache = self.held + self.copied + cache_bytes;
        self.tree.build_bytes = self.tree.build_bytes.max(with_cache);
        self.limit.check(with_cache)?;
        // The part's sets are in `tree` now.
        part.infosets = IdVec::new();
        if !agree_on_moves_before(&map, local_before, &mut self.before) {
            return Ok(None);
        }
        let (pay_map, chances_base) = import_tables(part, &mut self.tree)?;
        Ok(Some(Remap { map, pay_map, chances_base }))
    }
}

/// Of two parts, matches their sets (see [`match_two_parts`]), its cache
/// counted in `budget` with what the parts hold; then checks the merge
/// against the limits (see [`check_merge_limits`]).
pub(super) fn prepare(
    parts: &mut [Part],
    budget: &Budget,
    opts: &BuildOptions,
    keep: bool,
) -> Result<(usize, u64), BuildError> {
    let cache_bytes = if keep { 0 } else { match_two_parts(parts) };
    let with_cache = budget.change(0, cache_bytes);
    budget.change(cache_bytes, 0);
    opts.memory.check(with_cache)?;
    check_merge_limits(parts, opts)
}

/// The root node, then the parts in child order, renumbered, their nodes
/// moved into the merged tree's arrays; `None` if the parts disagree on
/// perfect recall.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge<G: Game>(
    game: &G,
    global: &mut InfoInterner,
    root_state: &G::State,
    root: Node,
    mut parts: Vec<Part>,
    bounds: &[u32],
    opts: &BuildOptions,
    budget: &Budget,
    keep: bool,
) -> Result<Option<Tree>, BuildError> {
    let n = *bounds.last().unwrap_or(&0);
    debug_assert_eq!(parts.len() + 1, bounds.len());
    let (total, held) = prepare(&mut parts, budget, opts, keep)?;
    // Zeroed by the allocator (fresh pages, not touched until written):
    // the parts' nodes move into them chunk by chunk (see `move_nodes`).
    let mut data = vec![0u32; total];
    let mut first_child = vec![0u32; total];
    // The root and the block of its children (filled from each part's
    // first nodes, its roots).
    let (mut merging, root_data) = Merging::start(game, global, root_state, root, n, opts, held)?;
    data[0] = root_data;
    first_child[0] = 1;
    let head = 1 + n as usize;
    let (head_data, mut rest_data) = data.split_at_mut(head);
    let (head_first, mut rest_first) = first_child.split_at_mut(head);
    let agreed = std::thread::scope(|scope| -> Result<bool, BuildError> {
        // Part `i`'s roots are the root's children `bounds[i]..`; its other
        // nodes follow in order from `base`. Its information sets are
        // matched here, in part order, then a thread moves its nodes
        // while the next part's sets are matched.
        let mut base = 1 + n;
        for (i, Part { tree: mut part, info, before, .. }) in parts.into_iter().enumerate() {
            let shift = Shift { base, k: bounds[i + 1] - bounds[i] };
            let k = shift.k as usize;
            let len = part.n_nodes() - k;
            let (dd, td) = std::mem::take(&mut rest_data).split_at_mut(len);
            let (df, tf) = std::mem::take(&mut rest_first).split_at_mut(len);
            (rest_data, rest_first) = (td, tf);
            base += len as u32;
            // With `keep` the global interner is used after the merge: the
            // last part's new sets are interned like the others'.
            let last = !keep && i + 2 == bounds.len();
            let Some(remap) = merging.add(&mut part, info, &before, last)? else {
                return Ok(false);
            };
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
    let mut tree = merging.tree;
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
/// parts' while these are held) and the nodes in flight (the labels copied
/// are counted as they are, see [`Merging::add`]). The node arrays
/// move from the parts into the merged tree (see [`move_nodes`]), or from
/// the parts' files into the saved one, so they count once.
fn check_merge_limits(parts: &[Part], opts: &BuildOptions) -> Result<(usize, u64), BuildError> {
    let total: usize = 1 + parts.iter().map(Part::n_nodes).sum::<usize>();
    let most = opts.max_nodes.min(u64::from(u32::MAX - 1));
    if total as u64 > most {
        return Err(BuildError::TooManyNodes { limit: most });
    }
    let held: u64 = parts.iter().map(Part::bytes).sum();
    // (Their labels, moved or counted when copied.)
    let tables: u64 = parts.iter().map(|p| p.tree.bytes() - p.tree.node_bytes() - p.tree.label_bytes).sum();
    // Chunks of nodes move on a thread per part at once; scratch files are
    // read back one after another.
    let moved: u64 = parts.iter().filter(|p| p.spill.is_none()).map(Part::in_flight).sum();
    let read = parts.iter().filter(|p| p.spill.is_some()).map(Part::in_flight).max().unwrap_or(0);
    let in_flight = moved + read;
    opts.memory.check(held + tables + in_flight)?;
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
            tree.push_infoset(Infoset { player: PlayerId(player), index_in_player: 0, n_actions }, labels)?;
            Ok(infoset)
        }
        Node::Terminal => unreachable!("a terminal root has no children to build in parallel"),
    }
}
