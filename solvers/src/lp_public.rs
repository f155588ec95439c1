//! The sequence-form LP of a game in vector CFR's class (every move seen
//! by both players, private information only from the deal: Kuhn, Leduc,
//! liar's dice), written over its public tree ([`PublicGame`]) so that a
//! showdown or fold leaf costs O(n + conflicts) nonzeros instead of the
//! scalar LP's n0 x n1 (docs/perf/lp.md, "The public LP").
//!
//! A sequence of player `p` is (public decision node of `p`, action,
//! private state), or the empty sequence of a state; the LP is `lp.rs`'s
//! first-player LP (maximise `f^T q` over `E x = e`, `F^T q - A^T x <= 0`,
//! `x >= 0`) with one root row or column per state. `A^T x` at a leaf is
//! not written out pair by pair: auxiliary free variables `z_1..z_G` hold
//! the running sums, in the ranking's order, of player 0's weighted
//! realization `X_i = chance * w0(i) * x_i` over its rank groups (one
//! group for a constant payoff), and player 1's row of state `j` reads
//! `win * below + tie * equal + lose * above` off three of them, then
//! takes out the pairs the deal never gives (conflict lists) one by one.
//! A payoff matrix stays pair by pair. States excluded by a public chance
//! outcome add nothing below it; their sequences there are free of payoff
//! and never reached.
//!
//! The LP is solved by HiGHS: the second player's plan is the duals of its
//! sequences' rows (substituting the auxiliary rows away gives `lp.rs`'s
//! LP, with the same duals on those rows). The plans become behaviour at
//! the tree's information sets through [`FromTree::decisions`], and the
//! caller certifies the profile on the tree as for the scalar LP.

use std::time::Instant;

use galac_runtime::cancel::Cancel;
use galac_runtime::ids::InfosetId;
use galac_runtime::tree::Tree;

use crate::lp::{Backend, LpError};
use crate::solver::{Observer, Solution, SolveError, Solver};
use crate::vector::from_tree::FromTree;
use crate::vector::game::{Conflicts, Payoff, PublicGame, PublicNode, Removal};
use crate::Profile;

/// No sequence or row (a node of the other player, a chance node, a leaf).
const NONE: u32 = u32::MAX;

/// The engine of the public LP when none is named: clarabel, whose
/// interior point solved 13-rank Leduc's public LP in about 2 s of CPU
/// where HiGHS's dual simplex had not finished in 3 minutes and its
/// interior point took 32 s (docs/perf/lp.md, "The public LP").
pub const PUBLIC_BACKEND: Backend = Backend::Clarabel;

/// The public LP, built and not yet solved.
pub struct PublicLp {
    model: crate::highs::Model,
    /// The payoff factor (as `lp.rs`'s `payoff_scale`: the value is divided back).
    scale: f64,
    /// Per player and public node: the node's first sequence (those of
    /// action `a` and state `i` at `base + a * n + i`), or [`NONE`].
    base: [Vec<u32>; 2],
    n_seqs: [usize; 2],
    /// The row of player 1's first sequence (its rows are contiguous).
    first_seq_row: usize,
    pub build_seconds: f64,
}

/// Both plans (over [`PublicLp`]'s sequences) and the value.
pub struct PublicSolution {
    pub value: f64,
    pub plans: [Vec<f64>; 2],
    pub solve_seconds: f64,
}

/// Sizes of the LP, for the bench and the docs.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub columns: usize,
    pub rows: usize,
    pub nonzeros: usize,
}

/// Player 0's weighted realization at a leaf: `(column, coefficient)` per
/// live state, and the state's index.
struct Live {
    col: u32,
    weight: f64,
    state: u32,
}

/// What the walk over the public tree fills in.
struct Builder<'g> {
    game: &'g PublicGame,
    conflicts: std::borrow::Cow<'g, Conflicts>,
    n: [usize; 2],
    base: [Vec<u32>; 2],
    /// Player 0's set rows and player 1's set columns, per public node.
    set_at: Vec<u32>,
    n_cols: u32,
    n_rows: u32,
    first_seq_row: u32,
    entries: Vec<(u32, u32, f64)>,
    /// Per player and state: public outcomes above the current node that exclude it.
    dead: [Vec<u32>; 2],
    scale: f64,
    /// Scratch per leaf: the live states, and per state its column and weight.
    live: Vec<Live>,
    weight: Vec<(u32, f64)>,
}

impl PublicLp {
    /// The LP of `game` (card removal by hands becomes conflict lists).
    pub fn new(game: &PublicGame) -> PublicLp {
        let start = Instant::now();
        let n = [game.states[0].len(), game.states[1].len()];
        let conflicts = match &game.removal {
            Removal::Lists(c) => std::borrow::Cow::Borrowed(c),
            Removal::Cards(cards) => {
                let mut pairs = Vec::new();
                for (i, a) in cards.hands[0].iter().enumerate() {
                    for (j, b) in cards.hands[1].iter().enumerate() {
                        if a & b != 0 {
                            pairs.push((i as u32, j as u32));
                        }
                    }
                }
                std::borrow::Cow::Owned(Conflicts::from_pairs(n, &pairs))
            }
        };
        // Sequences: the empty one per state, then per decision node of
        // the player its actions times its states.
        let mut base = [vec![NONE; game.nodes.len()], vec![NONE; game.nodes.len()]];
        let mut n_seqs = n;
        let mut set_at = vec![NONE; game.nodes.len()];
        // Player 0's set rows follow its root rows; player 1's set columns
        // follow its root columns (after player 0's sequences, below).
        let (mut rows0, mut cols1) = (n[0] as u32, n[1] as u32);
        for (node, kind) in game.nodes.iter().enumerate() {
            if let PublicNode::Decision { player, children } = kind {
                let p = *player as usize;
                base[p][node] = n_seqs[p] as u32;
                n_seqs[p] += children.len() * n[p];
                let next = if p == 0 { &mut rows0 } else { &mut cols1 };
                set_at[node] = *next;
                *next += n[p] as u32;
            }
        }
        // Columns: x, then q (player 1's root and set columns), then the
        // auxiliary sums. Rows: player 0's root and set rows, player 1's
        // sequences, then the auxiliary sums' definitions.
        let first_seq_row = rows0;
        let q0 = n_seqs[0] as u32;
        for node in 0..game.nodes.len() {
            if base[1][node] != NONE {
                set_at[node] += q0;
            }
        }
        let mut b = Builder {
            game,
            conflicts,
            n,
            base,
            set_at,
            n_cols: q0 + cols1,
            n_rows: first_seq_row + n_seqs[1] as u32,
            first_seq_row,
            entries: Vec::new(),
            dead: [vec![0; n[0]], vec![0; n[1]]],
            scale: payoff_scale(game),
            live: Vec::new(),
            weight: Vec::new(),
        };
        // Roots: x_empty(i) = 1; player 1's root column of state j enters
        // the row of its empty sequence.
        for i in 0..n[0] as u32 {
            b.entries.push((i, i, 1.0));
        }
        for j in 0..n[1] as u32 {
            b.entries.push((q0 + j, first_seq_row + j, 1.0));
        }
        b.walk(0, [0, 0], 1.0);
        let Builder { mut entries, n_cols, n_rows, scale, base, .. } = b;
        entries.sort_unstable_by_key(|&(c, r, _)| (c, r));
        let mut model = crate::highs::Model {
            maximise: true,
            cost: vec![0.0; n_cols as usize],
            col_lower: vec![0.0; n_cols as usize],
            col_upper: vec![f64::INFINITY; n_cols as usize],
            row_lower: vec![0.0; n_rows as usize],
            row_upper: vec![0.0; n_rows as usize],
            start: vec![0; n_cols as usize + 1],
            index: Vec::with_capacity(entries.len()),
            value: Vec::with_capacity(entries.len()),
        };
        model.cost[q0 as usize..q0 as usize + n[1]].fill(1.0);
        model.col_lower[q0 as usize..].fill(f64::NEG_INFINITY);
        model.row_lower[..n[0]].fill(1.0);
        model.row_upper[..n[0]].fill(1.0);
        model.row_lower[first_seq_row as usize..first_seq_row as usize + n_seqs[1]].fill(f64::NEG_INFINITY);
        // Gather, summing entries of one (column, row): a pair of sequences
        // may meet at several leaves.
        let mut last = (NONE, NONE);
        for (c, r, v) in entries {
            if (c, r) == last {
                *model.value.last_mut().expect("an entry before") += v;
                continue;
            }
            last = (c, r);
            model.start[c as usize + 1] += 1;
            model.index.push(r as i32);
            model.value.push(v);
        }
        for c in 0..n_cols as usize {
            model.start[c + 1] += model.start[c];
        }
        PublicLp {
            model,
            scale,
            base,
            n_seqs: [n_seqs[0], n_seqs[1]],
            first_seq_row: first_seq_row as usize,
            build_seconds: start.elapsed().as_secs_f64(),
        }
    }

    pub fn size(&self) -> Size {
        Size { columns: self.model.cost.len(), rows: self.model.row_lower.len(), nonzeros: self.model.value.len() }
    }

    /// Writes the LP as HiGHS gets it, in [`crate::lp::write_highs_model`]'s
    /// format (for `bench/lp_scipy.py`).
    pub fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.model.write(self.scale, out)
    }

    /// Solves the LP with `backend` (HiGHS's simplex or clarabel; microlp
    /// is refused); stops within an iteration once `cancel` is set.
    pub fn solve(&self, backend: Backend, cancel: Option<&Cancel>) -> Result<PublicSolution, LpError> {
        let start = Instant::now();
        let opt = match backend {
            Backend::Highs => {
                let opt =
                    crate::highs::solve(&self.model, None, crate::highs::TOLERANCE, cancel).map_err(|e| match e {
                        crate::highs::Failure::Cancelled => LpError::Cancelled,
                        crate::highs::Failure::Other(status) => {
                            LpError::Solver { backend: backend.name(), which: "public", status }
                        }
                    })?;
                crate::clarabel_run::ModelOptimum { objective: opt.objective, cols: opt.cols, row_duals: opt.row_duals }
            }
            Backend::Clarabel => crate::clarabel_run::solve_model(&self.model, "public", cancel)?,
            Backend::Microlp => {
                return Err(LpError::Solver {
                    backend: backend.name(),
                    which: "public",
                    status: "the public LP is solved by highs or clarabel".into(),
                })
            }
        };
        let x = opt.cols[..self.n_seqs[0]].to_vec();
        let rows = self.first_seq_row..self.first_seq_row + self.n_seqs[1];
        // The sign of a multiplier is the engine's convention; the plan is its size.
        let y = opt.row_duals[rows].iter().map(|d| d.abs()).collect();
        Ok(PublicSolution {
            value: opt.objective / self.scale,
            plans: [x, y],
            solve_seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// The plans as behaviour at the tree's information sets (`derived`
    /// made this LP's game from `tree`), and the sets they never reach
    /// (uniform there).
    pub fn profile(&self, tree: &Tree, derived: &FromTree, plans: &[Vec<f64>; 2]) -> (Profile, Vec<InfosetId>) {
        let game = &derived.game;
        let mut profile = Profile::uniform(tree);
        let mut unreached = Vec::new();
        for (node, sets) in &derived.decisions {
            let PublicNode::Decision { player, children } = &game.nodes[*node as usize] else { continue };
            let p = *player as usize;
            let (n, base) = (game.states[p].len(), self.base[p][*node as usize] as usize);
            for &(set, s) in sets {
                let at = |a: usize| plans[p][base + a * n + s as usize].max(0.0);
                let total: f64 = (0..children.len()).map(at).sum();
                if total > 0.0 {
                    let probs = profile.probs_mut(InfosetId(set));
                    for (a, x) in probs.iter_mut().enumerate() {
                        *x = at(a) / total;
                    }
                } else {
                    unreached.push(InfosetId(set));
                }
            }
        }
        unreached.sort_unstable();
        (profile, unreached)
    }
}

impl Builder<'_> {
    /// Adds the rows, columns and entries of `node`'s subtree; `last[p]`:
    /// player `p`'s sequence above it for state 0 (state `i`'s is `+ i`),
    /// `chance`: the public outcomes' probability on the way.
    fn walk(&mut self, node: u32, last: [u32; 2], chance: f64) {
        let game = self.game;
        match &game.nodes[node as usize] {
            PublicNode::Decision { player, children } => {
                let p = *player as usize;
                let (n, base, set) = (self.n[p] as u32, self.base[p][node as usize], self.set_at[node as usize]);
                for i in 0..n {
                    for a in 0..children.len() as u32 {
                        let seq = base + a * n + i;
                        if p == 0 {
                            // -x_parent + sum of the set's sequences = 0.
                            self.entries.push((seq, set + i, 1.0));
                        } else {
                            self.entries.push((set + i, self.first_seq_row + seq, 1.0));
                        }
                    }
                    if p == 0 {
                        self.entries.push((last[0] + i, set + i, -1.0));
                    } else {
                        self.entries.push((set + i, self.first_seq_row + last[1] + i, -1.0));
                    }
                }
                for (a, &child) in game.children(node).iter().enumerate() {
                    let mut next = last;
                    next[p] = base + a as u32 * n;
                    self.walk(child, next, chance);
                }
            }
            PublicNode::Chance { outcomes, .. } => {
                for (k, &child) in game.children(node).iter().enumerate() {
                    let o = outcomes.start + k as u32;
                    for p in 0..2 {
                        for &i in game.excluded(o, p) {
                            self.dead[p][i as usize] += 1;
                        }
                    }
                    self.walk(child, last, chance * game.outcomes[o as usize].prob);
                    for p in 0..2 {
                        for &i in game.excluded(o, p) {
                            self.dead[p][i as usize] -= 1;
                        }
                    }
                }
            }
            PublicNode::Terminal { payoff } => self.leaf(&game.payoffs[*payoff as usize], last, chance),
        }
    }

    /// A new free column and its defining row `z - z_prev - sum weight x = 0`.
    fn sum_column(&mut self, prev: Option<u32>, group: &[Live]) -> u32 {
        let (col, row) = (self.n_cols, self.n_rows);
        self.n_cols += 1;
        self.n_rows += 1;
        self.entries.push((col, row, 1.0));
        if let Some(prev) = prev {
            self.entries.push((prev, row, -1.0));
        }
        self.entries.extend(group.iter().map(|l| (l.col, row, -l.weight)));
        col
    }

    /// Player 1's rows `-(A^T x)_j` at a leaf paying `payoff` after player
    /// 0's sequence `last[0] + i` and player 1's `last[1] + j`.
    fn leaf(&mut self, payoff: &Payoff, last: [u32; 2], chance: f64) {
        let game = self.game;
        let w = [&game.states[0].weights, &game.states[1].weights];
        let mut live = std::mem::take(&mut self.live);
        live.clear();
        let order: Box<dyn Iterator<Item = u32>> = match payoff {
            Payoff::Showdown { ranking, .. } => {
                Box::new(game.rankings[*ranking as usize].sorted[0].iter().map(|&(_, i)| i))
            }
            _ => Box::new(0..self.n[0] as u32),
        };
        live.extend(order.filter(|&i| self.dead[0][i as usize] == 0 && w[0][i as usize] > 0.0).map(|i| Live {
            col: last[0] + i,
            weight: chance * w[0][i as usize],
            state: i,
        }));
        let rows1: Vec<u32> =
            (0..self.n[1] as u32).filter(|&j| self.dead[1][j as usize] == 0 && w[1][j as usize] > 0.0).collect();
        let (first, after) = (self.first_seq_row, last[1]);
        let row = move |j: u32| first + after + j;
        // Per state of player 0: its live column and weight, or NONE.
        let mut weight = std::mem::take(&mut self.weight);
        weight.clear();
        weight.resize(self.n[0], (NONE, 0.0));
        for l in &live {
            weight[l.state as usize] = (l.col, l.weight);
        }
        match *payoff {
            Payoff::Constant(v) => {
                if v != 0.0 && !live.is_empty() {
                    let total = self.sum_column(None, &live);
                    for &j in &rows1 {
                        let f = self.scale * w[1][j as usize] * v;
                        self.entries.push((total, row(j), -f));
                        for &i in self.conflicts.of(1, j as usize) {
                            let (col, wi) = weight[i as usize];
                            if col != NONE {
                                self.entries.push((col, row(j), f * wi));
                            }
                        }
                    }
                }
            }
            Payoff::Showdown { ranking, win, lose, tie } => {
                if !live.is_empty() {
                    let ranking = &game.rankings[ranking as usize];
                    // Rank groups of the live states, and each group's running sum.
                    let (mut ranks, mut sums) = (Vec::new(), Vec::new());
                    let mut k = 0;
                    while k < live.len() {
                        let r = ranking.rank[0][live[k].state as usize];
                        let end = k + live[k..].iter().take_while(|l| ranking.rank[0][l.state as usize] == r).count();
                        let prev = sums.last().copied();
                        sums.push(self.sum_column(prev, &live[k..end]));
                        ranks.push(r);
                        k = end;
                    }
                    let total = *sums.last().expect("a live state");
                    for &j in &rows1 {
                        let r = ranking.rank[1][j as usize];
                        let f = self.scale * w[1][j as usize];
                        let (below, upto) = (ranks.partition_point(|&x| x < r), ranks.partition_point(|&x| x <= r));
                        // Player 0's states ranked below `j` lose, those above win:
                        // lose * below + tie * (upto - below) + win * (total - upto).
                        if below > 0 {
                            self.entries.push((sums[below - 1], row(j), -f * (lose - tie)));
                        }
                        if upto > 0 {
                            self.entries.push((sums[upto - 1], row(j), -f * (tie - win)));
                        }
                        self.entries.push((total, row(j), -f * win));
                        for &i in self.conflicts.of(1, j as usize) {
                            let (col, wi) = weight[i as usize];
                            if col != NONE {
                                let theirs = ranking.rank[0][i as usize];
                                let u = if theirs > r {
                                    win
                                } else if theirs < r {
                                    lose
                                } else {
                                    tie
                                };
                                self.entries.push((col, row(j), f * u * wi));
                            }
                        }
                    }
                }
            }
            Payoff::Matrix { start } => {
                let n1 = self.n[1];
                for &j in &rows1 {
                    for l in &live {
                        let m = game.matrix[start as usize + l.state as usize * n1 + j as usize];
                        if m != 0.0 {
                            self.entries.push((l.col, row(j), -self.scale * w[1][j as usize] * l.weight * m));
                        }
                    }
                }
            }
        }
        self.live = live;
        self.weight = weight;
    }
}

/// The factor the payoffs are multiplied by (the value is divided back):
/// as the scalar LP's, the smallest weighted payoff becomes about 1
/// (bounded by the products of the smallest weights, chances and stakes),
/// unless the largest would exceed 1e6.
fn payoff_scale(game: &PublicGame) -> f64 {
    let range = |v: &mut dyn Iterator<Item = f64>| {
        v.filter(|x| *x > 0.0).fold((f64::INFINITY, 0.0f64), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let (w0, w1) =
        (range(&mut game.states[0].weights.iter().copied()), range(&mut game.states[1].weights.iter().copied()));
    let probs = range(&mut game.outcomes.iter().map(|o| o.prob));
    let stakes = range(
        &mut game
            .payoffs
            .iter()
            .flat_map(|p| match *p {
                Payoff::Constant(v) => vec![v.abs()],
                Payoff::Showdown { win, lose, tie, .. } => {
                    vec![win.abs(), lose.abs(), tie.abs(), (win - tie).abs(), (tie - lose).abs()]
                }
                Payoff::Matrix { .. } => Vec::new(),
            })
            .chain(game.matrix.iter().map(|m| m.abs())),
    );
    // Chance: at most one public outcome's probability on a path is assumed small.
    let (plo, phi) = if probs.1 > 0.0 { (probs.0, 1.0) } else { (1.0, 1.0) };
    let (lo, hi) = (w0.0 * w1.0 * plo * stakes.0, w0.1 * w1.1 * phi * stakes.1);
    if !(lo.is_finite() && lo > 0.0 && hi > 0.0) {
        return 1.0;
    }
    (1.0 / lo).min(1e6 / hi)
}

/// The public LP as a [`Solver`]: two-player zero-sum games in vector
/// CFR's class, the answer's crumbs dropped and checked on the
/// tree as the scalar LP's ([`crate::lp::LpSolver`]).
pub struct PublicLpSolver {
    /// HiGHS or clarabel.
    pub backend: Backend,
    /// Stops the LP when set.
    pub cancel: Option<Cancel>,
}

impl PublicLpSolver {
    /// Solves the LP of `derived` (the public game of `tree`, derived in
    /// `derive_seconds`).
    pub fn solve_derived(
        &self,
        tree: &Tree,
        derived: &FromTree,
        derive_seconds: f64,
        observer: &mut dyn Observer,
    ) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let lp = PublicLp::new(&derived.game);
        let sol = lp.solve(self.backend, self.cancel.as_ref())?;
        let (profile, unreached) = lp.profile(tree, derived, &sol.plans);
        let phases =
            vec![("public game", derive_seconds), ("build LP", lp.build_seconds), ("solve LP", sol.solve_seconds)];
        Ok(crate::lp::finish(tree, profile, unreached, sol.value, phases, derive_seconds, start, observer))
    }
}

impl Solver for PublicLpSolver {
    fn name(&self) -> String {
        format!("lp ({}, public tree)", self.backend.name())
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let derived = crate::vector::from_tree(tree)?;
        self.solve_derived(tree, &derived, start.elapsed().as_secs_f64(), observer)
    }
}
