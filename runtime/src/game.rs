//! The interface between a game and everything that explores it.
//!
//! Both the IR interpreter (in the compiler) and the Rust code generated for
//! a game implement [`Game`]. A state runs its deterministic bookkeeping in
//! [`Game::advance`] until the next node of the tree: a decision, a chance
//! node or a leaf. Information states are interned in the caller's
//! [`InfoInterner`], so information sets are exact.

pub use crate::donors::Donors;
pub use crate::error::GameError;
use crate::info::InfoInterner;
use crate::rational::Ratio;

/// What a state is waiting for after [`Game::advance`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// `player` chooses one of `n_actions` actions in information set
    /// `infoset` (an index from [`InfoInterner::infoset`]).
    Decision { player: u32, infoset: u32, n_actions: u32 },
    /// Nature picks one of `n_outcomes`; see [`Game::chance_probs`].
    Chance { n_outcomes: u32 },
    /// The play is over; see [`Game::payoffs`].
    Terminal,
}

/// Static facts about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    pub name: String,
    pub players: Vec<String>,
    /// Param names and the values this instance uses.
    pub params: Vec<(String, String)>,
    /// A checksum of the program the game was compiled from (its rules,
    /// not their layout or comments: `galac_compiler::ir::Program::fingerprint`),
    /// so that a file made from one version of a game is refused for an
    /// edited one of the same name; 0 for a game written in Rust.
    pub program: u64,
}

/// [`Game::advance`], not inlined. Generated games inline `advance` into
/// the builder's loop; other callers (run once per build, or per play of
/// the size guess) go through here, so the step function is compiled
/// twice in all, not once per caller.
#[inline(never)]
pub fn advance_out_of_line<G: Game>(
    game: &G,
    state: &mut G::State,
    info: &mut InfoInterner,
) -> Result<Node, GameError> {
    game.advance(state, info)
}

/// A chance node's candidates held apart from the game's buffers
/// ([`Game::hold_candidates`]; generated code's list of the node's
/// values), read by [`Game::apply_held`].
pub struct Held(Box<dyn std::any::Any>);

impl Held {
    /// Holds `candidates`.
    pub fn new<T: 'static>(candidates: T) -> Held {
        Held(Box::new(candidates))
    }

    /// The candidates held, if they are a `T`.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }
}

/// A game: a rule book that produces states and moves them along.
pub trait Game {
    type State: Clone;

    /// The same game compiled for the values of its params, if galac
    /// made such a copy (arrays whose lengths are params held as Rust
    /// arrays: `codegen`'s fixed arrays); `Self` for games without one.
    type Specialised: Game;

    /// The copy compiled for this game's param values, if there is one
    /// and the values are the ones it was compiled for. The tree builders
    /// build with it: the same tree, faster.
    fn specialised(&self) -> Option<Self::Specialised> {
        None
    }

    fn info(&self) -> &GameInfo;

    /// The state before anything happened.
    fn root(&self) -> Result<Self::State, GameError>;

    /// Runs the bookkeeping up to the next node and says what it is.
    fn advance(&self, state: &mut Self::State, info: &mut InfoInterner) -> Result<Node, GameError>;

    /// Takes action (or chance outcome) `action` at the node `advance` returned.
    ///
    /// Only on (a copy of) the state of the game's latest `advance` call:
    /// a compiled game keeps the node's candidates and odds until its next
    /// `advance`, of any state. So a node's children are all made before
    /// any of them is advanced (the tree builder, max^n), or the node is
    /// advanced again on a copy before each child is made (the double
    /// oracle's explorer). The same holds for [`Game::chance_probs`] and
    /// [`Game::action_label`].
    fn apply(&self, state: &mut Self::State, action: u32, info: &mut InfoInterner) -> Result<(), GameError>;

    /// Exact probabilities of the outcomes at a chance node.
    fn chance_probs(&self, state: &Self::State, out: &mut Vec<Ratio>);

    /// [`Game::chance_probs`]' probabilities handed to `each` in order,
    /// for a caller that keeps them in a form of its own (the vector
    /// derivation's `DealProbs`: one where they are equal). A chance node
    /// over every hand has a million, which a game whose odds keep them
    /// compact ([`crate::ops::chance::Odds`], the interpreter's) gives
    /// without listing them. By default, listed first. `each` must not
    /// call the game (generated code lends it its scratch's odds).
    fn each_chance_prob(&self, state: &Self::State, each: impl FnMut(Ratio)) {
        let mut probs = Vec::new();
        self.chance_probs(state, &mut probs);
        probs.into_iter().for_each(each);
    }

    /// The payoff vector at a terminal node (one entry per player): a slice
    /// of the state if it holds one, else written into `buf`.
    fn payoffs<'a>(&self, state: &'a Self::State, buf: &'a mut Vec<i64>) -> &'a [i64];

    /// A label of action `action` at the current node, in the game's terms.
    fn action_label(&self, state: &Self::State, action: u32) -> String;

    /// Writes into `out` words naming action `action`'s label at the node
    /// `state` waits at: two actions with equal words, at this node or
    /// another, have equal [`Game::action_label`]s, so that a caller
    /// labelling many (a chance node's outcomes per deal) makes each label
    /// once. Returns false when the game cannot say (the default).
    fn action_key(&self, state: &Self::State, action: u32, out: &mut Vec<u64>) -> bool {
        let _ = (state, action, out);
        false
    }

    /// A readable description of an information set (the player's facts).
    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String;

    /// Writes into `out` the words of the game's position in `state`, taken
    /// after [`Game::root`] or [`Game::apply`] and before [`Game::advance`]:
    /// where the flow is, the variables, the locals still to be read and the
    /// payoffs so far, but not the information states. Two states with equal
    /// words have the same subtree (moves, chance odds and payoffs; the
    /// information sets aside), so a perfect-information search can search
    /// it once (transpositions). Returns false when the game cannot say
    /// (the default).
    fn position_key(&self, state: &Self::State, out: &mut Vec<u64>) -> bool {
        let _ = (state, out);
        false
    }

    /// The game's own estimate of each player's payoff at the node `state`
    /// waits at (after [`Game::advance`]), for a depth-limited search: the
    /// game's `evaluate` fn, called with the state variables it names. Writes
    /// the numerators into `out` and returns their common denominator, or
    /// `None` when the game has no such fn (the default).
    fn evaluate(&self, state: &Self::State, out: &mut Vec<i64>) -> Result<Option<i64>, GameError> {
        let _ = (state, out);
        Ok(None)
    }

    /// Whether one representative deal may walk this game's public tree
    /// (issue 45, `galac_solvers::vector::from_game`): `Ok` with the proof
    /// in one line when the game's private values (dealt by chance before
    /// the first move, not shown to every player) are read only in the
    /// deal, by later chance choices (card removal) and in the payoff's
    /// code, and the game implements [`Game::advance_public`],
    /// [`Game::course_key`] and [`Game::transplant`] (the interpreter and
    /// generated code both do, from the compiler's `public` proof); else
    /// why not (the default: the game cannot say).
    fn representative(&self) -> Result<String, String> {
        Err("this game does not implement the representative walk's hooks".into())
    }

    /// [`Game::advance`], but stopping at the entry of the payoff's code
    /// (the code from which no choice is reachable): `None` there, the
    /// state not advanced into it (every deal's course so far being the
    /// same, only that code and later chance choices tell deals apart).
    /// [`Game::advance_payoff`] goes on from such a state. Only where
    /// [`Game::representative`] is `Ok`.
    fn advance_public(&self, state: &mut Self::State, info: &mut InfoInterner) -> Result<Option<Node>, GameError> {
        self.advance(state, info).map(Some)
    }

    /// [`Game::advance`] from a state [`Game::advance_public`] stopped at
    /// the payoff's code, to the end of the play (the default: `advance`;
    /// generated code runs a cold copy of the payoff's code, whose blocks
    /// `advance` may have inlined into their predecessors, so that the
    /// hot `advance` has no way in there).
    fn advance_payoff(&self, state: &mut Self::State, info: &mut InfoInterner) -> Result<Node, GameError> {
        self.advance(state, info)
    }

    /// For a state at a chance node (after [`Game::advance`]) or stopped
    /// at the payoff's code ([`Game::advance_public`]): writes into `out`
    /// where it is, the payoffs so far and the public values that code
    /// reads, so that two states with equal words do the same there for
    /// every deal's private values; returns whether that code reads a
    /// private value (if not, one deal's answer is every deal's). Only
    /// where [`Game::representative`] is `Ok`.
    fn course_key(&self, state: &Self::State, out: &mut Vec<u64>) -> bool {
        out.clear();
        let _ = state;
        true
    }

    /// `state` as what differs from `base` (another state at the same
    /// point of the play: another deal's before the same `advance`), to
    /// be kept many times over (a state per deal before the first moves);
    /// [`Game::undelta`] puts it back. The default keeps the whole state.
    fn delta(&self, base: &Self::State, state: &Self::State) -> Self::State {
        let _ = base;
        state.clone()
    }

    /// Makes `into`, a copy of the `base` a [`Game::delta`] was taken
    /// against, the state the delta was taken of.
    fn undelta(&self, into: &mut Self::State, delta: &Self::State) {
        into.clone_from(delta);
    }

    /// Whether a state waiting at a choice holds that choice's candidates,
    /// so that a copy of it may take any of them by [`Game::apply`] after
    /// other states were advanced (the interpreter's does). The default:
    /// no, as generated code keeps a node's candidates only until the next
    /// `advance` of any state.
    fn keeps_candidates(&self) -> bool {
        false
    }

    /// For a game whose states do not keep their candidates
    /// ([`Game::keeps_candidates`]): the candidates of the chance node
    /// `state` was just advanced to (the last `advance` of any state),
    /// taken out of the game's buffers and held apart, so that a copy of
    /// `state` may take any of them by [`Game::apply_held`] after other
    /// states were advanced. `None` (the default) where the game cannot.
    /// The node's odds may be let go with them: [`Game::chance_probs`] is
    /// read before.
    fn hold_candidates(&self, state: &Self::State) -> Option<Held> {
        let _ = state;
        None
    }

    /// Lets go of what the game keeps from node to node (generated code's
    /// scratch: the last choice's candidates and odds, in buffers as large
    /// as the largest node met: a deal each where one chance node deals
    /// every hand), so that a caller about to hold much does not keep the
    /// buffers of a node long gone (the tree's size estimate's deal, before
    /// the public game's derivation). The next `advance` makes them again;
    /// a state advanced before may not be applied after. The default does
    /// nothing.
    fn release_buffers(&self) {}

    /// [`Game::apply`] on a copy of a state whose candidates `held` are
    /// ([`Game::hold_candidates`]).
    fn apply_held(
        &self,
        state: &mut Self::State,
        held: &Held,
        action: u32,
        info: &mut InfoInterner,
    ) -> Result<(), GameError> {
        let _ = held;
        self.apply(state, action, info)
    }

    /// Whether an outcome of the chance node `state` waits at (advanced to
    /// it), once taken and advanced, may stop at another chance node
    /// before any decision or the end: the enumeration of the deals
    /// advances each outcome to tell. The default: it may (the game cannot
    /// tell without advancing).
    fn chance_may_follow(&self, _state: &Self::State) -> bool {
        true
    }

    /// Keeps in `donors` what [`Game::transplant`] needs of `state`, the
    /// next deal's state at its first move: its private values, kept per
    /// deal for the whole derivation, so a game whose states are large
    /// keeps only those (the interpreter: the private slots' values,
    /// interned, [`Donors::push_values`]; generated code: a state per
    /// distinct value, [`Donors::push_exemplar`]). The default keeps the
    /// whole state. A donor is only read by `transplant` (the pending facts its
    /// information states name may be forgotten by the interner). Only
    /// where [`Game::representative`] is `Ok`.
    fn donor(&self, state: &Self::State, donors: &mut Donors<Self::State>) {
        donors.push_state(state.clone());
    }

    /// Copies the private values of `deal` (what [`Game::donor`] kept in
    /// `donors` of its state at its first move) into `into` (a state of
    /// another deal, later in the same public course): `into` is then the
    /// state of `deal` there, its information states aside. Only where
    /// [`Game::representative`] is `Ok` (private values are set only in the
    /// deal and the payoff's code, so between them they hold the deal's
    /// values).
    fn transplant(&self, into: &mut Self::State, donors: &Donors<Self::State>, deal: u32) {
        let _ = (into, donors, deal);
    }

    /// For a state whose payoff's code ran to its end ([`Game::advance_payoff`]
    /// returned [`Node::Terminal`]): when that code is a showdown, the two
    /// strengths it compared, player 0's then player 1's; `None` otherwise
    /// (the default). A showdown (the compiler's `public` proof) pays what
    /// follows from the public values and how the first strength compares
    /// with the second, and each strength follows from its player's private
    /// values and the public ones, so a derivation runs the payoff's code
    /// once per private state rather than once per deal. Only where
    /// [`Game::representative`] is `Ok`.
    fn strengths(&self, state: &Self::State) -> Option<[i64; 2]> {
        let _ = state;
        None
    }
}

/// Default number of evaluation steps allowed between two nodes of the tree.
pub const DEFAULT_STEP_LIMIT: u64 = 1_000_000;

/// A family of games: one game description whose params are set at run
/// time. A compiled solver binary is one family; `main` runs its CLI.
pub trait Family: Sync {
    type Game: Game;
    /// The game's name, for `--help`.
    fn name(&self) -> &str;
    /// `name: type = default` of each param, for `--help`.
    fn param_help(&self) -> String;
    /// Makes the game with `name=value` overrides of its params; the error
    /// says which override is wrong.
    fn instantiate(&self, overrides: &[String], step_limit: u64) -> Result<Self::Game, String>;
}
