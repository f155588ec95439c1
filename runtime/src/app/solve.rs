//! `solve`: solve a two-player zero-sum game with the
//! sequence-form LP, check the answer with an independent best response, and
//! show the strategies in the game's own terms. `--strategy FILE` evaluates a
//! given profile instead.

use std::path::PathBuf;
use std::time::Instant;

use crate::algo::best_response::{evaluate, Evaluation};
use crate::algo::lp::{self, Backend};
use crate::algo::Profile;
use crate::game::{Game, GameInfo};
use crate::seqform::SequenceForm;
use crate::tree::Tree;

use super::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The solver.
    #[arg(long, value_enum, default_value_t = Solver::Lp)]
    pub solver: Solver,
    /// The LP backend: microlp (pure-Rust simplex), clarabel (pure-Rust
    /// interior point), or highs (when built with the `highs` feature).
    #[arg(long, default_value = "clarabel", value_name = "NAME")]
    pub lp_backend: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the strategy profile as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Evaluate this strategy profile (JSON, as written by --out) instead of solving.
    #[arg(long, value_name = "FILE")]
    pub strategy: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Solver {
    /// The sequence-form linear program (two-player zero-sum games).
    Lp,
}

pub fn run<G: Game>(game: &G, args: &SolveArgs, make: super::Maker<G>) -> i32 {
    let Some(backend) = Backend::from_name(&args.lp_backend) else {
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        eprintln!("error: unknown LP backend `{}`; available: {}", args.lp_backend, names.join(", "));
        return 2;
    };
    let Some((tree, gen_seconds)) = super::build_tree(game, make, &args.limits, true) else {
        return 1;
    };
    let labels = unique_labels(&tree);
    let started = Instant::now();
    let sf = match SequenceForm::new(&tree) {
        Ok(sf) => sf,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("note: `galac solve --solver lp` solves two-player zero-sum (or constant-sum) games");
            return 1;
        }
    };
    let sf_seconds = started.elapsed().as_secs_f64();

    let (profile, unreached, solver_name, build_seconds, solve_seconds) = match &args.strategy {
        Some(path) => match read_profile(path, &tree, &labels) {
            Ok(p) => (p, Vec::new(), "given strategy".to_string(), 0.0, 0.0),
            Err(msg) => {
                eprintln!("error: {msg}");
                return 1;
            }
        },
        None => {
            let sol = match lp::solve(&sf, backend) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return 1;
                }
            };
            let mut profile = Profile::uniform(&tree);
            let mut unreached = sf.behaviour(&tree, 0, &sol.plans[0], &mut profile);
            unreached.extend(sf.behaviour(&tree, 1, &sol.plans[1], &mut profile));
            let name = format!("lp ({})", backend.name());
            (profile, unreached, name, sf_seconds + sol.build_seconds, sol.solve_seconds)
        }
    };
    let eval = evaluate(&tree, &profile);
    let report = Report {
        info: game.info(),
        tree: &tree,
        labels: &labels,
        profile: &profile,
        unreached: &unreached,
        eval: &eval,
        solver: &solver_name,
        seconds: [gen_seconds, build_seconds, solve_seconds],
    };
    if let Some(out) = &args.out {
        let json = report.json().to_string();
        if let Err(e) = super::write_atomically(out, |mut f| std::io::Write::write_all(&mut f, json.as_bytes())) {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return 1;
        }
    }
    match args.format {
        Format::Text => super::emit(&report.text()),
        Format::Json => super::emit(&format!("{}\n", report.json())),
    }
    0
}

/// Information-set labels that are unique keys (the choices are appended
/// where two sets share a fact list).
pub fn unique_labels(tree: &Tree) -> Vec<String> {
    let mut labels: Vec<String> = (0..tree.infosets.len() as u32).map(|i| tree.infoset_label(i).to_string()).collect();
    let mut counts = std::collections::HashMap::new();
    for l in &labels {
        *counts.entry(l.clone()).or_insert(0) += 1;
    }
    for (i, l) in labels.iter_mut().enumerate() {
        if counts[l.as_str()] > 1 {
            *l = format!("{l} {{{}}}", tree.action_labels(i as u32).join(", "));
        }
    }
    let mut seen = std::collections::HashMap::new();
    for l in labels.iter_mut() {
        let n = seen.entry(l.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            *l = format!("{l} #{n}");
        }
    }
    labels
}

struct Report<'a> {
    info: &'a GameInfo,
    tree: &'a Tree,
    labels: &'a [String],
    profile: &'a Profile,
    unreached: &'a [u32],
    eval: &'a Evaluation,
    solver: &'a str,
    seconds: [f64; 3],
}

impl Report<'_> {
    fn text(&self) -> String {
        let info = self.info;
        let players = &info.players;
        let params: Vec<String> = info.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut out = String::new();
        out += &format!(
            "game: {}{}\n",
            info.name,
            if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) }
        );
        out += &format!("solver: {}\n", self.solver);
        let values: Vec<String> = players.iter().zip(&self.eval.values).map(|(p, v)| format!("{p} {v:.9}")).collect();
        out += &format!("value: {}\n", values.join(", "));
        out += &format!("exploitability (NashConv): {:.3e}\n", self.eval.nash_conv);
        let stats = self.tree.stats();
        let sets: Vec<String> = players.iter().zip(&stats.infosets).map(|(p, n)| format!("{p} {n}")).collect();
        out += &format!("nodes: {}; info sets: {}\n", stats.nodes, sets.join(", "));
        out += &format!(
            "time: generate {:.4} s, build LP {:.4} s, solve LP {:.4} s\n",
            self.seconds[0], self.seconds[1], self.seconds[2]
        );
        for (p, name) in players.iter().enumerate() {
            out += &format!("\nstrategy of {name}:\n");
            for (set, info) in self.tree.infosets.iter().enumerate() {
                if info.player as usize != p {
                    continue;
                }
                let probs = self.profile.probs(set as u32);
                let acts: Vec<String> =
                    self.tree.action_labels(set as u32).iter().zip(probs).map(|(a, x)| format!("{a} {x:.3}")).collect();
                let mark = if self.unreached.contains(&(set as u32)) { " *" } else { "" };
                out += &format!("  {}: {}{mark}\n", self.labels[set], acts.join(", "));
            }
        }
        if !self.unreached.is_empty() {
            out += &format!(
                "\n* {} information set(s) are never reached when this strategy is played; uniform play is shown there\n",
                self.unreached.len()
            );
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let info = self.info;
        let stats = self.tree.stats();
        let mut strategy = serde_json::Map::new();
        for set in 0..self.tree.infosets.len() {
            let acts: serde_json::Map<String, serde_json::Value> = self
                .tree
                .action_labels(set as u32)
                .iter()
                .zip(self.profile.probs(set as u32))
                .map(|(a, x)| (a.clone(), serde_json::json!(x)))
                .collect();
            strategy.insert(self.labels[set].clone(), serde_json::Value::Object(acts));
        }
        let params: serde_json::Map<String, serde_json::Value> = info
            .params
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    serde_json::json!(v
                        .parse::<i64>()
                        .ok()
                        .map_or_else(|| serde_json::json!(v), |n| serde_json::json!(n))),
                )
            })
            .collect();
        let values: serde_json::Map<String, serde_json::Value> =
            info.players.iter().zip(&self.eval.values).map(|(p, v)| (p.clone(), serde_json::json!(v))).collect();
        serde_json::json!({
            "game": info.name,
            "params": params,
            "solver": self.solver,
            "value": values,
            "exploitability": self.eval.nash_conv,
            "best_response": self.eval.best_response,
            "nodes": stats.nodes,
            "infosets": stats.infosets,
            "seconds": { "generate": self.seconds[0], "build": self.seconds[1], "solve": self.seconds[2] },
            "unreached": self.unreached.iter().map(|s| self.labels[*s as usize].clone()).collect::<Vec<_>>(),
            "strategy": strategy,
        })
    }
}

/// Reads a profile written by `--out` and matches it to the tree's sets.
fn read_profile(path: &std::path::Path, tree: &Tree, labels: &[String]) -> Result<Profile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("`{}` is not valid JSON: {e}", path.display()))?;
    let strategy = json
        .get("strategy")
        .and_then(|s| s.as_object())
        .ok_or_else(|| format!("`{}` has no \"strategy\" object", path.display()))?;
    let mut profile = Profile::uniform(tree);
    for (set, label) in labels.iter().enumerate() {
        let Some(acts) = strategy.get(label).and_then(|a| a.as_object()) else {
            return Err(format!("the strategy has no entry for the information set \"{label}\""));
        };
        let probs = profile.probs_mut(set as u32);
        let mut total = 0.0;
        for (a, name) in tree.action_labels(set as u32).iter().enumerate() {
            let x = acts
                .get(name)
                .and_then(|v| v.as_f64())
                .ok_or_else(|| format!("the strategy gives no probability to action \"{name}\" at \"{label}\""))?;
            if !(0.0..=1.0 + 1e-9).contains(&x) {
                return Err(format!("probability {x} of \"{name}\" at \"{label}\" is not in [0, 1]"));
            }
            probs[a] = x;
            total += x;
        }
        if (total - 1.0).abs() > 1e-6 {
            return Err(format!("the probabilities at \"{label}\" sum to {total}, not 1"));
        }
    }
    Ok(profile)
}
