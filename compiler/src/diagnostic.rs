//! Diagnostics: one error type for every phase, rendered with source
//! snippets by codespan-reporting.
//!
//! Phases produce [`Diagnostic`]s; only [`render`] turns byte spans into
//! `file:line:column` and snippets, and [`SourceMap::line_column`] into the
//! same line and column for machine-readable reports, both through the
//! files' line index ([`crate::source`]).

use codespan_reporting::diagnostic as cs;
use std::sync::Arc;

use codespan_reporting::files;
use codespan_reporting::term;

use crate::source::SourceFile;
use crate::span::{FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// A problem found in a source file, with where it is and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
    /// A warning's name (`unused`, `unreachable`, ...), shown as
    /// `warning[unused]`; see [`WARNINGS`].
    pub code: Option<&'static str>,
}

/// The warnings galac gives, by code, with what each means (for docs and
/// `--deny-warnings`).
pub const WARNINGS: &[(&str, &str)] = &[
    ("unused", "a local, param, constant, state variable, fn or flow that is never read or called"),
    ("unreachable", "a statement after `end`, `outcome` or `return` that can never run"),
    ("no-payoff", "a play can end (`end;` or the end of the main flow) without any payoff or outcome"),
    ("useless-reveal", "a fact revealed to a player who makes no choice afterwards"),
];

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            code: None,
        }
    }

    /// A warning named `code` (one of [`WARNINGS`]).
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, code: Some(code), ..Diagnostic::error(message) }
    }

    /// Adds the primary label: what is at the place of the problem.
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into(), primary: true });
        self
    }

    /// Adds a secondary label: related context elsewhere.
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_help(mut self, help: Option<String>) -> Diagnostic {
        self.help = help;
        self
    }

    /// Where the diagnostic points, for sorting.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

/// The source files diagnostics refer to, each with its line index
/// ([`SourceFile`]), which [`render`] reads through codespan's `Files`.
#[derive(Default)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, source: impl Into<String>) -> FileId {
        self.files.push(Arc::new(SourceFile::owning(name.into(), source.into())));
        FileId(self.files.len() as u32 - 1)
    }

    /// The file `file`, shared (the interpreter and code generator locate
    /// run-time errors with it).
    pub fn file(&self, file: FileId) -> Option<&Arc<SourceFile>> {
        self.files.get(file.0 as usize)
    }

    pub fn source(&self, file: FileId) -> &str {
        self.file(file).map_or("", |f| f.text())
    }

    pub fn name(&self, file: FileId) -> &str {
        self.file(file).map_or("", |f| f.name())
    }

    /// The 1-based line and column (in characters) of a byte offset, as
    /// [`render`] shows them; (1, 1) for an unknown file.
    pub fn line_column(&self, file: FileId, offset: u32) -> (usize, usize) {
        self.file(file).map_or((1, 1), |f| f.line_column(offset as usize))
    }

    fn get(&self, file: usize) -> Result<&SourceFile, files::Error> {
        self.files.get(file).map(|f| &**f).ok_or(files::Error::FileMissing)
    }
}

impl<'a> files::Files<'a> for SourceMap {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(self.get(id)?.name())
    }

    fn source(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(self.get(id)?.text())
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        Ok(self.get(id)?.line_index(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<std::ops::Range<usize>, files::Error> {
        let file = self.get(id)?;
        file.line_range(line_index)
            .ok_or(files::Error::LineTooLarge { given: line_index, max: file.line_index(file.text().len()) })
    }

    fn column_number(&'a self, id: usize, _line_index: usize, byte_index: usize) -> Result<usize, files::Error> {
        Ok(self.get(id)?.line_column(byte_index).1)
    }
}

/// Renders diagnostics as text, with ANSI colour or without.
pub fn render(sources: &SourceMap, diagnostics: &[Diagnostic], color: bool) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for d in diagnostics {
        let cs_diag = to_codespan(d);
        if color {
            let mut buf = Vec::new();
            let mut writer = term::termcolor::Ansi::new(&mut buf);
            let styles = term::Styles::default();
            let mut styled = term::StylesWriter::new(&mut writer, &styles);
            if term::emit_to_write_style(&mut styled, &config, sources, &cs_diag).is_ok() {
                out.push_str(&String::from_utf8_lossy(&buf));
            }
        } else if let Ok(text) = term::emit_into_string(&config, sources, &cs_diag) {
            out.push_str(&text);
        }
    }
    out
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<usize> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let style = if l.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
            cs::Label::new(style, l.span.file.0 as usize, l.span.range()).with_message(&l.message)
        })
        .collect();
    let mut notes = d.notes.clone();
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    let diagnostic = cs::Diagnostic::new(severity).with_message(&d.message).with_labels(labels).with_notes(notes);
    match d.code {
        Some(code) => diagnostic.with_code(code),
        None => diagnostic,
    }
}

/// The candidate closest to `name` by edit distance, if it is close enough to
/// be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let len = name.chars().count();
    if len < 2 {
        return None;
    }
    let limit = (len / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

/// Optimal-string-alignment distance: edits plus swaps of adjacent letters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 {
                j
            } else if j == 0 {
                i
            } else {
                let mut best = (d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]))
                    .min(d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(did_you_mean("hnad", ["hand", "deck"]), Some("did you mean `hand`?".into()));
        assert_eq!(did_you_mean("x", ["hand", "deck"]), None);
        assert_eq!(did_you_mean("Moev", ["Move"]), Some("did you mean `Move`?".into()));
    }
}
