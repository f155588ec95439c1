//! The contract of `Game::apply`, checked on every walker of the game: a
//! compiled game keeps a node's candidates and odds only until its next
//! `advance` (of any state), so `apply`, `chance_probs` and `action_label`
//! may only be called on (a copy of) the state of the latest `advance`.
//! The interpreter keeps them in the state and would hide a walker that
//! breaks this (on a compiled game such a walker panics or takes another
//! node's candidates), so [`Strict`] wraps a game
//! and fails on any such call; the walkers run on wrapped interpreted
//! games here.

use std::cell::Cell;

use galac_runtime::game::{Game, GameError, GameInfo, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::rational::Ratio;
use galac_runtime::tree::{build, build_parallel, looks_smaller_than, BuildOptions};
use galac_solvers::maxn::{states, Ties};

use crate::games::{digest, load_interp};
use galac_runtime::memory::MemoryLimit;

/// A game whose states remember which `advance` they came from.
struct Strict<G> {
    game: G,
    /// Number of `advance` calls so far.
    advances: Cell<u64>,
}

/// A state with the number of the `advance` that made it wait at a node
/// (0: not advanced since its last apply).
#[derive(Clone)]
struct StrictState<S> {
    state: S,
    advanced_by: u64,
}

impl<G: Game> Strict<G> {
    fn new(game: G) -> Self {
        Strict { game, advances: Cell::new(0) }
    }

    fn check(&self, s: &StrictState<G::State>, what: &str) {
        assert!(
            s.advanced_by != 0 && s.advanced_by == self.advances.get(),
            "{what} on a state advanced by call {} while the latest advance is call {}",
            s.advanced_by,
            self.advances.get()
        );
    }
}

impl<G: Game> Game for Strict<G> {
    type State = StrictState<G::State>;
    type Specialised = Self;

    fn info(&self) -> &GameInfo {
        self.game.info()
    }

    fn root(&self) -> Result<Self::State, GameError> {
        Ok(StrictState { state: self.game.root()?, advanced_by: 0 })
    }

    fn advance(&self, s: &mut Self::State, info: &mut InfoInterner) -> Result<Node, GameError> {
        self.advances.set(self.advances.get() + 1);
        s.advanced_by = self.advances.get();
        self.game.advance(&mut s.state, info)
    }

    fn apply(&self, s: &mut Self::State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        self.check(s, "apply");
        s.advanced_by = 0;
        self.game.apply(&mut s.state, action, info)
    }

    fn chance_probs(&self, s: &Self::State, out: &mut Vec<Ratio>) {
        self.check(s, "chance_probs");
        self.game.chance_probs(&s.state, out)
    }

    fn payoffs<'a>(&self, s: &'a Self::State, buf: &'a mut Vec<i64>) -> &'a [i64] {
        self.game.payoffs(&s.state, buf)
    }

    fn action_label(&self, s: &Self::State, action: u32) -> String {
        self.check(s, "action_label");
        self.game.action_label(&s.state, action)
    }

    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
        self.game.infoset_label(info, infoset)
    }

    fn position_key(&self, s: &Self::State, out: &mut Vec<u64>) -> bool {
        self.game.position_key(&s.state, out)
    }

    fn evaluate(&self, s: &Self::State, out: &mut Vec<i64>) -> Result<Option<i64>, GameError> {
        self.game.evaluate(&s.state, out)
    }
}

fn strict(file: &str, params: &[&str]) -> Strict<impl Game> {
    Strict::new(load_interp(file, params).unwrap_or_else(|e| panic!("{e}")))
}

/// The tree builder (one thread and two, with labels), the size guess, the
/// double oracle (every variant) and max^n's state search keep the
/// contract, and the wrapper changes no tree.
#[test]
fn every_walker_applies_only_at_the_latest_advance() {
    for (file, params) in [("leduc.gala", &[][..]), ("phantom_ttt.gala", &["marks=3"][..]), ("nim3.gala", &[][..])] {
        let game = strict(file, params);
        let plain = load_interp(file, params).unwrap_or_else(|e| panic!("{e}"));
        let want = digest(&build(&plain, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}")).0);
        let options = BuildOptions { labels: true, ..BuildOptions::default() };
        let one = build(&game, &options).unwrap_or_else(|e| panic!("{file}: {e}")).0;
        let make = || Some(strict(file, params));
        let two = build_parallel(&make, &options, 2).unwrap_or_else(|e| panic!("{file}: {e}")).0;
        assert_eq!(digest(&one), want, "{file}: the wrapper changed the tree");
        assert_eq!(digest(&two), want, "{file}: two threads");
        assert!(looks_smaller_than(&game, 1e9), "{file}");
    }
    for (file, params) in
        [("leduc.gala", &[][..]), ("phantom_ttt.gala", &["marks=3"][..]), ("search_game.gala", &[][..])]
    {
        crate::double_oracle::check_game(&strict(file, params), file).expect("two-player zero-sum");
    }
    for transpositions in [false, true] {
        let options = states::StateOptions { transpositions, depth: None, memory: MemoryLimit::NONE };
        states::search(&strict("nim3.gala", &[]), Ties::First, options).unwrap_or_else(|e| panic!("{e}"));
    }
}
