//! `galac check FILE`: report every problem in a game description, or a
//! one-line summary of a valid one; with `--format json`, the same as one
//! JSON object (diagnostics with 1-based lines and columns) for editors
//! and scripts.

use galac_compiler::compile;
use galac_compiler::diagnostic::{Diagnostic, Severity, SourceMap};
use galac_compiler::span::Span;

/// The `schema` key of `check --format json`.
const SCHEMA: &str = "galac.check/1";

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: crate::game_args::GameArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = galac_app::Format::Text)]
    pub format: galac_app::Format,
}

/// Checks the game; prints the summary or the diagnostics; returns the
/// exit status (0 valid, 1 errors in the game, 2 a wrong call).
pub fn run(args: &CheckArgs, color: bool) -> i32 {
    if args.format == galac_app::Format::Json {
        return run_json(&args.game);
    }
    match crate::game_args::check(&args.game, galac_app::building::DEFAULT_MAX_MEMORY_MIB, color) {
        Ok(loaded) => {
            galac_app::emit(&format!("{}\n", loaded.compiled.summary(&loaded.values)));
            0
        }
        Err(code) => code,
    }
}

/// `check --format json`: the diagnostics (warnings too) as JSON.
fn run_json(game: &crate::game_args::GameArgs) -> i32 {
    let bytes = match crate::game_args::read_source(game.file(), galac_app::building::DEFAULT_MAX_MEMORY_MIB) {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let mut sources = SourceMap::new();
    let name = game.file().display().to_string();
    let (code, summary_line, diagnostics) = match compile(&mut sources, &name, &bytes) {
        Err(diagnostics) => (1, None, diagnostics),
        Ok(compiled) => match galac_app::param_files(&game.params).and_then(|p| compiled.param_values(&p)) {
            Ok(values) => (0, Some(compiled.summary(&values)), compiled.warnings),
            Err(msg) => {
                eprintln!("error: {msg}");
                return 2;
            }
        },
    };
    let json = CheckJson {
        schema: SCHEMA,
        file: &name,
        valid: code == 0,
        summary: summary_line,
        diagnostics: diagnostics.iter().map(|d| diagnostic_json(&sources, d)).collect(),
    };
    match galac_app::emit_json(&json) {
        0 => code,
        failed => failed,
    }
}

/// The `check --format json` answer.
#[derive(serde::Serialize)]
struct CheckJson<'a> {
    schema: &'static str,
    file: &'a str,
    valid: bool,
    /// The one-line summary of a valid game.
    summary: Option<String>,
    diagnostics: Vec<DiagnosticJson<'a>>,
}
galac_app::json_answers!(CheckJson<'_>);

/// One diagnostic: severity, message, the place of its primary label, every
/// label, notes and help.
#[derive(serde::Serialize)]
struct DiagnosticJson<'a> {
    severity: &'static str,
    message: &'a str,
    place: Option<Place<'a>>,
    labels: Vec<LabelJson<'a>>,
    notes: &'a [String],
    help: Option<&'a str>,
}

/// File, line and column (1-based; columns count characters) of a span's
/// start and end.
#[derive(serde::Serialize)]
struct Place<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

/// A label: its place, its message, whether it is the primary one.
#[derive(serde::Serialize)]
struct LabelJson<'a> {
    #[serde(flatten)]
    place: Place<'a>,
    message: &'a str,
    primary: bool,
}

fn diagnostic_json<'a>(sources: &'a SourceMap, d: &'a Diagnostic) -> DiagnosticJson<'a> {
    DiagnosticJson {
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        message: &d.message,
        place: d.primary_span().map(|s| place(sources, s)),
        labels: d
            .labels
            .iter()
            .map(|l| LabelJson { place: place(sources, l.span), message: &l.message, primary: l.primary })
            .collect(),
        notes: &d.notes,
        help: d.help.as_deref(),
    }
}

fn place(sources: &SourceMap, span: Span) -> Place<'_> {
    let line_col = |offset: u32| sources.line_column(span.file, offset);
    let (line, column) = line_col(span.start);
    let (end_line, end_column) = line_col(span.end);
    Place { file: sources.name(span.file), line, column, end_line, end_column }
}
