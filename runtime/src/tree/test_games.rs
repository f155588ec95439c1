//! A small two-player game shared by the parallel builders' tests: two
//! sides of different depths, so that the parts of a two-thread build
//! share some information sets and hold others of their own.

use crate::game::{Game, GameError, GameInfo, Node};
use crate::info::{InfoInterner, InfoState, CHOSE_TAG};
use crate::rational::Ratio;

/// `a` picks a side, then `b` and `a` take turns down to
/// `depths[side]`, each knowing only their own moves: `b`'s sets are
/// in both parts of a two-thread build down to the shallower side, and
/// the deeper side's part has sets and lists of action labels (one per
/// depth) of its own.
pub(super) struct Sides {
    info: GameInfo,
    depths: [u32; 2],
}

/// (depth, side, each player's information state)
type State = (u32, u32, [InfoState; 2]);

impl Game for Sides {
    type State = State;
    type Specialised = Self;
    fn info(&self) -> &GameInfo {
        &self.info
    }
    fn root(&self) -> Result<State, GameError> {
        Ok((0, 0, [InfoState::EMPTY; 2]))
    }
    fn advance(&self, s: &mut State, info: &mut InfoInterner) -> Result<Node, GameError> {
        if s.0 > 0 && s.0 > self.depths[s.1 as usize] {
            return Ok(Node::Terminal);
        }
        let player = (s.0 + 1) % 2;
        let (infoset, _) = info.infoset(player, s.2[player as usize], &[2]);
        Ok(Node::Decision { player, infoset, n_actions: 2 })
    }
    fn apply(&self, s: &mut State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        let player = ((s.0 + 1) % 2) as usize;
        s.2[player] = info.push(s.2[player], &[CHOSE_TAG, u64::from(action)]);
        if s.0 == 0 {
            s.1 = action;
        }
        s.0 += 1;
        Ok(())
    }
    fn chance_probs(&self, _: &State, out: &mut Vec<Ratio>) {
        out.clear();
    }
    fn payoffs<'a>(&self, s: &'a State, out: &'a mut Vec<i64>) -> &'a [i64] {
        out.clear();
        out.extend([i64::from(s.0), -i64::from(s.0)]);
        out
    }
    fn action_label(&self, s: &State, action: u32) -> String {
        format!("{action} at {}", s.0)
    }
    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
        format!("{:?}", info.facts(info.infoset_key(infoset).state))
    }
}

/// [`Sides`] with its sides `depths` deep.
pub(super) fn sides(depths: [u32; 2]) -> Sides {
    Sides {
        info: GameInfo { name: "sides".into(), players: vec!["a".into(), "b".into()], params: Vec::new(), program: 0 },
        depths,
    }
}
