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

use galac_runtime::ids::{IdVec, InfosetId, NodeId, PlayerId};
use galac_runtime::tree::{NodeView, Tree};

/// Per information set: its private facts, in the label's order.
pub fn private_facts(tree: &Tree) -> IdVec<InfosetId, Vec<String>> {
    public_view(tree).private
}

/// The sets' split into public states and private facts.
pub struct PublicView {
    /// Per set: its private facts, in the label's order.
    pub private: IdVec<InfosetId, Vec<String>>,
    /// Per set: its public state, an index into `paths` (one per player
    /// and public path, numbered in the order of their first sets).
    pub state: IdVec<InfosetId, u32>,
    /// Per public state: the path to it, each outcome named or `?` where
    /// it is hidden.
    pub paths: Vec<Vec<String>>,
}

/// Every set's public state and private facts (see the module comment).
pub fn public_view(tree: &Tree) -> PublicView {
    let n = tree.n_nodes();
    let mut parent: Vec<Option<NodeId>> = vec![None; n];
    let mut depth = vec![0u32; n];
    let mut first_node: IdVec<InfosetId, Option<NodeId>> = IdVec::from(vec![None; tree.infosets.len()]);
    let mut last_node: IdVec<InfosetId, Option<NodeId>> = IdVec::from(vec![None; tree.infosets.len()]);
    let mut hidden = vec![false; n];
    for node in tree.preorder() {
        for child in tree.children(node) {
            (parent[child.index()], depth[child.index()]) = (Some(node), depth[node.index()] + 1);
        }
        if let NodeView::Decision { infoset: set, .. } = tree.node(node) {
            // In preorder, the nodes where two of a set's nodes part are the
            // meeting points of consecutive ones (a set's "virtual tree").
            if let Some(last) = last_node[set] {
                hidden[meet(&parent, &depth, last, node).index()] = true;
            }
            first_node[set].get_or_insert(node);
            last_node[set] = Some(node);
        }
    }
    // Each set's public state: the path to its first node.
    let public: IdVec<InfosetId, Vec<String>> = first_node
        .iter()
        .map(|&node| {
            let mut path = Vec::new();
            let mut v = node;
            while let Some(up) = v.and_then(|v| parent[v.index()]) {
                let a = (v.expect("a node with a parent") - tree.children(up).start) as usize;
                path.push(if hidden[up.index()] { "?".to_string() } else { outcome(tree, up, a) });
                v = Some(up);
            }
            path.reverse();
            path
        })
        .collect();
    // Public states in the order of their first sets, so that the
    // numbering does not depend on a hash.
    let mut index: HashMap<(PlayerId, &[String]), u32> = HashMap::new();
    let mut states: Vec<Vec<InfosetId>> = Vec::new();
    let mut state: IdVec<InfosetId, u32> = IdVec::from(vec![0; tree.infosets.len()]);
    for (set, path) in public.iter_enumerated() {
        let next = states.len() as u32;
        let k = *index.entry((tree.infosets[set].player, path.as_slice())).or_insert(next);
        if k == next {
            states.push(Vec::new());
        }
        states[k as usize].push(set);
        state[set] = k;
    }
    let mut out: IdVec<InfosetId, Vec<String>> = IdVec::from(vec![Vec::new(); tree.infosets.len()]);
    for sets in &states {
        let facts: Vec<Vec<&str>> = sets.iter().map(|&s| facts(tree.infoset_label(s))).collect();
        for (k, &set) in sets.iter().enumerate() {
            out[set] = facts[k]
                .iter()
                .filter(|f| !f.is_empty() && !facts.iter().all(|other| other.contains(f)))
                .map(|f| f.to_string())
                .collect();
        }
    }
    let paths = states.iter().map(|sets| public[sets[0]].clone()).collect();
    PublicView { private: out, state, paths }
}

/// The deepest common ancestor of two nodes.
fn meet(parent: &[Option<NodeId>], depth: &[u32], mut a: NodeId, mut b: NodeId) -> NodeId {
    let up = |n: NodeId| parent[n.index()].expect("a node below another has a parent");
    while depth[a.index()] > depth[b.index()] {
        a = up(a);
    }
    while depth[b.index()] > depth[a.index()] {
        b = up(b);
    }
    while a != b {
        (a, b) = (up(a), up(b));
    }
    a
}

/// The name of outcome `a` of `node`: the action's or chance outcome's label.
fn outcome(tree: &Tree, node: NodeId, a: usize) -> String {
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
