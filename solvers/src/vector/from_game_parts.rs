//! The types [`super::from_game`] builds with and returns: the deals'
//! states at a public node ([`Entries`], the deals as enumerated by
//! [`deals`]), what they do there ([`Step`]), a chance node's public
//! outcomes in a representative walk ([`Outcomes`]), the game's
//! information sets' names for the draft ([`GameSets`]), the root's look
//! ahead ([`Ahead`]) and the result ([`FromGame`]), with the helpers that
//! group a chance node's outcomes ([`by_label`], [`allowed`]) and share
//! lists of deals ([`interned`]). A leaf, so that the walk's file holds
//! the walk.

use std::rc::Rc;

use galac_runtime::game::{Game, Node};
use galac_runtime::info::InfoInterner;
use rustc_hash::{FxHashMap, FxHashSet};

use super::draft::{Allowed, DealSets, Deals, Picked, SetIds, Sets};
pub(super) use super::from_game::dealt::{deals, Parents};
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
    /// Per deal its set and the moves offered; per action its children (or
    /// the first action's only, and in `parents` each deal's state before
    /// its `advance`, from which another action's children are made when
    /// its subtree is built, advanced again for the candidates); the
    /// player and the first deal's action labels.
    Decision {
        player: usize,
        sets: DealSets,
        kids: Vec<Vec<(u32, S)>>,
        parents: Parents<S>,
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
    pub deals: Rc<Deals>,
    pub labels: Vec<String>,
    pub allowed: Rc<Vec<Allowed>>,
    pub present: Vec<Rc<Deals>>,
    pub first: Vec<(u32, u32)>,
}

impl<S> Step<S> {
    /// The empty step of a node of `node`'s kind (labels from `state`, the
    /// first deal's, just advanced) for `deals` deals.
    pub fn first<G: Game<State = S>>(game: &G, state: &S, node: Node, deals: usize) -> Step<S> {
        match node {
            Node::Terminal => Step::Leaf(Vec::new()),
            Node::Decision { player, n_actions, .. } => Step::Decision {
                player: player as usize,
                sets: DealSets::with_capacity(deals),
                kids: Vec::new(),
                parents: Parents::Deltas(Vec::new()),
                labels: (0..n_actions).map(|a| game.action_label(state, a)).collect(),
            },
            Node::Chance { .. } => Step::Chance(Vec::new()),
        }
    }
}

/// The deals' states at a public node, each before its `advance`: held,
/// the deals as enumerated, or made from their parents' (a decision's
/// states, kept by `from_game`'s `Builder::step`) by advancing each again
/// and taking the action.
pub(super) enum Entries<'p, S> {
    Held(Vec<(u32, S)>),
    Dealt(Parents<S>),
    Children(&'p Parents<S>, u32),
}

impl<'p, S> Entries<'p, S> {
    /// The states held, the deals as enumerated, the parents the states
    /// are made from and the action taken from them (one of the three is
    /// not empty; the deals are made without an action).
    #[allow(clippy::type_complexity)]
    pub fn split(self) -> (Vec<(u32, S)>, Option<Parents<S>>, Option<&'p Parents<S>>, Option<u32>) {
        match self {
            Entries::Held(held) => (held, None, None, None),
            Entries::Dealt(dealt) => (Vec::new(), Some(dealt), None, None),
            Entries::Children(from, action) => (Vec::new(), None, Some(from), Some(action)),
        }
    }
}

/// A chance node's outcomes over its deals (`items`) grouped into public
/// outcomes by label, in order of first appearance: each group's items,
/// the deals there, and per group the deals it allows with their
/// probability.
pub(super) fn by_label<S>(items: &[Item<S>]) -> (Vec<Vec<usize>>, Deals, Vec<Allowed>) {
    let mut group_of: FxHashMap<&str, usize> = FxHashMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let g = *group_of.entry(item.3.as_str()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let mut deals: Vec<u32> = items.iter().map(|item| item.0).collect();
    deals.dedup();
    let deals = deals.into();
    let outcomes =
        groups.iter().map(|g| Allowed::Each(g.iter().map(|&i| (items[i].0, items[i].2)).collect())).collect();
    (groups, deals, outcomes)
}

/// Per public outcome of a chance node in a representative walk, as it is
/// met: its deals (by position among the deals present), the first's
/// probability, and each deal's once one differs from it.
pub(super) type Lists = Vec<(Picked, f64, Option<Vec<(u32, f64)>>)>;

/// The outcomes of `lists` (of the deals `parent`) as the draft keeps
/// them, and per outcome the deals present below it: an outcome whose
/// deals have one probability is that and the one shared list of its
/// deals.
pub(super) fn allowed(
    lists: Lists,
    parent: &Rc<Deals>,
    sets: &mut FxHashSet<Rc<Deals>>,
) -> (Vec<Allowed>, Vec<Rc<Deals>>) {
    let (mut allowed, mut present) = (Vec::with_capacity(lists.len()), Vec::with_capacity(lists.len()));
    for (picked, prob, each) in lists {
        match each {
            None => {
                let set = interned(sets, picked.deals(parent));
                allowed.push(Allowed::Same(prob, set.clone()));
                present.push(set);
            }
            Some(mut each) => {
                // Kept for the whole walk, so without the slack.
                each.shrink_to_fit();
                present.push(interned(sets, Rc::new(each.iter().map(|&(d, _)| d).collect::<Vec<u32>>().into())));
                allowed.push(Allowed::Each(each));
            }
        }
    }
    (allowed, present)
}

/// The one shared list of these deals among `sets` (a walk's memos know
/// lists by address, so each is kept once and alive).
pub(super) fn interned(sets: &mut FxHashSet<Rc<Deals>>, deals: Rc<Deals>) -> Rc<Deals> {
    match sets.get(&*deals) {
        Some(set) => set.clone(),
        None => {
            sets.insert(deals.clone());
            deals
        }
    }
}

/// The root's look ahead: per deal as enumerated (its index here), its
/// set at the root's first child where that is the other player's first
/// decision, and the moves offered there, the same for every deal (else
/// the look ahead is given up and the first child's step advances the
/// deals, whose draft decision then refuses the game): a `u16` a deal
/// while the sets fit ([`SetIds`]).
#[derive(Default)]
pub(super) struct Ahead {
    sets: SetIds,
    moves: u32,
}

impl Ahead {
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The set and moves offered of `deal`, the `i`th parent, if known.
    pub fn get(&self, i: usize, deal: u32) -> Option<(u32, u32)> {
        self.sets.get(i).filter(|_| deal as usize == i).map(|set| (set, self.moves))
    }

    /// Each deal and its set, in order.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = (u32, u32)> + Clone + '_ {
        self.sets.iter().enumerate().map(|(d, set)| (d as u32, set))
    }

    /// `deal` is at `set` there, offered `moves`: kept if it is the next
    /// deal and offered the first's moves, else the look ahead given up.
    pub fn push(&mut self, deal: u32, set: u32, moves: u32, deals: usize) {
        if self.sets.is_empty() {
            self.sets = SetIds::with_capacity(deals);
            self.moves = moves;
        }
        if deal as usize == self.sets.len() && moves == self.moves {
            self.sets.push(set);
        } else {
            *self = Ahead::default();
        }
    }
}
