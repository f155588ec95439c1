//! The sequence-form LP of `lp.rs` as HiGHS takes it: the first player's
//! LP in column-wise form (the second player's plan is read from its
//! duals), with its set values `q` bounded on sparse one-off LPs, and the
//! payoff scale both engines use. A leaf: `lp.rs` and the benches use it.

use galac_runtime::ids::{InfosetId, PlayerId};

use crate::sequence_form::SequenceForm;

/// How [`highs_model`] bounds its columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Boxed {
    /// The `q` free, the plans `x >= 0`: the LP as written.
    Free,
    /// The `q` within `[-b, b]` ([`value_bound`]), which keeps an optimum.
    Values(f64),
    /// As `Values`, and every plan `x <= PLAN_BOX` too: every column
    /// boxed, so that a basis carried to a grown LP is made dual feasible
    /// by flipping columns between their bounds rather than by the dual
    /// simplex's phase 1.
    All(f64),
}

/// The plans' upper bound in a [`Boxed::All`] LP. A realization plan is at
/// most 1, so a bound past it is never reached at a feasible point and
/// never changes the duals the second player's plan is read from; at 1
/// itself a pure plan sat on the bound with a nonzero reduced cost (so
/// its duals were not the LP's) and most of Kuhn's restricted LPs were
/// solved again from scratch.
const PLAN_BOX: f64 = 2.0;

/// The first player's LP (as `lp.rs`'s `PlayerLp` lays it out) in HiGHS's
/// column-wise form. Columns: the first player's sequences `x`, then `q_0`
/// and one `q` per second-player set; rows: `x_0 = 1`, one per
/// first-player set (`-x_parent + sum of its sequences = 0`), then one per
/// second-player sequence (`(F^T q)_j - (A^T x)_j <= 0`). The columns are
/// bounded as `boxed` says. Returns the model and the payoff scale.
pub(crate) fn highs_model(sf: &SequenceForm, boxed: Boxed) -> (crate::highs::Model, f64) {
    let tp = &sf.treeplex;
    let (p0, p1) = (PlayerId(0), PlayerId(1));
    let (n0, n1) = (tp.n_seqs(p0), tp.n_seqs(p1));
    let (sets0, sets1) = (&tp.infosets_of[p0], &tp.infosets_of[p1]);
    let n_cols = n0 + 1 + sets1.len();
    let n_rows = 1 + sets0.len() + n1;
    let seq_row = |j: usize| (1 + sets0.len() + j) as i32;
    let scale = payoff_scale(sf);
    // (column, row, value), sorted by column then gathered.
    let mut entries: Vec<(u32, i32, f64)> = Vec::with_capacity(sf.payoff.len() + 2 * (n0 + n1) + 2);
    entries.push((0, 0, 1.0));
    for (r, &set) in sets0.iter().enumerate() {
        let row = 1 + r as i32;
        entries.push((tp.parent_seq[set].0, row, -1.0));
        let first = tp.first_seq(p0, set).0;
        entries.extend((first..first + sf.n_actions[set]).map(|c| (c, row, 1.0)));
    }
    entries.push((n0 as u32, seq_row(0), 1.0));
    for (k, &set) in sets1.iter().enumerate() {
        let col = (n0 + 1 + k) as u32;
        entries.push((col, seq_row(tp.parent_seq[set].index()), -1.0));
        let first = tp.first_seq(p1, set).index();
        entries.extend((first..first + n_actions(sf, set)).map(|j| (col, seq_row(j), 1.0)));
    }
    entries.extend(sf.payoff.iter().map(|&(i, j, a)| (i.0, seq_row(j.index()), -a * scale)));
    entries.sort_unstable_by_key(|&(c, r, _)| (c, r));
    let mut model = crate::highs::Model {
        maximise: true,
        cost: vec![0.0; n_cols],
        col_lower: vec![0.0; n_cols],
        col_upper: vec![f64::INFINITY; n_cols],
        row_lower: vec![0.0; n_rows],
        row_upper: vec![0.0; n_rows],
        start: vec![0; n_cols + 1],
        index: Vec::with_capacity(entries.len()),
        value: Vec::with_capacity(entries.len()),
    };
    model.cost[n0] = 1.0;
    let b = match boxed {
        Boxed::Free => f64::INFINITY,
        Boxed::Values(b) | Boxed::All(b) => b,
    };
    model.col_lower[n0..].fill(-b);
    model.col_upper[n0..].fill(b);
    if let Boxed::All(_) = boxed {
        model.col_upper[..n0].fill(PLAN_BOX);
    }
    (model.row_lower[0], model.row_upper[0]) = (1.0, 1.0);
    model.row_lower[1 + sets0.len()..].fill(f64::NEG_INFINITY);
    for &(c, r, v) in &entries {
        model.start[c as usize + 1] += 1;
        model.index.push(r);
        model.value.push(v);
    }
    for c in 0..n_cols {
        model.start[c + 1] += model.start[c];
    }
    (model, scale)
}

/// Writes the first player's LP exactly as HiGHS gets it, as text: a line
/// `columns rows nonzeros scale`, then one line each of the column costs,
/// column lower and upper bounds, row lower and upper bounds, and the
/// column-wise matrix's starts, row indices and values (`inf` for an
/// infinite bound). `bench/lp_scipy.py` solves it with scipy's HiGHS.
/// The LP of a cold start (no basis), with its `q` bounded as
/// [`solve_highs`] gives it.
pub fn write_highs_model(sf: &SequenceForm, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let (m, scale) = highs_model(sf, cold_q_bound(sf).map_or(Boxed::Free, Boxed::Values));
    m.write(scale, out)
}

/// The bound a one-off LP (no basis to start from) puts on its `q`
/// ([`value_bound`]), where bounding them measured faster: LPs with at most
/// [`BOUNDED_MAX_DENSITY`] nonzeros a column.
pub(crate) fn cold_q_bound(sf: &SequenceForm) -> Option<f64> {
    let tp = &sf.treeplex;
    let (n0, n1) = (tp.n_seqs(PlayerId(0)), tp.n_seqs(PlayerId(1)));
    let (s0, s1) = (tp.infosets_of[PlayerId(0)].len(), tp.infosets_of[PlayerId(1)].len());
    // The nonzeros and columns of `highs_model`'s matrix.
    let nonzeros = sf.payoff.len() + n0 + n1 + s0 + s1;
    let columns = n0 + 1 + s1;
    (nonzeros as f64 <= BOUNDED_MAX_DENSITY * columns as f64).then(|| value_bound(sf, payoff_scale(sf)))
}

/// The bound on the `q` of a warm-started LP (`Boxed::All`), where they
/// are always bounded.
pub(crate) fn warm_q_bound(sf: &SequenceForm) -> f64 {
    value_bound(sf, payoff_scale(sf))
}

/// Past this many nonzeros a column a one-off LP keeps its `q` free. With
/// bounded `q`, scipy's HiGHS on the same LP, CPU s (load 7), against free:
/// liar's dice (6.0 a column) 0.75 against 1.24; Leduc (5.1) 0.06 against
/// 0.06; but 10-rank 2-suit poker (20.9) 0.69 against 0.39 and 13-rank
/// (26.9) 1.85 against 1.10 (docs/perf/lp.md, "Bounded set values").
const BOUNDED_MAX_DENSITY: f64 = 10.0;

/// A bound on the `q` (second-player set values, payoffs scaled by
/// `scale`) that keeps an optimum of the first player's LP: setting each
/// `q_I` to the second player's best-response value below `I` against an
/// optimal `x` is feasible and optimal, and that value is a sum of
/// `a_ij x_i` over pairs with `0 <= x_i <= 1`, so at most `scale * sum |a|`
/// in size (doubled, plus 1, to stay off it). Why bound them at all: with
/// free `q` HiGHS's dual simplex first spends about half its iterations in
/// its dual phase 1 making the free columns' reduced costs zero; with
/// every column boxed the slack basis is dual feasible at once. On liar's
/// dice that took the LP from 8,167 iterations (4,041 of them phase 1) to
/// 14,625 cheaper ones: 0.85 s of CPU instead of 1.4 (docs/perf/lp.md,
/// "Bounded set values"); denser LPs got slower ([`cold_q_bound`]).
fn value_bound(sf: &SequenceForm, scale: f64) -> f64 {
    2.0 * scale * sf.payoff.iter().map(|&(_, _, a)| a.abs()).sum::<f64>() + 1.0
}

/// The factor the payoff matrix is multiplied by in the LP (the value is
/// divided back): its smallest entry becomes 1, unless that would make the
/// largest exceed 1e6. Chance weights make the entries small, and clarabel
/// then stops short of the accuracy the answer needs ("almost solved");
/// scaled, it reaches it (docs/perf/lp.md, "Scaling"). Realization plans
/// do not change with the scale.
pub(crate) fn payoff_scale(sf: &SequenceForm) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for &(_, _, a) in &sf.payoff {
        let a = a.abs();
        if a > 0.0 {
            lo = lo.min(a);
            hi = hi.max(a);
        }
    }
    if hi == 0.0 {
        return 1.0;
    }
    (1.0 / lo).min(1e6 / hi)
}

pub(crate) fn n_actions(sf: &SequenceForm, set: InfosetId) -> usize {
    sf.n_actions[set] as usize
}
