//! Behaviour strategy profiles: what every solver returns and what the
//! best response evaluates. Probabilities are stored in the treeplex's slot
//! layout ([`crate::slots::Slots`]).

use galac_runtime::ids::{IdVec, InfosetId, SlotId};
use galac_runtime::tree::Tree;

use crate::slots::Slots;

/// A behaviour strategy profile: for every information set of the tree, a
/// probability per action, at `first_slot[I] .. first_slot[I] + n_actions`.
#[derive(Clone, Debug)]
pub struct Profile {
    first_slot: IdVec<InfosetId, SlotId>,
    n_actions: IdVec<InfosetId, u32>,
    /// The probabilities of every slot, indexed by `SlotId::index`.
    pub probs: Vec<f64>,
}

impl Profile {
    /// Uniform play everywhere.
    pub fn uniform(tree: &Tree) -> Profile {
        let slots = Slots::new(tree);
        let mut probs = vec![0.0; slots.len()];
        for (info, &first) in tree.infosets.iter().zip(&slots.first_slot) {
            let n = info.n_actions as usize;
            probs[first.index()..first.index() + n].fill(1.0 / n as f64);
        }
        Profile { first_slot: slots.first_slot, n_actions: tree.infosets.iter().map(|i| i.n_actions).collect(), probs }
    }

    /// Uniform play over sets with these action counts, their slots one
    /// after another: a profile of sets that are not a tree's (a public
    /// game's decision and private state, read from a strategy file).
    pub fn uniform_over(n_actions: IdVec<InfosetId, u32>) -> Profile {
        let mut first_slot = Vec::with_capacity(n_actions.len());
        let mut probs = Vec::new();
        for &n in n_actions.iter() {
            first_slot.push(SlotId(probs.len() as u32));
            probs.extend(std::iter::repeat_n(1.0 / f64::from(n.max(1)), n as usize));
        }
        Profile { first_slot: IdVec::from(first_slot), n_actions, probs }
    }

    pub fn probs(&self, infoset: InfosetId) -> &[f64] {
        let start = self.first_slot[infoset].index();
        &self.probs[start..start + self.n_actions[infoset] as usize]
    }

    pub fn probs_mut(&mut self, infoset: InfosetId) -> &mut [f64] {
        let start = self.first_slot[infoset].index();
        &mut self.probs[start..start + self.n_actions[infoset] as usize]
    }
}
