//! The restricted game: the nodes whose every player's sequence is
//! allowed, its temporary leaves, and its sequence form (the treeplex
//! layout of `crate::sequence_form`, so `crate::lp` solves it as it is).
//!
//! A node is in the restricted game when every action on its path is an
//! allowed slot (the paper's maximal compatible set is exactly the
//! sequences such nodes use, so it is never computed apart). A decision
//! node whose set has no allowed action is a temporary leaf, valued once by
//! `leaf_value` (the value depends on the game and the default strategy
//! alone, so it is cached).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use galac_runtime::game::Game;
use galac_runtime::ids::{IdVec, InfosetId, PlayerId, SeqId, SlotId};

use super::default_strategy::DefaultStrategy;
use super::lazy::{Arena, Explorer, Kind, NONE};
use crate::lp::StableIds;
use crate::sequence_form::SequenceForm;
use crate::solver::SolveError;
use crate::treeplex::{Slots, Treeplex};

/// The restricted game's sequence form and how it maps to the full game.
pub(super) struct Restricted {
    pub sf: SequenceForm,
    /// Per restricted information set: the interned (global) set.
    pub sets: Vec<u32>,
    /// Per restricted action slot: the action of the global set.
    pub actions: Vec<u32>,
    /// Nodes of the restricted game, and how many are temporary leaves.
    pub nodes: usize,
    pub temp_leaves: usize,
    /// Its sequences and sets by global slot and set, which the next
    /// restricted game keeps: what carries the LP's basis from one to the
    /// next.
    pub ids: StableIds,
}

/// Whether a traversal of the restricted game follows action `a` of `node`.
pub(super) fn allowed_child(allowed: &[bool], arena: &Arena, node: u32, a: u32) -> bool {
    match arena.kind(node) {
        Kind::Decision { set, .. } => allowed.get(arena.slot(set, a) as usize).copied().unwrap_or(false),
        Kind::Chance => true,
        Kind::Terminal => false,
    }
}

/// Builds the restricted game of the `allowed` slots, expanding the arena
/// where needed and valuing new temporary leaves (in `leaf_values`, their
/// movers playing `default`).
pub(super) fn build<G: Game>(
    ex: &mut Explorer<G>,
    allowed: &[bool],
    leaf_values: &mut FxHashMap<u32, f64>,
    default: &DefaultStrategy,
) -> Result<Restricted, SolveError> {
    let follow = |arena: &Arena, node: u32, a: u32| allowed_child(allowed, arena, node, a);
    let order = ex.region(&follow)?;
    // Pass 1: the restricted sets of each player in the order met, and the
    // temporary leaves' values.
    let mut rg_of_set: FxHashMap<u32, u32> = FxHashMap::default();
    let mut sets_of: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut temp_leaves = 0;
    for &node in &order {
        let Kind::Decision { player, set } = ex.arena.kind(node) else { continue };
        let n = ex.arena.set(set).n_actions;
        if (0..n).any(|a| follow(&ex.arena, node, a)) {
            if let std::collections::hash_map::Entry::Vacant(e) = rg_of_set.entry(set) {
                e.insert(0);
                sets_of[player as usize].push(set);
            }
        } else {
            temp_leaves += 1;
            if let std::collections::hash_map::Entry::Vacant(e) = leaf_values.entry(node) {
                e.insert(ex.leaf_value(node, default)?);
            }
        }
    }
    // The layout: the first player's sets, then the second's; each set's
    // allowed actions in order.
    let arena = &ex.arena;
    let mut first_slot = Vec::new();
    let mut player_slots = vec![0u32];
    let mut sets = Vec::new();
    let mut actions = Vec::new();
    let mut n_actions = Vec::new();
    let mut rg_seq_of_slot = vec![NONE; arena.slot_set.len()];
    // Per player: the global slot of each restricted sequence, plus 1 (0: the empty sequence).
    let mut seq_keys: [Vec<u32>; 2] = [vec![0], vec![0]];
    for (p, player_sets) in sets_of.iter().enumerate() {
        for &set in player_sets {
            rg_of_set.insert(set, sets.len() as u32);
            sets.push(set);
            first_slot.push(actions.len() as u32);
            let info = arena.set(set);
            let before = actions.len();
            for a in 0..info.n_actions {
                let slot = info.first_slot + a;
                if allowed.get(slot as usize).copied().unwrap_or(false) {
                    rg_seq_of_slot[slot as usize] = actions.len() as u32 - player_slots[p] + 1;
                    seq_keys[p].push(slot + 1);
                    actions.push(a);
                }
            }
            n_actions.push((actions.len() - before) as u32);
        }
        player_slots.push(actions.len() as u32);
    }
    let rg_seq = |slot: u32| if slot == NONE { 0 } else { rg_seq_of_slot[slot as usize] };
    let parent_seq: Vec<u32> = sets.iter().map(|&s| rg_seq(arena.set(s).parent_slot)).collect();
    debug_assert!(parent_seq.iter().all(|&s| s != NONE), "a restricted set's sequence is restricted");
    let infosets_of =
        vec![(0..sets_of[0].len() as u32).collect(), (sets_of[0].len() as u32..sets.len() as u32).collect()];

    // Pass 2: chance reach top-down, and each leaf's weighted payoff into
    // its pair of sequences.
    let mut reach = vec![0.0f64; arena.len()];
    reach[0] = 1.0;
    let mut entries: FxHashMap<(u32, u32), f64> = FxHashMap::default();
    for &node in &order {
        let r = reach[node as usize];
        let leaf = match arena.kind(node) {
            Kind::Chance => {
                for (c, p) in arena.children(node).zip(arena.chance_probs(node)) {
                    reach[c as usize] = r * p;
                }
                None
            }
            Kind::Terminal => Some(arena.payoff(node, 0)),
            Kind::Decision { .. } => {
                let mut inner = false;
                for (a, c) in arena.children(node).enumerate() {
                    if follow(arena, node, a as u32) {
                        reach[c as usize] = r;
                        inner = true;
                    }
                }
                // Not inner: a temporary leaf, valued in pass 1.
                (!inner).then(|| leaf_values[&node])
            }
        };
        if let Some(v) = leaf.filter(|v| *v != 0.0) {
            let [s0, s1] = arena.seq[node as usize];
            *entries.entry((rg_seq(s0), rg_seq(s1))).or_insert(0.0) += r * v;
        }
    }
    let mut payoff: Vec<(u32, u32, f64)> = entries.into_iter().map(|((i, j), a)| (i, j, a)).collect();
    sort_entries(&mut payoff);
    // The restricted game's own ids: its sets numbered as in `sets`, its
    // slots and sequences as laid out above.
    let treeplex = Treeplex {
        slots: Slots {
            first_slot: first_slot.into_iter().map(SlotId).collect(),
            player_slots: player_slots.into_iter().map(SlotId).collect(),
        },
        parent_seq: parent_seq.into_iter().map(SeqId).collect(),
        infosets_of: infosets_of.into_iter().map(|of: Vec<u32>| of.into_iter().map(InfosetId).collect()).collect(),
    };
    let payoff = payoff.into_iter().map(|(i, j, a)| (SeqId(i), SeqId(j), a)).collect();
    let n_actions = IdVec::from(n_actions);
    let sf = SequenceForm { treeplex, n_actions, payoff, constant_sum: arena.constant_sum.unwrap_or(0) };
    let ids = StableIds {
        seqs: seq_keys,
        sets: sets.iter().map(|&s| s + 1).collect(),
        n_seq_keys: arena.slot_set.len() + 1,
        n_set_keys: arena.sets.len() + 1,
    };
    Ok(Restricted { sf, sets, actions, nodes: order.len(), temp_leaves, ids })
}

/// Behaviour probabilities below this are taken as zero (an interior-point
/// LP leaves such crumbs on actions an exact solution does not play, and
/// each would widen every best-response search); the cleaned strategy is
/// the one whose exploitability is measured, so the answer stays exact.
const CRUMB: f64 = 1e-11;

/// A player's strategy in the full game: the restricted game's behaviour
/// where it is defined (its sets reached by the plan), else the run's
/// default strategy.
#[derive(Clone, Debug, Default)]
pub struct Extended {
    /// Per global slot of a defined set: the probability of its action.
    probs: Vec<f64>,
    /// Per global set: whether the restricted game defines it.
    defined: Vec<bool>,
    /// Play where the restricted game defines nothing (shared by the run).
    default: Arc<DefaultStrategy>,
}

impl Extended {
    /// The probability of action `a` at global set `set` (of slot `first_slot`).
    pub(super) fn prob(&self, set: u32, first_slot: u32, a: u32) -> f64 {
        if self.defined.get(set as usize).copied().unwrap_or(false) {
            self.probs[(first_slot + a) as usize]
        } else {
            self.default.prob(InfosetId(set), a)
        }
    }

    /// The default strategy alone (no set defined).
    pub(super) fn of_default(default: &Arc<DefaultStrategy>) -> Extended {
        Extended { default: default.clone(), ..Extended::default() }
    }

    /// The default strategy's probability of action `a` at global set `set`.
    pub(super) fn default_prob(&self, set: u32, a: u32) -> f64 {
        self.default.prob(InfosetId(set), a)
    }

    /// Whether the restricted game's plan defines play at `set`.
    pub fn is_defined(&self, set: u32) -> bool {
        self.defined.get(set as usize).copied().unwrap_or(false)
    }
}

impl Restricted {
    /// Player `p`'s extended strategy from a realization plan of the restricted game.
    pub(super) fn extended(
        &self,
        arena: &Arena,
        p: PlayerId,
        plan: &[f64],
        default: &Arc<DefaultStrategy>,
    ) -> Extended {
        let mut ext = Extended {
            probs: vec![0.0; arena.slot_set.len()],
            defined: vec![false; arena.sets.len()],
            default: default.clone(),
        };
        let tp = &self.sf.treeplex;
        for &k in &tp.infosets_of[p] {
            let parent = plan[tp.parent_seq[k].index()];
            let first = tp.first_seq(p, k).index();
            let n = self.sf.n_actions[k] as usize;
            let mut x: Vec<f64> = plan[first..first + n].iter().map(|v| v.max(0.0)).collect();
            let total: f64 = x.iter().sum();
            if parent <= 0.0 || total <= 0.0 {
                continue;
            }
            x.iter_mut().for_each(|v| *v = if *v / total < CRUMB { 0.0 } else { *v });
            let total: f64 = x.iter().sum();
            let set = self.sets[k.index()];
            let info = arena.set(set);
            let slot0 = tp.slots.first_slot[k].index();
            for (j, v) in x.iter().enumerate() {
                ext.probs[(info.first_slot + self.actions[slot0 + j]) as usize] = v / total;
            }
            ext.defined[set as usize] = true;
        }
        ext
    }
}

/// Sorts payoff entries `(row, column, value)` by row, then column. Not
/// generic: the sort is compiled once, here, not again in each game's
/// crate with the restricted game's build.
fn sort_entries(payoff: &mut [(u32, u32, f64)]) {
    payoff.sort_by_key(|&(i, j, _)| (i, j));
}
