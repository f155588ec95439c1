//! The tree of a small game: nodes in layers by depth, leaves spread evenly
//! across the width; decisions coloured by player, chance grey, leaves
//! labelled with their payoffs; edges labelled with actions and chance
//! outcomes; the nodes of an information set joined by dashed lines in
//! their player's colour; every node's full description in its tooltip.

use galac_runtime::ids::{IdVec, InfosetId, NodeId};
use galac_runtime::tree::{NodeView, Tree};

use super::svg::{Svg, COLOURS};
use crate::cards::CardStyle;

/// Horizontal room per leaf.
const LEAF_W: f64 = 46.0;
/// Vertical room per level.
const LEVEL_H: f64 = 90.0;

/// The tree as an SVG document, or why it is too large to draw.
pub fn draw(tree: &Tree, title: &str, max_drawn: usize, style: &CardStyle) -> Result<String, String> {
    if tree.n_nodes() > max_drawn {
        return Err(format!(
            "the tree has {} nodes; the drawing takes at most {max_drawn} (raise it with --max-drawn, or export it with --dot)",
            tree.n_nodes()
        ));
    }
    let order = tree.preorder();
    let n = tree.n_nodes();
    // x: leaves in preorder, 0, 1, 2, ...; an inner node at its children's mean.
    let (mut x, mut depth) = (vec![0.0f64; n], vec![0u32; n]);
    for &node in &order {
        for c in tree.children(node) {
            depth[c.index()] = depth[node.index()] + 1;
        }
    }
    let mut next_leaf = 0.0;
    for &node in order.iter() {
        if tree.node(node) == NodeView::Terminal {
            x[node.index()] = next_leaf;
            next_leaf += 1.0;
        }
    }
    for &node in order.iter().rev() {
        let kids = tree.children(node);
        if !kids.is_empty() {
            x[node.index()] = kids.map(|c| x[c.index()]).sum::<f64>() / kids.len() as f64;
        }
    }
    let max_depth = depth.iter().copied().max().unwrap_or(0) as f64;
    let (width, height) = ((next_leaf.max(4.0)) * LEAF_W + 80.0, (max_depth + 1.0) * LEVEL_H + 100.0);
    let pos = |v: NodeId| (40.0 + LEAF_W / 2.0 + x[v.index()] * LEAF_W, 60.0 + depth[v.index()] as f64 * LEVEL_H);
    let mut svg = Svg::new(width, height);
    for &node in &order {
        let (px, py) = pos(node);
        let labels: Vec<String> = match tree.node(node) {
            NodeView::Chance => {
                let outs = tree.chance_outcome_labels(node);
                tree.chance_probs(node)
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{} {p}", outs.get(i).map_or("", |s| s.as_str())))
                    .collect()
            }
            NodeView::Decision { infoset, .. } => tree.action_labels(infoset).to_vec(),
            NodeView::Terminal => Vec::new(),
        };
        for (c, label) in tree.children(node).zip(&labels) {
            let (cx, cy) = pos(c);
            svg.line(px, py, cx, cy, "#888");
            svg.text((px + cx) / 2.0, (py + cy) / 2.0 - 3.0, 10.0, "middle", &style.rewrite(label.trim()));
        }
    }
    // Each information set's nodes, joined left to right (preorder is
    // left to right within a depth).
    let mut last_of_set: IdVec<InfosetId, Option<NodeId>> = IdVec::from(vec![None; tree.infosets.len()]);
    for &node in &order {
        if let NodeView::Decision { player, infoset } = tree.node(node) {
            if let Some(prev) = last_of_set[infoset].replace(node) {
                let ((ax, ay), (bx, by)) = (pos(prev), pos(node));
                svg.dashed_line(ax, ay, bx, by, COLOURS[player.index() % COLOURS.len()]);
            }
        }
    }
    for &node in &order {
        let (px, py) = pos(node);
        match tree.node(node) {
            NodeView::Chance => svg.circle(px, py, 7.0, "#bbbbbb", "chance"),
            NodeView::Decision { player, infoset } => {
                let colour = COLOURS[player.index() % COLOURS.len()];
                let who =
                    format!("{}: {}", tree.player_names[player.index()], style.rewrite(tree.infoset_label(infoset)));
                svg.circle(px, py, 8.0, colour, &who);
            }
            NodeView::Terminal => {
                let pay: Vec<String> = tree.payoffs(node).iter().map(|p| p.to_string()).collect();
                svg.text(px, py + 4.0, 10.0, "middle", &pay.join(","));
            }
        }
    }
    svg.legend(width - 150.0, 40.0, &tree.player_names);
    Ok(svg.finish(&format!("{title}: game tree")))
}
