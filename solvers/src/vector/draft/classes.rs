//! [`Draft::classes`]: each player's private states, the classes of the
//! deals it cannot tell apart, found over the decisions' sets (a leaf of
//! `draft`).

use super::{Classes, Draft, PublicNode, SetIds, NONE};

impl Draft {
    /// Per player and deal, its private state: a class of deals it cannot
    /// tell apart, the deals joined by a set of its (deals at one set are
    /// one class, and so are the sets of one deal), numbered in the order
    /// of their least deal; and per player a label per state (empty here).
    /// Found over the sets: per deal its first set (in the class's own
    /// array), the sets of one deal joined.
    pub(super) fn classes(&self) -> ([SetIds; 2], [Vec<String>; 2]) {
        let n_deals = self.deal_prob.len();
        // Per player and deal its class: a `u16` each while they fit (a
        // million deals with every hand), made from a `u32` per deal (its
        // first set) for one player at a time.
        let mut class_of: [SetIds; 2] = Default::default();
        let mut labels: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for p in 0..2 {
            let mut classes = Classes::new(self.set_node.len());
            let mut first = vec![NONE; n_deals];
            for (node, deals, sets) in &self.decisions {
                if !matches!(self.nodes[*node as usize], PublicNode::Decision { player, .. } if player as usize == p) {
                    continue;
                }
                for (deal, set) in deals.iter().zip(sets.iter()) {
                    match first[deal as usize] {
                        NONE => first[deal as usize] = set,
                        other => classes.union(other, set),
                    }
                }
            }
            let mut index = vec![NONE; self.set_node.len()];
            let of = &mut class_of[p];
            *of = SetIds::with_capacity(n_deals);
            for set in first {
                // A deal at no set of the player's is a class of its own.
                let root = if set == NONE { None } else { Some(classes.find(set) as usize) };
                of.push(match root.map(|r| (r, index[r])) {
                    Some((_, i)) if i != NONE => i,
                    root => {
                        let class = labels[p].len() as u32;
                        labels[p].push(String::new());
                        if let Some((r, _)) = root {
                            index[r] = class;
                        }
                        class
                    }
                });
            }
        }
        (class_of, labels)
    }
}
