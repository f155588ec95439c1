//! The types [`super::from_game`] builds with and returns: the deals'
//! states at a public node ([`Entries`], the deals as enumerated by
//! [`deals`]), what they do there ([`Step`]), a chance node's public
//! outcomes in a representative walk ([`Outcomes`]), the game's
//! information sets' names for the draft ([`GameSets`]) and the result
//! ([`FromGame`]), with the helpers that group a chance node's outcomes
//! ([`by_label`], [`allowed`]) and share lists of deals ([`interned`]). A
//! leaf, so that the walk's file holds the walk.

use std::rc::Rc;

use galac_runtime::game::{advance_out_of_line, Game, Node};
use galac_runtime::info::InfoInterner;
use rustc_hash::{FxHashMap, FxHashSet};

use super::draft::{Allowed, Sets};
use super::game::PublicGame;
use crate::solver::SolveError;

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
    /// first deal's, just advanced) for `deals` deals.
    pub fn first<G: Game<State = S>>(game: &G, state: &S, node: Node, deals: usize) -> Step<S> {
        match node {
            Node::Terminal => Step::Leaf(Vec::new()),
            Node::Decision { player, n_actions, .. } => Step::Decision {
                player: player as usize,
                sets: Vec::with_capacity(deals),
                kids: Vec::new(),
                parents: Vec::new(),
                labels: (0..n_actions).map(|a| game.action_label(state, a)).collect(),
            },
            Node::Chance { .. } => Step::Chance(Vec::new()),
        }
    }
}

/// The deals: the paths through the chance nodes above the first
/// decision, each as its state before that node's `advance` (the first
/// whole, the others as what differs from it, [`Game::delta`]), with
/// their probabilities. A chance node's children wait on the stack as
/// deltas too (the hold'em spots deal both hands in one chance node: a
/// state per deal).
pub(super) fn deals<G: Game>(game: &G, info: &mut InfoInterner) -> Result<Dealt<G::State>, SolveError> {
    let (mut deals, mut deal_prob) = (Vec::<(u32, G::State)>::new(), Vec::new());
    let mut probs = Vec::new();
    let root = game.root()?;
    let mut stack = vec![(Rc::new(root.clone()), root, 1.0f64)];
    while let Some((base, delta, prob)) = stack.pop() {
        let mut state = (*base).clone();
        game.undelta(&mut state, &delta);
        drop((base, delta));
        let mut at = state.clone();
        // The facts `at`'s advance pushes: kept for a chance node's
        // children, which hold them; forgotten for a deal, which is kept
        // as it was before that advance (else the interner would hold
        // facts per deal for the whole derivation).
        let mark = info.mark();
        if let Node::Chance { n_outcomes } = advance_out_of_line(game, &mut at, info)? {
            game.chance_probs(&at, &mut probs);
            // Pushed in order, then turned around in place (the stack pops
            // the first outcome first): no second list of the children.
            let start = stack.len();
            stack.reserve(n_outcomes as usize);
            let mut first: Option<Rc<G::State>> = None;
            for (k, p) in probs.iter().enumerate() {
                let mut child = at.clone();
                game.apply(&mut child, k as u32, info)?;
                let base = first.get_or_insert_with(|| Rc::new(child.clone())).clone();
                let child = game.delta(&base, &child);
                stack.push((base, child, prob * p.to_f64()));
            }
            stack[start..].reverse();
        } else {
            drop(at);
            info.truncate(mark);
            let state = match deals.first() {
                Some((_, first)) => game.delta(first, &state),
                None => state,
            };
            deals.push((deals.len() as u32, state));
            deal_prob.push(prob);
        }
    }
    // The lists grew by doubling: their slack given back (a large block
    // shrinks in place), a deal's state kept for the first moves.
    deals.shrink_to_fit();
    deal_prob.shrink_to_fit();
    Ok((deals, deal_prob))
}

/// The deals' states at a public node, each before its `advance`: held,
/// or made from their parents' (a decision's states, kept by
/// `from_game`'s `Builder::step` as deltas against the first's) by advancing each
/// again and taking `action`.
/// The deals as enumerated and their probabilities ([`deals`]).
pub(super) type Dealt<S> = (Vec<(u32, S)>, Vec<f64>);

pub(super) enum Entries<'p, S> {
    Held(Vec<(u32, S)>),
    /// The deals as enumerated: the first's state whole, the others' as
    /// [`Game::delta`]s against it.
    Dealt(Vec<(u32, S)>),
    Children(&'p [(u32, S)], u32),
}

impl<'p, S> Entries<'p, S> {
    /// The states held, the deals as enumerated, the parents the states
    /// are made from and the action taken from them (one of the three
    /// lists is not empty; the deals are made without an action).
    #[allow(clippy::type_complexity)]
    pub fn split(self) -> (Vec<(u32, S)>, Vec<(u32, S)>, &'p [(u32, S)], Option<u32>) {
        match self {
            Entries::Held(held) => (held, Vec::new(), &[], None),
            Entries::Dealt(dealt) => (Vec::new(), dealt, &[], None),
            Entries::Children(from, action) => (Vec::new(), Vec::new(), from, Some(action)),
        }
    }
}

/// A chance node's outcomes over its deals (`items`) grouped into public
/// outcomes by label, in order of first appearance: each group's items,
/// the deals there, and per group the deals it allows with their
/// probability.
pub(super) fn by_label<S>(items: &[Item<S>]) -> (Vec<Vec<usize>>, Vec<u32>, Vec<Allowed>) {
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
    let outcomes =
        groups.iter().map(|g| Allowed::Each(g.iter().map(|&i| (items[i].0, items[i].2)).collect())).collect();
    (groups, deals, outcomes)
}

/// Per public outcome of a chance node in a representative walk, as it is
/// met: its deals, the first's probability, and each deal's once one
/// differs from it.
pub(super) type Lists = Vec<(Vec<u32>, f64, Option<Vec<(u32, f64)>>)>;

/// The outcomes of `lists` as the draft keeps them, and per outcome the
/// deals present below it: an outcome whose deals have one probability is
/// that and the one shared list of its deals.
pub(super) fn allowed(lists: Lists, sets: &mut FxHashSet<Rc<Vec<u32>>>) -> (Vec<Allowed>, Vec<Rc<Vec<u32>>>) {
    let (mut allowed, mut present) = (Vec::with_capacity(lists.len()), Vec::with_capacity(lists.len()));
    for (listed, prob, each) in lists {
        match each {
            None => {
                let set = interned(sets, listed);
                allowed.push(Allowed::Same(prob, set.clone()));
                present.push(set);
            }
            Some(mut each) => {
                // Kept for the whole walk, so without the slack.
                each.shrink_to_fit();
                present.push(interned(sets, each.iter().map(|&(d, _)| d).collect()));
                allowed.push(Allowed::Each(each));
            }
        }
    }
    (allowed, present)
}

/// The one shared list of these deals among `sets` (a walk's memos know
/// lists by address, so each is kept once and alive).
pub(super) fn interned(sets: &mut FxHashSet<Rc<Vec<u32>>>, deals: Vec<u32>) -> Rc<Vec<u32>> {
    match sets.get(&deals) {
        Some(set) => set.clone(),
        None => {
            let set = Rc::new(deals);
            sets.insert(set.clone());
            set
        }
    }
}
