//! Perfect recall: every node of an information set must be reached by the
//! same sequence of the player's own (information set, action) pairs. The
//! sequence form and the solvers need it; Gala's information states give it
//! by construction (a player's own-move record carries the options it was
//! offered when they could differ: `galac_compiler::offers`), so the check
//! guards other `Game`s and the builders themselves.
//!
//! Builders check while they explore ([`OwnMoves`]); the parallel builder
//! also checks that its parts agree (`parallel.rs`).

use super::BuildError;
use crate::game::Game;
use crate::info::InfoInterner;

/// No own move yet.
const NONE: u64 = u64::MAX;

/// The error for `player`'s information set `set`, reached after the own
/// move `one` on one path and `other` on another (each `infoset << 32 |
/// action`, or `NO_MOVE`): names both.
pub(super) fn imperfect_recall<G: Game>(
    names: &[String],
    info: &InfoInterner,
    game: &G,
    (player, set): (u32, u32),
    one: u64,
    other: u64,
) -> BuildError {
    let label = game.infoset_label(info, set);
    let who = names.get(player as usize).cloned().unwrap_or_default();
    let show = |mv: u64| match mv {
        NO_MOVE => "no earlier move".to_string(),
        mv => format!("action {} at [{}]", mv & 0xffff_ffff, game.infoset_label(info, (mv >> 32) as u32)),
    };
    BuildError::ImperfectRecall(format!(
        "{who}'s information set [{label}] is reached after different own earlier moves \
         ({} on one path, {} on another); reveal to {who} what distinguishes them",
        show(one),
        show(other)
    ))
}

/// No earlier own move on a path.
pub(super) const NO_MOVES: u32 = u32::MAX;

/// The own moves on the paths of the states on the build stack, as linked
/// records (each path shares its prefix with its siblings'), kept in a
/// stack-ordered arena like the interner's pending facts: the check costs a
/// short walk per decision node.
pub(super) struct OwnMoves {
    moves: Vec<Move>,
    /// Per information set: the own move (infoset << 32 | action) before
    /// it, `UNSET` until first seen.
    before: Vec<u64>,
}

struct Move {
    prev: u32,
    player: u32,
    mv: u64,
}

pub(super) const UNSET: u64 = u64::MAX - 1;
/// No own move before an information set.
pub(super) const NO_MOVE: u64 = NONE;

impl OwnMoves {
    /// Room for `sets` information sets.
    pub(super) fn with_capacity(sets: usize) -> OwnMoves {
        OwnMoves { moves: Vec::new(), before: Vec::with_capacity(sets) }
    }

    /// Checks that `player`, deciding in `set` at a node whose path's last
    /// move record is `path`, has the same own history as before in `set`.
    #[inline]
    pub(super) fn check<G: Game>(
        &mut self,
        path: u32,
        player: u32,
        set: u32,
        names: &[String],
        info: &InfoInterner,
        game: &G,
    ) -> Result<(), BuildError> {
        let mut at = path;
        let mut mine = NONE;
        while at != NO_MOVES {
            let m = &self.moves[at as usize];
            if m.player == player {
                mine = m.mv;
                break;
            }
            at = m.prev;
        }
        if set as usize >= self.before.len() {
            self.before.resize(set as usize + 1, UNSET);
        }
        let seen = &mut self.before[set as usize];
        if *seen == UNSET {
            *seen = mine;
        } else if *seen != mine {
            return Err(imperfect_recall(names, info, game, (player, set), *seen, mine));
        }
        Ok(())
    }

    /// The path after `player` takes `action` in `set` on `path`.
    #[inline]
    pub(super) fn push(&mut self, path: u32, player: u32, set: u32, action: u32) -> u32 {
        self.moves.push(Move { prev: path, player, mv: (u64::from(set) << 32) | u64::from(action) });
        (self.moves.len() - 1) as u32
    }

    pub(super) fn mark(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Per information set: the own move before it (`infoset << 32 |
    /// action`, `NO_MOVE` for none, `UNSET` if never visited).
    pub(super) fn into_before(self) -> Vec<u64> {
        self.before
    }

    /// Forgets the records made after `mark` (their subtrees are done).
    pub(super) fn truncate(&mut self, mark: u32) {
        self.moves.truncate(mark as usize);
    }
}
