//! Solvers and the evaluation of strategy profiles. They see the game only
//! through the [`crate::tree::Tree`] (and its sequence form).

pub mod best_response;
pub mod lp;

use crate::tree::Tree;

/// A behaviour strategy profile: for every information set of the tree, a
/// probability per action, flattened (`offsets[I] .. offsets[I] + n_actions`).
#[derive(Clone, Debug)]
pub struct Profile {
    pub offsets: Vec<u32>,
    pub probs: Vec<f64>,
}

impl Profile {
    /// Uniform play everywhere.
    pub fn uniform(tree: &Tree) -> Profile {
        let mut offsets = Vec::with_capacity(tree.infosets.len());
        let mut probs = Vec::new();
        for info in &tree.infosets {
            offsets.push(probs.len() as u32);
            let n = info.n_actions as usize;
            probs.extend(std::iter::repeat_n(1.0 / n as f64, n));
        }
        Profile { offsets, probs }
    }

    pub fn probs(&self, infoset: u32) -> &[f64] {
        let start = self.offsets[infoset as usize] as usize;
        let end = self.offsets.get(infoset as usize + 1).map_or(self.probs.len(), |e| *e as usize);
        &self.probs[start..end]
    }

    pub fn probs_mut(&mut self, infoset: u32) -> &mut [f64] {
        let start = self.offsets[infoset as usize] as usize;
        let end = self.offsets.get(infoset as usize + 1).map_or(self.probs.len(), |e| *e as usize);
        &mut self.probs[start..end]
    }
}
