//! What a player knows that the others do not: the private facts of each
//! information set, by which `explain` groups the sets.
//!
//! A fact's tag does not say who else knows it (Kuhn tells `first` of
//! `second`'s bet as `moved(Bet)`, a fact `second` never gets, yet `second`
//! knows it: it chose the bet). So privacy is read from the information
//! partition instead. An outcome of a node (a chance outcome or an action)
//! is public when no information set of any player holds nodes below two
//! different outcomes of it: nobody ever confuses them. A node's public
//! state is the path to it with its public outcomes named and the others
//! hidden. All the nodes of a set share one (a set mixing two paths hides
//! the outcome where they part). Within a public state the player's sets
//! differ only in what the player alone knows: the facts of a set that not
//! all of the player's sets in its public state share are its private
//! facts (in poker, the private card; none in a game of perfect
//! information).

use std::collections::HashMap;

use galac_runtime::tree::{NodeView, Tree};

/// Per information set: its private facts, in the label's order.
pub fn private_facts(tree: &Tree) -> Vec<Vec<String>> {
    let n = tree.n_nodes();
    let mut parent = vec![u32::MAX; n];
    let mut depth = vec![0u32; n];
    let mut first_node = vec![u32::MAX; tree.infosets.len()];
    let mut last_node = vec![u32::MAX; tree.infosets.len()];
    let mut hidden = vec![false; n];
    for node in tree.preorder() {
        for child in tree.children(node) {
            (parent[child as usize], depth[child as usize]) = (node, depth[node as usize] + 1);
        }
        if let NodeView::Decision { infoset, .. } = tree.node(node) {
            let set = infoset as usize;
            // In preorder, the nodes where two of a set's nodes part are the
            // meeting points of consecutive ones (a set's "virtual tree").
            if last_node[set] != u32::MAX {
                hidden[meet(&parent, &depth, last_node[set], node) as usize] = true;
            }
            if first_node[set] == u32::MAX {
                first_node[set] = node;
            }
            last_node[set] = node;
        }
    }
    // Each set's public state: the path to its first node.
    let public: Vec<Vec<String>> = first_node
        .iter()
        .map(|&node| {
            let mut path = Vec::new();
            let mut v = node;
            while v != u32::MAX && parent[v as usize] != u32::MAX {
                let up = parent[v as usize];
                let a = (v - tree.children(up).start) as usize;
                path.push(if hidden[up as usize] { "?".to_string() } else { outcome(tree, up, a) });
                v = up;
            }
            path.reverse();
            path
        })
        .collect();
    let mut states: HashMap<(u32, &[String]), Vec<usize>> = HashMap::new();
    for (set, path) in public.iter().enumerate() {
        states.entry((tree.infosets[set].player, path.as_slice())).or_default().push(set);
    }
    let mut out = vec![Vec::new(); tree.infosets.len()];
    for sets in states.values() {
        let facts: Vec<Vec<&str>> = sets.iter().map(|&s| facts(tree.infoset_label(s as u32))).collect();
        for (k, &set) in sets.iter().enumerate() {
            out[set] = facts[k]
                .iter()
                .filter(|f| !f.is_empty() && !facts.iter().all(|other| other.contains(f)))
                .map(|f| f.to_string())
                .collect();
        }
    }
    out
}

/// The deepest common ancestor of two nodes.
fn meet(parent: &[u32], depth: &[u32], mut a: u32, mut b: u32) -> u32 {
    while depth[a as usize] > depth[b as usize] {
        a = parent[a as usize];
    }
    while depth[b as usize] > depth[a as usize] {
        b = parent[b as usize];
    }
    while a != b {
        (a, b) = (parent[a as usize], parent[b as usize]);
    }
    a
}

/// The name of outcome `a` of `node`: the action's or chance outcome's label.
fn outcome(tree: &Tree, node: u32, a: usize) -> String {
    let label = match tree.node(node) {
        NodeView::Decision { infoset, .. } => tree.action_labels(infoset).get(a).cloned(),
        _ => tree.chance_outcome_labels(node).get(a).cloned(),
    };
    label.unwrap_or_else(|| format!("#{a}"))
}

/// The facts of a set's label (after the player's name), split at the
/// commas outside parentheses.
pub fn facts(label: &str) -> Vec<&str> {
    let list = label.split_once(": ").map_or("", |(_, facts)| facts);
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(list[start..].trim());
    out
}
