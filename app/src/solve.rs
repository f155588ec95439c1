//! `solve`: solve a game with the chosen solver (a
//! [`galac_solvers::solver::Solver`]), check the answer with an independent
//! best response, and show the strategies in the game's own terms.
//! `--strategy FILE` evaluates a given profile instead.

use std::path::PathBuf;

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::tree::Tree;
use galac_solvers::best_response::{evaluate, Evaluation};
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

use crate::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The solver.
    #[arg(long, value_enum, default_value_t = SolverName::Lp)]
    pub solver: SolverName,
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
    #[command(flatten)]
    pub double_oracle: crate::double_oracle::DoArgs,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum SolverName {
    /// The sequence-form linear program (two-player zero-sum games).
    Lp,
    /// The sequence-form double oracle (two-player zero-sum games): exact,
    /// from a restricted game explored lazily, without the full tree.
    Do,
}

impl SolveArgs {
    /// The solver the flags ask for, or why they are wrong.
    fn solver(&self) -> Result<Box<dyn Solver>, String> {
        match self.solver {
            SolverName::Lp => {
                let Some(backend) = Backend::from_name(&self.lp_backend) else {
                    let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                    return Err(format!("unknown LP backend `{}`; available: {}", self.lp_backend, names.join(", ")));
                };
                Ok(Box::new(LpSolver { backend }))
            }
            SolverName::Do => Err("`--strategy` evaluates a given profile; use it without `--solver do`".into()),
        }
    }

    /// The LP backend the flags name, or why it is wrong.
    pub(crate) fn backend(&self) -> Result<Backend, String> {
        Backend::from_name(&self.lp_backend).ok_or_else(|| {
            let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
            format!("unknown LP backend `{}`; available: {}", self.lp_backend, names.join(", "))
        })
    }
}

pub fn run<G: Game>(game: &G, args: &SolveArgs, make: crate::Maker<G>) -> i32 {
    if args.solver == SolverName::Do && args.strategy.is_none() {
        return crate::double_oracle::run(game, args);
    }
    let solver = match args.solver() {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let Some((tree, gen_seconds)) = crate::build_tree(game, make, &args.limits, true) else {
        return 1;
    };
    let labels = unique_labels(&tree);
    let (profile, unreached, solver_name, phases) = match &args.strategy {
        Some(path) => match read_profile(path, &tree, &labels) {
            Ok(p) => (p, Vec::new(), "given strategy".to_string(), Vec::new()),
            Err(msg) => {
                eprintln!("error: {msg}");
                return 1;
            }
        },
        None => match solver.solve(&tree, &mut RunToEnd) {
            Ok(sol) => (sol.profile, sol.unreached, solver.name(), sol.phases),
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        },
    };
    let eval = evaluate(&tree, &profile);
    let report = Report {
        extra: None,
        info: game.info(),
        tree: &tree,
        labels: &labels,
        profile: &profile,
        unreached: &unreached,
        eval: &eval,
        solver: &solver_name,
        generate_seconds: gen_seconds,
        phases: &phases,
    };
    if let Some(out) = &args.out {
        let json = report.json().to_string();
        if let Err(e) = crate::write_atomically(out, |mut f| std::io::Write::write_all(&mut f, json.as_bytes())) {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return 1;
        }
    }
    match args.format {
        Format::Text => crate::emit(&report.text()),
        Format::Json => crate::emit(&format!("{}\n", report.json())),
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

/// What `solve` shows about an answer on a built tree.
pub(crate) struct Report<'a> {
    pub info: &'a GameInfo,
    pub tree: &'a Tree,
    pub labels: &'a [String],
    pub profile: &'a Profile,
    pub unreached: &'a [u32],
    pub eval: &'a Evaluation,
    pub solver: &'a str,
    pub generate_seconds: f64,
    /// (phase, seconds) as the solver reported them.
    pub phases: &'a [(&'static str, f64)],
    /// A solver's own section: (text lines, JSON key and value).
    pub extra: Option<(String, &'static str, serde_json::Value)>,
}

impl Report<'_> {
    pub(crate) fn text(&self) -> String {
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
        let mut times = vec![format!("generate {:.4} s", self.generate_seconds)];
        times.extend(self.phases.iter().map(|(phase, t)| format!("{phase} {t:.4} s")));
        out += &format!("time: {}\n", times.join(", "));
        if let Some((text, _, _)) = &self.extra {
            out += text;
        }
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

    pub(crate) fn json(&self) -> serde_json::Value {
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
        let mut seconds = serde_json::Map::new();
        seconds.insert("generate".into(), serde_json::json!(self.generate_seconds));
        for (phase, t) in self.phases {
            seconds.insert(phase.to_lowercase().replace(" ", "_"), serde_json::json!(t));
        }
        let mut json = serde_json::json!({
            "game": info.name,
            "params": params,
            "solver": self.solver,
            "value": values,
            "exploitability": self.eval.nash_conv,
            "best_response": self.eval.best_response,
            "nodes": stats.nodes,
            "infosets": stats.infosets,
            "seconds": seconds,
            "unreached": self.unreached.iter().map(|s| self.labels[*s as usize].clone()).collect::<Vec<_>>(),
            "strategy": strategy,
        });
        if let (Some((_, key, value)), Some(obj)) = (&self.extra, json.as_object_mut()) {
            obj.insert(key.to_string(), value.clone());
        }
        json
    }
}

/// The largest strategy file read (a profile of a few million sets).
const MAX_STRATEGY_BYTES: u64 = 1 << 30;

/// Reads a profile written by `--out` and matches it to the tree's sets.
fn read_profile(path: &std::path::Path, tree: &Tree, labels: &[String]) -> Result<Profile, String> {
    let bytes = crate::read_bounded(path, MAX_STRATEGY_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("`{}` is not UTF-8 text", path.display()))?;
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
