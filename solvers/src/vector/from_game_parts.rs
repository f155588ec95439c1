//! The types [`super::from_game`] builds with and returns: what the deals
//! of a public node do there ([`Step`]), a chance node's public outcomes
//! in a representative walk ([`Outcomes`]), the game's information sets'
//! names for the draft ([`GameSets`]) and the result ([`FromGame`]). A
//! leaf, so that the walk's file holds the walk.

use std::rc::Rc;

use galac_runtime::game::{Game, Node};
use galac_runtime::info::InfoInterner;

use super::draft::{Allowed, Sets};
use super::game::PublicGame;

/// A public game made from the game's rules, with the interner whose
/// information sets its decisions name.
pub struct FromGame {
    pub game: PublicGame,
    /// Per decision of the public game: the node and the interner's
    /// information sets there, each with its player's private state.
    /// (Below both players' first moves, a representative walk records
    /// only the representative's set: see `representative`.)
    pub decisions: Vec<(u32, Vec<(u32, u32)>)>,
    pub info: InfoInterner,
    /// `Ok(the proof)` when one representative deal walked the public tree
    /// below both players' first moves (its decisions there name no
    /// information set per private state), `Err(why not)` when every deal
    /// walked it.
    pub representative: Result<String, String>,
    /// How many game states the derivation advanced (past the deal's
    /// enumeration): the walk over every deal's is about the scalar
    /// tree's node count.
    pub advanced: u64,
}

/// The game's information sets, for the draft's labels and messages.
pub(super) struct GameSets<'g, G: Game> {
    pub game: &'g G,
    pub info: &'g InfoInterner,
}

impl<G: Game> Sets for GameSets<'_, G> {
    fn label(&self, set: u32) -> String {
        self.game.infoset_label(self.info, set)
    }

    fn name(&self, set: u32) -> String {
        match self.label(set) {
            label if label.is_empty() => format!("information set {set}"),
            label => format!("`{label}`"),
        }
    }

    fn player(&self, set: u32) -> usize {
        self.info.infoset_key(set).player as usize
    }
}

/// What the deals of a public node do there, each state advanced once and
/// its children made right after (a compiled game keeps a node's
/// candidates only until its next `advance`).
pub(super) enum Step<S> {
    Leaf(Vec<(u32, [i64; 2])>),
    /// Per deal (deal, set, moves offered); per action its children (or
    /// the first action's only, and in `parents` each deal's state before
    /// its `advance`, the first whole and the others as
    /// [`Game::delta`]s against it, from which another action's children
    /// are made when its subtree is built, advanced again for the
    /// candidates); the
    /// player and the first deal's action labels.
    Decision {
        player: usize,
        sets: Vec<(u32, u32, u32)>,
        kids: Vec<Vec<(u32, S)>>,
        parents: Vec<(u32, S)>,
        labels: Vec<String>,
    },
    Chance(Vec<Item<S>>),
}

/// An outcome of one deal's chance node: (deal, child, probability, label).
pub(super) type Item<S> = (u32, S, f64, String);

/// A chance node's public outcomes in a representative walk: per outcome
/// (grouped by label, in order of first appearance), its label, the deals
/// it allows with their probability, and the first of them with the
/// index of the outcome in that deal's list (the representative below).
pub(super) struct Outcomes {
    pub deals: Rc<Vec<u32>>,
    pub labels: Vec<String>,
    pub allowed: Rc<Vec<Allowed>>,
    pub present: Vec<Rc<Vec<u32>>>,
    pub first: Vec<(u32, u32)>,
}

impl<S> Step<S> {
    /// The empty step of a node of `node`'s kind (labels from `state`, the
    /// first deal's, just advanced).
    pub fn first<G: Game<State = S>>(game: &G, state: &S, node: Node) -> Step<S> {
        match node {
            Node::Terminal => Step::Leaf(Vec::new()),
            Node::Decision { player, n_actions, .. } => Step::Decision {
                player: player as usize,
                sets: Vec::new(),
                kids: Vec::new(),
                parents: Vec::new(),
                labels: (0..n_actions).map(|a| game.action_label(state, a)).collect(),
            },
            Node::Chance { .. } => Step::Chance(Vec::new()),
        }
    }
}
