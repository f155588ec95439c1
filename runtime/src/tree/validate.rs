//! The checks a tree read from a file passes before any solver sees it: a
//! file with a valid checksum may still have been written by anything, and
//! solvers index arrays by what the tree says (children, sets, slots per
//! player, depth, labels). A tree that passes is one the builder could have
//! made: a tree rooted at node 0, every set used and numbered as the
//! builder numbers it, perfect recall, the stored depth and label bytes
//! exact.

use super::nodes::{Tree, CHANCE_BIT};
use crate::ids::NodeId;

/// No own move before a node (as in `recall.rs`).
const NO_MOVE: u64 = u64::MAX;
/// An information set not met yet.
const UNSET: u64 = u64::MAX - 1;

/// Checks `tree` as read back (its tables filled in); the error says what
/// is wrong.
pub(super) fn check(tree: &Tree) -> Result<(), String> {
    let n_nodes = tree.data.len();
    if n_nodes == 0 || tree.first_child.len() != n_nodes || n_nodes >= CHANCE_BIT as usize {
        return Err(format!("{n_nodes} nodes, {} first children", tree.first_child.len()));
    }
    check_sets(tree)?;
    check_labels(tree)?;
    check_children(tree)?;
    check_paths(tree)
}

/// Players, action counts and `index_in_player` (each player's sets
/// numbered 0, 1, ... in set order, as the builder numbers them and the
/// treeplex lays them out).
fn check_sets(tree: &Tree) -> Result<(), String> {
    let mut next = vec![0u32; tree.n_players as usize];
    for (i, s) in tree.infosets.iter().enumerate() {
        let count = next.get_mut(s.player.index()).ok_or_else(|| format!("information set {i} is of no player"))?;
        if s.index_in_player != *count {
            return Err(format!(
                "information set {i} is numbered {} among its player's, not {count}",
                s.index_in_player
            ));
        }
        *count += 1;
        if s.n_actions == 0 {
            return Err(format!("information set {i} has no actions"));
        }
    }
    if tree.chances.iter().any(|c| c.n == 0) {
        return Err("a chance node has no outcomes".into());
    }
    Ok(())
}

/// Labels: none at all, or one per set (with one per action) and one per
/// chance outcome; and the label bytes the memory figure counts.
fn check_labels(tree: &Tree) -> Result<(), String> {
    let labelled = !tree.set_labels.is_empty() || !tree.chance_labels.is_empty();
    if labelled {
        if tree.set_labels.len() != tree.infosets.len() {
            return Err("labels for some information sets only".into());
        }
        for (i, ((_, actions), s)) in tree.set_labels.iter().zip(&tree.infosets).enumerate() {
            if actions.len() != s.n_actions as usize {
                return Err(format!(
                    "information set {i} has {} actions and {} action labels",
                    s.n_actions,
                    actions.len()
                ));
            }
        }
        for c in &tree.chances {
            if c.labels as u64 + c.n as u64 > tree.chance_labels.len() as u64 {
                return Err("a chance node's labels are out of range".into());
            }
        }
    }
    let sets = tree.set_labels.text_bytes();
    let bytes = sets + tree.chance_labels.iter().map(|l| l.len() as u64).sum::<u64>();
    if bytes != tree.label_bytes {
        return Err(format!("{} label bytes counted for labels of {bytes}", tree.label_bytes));
    }
    Ok(())
}

/// Every node's children come after it, inside the tree; every node but the
/// root is the child of exactly one node (so the nodes form one tree and
/// every walk ends); every information set has a node.
fn check_children(tree: &Tree) -> Result<(), String> {
    let n_nodes = tree.data.len();
    let mut is_child = Bits::new(n_nodes);
    let mut used = Bits::new(tree.infosets.len());
    let mut children = 0u64;
    for (node, (&d, &first)) in tree.data.iter().zip(&tree.first_child).enumerate() {
        if first == 0 {
            continue;
        }
        let n = if d & CHANCE_BIT != 0 {
            tree.chances.get((d & !CHANCE_BIT) as usize).map(|c| c.n)
        } else {
            tree.set_actions.get(d as usize).copied()
        };
        let n = n.ok_or_else(|| format!("node {node} refers to no chance node or information set"))?;
        if d & CHANCE_BIT == 0 {
            used.set(d as usize);
        }
        if first as usize <= node || first as u64 + n as u64 > n_nodes as u64 {
            return Err(format!("node {node}'s children are out of range"));
        }
        for child in first..first + n {
            if is_child.set(child as usize) {
                return Err(format!("node {child} is the child of two nodes"));
            }
        }
        children += u64::from(n);
    }
    if children + 1 != n_nodes as u64 {
        return Err(format!("{} nodes are the child of no node", n_nodes as u64 - 1 - children));
    }
    if used.count() != tree.infosets.len() {
        return Err("an information set has no node".into());
    }
    Ok(())
}

/// One depth-first walk: the deepest node is at the stored depth, and each
/// information set is reached after the same last own move of its player
/// on every path (perfect recall, which the sequence form needs).
fn check_paths(tree: &Tree) -> Result<(), String> {
    let n_players = tree.n_players as usize;
    let mut before = vec![UNSET; tree.infosets.len()];
    // Row `d`: each player's last own move on the path to the node at depth
    // `d` being visited (rows above the current depth are the ancestors').
    let mut rows: Vec<u64> = vec![NO_MOVE; n_players];
    let mut deepest = 0u32;
    let mut stack: Vec<Visit> = vec![(NodeId::ROOT, 0, None)];
    while let Some((node, depth, mv)) = stack.pop() {
        deepest = deepest.max(depth);
        let d = depth as usize;
        if depth > 0 {
            rows.resize((d + 1) * n_players, NO_MOVE);
            rows.copy_within((d - 1) * n_players..d * n_players, d * n_players);
            if let Some((p, m)) = mv {
                rows[d * n_players + p as usize] = m;
            }
        }
        let mover = tree.infoset(node).map(|set| {
            let p = tree.infosets[set].player;
            let mine = rows[d * n_players + p.index()];
            (p, set, mine)
        });
        if let Some((p, set, mine)) = mover {
            let seen = &mut before[set.index()];
            if *seen == UNSET {
                *seen = mine;
            } else if *seen != mine {
                return Err(format!("information set {set} of player {p} is reached after different own moves"));
            }
        }
        for (a, child) in tree.children(node).enumerate().rev() {
            let mv = mover.map(|(p, set, _)| (p.0, (u64::from(set.0) << 32) | a as u64));
            stack.push((child, depth + 1, mv));
        }
    }
    if deepest != tree.max_depth {
        return Err(format!("the deepest node is at depth {deepest}, not {}", tree.max_depth));
    }
    Ok(())
}

/// A node to visit: (node, depth, the move that led to it as (player,
/// infoset << 32 | action) if a player's).
type Visit = (NodeId, u32, Option<(u32, u64)>);

/// A fixed-size set of indices, a bit each.
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn new(n: usize) -> Bits {
        Bits { words: vec![0; n.div_ceil(64)] }
    }

    /// Adds `i`; whether it was there already.
    fn set(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.words[w] & b != 0;
        self.words[w] |= b;
        was
    }

    fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}
