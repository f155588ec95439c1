//! A public game while it is derived, from a built tree ([`super::from_tree`])
//! or from the game's rules without a tree ([`super::from_game`]): both walk
//! the public tree top-down, a public node holding what each deal still
//! possible does there, and record it here; [`Draft::finish`] then works out
//! the private states, the deal's weights, the outcomes' probabilities and
//! the leaves' payoff forms, and checks the class (the module comment of
//! [`super::from_tree`] says how). One draft, so both derivations give the
//! same [`PublicGame`] and refuse a game for the same reasons.

use std::rc::Rc;

use rustc_hash::FxHashMap;

mod allowed;
mod classes;
mod deal_probs;
mod deal_sets;
mod deals;
mod outcomes;
mod payoffs;
pub use allowed::Allowed;
pub(super) use deal_probs::DealProbs;
pub(super) use deal_sets::{DealSets, SetIds};
pub(super) use deals::{Deals, Picked};

use super::cards::Cards;
use super::game::{Conflicts, PrivateStates, PublicGame, PublicNode, Removal};
use super::infer::{factor, refuse, Classes};
use crate::solver::SolveError;

/// No entry.
pub(super) const NONE: u32 = u32::MAX;

/// What a derivation knows of its information sets (numbered by the tree,
/// or by the game's interner), for labels and messages.
pub(super) trait Sets {
    /// The set's label, empty when it has none.
    fn label(&self, set: u32) -> String;
    /// The set's name in messages.
    fn name(&self, set: u32) -> String;
    /// The player who moves there.
    fn player(&self, set: u32) -> usize;
}

/// A public chance node while building: per public outcome, the deals it
/// allows with their probability; and the deals at the node.
pub(super) struct ChanceDraft {
    pub node: u32,
    /// Shared by the chance nodes of a representative walk with one course
    /// key (the turn's river after each line).
    pub deals: Rc<Deals>,
    pub outcomes: Rc<Vec<Allowed>>,
}

/// A leaf's payoffs to player 0, per deal: listed, or one amount for
/// every deal of a list (a leaf whose payoff reads no private value).
pub(super) enum Pays {
    /// The deals, and each one's payoff as an index into `values`, the
    /// table's distinct payoffs in increasing order. A showdown has three
    /// (lose, tie, win), so a deal costs a byte, not the eight of its
    /// amount, and tables whose deals win, tie and lose alike (the turn's
    /// showdowns on one river card at every stake) share their indices.
    Deals {
        deals: Rc<Deals>,
        values: Vec<i64>,
        index: Index,
    },
    Constant(i64, Rc<Deals>),
}

/// Per deal of a table, the index of its payoff in the table's values:
/// a byte when there are at most 256 values.
pub(super) enum Index {
    Bytes(Rc<[u8]>),
    Words(Vec<u32>),
}

impl Pays {
    /// Each deal and its payoff.
    fn each(&self) -> Box<dyn Iterator<Item = (u32, i64)> + '_> {
        match self {
            Pays::Deals { deals, values, index: Index::Bytes(index) } => {
                Box::new(deals.iter().zip(index.iter()).map(|(d, &k)| (d, values[k as usize])))
            }
            Pays::Deals { deals, values, index: Index::Words(index) } => {
                Box::new(deals.iter().zip(index).map(|(d, &k)| (d, values[k as usize])))
            }
            Pays::Constant(pay, deals) => Box::new(deals.iter().map(move |d| (d, *pay))),
        }
    }
}

/// The public game so far and, per public node, what each deal does there.
pub(super) struct Draft {
    pub player_names: [String; 2],
    /// Per deal: its probability.
    pub deal_prob: DealProbs,
    pub nodes: Vec<PublicNode>,
    pub child_ids: Vec<u32>,
    pub labels: Vec<String>,
    pub parent: Vec<u32>,
    /// Per public node: the first information set there (decisions).
    pub first_set: Vec<u32>,
    /// Per information set: its public node (grown as sets are met).
    set_node: Vec<u32>,
    /// Per public decision: (node, its deals, each one's information set);
    /// `from_game` keeps each list of deals once, shared by the decisions.
    pub decisions: Vec<(u32, Rc<Deals>, SetIds)>,
    pub chances: Vec<ChanceDraft>,
    /// The outcomes of `chances` checked so far, by address (each kept
    /// alive there).
    checked: rustc_hash::FxHashSet<*const Vec<Allowed>>,
    /// Per public leaf: (node, its entry in `tables`). Leaves that pay
    /// the same per deal (a representative walk's memo) share an entry, so
    /// memory grows with the distinct payoffs, not the leaves.
    pub leaves: Vec<(u32, u32)>,
    pub tables: Vec<Pays>,
    /// The byte indices of the tables so far, each kept once.
    patterns: rustc_hash::FxHashSet<Rc<[u8]>>,
    /// The last [`Draft::outcome_table`]'s outcomes (their number), each
    /// outcome's rank and the bytes they gave: the next table of the same
    /// outcomes and ranks (a showdown at another stake) shares them.
    last_outcomes: Option<(u64, [u8; 3], Rc<[u8]>)>,
    /// The deals `0..n` of the decision of most deals in order so far.
    in_order: Rc<Deals>,
}

/// A public game and, per public decision, its node and the information
/// sets there, each with its player's private state.
pub(super) type Finished = (PublicGame, Vec<(u32, Vec<(u32, u32)>)>);

impl Draft {
    pub fn new(player_names: [String; 2], deal_prob: DealProbs) -> Draft {
        Draft {
            player_names,
            deal_prob,
            nodes: Vec::new(),
            child_ids: Vec::new(),
            labels: Vec::new(),
            parent: Vec::new(),
            first_set: Vec::new(),
            set_node: Vec::new(),
            decisions: Vec::new(),
            chances: Vec::new(),
            checked: Default::default(),
            leaves: Vec::new(),
            tables: Vec::new(),
            patterns: Default::default(),
            last_outcomes: None,
            in_order: Rc::new(Deals::All(0)),
        }
    }

    /// A new public node below `parent` (its kind is set by the next call):
    /// its id. `same`: whether every deal there is at the same kind of
    /// node (and the same player's move).
    pub fn open(&mut self, label: String, parent: u32, same: bool) -> Result<u32, SolveError> {
        let id = self.nodes.len() as u32;
        self.labels.push(label);
        self.parent.push(parent);
        self.first_set.push(NONE);
        self.nodes.push(PublicNode::Terminal { payoff: NONE });
        if !same {
            return Err(refuse(format!(
                "after {} the game goes on differently for different deals (who moves next, or whether it ends, \
                 depends on private information)",
                self.history(id)
            )));
        }
        Ok(id)
    }

    /// The public history of a node, for messages.
    pub fn history(&self, mut node: u32) -> String {
        let mut parts = Vec::new();
        while node != NONE && node != 0 {
            parts.push(self.labels[node as usize].clone());
            node = self.parent[node as usize];
        }
        if parts.is_empty() {
            return "the deal".into();
        }
        parts.reverse();
        format!("the deal, {}", parts.join(", "))
    }

    /// Public node `id` is a leaf: per deal, the payoffs there.
    pub fn leaf(&mut self, id: u32, pays: impl Iterator<Item = (u32, [i64; 2])>) -> Result<(), SolveError> {
        let table = self.table(id, pays)?;
        self.leaf_table(id, table);
        Ok(())
    }

    /// Public node `id` is a leaf paying as `tables[table]`.
    pub fn leaf_table(&mut self, id: u32, table: u32) {
        self.nodes[id as usize] = PublicNode::Terminal { payoff: self.leaves.len() as u32 };
        self.leaves.push((id, table));
    }

    /// A new entry of `tables`: per deal, the payoffs at leaf `id` (named
    /// in the message if they are not zero-sum).
    pub fn table(&mut self, id: u32, pays: impl Iterator<Item = (u32, [i64; 2])>) -> Result<u32, SolveError> {
        let (deals, pays): (Vec<u32>, Vec<[i64; 2]>) = pays.unzip();
        self.deals_table(id, Rc::new(deals.into()), pays.into_iter())
    }

    /// A new entry of `tables`: the payoffs at leaf `id` of each of `deals`.
    pub fn deals_table(
        &mut self,
        id: u32,
        deals: Rc<Deals>,
        pays: impl Iterator<Item = [i64; 2]>,
    ) -> Result<u32, SolveError> {
        // Per deal its amount's index among the distinct amounts in the
        // order met (a `u32` a deal, sized once: no `i64` per deal, nor a
        // sorted copy), then renumbered in the amounts' order.
        let (mut values, mut seen) = (Vec::new(), FxHashMap::default());
        let mut met = Vec::with_capacity(deals.len());
        for pay in pays {
            let a = self.zero_sum(id, pay)?;
            met.push(*seen.entry(a).or_insert_with(|| {
                values.push(a);
                values.len() as u32 - 1
            }));
        }
        debug_assert_eq!(met.len(), deals.len());
        let mut order: Vec<u32> = (0..values.len() as u32).collect();
        order.sort_unstable_by_key(|&i| values[i as usize]);
        let mut rank = vec![0u32; values.len()];
        order.iter().enumerate().for_each(|(r, &i)| rank[i as usize] = r as u32);
        values.sort_unstable();
        let index = if values.len() <= 1 << 8 {
            let bytes: Vec<u8> = met.iter().map(|&i| rank[i as usize] as u8).collect();
            drop(met);
            Index::Bytes(self.pattern(bytes))
        } else {
            met.iter_mut().for_each(|i| *i = rank[*i as usize]);
            Index::Words(met)
        };
        self.tables.push(Pays::Deals { deals, values, index });
        Ok(self.tables.len() as u32 - 1)
    }

    /// [`Draft::deals_table`] of deals whose payoffs are one of three
    /// (a showdown's comparison outcomes): per deal its outcome's index
    /// into `pays` (`outcomes`, with the number naming them: equal
    /// numbers, equal outcomes). The same table as listing each deal's
    /// payoffs, at a byte's cost a deal.
    pub fn outcome_table(
        &mut self,
        id: u32,
        deals: Rc<Deals>,
        (outcomes, named): (&[u8], u64),
        pays: [Option<[i64; 2]>; 3],
    ) -> Result<u32, SolveError> {
        debug_assert_eq!(outcomes.len(), deals.len());
        // Player 0's amounts, checked zero-sum, then each outcome's rank
        // among the distinct ones.
        let mut amount = [None; 3];
        for (a, pay) in amount.iter_mut().zip(pays) {
            *a = pay.map(|pay| self.zero_sum(id, pay)).transpose()?;
        }
        let mut values: Vec<i64> = amount.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        let rank = amount.map(|a| a.map_or(u8::MAX, |a| values.partition_point(|&v| v < a) as u8));
        let shared = match &self.last_outcomes {
            Some((was, r, bytes)) if *was == named && *r == rank => bytes.clone(),
            _ => {
                let bytes: Vec<u8> = outcomes.iter().map(|&o| rank[o as usize]).collect();
                debug_assert!(!bytes.contains(&u8::MAX));
                let shared = self.pattern(bytes);
                self.last_outcomes = Some((named, rank, shared.clone()));
                shared
            }
        };
        debug_assert_eq!(shared.len(), outcomes.len());
        let index = Index::Bytes(shared);
        self.tables.push(Pays::Deals { deals, values, index });
        Ok(self.tables.len() as u32 - 1)
    }

    /// The one shared copy of a table's bytes.
    fn pattern(&mut self, bytes: Vec<u8>) -> Rc<[u8]> {
        match self.patterns.get(bytes.as_slice()) {
            Some(shared) => shared.clone(),
            None => {
                let new: Rc<[u8]> = bytes.into();
                self.patterns.insert(new.clone());
                new
            }
        }
    }

    /// A new entry of `tables`: `pay` for each of `deals` at leaf `id`.
    pub fn constant_table(&mut self, id: u32, pay: [i64; 2], deals: Rc<Deals>) -> Result<u32, SolveError> {
        let a = self.zero_sum(id, pay)?;
        self.tables.push(Pays::Constant(a, deals));
        Ok(self.tables.len() as u32 - 1)
    }

    /// Player 0's payoff of `[a, b]` at leaf `id`, refused unless zero-sum.
    fn zero_sum(&self, id: u32, [a, b]: [i64; 2]) -> Result<i64, SolveError> {
        if a.checked_add(b) != Some(0) {
            return Err(refuse(format!(
                "vector CFR solves zero-sum games; after {} a leaf pays {a} and {b}",
                self.history(id)
            )));
        }
        Ok(a)
    }

    /// Public node `id` is `player`'s decision with `n_actions` moves: per
    /// deal, its information set and the number of moves offered there.
    pub fn decision(
        &mut self,
        id: u32,
        player: usize,
        n_actions: u32,
        sets: impl Iterator<Item = (u32, u32, u32)>,
        names: &dyn Sets,
    ) -> Result<(), SolveError> {
        let mut listed = DealSets::with_capacity(sets.size_hint().0);
        sets.for_each(|(deal, set, n)| listed.push(deal, set, n));
        self.decision_sets(id, player, n_actions, listed, names)
    }

    /// [`Draft::decision`] of deals and sets listed apart, kept as they are.
    pub fn decision_sets(
        &mut self,
        id: u32,
        player: usize,
        n_actions: u32,
        listed: DealSets,
        names: &dyn Sets,
    ) -> Result<(), SolveError> {
        self.nodes[id as usize] = PublicNode::Decision { player: player as u8, children: 0..0 };
        // The first deal offered other moves than `n_actions`.
        let odd = match listed.is_empty() {
            true => None,
            false if listed.moves != n_actions => Some(0),
            false => listed.odd,
        };
        let (deals, sets) = listed.into_lists();
        for (i, set) in sets.iter().enumerate() {
            if self.first_set[id as usize] == NONE {
                self.first_set[id as usize] = set;
            }
            if odd == Some(i) {
                return Err(refuse(format!(
                    "the moves offered to {} after {} depend on private information",
                    self.player_names[player],
                    self.history(id)
                )));
            }
            if set as usize >= self.set_node.len() {
                self.set_node.resize(set as usize + 1, NONE);
            }
            match self.set_node[set as usize] {
                NONE => self.set_node[set as usize] = id,
                other if other != id => return Err(self.unseen(other, id, set, names)),
                _ => {}
            }
        }
        // Deals in order share the one list of them (every deal, at the
        // first moves), not made again for each decision.
        let deals = match deals {
            Some(deals) => Rc::new(deals.into()),
            None if self.in_order.len() == sets.len() => self.in_order.clone(),
            None => {
                let deals = Rc::new(Deals::All(sets.len()));
                if sets.len() > self.in_order.len() {
                    self.in_order = Rc::clone(&deals);
                }
                deals
            }
        };
        self.decisions.push((id, deals, sets));
        Ok(())
    }

    /// Public node `id` is a chance node: the deals there, and per public
    /// outcome the deals it allows with their probability (each deal at
    /// most once an outcome).
    pub fn chance(&mut self, id: u32, deals: Rc<Deals>, outcomes: Rc<Vec<Allowed>>) -> Result<(), SolveError> {
        // Outcomes shared with a chance node drafted before (a
        // representative walk's memo) were checked there.
        let checked = self.checked.contains(&Rc::as_ptr(&outcomes));
        for allowed in outcomes.iter().filter(|_| !checked) {
            let mut seen: Vec<u32> = allowed.deals().collect();
            if !seen.windows(2).all(|w| w[0] < w[1]) {
                seen.sort_unstable();
            }
            if seen.windows(2).any(|w| w[0] == w[1]) {
                return Err(refuse(format!(
                    "a chance outcome after {} is not seen by every player (two outcomes of one deal reach the same \
                     information sets)",
                    self.history(id)
                )));
            }
        }
        self.nodes[id as usize] = PublicNode::Chance { children: 0..0, outcomes: 0..0 };
        self.checked.insert(Rc::as_ptr(&outcomes));
        self.chances.push(ChanceDraft { node: id, deals, outcomes });
        Ok(())
    }

    /// The children of decision or chance node `id`, in order.
    pub fn children(&mut self, id: u32, kids: &[u32]) {
        let start = self.child_ids.len() as u32;
        self.child_ids.extend_from_slice(kids);
        let range = start..self.child_ids.len() as u32;
        match &mut self.nodes[id as usize] {
            PublicNode::Decision { children, .. } | PublicNode::Chance { children, .. } => *children = range,
            PublicNode::Terminal { .. } => {}
        }
    }

    /// The error for an information set `set` met at public nodes `a` and
    /// `b`: the move or outcome where their histories part is not seen.
    pub fn unseen(&self, a: u32, b: u32, set: u32, names: &dyn Sets) -> SolveError {
        let mut above = Vec::new();
        let mut x = a;
        while x != NONE {
            above.push(x);
            x = self.parent[x as usize];
        }
        let mut common = b;
        while common != NONE && !above.contains(&common) {
            common = self.parent[common as usize];
        }
        let who = &self.player_names[names.player(set)];
        let what = match self.nodes.get(common as usize) {
            Some(PublicNode::Decision { player, .. }) => format!(
                "{}'s move at {}",
                self.player_names[*player as usize],
                names.name(self.first_set[common as usize])
            ),
            _ => format!("the chance outcome after {}", self.history(common)),
        };
        refuse(format!(
            "{what} is not seen by {who} (its information set {} follows more than one of its choices); vector CFR \
             needs every move seen by both players",
            names.name(set)
        ))
    }
}
impl Draft {
    /// The private states, the deal's weights and conflicts, the public
    /// outcomes' probabilities and the leaves' payoffs.
    pub fn finish(mut self, names: &dyn Sets) -> Result<Finished, SolveError> {
        let (class_of, mut labels) = self.classes();
        // Each information set is one private state at its node, and each
        // private state one information set there.
        let mut decisions = Vec::with_capacity(self.decisions.len());
        for (node, deals, sets) in &self.decisions {
            let PublicNode::Decision { player, .. } = self.nodes[*node as usize] else { unreachable!() };
            let p = player as usize;
            let mut set_of = vec![NONE; labels[p].len()];
            let mut out: Vec<(u32, u32)> = Vec::new();
            for (deal, set) in deals.iter().zip(sets.iter()) {
                let s = class_of[p].at(deal as usize);
                match set_of[s as usize] {
                    NONE => {
                        set_of[s as usize] = set;
                        out.push((set, s));
                        if labels[p][s as usize].is_empty() {
                            labels[p][s as usize] = match names.label(set) {
                                label if label.is_empty() => format!("state {s}"),
                                label => label,
                            };
                        }
                    }
                    other if other != set => {
                        return Err(refuse(format!(
                            "{} learns something private after the deal: its information sets {} and {} tell apart \
                             deals it cannot tell apart elsewhere",
                            self.player_names[p],
                            names.name(other),
                            names.name(set)
                        )));
                    }
                    _ => {}
                }
            }
            decisions.push((*node, out));
        }
        // Read only above: let go before the joint weights and the payoffs.
        (self.decisions, self.in_order) = (Vec::new(), Rc::new(Deals::All(0)));
        for (p, l) in labels.iter_mut().enumerate() {
            for (s, label) in l.iter_mut().enumerate() {
                if label.is_empty() {
                    *label = format!("state {s} of {}", self.player_names[p]);
                }
            }
        }
        let n = [labels[0].len(), labels[1].len()];
        // Each deal's pair, in the deals' order.
        let pairs = || class_of[0].iter().zip(class_of[1].iter()).map(|(i, j)| i as usize * n[1] + j as usize);
        if n[0].saturating_mul(n[1]) > 1 << 26 {
            return Err(refuse(format!("{} x {} private states are more pairs than vector CFR takes", n[0], n[1])));
        }
        // The pairs dealt (a bit each), and whether each by one deal at most.
        let (mut dealt, mut single) = (vec![0u64; (n[0] * n[1]).div_ceil(64)], true);
        for k in pairs() {
            single &= dealt[k / 64] & (1 << (k % 64)) == 0;
            dealt[k / 64] |= 1 << (k % 64);
        }
        // Each pair's probability: where the deals have one and each pair
        // is dealt once at most, that or 0 by its bit (with every hand a
        // `f64` a pair was 9.3 MB of the derivation's peak); else summed.
        let uniform = self.deal_prob.uniform().filter(|_| single);
        let summed = match uniform {
            Some(_) => Vec::new(),
            None => {
                let mut summed = vec![0.0f64; n[0] * n[1]];
                pairs().enumerate().for_each(|(d, k)| summed[k] += self.deal_prob.get(d));
                summed
            }
        };
        let joint = |k: usize| match uniform {
            Some(p) => f64::from(u8::from(dealt[k / 64] >> (k % 64) & 1 == 1)) * p,
            None => summed[k],
        };
        let weights = factor(joint, n)?;
        // Hands of cards that explain the conflicts exactly remove them in
        // O(n) per leaf; else the lists, O(conflicts).
        let removal = match Cards::from_labels([&labels[0], &labels[1]], |i, j| joint(i * n[1] + j) == 0.0) {
            Some(cards) => Removal::Cards(cards),
            None => {
                let incompatible: Vec<(u32, u32)> = (0..n[0] * n[1])
                    .filter(|&k| joint(k) == 0.0)
                    .map(|k| ((k / n[1]) as u32, (k % n[1]) as u32))
                    .collect();
                Removal::Lists(Conflicts::from_pairs(n, &incompatible))
            }
        };
        // Read only above: let go before the payoffs' arrays.
        drop((dealt, summed));
        let (outcomes, excluded, nodes) = self.outcomes(&class_of, n)?;
        let (payoffs, rankings, matrix) = self.payoffs(&class_of, n, single);
        let [w0, w1] = weights;
        let [l0, l1] = labels;
        let game = PublicGame {
            player_names: self.player_names,
            states: [PrivateStates { labels: l0, weights: w0 }, PrivateStates { labels: l1, weights: w1 }],
            removal,
            nodes,
            child_ids: self.child_ids,
            labels: self.labels,
            outcomes,
            excluded,
            payoffs,
            rankings,
            matrix,
        };
        game.validate().map_err(|e| refuse(format!("internal error, please report: {e}")))?;
        Ok((game, decisions))
    }
}

#[cfg(test)]
mod tests;
