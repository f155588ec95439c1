//! `tree`: generate the game tree and report its size.

use crate::game::Game;
use crate::tree::Stats;

use super::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct TreeArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run<G: Game>(game: &G, args: &TreeArgs, make: super::Maker<G>) -> i32 {
    let Some((tree, seconds)) = super::build_tree(game, make, &args.limits, false) else {
        return 1;
    };
    let stats = tree.stats();
    let info = game.info();
    match args.format {
        Format::Text => super::emit(&text_report(&info.name, &info.params, &info.players, &stats, seconds)),
        Format::Json => super::emit(&format!("{}\n", json_report(&info.name, &info.params, &info.players, &stats, seconds))),
    }
    0
}

fn per_player(players: &[String], counts: &[u64]) -> String {
    players.iter().zip(counts).map(|(p, n)| format!("{p} {n}")).collect::<Vec<_>>().join(", ")
}

pub fn text_report(name: &str, params: &[(String, String)], players: &[String], s: &Stats, seconds: f64) -> String {
    let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let decisions: u64 = s.decision_nodes.iter().sum();
    let rate = if seconds > 0.0 { s.nodes as f64 / seconds } else { 0.0 };
    format!(
        "game: {name}{}\n\
         nodes: {} (decision {decisions}, chance {}, terminal {})\n\
         decision nodes: {}\n\
         info sets: {}\n\
         sequences: {}\n\
         depth: {}\n\
         memory: {} bytes ({:.1} bytes/node)\n\
         generation: {seconds:.6} s ({:.0} nodes/s)\n",
        if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) },
        s.nodes,
        s.chance_nodes,
        s.terminals,
        per_player(players, &s.decision_nodes),
        per_player(players, &s.infosets),
        per_player(players, &s.sequences),
        s.max_depth,
        s.bytes,
        s.bytes as f64 / s.nodes.max(1) as f64,
        rate,
    )
}

pub fn json_report(name: &str, params: &[(String, String)], players: &[String], s: &Stats, seconds: f64) -> String {
    let params: serde_json::Map<String, serde_json::Value> = params
        .iter()
        .map(|(k, v)| {
            let value = v.parse::<i64>().map(serde_json::Value::from).unwrap_or_else(|_| match v.as_str() {
                "true" => serde_json::Value::Bool(true),
                "false" => serde_json::Value::Bool(false),
                _ => serde_json::Value::String(v.clone()),
            });
            (k.clone(), value)
        })
        .collect();
    serde_json::json!({
        "game": name,
        "params": params,
        "players": players,
        "nodes": s.nodes,
        "terminals": s.terminals,
        "chance_nodes": s.chance_nodes,
        "decision_nodes": s.decision_nodes,
        "infosets": s.infosets,
        "sequences": s.sequences,
        "depth": s.max_depth,
        "bytes": s.bytes,
        "seconds": seconds,
    })
    .to_string()
}
