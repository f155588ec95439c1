//! How many game states the derivation of the public game holds at once
//! (`galac_solvers::vector::from_game`), counted by a wrapper whose states
//! count themselves: the deals before the first moves are kept as their
//! chance node and outcome where the game's states keep their candidates
//! (the interpreter) or the game holds them apart from its buffers
//! (generated code), and once the root's first child is known only the
//! first deal of each of its sets keeps a state, so the states held at
//! once are far fewer than the deals (they were a delta and a donor each),
//! interpreted or compiled (whose donors keep a state per distinct
//! private value, not one a deal).

use std::cell::Cell;

use galac_runtime::game::{Donors, Game, GameError, GameInfo, Held, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::rational::Ratio;
use galac_solvers::vector::from_game;

use crate::compiled::holdem_river;
use crate::games::{instantiate, load_interp};

thread_local! {
    /// The wrapper's states alive on this thread, and the most at once.
    static LIVE: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// The wrapper's `advance` calls on this thread.
    static ADVANCES: Cell<u64> = const { Cell::new(0) };
    /// The wrapper's `action_label` calls on this thread.
    static LABELS: Cell<u64> = const { Cell::new(0) };
}

/// A state that counts itself in [`LIVE`].
struct Live<S>(S);

impl<S> Live<S> {
    fn new(s: S) -> Self {
        LIVE.with(|l| {
            let (now, most) = l.get();
            l.set((now + 1, most.max(now + 1)));
        });
        Live(s)
    }
}

impl<S: Clone> Clone for Live<S> {
    fn clone(&self) -> Self {
        Live::new(self.0.clone())
    }
}

impl<S> Drop for Live<S> {
    fn drop(&mut self) {
        LIVE.with(|l| l.set((l.get().0 - 1, l.get().1)));
    }
}

/// A game forwarding every hook to `game`, its states and its `advance`
/// calls counted; its donors kept by `game` in `donors` (one pushed into
/// the walk's store per deal, empty, so that it counts the deals).
/// [`Game::chance_may_follow`] is `game`'s where `tells`, else the
/// default; [`Game::action_key`] `game`'s where `keys`, else the default
/// (none), its `action_label` calls counted.
struct Counted<G: Game> {
    game: G,
    donors: std::cell::RefCell<Donors<G::State>>,
    tells: bool,
    keys: bool,
}

impl<G: Game> Game for Counted<G> {
    type State = Live<G::State>;
    type Specialised = Self;

    fn info(&self) -> &GameInfo {
        self.game.info()
    }
    fn root(&self) -> Result<Self::State, GameError> {
        self.game.root().map(Live::new)
    }
    fn advance(&self, s: &mut Self::State, info: &mut InfoInterner) -> Result<Node, GameError> {
        ADVANCES.with(|a| a.set(a.get() + 1));
        self.game.advance(&mut s.0, info)
    }
    fn chance_may_follow(&self, s: &Self::State) -> bool {
        !self.tells || self.game.chance_may_follow(&s.0)
    }
    fn apply(&self, s: &mut Self::State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        self.game.apply(&mut s.0, action, info)
    }
    fn chance_probs(&self, s: &Self::State, out: &mut Vec<Ratio>) {
        self.game.chance_probs(&s.0, out)
    }
    fn payoffs<'a>(&self, s: &'a Self::State, buf: &'a mut Vec<i64>) -> &'a [i64] {
        self.game.payoffs(&s.0, buf)
    }
    fn action_label(&self, s: &Self::State, action: u32) -> String {
        LABELS.with(|l| l.set(l.get() + 1));
        self.game.action_label(&s.0, action)
    }
    fn action_key(&self, s: &Self::State, action: u32, out: &mut Vec<u64>) -> bool {
        self.keys && self.game.action_key(&s.0, action, out)
    }
    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
        self.game.infoset_label(info, infoset)
    }
    fn representative(&self) -> Result<String, String> {
        self.game.representative()
    }
    fn advance_public(&self, s: &mut Self::State, info: &mut InfoInterner) -> Result<Option<Node>, GameError> {
        self.game.advance_public(&mut s.0, info)
    }
    fn advance_payoff(&self, s: &mut Self::State, info: &mut InfoInterner) -> Result<Node, GameError> {
        self.game.advance_payoff(&mut s.0, info)
    }
    fn course_key(&self, s: &Self::State, out: &mut Vec<u64>) -> bool {
        self.game.course_key(&s.0, out)
    }
    fn delta(&self, base: &Self::State, s: &Self::State) -> Self::State {
        Live::new(self.game.delta(&base.0, &s.0))
    }
    fn undelta(&self, into: &mut Self::State, delta: &Self::State) {
        self.game.undelta(&mut into.0, &delta.0)
    }
    fn keeps_candidates(&self) -> bool {
        self.game.keeps_candidates()
    }
    fn release_buffers(&self) {
        self.game.release_buffers()
    }
    fn hold_candidates(&self, s: &Self::State) -> Option<Held> {
        self.game.hold_candidates(&s.0)
    }
    fn apply_held(&self, s: &mut Self::State, held: &Held, a: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        self.game.apply_held(&mut s.0, held, a, info)
    }
    fn donor(&self, s: &Self::State, donors: &mut Donors<Self::State>) {
        self.game.donor(&s.0, &mut self.donors.borrow_mut());
        donors.push_values(std::iter::empty());
    }
    fn transplant(&self, into: &mut Self::State, _: &Donors<Self::State>, deal: u32) {
        self.game.transplant(&mut into.0, &self.donors.borrow(), deal)
    }
    fn strengths(&self, s: &Self::State) -> Option<[i64; 2]> {
        self.game.strengths(&s.0)
    }
}

/// On a river of a few hundred deals, interpreted, the derivation holds
/// at most a tenth of a state a deal at once (it held two a deal: each
/// deal's delta and its donor), and gives the public game of the game
/// itself.
#[test]
fn the_derivation_holds_few_states_a_deal() {
    let game = load_interp("holdem_river.gala", &RIVER).unwrap_or_else(|e| panic!("{e}"));
    holds_few_states_a_deal(game, "interpreted");
}

/// The same compiled: the deals are kept as their chance node and outcome
/// there too, the node's candidates held apart from the game's buffers
/// ([`Game::hold_candidates`]), and the donors as a state per distinct
/// private value ([`Donors::push_exemplar`]): it held a state a deal
/// (the deals' deltas) and a whole state a deal as its donor.
#[test]
fn the_compiled_derivation_holds_few_states_a_deal() {
    let game = instantiate(&holdem_river::Family, &RIVER).unwrap_or_else(|e| panic!("{e}"));
    holds_few_states_a_deal(game, "compiled");
}

/// The ranges of [`holds_few_states_a_deal`]'s river: a few hundred deals.
const RIVER: [&str; 2] = ["oop_range=AA,KK,QQ,AKs,KQs", "ip_range=JJ,TT,99,AQs,AJs,KJs"];

/// `game`'s derivation holds at most a tenth of a state a deal at once,
/// its donors keep under a tenth of a state a deal, and it gives the
/// public game of `game` itself.
fn holds_few_states_a_deal<G: Game>(game: G, what: &str) {
    let plain = from_game(&game).unwrap_or_else(|e| panic!("{what}: {e}"));
    let deals = plain.game.states.iter().map(|s| s.labels.len()).product::<usize>();
    let counted = Counted { game, donors: std::cell::RefCell::new(Donors::new(0)), tells: true, keys: true };
    LIVE.with(|l| l.set((0, 0)));
    let derived = from_game(&counted).unwrap_or_else(|e| panic!("{what}: {e}"));
    let most = LIVE.with(|l| l.get().1);
    assert!(derived.game == plain.game && derived.advanced == plain.advanced, "{what}");
    assert!(deals > 300, "{what}: {deals} pairs of hands");
    assert!(10 * most < deals, "{what}: {most} states held at once for about {deals} deals");
    // A donor a deal (the pairs of hands above include those sharing a card).
    let (donors, pairs) = (counted.donors.borrow(), deals);
    let (deals, kept) = (donors.len(), donors.states_kept());
    assert!(deals > 300 && deals <= pairs, "{what}: {deals} donors for {pairs} pairs of hands");
    assert!(10 * kept < deals, "{what}: the donors keep {kept} states for {deals} deals");
}

/// The deals' enumeration advances a chance node's outcome only where
/// another chance node may follow it ([`Game::chance_may_follow`]): on a
/// river whose one chance node deals every pair of hands, the interpreter
/// says none follows, and the derivation advances one state a deal fewer
/// than where every outcome is advanced to tell, to the same public game.
#[test]
fn the_deals_are_not_advanced_where_no_chance_follows() {
    let params = ["oop_range=AA,KK,AKs", "ip_range=JJ,TT,AQs"];
    let run = |tells: bool| {
        let game = load_interp("holdem_river.gala", &params).unwrap_or_else(|e| panic!("{e}"));
        let mut root = game.root().expect("a root");
        let deals = match game.advance(&mut root, &mut InfoInterner::new()).expect("advances") {
            Node::Chance { n_outcomes } => u64::from(n_outcomes),
            other => panic!("the river starts with {other:?}"),
        };
        let counted = Counted { game, donors: std::cell::RefCell::new(Donors::new(0)), tells, keys: true };
        ADVANCES.with(|a| a.set(0));
        let derived = from_game(&counted).unwrap_or_else(|e| panic!("{e}"));
        (derived, ADVANCES.with(Cell::get), deals)
    };
    let ((told, fewer, deals), (default, more, _)) = (run(true), run(false));
    assert!(told.game == default.game && told.advanced == default.advanced);
    assert!(deals > 50, "{deals} deals");
    assert_eq!(more - fewer, deals, "{fewer} against {more} advances");
}

/// A chance node whose outcomes read private values (the turn's river:
/// not a card of either hand) is worked out per deal present, and its
/// outcomes grouped by label: where the game names each outcome's label
/// by words ([`Game::action_key`], the interpreter's candidate values),
/// a label is made once per distinct outcome, not per deal and outcome,
/// to the same public game as labelling each (the default).
#[test]
fn the_rivers_outcomes_are_labelled_once_per_card() {
    let params = ["oop_range=AA,KK,AKs", "ip_range=JJ,TT,AQs", "stack=300"];
    let run = |keys: bool| {
        let game = load_interp("holdem_turn.gala", &params).unwrap_or_else(|e| panic!("{e}"));
        let counted = Counted { game, donors: std::cell::RefCell::new(Donors::new(0)), tells: true, keys };
        LABELS.with(|l| l.set(0));
        let derived = from_game(&counted).unwrap_or_else(|e| panic!("{e}"));
        (derived, LABELS.with(Cell::get))
    };
    let ((keyed, few), (labelled, many)) = (run(true), run(false));
    assert!(keyed.game == labelled.game && keyed.advanced == labelled.advanced);
    let game = load_interp("holdem_turn.gala", &params).unwrap_or_else(|e| panic!("{e}"));
    let mut root = game.root().expect("a root");
    let deals = match game.advance(&mut root, &mut InfoInterner::new()).expect("advances") {
        Node::Chance { n_outcomes } => u64::from(n_outcomes),
        other => panic!("the turn starts with {other:?}"),
    };
    // Each deal sees 44 river cards: labelled each without keys, and
    // with them each card once (the decisions' moves are labelled alike).
    assert!(deals > 100, "{deals} deals");
    assert!(many - few >= 40 * deals, "{few} labels with keys against {many}, {deals} deals");
}

/// Generated code names each action's label by words as the interpreter
/// does ([`Game::action_key`]): at the river spot's deal (a chance node of
/// a few hundred outcomes) and at the first decision, every action has a
/// key, and two actions have equal keys exactly when their labels are
/// equal, in both executions.
#[test]
fn both_executions_key_the_labels_of_actions() {
    let compiled = instantiate(&holdem_river::Family, &RIVER).unwrap_or_else(|e| panic!("{e}"));
    let interpreted = load_interp("holdem_river.gala", &RIVER).unwrap_or_else(|e| panic!("{e}"));
    keys_name_labels(&compiled, "compiled");
    keys_name_labels(&interpreted, "interpreted");
}

/// [`both_executions_key_the_labels_of_actions`] on `game`.
fn keys_name_labels<G: Game>(game: &G, what: &str) {
    let mut info = InfoInterner::new();
    let mut state = game.root().unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut words = Vec::new();
    for node in ["the deal", "the first decision"] {
        let n = match game.advance(&mut state, &mut info).unwrap_or_else(|e| panic!("{what}: {e}")) {
            Node::Chance { n_outcomes } => n_outcomes,
            Node::Decision { n_actions, .. } => n_actions,
            Node::Terminal => panic!("{what}: {node} is a leaf"),
        };
        assert!(n > 1, "{what}: {node} has {n} actions");
        let mut by_key = std::collections::HashMap::new();
        let mut by_label = std::collections::HashMap::new();
        for a in 0..n {
            assert!(game.action_key(&state, a, &mut words), "{what}: {node}'s action {a} has no key");
            let label = game.action_label(&state, a);
            assert_eq!(by_key.entry(words.clone()).or_insert_with(|| label.clone()), &label, "{what}: {node}");
            assert_eq!(by_label.entry(label).or_insert_with(|| words.clone()), &words, "{what}: {node}");
        }
        game.apply(&mut state, 0, &mut info).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}
