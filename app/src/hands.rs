//! Answers per hand, as hold'em players read them: at a public state where
//! each of the player's information sets holds one hand of two standard
//! cards (its private facts, [`crate::private_info`]), the strategy and
//! the value of every hand, and the 13x13 grid of hand classes (pairs on
//! the diagonal, suited above it, offsuit below, aces first), each cell
//! aggregating its hands weighted by their reach.
//!
//! Everything comes from the solved profile on the tree: a hand's reach is
//! the probability that play reaches its set (chance, both players), its
//! action values are [`galac_solvers::beliefs`]' (the player's expected
//! payoff after the action, given the set is reached), its value is their
//! mean under its strategy. So a state's value, the reach-weighted mean of
//! its hands' values, is the player's expected payoff given the state is
//! reached, in the game's payoff units (chips for the hold'em examples:
//! net of the half pot each player put in before the spot).

use galac_runtime::ids::{IdSlice, InfosetId, PlayerId};
use galac_runtime::labels::cards_shown;
use galac_runtime::tree::Tree;
use galac_solvers::beliefs::SetView;
use galac_solvers::Profile;

use crate::private_info::PublicView;

/// Rank letters, rank 0 (a two) first: the standard deck as
/// docs/language.md ("Hold'em") numbers it.
const RANKS: &[u8] = crate::cards::DEFAULT_RANKS.as_bytes();

/// Cells of the grid: 13 rows of 13, row-major, aces in row and column 0.
pub const CELLS: usize = 169;

/// One hand at a public state.
#[derive(Clone, Debug)]
pub struct Combo {
    pub set: InfosetId,
    /// The two cards, the higher rank first (`AhKd`).
    pub hand: String,
    /// Its cell of the grid.
    pub cell: usize,
    /// Probability that play reaches the set.
    pub reach: f64,
    /// The strategy, per action.
    pub probs: Vec<f64>,
    /// Per action: the player's expected payoff after it, given the set is
    /// reached; NaN where nothing reaches the set.
    pub action_values: Vec<f64>,
    /// The mean of the action values under the strategy.
    pub value: f64,
}

/// One cell of the grid: its hands together, weighted by reach.
#[derive(Clone, Debug)]
pub struct Cell {
    /// `AA`, `AKs`, `AKo`.
    pub name: String,
    /// Hands of the cell at the state (held by some set of the player).
    pub combos: u32,
    /// Their reach, summed.
    pub reach: f64,
    /// Per action, the reach-weighted frequency; empty without reach.
    pub probs: Vec<f64>,
    /// Per action, the reach-weighted action value; empty without reach.
    pub action_values: Vec<f64>,
    /// The reach-weighted value; NaN without reach.
    pub value: f64,
}

/// The hands of one player at one public state.
#[derive(Clone, Debug)]
pub struct Grid {
    pub player: PlayerId,
    /// The public state, an index of [`PublicView::paths`].
    pub state: u32,
    /// The public moves and cards that lead to it (`Check Bet(100)`), or
    /// `start` at the first one.
    pub line: String,
    /// How many public moves and cards lead to it.
    pub moves: usize,
    pub actions: Vec<String>,
    /// In the order of their sets.
    pub combos: Vec<Combo>,
    /// [`CELLS`] cells, row-major.
    pub cells: Vec<Cell>,
    /// The hands' reach, summed: the probability of the state.
    pub reach: f64,
    /// Per action, the reach-weighted frequency over every hand.
    pub probs: Vec<f64>,
    /// The player's expected payoff given the state is reached.
    pub value: f64,
}

/// The two cards `(rank, suit)` of a hand given as a mask of bits
/// `4 * rank + suit` (vector CFR's hands), the higher rank first.
pub fn mask_cards(mask: u64) -> [(u8, u8); 2] {
    let card_of = |bit: u32| ((bit / 4) as u8, (bit % 4) as u8);
    let (lo, hi) = (card_of(mask.trailing_zeros()), card_of(63 - mask.leading_zeros()));
    if hi.0 >= lo.0 {
        [hi, lo]
    } else {
        [lo, hi]
    }
}

/// Two cards `(rank, suit)` written as players write a hand: `AhKd`.
pub fn hand_text(cards: [(u8, u8); 2]) -> String {
    let show = |(r, s): (u8, u8)| {
        galac_runtime::notation::show_card(galac_runtime::notation::card(i64::from(r), i64::from(s)))
    };
    format!("{}{}", show(cards[0]), show(cards[1]))
}

/// The grid cell of two cards `(rank, suit)`, and its name.
pub fn cell_of(a: (u8, u8), b: (u8, u8)) -> (usize, String) {
    let (hi, lo) = if a.0 >= b.0 { (a.0, b.0) } else { (b.0, a.0) };
    let (r, c) = (12 - hi as usize, 12 - lo as usize);
    let name = |x: u8| RANKS[x as usize] as char;
    if hi == lo {
        (r * 13 + r, format!("{}{}", name(hi), name(lo)))
    } else if a.1 == b.1 {
        (r * 13 + c, format!("{}{}s", name(hi), name(lo)))
    } else {
        (c * 13 + r, format!("{}{}o", name(hi), name(lo)))
    }
}

/// The name of cell `cell` (`AKs` above the diagonal).
pub fn cell_name(cell: usize) -> String {
    let (r, c) = (cell / 13, cell % 13);
    let rank = |i: usize| RANKS[12 - i] as char;
    match r.cmp(&c) {
        std::cmp::Ordering::Equal => format!("{}{}", rank(r), rank(r)),
        std::cmp::Ordering::Less => format!("{}{}s", rank(r), rank(c)),
        std::cmp::Ordering::Greater => format!("{}{}o", rank(c), rank(r)),
    }
}

/// The hand a set's private facts name: exactly two distinct cards of the
/// standard deck, the higher first.
fn hand_of(private: &[impl AsRef<str>]) -> Option<[(u8, u8); 2]> {
    let cards: Vec<(i64, i64)> = private.iter().flat_map(|f| cards_shown(f.as_ref())).collect();
    let &[a, b] = cards.as_slice() else { return None };
    let ok = |(r, s): (i64, i64)| ((0..13).contains(&r) && (0..4).contains(&s)).then_some((r as u8, s as u8));
    let (a, b) = (ok(a)?, ok(b)?);
    if a == b {
        return None;
    }
    Some(if (a.0, a.1) >= (b.0, b.1) { [a, b] } else { [b, a] })
}

/// Whether the game has two players and each set's label has a fact
/// naming a hand of two cards: a test on the labels alone, before the work
/// of [`grids`] (a pass over the tree), which games without such hands
/// (Leduc: one private card) never pay.
pub fn may_have_hands(tree: &Tree) -> bool {
    tree.n_players == 2
        && !tree.infosets.is_empty()
        && tree
            .infosets
            .keys()
            .all(|s| crate::private_info::facts(tree.infoset_label(s)).iter().any(|f| hand_of(&[f]).is_some()))
}

/// The grids of every public state whose sets are all hands, over the sets
/// `chosen` picks (states with none are left out), in the states' order.
pub fn grids(
    tree: &Tree,
    profile: &Profile,
    views: &IdSlice<InfosetId, SetView>,
    public: &PublicView,
    chosen: impl Fn(InfosetId) -> bool,
) -> Vec<Grid> {
    let n_states = public.paths.len();
    let mut sets: Vec<Vec<InfosetId>> = vec![Vec::new(); n_states];
    let mut all_hands = vec![true; n_states];
    for set in tree.infosets.keys() {
        let k = public.state[set] as usize;
        all_hands[k] &= hand_of(&public.private[set]).is_some();
        if chosen(set) {
            sets[k].push(set);
        }
    }
    (0..n_states)
        .filter(|&k| all_hands[k] && !sets[k].is_empty())
        .map(|k| grid(tree, profile, views, public, k as u32, &sets[k]))
        .collect()
}

/// The grid of state `state` over `sets` (all hands).
fn grid(
    tree: &Tree,
    profile: &Profile,
    views: &IdSlice<InfosetId, SetView>,
    public: &PublicView,
    state: u32,
    sets: &[InfosetId],
) -> Grid {
    let actions = tree.action_labels(sets[0]).to_vec();
    let combos: Vec<Combo> = sets
        .iter()
        .map(|&set| {
            let [a, b] = hand_of(&public.private[set]).expect("a state of hands");
            let (cell, _) = cell_of(a, b);
            let card = |(r, s): (u8, u8)| {
                galac_runtime::notation::show_card(galac_runtime::notation::card(i64::from(r), i64::from(s)))
            };
            let probs = profile.probs(set).to_vec();
            let action_values = views[set].action_values.clone();
            let value = probs.iter().zip(&action_values).map(|(p, v)| p * v).sum();
            Combo {
                set,
                hand: format!("{}{}", card(a), card(b)),
                cell,
                reach: views[set].reach,
                probs,
                action_values,
                value,
            }
        })
        .collect();
    let moves: Vec<String> =
        public.paths[state as usize].iter().filter(|o| *o != "?").map(|o| crate::cards::standard(o)).collect();
    let line = if moves.is_empty() { "start".to_string() } else { moves.join(" ") };
    Grid::from_combos(tree.infosets[sets[0]].player, state, line, moves.len(), actions, combos)
}

impl Grid {
    /// The grid of one player's `combos` at a public state reached by
    /// `line` (`moves` public moves and cards): the cells and the totals,
    /// each weighted by the hands' reach.
    pub fn from_combos(
        player: PlayerId,
        state: u32,
        line: String,
        moves: usize,
        actions: Vec<String>,
        combos: Vec<Combo>,
    ) -> Grid {
        let n = actions.len();
        let mut cells: Vec<Cell> = (0..CELLS)
            .map(|c| Cell {
                name: cell_name(c),
                combos: 0,
                reach: 0.0,
                probs: vec![0.0; n],
                action_values: vec![0.0; n],
                value: 0.0,
            })
            .collect();
        let (mut reach, mut probs, mut value) = (0.0, vec![0.0; n], 0.0);
        for combo in &combos {
            let cell = &mut cells[combo.cell];
            cell.combos += 1;
            // A hand that play never reaches weighs nothing (and its values
            // may be NaN).
            let w = combo.reach;
            if w <= 0.0 {
                continue;
            }
            cell.reach += w;
            cell.value += w * combo.value;
            for ((x, y), p) in cell.probs.iter_mut().zip(probs.iter_mut()).zip(&combo.probs) {
                *x += w * p;
                *y += w * p;
            }
            for (x, v) in cell.action_values.iter_mut().zip(&combo.action_values) {
                *x += w * v;
            }
            reach += w;
            value += w * combo.value;
        }
        for cell in &mut cells {
            if cell.reach > 0.0 {
                cell.probs.iter_mut().chain(&mut cell.action_values).for_each(|x| *x /= cell.reach);
                cell.value /= cell.reach;
            } else {
                (cell.probs, cell.action_values, cell.value) = (Vec::new(), Vec::new(), f64::NAN);
            }
        }
        if reach > 0.0 {
            probs.iter_mut().for_each(|x| *x /= reach);
            value /= reach;
        } else {
            value = f64::NAN;
        }
        Grid { player, state, line, moves, actions, combos, cells, reach, probs, value }
    }
}

/// Each player's first grid: the state of fewest public moves (its first
/// decision), in the players' order.
pub fn first_of_each_player(grids: &[Grid]) -> Vec<&Grid> {
    let mut players: Vec<PlayerId> = grids.iter().map(|g| g.player).collect();
    players.sort();
    players.dedup();
    players
        .into_iter()
        .filter_map(|p| grids.iter().filter(|g| g.player == p).min_by_key(|g| (g.moves, g.state)))
        .collect()
}

/// The root grids of a solved game (each player's first), or none when
/// its sets are not hands: what `solve` shows.
pub fn root_grids(tree: &Tree, profile: &Profile) -> Vec<Grid> {
    if !may_have_hands(tree) {
        return Vec::new();
    }
    let public = crate::private_info::public_view(tree);
    let views = galac_solvers::beliefs::explain(tree, profile);
    let all = grids(tree, profile, &views, &public, |_| true);
    first_of_each_player(&all).into_iter().cloned().collect()
}

/// A grid as text: the frequency of every action over all hands, then one
/// 13x13 table per action (percent of each cell's hands, `.` where the
/// player holds no hand that reaches here) and one of the cells' values.
pub fn text(grid: &Grid, players: &[String]) -> String {
    let mut out = format!(
        "\nhands of {} at {} ({} hands, reach {:.4}, value {}):\n",
        players[grid.player.index()],
        grid.line,
        grid.combos.len(),
        grid.reach,
        number(grid.value, 3)
    );
    let freqs: Vec<String> = grid.actions.iter().zip(&grid.probs).map(|(a, p)| format!("{a} {p:.3}")).collect();
    out += &format!("  frequencies: {}\n", freqs.join(", "));
    let mut table = |title: String, width: usize, show: &dyn Fn(&Cell) -> String| {
        let header: String = (0..13).map(|i| format!("{:>width$}", RANKS[12 - i] as char)).collect();
        out += &format!("  {title}:\n   {header}\n");
        for r in 0..13 {
            out += &format!("  {}", RANKS[12 - r] as char);
            for c in 0..13 {
                let cell = &grid.cells[r * 13 + c];
                let shown = if cell.reach > 0.0 { show(cell) } else { ".".to_string() };
                out += &format!("{shown:>width$}");
            }
            out += "\n";
        }
    };
    for (a, name) in grid.actions.iter().enumerate() {
        table(format!("{name}, percent of each cell's hands"), 4, &|cell| format!("{:.0}", 100.0 * cell.probs[a]));
    }
    table("value per cell".into(), 7, &|cell| number(cell.value, 1));
    out
}

/// A number with `digits` decimals; `-` when it is not finite.
fn number(x: f64, digits: usize) -> String {
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "-".into()
    }
}

/// A grid in JSON answers (`solve`'s `hands`, `explain`'s `grids`):
/// frequencies and values as arrays in the order of `actions`, values in
/// the game's payoff units given the hand (cell, state) is reached; cells
/// without a hand left out.
#[derive(serde::Serialize)]
pub struct GridJson<'a> {
    pub player: &'a str,
    pub line: &'a str,
    pub actions: &'a [String],
    pub reach: f64,
    pub frequencies: &'a [f64],
    pub value: Option<f64>,
    pub cells: Vec<CellJson<'a>>,
    pub hands: Vec<HandJson<'a>>,
}

#[derive(serde::Serialize)]
pub struct CellJson<'a> {
    /// `AKs`; `row` and `col` from 0, aces first.
    pub cell: &'a str,
    pub row: usize,
    pub col: usize,
    pub combos: u32,
    pub reach: f64,
    pub frequencies: &'a [f64],
    pub value: Option<f64>,
    pub action_values: Vec<Option<f64>>,
}

#[derive(serde::Serialize)]
pub struct HandJson<'a> {
    pub hand: &'a str,
    pub cell: &'a str,
    pub reach: f64,
    pub frequencies: &'a [f64],
    pub value: Option<f64>,
    pub action_values: Vec<Option<f64>>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl<'a> GridJson<'a> {
    pub fn new(grid: &'a Grid, players: &'a [String]) -> GridJson<'a> {
        GridJson {
            player: &players[grid.player.index()],
            line: &grid.line,
            actions: &grid.actions,
            reach: grid.reach,
            frequencies: &grid.probs,
            value: finite(grid.value),
            cells: grid
                .cells
                .iter()
                .enumerate()
                .filter(|(_, c)| c.combos > 0)
                .map(|(i, c)| CellJson {
                    cell: &c.name,
                    row: i / 13,
                    col: i % 13,
                    combos: c.combos,
                    reach: c.reach,
                    frequencies: &c.probs,
                    value: finite(c.value),
                    action_values: c.action_values.iter().map(|&x| finite(x)).collect(),
                })
                .collect(),
            hands: grid
                .combos
                .iter()
                .map(|h| HandJson {
                    hand: &h.hand,
                    cell: &grid.cells[h.cell].name,
                    reach: h.reach,
                    frequencies: &h.probs,
                    value: finite(h.value),
                    action_values: h.action_values.iter().map(|&x| finite(x)).collect(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_put_pairs_on_the_diagonal_suited_above_and_offsuit_below() {
        assert_eq!(cell_of((12, 0), (12, 1)), (0, "AA".to_string()));
        assert_eq!(cell_of((11, 2), (12, 2)), (1, "AKs".to_string()));
        assert_eq!(cell_of((12, 2), (11, 3)), (13, "AKo".to_string()));
        assert_eq!(cell_of((0, 0), (1, 1)), (12 * 13 + 11, "32o".to_string()));
        for c in 0..CELLS {
            let name = cell_name(c);
            let rank = |ch: char| RANKS.iter().position(|&r| r as char == ch).expect("a rank") as u8;
            let mut chars = name.chars();
            let (a, b) = (rank(chars.next().expect("two ranks")), rank(chars.next().expect("two ranks")));
            let suited = chars.next() == Some('s');
            assert_eq!(cell_of((a, 0), (b, if suited { 0 } else { 1 })), (c, name));
        }
    }
}
