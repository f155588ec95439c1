//! max^n (`--solver maxn`, perfect-information games with any number of
//! players): its flags, its run on the tree, and its search over the
//! game's own states (`--depth`, `--transpositions`: no tree is built).
//! Both report more than a profile: the root vector, ties, the principal
//! variation and the search counts.

use galac_runtime::game::Game;
use galac_runtime::ids::InfosetId;
use galac_runtime::tree::Tree;
use galac_solvers::maxn::{self, search::SearchStats, states::StateOptions, Ties};
use galac_solvers::solver::{Solution, SolveError, Solver};

use super::solved::{fields, with_hint, Solved};
use crate::report::{Keyed, SolveHead, SolveJson, SolveTail, Strategy, SOLVE_SCHEMA};

/// Flags of max^n.
#[derive(clap::Args, Debug, Clone)]
pub struct MaxnArgs {
    /// max^n's tie rule: first (the first best child in move order) or
    /// average (the mean vector of the tied children, played uniformly).
    #[arg(long, value_enum, default_value_t = TieRule::First)]
    pub ties: TieRule,
    /// max^n over the game's own states (no tree is built) with a
    /// transposition table: equal positions are searched once. Reports the
    /// root vector, the first move and the counts.
    #[arg(long)]
    pub transpositions: bool,
    /// max^n look-ahead over the game's states (no tree is built): search N
    /// moves deep and value the nodes there with the game's `evaluate` fn
    /// (see docs/language.md).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
}

/// max^n's tie rule, as the flag names it.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum TieRule {
    First,
    Average,
}

impl MaxnArgs {
    pub fn ties(&self) -> Ties {
        match self.ties {
            TieRule::First => Ties::First,
            TieRule::Average => Ties::Average,
        }
    }
}

/// A move of the principal variation.
#[derive(serde::Serialize)]
pub struct Move {
    pub player: String,
    pub action: String,
}

/// max^n's own fields of the `solve` JSON answer.
#[derive(serde::Serialize)]
pub struct Findings {
    pub principal_variation: Vec<Move>,
    pub pv_ends_at_chance: bool,
    pub max_n_ties: u64,
}
json_answers!(Findings);

/// The search over states' own fields of the `solve` JSON answer.
#[derive(serde::Serialize)]
pub struct StateFindings {
    pub principal_variation: Vec<Move>,
    pub pv_ends_at_chance: bool,
    pub search: Counts,
}
json_answers!(StateFindings);

/// The search over states' counts.
#[derive(serde::Serialize)]
pub struct Counts {
    pub nodes: u64,
    pub evaluated: u64,
    pub ties: u64,
    pub transpositions: u64,
    pub stored: u64,
}

/// The moves of a principal variation given as (set, action) on `tree`.
fn pv_moves(tree: &Tree, pv: &[(InfosetId, u32)]) -> Vec<Move> {
    pv.iter()
        .map(|&(set, a)| Move {
            player: tree.player_names[tree.infosets[set].player.index()].clone(),
            action: tree.action_labels(set).get(a as usize).cloned().unwrap_or_else(|| format!("#{a}")),
        })
        .collect()
}

/// "a b, c d" for moves; "(none)" for none; ", then chance" when the
/// variation ends at a chance node.
fn pv_text(moves: &[Move], ends_at_chance: bool) -> String {
    let text: Vec<String> = moves.iter().map(|m| format!("{} {}", m.player, m.action)).collect();
    format!(
        "{}{}",
        if text.is_empty() { "(none)".into() } else { text.join(", ") },
        if ends_at_chance { ", then chance" } else { "" }
    )
}

fn counts(what: &str, s: &SearchStats) -> String {
    format!("{what}: {} nodes, {} payoff entries evaluated, {} cut off", s.nodes, s.evaluations, s.cutoffs)
}

/// The registry's `maxn` row: max^n on the built tree.
pub fn run(args: &MaxnArgs, tree: &Tree, limits: &crate::LimitArgs) -> Result<Solved, String> {
    let ties = args.ties();
    let start = std::time::Instant::now();
    let watch = limits.watch("max^n");
    let (profile, report) = maxn::solve(tree, ties).map_err(|e| with_hint(&e))?;
    drop(watch);
    let seconds = start.elapsed().as_secs_f64();
    let value: Vec<String> = report.value.iter().map(|v| format!("{v:.9}")).collect();
    let moves = pv_moves(tree, &report.principal_variation);
    let mut notes = vec![
        format!("max^n vector at the root: ({})", value.join(", ")),
        format!("nodes with tied best children: {}", report.ties),
        format!("principal variation: {}", pv_text(&moves, report.pv_ends_at_chance)),
        counts("search without pruning", &report.exhaustive),
        counts("with shallow pruning", &report.shallow),
    ];
    match &report.bounds {
        Some(b) => notes.push(counts("with Korf's bound pruning (constant-sum)", b)),
        None => notes.push("Korf's bound pruning: not applicable (payoffs are not constant-sum)".into()),
    }
    let findings =
        Findings { principal_variation: moves, pv_ends_at_chance: report.pv_ends_at_chance, max_n_ties: report.ties };
    Ok(Solved {
        solution: Solution { profile, unreached: Vec::new(), phases: vec![("max^n", seconds)], stopped: false },
        name: maxn::MaxnSolver { ties }.name(),
        notes,
        curve: None,
        findings: Some(fields(&findings)?),
        distributed: None,
    })
}

/// What `--depth` / `--transpositions` found, as text and as JSON.
pub struct StateReport {
    pub text: String,
    pub json: serde_json::Value,
}

/// The principal variation's moves, replayed from the root.
fn state_pv<G: Game>(game: &G, actions: &[u32]) -> Result<Vec<Move>, SolveError> {
    let players = &game.info().players;
    let mut state = game.root()?;
    let mut interner = galac_runtime::info::InfoInterner::new();
    let mut out = Vec::new();
    for &a in actions {
        let node = game.advance(&mut state, &mut interner)?;
        let galac_runtime::game::Node::Decision { player, .. } = node else {
            return Err(SolveError::Unsupported {
                solver: "max^n over states",
                reason: "the principal variation meets a node that is not a decision".into(),
            });
        };
        out.push(Move { player: players[player as usize].clone(), action: game.action_label(&state, a) });
        game.apply(&mut state, a, &mut interner)?;
    }
    Ok(out)
}

/// `--depth N` or `--transpositions`: max^n over the game's states (no tree
/// is built), to `depth` moves (decisions and chance outcomes) with the
/// game's `evaluate` fn valuing the nodes there, and with positions searched
/// once with `transpositions`, within `max_bytes`. No tree, so no profile:
/// the report has the root vector, the principal variation and the counts.
pub fn state_search<G: Game>(game: &G, ties: Ties, options: StateOptions) -> Result<StateReport, SolveError> {
    let depth = options.depth;
    if depth.is_some_and(|d| d > maxn::search::MAX_SEARCH_DEPTH) {
        return Err(SolveError::Unsupported {
            solver: "max^n over states",
            reason: format!("the depth is at most {}", maxn::search::MAX_SEARCH_DEPTH),
        });
    }
    let start = std::time::Instant::now();
    let r = maxn::states::search(game, ties, options)?;
    let seconds = start.elapsed().as_secs_f64();
    let pv = state_pv(game, &r.principal_variation)?;
    state_report(game.info(), &r, pv, seconds, ties, options)
}

/// [`state_search`]'s report of the search's result `r` (its principal
/// variation `pv`, found in `seconds`).
fn state_report(
    info: &galac_runtime::game::GameInfo,
    r: &maxn::states::StateResult,
    pv: Vec<Move>,
    seconds: f64,
    ties: Ties,
    options: StateOptions,
) -> Result<StateReport, SolveError> {
    let StateOptions { transpositions, depth, .. } = options;
    let value: Vec<String> = info.players.iter().zip(&r.value).map(|(p, v)| format!("{p} {v:.9}")).collect();
    let choice = match (r.choice, pv.first()) {
        (Some(_), Some(m)) => m.action.clone(),
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
    let mut text = format!("game: {}\n", info.name);
    text += &format!("solver: {solver}\n");
    text += &format!("  max^n vector at the root: {}\n", value.join(", "));
    text += &format!("  first move: {choice}\n");
    text += &format!("  principal variation: {}\n", pv_text(&pv, r.pv_ends_at_chance));
    text += &format!(
        "  {} nodes expanded, {} valued by `evaluate`, {} with tied best children\n",
        s.nodes, s.evaluated, s.ties
    );
    if transpositions {
        text += &format!("  transpositions: {} found, {} positions stored\n", s.transpositions, s.stored);
    }
    text += &format!("time: {seconds:.4} s ({:.0} nodes/s)\n", s.nodes as f64 / seconds.max(1e-9));
    let search = Counts {
        nodes: s.nodes,
        evaluated: s.evaluated,
        ties: s.ties,
        transpositions: s.transpositions,
        stored: s.stored,
    };
    let findings = StateFindings { principal_variation: pv, pv_ends_at_chance: r.pv_ends_at_chance, search };
    let findings =
        fields(&findings).map_err(|reason| SolveError::Unsupported { solver: "max^n over states", reason })?;
    let answer = SolveJson {
        head: SolveHead {
            schema: SOLVE_SCHEMA,
            game: &info.name,
            params: crate::params_json(info),
            program: crate::report::program_hex(info),
            solver: &solver,
            notes: &[],
            value: Some(Keyed(&info.players, &r.value)),
            value_bounds: None,
            exploitability: None,
            best_response: None,
            nodes: None,
            infosets: None,
            seconds: crate::report::seconds_json(None, &[("search", seconds)]),
            unreached: None,
        },
        strategy: Strategy::None,
        tail: SolveTail { hands: None, curve: None, findings: Some(&findings), exact: None, note: None },
    };
    let json = crate::answer::Json::json_value(&answer).map_err(|e| SolveError::Unsupported {
        solver: "max^n over states",
        reason: format!("the answer does not serialize: {e}"),
    })?;
    Ok(StateReport { text, json })
}
