//! Perfect recall: every node of an information set must be reached by the
//! same sequence of the player's own (information set, action) pairs. The
//! sequence form and the solvers need it; Gala's information states give it
//! by construction except when two different choice lists share labels.
//!
//! One depth-first pass, no allocation per node: the last own move of every
//! player is kept per depth; in preorder, the entry of a node's parent depth
//! still holds the parent's when the node is visited.

use super::{BuildError, Tree};
use crate::game::Game;
use crate::info::InfoInterner;

/// No own move yet.
const NONE: u64 = u64::MAX;

pub(super) fn check_perfect_recall<G: Game>(tree: &Tree, info: &InfoInterner, game: &G) -> Result<(), BuildError> {
    let n = tree.n_players as usize;
    let mut parent_seq: Vec<u64> = vec![u64::MAX - 1; tree.infosets.len()];
    let unset = u64::MAX - 1;
    // last[d * n + p]: player p's last own move (infoset << 32 | action) on
    // the path to the current node at depth d.
    let mut last: Vec<u64> = vec![NONE; (tree.max_depth as usize + 2) * n];
    // (node, depth, the move that led here: (player, infoset << 32 | action) or none)
    let mut stack: Vec<(u32, u32, u32, u64)> = vec![(0, 0, u32::MAX, NONE)];
    while let Some((node, depth, mover, mv)) = stack.pop() {
        let d = depth as usize;
        if d > 0 {
            let (parent, this) = last.split_at_mut(d * n);
            this[..n].copy_from_slice(&parent[(d - 1) * n..d * n]);
        }
        if mover != u32::MAX {
            last[d * n + mover as usize] = mv;
        }
        if let (Some(p), Some(set)) = (tree.player(node), tree.infoset(node)) {
            let mine = last[d * n + p as usize];
            let seen = &mut parent_seq[set as usize];
            if *seen == unset {
                *seen = mine;
            } else if *seen != mine {
                let label = game.infoset_label(info, set);
                let who = tree.player_names.get(p as usize).cloned().unwrap_or_default();
                return Err(BuildError::ImperfectRecall(format!(
                    "{who}'s information set [{label}] is reached after different own earlier moves; \
                     reveal to {who} what distinguishes them"
                )));
            }
            for (a, child) in tree.children(node).enumerate() {
                stack.push((child, depth + 1, p, (u64::from(set) << 32) | a as u64));
            }
        } else {
            for child in tree.children(node) {
                stack.push((child, depth + 1, u32::MAX, NONE));
            }
        }
    }
    Ok(())
}
