//! A game that is one simultaneous move of two players (the first chooses,
//! the second chooses without learning it, then the play ends) is a matrix
//! game: `tree` shows it as its payoff matrix.

use galac_runtime::ids::{InfosetId, NodeId, PlayerId};
use galac_runtime::tree::{NodeView, Tree};

/// The payoff matrix of a one-move game.
pub struct Matrix {
    /// The player choosing the row, and the one choosing the column.
    pub row_player: PlayerId,
    pub col_player: PlayerId,
    /// The action labels (empty when the tree was built without labels).
    pub row_actions: Vec<String>,
    pub col_actions: Vec<String>,
    /// Per row, per column: the payoff vector.
    pub payoffs: Vec<Vec<Vec<i64>>>,
}

/// The matrix of `tree` if it is one simultaneous move of two players.
pub fn of(tree: &Tree) -> Option<Matrix> {
    if tree.n_players != 2 || tree.n_nodes() == 0 {
        return None;
    }
    let NodeView::Decision { player: row_player, infoset: rows } = tree.node(NodeId::ROOT) else { return None };
    let mut col: Option<(PlayerId, InfosetId)> = None;
    let mut payoffs = Vec::new();
    for child in tree.children(NodeId::ROOT) {
        let NodeView::Decision { player, infoset } = tree.node(child) else { return None };
        // The second mover must not learn the first's choice: one set.
        if player == row_player || col.is_some_and(|c| c != (player, infoset)) {
            return None;
        }
        col = Some((player, infoset));
        let mut row = Vec::new();
        for leaf in tree.children(child) {
            if !matches!(tree.node(leaf), NodeView::Terminal) {
                return None;
            }
            row.push(tree.payoffs(leaf).to_vec());
        }
        payoffs.push(row);
    }
    let (col_player, cols) = col?;
    Some(Matrix {
        row_player,
        col_player,
        row_actions: tree.action_labels(rows).to_vec(),
        col_actions: tree.action_labels(cols).to_vec(),
        payoffs,
    })
}

impl Matrix {
    /// The matrix as text: one line per row, `a, b` payoffs per cell.
    pub fn text(&self, players: &[String]) -> String {
        let label = |labels: &[String], i: usize| labels.get(i).cloned().unwrap_or_else(|| i.to_string());
        let cell = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let n_cols = self.payoffs.first().map_or(0, Vec::len);
        let mut grid: Vec<Vec<String>> =
            vec![std::iter::once(String::new()).chain((0..n_cols).map(|j| label(&self.col_actions, j))).collect()];
        for (i, row) in self.payoffs.iter().enumerate() {
            grid.push(std::iter::once(label(&self.row_actions, i)).chain(row.iter().map(|v| cell(v))).collect());
        }
        let widths: Vec<usize> =
            (0..=n_cols).map(|j| grid.iter().map(|r| r[j].chars().count()).max().unwrap_or(0)).collect();
        let mut out = format!(
            "a matrix game: one simultaneous move, {} x {}; {} chooses the row, {} the column (payoffs {}, {})\n",
            self.payoffs.len(),
            n_cols,
            players[self.row_player.index()],
            players[self.col_player.index()],
            players[0],
            players[1]
        );
        for r in &grid {
            let cells: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:>w$}")).collect();
            out += &format!("  {}\n", cells.join("   "));
        }
        out
    }

    /// The matrix as JSON.
    pub fn json<'a>(&'a self, players: &'a [String]) -> MatrixJson<'a> {
        MatrixJson {
            row_player: &players[self.row_player.index()],
            col_player: &players[self.col_player.index()],
            row_actions: &self.row_actions,
            col_actions: &self.col_actions,
            payoffs: &self.payoffs,
        }
    }
}

/// The matrix in the `tree` JSON answer.
#[derive(serde::Serialize)]
pub struct MatrixJson<'a> {
    pub row_player: &'a str,
    pub col_player: &'a str,
    pub row_actions: &'a [String],
    pub col_actions: &'a [String],
    pub payoffs: &'a [Vec<Vec<i64>>],
}
