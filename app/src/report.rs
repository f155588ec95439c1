//! The report of a solved game (`solve`, and the double oracle with a
//! tree): the value, the check, and every information set's strategy, as
//! text or JSON. Both are written as they are made: a game with millions
//! of information sets (blind tic-tac-toe, 6.65 M) made a JSON value of
//! 16 GB when the report was built whole before printing.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use galac_runtime::game::GameInfo;
use galac_runtime::tree::Tree;
use galac_solvers::best_response::Evaluation;
use galac_solvers::Profile;

use crate::Format;

/// Information-set labels that are unique keys (the choices are appended
/// where two sets share a fact list).
pub fn unique_labels(tree: &Tree) -> Vec<String> {
    let n = tree.infosets.len() as u32;
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for set in 0..n {
        *counts.entry(tree.infoset_label(set)).or_insert(0) += 1;
    }
    let mut labels: Vec<String> = (0..n)
        .map(|set| {
            let l = tree.infoset_label(set);
            if counts[l] > 1 {
                format!("{l} {{{}}}", tree.action_labels(set).join(", "))
            } else {
                l.to_string()
            }
        })
        .collect();
    drop(counts);
    // A label met again gets its number (counted among the labels as they
    // were before any number was added).
    let mut numbered = Vec::new();
    let mut seen: HashMap<&str, u32> = HashMap::new();
    for (i, l) in labels.iter().enumerate() {
        let k = seen.entry(l.as_str()).or_insert(0);
        *k += 1;
        if *k > 1 {
            numbered.push((i, *k));
        }
    }
    drop(seen);
    for (i, k) in numbered {
        labels[i] = format!("{} #{k}", labels[i]);
    }
    labels
}

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
    /// The solver's own findings and why it was chosen, one line each.
    pub notes: &'a [String],
    /// An iterative solver's convergence curve.
    pub curve: Option<&'a [crate::cfr::Point]>,
    /// A solver's own JSON fields (max^n's principal variation).
    pub fields: &'a [(&'static str, serde_json::Value)],
    /// A solver's own section: (text lines, JSON key and value).
    pub extra: Option<(String, &'static str, serde_json::Value)>,
}

/// The key of the strategies in the JSON report, written set by set.
const STRATEGY: &str = "strategy";

impl Report<'_> {
    /// Writes the JSON report to `out` if given (replacing it whole, or
    /// leaving it as it was on an error), then the report in `format` to
    /// standard output; false after an error message.
    pub(crate) fn emit(&self, format: Format, out: Option<&Path>) -> bool {
        if let Some(out) = out {
            let written = crate::write_atomically(out, |f| {
                let mut w = BufWriter::new(f);
                self.write_json(&mut w)?;
                w.write_all(b"\n")?;
                w.flush()
            });
            if let Err(e) = written {
                eprintln!("error: cannot write `{}`: {e}", out.display());
                return false;
            }
        }
        // Standard output closed early (a pipe to `head`) is not an error.
        let mut w = BufWriter::new(io::stdout().lock());
        let _ = match format {
            Format::Text => self.write_text(&mut w),
            Format::Json => self.write_json(&mut w).and_then(|()| w.write_all(b"\n")),
        }
        .and_then(|()| w.flush());
        true
    }

    pub(crate) fn write_text(&self, w: &mut impl Write) -> io::Result<()> {
        let info = self.info;
        let players = &info.players;
        let params: Vec<String> = info.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let params = if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) };
        writeln!(w, "game: {}{params}", info.name)?;
        writeln!(w, "solver: {}", self.solver)?;
        for note in self.notes {
            writeln!(w, "  {note}")?;
        }
        let values: Vec<String> = players.iter().zip(&self.eval.values).map(|(p, v)| format!("{p} {v:.9}")).collect();
        writeln!(w, "value: {}", values.join(", "))?;
        writeln!(w, "exploitability (NashConv): {:.3e}", self.eval.nash_conv)?;
        if players.len() > 2 {
            writeln!(w, "note: with three or more players a small NashConv is not an equilibrium guarantee")?;
        }
        let stats = self.tree.stats();
        let sets: Vec<String> = players.iter().zip(&stats.infosets).map(|(p, n)| format!("{p} {n}")).collect();
        writeln!(w, "nodes: {}; info sets: {}", stats.nodes, sets.join(", "))?;
        let mut times = vec![format!("generate {:.4} s", self.generate_seconds)];
        times.extend(self.phases.iter().map(|(phase, t)| format!("{phase} {t:.4} s")));
        writeln!(w, "time: {}", times.join(", "))?;
        if let Some((text, _, _)) = &self.extra {
            w.write_all(text.as_bytes())?;
        }
        for (p, name) in players.iter().enumerate() {
            write!(w, "\nstrategy of {name}:\n")?;
            for (set, info) in self.tree.infosets.iter().enumerate() {
                if info.player as usize != p {
                    continue;
                }
                write!(w, "  {}: ", self.labels[set])?;
                let probs = self.profile.probs(set as u32);
                for (i, (a, x)) in self.tree.action_labels(set as u32).iter().zip(probs).enumerate() {
                    write!(w, "{}{a} {x:.3}", if i > 0 { ", " } else { "" })?;
                }
                let mark = if self.unreached.contains(&(set as u32)) { " *" } else { "" };
                writeln!(w, "{mark}")?;
            }
        }
        if !self.unreached.is_empty() {
            write!(
                w,
                "\n* {} information set(s) are never reached when this strategy is played; uniform play is shown there\n",
                self.unreached.len()
            )?;
        }
        Ok(())
    }

    /// Writes the report as one line of JSON (no newline): the fields of
    /// [`Report::head`], with the strategies written set by set.
    pub(crate) fn write_json(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(b"{")?;
        for (i, (key, value)) in self.head().iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            serde_json::to_writer(&mut *w, key)?;
            w.write_all(b":")?;
            if key == STRATEGY {
                self.write_strategy(w)?;
            } else {
                serde_json::to_writer(&mut *w, value)?;
            }
        }
        w.write_all(b"}")
    }

    /// Each set's label to its actions' probabilities (by action label).
    fn write_strategy(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(b"{")?;
        for set in 0..self.tree.infosets.len() {
            if set > 0 {
                w.write_all(b",")?;
            }
            let acts: serde_json::Map<String, serde_json::Value> = self
                .tree
                .action_labels(set as u32)
                .iter()
                .zip(self.profile.probs(set as u32))
                .map(|(a, x)| (a.clone(), serde_json::json!(x)))
                .collect();
            serde_json::to_writer(&mut *w, &self.labels[set])?;
            w.write_all(b":")?;
            serde_json::to_writer(&mut *w, &acts)?;
        }
        w.write_all(b"}")
    }

    /// The report's JSON fields in order, the strategies' as a placeholder
    /// (the value of [`STRATEGY`]).
    fn head(&self) -> serde_json::Map<String, serde_json::Value> {
        let info = self.info;
        let stats = self.tree.stats();
        let params = crate::params_json(info);
        let values: serde_json::Map<String, serde_json::Value> =
            info.players.iter().zip(&self.eval.values).map(|(p, v)| (p.clone(), serde_json::json!(v))).collect();
        let mut seconds = serde_json::Map::new();
        seconds.insert("generate".into(), serde_json::json!(self.generate_seconds));
        for (phase, t) in self.phases {
            seconds.insert(phase.to_lowercase().replace(" ", "_"), serde_json::json!(t));
        }
        let serde_json::Value::Object(mut obj) = serde_json::json!({
            "schema": "galac.solve/1",
            "game": info.name,
            "params": params,
            "solver": self.solver,
            "notes": self.notes,
            "value": values,
            "exploitability": self.eval.nash_conv,
            "best_response": self.eval.best_response,
            "nodes": stats.nodes,
            "infosets": stats.infosets,
            "seconds": seconds,
            "unreached": self.unreached.iter().map(|s| self.labels[*s as usize].clone()).collect::<Vec<_>>(),
            "strategy": serde_json::Value::Null,
        }) else {
            unreachable!("an object")
        };
        if let Some(curve) = self.curve {
            let points: Vec<serde_json::Value> = curve
                .iter()
                .map(|p| {
                    serde_json::json!({
                        "iteration": p.iteration,
                        "seconds": p.seconds,
                        "exploitability": p.exploitability,
                        "nash_conv": p.nash_conv,
                        "value": p.values,
                    })
                })
                .collect();
            obj.insert("curve".into(), serde_json::Value::Array(points));
        }
        for (key, value) in self.fields {
            obj.insert(key.to_string(), value.clone());
        }
        if let Some((_, key, value)) = &self.extra {
            obj.insert(key.to_string(), value.clone());
        }
        if info.players.len() > 2 {
            obj.insert(
                "note".into(),
                "three or more players: NashConv is reported; no equilibrium guarantee holds".into(),
            );
        }
        obj
    }
}
