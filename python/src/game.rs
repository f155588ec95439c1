//! `Game`: a checked game with its param values, and what Python does with
//! it. The tree is built once, by the first call that needs it, and kept;
//! `solve` runs a row of the app's registry exactly as `galac solve` does
//! (the same flags parsed by the same clap definitions, the same default
//! solver, the same report as JSON and text), and `best_response` reads a
//! profile with the parser of `solve --strategy`.

use std::sync::{Arc, Mutex};

use galac_app::registry::double_oracle::{self, Shown};
use galac_app::registry::{self, Flags, Run, Shape, SolverId};
use galac_app::report::{unique_labels, Report};
use galac_app::LimitArgs;
use galac_compiler::diagnostic::SourceMap;
use galac_compiler::driver::ParamValue;
use galac_compiler::{compile, Compiled};
use galac_runtime::cancel::Cancel;
use galac_runtime::game::{Game as _, GameInfo};
use galac_runtime::ids::PlayerId;
use galac_solvers::best_response::{best_response, evaluate};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::errors::{self, BuildError, ParamError, SolveError};
use crate::run::interruptible;
use crate::tree::{Built, Tree};

/// A Gala game, checked, with its param values.
#[pyclass(frozen, module = "galac._galac")]
pub struct Game {
    compiled: Arc<Compiled>,
    values: Arc<Vec<ParamValue>>,
    info: GameInfo,
    summary: String,
    /// The file's warnings as dicts (`errors::diagnostics_list`).
    warnings: Py<PyList>,
    /// The tree, once built.
    built: Mutex<Option<Arc<Built>>>,
}

/// Checks the game in `source` (named `name` in messages) with the
/// `name=value` param overrides.
#[pyfunction]
pub fn load_source(py: Python<'_>, name: &str, source: &[u8], params: Vec<String>) -> PyResult<Game> {
    let mut sources = SourceMap::new();
    let compiled = compile(&mut sources, name, source).map_err(|d| errors::game_error(py, &sources, &d))?;
    let values = compiled.param_values(&params).map_err(ParamError::new_err)?;
    let warnings = errors::diagnostics_list(py, &sources, &compiled.warnings)?.unbind();
    let info = compiled.interp(&values).info().clone();
    let summary = compiled.summary(&values);
    Ok(Game {
        compiled: Arc::new(compiled),
        values: Arc::new(values),
        info,
        summary,
        warnings,
        built: Mutex::new(None),
    })
}

/// Parses `galac solve`'s run and limit flags (`["--iterations", "100"]`)
/// with their clap definitions; a wrong one is a `ParamError` with clap's
/// message. Progress output is always off, and the limits carry a fresh
/// cancellation flag for the call ([`interruptible`] sets it).
fn parse_flags(options: &[String]) -> PyResult<(Flags, LimitArgs)> {
    use clap::{Args, FromArgMatches};
    let command = Flags::augment_args(LimitArgs::augment_args(clap::Command::new("solve").no_binary_name(true)));
    let matches = command.try_get_matches_from(options).map_err(|e| ParamError::new_err(e.render().to_string()))?;
    let flags = Flags::from_arg_matches(&matches).map_err(|e| ParamError::new_err(e.to_string()))?;
    let mut limits = LimitArgs::from_arg_matches(&matches).map_err(|e| ParamError::new_err(e.to_string()))?;
    if limits.tree.is_some() {
        return Err(ParamError::new_err("a saved tree (`tree`) is not read from Python: build it with `tree()`"));
    }
    limits.quiet = true;
    limits.cancel = Some(Cancel::new());
    Ok((flags, limits))
}

/// The message of a tree build's error, with the option that raises the
/// limit it hit.
fn build_message(e: &galac_runtime::tree::BuildError) -> String {
    use galac_runtime::tree::BuildError as E;
    match e {
        E::TooManyNodes { .. } => format!("{e}\nhint: raise the limit with max_nodes="),
        E::TooMuchMemory { .. } => format!("{e}\nhint: raise the limit with max_memory="),
        _ => e.to_string(),
    }
}

impl Game {
    /// The game's title: its name and params.
    fn title(&self) -> String {
        let params: Vec<String> = self.info.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if params.is_empty() {
            self.info.name.clone()
        } else {
            format!("{} ({})", self.info.name, params.join(", "))
        }
    }

    /// The tree: the one built before, else built now within `limits`.
    fn built(&self, py: Python<'_>, limits: &LimitArgs) -> PyResult<Arc<Built>> {
        if let Some(b) = self.cached() {
            return Ok(b);
        }
        let (compiled, values, limits) = (self.compiled.clone(), self.values.clone(), limits.clone());
        let built = interruptible(py, &limits.clone(), move || {
            let game = compiled.interp(&values);
            let make = || Some(compiled.interp(&values));
            galac_app::building::try_build_tree(&game, Some(&make), &limits, true)
        })?;
        let (tree, seconds) = built.map_err(|e| BuildError::new_err(build_message(&e)))?;
        // As every answer writes them: cards of the standard deck as cards.
        let labels = unique_labels(&tree).into_iter().map(|l| galac_app::cards::standard(&l)).collect();
        let built = Arc::new(Built { tree, labels, seconds, title: self.title() });
        *self.built.lock().unwrap_or_else(|e| e.into_inner()) = Some(built.clone());
        Ok(built)
    }

    /// Solves with a registry row that explores the game itself (the
    /// double oracle), as `galac solve --solver do` does: the same run and
    /// report, the tree built only for its check.
    fn solve_game(&self, py: Python<'_>, row: SolverId, flags: Flags, limits: LimitArgs) -> PyResult<Answer> {
        if let Some(flag) = registry::refused_flag(row, &flags) {
            return Err(refused(row, flag));
        }
        double_oracle::checked_flags(&request(&flags, &limits)).map_err(ParamError::new_err)?;
        let (compiled, values) = (self.compiled.clone(), self.values.clone());
        let answer = interruptible(py, &limits.clone(), move || {
            let game = compiled.interp(&values);
            let req = request(&flags, &limits);
            double_oracle::solve(&game, None, &req, |shown| -> Result<Answer, String> {
                let utf8 = |b: Vec<u8>| String::from_utf8(b).map_err(|e| e.to_string());
                match shown {
                    Shown::Report(report) => {
                        let (mut json, mut text) = (Vec::new(), Vec::new());
                        report.write_json(&mut json).map_err(|e| e.to_string())?;
                        report.write_text(&mut text).map_err(|e| e.to_string())?;
                        let (probs, width) = padded_probs(report.tree, report.profile);
                        Ok((utf8(json)?, utf8(text)?, probs, width))
                    }
                    Shown::Untreed { text, json } => Ok((json.to_string(), text.to_string(), Vec::new(), 0)),
                }
            })
        })?;
        answer.and_then(|a| a).map_err(SolveError::new_err)
    }

    fn cached(&self) -> Option<Arc<Built>> {
        self.built.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What `solve` hands back: the `galac.solve/1` JSON, the text report, and
/// every set's probabilities (rows of `width`, NaN past a set's actions).
type Answer = (String, String, Vec<f64>, usize);

#[pymethods]
impl Game {
    #[getter]
    fn name(&self) -> &str {
        &self.info.name
    }

    #[getter]
    fn players(&self) -> Vec<String> {
        self.info.players.clone()
    }

    /// Every param's value, as `galac` prints it.
    #[getter]
    fn params(&self) -> Vec<(String, String)> {
        self.info.params.clone()
    }

    #[getter]
    fn summary(&self) -> &str {
        &self.summary
    }

    #[getter]
    fn warnings(&self, py: Python<'_>) -> Py<PyList> {
        self.warnings.clone_ref(py)
    }

    /// Builds the tree (once; later calls return it) within the limit
    /// flags `options` (`--max-nodes`, `--max-memory`, `--step-limit`,
    /// `--threads`).
    fn tree(&self, py: Python<'_>, options: Vec<String>) -> PyResult<Tree> {
        let (_, limits) = parse_flags(&options)?;
        Ok(Tree::new(self.built(py, &limits)?))
    }

    /// Solves the game with the registry's row `solver` (or the default
    /// `galac solve` picks) and `galac solve`'s flags `options`.
    #[pyo3(signature = (solver, options))]
    fn solve(&self, py: Python<'_>, solver: Option<String>, options: Vec<String>) -> PyResult<Answer> {
        let (flags, limits) = parse_flags(&options)?;
        flags.validate().map_err(ParamError::new_err)?;
        flags.lp.backend().map_err(ParamError::new_err)?;
        let row = match solver.as_deref() {
            Some(name) => Some(registry::by_name(name).ok_or_else(|| {
                let names: Vec<&str> = registry::SOLVERS.iter().map(|r| r.name).collect();
                ParamError::new_err(format!("no solver `{name}`; the solvers are {}", names.join(", ")))
            })?),
            None => None,
        };
        if let Some(row) = row.filter(|row| matches!(row.run, Run::Game)) {
            return self.solve_game(py, row, flags, limits);
        }
        let built = self.built(py, &limits)?;
        let (row, why) = match row {
            Some(row) => (row, None),
            None => {
                let (row, why) = registry::default_for(&Shape::of(&built.tree));
                (row, Some(format!("chosen because: {why}")))
            }
        };
        if let Some(flag) = registry::refused_flag(row, &flags) {
            return Err(refused(row, flag));
        }
        let Run::Tree(run) = row.run else {
            return Err(SolveError::new_err(format!("the solver `{}` does not solve a built tree", row.name)));
        };
        let info = self.info.clone();
        let answer = interruptible(py, &limits.clone(), move || -> Result<Answer, String> {
            let tree = &built.tree;
            let solved = run(&flags, tree, &registry::Context { limits: &limits, curve: None, job: None })?;
            let profile = &solved.solution.profile;
            let eval = evaluate(tree, profile);
            let mut notes: Vec<String> = why.into_iter().collect();
            notes.extend(solved.notes);
            let report = Report {
                info: &info,
                tree,
                labels: Some(&built.labels),
                profile,
                unreached: &solved.solution.unreached,
                eval: &eval,
                solver: &solved.name,
                generate_seconds: built.seconds,
                phases: &solved.solution.phases,
                notes: &notes,
                curve: solved.curve.as_deref(),
                findings: solved.findings.as_ref(),
                sections: String::new(),
                exact: None,
                whole_nodes: None,
            };
            let (mut json, mut text) = (Vec::new(), Vec::new());
            report.write_json(&mut json).map_err(|e| e.to_string())?;
            report.write_text(&mut text).map_err(|e| e.to_string())?;
            let (probs, width) = padded_probs(tree, profile);
            let utf8 = |b: Vec<u8>| String::from_utf8(b).map_err(|e| e.to_string());
            Ok((utf8(json)?, utf8(text)?, probs, width))
        })?;
        answer.map_err(SolveError::new_err)
    }

    /// Evaluates a profile given as `solve`'s JSON (a strategy file's
    /// text): each player's value, best-response value and pure best
    /// response (by set label), and the NashConv, as JSON.
    fn best_response(&self, py: Python<'_>, strategy: &str, partial: bool, options: Vec<String>) -> PyResult<String> {
        let (_, limits) = parse_flags(&options)?;
        let built = self.built(py, &limits)?;
        let tree = &built.tree;
        let loaded =
            galac_app::strategy_file::parse(strategy.as_bytes(), "strategy", &self.info, tree, &built.labels, partial)
                .map_err(ParamError::new_err)?;
        let profile = loaded.profile;
        let info = self.info.clone();
        let json = interruptible(py, &limits, move || {
            let tree = &built.tree;
            let eval = evaluate(tree, &profile);
            let keyed = |xs: &[f64]| -> serde_json::Map<String, serde_json::Value> {
                info.players.iter().cloned().zip(xs.iter().map(|x| serde_json::json!(x))).collect()
            };
            let gains: Vec<f64> = eval.best_response.iter().zip(&eval.values).map(|(b, v)| b - v).collect();
            let mut responses = serde_json::Map::new();
            for (p, name) in info.players.iter().enumerate() {
                let response = best_response(tree, &profile, PlayerId::from_index(p));
                let choices: serde_json::Map<String, serde_json::Value> = response
                    .choice
                    .iter_enumerated()
                    .filter_map(|(set, a)| {
                        let label = tree.action_labels(set).get((*a)? as usize)?;
                        Some((built.labels[set].clone(), serde_json::json!(label)))
                    })
                    .collect();
                responses.insert(name.clone(), choices.into());
            }
            serde_json::json!({
                "value": keyed(&eval.values),
                "best_response_value": keyed(&eval.best_response),
                "exploitability": keyed(&gains),
                "nash_conv": eval.nash_conv,
                "best_response": responses,
                "filled": loaded.filled.iter().map(|s| built.labels[*s].clone()).collect::<Vec<_>>(),
            })
            .to_string()
        })?;
        Ok(json)
    }

    /// The game as a Gambit `.efg` file's text, as `galac export --efg` writes it.
    fn export_efg(&self, py: Python<'_>, options: Vec<String>) -> PyResult<String> {
        let (_, limits) = parse_flags(&options)?;
        let built = self.built(py, &limits)?;
        let comment = format!("Generated by galac {} from {}", env!("CARGO_PKG_VERSION"), self.compiled.source.name());
        let mut out = Vec::new();
        galac_app::formats::efg::write_efg(&built.tree, &built.title, &comment, &mut out)
            .map_err(|e| BuildError::new_err(e.to_string()))?;
        String::from_utf8(out).map_err(|e| BuildError::new_err(e.to_string()))
    }

    /// `galac plot strategy` as SVG: a player's strategy (the default
    /// solver's answer) at their first decisions, or those whose label
    /// holds `filter`.
    #[pyo3(signature = (player, filter, options))]
    fn plot_strategy(
        &self,
        py: Python<'_>,
        player: Option<String>,
        filter: Option<String>,
        options: Vec<String>,
    ) -> PyResult<String> {
        let (_, limits) = parse_flags(&options)?;
        let built = self.built(py, &limits)?;
        let (compiled, values) = (self.compiled.clone(), self.values.clone());
        let svg = interruptible(py, &limits.clone(), move || {
            let mut select: galac_app::explain::Selection = galac_app::defaults();
            select.player = player;
            select.filter = filter;
            let style = galac_app::cards::CardStyle { symbols: true, ..select.cards.style(false) };
            let game = compiled.interp(&values);
            galac_app::plot::charts::strategy(game.info(), &built.tree, &select, &limits, &style)
        })?;
        svg.map_err(SolveError::new_err)
    }

    fn __repr__(&self) -> String {
        format!("<galac.Game {}>", self.summary)
    }
}

/// The double oracle's run as `galac solve --solver do` asks for it, the
/// answer handed back rather than printed.
fn request<'a>(flags: &'a Flags, limits: &'a LimitArgs) -> double_oracle::Request<'a> {
    double_oracle::Request {
        args: &flags.double_oracle,
        lp: &flags.lp,
        stop: &flags.stop,
        limits,
        curve: None,
        format: galac_app::Format::Text,
        out: None,
        why: None,
    }
}

/// The error for a run flag `row` does not read, named as Python's option.
fn refused(row: SolverId, flag: &str) -> PyErr {
    let option = flag.trim_start_matches("--").replace('-', "_");
    ParamError::new_err(format!("the solver `{}` does not read `{option}`", row.name))
}

/// Every set's probabilities in rows of the widest set's length, NaN past
/// a set's own actions; with the row length.
fn padded_probs(tree: &galac_runtime::tree::Tree, profile: &galac_solvers::Profile) -> (Vec<f64>, usize) {
    let width = tree.infosets.iter().map(|s| s.n_actions as usize).max().unwrap_or(0);
    let mut out = vec![f64::NAN; width * tree.infosets.len()];
    for (set, row) in tree.infosets.keys().zip(out.chunks_mut(width.max(1))) {
        let probs = profile.probs(set);
        row[..probs.len()].copy_from_slice(probs);
    }
    (out, width)
}
