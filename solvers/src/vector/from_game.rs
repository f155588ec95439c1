//! A [`PublicGame`] worked out from the game's rules without building its
//! scalar tree: the public tree is walked top-down as in
//! [`super::from_tree`], a public node holding one game state per deal still
//! possible instead of one tree node, so memory holds the states along one
//! public path (per deal) and never the tree. The interpreter and generated
//! code alike, through [`Game`].
//!
//! Every deal's state is advanced at every public node, so the work is the
//! scalar tree's node count; the saving is memory (a turn spot's tree does
//! not fit, its public path does) and the tree's tables. Chance outcomes are
//! grouped into public outcomes by their labels, as `from_tree` also does
//! (it has the subtrees to look into as well; here an outcome that some
//! player tells apart under one label, or confuses under two, is refused by
//! the draft's checks, never merged wrongly). The draft ([`super::draft`])
//! is `from_tree`'s, so both give the same [`PublicGame`].

use galac_runtime::game::{advance_out_of_line, Game, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::rational::Ratio;
use rustc_hash::FxHashMap;

use super::draft::{Draft, Sets, NONE};
use super::game::PublicGame;
use super::infer::refuse;
use crate::solver::SolveError;

/// A public game made from the game's rules, with the interner whose
/// information sets its decisions name.
pub struct FromGame {
    pub game: PublicGame,
    /// Per decision of the public game: the node and the interner's
    /// information sets there, each with its player's private state.
    pub decisions: Vec<(u32, Vec<(u32, u32)>)>,
    pub info: InfoInterner,
}

/// The game's information sets, for the draft's labels and messages.
struct GameSets<'g, G: Game> {
    game: &'g G,
    info: &'g InfoInterner,
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

/// Works out the public game of `game` (see the module comment), or says
/// why the game is outside the class, or the game's own error.
pub fn from_game<G: Game>(game: &G) -> Result<FromGame, SolveError> {
    let players = &game.info().players;
    if players.len() != 2 {
        return Err(refuse(format!(
            "vector CFR solves two-player zero-sum games; this game has {} players",
            players.len()
        )));
    }
    let mut info = InfoInterner::new();
    // The deals: the paths through the chance nodes above the first
    // decision, each kept as its state before that node's `advance`.
    let (mut deals, mut deal_prob) = (Vec::new(), Vec::new());
    let mut probs = Vec::new();
    let mut stack = vec![(game.root()?, 1.0f64)];
    while let Some((state, prob)) = stack.pop() {
        let mut at = state.clone();
        if let Node::Chance { n_outcomes } = advance_out_of_line(game, &mut at, &mut info)? {
            game.chance_probs(&at, &mut probs);
            let mut children = Vec::with_capacity(n_outcomes as usize);
            for (k, p) in probs.iter().enumerate() {
                let mut child = at.clone();
                game.apply(&mut child, k as u32, &mut info)?;
                children.push((child, prob * p.to_f64()));
            }
            stack.extend(children.into_iter().rev());
        } else {
            deals.push(state);
            deal_prob.push(prob);
        }
    }
    let names = [players[0].clone(), players[1].clone()];
    let mut b = Builder { game, info, draft: Draft::new(names, deal_prob), probs: Vec::new(), pay: Vec::new() };
    let entries = deals.into_iter().enumerate().map(|(d, s)| (d as u32, s)).collect();
    b.build(entries, String::new(), NONE)?;
    let Builder { info, draft, .. } = b;
    let (game_out, decisions) = draft.finish(&GameSets { game, info: &info })?;
    Ok(FromGame { game: game_out, decisions, info })
}

/// What the deals of a public node do there, each state advanced once and
/// its children made right after (a compiled game keeps a node's
/// candidates only until its next `advance`).
enum Step<S> {
    Leaf(Vec<(u32, [i64; 2])>),
    /// Per deal (deal, set, moves offered); per action its children; the
    /// player and the first deal's action labels.
    Decision {
        player: usize,
        sets: Vec<(u32, u32, u32)>,
        kids: Vec<Vec<(u32, S)>>,
        labels: Vec<String>,
    },
    Chance(Vec<Item<S>>),
}

/// An outcome of one deal's chance node: (deal, child, probability, label).
type Item<S> = (u32, S, f64, String);

struct Builder<'g, G: Game> {
    game: &'g G,
    info: InfoInterner,
    draft: Draft,
    probs: Vec<Ratio>,
    pay: Vec<i64>,
}

impl<G: Game> Builder<'_, G> {
    /// Builds the public node of `entries` (deal, state before its
    /// `advance`) and its subtree.
    fn build(&mut self, entries: Vec<(u32, G::State)>, label: String, parent: u32) -> Result<u32, SolveError> {
        let (step, same) = self.step(entries)?;
        let id = self.draft.open(label, parent, same)?;
        match step {
            Step::Leaf(pays) => self.draft.leaf(id, pays.into_iter())?,
            Step::Decision { player, sets, kids, labels } => {
                let n_actions = sets.first().map_or(0, |s| s.2);
                let names = GameSets { game: self.game, info: &self.info };
                self.draft.decision(id, player, n_actions, sets.into_iter(), &names)?;
                let mut ids = Vec::with_capacity(kids.len());
                for (a, (child, label)) in kids.into_iter().zip(labels).enumerate() {
                    debug_assert!(a < n_actions as usize);
                    ids.push(self.build(child, label, id)?);
                }
                self.draft.children(id, &ids);
            }
            Step::Chance(items) => {
                let mut group_of: FxHashMap<&str, usize> = FxHashMap::default();
                let mut groups: Vec<Vec<usize>> = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let g = *group_of.entry(item.3.as_str()).or_insert_with(|| {
                        groups.push(Vec::new());
                        groups.len() - 1
                    });
                    groups[g].push(i);
                }
                drop(group_of);
                let mut deals: Vec<u32> = items.iter().map(|item| item.0).collect();
                deals.dedup();
                let outcomes = groups.iter().map(|g| g.iter().map(|&i| (items[i].0, items[i].2)).collect()).collect();
                self.draft.chance(id, deals, outcomes)?;
                let mut slots: Vec<Option<Item<G::State>>> = items.into_iter().map(Some).collect();
                let mut ids = Vec::with_capacity(groups.len());
                for group in &groups {
                    let mut label = String::new();
                    let child: Vec<(u32, G::State)> = group
                        .iter()
                        .filter_map(|&i| slots[i].take())
                        .map(|(deal, state, _, l)| {
                            if label.is_empty() {
                                label = l;
                            }
                            (deal, state)
                        })
                        .collect();
                    ids.push(self.build(child, label, id)?);
                }
                self.draft.children(id, &ids);
            }
        }
        Ok(id)
    }

    /// Advances every deal's state and makes its children; whether every
    /// deal is at the same kind of node (and the same player's move).
    fn step(&mut self, entries: Vec<(u32, G::State)>) -> Result<(Step<G::State>, bool), SolveError> {
        let game = self.game;
        let mut step: Option<Step<G::State>> = None;
        let mut same = true;
        for (deal, mut state) in entries {
            let node = advance_out_of_line(game, &mut state, &mut self.info)?;
            match (node, step.get_or_insert_with(|| Step::first(game, &state, node))) {
                (Node::Terminal, Step::Leaf(pays)) => {
                    let p = game.payoffs(&state, &mut self.pay);
                    pays.push((deal, [p[0], p[1]]));
                }
                (Node::Decision { player, infoset, n_actions }, Step::Decision { player: first, sets, kids, .. })
                    if player as usize == *first =>
                {
                    sets.push((deal, infoset, n_actions));
                    if kids.len() < n_actions as usize {
                        kids.resize_with(n_actions as usize, Vec::new);
                    }
                    for (a, list) in kids.iter_mut().enumerate().take(n_actions as usize) {
                        let mut child = state.clone();
                        game.apply(&mut child, a as u32, &mut self.info)?;
                        list.push((deal, child));
                    }
                }
                (Node::Chance { n_outcomes }, Step::Chance(items)) => {
                    game.chance_probs(&state, &mut self.probs);
                    for (k, p) in self.probs.iter().enumerate().take(n_outcomes as usize) {
                        let label = game.action_label(&state, k as u32);
                        let mut child = state.clone();
                        game.apply(&mut child, k as u32, &mut self.info)?;
                        items.push((deal, child, p.to_f64(), label));
                    }
                }
                _ => {
                    same = false;
                    break;
                }
            }
        }
        Ok((step.unwrap_or(Step::Leaf(Vec::new())), same))
    }
}

impl<S> Step<S> {
    /// The empty step of a node of `node`'s kind (labels from `state`, the
    /// first deal's, just advanced).
    fn first<G: Game<State = S>>(game: &G, state: &S, node: Node) -> Step<S> {
        match node {
            Node::Terminal => Step::Leaf(Vec::new()),
            Node::Decision { player, n_actions, .. } => Step::Decision {
                player: player as usize,
                sets: Vec::new(),
                kids: Vec::new(),
                labels: (0..n_actions).map(|a| game.action_label(state, a)).collect(),
            },
            Node::Chance { .. } => Step::Chance(Vec::new()),
        }
    }
}
