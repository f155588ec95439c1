//! A parallel build's parts, and how their information sets are matched
//! with the global ones: the first part's interner numbers its sets as the
//! sequential builder does; later parts' sets are re-interned into it,
//! exactly (fact by fact), or only looked up there for the last part, whose
//! new sets need no interned state. Of two parts (a build on two threads),
//! the first done keeps only its keys as soon as it is done, and the sets
//! of one are looked up in the other's interner before the merge builds
//! the tree's tables: the build holds one set of lookup indexes at its
//! peak, not two, and none while it merges.

use super::scratch::Spill;
use crate::info::{ImportCache, InfoInterner, InfoKeys};
use crate::tree::build::check_action_count;
use crate::tree::nodes::{Infoset, Tree, CHANCE_BIT};
use crate::tree::options::BuildError;
use crate::tree::recall::{MovesBefore, NO_MOVE, UNSET};

/// Nodes moved at a time by the merge ([`super::merge::move_nodes`]): the memory in flight (16 MiB
/// per array).
pub(super) const MOVE_CHUNK: usize = 1 << 22;

/// A part's tree, its information states, and per information set the own
/// move before it (its perfect recall is checked within the part; the merge
/// checks that the parts agree).
pub(super) struct Part {
    /// Without its nodes if they were written out (`spill`).
    pub(super) tree: Tree,
    pub(super) info: PartInfo,
    pub(super) before: MovesBefore,
    /// Its nodes, when written to a scratch file as they were built.
    pub(super) spill: Option<Spill>,
}

/// A part's information states and sets, as the merge uses them.
pub(super) enum PartInfo {
    /// The interner (without its memo) of the first part, which becomes the
    /// global one, or of the one of two parts done last.
    Global(Box<InfoInterner>),
    /// Another part's: imported, or looked up.
    Keys(InfoKeys),
    /// The first of two parts, once matched: its sets are the global ones.
    Numbered,
    /// The second of two parts, matched with the first: per set, the
    /// first's set with its key, or `NONE_FOUND`.
    Matched(Vec<u32>),
}

/// No set of the first part has this key (in [`PartInfo::Matched`]).
const NONE_FOUND: u32 = u32::MAX;

impl Part {
    /// Bytes held: the tree, the information states, the moves before
    /// each set, and the nodes written out before they were explored.
    pub(super) fn bytes(&self) -> u64 {
        self.tree.bytes() + self.info.bytes() + self.before.bytes() + self.spill.as_ref().map_or(0, Spill::bytes)
    }

    /// Its node count.
    pub(super) fn n_nodes(&self) -> usize {
        self.spill.as_ref().map_or(self.tree.n_nodes(), |s| s.n_nodes)
    }

    /// The bytes of its nodes the merge holds at once: a chunk moved, or
    /// a block read back.
    pub(super) fn in_flight(&self) -> u64 {
        match &self.spill {
            None => (MOVE_CHUNK.min(self.tree.n_nodes()) * 8) as u64,
            Some(_) => Spill::IN_FLIGHT,
        }
    }
}

impl PartInfo {
    pub(super) fn bytes(&self) -> u64 {
        match self {
            PartInfo::Global(interner) => interner.bytes() as u64,
            PartInfo::Keys(keys) => keys.bytes() as u64,
            PartInfo::Numbered => 0,
            PartInfo::Matched(found) => found.capacity() as u64 * 4,
        }
    }
}

/// Of two parts (one kept its interner, the first done only its keys):
/// finds the sets of one among the other's, which says which of the
/// second's are new, then gives both back, before the merge builds the
/// tree's tables (so that it holds no interner while it does). When the
/// first was done first, its sets are looked up in the second's interner:
/// the same matches the other way round. Returns the bytes of the cache
/// the lookups used, at its largest (0 if there were not two parts).
pub(super) fn match_two_parts(parts: &mut [Part]) -> u64 {
    let [first, second] = parts else { return 0 };
    let mut found = vec![NONE_FOUND; second.tree.infosets.len()];
    let mut cache = ImportCache::default();
    // (A set interned before the part, the root's, is not the part's.)
    match (&mut first.info, &mut second.info) {
        (PartInfo::Keys(keys), PartInfo::Global(interner)) => {
            for (k, info) in first.tree.infosets.iter().enumerate() {
                if info.n_actions != 0 {
                    if let Some(j) = interner.find_infoset(keys, k as u32, &mut cache) {
                        found[j as usize] = k as u32;
                    }
                }
            }
        }
        (PartInfo::Global(interner), PartInfo::Keys(keys)) => {
            for (j, info) in second.tree.infosets.iter().enumerate() {
                if info.n_actions != 0 {
                    found[j] = interner.find_infoset(keys, j as u32, &mut cache).unwrap_or(NONE_FOUND);
                }
            }
        }
        _ => return 0,
    }
    (first.info, second.info) = (PartInfo::Numbered, PartInfo::Matched(found));
    cache.bytes() as u64
}

/// How [`import_infosets`] matches a part's information sets with the
/// global ones.
pub(super) enum Match {
    /// The first part's, whose interner became the global one: each its own.
    Own,
    /// Interned into the global interner (a part before the last).
    Import(InfoKeys),
    /// Looked up in the global interner, not added to it (the last part).
    Find(InfoKeys),
    /// Matched already (see [`match_two_parts`]).
    Known(Vec<u32>),
}

/// Marks a new set in [`import_infosets`]'s map while it is made (set ids
/// stay below [`CHANCE_BIT`]).
const NEW: u32 = CHANCE_BIT;

/// Maps a part's information sets to global ones, in the part's order of
/// first appearance, adding the new ones to `tree` with their labels
/// copied, or, with `kept`, counted in `tree`'s label bytes but left in the
/// part, their ids in `kept` (see [`KeptLabels`](crate::tree::set_labels::KeptLabels)). The
/// part's keys (in `source`) and what was learned of them are given back
/// before `tree` grows. Returns the map and the bytes of the cache that
/// mapped the part's states and facts, at its largest.
pub(super) fn import_infosets(
    part: &mut Tree,
    source: Match,
    global: &mut InfoInterner,
    root_set: u32,
    tree: &mut Tree,
    counts: &mut [u32],
    mut kept: Option<&mut Vec<u32>>,
) -> Result<(Vec<u32>, u64), BuildError> {
    let mut map: Vec<u32> = Vec::with_capacity(part.infosets.len());
    let mut cache = ImportCache::default();
    let mut next = tree.infosets.len() as u32;
    for (k, info) in part.infosets.iter().enumerate() {
        if info.n_actions == 0 {
            // Interned before the part: the root's set.
            map.push(root_set);
            continue;
        }
        let (g, new) = match &source {
            Match::Own => (k as u32, true),
            Match::Import(keys) => global.import_infoset(keys, k as u32, &mut cache),
            Match::Find(keys) => global.find_infoset(keys, k as u32, &mut cache).map_or((next, true), |g| (g, false)),
            Match::Known(found) => match found[k] {
                NONE_FOUND => (next, true),
                g => (g, false),
            },
        };
        next += u32::from(new);
        map.push(if new { g | NEW } else { g });
    }
    let cache_bytes = cache.bytes() as u64;
    drop((source, cache));
    for (k, info) in part.infosets.iter().enumerate() {
        let g = map[k];
        if info.n_actions == 0 {
            continue;
        }
        if g & NEW == 0 {
            check_action_count(tree.infosets.raw[g as usize].n_actions, info.n_actions)?;
            continue;
        }
        map[k] = g & !NEW;
        debug_assert_eq!(map[k] as usize, tree.infosets.len());
        let index_in_player = counts[info.player.index()];
        counts[info.player.index()] += 1;
        let mut labels =
            (k < part.set_labels.len()).then(|| (part.set_labels.label(k as u32), part.set_labels.actions(k as u32)));
        if let (Some(kept), Some((label, actions))) = (kept.as_deref_mut(), labels) {
            // Counted as `push_infoset` would count them.
            tree.label_bytes += label.len() as u64 + tree.set_labels.count_list(actions);
            kept.push(k as u32);
            labels = None;
        }
        tree.push_infoset(Infoset { index_in_player, ..*info }, labels)?;
    }
    Ok((map, cache_bytes))
}

/// The parts must agree on the own move that precedes each information set
/// (perfect recall across parts): records a part's moves in `before`, in
/// global ids; false on the first disagreement (the merge has no interner
/// that holds every set, to name them: the build on one thread does).
pub(super) fn agree_on_moves_before(map: &[u32], local_before: &MovesBefore, before: &mut MovesBefore) -> bool {
    for k in 0..local_before.len() {
        let mv = local_before.get(k as u32);
        if mv == UNSET || map[k] == u32::MAX {
            continue;
        }
        let global_mv =
            if mv == NO_MOVE { NO_MOVE } else { (u64::from(map[(mv >> 32) as usize]) << 32) | (mv & 0xffff_ffff) };
        let g = map[k];
        match before.get(g) {
            UNSET => before.set(g, global_mv),
            seen if seen != global_mv => return false,
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, Node};
    use crate::tree::test_games::sides;
    use crate::tree::{build, build_parallel, build_parallel_own, BuildOptions, NodeView};

    /// The first part done is matched against the other, whichever it is
    /// (a small first side is nearly always done first; a small second side
    /// often): the tree is the sequential builder's, sets numbered alike.
    #[test]
    fn parts_matched_either_way_give_the_sequential_tree() {
        for depths in [[2, 13], [13, 2], [9, 9]] {
            let game = || sides(depths);
            let (one, _, _) = build(&game(), &BuildOptions::default()).unwrap();
            let make = || Some(game());
            let (two, _) = build_parallel(&make, &BuildOptions::default(), 2).unwrap();
            assert_eq!(two.stats(), one.stats(), "depths {depths:?}");
            let nodes = |t: &crate::tree::Tree| t.nodes().map(|n| t.node(n)).collect::<Vec<_>>();
            let sets =
                |t: &crate::tree::Tree| t.infosets.iter().map(|s| (s.player, s.index_in_player)).collect::<Vec<_>>();
            let same = two.preorder() == one.preorder() && nodes(&two) == nodes(&one) && sets(&two) == sets(&one);
            assert!(same, "depths {depths:?}: another tree");
        }
    }

    /// The interner a parallel build keeps numbers every set as the build
    /// on one thread does, the sets the last part meets first included: a
    /// game asked again, in it, for the set of every decision of the tree
    /// gives the tree's set and interns none, whichever part ends first.
    #[test]
    fn the_interner_a_parallel_build_keeps_names_its_sets() {
        for depths in [[2, 13], [13, 2], [9, 9]] {
            let game = sides(depths);
            let (one, _, _) = build(&game, &BuildOptions::default()).unwrap();
            let make = || Some(sides(depths));
            let (two, mut interner, _) = build_parallel_own(&make, &BuildOptions::default(), 2).unwrap();
            let nodes = |t: &crate::tree::Tree| t.nodes().map(|n| t.node(n)).collect::<Vec<_>>();
            assert!(two.preorder() == one.preorder() && nodes(&two) == nodes(&one), "depths {depths:?}: another tree");
            let n_sets = interner.n_infosets();
            assert_eq!(n_sets, two.infosets.len(), "depths {depths:?}");
            // Every node, with its state, from the root down.
            let mut stack = vec![(game.root().unwrap(), two.nodes().next().unwrap())];
            let mut decisions = 0;
            while let Some((mut state, node)) = stack.pop() {
                let kind = game.advance(&mut state, &mut interner).unwrap();
                if let (Node::Decision { infoset, .. }, NodeView::Decision { infoset: want, .. }) =
                    (kind, two.node(node))
                {
                    assert_eq!(infoset, want.0, "depths {depths:?}: node {node:?}");
                    decisions += 1;
                }
                for (a, child) in two.children(node).enumerate() {
                    let mut next = state;
                    game.apply(&mut next, a as u32, &mut interner).unwrap();
                    stack.push((next, child));
                }
            }
            assert!(decisions > 100, "depths {depths:?}: {decisions} decisions");
            assert_eq!(interner.n_infosets(), n_sets, "depths {depths:?}: sets interned again");
        }
    }
}
