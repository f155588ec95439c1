//! `Tree`: galac's flat game tree seen from Python: its sizes, numpy
//! arrays over its nodes (kind, player, information set, parent, children,
//! the chance probability of the move into each node, payoffs) and over
//! its information sets (player, labels, actions), and its drawing as SVG.
//! Node 0 is the root; a node's children are contiguous, in the game's
//! order of actions (or outcomes).

use std::sync::Arc;

use galac_runtime::ids::{IdVec, InfosetId, NodeId};
use galac_runtime::tree::NodeView;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A built tree with what every answer about it needs.
pub struct Built {
    pub tree: galac_runtime::tree::Tree,
    /// The sets' unique labels, as `solve` prints them (`report::unique_labels`,
    /// cards as cards: `cards::standard`).
    pub labels: IdVec<InfosetId, String>,
    /// Seconds the build took.
    pub seconds: f64,
    /// The game's name and params.
    pub title: String,
}

/// The game tree of a `Game` (its `tree()`).
#[pyclass(frozen, module = "galac._galac")]
pub struct Tree {
    built: Arc<Built>,
}

impl Tree {
    pub fn new(built: Arc<Built>) -> Tree {
        Tree { built }
    }

    fn node_id(&self, node: usize) -> PyResult<NodeId> {
        if node < self.built.tree.n_nodes() {
            Ok(NodeId::from_index(node))
        } else {
            Err(PyIndexError::new_err(format!("no node {node}: the tree has {}", self.built.tree.n_nodes())))
        }
    }

    fn per_node<'py, T: numpy::Element>(&self, py: Python<'py>, f: impl Fn(NodeId) -> T) -> Bound<'py, PyArray1<T>> {
        self.built.tree.nodes().map(f).collect::<Vec<T>>().into_pyarray(py)
    }
}

#[pymethods]
impl Tree {
    /// Node count.
    #[getter]
    fn n_nodes(&self) -> usize {
        self.built.tree.n_nodes()
    }

    #[getter]
    fn n_infosets(&self) -> usize {
        self.built.tree.infosets.len()
    }

    #[getter]
    fn players(&self) -> Vec<String> {
        self.built.tree.player_names.clone()
    }

    /// Seconds the build took.
    #[getter]
    fn seconds(&self) -> f64 {
        self.built.seconds
    }

    /// `galac tree`'s counts: nodes, terminals, chance nodes, decision
    /// nodes, information sets and sequences per player, depth, bytes.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.built.tree.stats();
        let dict = PyDict::new(py);
        dict.set_item("nodes", s.nodes)?;
        dict.set_item("terminals", s.terminals)?;
        dict.set_item("chance_nodes", s.chance_nodes)?;
        dict.set_item("decision_nodes", s.decision_nodes)?;
        dict.set_item("infosets", s.infosets)?;
        dict.set_item("sequences", s.sequences)?;
        dict.set_item("max_depth", s.max_depth)?;
        dict.set_item("bytes", s.bytes)?;
        Ok(dict)
    }

    /// Per node: 0 terminal, 1 chance, 2 decision.
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.per_node(py, |n| match self.built.tree.node(n) {
            NodeView::Terminal => 0,
            NodeView::Chance => 1,
            NodeView::Decision { .. } => 2,
        })
    }

    /// Per node: the player to move (0-based), -1 at chance and terminal nodes.
    fn player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.per_node(py, |n| self.built.tree.player(n).map_or(-1, |p| p.index() as i32))
    }

    /// Per node: its information set, -1 at chance and terminal nodes.
    fn infoset<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.per_node(py, |n| self.built.tree.infoset(n).map_or(-1, |s| s.index() as i64))
    }

    /// Per node: its first child (children are contiguous), -1 at a leaf.
    fn first_child<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.per_node(py, |n| {
            let c = self.built.tree.children(n);
            if c.is_empty() {
                -1
            } else {
                c.start.index() as i64
            }
        })
    }

    /// Per node: its number of children.
    fn n_children<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.per_node(py, |n| self.built.tree.children(n).indices().len() as i64)
    }

    /// Per node: its parent, -1 at the root.
    fn parent<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let tree = &self.built.tree;
        let mut parent = vec![-1i64; tree.n_nodes()];
        for n in tree.nodes() {
            for c in tree.children(n) {
                parent[c.index()] = n.index() as i64;
            }
        }
        parent.into_pyarray(py)
    }

    /// Per node: the probability of the chance move into it (exact ratios
    /// as floats), NaN where its parent is not a chance node.
    fn chance_prob<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let tree = &self.built.tree;
        let mut prob = vec![f64::NAN; tree.n_nodes()];
        for n in tree.nodes() {
            if tree.node(n) == NodeView::Chance {
                for (c, p) in tree.children(n).zip(tree.chance_probs(n)) {
                    prob[c.index()] = p.to_f64();
                }
            }
        }
        prob.into_pyarray(py)
    }

    /// Per node and player: the payoff at a leaf, 0 elsewhere.
    fn payoffs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let tree = &self.built.tree;
        let players = tree.n_players as usize;
        let mut out = vec![0i64; tree.n_nodes() * players];
        for n in tree.nodes() {
            if tree.node(n) == NodeView::Terminal {
                out[n.index() * players..(n.index() + 1) * players].copy_from_slice(tree.payoffs(n));
            }
        }
        let array = Array2::from_shape_vec((tree.n_nodes(), players), out)
            .map_err(|e| PyIndexError::new_err(format!("internal error, please report: {e}")))?;
        Ok(array.into_pyarray(py))
    }

    /// Per information set: its player.
    fn infoset_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let sets = &self.built.tree.infosets;
        sets.iter().map(|s| s.player.index() as i32).collect::<Vec<_>>().into_pyarray(py)
    }

    /// Per information set: its label, unique, as `solve` prints it.
    fn infoset_labels(&self) -> Vec<String> {
        self.built.labels.iter().cloned().collect()
    }

    /// Per information set: its actions' labels.
    fn action_labels(&self) -> Vec<Vec<String>> {
        let tree = &self.built.tree;
        tree.infosets.keys().map(|s| tree.action_labels(s).to_vec()).collect()
    }

    /// The labels of the moves out of `node` (actions, or chance outcomes).
    fn move_labels(&self, node: usize) -> PyResult<Vec<String>> {
        let tree = &self.built.tree;
        let node = self.node_id(node)?;
        Ok(match tree.node(node) {
            NodeView::Decision { infoset, .. } => tree.action_labels(infoset).to_vec(),
            NodeView::Chance => tree.chance_outcome_labels(node).to_vec(),
            NodeView::Terminal => Vec::new(),
        })
    }

    /// The tree drawn as SVG (`galac plot tree`), at most `max_drawn` nodes.
    #[pyo3(signature = (max_drawn = 200))]
    fn svg(&self, max_drawn: usize) -> PyResult<String> {
        let style =
            galac_app::cards::CardStyle { symbols: true, ranks: galac_app::cards::DEFAULT_RANKS.chars().collect() };
        galac_app::plot::tree::draw(&self.built.tree, &self.built.title, max_drawn, &style)
            .map_err(crate::errors::GalacError::new_err)
    }

    fn __repr__(&self) -> String {
        let s = self.built.tree.stats();
        format!("<galac.Tree of {}: {} nodes, {:?} information sets>", self.built.title, s.nodes, s.infosets)
    }
}
