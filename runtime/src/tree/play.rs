//! A play named in the game's terms, for errors met while building a tree:
//! replaying the actions from the root gives each one's chooser and label.

use crate::game::{Game, Node};
use crate::info::InfoInterner;

/// Longest play shown in full; a longer one shows its first and last moves.
const SHOWN_MOVES: usize = 40;

/// `first: Bet, nature: Q, second: Call`: who chose each action of `actions`
/// (taken from the game's root) and its label. Stops at the first step the
/// game itself cannot take (the failing one).
pub(super) fn describe<G: Game>(game: &G, actions: &[u32]) -> String {
    let mut info = InfoInterner::new();
    let Ok(mut state) = game.root() else { return String::from("(at the root)") };
    let mut moves: Vec<String> = Vec::with_capacity(actions.len());
    for &action in actions {
        let who = match game.advance(&mut state, &mut info) {
            Ok(Node::Decision { player, .. }) => game.info().players[player as usize].clone(),
            Ok(Node::Chance { .. }) => "nature".to_string(),
            Ok(Node::Terminal) | Err(_) => break,
        };
        moves.push(format!("{who}: {}", game.action_label(&state, action)));
        if game.apply(&mut state, action, &mut info).is_err() {
            break;
        }
    }
    if moves.is_empty() {
        return String::from("(at the root)");
    }
    if moves.len() > SHOWN_MOVES {
        let hidden = moves.len() - SHOWN_MOVES;
        moves.drain(SHOWN_MOVES / 2..SHOWN_MOVES / 2 + hidden);
        moves.insert(SHOWN_MOVES / 2, format!("... {hidden} more moves ..."));
    }
    moves.join(", ")
}
