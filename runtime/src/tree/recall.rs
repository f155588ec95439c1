//! Perfect recall: every node of an information set must be reached by the
//! same sequence of the player's own (information set, action) pairs. The
//! sequence form and the solvers need it; Gala's information states give it
//! by construction (a player's own-move record carries the options it was
//! offered when they could differ: `galac_compiler::offers`), so the check
//! guards other `Game`s and the builders themselves.
//!
//! Builders check while they explore ([`OwnMoves`]); the parallel builder
//! also checks that its parts agree (`parallel.rs`).

use super::options::BuildError;
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
    /// Per information set: the own move before it.
    before: MovesBefore,
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
        OwnMoves { moves: Vec::new(), before: MovesBefore::with_capacity(sets) }
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
        let seen = self.before.get(set);
        if seen != mine {
            if seen != UNSET {
                return Err(imperfect_recall(names, info, game, (player, set), seen, mine));
            }
            // A set's first node: out of line, as rare as new sets.
            self.before.set(set, mine);
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

    /// Per information set: the own move before it.
    pub(super) fn into_before(self) -> MovesBefore {
        self.before
    }

    /// Bytes held (counted in a build's memory).
    pub(super) fn bytes(&self) -> u64 {
        (self.moves.capacity() * std::mem::size_of::<Move>()) as u64 + self.before.bytes()
    }

    /// Forgets the records made after `mark` (their subtrees are done).
    pub(super) fn truncate(&mut self, mark: u32) {
        self.moves.truncate(mark as usize);
    }
}

/// Bits of a packed move that hold the action (see [`MovesBefore`]).
const ACTION_BITS: u32 = 8;
/// [`UNSET`] and [`NO_MOVE`] packed.
const UNSET_PACKED: u32 = u32::MAX;
const NO_MOVE_PACKED: u32 = u32::MAX - 1;

/// Per information set, the own move before it (`infoset << 32 | action`,
/// `NO_MOVE` for none, `UNSET` if never visited), four bytes a set while
/// every move packs into them (a set below 2^24, an action below 2^8: half
/// the memory on a game of millions of sets, docs/perf/tree-build.md,
/// "Memory of a large build"), eight from the first move that does not.
#[derive(Default)]
pub(super) struct MovesBefore {
    packed: Vec<u32>,
    /// Used instead of `packed` once a move did not pack.
    wide: Option<Vec<u64>>,
}

impl MovesBefore {
    fn with_capacity(sets: usize) -> MovesBefore {
        MovesBefore { packed: Vec::with_capacity(sets), wide: None }
    }

    fn pack(mv: u64) -> Option<u32> {
        match mv {
            UNSET => Some(UNSET_PACKED),
            NO_MOVE => Some(NO_MOVE_PACKED),
            mv if mv & 0xffff_ffff < 1 << ACTION_BITS && mv >> 32 < 1 << (32 - ACTION_BITS) => {
                let packed = ((mv >> 32) << ACTION_BITS | mv & 0xffff_ffff) as u32;
                (packed < NO_MOVE_PACKED).then_some(packed)
            }
            _ => None,
        }
    }

    fn unpack(p: u32) -> u64 {
        match p {
            UNSET_PACKED => UNSET,
            NO_MOVE_PACKED => NO_MOVE,
            p => u64::from(p >> ACTION_BITS) << 32 | u64::from(p & ((1 << ACTION_BITS) - 1)),
        }
    }

    /// The move before `set` (`UNSET` past the sets recorded).
    #[inline]
    pub(super) fn get(&self, set: u32) -> u64 {
        match &self.wide {
            None => self.packed.get(set as usize).map_or(UNSET, |&p| Self::unpack(p)),
            Some(wide) => wide.get(set as usize).copied().unwrap_or(UNSET),
        }
    }

    /// Records `mv` as the move before `set`.
    #[inline(never)]
    pub(super) fn set(&mut self, set: u32, mv: u64) {
        let i = set as usize;
        if let (None, Some(p)) = (&self.wide, Self::pack(mv)) {
            if i >= self.packed.len() {
                crate::room::resize(&mut self.packed, i + 1, UNSET_PACKED);
            }
            self.packed[i] = p;
            return;
        }
        let wide = self.widen();
        if i >= wide.len() {
            wide.resize(i + 1, UNSET);
        }
        wide[i] = mv;
    }

    /// The wide table, made from the packed one the first time.
    #[cold]
    fn widen(&mut self) -> &mut Vec<u64> {
        let packed = std::mem::take(&mut self.packed);
        self.wide.get_or_insert_with(|| packed.into_iter().map(Self::unpack).collect())
    }

    /// How many sets have a slot (recorded or `UNSET`).
    pub(super) fn len(&self) -> usize {
        self.wide.as_ref().map_or(self.packed.len(), Vec::len)
    }

    pub(super) fn bytes(&self) -> u64 {
        // Lengths: room not yet written takes no memory (see `Tree::bytes`).
        (self.packed.len() * 4 + self.wide.as_ref().map_or(0, |w| w.len() * 8)) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::{build, build_parallel, BuildError, BuildOptions};
    use crate::game::{Game, GameError, GameInfo, Node};
    use crate::info::{InfoInterner, InfoState, CHOSE_TAG};
    use crate::rational::Ratio;

    /// A game without perfect recall: after a coin, `a` decides in one of
    /// two sets (by the coin), but its record of the move forgets which;
    /// then it decides again. With `first`, `a` decides once before the
    /// coin too (so the two histories are in one part of a parallel build).
    struct Forgetful {
        info: GameInfo,
        first: bool,
    }

    /// (step, coin, a's information state)
    type State = (u32, u64, InfoState);

    impl Game for Forgetful {
        type State = State;
        type Specialised = Self;
        fn info(&self) -> &GameInfo {
            &self.info
        }
        fn root(&self) -> Result<State, GameError> {
            Ok((u32::from(!self.first), 0, InfoState::EMPTY))
        }
        fn advance(&self, s: &mut State, info: &mut InfoInterner) -> Result<Node, GameError> {
            let key: &[u64] = match s.0 {
                0 => &[9],
                1 => return Ok(Node::Chance { n_outcomes: 2 }),
                2 => &[7, s.1],
                3 => &[8],
                _ => return Ok(Node::Terminal),
            };
            let (infoset, _) = info.infoset(0, s.2, key);
            Ok(Node::Decision { player: 0, infoset, n_actions: 2 })
        }
        fn apply(&self, s: &mut State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
            match s.0 {
                1 => s.1 = u64::from(action),
                step => s.2 = info.push(s.2, &[CHOSE_TAG, u64::from(step), u64::from(action)]),
            }
            s.0 += 1;
            Ok(())
        }
        fn chance_probs(&self, _: &State, out: &mut Vec<Ratio>) {
            out.clear();
            out.extend([Ratio { num: 1, den: 2 }; 2]);
        }
        fn payoffs<'a>(&self, _: &'a State, _: &'a mut Vec<i64>) -> &'a [i64] {
            &[0]
        }
        fn action_label(&self, _: &State, action: u32) -> String {
            action.to_string()
        }
        fn infoset_label(&self, _: &InfoInterner, infoset: u32) -> String {
            format!("set {infoset}")
        }
    }

    fn forgetful(first: bool) -> Forgetful {
        Forgetful {
            info: GameInfo { name: "forget".into(), players: vec!["a".into()], params: Vec::new(), program: 0 },
            first,
        }
    }

    /// The error names the two different earlier moves, in the sequential
    /// build and across and within the parts of a parallel one.
    #[test]
    fn a_recall_error_names_both_earlier_moves() {
        let check = |r: Result<_, BuildError>| match r {
            Err(BuildError::ImperfectRecall(msg)) => {
                assert!(msg.starts_with("a's information set [set "), "{msg}");
                let (one, other) = msg.split_once(" on one path, ").expect(&msg);
                let (one, other) =
                    (one.rsplit_once('(').expect(&msg).1, other.split(" on another").next().expect(&msg));
                assert!(one.starts_with("action ") && other.starts_with("action "), "{msg}");
                assert_ne!(one, other, "{msg}");
            }
            Err(e) => panic!("expected imperfect recall, got {e}"),
            Ok(_) => panic!("expected imperfect recall, built a tree"),
        };
        for first in [false, true] {
            check(build(&forgetful(first), &BuildOptions::default()).map(|_| ()));
            for threads in [2, 3] {
                let make = || Some(forgetful(first));
                check(build_parallel(&make, &BuildOptions::default(), threads).map(|_| ()));
            }
        }
    }

    /// Moves before a set are kept packed while they fit in four bytes,
    /// and all read back the same once one does not.
    #[test]
    fn moves_before_read_back_whether_packed_or_not() {
        use super::{MovesBefore, NO_MOVE, UNSET};
        let mut before = MovesBefore::default();
        let moves = [(3, 5 << 32 | 2), (0, NO_MOVE), (7, (1 << 23) << 32 | 255)];
        for (set, mv) in moves {
            before.set(set, mv);
        }
        assert!(before.wide.is_none() && before.bytes() < 8 * 8);
        let wide = [(9, (1 << 24) << 32), (10, 1 << 32 | 256)];
        for (set, mv) in wide {
            before.set(set, mv);
        }
        assert!(before.wide.is_some());
        for (set, mv) in moves.into_iter().chain(wide) {
            assert_eq!(before.get(set), mv, "set {set}");
        }
        assert_eq!((before.get(1), before.get(11), before.len()), (UNSET, UNSET, 11));
    }
}
