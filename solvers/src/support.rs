//! An exact equilibrium of a two-player constant-sum game from a float one:
//! the sequence-form optimality conditions restricted to the float answer's
//! supports, solved in rationals.
//!
//! A player's optimal plan `x` (with the opponent's "values" `q`, the
//! duals of the LP in [`crate::lp`]) satisfies `E x = e`, `x >= 0`,
//! `F^T q - A^T x <= 0`, and, by complementary slackness, equality on
//! every row `j` the opponent plays (`y_j > 0`). So with `S` the player's
//! support and `T` the opponent's, the equations
//!
//! ```text
//!   E x = e,   x_i = 0 for i not in S,   (F^T q - A^T x)_j = 0 for j in T
//! ```
//!
//! describe the optimal face's affine hull when the supports are those of a
//! strictly complementary pair, which interior-point answers approximate.
//! They are solved exactly ([`crate::rational_system`]); unknowns they
//! leave free (a face of equilibria) take the float answer's values,
//! rounded. Nothing here is trusted: a plan with a negative entry is
//! refused, and the profile is certified afterwards by exact best
//! responses ([`crate::exact::check`]), so a wrong support only costs the
//! certificate.

use rustc_hash::FxHashMap;

use galac_runtime::ids::{IdRange, IdVec, InfosetId, PlayerId, SeqId};
use galac_runtime::tree::{NodeView, Tree};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use crate::best_response::Evaluator;
use crate::rational_system::{Echelon, System};
use crate::rounding::{approximate, float_plans, ratio, round_profile, Q};
use crate::treeplex::Treeplex;
use crate::Profile;

/// One player's equations, eliminated.
struct PlayerSystem {
    /// The player's supported sequences, in column order (column `k` is
    /// `support[k]`; the opponent's `q` columns follow).
    support: Vec<SeqId>,
    echelon: Echelon,
}

/// Both players' eliminated systems, ready to be solved with the free
/// unknowns rounded more or less finely.
pub struct Supports<'a> {
    tree: &'a Tree,
    treeplex: Treeplex,
    profile: &'a Profile,
    plans: IdVec<PlayerId, Vec<f64>>,
    systems: [PlayerSystem; 2],
}

impl<'a> Supports<'a> {
    /// The systems of `profile`'s supports: the sequences whose float
    /// realization weight exceeds `tolerance`. A player's rows are made
    /// tight on the opponent's support, or, with `all_tight`, on every
    /// opponent sequence that is a best response to the float answer
    /// within `tolerance` of the payoff scale: a vertex answer (Lemke's)
    /// is pinned down by tight rows its opponent does not play. `None`
    /// when the game is not two-player or either system is contradictory
    /// (a wrong support).
    pub fn new(tree: &'a Tree, profile: &'a Profile, tolerance: f64, all_tight: bool) -> Option<Supports<'a>> {
        if tree.n_players != 2 {
            return None;
        }
        let treeplex = Treeplex::new(tree);
        let plans = float_plans(tree, &treeplex, profile);
        let payoff = exact_payoffs(tree, &treeplex);
        let supports: Vec<Vec<SeqId>> = plans
            .iter()
            .map(|plan| (0..plan.len()).filter(|&i| plan[i] > tolerance).map(SeqId::from_index).collect())
            .collect();
        let rows: Vec<Vec<SeqId>> = match all_tight {
            false => supports.clone(),
            true => tree.players().map(|p| best_sequences(tree, &treeplex, profile, p, tolerance)).collect(),
        };
        let system = |me: PlayerId| {
            let (mine, theirs) = (&supports[me.index()], &rows[1 - me.index()]);
            let (support, echelon) = equations(tree, &treeplex, &payoff, me, mine, theirs)?;
            Some(PlayerSystem { support, echelon })
        };
        let systems = [system(PlayerId(0))?, system(PlayerId(1))?];
        Some(Supports { tree, treeplex, profile, plans, systems })
    }

    /// The exact profile with free plan entries rounded to denominators at
    /// most `max_den` (free opponent values set to 0); `None` when a plan
    /// entry comes out negative. Sets the plan never reaches keep the float
    /// profile's probabilities, rounded.
    pub fn profile(&self, max_den: u64) -> Option<IdVec<InfosetId, Vec<Q>>> {
        let mut probs = round_profile(self.tree, self.profile, max_den);
        for (me, sys) in PlayerId::all(2).zip(&self.systems) {
            let plan_of = |col: u32| match sys.support.get(col as usize) {
                Some(&seq) => approximate(self.plans[me][seq.index()].clamp(0.0, 1.0), max_den),
                None => Q::zero(),
            };
            let solution = sys.echelon.solve(plan_of);
            let mut plan = vec![Q::zero(); self.treeplex.n_seqs(me)];
            for (k, &seq) in sys.support.iter().enumerate() {
                if solution[k].is_negative() {
                    return None;
                }
                plan[seq.index()] = solution[k].clone();
            }
            for &set in &self.treeplex.infosets_of[me] {
                let parent = &plan[self.treeplex.parent_seq[set].index()];
                if parent.is_zero() {
                    continue;
                }
                let first = self.treeplex.first_seq(me, set).index();
                let n = self.tree.infosets[set].n_actions as usize;
                probs[set] = plan[first..first + n].iter().map(|x| x / parent).collect();
            }
        }
        Some(probs)
    }
}

/// Player `me`'s equations on the supports `mine` and `theirs`, eliminated;
/// returns the column order of `me`'s sequences too.
fn equations(
    tree: &Tree,
    treeplex: &Treeplex,
    payoff: &FxHashMap<(SeqId, SeqId), Q>,
    me: PlayerId,
    mine: &[SeqId],
    theirs: &[SeqId],
) -> Option<(Vec<SeqId>, Echelon)> {
    let other = PlayerId(1 - me.0);
    let mut column = vec![u32::MAX; treeplex.n_seqs(me)];
    for (k, &seq) in mine.iter().enumerate() {
        column[seq.index()] = k as u32;
    }
    let n_sup = mine.len() as u32;
    let their_sets = &treeplex.infosets_of[other];
    let mut system = System::new(mine.len() + their_sets.len() + 1);
    let col = |seq: SeqId| Some(column[seq.index()]).filter(|&c| c != u32::MAX);
    // E x = e: the empty sequence is 1, each set's sequences sum to its parent.
    system.add(
        col(SeqId::EMPTY).map(|c| (c, Q::from_integer(1.into()))).into_iter().collect(),
        Q::from_integer(1.into()),
    );
    for &set in &treeplex.infosets_of[me] {
        let mut coefs: Vec<(u32, Q)> =
            seqs_of(tree, treeplex, me, set).filter_map(col).map(|c| (c, Q::from_integer(1.into()))).collect();
        if let Some(c) = col(treeplex.parent_seq[set]) {
            coefs.push((c, Q::from_integer((-1).into())));
        }
        if !coefs.is_empty() {
            system.add(coefs, Q::zero());
        }
    }
    // (F^T q - A^T x)_j = 0 for every sequence j the opponent plays.
    let mut rows: FxHashMap<SeqId, Vec<(u32, Q)>> = theirs.iter().map(|&j| (j, Vec::new())).collect();
    if let Some(row) = rows.get_mut(&SeqId::EMPTY) {
        row.push((n_sup, Q::from_integer(1.into())));
    }
    for (k, &set) in their_sets.iter().enumerate() {
        let q = n_sup + 1 + k as u32;
        if let Some(row) = rows.get_mut(&treeplex.parent_seq[set]) {
            row.push((q, Q::from_integer((-1).into())));
        }
        for seq in seqs_of(tree, treeplex, other, set) {
            if let Some(row) = rows.get_mut(&seq) {
                row.push((q, Q::from_integer(1.into())));
            }
        }
    }
    for (&(s0, s1), a) in payoff {
        let (i, j) = if me.0 == 0 { (s0, s1) } else { (s1, s0) };
        if let (Some(c), Some(row)) = (col(i), rows.get_mut(&j)) {
            row.push((c, -a));
        }
    }
    for &j in theirs {
        system.add(rows.remove(&j).unwrap_or_default(), Q::zero());
    }
    let echelon = system.eliminate(|c| c >= n_sup)?;
    Some((mine.to_vec(), echelon))
}

/// Player `p`'s sequences that are best responses to the others' part of
/// `profile`: the empty one, and each action whose value is within
/// `tolerance` times the largest payoff of its set's best.
fn best_sequences(tree: &Tree, treeplex: &Treeplex, profile: &Profile, p: PlayerId, tolerance: f64) -> Vec<SeqId> {
    let scale = tree
        .nodes()
        .filter(|&n| matches!(tree.node(n), NodeView::Terminal))
        .map(|n| tree.payoffs(n)[p.index()].unsigned_abs() as f64)
        .fold(1.0, f64::max);
    let mut values = vec![0.0; treeplex.slots.len()];
    Evaluator::new(tree).action_values(tree, profile, p, &treeplex.slots.first_slot, &mut values);
    let mut rows = vec![SeqId::EMPTY];
    for &set in &treeplex.infosets_of[p] {
        let s = treeplex.slots.first_slot[set].index();
        let q = &values[s..s + tree.infosets[set].n_actions as usize];
        let best = q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let first = treeplex.first_seq(p, set);
        rows.extend((0..q.len() as u32).filter(|&a| q[a as usize] >= best - tolerance * scale).map(|a| first + a));
    }
    rows
}

/// The sequences of `set`, whose player is `p`.
fn seqs_of(tree: &Tree, treeplex: &Treeplex, p: PlayerId, set: InfosetId) -> IdRange<SeqId> {
    let first = treeplex.first_seq(p, set);
    IdRange::new(first, first + tree.infosets[set].n_actions)
}

/// The first player's payoff matrix of the sequence form, exactly: per
/// pair of sequences, the leaves' payoffs weighted by chance.
pub fn exact_payoffs(tree: &Tree, treeplex: &Treeplex) -> FxHashMap<(SeqId, SeqId), Q> {
    let mut entries: FxHashMap<(SeqId, SeqId), Q> = FxHashMap::default();
    let mut reach: Vec<Q> = vec![Q::zero(); tree.n_nodes()];
    let mut seqs = vec![[SeqId::EMPTY; 2]; tree.n_nodes()];
    reach[0] = Q::from_integer(1.into());
    for node in tree.preorder() {
        let (r, s) = (std::mem::take(&mut reach[node.index()]), seqs[node.index()]);
        match tree.node(node) {
            NodeView::Terminal => {
                let pay = tree.payoffs(node)[0];
                if pay != 0 && !r.is_zero() {
                    *entries.entry((s[0], s[1])).or_insert_with(Q::zero) += r * Q::from_integer(BigInt::from(pay));
                }
            }
            NodeView::Chance => {
                for (child, p) in tree.children(node).zip(tree.chance_probs(node)) {
                    (reach[child.index()], seqs[child.index()]) = (&r * ratio(*p), s);
                }
            }
            NodeView::Decision { player, infoset } => {
                let first = treeplex.first_seq(player, infoset);
                for (a, child) in tree.children(node).enumerate() {
                    let mut t = s;
                    t[player.index()] = first + a as u32;
                    (reach[child.index()], seqs[child.index()]) = (r.clone(), t);
                }
            }
        }
    }
    entries
}
