//! A [`PublicGame`] worked out from the game's rules without building its
//! scalar tree: the public tree is walked top-down as in
//! [`super::from_tree`], a public node holding one game state per deal still
//! possible instead of one tree node, so memory holds the states along one
//! public path (per deal) and never the tree. The interpreter and generated
//! code alike, through [`Game`].
//!
//! Where the game proves that its private values steer only the payoff
//! ([`Game::representative`]: read only in the deal, by later chance
//! choices and in the payoff's code), every deal's state is advanced only
//! until both players have moved (each player's private state is its
//! information there; where the other player's first decision follows
//! each move of a decision, its sets after the first move are made as
//! the root is, and after the others learnt from one deal per class it had
//! after the first: `step::Follow`), and below that ONE representative
//! deal walks the
//! public tree: decisions are the same for every deal; at a chance node
//! whose outcomes read a private value each deal's outcomes are worked out
//! from a copy of the representative with the deal's private values put
//! in ([`Game::transplant`]), and each public outcome goes on with the
//! first deal that allows it; a leaf stops at the payoff's code
//! ([`Game::advance_public`]) and pays one amount for all when that code
//! reads no private value, else is evaluated once per [`Game::course_key`]
//! (the public values it reads) and deals present: per deal, or per
//! player's private state where it is a showdown ([`super::showdown`]).
//! Otherwise every deal's state is advanced at every public node, so the
//! work is the scalar tree's node count. Chance outcomes are grouped into
//! public outcomes by their labels, as `from_tree` also does (it has the
//! subtrees to look into as well; here an outcome that some player tells
//! apart under one label, or confuses under two, is refused by the draft's
//! checks, never merged wrongly). The draft ([`super::draft`]) is
//! `from_tree`'s, so both give the same [`PublicGame`].

use std::mem::take;
use std::rc::Rc;

use galac_runtime::game::{advance_out_of_line, Donors, Game, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::rational::Ratio;
use rustc_hash::FxHashMap;

use super::draft::{Deals, Draft, Picked, NONE};
pub use super::from_game_parts::FromGame;
use super::from_game_parts::{
    allowed, by_label, deals, interned, Ahead, Entries, GameSets, Item, Lists, Outcomes, Step,
};
use super::game::PublicNode;
use super::infer::refuse;
use super::showdown;

pub(super) mod dealt;
mod step;
use crate::solver::SolveError;

/// Works out the public game of `game` (see the module comment), or says
/// why the game is outside the class, or the game's own error.
pub fn from_game<G: Game>(game: &G) -> Result<FromGame, SolveError> {
    derive(game, game.representative(), true)
}

/// [`from_game`] walking every deal's state through every public node,
/// even where one representative deal would do: the reference the
/// representative walk is tested against.
pub fn from_game_by_deal<G: Game>(game: &G) -> Result<FromGame, SolveError> {
    derive(game, Err("asked to walk every deal".into()), false)
}

/// [`from_game`] running a showdown's payoff code for every deal, not per
/// player's strength ([`super::showdown`]): the reference that is tested
/// against.
pub fn from_game_per_deal_showdowns<G: Game>(game: &G) -> Result<FromGame, SolveError> {
    derive(game, game.representative(), false)
}

fn derive<G: Game>(game: &G, representative: Result<String, String>, strengths: bool) -> Result<FromGame, SolveError> {
    let players = &game.info().players;
    if players.len() != 2 {
        return Err(refuse(format!(
            "vector CFR solves two-player zero-sum games; this game has {} players",
            players.len()
        )));
    }
    let mut info = InfoInterner::new();
    // The buffers of nodes met before (the size estimate's deal: a
    // candidate and its odds a deal, as large again as the deals made
    // below) are let go before the deals are made.
    game.release_buffers();
    let (deals, deal_prob) = deals(game, &mut info)?;
    let names = [players[0].clone(), players[1].clone()];
    let mut b = Builder {
        game,
        info,
        draft: Draft::new(names, deal_prob),
        probs: Vec::new(),
        pay: Vec::new(),
        one: representative.is_ok(),
        donors: Donors::new(if representative.is_ok() { deals.len() } else { 0 }),
        n_deals: deals.len(),
        key: Vec::new(),
        chances: FxHashMap::default(),
        tables: FxHashMap::default(),
        constants: FxHashMap::default(),
        sets: Default::default(),
        walked: false,
        advanced: 0,
        firsts: [usize::MAX; 2],
        strengths,
        ahead: Default::default(),
        showdown_sets: Default::default(),
    };
    b.build(Entries::Dealt(deals), String::new(), NONE, [false; 2], None)?;
    let representative = match representative {
        Ok(_) if !b.walked => Err("no public node follows both players' first moves".into()),
        r => r,
    };
    // The donors, the memos and the lists of deals present they keep are
    // let go before the draft is finished (a deal each: the donors' rows
    // were 12 MB of its peak on the river with every hand).
    let Builder { mut info, draft, advanced, donors, chances, tables, constants, sets, ahead, showdown_sets, .. } = b;
    drop((donors, chances, tables, constants, sets, ahead, showdown_sets));
    // The memo only sped lookups up: given back (sets are named by the trie).
    info.forget_memo();
    let (game_out, decisions) = draft.finish(&GameSets { game, info: &info })?;
    Ok(FromGame { game: game_out, decisions, info, representative, advanced })
}

struct Builder<'g, G: Game> {
    game: &'g G,
    info: InfoInterner,
    draft: Draft,
    probs: Vec<Ratio>,
    pay: Vec<i64>,
    /// Whether the game lets one representative deal walk the public tree
    /// below both players' first moves.
    one: bool,
    /// Per deal, what [`Game::donor`] keeps of its state at its first node
    /// (empty unless the game walks one representative deal): its private
    /// values, to transplant. Made by the root's [`Builder::step`], which
    /// advances every deal's state to its first node.
    donors: Donors<G::State>,
    /// How many deals the enumeration gave.
    n_deals: usize,
    /// A reused buffer for [`Game::course_key`].
    key: Vec<u64>,
    /// Per (course key, deals present): a chance node's public outcomes.
    chances: FxHashMap<(Vec<u64>, *const Deals), Rc<Outcomes>>,
    /// Per (course key, deals present): a leaf's per-deal payoffs (a table).
    tables: FxHashMap<(Vec<u64>, *const Deals), u32>,
    /// Per (payoffs, deals present): a leaf's constant payoffs (a table).
    constants: FxHashMap<([i64; 2], *const Deals), u32>,
    /// The lists of deals present met so far, each kept once (and alive,
    /// so that the memos' addresses name one list for the whole walk).
    sets: rustc_hash::FxHashSet<Rc<Deals>>,
    /// Whether a representative deal walked some public node.
    walked: bool,
    /// States advanced so far (the deals' enumeration aside).
    advanced: u64,
    /// Per player, its latest decision on the path built (a draft decision's index).
    firsts: [usize; 2],
    /// Whether a showdown's leaf is paid from the players' strengths.
    strengths: bool,
    /// Per deal as enumerated, its set at the first child of the root's
    /// decision where that is the other player's: made by the root's step
    /// from each deal's state there, read by the first child's step (empty
    /// otherwise; see `step::push_known`).
    ahead: Ahead,
    /// What a showdown's deals need, kept from leaf to leaf.
    showdown_sets: showdown::Sets,
}

impl<G: Game> Builder<'_, G> {
    /// Builds the public node of `entries` (deal, state before its
    /// `advance`) and its subtree.
    /// `decided`: which players have moved on the way here; once both
    /// have, a game that allows it goes on with one representative deal.
    fn build(
        &mut self,
        entries: Entries<'_, G::State>,
        label: String,
        parent: u32,
        decided: [bool; 2],
        sibling: Option<usize>,
    ) -> Result<u32, SolveError> {
        // Every state made below is gone when the subtree is built (the
        // draft and the memos keep information sets, never states), so
        // the facts they pushed are forgotten: the interner holds one
        // path's, not every state's the derivation made.
        let mark = self.info.mark();
        let id = self.build_node(entries, label, parent, decided, sibling)?;
        self.info.truncate(mark);
        Ok(id)
    }

    /// `sibling`: where `entries` are an action's children before a
    /// representative walks, the draft's decision at the first action's
    /// child if that is the other player's (see [`Builder::step`]).
    fn build_node(
        &mut self,
        entries: Entries<'_, G::State>,
        label: String,
        parent: u32,
        decided: [bool; 2],
        sibling: Option<usize>,
    ) -> Result<u32, SolveError> {
        let (step, same) = self.step(entries, decided, sibling)?;
        let id = self.draft.open(label, parent, same)?;
        match step {
            Step::Leaf(pays) => self.draft.leaf(id, pays.into_iter())?,
            Step::Decision { player, sets, mut kids, mut parents, labels } => {
                let n_actions = sets.moves();
                let mut decided = decided;
                decided[player] = true;
                let walk = decided == [true, true] && self.one;
                let names = GameSets { game: self.game, info: &self.info };
                self.draft.decision_sets(id, player, n_actions, sets, &names)?;
                // The decision's deals as the one list of them kept (the
                // first moves' are every deal, alike at each decision);
                // where a representative walks on, every deal here is at
                // every child.
                let last = self.draft.decisions.last_mut().expect("the decision just added");
                let listed = interned(&mut self.sets, last.1.clone());
                // The decision's deals read by position (the showdowns'
                // `each_set`, `Follow`): kept listed or all where the one
                // kept is a subset of another list.
                if matches!(*listed, Deals::Listed(_) | Deals::All(_)) {
                    last.1 = listed.clone();
                }
                let present = if walk { listed } else { Rc::new(Vec::new().into()) };
                let above = std::mem::replace(&mut self.firsts[player], self.draft.decisions.len() - 1);
                let mut ids = Vec::with_capacity(labels.len());
                // The draft's decision at the first action's child, where
                // that is the other player's first (it has not moved: else
                // a representative would walk from here).
                let mut sibling = None;
                for (a, label) in labels.into_iter().enumerate() {
                    debug_assert!(a < n_actions as usize);
                    let child = match kids.get_mut(a) {
                        Some(child) => Entries::Held(std::mem::take(child)),
                        None => Entries::Children(&parents, a as u32),
                    };
                    let first = self.draft.decisions.len();
                    let is_children = matches!(child, Entries::Children(..));
                    ids.push(match child {
                        Entries::Held(mut child) if walk && !child.is_empty() => {
                            let (deal, state) = child.swap_remove(0);
                            drop(child);
                            self.walk(deal, state, &present, label, id)?
                        }
                        child => self.build(child, label, id, decided, sibling)?,
                    });
                    if a == 0 && is_children && self.one {
                        sibling = self.draft.decisions.get(first).filter(|d| d.0 == ids[0]).and_then(|_| {
                            match self.draft.nodes[ids[0] as usize] {
                                PublicNode::Decision { player: q, .. } if q as usize != player => Some(first),
                                _ => None,
                            }
                        });
                        if let Some(s) = sibling {
                            let (deals, sets) = (&self.draft.decisions[s].1, &self.draft.decisions[s].2);
                            let sets = deals.iter().zip(sets.iter());
                            parents = parents.thin(self.game, sets, &mut self.info)?;
                        }
                    }
                }
                self.firsts[player] = above;
                self.draft.children(id, &ids);
            }
            Step::Chance(items) => {
                let (groups, deals, outcomes) = by_label(&items);
                self.draft.chance(id, Rc::new(deals), Rc::new(outcomes))?;
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
                    ids.push(self.build(Entries::Held(child), label, id, decided, None)?);
                }
                self.draft.children(id, &ids);
            }
        }
        Ok(id)
    }

    /// Builds the public node where the representative `deal` is, at
    /// `state` (before its `advance`), with the deals `present` there (in
    /// order, `deal` among them), and its subtree (see the module comment).
    fn walk(
        &mut self,
        deal: u32,
        state: G::State,
        present: &Rc<Deals>,
        label: String,
        parent: u32,
    ) -> Result<u32, SolveError> {
        // As in `build`: the facts of the states made below are forgotten.
        let mark = self.info.mark();
        let id = self.walk_node(deal, state, present, label, parent)?;
        self.info.truncate(mark);
        Ok(id)
    }

    fn walk_node(
        &mut self,
        deal: u32,
        state: G::State,
        present: &Rc<Deals>,
        label: String,
        parent: u32,
    ) -> Result<u32, SolveError> {
        let game = self.game;
        self.walked = true;
        let mut at = state.clone();
        let node = game.advance_public(&mut at, &mut self.info)?;
        self.advanced += 1;
        let id = self.draft.open(label, parent, true)?;
        match node {
            Some(Node::Decision { player, infoset, n_actions }) => {
                let names = GameSets { game, info: &self.info };
                let one = std::iter::once((deal, infoset, n_actions));
                self.draft.decision(id, player as usize, n_actions, one, &names)?;
                let mut kids = Vec::with_capacity(n_actions as usize);
                for a in 0..n_actions {
                    let mut child = at.clone();
                    game.apply(&mut child, a, &mut self.info)?;
                    kids.push((child, game.action_label(&at, a)));
                }
                drop(at);
                let mut ids = Vec::with_capacity(kids.len());
                for (child, label) in kids {
                    ids.push(self.walk(deal, child, present, label, id)?);
                }
                self.draft.children(id, &ids);
            }
            Some(Node::Chance { .. }) => {
                let private = game.course_key(&at, &mut self.key);
                let memo = (std::mem::take(&mut self.key), Rc::as_ptr(present));
                let outcomes = match self.chances.get(&memo) {
                    Some(o) => o.clone(),
                    None => {
                        let o = Rc::new(self.outcomes(deal, &state, &at, present, private)?);
                        self.chances.insert(memo, o.clone());
                        o
                    }
                };
                self.draft.chance(id, outcomes.deals.clone(), outcomes.allowed.clone())?;
                let mut ids = Vec::with_capacity(outcomes.labels.len());
                for ((label, present), &(first, k)) in
                    outcomes.labels.iter().zip(&outcomes.present).zip(&outcomes.first)
                {
                    let mut child = state.clone();
                    if first != deal {
                        game.transplant(&mut child, &self.donors, first);
                    }
                    advance_out_of_line(game, &mut child, &mut self.info)?;
                    self.advanced += 1;
                    game.apply(&mut child, k, &mut self.info)?;
                    ids.push(self.walk(first, child, present, label.clone(), id)?);
                }
                self.draft.children(id, &ids);
            }
            None => {
                let private = game.course_key(&at, &mut self.key);
                let table = if private {
                    let memo = (std::mem::take(&mut self.key), Rc::as_ptr(present));
                    match self.tables.get(&memo) {
                        Some(&t) => t,
                        None => {
                            let t = self.deals_table(id, &at, present)?;
                            self.tables.insert(memo, t);
                            t
                        }
                    }
                } else {
                    let pay = self.pays(id, &mut at)?;
                    match self.constants.get(&(pay, Rc::as_ptr(present))) {
                        Some(&t) => t,
                        None => {
                            let t = self.draft.constant_table(id, pay, present.clone())?;
                            self.constants.insert((pay, Rc::as_ptr(present)), t);
                            t
                        }
                    }
                };
                self.draft.leaf_table(id, table);
            }
            Some(Node::Terminal) => {
                // Every play ends in the payoff's code, where the walk stops.
                return Err(refuse(format!(
                    "internal error, please report: after {} the play ended outside the payoff's code",
                    self.draft.history(id)
                )));
            }
        }
        Ok(id)
    }

    /// The table of a leaf `id` stopped at the payoff's code (`at`) whose
    /// code reads private values: each deal `present` transplanted and run
    /// to the end, or, where that code is a showdown, as many as its
    /// players' strengths need ([`super::showdown`]).
    fn deals_table(&mut self, id: u32, at: &G::State, present: &Rc<Deals>) -> Result<u32, SolveError> {
        // A copy of `at` in `s`'s memory (no allocation per deal).
        let mut s = at.clone();
        let mut run = |b: &mut Self, d: u32| {
            s.clone_from(at);
            b.game.transplant(&mut s, &b.donors, d);
            Ok::<_, SolveError>((b.pays(id, &mut s)?, b.game.strengths(&s)))
        };
        let Some(first_deal) = present.first() else {
            return Err(refuse(format!(
                "internal error, please report: no deal is present at {}",
                self.draft.history(id)
            )));
        };
        let first = run(self, first_deal)?;
        // A game gives strengths at every showdown or at none.
        self.strengths &= first.1.is_some();
        if self.strengths && !self.firsts.contains(&usize::MAX) {
            // Each player's sets above, out of the draft while runs borrow the builder.
            let taken = self.firsts.map(|f| (self.draft.decisions[f].1.clone(), take(&mut self.draft.decisions[f].2)));
            let leaf = self.draft.history(id);
            let mut sets = take(&mut self.showdown_sets);
            let key = (Rc::as_ptr(present), self.firsts);
            let deals = (&**present, taken.each_ref().map(|(d, s)| (&**d, s)));
            if sets.fill(key, deals) {
                let pays = showdown::showdown(&mut sets, deals, (first_deal, first), |d| run(self, d), &leaf);
                self.firsts.into_iter().zip(taken).for_each(|(f, (_, sets))| self.draft.decisions[f].2 = sets);
                let table = pays.and_then(|pays| self.draft.outcome_table(id, present.clone(), sets.outcomes(), pays));
                self.showdown_sets = sets;
                return table;
            }
            self.showdown_sets = sets;
            self.firsts.into_iter().zip(taken).for_each(|(f, (_, sets))| self.draft.decisions[f].2 = sets);
        }
        let mut pays = Vec::with_capacity(present.len());
        for (i, d) in present.iter().enumerate() {
            pays.push(if i == 0 { first.0 } else { run(self, d)?.0 });
        }
        self.draft.deals_table(id, present.clone(), pays.into_iter())
    }

    /// The payoffs of `state`, stopped at the payoff's code, run to its end.
    fn pays(&mut self, id: u32, state: &mut G::State) -> Result<[i64; 2], SolveError> {
        self.advanced += 1;
        match self.game.advance_payoff(state, &mut self.info)? {
            Node::Terminal => {
                let p = self.game.payoffs(state, &mut self.pay);
                Ok([p[0], p[1]])
            }
            _ => Err(refuse(format!(
                "internal error, please report: after {} the payoff's code reached a choice",
                self.draft.history(id)
            ))),
        }
    }

    /// The public outcomes of the chance node the representative `deal`
    /// is at (`at`, advanced from `state`): from its outcomes alone when
    /// they read no private value (`private` false), else from each deal
    /// present, transplanted into `state` and advanced.
    fn outcomes(
        &mut self,
        deal: u32,
        state: &G::State,
        at: &G::State,
        present: &Rc<Deals>,
        private: bool,
    ) -> Result<Outcomes, SolveError> {
        let game = self.game;
        let mut group_of: FxHashMap<String, usize> = FxHashMap::default();
        // Per outcome: its deals, the first's probability, and each
        // deal's once one differs from it.
        let (mut labels, mut lists, mut first, mut deals) = (Vec::new(), Lists::new(), Vec::new(), Vec::new());
        // An outcome's deals as a bit per deal present (the turn's river
        // with every hand: 48 outcomes of 1.07M deals of 1.17M).
        let most = present.len();
        // An outcome's group, by its label (made once per label key where
        // the game gives one: the river's 44 outcomes a deal were a label
        // each).
        let mut by_key: FxHashMap<Vec<u64>, usize> = FxHashMap::default();
        let mut words = Vec::new();
        let mut group = |s: &G::State, d: u32, k: u32, p: f64, lists: &mut Lists| {
            let key = game.action_key(s, k, &mut words);
            if let Some(&g) = by_key.get(&words[..]).filter(|_| key) {
                return g;
            }
            let g = *group_of.entry(game.action_label(s, k)).or_insert_with_key(|label| {
                labels.push(label.clone());
                lists.push((Picked::new(most), p, None));
                first.push((d, k));
                labels.len() - 1
            });
            if key {
                by_key.insert(words.clone(), g);
            }
            g
        };
        // Deal `d`, the `i`th present, allows outcome `g` with probability `p`.
        let add = |i: usize, d: u32, g: usize, p: f64, lists: &mut Lists| {
            let (picked, prob, each) = &mut lists[g];
            match each {
                Some(each) => each.push((d, p)),
                None if p == *prob => picked.pick(i),
                None => {
                    let deals: Vec<u32> = present.iter().collect();
                    let mut all: Vec<(u32, f64)> = picked.positions().map(|i| (deals[i], *prob)).collect();
                    all.push((d, p));
                    *each = Some(all);
                }
            }
        };
        if private {
            let mut s = state.clone();
            for (i, d) in present.iter().enumerate() {
                s.clone_from(state);
                game.transplant(&mut s, &self.donors, d);
                self.advanced += 1;
                if !matches!(advance_out_of_line(game, &mut s, &mut self.info)?, Node::Chance { .. }) {
                    return Err(refuse(
                        "internal error, please report: a deal's course left the representative's".into(),
                    ));
                }
                game.chance_probs(&s, &mut self.probs);
                for (k, p) in self.probs.iter().enumerate() {
                    let g = group(&s, d, k as u32, p.to_f64(), &mut lists);
                    add(i, d, g, p.to_f64(), &mut lists);
                }
                if !self.probs.is_empty() {
                    deals.push(d);
                }
            }
        } else {
            game.chance_probs(at, &mut self.probs);
            // Each outcome's group, labelled once (made by the first deal's).
            let groups: Vec<usize> = match present.first() {
                Some(d) => {
                    (0..self.probs.len()).map(|k| group(at, d, k as u32, self.probs[k].to_f64(), &mut lists)).collect()
                }
                None => Vec::new(),
            };
            for (i, d) in present.iter().enumerate() {
                for (p, &g) in self.probs.iter().zip(&groups) {
                    add(i, d, g, p.to_f64(), &mut lists);
                }
                deals.push(d);
            }
            // Every deal allows every outcome: the representative goes on.
            first.iter_mut().for_each(|f: &mut (u32, u32)| f.0 = deal);
        }
        let (allowed, present_below) = allowed(lists, present, &mut self.sets);
        // The deals at the node: those present, where each has an outcome.
        let deals = if deals.len() == present.len() { present.clone() } else { Rc::new(deals.into()) };
        Ok(Outcomes { deals, labels, allowed: Rc::new(allowed), present: present_below, first })
    }
}
