//! `solve`'s choice of solver from the game's properties when `--solver` is
//! not given, and the runs of max^n and Lemke, whose reports carry more
//! than a profile (the root vector, ties, principal variation and search
//! counts; the pivots).

use galac_runtime::game::Game;
use galac_runtime::tree::{NodeView, Tree};
use galac_solvers::cfr::Variant;
use galac_solvers::lemke;
use galac_solvers::maxn::{self, search::SearchStats, states::StateOptions, Ties};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

/// A solver `solve` can run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    Lp,
    Maxn(Ties),
    Lemke,
    /// A member of the CFR family (run by `solve` through `CfrArgs`).
    Cfr(Variant),
}

/// What a run of max^n or Lemke returns to `solve`.
pub struct Answer {
    pub profile: Profile,
    pub unreached: Vec<u32>,
    pub name: String,
    pub phases: Vec<(&'static str, f64)>,
    /// Lines for the report, after the solver's name.
    pub notes: Vec<String>,
    /// The solver's own JSON fields (max^n: the principal variation).
    pub json: Vec<(&'static str, serde_json::Value)>,
}

/// Every leaf's payoffs sum to the same total.
fn constant_sum(tree: &Tree) -> bool {
    let mut total: Option<i128> = None;
    for node in 0..tree.n_nodes() as u32 {
        if tree.node(node) == NodeView::Terminal {
            let sum: i128 = tree.payoffs(node).iter().map(|x| i128::from(*x)).sum();
            if *total.get_or_insert(sum) != sum {
                return false;
            }
        }
    }
    true
}

/// The solver for this tree and why, or why none in this build fits
/// (`cfr`: the CFR variant to use when nothing exact applies).
pub fn auto(tree: &Tree, ties: Ties, cfr: Option<Variant>) -> Result<(Choice, String), String> {
    let n = tree.n_players;
    let perfect = maxn::shared_infoset(tree).is_none();
    if n == 2 && constant_sum(tree) {
        return Ok((Choice::Lp, "two players, zero-sum (or constant-sum) payoffs".into()));
    }
    if n == 2 {
        return Ok((Choice::Lemke, "two players, general-sum payoffs".into()));
    }
    if perfect {
        return Ok((Choice::Maxn(ties), format!("{n} player(s), perfect information")));
    }
    match cfr {
        Some(v) => Ok((
            Choice::Cfr(v),
            format!(
                "{n} player(s) and imperfect information: CFR+ (max^n needs perfect information, the LP and \
                 Lemke two players)"
            ),
        )),
        None => Err(format!("this game has {n} player(s) and imperfect information: no exact solver applies")),
    }
}

/// "a, b, c": the labels of the principal variation.
fn pv_labels(tree: &Tree, pv: &[(u32, u32)]) -> String {
    let labels: Vec<String> = pv
        .iter()
        .map(|&(set, a)| {
            let player = &tree.player_names[tree.infosets[set as usize].player as usize];
            let action = tree.action_labels(set).get(a as usize).cloned().unwrap_or_else(|| format!("#{a}"));
            format!("{player} {action}")
        })
        .collect();
    labels.join(", ")
}

fn counts(what: &str, s: &SearchStats) -> String {
    format!("{what}: {} nodes, {} payoff entries evaluated, {} cut off", s.nodes, s.evaluations, s.cutoffs)
}

/// Runs max^n or Lemke (not the LP, which `solve` runs as before).
pub fn run(choice: Choice, tree: &Tree) -> Result<Answer, String> {
    match choice {
        Choice::Lp | Choice::Cfr(_) => Err("the LP and the CFR family run through `solve` itself".into()),
        Choice::Maxn(ties) => {
            let start = std::time::Instant::now();
            let (profile, report) = maxn::solve(tree, ties).map_err(|e| e.to_string())?;
            let seconds = start.elapsed().as_secs_f64();
            let value: Vec<String> = report.value.iter().map(|v| format!("{v:.9}")).collect();
            let mut notes = vec![
                format!("max^n vector at the root: ({})", value.join(", ")),
                format!("nodes with tied best children: {}", report.ties),
                format!(
                    "principal variation: {}{}",
                    if report.principal_variation.is_empty() {
                        "(none)".into()
                    } else {
                        pv_labels(tree, &report.principal_variation)
                    },
                    if report.pv_ends_at_chance { ", then chance" } else { "" }
                ),
                counts("search without pruning", &report.exhaustive),
                counts("with shallow pruning", &report.shallow),
            ];
            match &report.bounds {
                Some(b) => notes.push(counts("with Korf's bound pruning (constant-sum)", b)),
                None => notes.push("Korf's bound pruning: not applicable (payoffs are not constant-sum)".into()),
            }
            let name = maxn::MaxnSolver { ties }.name();
            let pv: Vec<serde_json::Value> = report
                .principal_variation
                .iter()
                .map(|&(set, a)| {
                    let player = &tree.player_names[tree.infosets[set as usize].player as usize];
                    let action = tree.action_labels(set).get(a as usize).cloned().unwrap_or_else(|| format!("#{a}"));
                    serde_json::json!({"player": player, "action": action})
                })
                .collect();
            let json = vec![
                ("principal_variation", serde_json::Value::Array(pv)),
                ("pv_ends_at_chance", serde_json::json!(report.pv_ends_at_chance)),
                ("max_n_ties", serde_json::json!(report.ties)),
            ];
            Ok(Answer { profile, unreached: Vec::new(), name, phases: vec![("max^n", seconds)], notes, json })
        }
        Choice::Lemke => {
            let sol = lemke::solve(tree, &mut RunToEnd).map_err(|e| e.to_string())?;
            let notes = vec![
                format!("pivots: {}", sol.pivots),
                format!("regret per player (best response check): {:.3e}, {:.3e}", sol.regret[0], sol.regret[1]),
            ];
            Ok(Answer {
                profile: sol.profile,
                unreached: sol.unreached,
                name: "lemke (sequence form)".into(),
                phases: vec![("build LCP", sol.build_seconds), ("pivot", sol.solve_seconds)],
                notes,
                json: vec![
                    ("payoffs", serde_json::json!(sol.payoffs)),
                    ("regret", serde_json::json!(sol.regret)),
                    ("pivots", serde_json::json!(sol.pivots)),
                ],
            })
        }
    }
}

/// What `--depth` / `--transpositions` found, as text and as JSON.
pub struct StateReport {
    pub text: String,
    pub json: serde_json::Value,
}

/// The principal variation's moves as (player, action label), replayed
/// from the root.
fn state_pv<G: Game>(game: &G, actions: &[u32]) -> Result<Vec<(String, String)>, String> {
    let players = &game.info().players;
    let mut state = game.root().map_err(|e| e.to_string())?;
    let mut interner = galac_runtime::info::InfoInterner::new();
    let mut out = Vec::new();
    for &a in actions {
        let node = game.advance(&mut state, &mut interner).map_err(|e| e.to_string())?;
        let galac_runtime::game::Node::Decision { player, .. } = node else {
            return Err("the principal variation meets a node that is not a decision".into());
        };
        out.push((players[player as usize].clone(), game.action_label(&state, a)));
        game.apply(&mut state, a, &mut interner).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// `--depth N` or `--transpositions`: max^n over the game's states (no tree
/// is built), to `depth` moves (decisions and chance outcomes) with the
/// game's `evaluate` fn valuing the nodes there, and with positions searched
/// once with `transpositions`, within `max_bytes`. No tree, so no profile:
/// the report has the root vector, the principal variation and the counts.
pub fn state_search<G: Game>(game: &G, ties: Ties, options: StateOptions) -> Result<StateReport, String> {
    let StateOptions { transpositions, depth, .. } = options;
    if depth.is_some_and(|d| d > maxn::search::MAX_SEARCH_DEPTH) {
        return Err(format!("the depth is at most {}", maxn::search::MAX_SEARCH_DEPTH));
    }
    let start = std::time::Instant::now();
    let r = maxn::states::search(game, ties, options).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let info = game.info();
    let value: Vec<String> = info.players.iter().zip(&r.value).map(|(p, v)| format!("{p} {v:.9}")).collect();
    let pv = state_pv(game, &r.principal_variation)?;
    let choice = match (r.choice, pv.first()) {
        (Some(_), Some((_, label))) => label.clone(),
        _ => "(the root is not a decision)".into(),
    };
    let s = &r.stats;
    let ties_name = if ties == Ties::First { "first" } else { "average" };
    let how = match depth {
        Some(d) => format!("look-ahead to depth {d} with the game's `evaluate`"),
        None => "over the game's states".to_string(),
    };
    let tt = if transpositions { ", transpositions" } else { "" };
    let solver = format!("max^n {how} (ties: {ties_name}{tt})");
    let moves: Vec<String> = pv.iter().map(|(p, a)| format!("{p} {a}")).collect();
    let pv_text = format!(
        "{}{}",
        if moves.is_empty() { "(none)".into() } else { moves.join(", ") },
        if r.pv_ends_at_chance { ", then chance" } else { "" }
    );
    let mut text = format!("game: {}\n", info.name);
    text += &format!("solver: {solver}\n");
    text += &format!("  max^n vector at the root: {}\n", value.join(", "));
    text += &format!("  first move: {choice}\n");
    text += &format!("  principal variation: {pv_text}\n");
    text += &format!(
        "  {} nodes expanded, {} valued by `evaluate`, {} with tied best children\n",
        s.nodes, s.evaluated, s.ties
    );
    if transpositions {
        text += &format!("  transpositions: {} found, {} positions stored\n", s.transpositions, s.stored);
    }
    text += &format!("time: {seconds:.4} s ({:.0} nodes/s)\n", s.nodes as f64 / seconds.max(1e-9));
    let values: serde_json::Map<String, serde_json::Value> =
        info.players.iter().zip(&r.value).map(|(p, v)| (p.clone(), serde_json::json!(v))).collect();
    let json = serde_json::json!({
        "schema": "galac.solve/1",
        "game": info.name,
        "params": crate::params_json(info),
        "solver": solver,
        "value": values,
        "principal_variation": pv.iter().map(|(p, a)| serde_json::json!({"player": p, "action": a})).collect::<Vec<_>>(),
        "pv_ends_at_chance": r.pv_ends_at_chance,
        "search": {
            "nodes": s.nodes,
            "evaluated": s.evaluated,
            "ties": s.ties,
            "transpositions": s.transpositions,
            "stored": s.stored,
        },
        "seconds": { "search": seconds },
        "strategy": serde_json::Value::Null,
    });
    Ok(StateReport { text, json })
}
