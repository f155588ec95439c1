//! The report of a solved game (`solve`, and the double oracle with a
//! tree): the value, the check, and the information sets' strategies, as
//! text (the first [`TEXT_SETS_PER_PLAYER`] sets a player) or JSON (every
//! set; [`SolveJson`], the one shape of every `solve` answer).
//! Both are written as they are made, never built whole: a game with
//! millions of information sets would need gigabytes for the JSON value.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};

use galac_runtime::game::GameInfo;
use galac_runtime::ids::{IdSlice, IdVec, InfosetId};
use galac_runtime::tree::Tree;
use galac_solvers::best_response::Evaluation;
use galac_solvers::double_oracle::LabelledSet;
use galac_solvers::Profile;

use crate::cards::standard;
use crate::registry::harness::Point;
use crate::registry::solved::Fields;
use crate::Format;

/// Information-set labels that are unique keys (the choices are appended
/// where two sets share a fact list). Answers write them with cards as
/// cards ([`crate::cards::standard`]); commands that show cards their own
/// way (`--ranks`) rewrite these.
pub fn unique_labels(tree: &Tree) -> IdVec<InfosetId, String> {
    // Sized once: grown by doubling, the map of blind tic-tac-toe's 6.65M
    // labels was rehashed a dozen times.
    let mut counts: FxHashMap<&str, u32> = FxHashMap::default();
    counts.reserve(tree.infosets.len());
    for set in tree.infosets.keys() {
        *counts.entry(tree.infoset_label(set)).or_insert(0) += 1;
    }
    let mut extended = false;
    let mut labels: IdVec<InfosetId, String> = tree
        .infosets
        .keys()
        .map(|set| {
            let l = tree.infoset_label(set);
            if counts[l] > 1 {
                extended = true;
                extend(tree, set)
            } else {
                l.to_string()
            }
        })
        .collect();
    drop(counts);
    // Labels all distinct from the start stay distinct: only an extended
    // one can meet another again.
    if !extended {
        return labels;
    }
    // A label met again gets its number (counted among the labels as they
    // were before any number was added).
    let mut numbered = Vec::new();
    let mut seen: FxHashMap<&str, u32> = FxHashMap::default();
    seen.reserve(labels.len());
    for (i, l) in labels.iter_enumerated() {
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

/// The labels [`unique_labels`] gives `sets`, in their order, without
/// making every set's: a text answer prints a few thousand sets of a
/// game's millions. Two passes over the tree's labels, borrowed,
/// looked up in a map of the keys these sets' labels can meet: their own
/// labels, those extended by their actions, and every part before a ` {`
/// that another set's extended label could have been made from.
pub fn unique_labels_of(tree: &Tree, sets: &[InfosetId]) -> Vec<String> {
    let extended: Vec<String> = sets.iter().map(|&set| extend(tree, set)).collect();
    // Each key's count among the tree's labels as built.
    let mut counts: FxHashMap<&str, u32> = FxHashMap::default();
    for (&set, ext) in sets.iter().zip(&extended) {
        for l in [tree.infoset_label(set), ext.as_str()] {
            counts.insert(l, 0);
            if l.ends_with('}') {
                for (i, _) in l.match_indices(" {") {
                    counts.insert(&l[..i], 0);
                }
            }
        }
    }
    for set in tree.infosets.keys() {
        if let Some(n) = counts.get_mut(tree.infoset_label(set)) {
            *n += 1;
        }
    }
    let unnumbered: Vec<&str> = sets
        .iter()
        .zip(&extended)
        .map(|(&set, ext)| {
            let l = tree.infoset_label(set);
            if counts[l] > 1 {
                ext.as_str()
            } else {
                l
            }
        })
        .collect();
    // How many sets up to each one (in the tree's order) have its label
    // before numbering: a set's label meets one of these only if its own
    // label is a key (it is one of them, or the part its extension was
    // made from).
    let mut met: FxHashMap<&str, u32> = unnumbered.iter().map(|&l| (l, 0)).collect();
    let wanted: FxHashSet<InfosetId> = sets.iter().copied().collect();
    let mut number: FxHashMap<InfosetId, u32> = FxHashMap::default();
    let mut buf = String::new();
    for set in tree.infosets.keys() {
        let l = tree.infoset_label(set);
        let Some(&n) = counts.get(l) else { continue };
        let label = if n > 1 {
            buf.clear();
            push_extended(&mut buf, tree, set);
            buf.as_str()
        } else {
            l
        };
        if let Some(k) = met.get_mut(label) {
            *k += 1;
            if wanted.contains(&set) {
                number.insert(set, *k);
            }
        }
    }
    sets.iter()
        .zip(unnumbered)
        .map(|(set, l)| match number.get(set) {
            Some(&k) if k > 1 => format!("{l} #{k}"),
            _ => l.to_string(),
        })
        .collect()
}

/// A set's label with its actions appended, as [`unique_labels`] makes
/// it where two sets share a label.
fn extend(tree: &Tree, set: InfosetId) -> String {
    let mut s = String::new();
    push_extended(&mut s, tree, set);
    s
}

/// Appends [`extend`]'s label to `out`.
fn push_extended(out: &mut String, tree: &Tree, set: InfosetId) {
    out.push_str(tree.infoset_label(set));
    out.push_str(" {");
    for (i, a) in tree.action_labels(set).iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(a);
    }
    out.push('}');
}

/// The `solve` answer as JSON (schema `galac.solve/1`), in every form:
/// of a built tree, of the double oracle without one, of max^n over
/// states, of vector CFR. Keys in this order (the head's, `strategy`, the
/// tail's: one object); the strategies are written set by set (written by
/// serde, or for [`Strategy::Sets`] by [`crate::json_sets`]).
#[derive(serde::Serialize)]
pub(crate) struct SolveJson<'a> {
    #[serde(flatten)]
    pub head: SolveHead<'a>,
    pub strategy: Strategy<'a>,
    #[serde(flatten)]
    pub tail: SolveTail<'a>,
}

/// The keys of a [`SolveJson`] before its strategy.
#[derive(serde::Serialize)]
pub(crate) struct SolveHead<'a> {
    pub schema: &'static str,
    pub game: &'a str,
    pub params: serde_json::Value,
    /// The checksum of the program's rules ([`program_hex`]), so that a
    /// strategy file read back is matched to the version of the game it
    /// was made for.
    pub program: String,
    pub solver: &'a str,
    pub notes: &'a [String],
    /// Each player's expected payoff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Keyed<'a, f64>>,
    /// Bounds on the first player's value (the double oracle without a tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_bounds: Option<[f64; 2]>,
    /// NashConv.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exploitability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_response: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infosets: Option<Vec<u64>>,
    /// Seconds per phase ("generate", then the solver's, in snake case).
    pub seconds: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreached: Option<Vec<String>>,
}

/// The keys of a [`SolveJson`] after its strategy.
#[derive(serde::Serialize)]
pub(crate) struct SolveTail<'a> {
    /// Where the sets are hands of two cards: each player's first
    /// decision, hand by hand and as the 13x13 grid ([`crate::hands`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<crate::hands::GridJson<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve: Option<&'a [Point]>,
    #[serde(flatten)]
    pub findings: Option<&'a Fields>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<&'a crate::exact::ExactJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// A game's program checksum (`GameInfo::program`) as JSON gives it:
/// 16 hex digits (a JSON number would lose digits past 2^53).
pub(crate) fn program_hex(info: &galac_runtime::game::GameInfo) -> String {
    format!("{:016x}", info.program)
}

/// A small report (built whole): its JSON to `out` when given, then the
/// report in `format`; the exit status (1 after the message when `out`
/// cannot be written).
pub(crate) fn emit_small(format: Format, out: Option<&Path>, text: &str, json: &dyn crate::answer::Json) -> i32 {
    match crate::answer::json_line(json) {
        Ok(line) => emit_lines(format, out, text, &line),
        Err(e) => {
            eprintln!("error: the answer cannot be written as JSON: {e}");
            1
        }
    }
}

/// A large answer, written as it is serialised, never held whole (vector
/// CFR's strategy per public decision and hand: 90 MB of JSON on the
/// turn): its JSON to `out` when given (replacing it whole, or leaving it
/// as it was on an error), then the answer in `format`; the exit status
/// (1 after the message when it cannot be written). The same bytes as
/// [`emit_small`].
pub(crate) fn emit_streamed(format: Format, out: Option<&Path>, text: &str, json: &dyn crate::answer::Json) -> i32 {
    let write = |w: &mut dyn Write| -> io::Result<()> {
        json.write_json(&mut *w)?;
        w.write_all(b"\n")?;
        w.flush()
    };
    if let Some(out) = out {
        if let Err(e) = crate::write_atomically(out, |f| write(&mut BufWriter::new(f))) {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return 1;
        }
    }
    match format {
        Format::Text => crate::emit(text),
        Format::Json => {
            // Standard output closed early (a pipe to `head`) is not an
            // error; an answer that cannot be written as JSON is.
            if let Err(e) = write(&mut BufWriter::new(io::stdout().lock())) {
                if e.kind() == io::ErrorKind::InvalidData {
                    eprintln!("error: the answer cannot be written as JSON: {e}");
                    return 1;
                }
            }
        }
    }
    0
}

/// [`emit_small`] with the JSON already written (one line, without its
/// newline).
pub(crate) fn emit_lines(format: Format, out: Option<&Path>, text: &str, json: &str) -> i32 {
    let line = format!("{json}\n");
    if let Some(out) = out {
        if let Err(e) = crate::write_atomically(out, |mut f| std::io::Write::write_all(&mut f, line.as_bytes())) {
            eprintln!("error: cannot write `{}`: {e}", out.display());
            return 1;
        }
    }
    match format {
        Format::Text => crate::emit(text),
        Format::Json => crate::emit(&line),
    }
    0
}

/// The schema of every `solve` answer.
pub(crate) const SOLVE_SCHEMA: &str = "galac.solve/1";

/// A map from names (players) to values, in the names' order.
pub struct Keyed<'a, T>(pub &'a [String], pub &'a [T]);

impl<T: serde::Serialize> serde::Serialize for Keyed<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().zip(self.1))
    }
}

/// A profile as JSON: each set's label (cards as cards) to its actions'
/// probabilities (by action label); `null` when there is none.
pub(crate) enum Strategy<'a> {
    None,
    /// Every set of a built tree.
    Tree {
        tree: &'a Tree,
        profile: &'a Profile,
        labels: &'a IdSlice<InfosetId, String>,
    },
    /// The sets the double oracle's restricted game defines.
    Labelled(&'a [LabelledSet]),
    /// Sets made one at a time as they are written (vector CFR's, a set
    /// per public decision and hand, about a million on the turn, never
    /// held all at once): the function writes the whole map's JSON to its
    /// argument ([`crate::json_sets::SetWriter`]). Only
    /// [`SolveJson`]'s writer writes it; serde refuses it.
    Sets(&'a dyn Fn(&mut dyn Write) -> io::Result<()>),
}

/// One set's actions to their probabilities.
struct Probs<'a>(&'a [String], &'a [f64]);

impl serde::Serialize for Probs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().zip(self.1))
    }
}

impl serde::Serialize for Strategy<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Strategy::None => s.serialize_unit(),
            Strategy::Tree { tree, profile, labels } => s.collect_map(
                tree.infosets
                    .keys()
                    .map(|set| (standard(&labels[set]), Probs(tree.action_labels(set), profile.probs(set)))),
            ),
            Strategy::Labelled(sets) => {
                s.collect_map(sets.iter().map(|set| (standard(&set.label), Probs(&set.actions, &set.probs))))
            }
            Strategy::Sets(_) => {
                Err(serde::ser::Error::custom("a strategy written set by set is written by the answer's own writer"))
            }
        }
    }
}

/// Seconds per phase as the JSON answer keys them.
pub(crate) fn seconds_json(
    generate: Option<f64>,
    phases: &[(&'static str, f64)],
) -> serde_json::Map<String, serde_json::Value> {
    let mut seconds = serde_json::Map::new();
    if let Some(t) = generate {
        seconds.insert("generate".into(), serde_json::json!(t));
    }
    for (phase, t) in phases {
        seconds.insert(phase.to_lowercase().replace(" ", "_"), serde_json::json!(t));
    }
    seconds
}

/// The note of an answer with three or more players (text, JSON).
pub(crate) fn many_players_note(players: usize) -> Option<(&'static str, &'static str)> {
    (players > 2).then_some((
        "with three or more players a NashConv of e makes this an e-equilibrium, but equilibria are not unique \
         and need not share a value",
        "three or more players: a NashConv of e makes this an e-equilibrium, but equilibria are not unique and \
         need not share a value",
    ))
}

/// Sets a text answer prints per player, in the tree's order; the rest
/// get one line saying how many were left out. Blind tic-tac-toe's 6.65M
/// sets made 1.26 GB of text, one `String` a set; the JSON answer (`--out`,
/// `--format json`) holds every set.
pub const TEXT_SETS_PER_PLAYER: usize = 1000;

/// A solved game as `solve` reports it (text or JSON); the Python module
/// returns the same JSON.
pub struct Report<'a> {
    pub info: &'a GameInfo,
    pub tree: &'a Tree,
    /// Every set's unique label ([`unique_labels`]); `None` to have them
    /// made as the report is written, only for the sets it writes (a text
    /// answer's few thousand: [`unique_labels_of`]).
    pub labels: Option<&'a IdSlice<InfosetId, String>>,
    pub profile: &'a Profile,
    pub unreached: &'a [InfosetId],
    pub eval: &'a Evaluation,
    pub solver: &'a str,
    pub generate_seconds: f64,
    /// (phase, seconds) as the solver reported them.
    pub phases: &'a [(&'static str, f64)],
    /// The solver's own findings and why it was chosen, one line each.
    pub notes: &'a [String],
    /// An iterative solver's convergence curve.
    pub curve: Option<&'a [Point]>,
    /// A solver's own findings (JSON fields).
    pub findings: Option<&'a Fields>,
    /// Sections of text after the times (the double oracle's summary, the
    /// exact check).
    pub sections: String,
    /// The exact check's JSON (`--exact`).
    pub exact: Option<crate::exact::ExactJson>,
    /// The whole tree's node count when `tree` is only this rank's shard
    /// (a distributed run): the hand grids, which read the tree, are left
    /// out then.
    pub whole_nodes: Option<u64>,
}

impl Report<'_> {
    /// The hand grids of the tree's first decisions (none on a shard).
    fn grids(&self) -> Vec<crate::hands::Grid> {
        match self.whole_nodes {
            Some(_) => Vec::new(),
            None => crate::hands::root_grids(self.tree, self.profile),
        }
    }

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

    pub fn write_text(&self, w: &mut impl Write) -> io::Result<()> {
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
        if let Some((note, _)) = many_players_note(players.len()) {
            writeln!(w, "note: {note}")?;
        }
        let stats = self.tree.stats();
        let sets: Vec<String> = players.iter().zip(&stats.infosets).map(|(p, n)| format!("{p} {n}")).collect();
        writeln!(w, "nodes: {}; info sets: {}", self.whole_nodes.unwrap_or(stats.nodes), sets.join(", "))?;
        let mut times = vec![format!("generate {:.4} s", self.generate_seconds)];
        times.extend(self.phases.iter().map(|(phase, t)| format!("{phase} {t:.4} s")));
        writeln!(w, "time: {}", times.join(", "))?;
        w.write_all(self.sections.as_bytes())?;
        // Each player's sets in the tree's order, the first
        // TEXT_SETS_PER_PLAYER printed, and how many there are.
        let mut printed: Vec<Vec<InfosetId>> = vec![Vec::new(); players.len()];
        let mut of_player = vec![0usize; players.len()];
        for (set, info) in self.tree.infosets.iter_enumerated() {
            let p = info.player.index();
            of_player[p] += 1;
            if printed[p].len() < TEXT_SETS_PER_PLAYER {
                printed[p].push(set);
            }
        }
        let all: Vec<InfosetId> = printed.concat();
        let made;
        let labels: Vec<&str> = match self.labels {
            Some(labels) => all.iter().map(|&set| labels[set].as_str()).collect(),
            None => {
                made = unique_labels_of(self.tree, &all);
                made.iter().map(String::as_str).collect()
            }
        };
        let mut labels = labels.into_iter();
        for (p, name) in players.iter().enumerate() {
            write!(w, "\nstrategy of {name}:\n")?;
            for (&set, label) in printed[p].iter().zip(&mut labels) {
                write!(w, "  {}: ", standard(label))?;
                let probs = self.profile.probs(set);
                for (i, (a, x)) in self.tree.action_labels(set).iter().zip(probs).enumerate() {
                    write!(w, "{}{a} {x:.3}", if i > 0 { ", " } else { "" })?;
                }
                let mark = if self.unreached.contains(&set) { " *" } else { "" };
                writeln!(w, "{mark}")?;
            }
            let (shown, skipped) = (printed[p].len(), of_player[p] - printed[p].len());
            if skipped > 0 {
                writeln!(
                    w,
                    "  ... {skipped} more sets of {name} not printed (the first {shown} of {} are above); `--out \
                     FILE` or `--format json` writes every set",
                    of_player[p]
                )?;
            }
        }
        for grid in self.grids() {
            w.write_all(crate::hands::text(&grid, players).as_bytes())?;
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

    /// Writes the report as one line of JSON (no newline), the strategies
    /// set by set as they are serialized.
    pub fn write_json(&self, w: &mut impl Write) -> io::Result<()> {
        let info = self.info;
        let stats = self.tree.stats();
        let grids = self.grids();
        let made;
        let labels: &IdSlice<InfosetId, String> = match self.labels {
            Some(labels) => labels,
            None => {
                made = unique_labels(self.tree);
                &made
            }
        };
        let answer = SolveJson {
            head: SolveHead {
                schema: SOLVE_SCHEMA,
                game: &info.name,
                params: crate::params_json(info),
                program: crate::report::program_hex(info),
                solver: self.solver,
                notes: self.notes,
                value: Some(Keyed(&info.players, &self.eval.values)),
                value_bounds: None,
                exploitability: Some(self.eval.nash_conv),
                best_response: Some(&self.eval.best_response),
                nodes: Some(self.whole_nodes.unwrap_or(stats.nodes)),
                infosets: Some(stats.infosets),
                seconds: seconds_json(Some(self.generate_seconds), self.phases),
                unreached: Some(self.unreached.iter().map(|s| standard(&labels[*s])).collect()),
            },
            strategy: Strategy::Tree { tree: self.tree, profile: self.profile, labels },
            tail: SolveTail {
                hands: (!grids.is_empty())
                    .then(|| grids.iter().map(|g| crate::hands::GridJson::new(g, &info.players)).collect()),
                curve: self.curve,
                findings: self.findings,
                exact: self.exact.as_ref(),
                note: many_players_note(info.players.len()).map(|(_, json)| json),
            },
        };
        serde_json::to_writer(w, &answer).map_err(io::Error::from)
    }
}
