//! Lemke's algorithm on the sequence form (Koller, Megiddo & von Stengel
//! 1996) for two-player games of any payoffs: one equilibrium and both
//! players' expected payoffs.
//!
//! With `E x = e`, `F y = f` the realization-plan constraints and `A`, `B`
//! the players' sequence-form payoff matrices (chance folded in), first
//! shifted so that every leaf pays both players a negative amount, a plan
//! pair is an equilibrium when, for some `p, q >= 0`,
//!
//! ```text
//!   w_x = -A y - E^T p >= 0  ⊥ x >= 0      w_p = E x - e >= 0  ⊥ p
//!   w_y = -B^T x - F^T q >= 0 ⊥ y >= 0     w_q = F y - f >= 0  ⊥ q
//! ```
//!
//! (`p` and `q` are minus the values of the information sets, nonnegative
//! because every payoff is; the shift changes every plan pair's payoff by
//! the same amount). Lemke's algorithm runs with the covering vector of
//! von Stengel, van den Elzen & Talman (2002, "Computing normal form
//! perfect equilibria for extensive two-person games"): `d = -q`, plus
//! `-A y0` in player 1's sequence rows and `-B^T x0` in player 2's, with
//! `x0`, `y0` uniform play ([`covering`]). Its path follows a tracing
//! procedure from the best replies to uniform play, a path many times
//! shorter than with the covering vector 1 of Gambit's `lcp_solve`
//! (docs/perf/lemke.md). `z0` enters
//! where `q_i / d_i` is least, after a tiny deterministic perturbation of
//! `q` (`perturb`): the perturbed problem has no degenerate ties, which a
//! floating-point ratio test cannot tell from rounding. The pivoting keeps
//! the basis as a sparse LU factorization ([`revised`], [`lu`]), so a
//! pivot costs about the sparsity of the basis, not a sweep over a dense
//! tableau, and refactorizing keeps rounding from accumulating (a dense
//! tableau, never started afresh, cycled on Leduc: docs/perf/lemke.md).
//! The final basis is read with the true `q`, and the answer is checked
//! afterwards by the independent best response, not trusted.

pub mod lu;
pub mod revised;

use std::time::Instant;

use galac_runtime::ids::{InfosetId, NodeId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};
use rustc_hash::FxHashMap;

use crate::best_response::evaluate;
use crate::solver::{Control, Observer, Progress, Solution, SolveError, Solver};
use crate::treeplex::Treeplex;
use crate::Profile;
use revised::{LemkeError, Revised};

/// Lemke's answer.
pub struct LemkeSolution {
    pub profile: Profile,
    /// Information sets the plans never reach (uniform play there).
    pub unreached: Vec<InfosetId>,
    /// Both players' expected payoffs under the profile.
    pub payoffs: [f64; 2],
    /// Each player's regret (best response value minus payoff), computed
    /// by [`crate::best_response`].
    pub regret: [f64; 2],
    pub pivots: u64,
    pub build_seconds: f64,
    pub solve_seconds: f64,
}

/// Largest regret accepted, relative to the largest absolute payoff (at
/// least 1): an answer beyond it is an error, not an equilibrium.
pub const REGRET_TOLERANCE: f64 = 1e-9;

/// The sequence-form payoff matrices of both players, with chance folded in
/// and `shift` subtracted from every payoff: (seq1, seq2, a, b) entries.
fn payoff_entries(tree: &Tree, plex: &Treeplex, shift: f64) -> Vec<(SeqId, SeqId, f64, f64)> {
    let mut entries: FxHashMap<(SeqId, SeqId), (f64, f64)> = FxHashMap::default();
    let mut stack: Vec<(NodeId, [SeqId; 2], f64)> = vec![(NodeId::ROOT, [SeqId::EMPTY; 2], 1.0)];
    while let Some((node, seqs, reach)) = stack.pop() {
        match tree.node(node) {
            NodeView::Terminal => {
                let pay = tree.payoffs(node);
                let e = entries.entry((seqs[0], seqs[1])).or_insert((0.0, 0.0));
                e.0 += reach * (pay[0] as f64 - shift);
                e.1 += reach * (pay[1] as f64 - shift);
            }
            NodeView::Chance => {
                for (child, p) in tree.children(node).zip(tree.chance_probs(node)) {
                    stack.push((child, seqs, reach * p.to_f64()));
                }
            }
            NodeView::Decision { player, infoset } => {
                let first = plex.first_seq(player, infoset);
                for (a, child) in tree.children(node).enumerate() {
                    let mut s = seqs;
                    s[player.index()] = first + a as u32;
                    stack.push((child, s, reach));
                }
            }
        }
    }
    let mut out: Vec<(SeqId, SeqId, f64, f64)> = entries.into_iter().map(|((i, j), (a, b))| (i, j, a, b)).collect();
    out.sort_by_key(|e| (e.0, e.1));
    out
}

/// An LCP `(q, M)`: `q`, the nonzero entries of `M`, and where the blocks
/// `x`, `y`, `p`, `q` start.
type Lcp = (Vec<f64>, Vec<(u32, u32, f64)>, [usize; 4]);

/// The LCP in the layout of the module comment: rows and variables `x`
/// (player 1's sequences), `y`, `p` (player 1's constraint rows: the empty
/// sequence, then one per set), `q`.
fn lcp(tree: &Tree, plex: &Treeplex) -> Lcp {
    let n1 = plex.n_seqs(PlayerId(0));
    let n2 = plex.n_seqs(PlayerId(1));
    let k1 = plex.infosets_of[PlayerId(0)].len() + 1;
    let k2 = plex.infosets_of[PlayerId(1)].len() + 1;
    let (xs, ys, ps, qs) = (0, n1, n1 + n2, n1 + n2 + k1);
    let n = qs + k2;
    // As Gambit's `lcp_solve`: one more than the largest payoff.
    let shift = tree
        .nodes()
        .filter(|&v| tree.node(v) == NodeView::Terminal)
        .flat_map(|v| tree.payoffs(v).iter().map(|x| *x as f64))
        .fold(f64::NEG_INFINITY, f64::max)
        + 1.0;
    let mut m: Vec<(u32, u32, f64)> = Vec::new();
    for (i, j, a, b) in payoff_entries(tree, plex, shift) {
        m.push(((xs + i.index()) as u32, (ys + j.index()) as u32, -a));
        m.push(((ys + j.index()) as u32, (xs + i.index()) as u32, -b));
    }
    let mut q = vec![0.0; n];
    // Constraint rows: E x - e (row `start`), and E's transpose in the
    // sequences' rows with the opposite sign.
    for (p, (seq0, row0)) in PlayerId::all(2).zip([(xs, ps), (ys, qs)]) {
        let mut put = |row: usize, seq: usize, e: f64| {
            m.push((row as u32, seq as u32, e));
            m.push((seq as u32, row as u32, -e));
        };
        put(row0, seq0, 1.0);
        q[row0] = -1.0;
        for (k, &set) in plex.infosets_of[p].iter().enumerate() {
            let row = row0 + 1 + k;
            put(row, seq0 + plex.parent_seq[set].index(), -1.0);
            let first = plex.first_seq(p, set).index();
            for a in 0..tree.infosets[set].n_actions as usize {
                put(row, seq0 + first + a, 1.0);
            }
        }
    }
    (q, m, [xs, ys, ps, qs])
}

/// The largest absolute payoff of any player at any leaf.
fn max_payoff(tree: &Tree) -> f64 {
    tree.nodes()
        .filter(|&v| tree.node(v) == NodeView::Terminal)
        .flat_map(|v| tree.payoffs(v).iter().map(|x| (*x as f64).abs()))
        .fold(0.0, f64::max)
}

/// Relative size of the perturbation of `q`.
const PERTURBATION: f64 = 1e-7;

/// `q` with each entry raised by a different tiny amount (deterministic):
/// the perturbed problem is nondegenerate, so the ratio test meets no ties,
/// which floating point cannot tell from near-ties; its final basis is then
/// read with the true `q`, and the answer checked.
fn perturb(q: &[f64]) -> Vec<f64> {
    let scale = q.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    q.iter()
        .map(|&x| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            x + PERTURBATION * scale * (0.5 + (state >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// Each player's realization plan of uniform play.
fn uniform_plan(tree: &Tree, plex: &Treeplex, p: PlayerId) -> Vec<f64> {
    let mut plan = vec![f64::NAN; plex.n_seqs(p)];
    plan[0] = 1.0;
    for &set in &plex.infosets_of[p] {
        let n = tree.infosets[set].n_actions as usize;
        let parent = plan[plex.parent_seq[set].index()];
        debug_assert!(!parent.is_nan());
        let first = plex.first_seq(p, set).index();
        plan[first..first + n].iter_mut().for_each(|x| *x = parent / n as f64);
    }
    plan
}

/// The covering vector of von Stengel, van den Elzen & Talman (2002):
/// `-q` plus, in each player's sequence rows, the payoff column of the
/// other player's uniform plan. At `z = 0`, `z0 = 1` the constraint rows
/// are then 0 and each sequence row holds minus the (shifted) payoff
/// against the other's uniform play: the path starts from the best replies
/// to uniform play and traces towards an equilibrium as `z0` falls.
fn covering(tree: &Tree, plex: &Treeplex, q: &[f64], m: &[(u32, u32, f64)], [xs, ys, ps]: [usize; 3]) -> Vec<f64> {
    let x0 = uniform_plan(tree, plex, PlayerId(0));
    let y0 = uniform_plan(tree, plex, PlayerId(1));
    let mut d: Vec<f64> = q.iter().map(|&x| -x).collect();
    for &(i, j, v) in m {
        let (i, j) = (i as usize, j as usize);
        if i < ys && (ys..ps).contains(&j) {
            d[i] += v * y0[j - ys];
        } else if (ys..ps).contains(&i) && j < ys {
            d[i] += v * x0[j - xs];
        }
    }
    d
}

/// Runs Lemke's algorithm on a two-player tree and checks the answer.
pub fn solve(tree: &Tree, observer: &mut dyn Observer) -> Result<LemkeSolution, SolveError> {
    let unsupported = |reason: String| SolveError::Unsupported { solver: "Lemke's algorithm", reason };
    if tree.n_players != 2 {
        return Err(unsupported(format!("it needs exactly 2 players; this game has {}", tree.n_players)));
    }
    let start = Instant::now();
    let plex = Treeplex::new(tree);
    let (q, m, [xs, ys, ps, _]) = lcp(tree, &plex);
    let perturbed = perturb(&q);
    let d = covering(tree, &plex, &q, &m, [xs, ys, ps]);
    let build_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut keep_going = |pivots: u64| {
        let progress = Progress {
            iteration: pivots,
            seconds: start.elapsed().as_secs_f64(),
            exploitability: None,
            bounds: None,
            evaluation: None,
        };
        observer.progress(&progress) == Control::Continue
    };
    let max_pivots = 50 * q.len() as u64 + 10_000;
    // z0 enters where `q_i / d_i` is least (an empty-sequence row).
    let first = (0..perturbed.len())
        .filter(|&i| d[i] > 0.0 && perturbed[i] < 0.0)
        .min_by(|&a, &b| (perturbed[a] / d[a]).total_cmp(&(perturbed[b] / d[b])))
        .unwrap_or(ps);
    let error = |e: LemkeError| match e {
        LemkeError::Stopped => unsupported("stopped before an equilibrium was found".into()),
        e => unsupported(e.to_string()),
    };
    let mut rev = Revised::new(&perturbed, &m, &d);
    rev.solve(first, max_pivots, &mut keep_going).map_err(error)?;
    let z = rev.z_for(&q).map_err(error)?;
    let solve_seconds = start.elapsed().as_secs_f64();
    let z: Vec<f64> = z.into_iter().map(|x| x.max(0.0)).collect();
    let mut profile = Profile::uniform(tree);
    let mut unreached = plex.behaviour(tree, PlayerId(0), &z[xs..ys], &mut profile);
    unreached.extend(plex.behaviour(tree, PlayerId(1), &z[ys..ys + plex.n_seqs(PlayerId(1))], &mut profile));
    let eval = evaluate(tree, &profile);
    let regret = [eval.best_response[0] - eval.values[0], eval.best_response[1] - eval.values[1]];
    let scale = max_payoff(tree).max(1.0);
    if regret.iter().any(|r| r.is_nan() || r.abs() > REGRET_TOLERANCE * scale) {
        return Err(unsupported(format!(
            "its floating-point answer is not an equilibrium: regrets {:.3e} and {:.3e} (rounding)",
            regret[0], regret[1]
        )));
    }
    Ok(LemkeSolution {
        profile,
        unreached,
        payoffs: [eval.values[0], eval.values[1]],
        regret,
        pivots: rev.pivots,
        build_seconds,
        solve_seconds,
    })
}

/// Lemke's algorithm as a [`Solver`].
pub struct LemkeSolver;

impl Solver for LemkeSolver {
    fn name(&self) -> String {
        "lemke (sequence form)".to_string()
    }

    fn solve(&self, tree: &Tree, observer: &mut dyn Observer) -> Result<Solution, SolveError> {
        let sol = solve(tree, observer)?;
        Ok(Solution {
            profile: sol.profile,
            unreached: sol.unreached,
            phases: vec![("build LCP", sol.build_seconds), ("pivot", sol.solve_seconds)],
            stopped: false,
        })
    }
}
