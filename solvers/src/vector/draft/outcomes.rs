//! [`Draft::outcomes`]: the public outcomes of the draft's chance nodes,
//! each one's probability and the private states it excludes, checked to
//! be the same for every pair it allows (a part of [`Draft::finish`]).

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::super::game::{Outcome, PublicNode};
use super::super::infer::refuse;
use super::{Allowed, Draft, SetIds};
use crate::solver::SolveError;

impl Draft {
    /// The public outcomes: each one's probability and excluded states,
    /// checked to be the same for every pair it allows.
    #[allow(clippy::type_complexity)]
    pub(super) fn outcomes(
        &self,
        class_of: &[SetIds; 2],
        n: [usize; 2],
    ) -> Result<(Vec<Outcome>, Vec<u32>, Vec<PublicNode>), SolveError> {
        let mut nodes = self.nodes.clone();
        let (mut outcomes, mut excluded): (Vec<Outcome>, Vec<u32>) = (Vec::new(), Vec::new());
        // Per (deals, outcomes) shared by chance nodes (a representative
        // walk's memo: the turn's river after each line), the outcomes
        // worked out at the first: the others' are copies.
        let mut done: FxHashMap<(*const super::Deals, *const Vec<Allowed>), std::ops::Range<usize>> =
            FxHashMap::default();
        for draft in &self.chances {
            let start = outcomes.len() as u32;
            let key = (Rc::as_ptr(&draft.deals), Rc::as_ptr(&draft.outcomes));
            if let Some(first) = done.get(&key) {
                for o in first.clone() {
                    let Outcome { prob, excluded: ranges } = outcomes[o].clone();
                    let ranges = ranges.map(|r| {
                        let from = excluded.len() as u32;
                        excluded.extend_from_within(r.start as usize..r.end as usize);
                        from..excluded.len() as u32
                    });
                    outcomes.push(Outcome { prob, excluded: ranges });
                }
            }
            for allowed in draft.outcomes.iter().filter(|_| !done.contains_key(&key)) {
                let mut ok = [vec![false; n[0]], vec![false; n[1]]];
                for deal in allowed.deals() {
                    (0..2).for_each(|p| ok[p][class_of[p].at(deal as usize) as usize] = true);
                }
                let (prob, same) = match allowed {
                    Allowed::Each(each) => {
                        (each[0].1, each.iter().all(|&(_, p)| (p - each[0].1).abs() <= 1e-12 * each[0].1))
                    }
                    Allowed::Same(prob, _) => (*prob, true),
                };
                let mut present = vec![false; self.deal_prob.len()];
                allowed.deals().for_each(|d| present[d as usize] = true);
                let fits = same
                    && draft.deals.iter().all(|d| {
                        let expected = (0..2).all(|p| ok[p][class_of[p].at(d as usize) as usize]);
                        expected == present[d as usize]
                    });
                if !fits {
                    return Err(refuse(format!(
                        "a chance outcome after {} has other odds for different deals than card removal explains",
                        self.history(draft.node)
                    )));
                }
                let mut ranges = [0..0, 0..0];
                for p in 0..2 {
                    let from = excluded.len() as u32;
                    excluded.extend((0..n[p] as u32).filter(|&s| !ok[p][s as usize]));
                    ranges[p] = from..excluded.len() as u32;
                }
                outcomes.push(Outcome { prob, excluded: ranges });
            }
            done.entry(key).or_insert(start as usize..outcomes.len());
            if let PublicNode::Chance { outcomes: o, .. } = &mut nodes[draft.node as usize] {
                *o = start..outcomes.len() as u32;
            }
        }
        Ok((outcomes, excluded, nodes))
    }
}
