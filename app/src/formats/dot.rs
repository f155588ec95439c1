//! Graphviz DOT drawings of small game trees.
//!
//! Decision nodes are ellipses labelled with the player and the information
//! set (`I3` is the player's third, as in the .efg export, then the set's
//! label); chance nodes are grey diamonds; leaves are boxes with the payoff
//! vector. Edges carry the action label, and for chance the probability.
//! Nodes of one information set with more than one node share a fill colour
//! and are joined by dashed lines of that colour; singletons stay white.
//!
//! Drawings of big trees are useless and slow to lay out, so the writer
//! refuses trees above [`DotOptions::max_nodes`] nodes.

use std::io::{self, BufWriter, Write};

use super::labels::{action_label, chance_label};
use galac_runtime::ids::{IdVec, InfosetId, NodeId};
use galac_runtime::tree::{Tree, CHANCE, TERMINAL};

/// The default limit on the size of a drawn tree.
pub const DEFAULT_DOT_MAX_NODES: usize = 2000;

/// Options of the DOT writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotOptions {
    /// Refuse trees with more nodes than this; `None` draws any tree.
    pub max_nodes: Option<usize>,
}

impl Default for DotOptions {
    fn default() -> Self {
        DotOptions { max_nodes: Some(DEFAULT_DOT_MAX_NODES) }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DotError {
    #[error("the tree has {nodes} nodes, too many to draw (the limit is {limit}); use --force to draw it anyway")]
    TooBig { nodes: usize, limit: usize },
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Whether `tree` is small enough to draw under `opts` (check this before
/// creating an output file).
pub fn check_size(tree: &Tree, opts: &DotOptions) -> Result<(), DotError> {
    match opts.max_nodes {
        Some(limit) if tree.n_nodes() > limit => Err(DotError::TooBig { nodes: tree.n_nodes(), limit }),
        _ => Ok(()),
    }
}

/// Writes `tree` as a DOT digraph titled `title`, or fails with
/// [`DotError::TooBig`] (before writing anything) when it is too big.
pub fn write_dot<W: Write>(tree: &Tree, title: &str, opts: &DotOptions, out: W) -> Result<(), DotError> {
    check_size(tree, opts)?;
    let order = tree.preorder();
    // The nodes of each information set, in preorder.
    let mut members: IdVec<InfosetId, Vec<NodeId>> = IdVec::from(vec![Vec::new(); tree.infosets.len()]);
    for &node in &order {
        if let Some(set) = tree.infoset(node) {
            members[set].push(node);
        }
    }

    let mut w = BufWriter::with_capacity(1 << 16, out);
    writeln!(w, "digraph tree {{")?;
    writeln!(w, "  label={}; labelloc=t; ordering=out; fontname=\"Helvetica\";", quote(title))?;
    writeln!(w, "  node [fontname=\"Helvetica\" fontsize=10];")?;
    writeln!(w, "  edge [fontname=\"Helvetica\" fontsize=9];")?;
    for &node in &order {
        match tree.kind(node) {
            TERMINAL => {
                let pays: Vec<String> = tree.payoffs(node).iter().map(i64::to_string).collect();
                let label = format!("({})", pays.join(", "));
                writeln!(w, "  n{node} [shape=box style=rounded label={}];", quote(&label))?;
            }
            CHANCE => writeln!(w, "  n{node} [shape=diamond style=filled fillcolor=lightgrey label=\"chance\"];")?,
            _ => {
                let (Some(player), Some(set)) = (tree.player(node), tree.infoset(node)) else {
                    return Err(io::Error::other("a decision node without a player").into());
                };
                let info = &tree.infosets[set];
                let name = tree
                    .player_names
                    .get(player.index())
                    .cloned()
                    .unwrap_or_else(|| format!("player {}", player.0 + 1));
                let mut label = format!("{name}\nI{}", info.index_in_player + 1);
                // The set's label may repeat the player's name; say it once.
                let set_label = tree.infoset_label(set);
                let facts = set_label.strip_prefix(&format!("{name}: ")).unwrap_or(set_label);
                if !facts.is_empty() {
                    label.push_str(": ");
                    label.push_str(facts);
                }
                let fill = if members[set].len() > 1 { color(set.0, 0.3) } else { "white".into() };
                writeln!(w, "  n{node} [shape=ellipse style=filled fillcolor=\"{fill}\" label={}];", quote(&label))?;
            }
        }
    }
    for &node in &order {
        let probs = tree.chance_probs(node);
        for (a, child) in tree.children(node).enumerate() {
            let label = match (tree.kind(node), tree.infoset(node)) {
                (CHANCE, _) => format!(
                    "{}\n{}",
                    chance_label(tree, node, a),
                    probs.get(a).map(|p| p.to_string()).unwrap_or_default()
                ),
                (_, Some(set)) => action_label(tree, set, a),
                _ => a.to_string(),
            };
            writeln!(w, "  n{node} -> n{child} [label={}];", quote(&label))?;
        }
    }
    for (set, nodes) in members.iter().enumerate() {
        for pair in nodes.windows(2) {
            writeln!(
                w,
                "  n{} -> n{} [style=dashed dir=none constraint=false color=\"{}\"];",
                pair[0],
                pair[1],
                color(set as u32, 0.8)
            )?;
        }
    }
    writeln!(w, "}}")?;
    w.flush()?;
    Ok(())
}

/// A colour per information set (hues spread by the golden ratio), as a
/// Graphviz "H S V" string.
fn color(set: u32, saturation: f64) -> String {
    let hue = (f64::from(set) * 0.618_033_988_75).fract();
    format!("{hue:.3} {saturation:.3} 0.950")
}

/// `s` as a DOT string: quoted, with `"` and `\` escaped and line breaks as
/// `\n` (a centred line in Graphviz labels).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::test_game::{build_labelled, GuessGame};

    #[test]
    fn quotes_for_dot() {
        assert_eq!(quote("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
    }

    #[test]
    fn draws_a_small_tree() {
        let tree = build_labelled(&GuessGame);
        let mut buf = Vec::new();
        write_dot(&tree, "guess", &DotOptions::default(), &mut buf).expect("writes to memory");
        let text = String::from_utf8(buf).expect("utf-8");
        assert!(text.starts_with("digraph tree {\n"), "{text}");
        assert!(text.ends_with("}\n"), "{text}");
        // One line per node, one per edge, and the seeker's 4-node set linked 3 times.
        let nodes = text.lines().filter(|l| l.contains(" [shape=")).count();
        let edges = text.lines().filter(|l| l.contains(" -> ") && !l.contains("dashed")).count();
        let links = text.lines().filter(|l| l.contains("dashed")).count();
        assert_eq!((nodes, edges, links), (tree.n_nodes(), tree.n_nodes() - 1, 3));
        assert!(text.contains(r#"label="\"low\"\n1/3""#), "{text}");
        assert!(text.contains(r#"label="seeker\nI1: sees \\ nothing""#), "{text}");
        assert!(text.contains(r#"label="(-1, 1)""#), "{text}");
    }

    #[test]
    fn refuses_big_trees_unless_told() {
        let tree = build_labelled(&GuessGame);
        let mut buf = Vec::new();
        let small = DotOptions { max_nodes: Some(5) };
        let err = write_dot(&tree, "guess", &small, &mut buf);
        assert!(matches!(err, Err(DotError::TooBig { nodes: 15, limit: 5 })), "{err:?}");
        assert!(buf.is_empty());
        write_dot(&tree, "guess", &DotOptions { max_nodes: None }, &mut buf).expect("no limit");
        assert!(!buf.is_empty());
    }
}
