//! Perfect recall: every node of an information set must be reached by the
//! same sequence of the player's own (information set, action) pairs. The
//! sequence form and the solvers need it; Gala's information states give it
//! by construction except when two different choice lists share labels.

use super::{BuildError, Tree};
use crate::game::Game;
use crate::info::InfoInterner;

/// Own last move of each player on the path: (infoset, action) or NONE.
const NONE: (u32, u32) = (u32::MAX, u32::MAX);

pub(super) fn check_perfect_recall<G: Game>(tree: &Tree, info: &InfoInterner, game: &G) -> Result<(), BuildError> {
    let n = tree.n_players as usize;
    let mut parent_seq: Vec<Option<(u32, u32)>> = vec![None; tree.infosets.len()];
    // Stack of (node, last own move per player).
    let mut stack: Vec<(u32, Vec<(u32, u32)>)> = vec![(0, vec![NONE; n])];
    while let Some((node, last)) = stack.pop() {
        let children = tree.children(node);
        if let (Some(p), Some(set)) = (tree.player(node), tree.infoset(node)) {
            let mine = last[p as usize];
            match parent_seq[set as usize] {
                None => parent_seq[set as usize] = Some(mine),
                Some(prev) if prev != mine => {
                    let label = game.infoset_label(info, set);
                    let who = tree.player_names.get(p as usize).cloned().unwrap_or_default();
                    return Err(BuildError::ImperfectRecall(format!(
                        "{who}'s information set [{label}] is reached after different own earlier moves; \
                         reveal to {who} what distinguishes them"
                    )));
                }
                Some(_) => {}
            }
            for (a, child) in children.enumerate() {
                let mut next = last.clone();
                next[p as usize] = (set, a as u32);
                stack.push((child, next));
            }
        } else {
            for child in children {
                stack.push((child, last.clone()));
            }
        }
    }
    Ok(())
}
