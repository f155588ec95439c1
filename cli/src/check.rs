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
    match crate::game_args::check(&args.game, color) {
        Ok(loaded) => {
            galac_app::emit(&format!("{}\n", loaded.compiled.summary(&loaded.values)));
            0
        }
        Err(code) => code,
    }
}

/// `check --format json`: the diagnostics (warnings too) as JSON.
fn run_json(game: &crate::game_args::GameArgs) -> i32 {
    let bytes = match crate::game_args::read_source(&game.file) {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let mut sources = SourceMap::new();
    let name = game.file.display().to_string();
    let (code, summary_line, diagnostics) = match compile(&mut sources, &name, &bytes) {
        Err(diagnostics) => (1, None, diagnostics),
        Ok(compiled) => match compiled.param_values(&game.params) {
            Ok(values) => (0, Some(compiled.summary(&values)), compiled.warnings),
            Err(msg) => {
                eprintln!("error: {msg}");
                return 2;
            }
        },
    };
    let json = serde_json::json!({
        "schema": SCHEMA,
        "file": name,
        "valid": code == 0,
        "summary": summary_line,
        "diagnostics": diagnostics.iter().map(|d| diagnostic_json(&sources, d)).collect::<Vec<_>>(),
    });
    galac_app::emit(&format!("{json}\n"));
    code
}

/// One diagnostic: severity, message, the place of its primary label, every
/// label, notes and help.
fn diagnostic_json(sources: &SourceMap, d: &Diagnostic) -> serde_json::Value {
    let labels: Vec<serde_json::Value> = d
        .labels
        .iter()
        .map(|l| {
            let mut place = place_json(sources, l.span);
            place["message"] = l.message.clone().into();
            place["primary"] = l.primary.into();
            place
        })
        .collect();
    serde_json::json!({
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "message": d.message,
        "place": d.primary_span().map(|s| place_json(sources, s)),
        "labels": labels,
        "notes": d.notes,
        "help": d.help,
    })
}

/// File, line and column (1-based; columns count characters) of a span's
/// start and end.
fn place_json(sources: &SourceMap, span: Span) -> serde_json::Value {
    let line_col = |offset: u32| sources.line_column(span.file, offset);
    let (line, column) = line_col(span.start);
    let (end_line, end_column) = line_col(span.end);
    serde_json::json!({
        "file": sources.name(span.file),
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
    })
}
