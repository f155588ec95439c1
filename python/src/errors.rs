//! The exceptions galac raises in Python, and the compiler's diagnostics
//! turned into them: `GameError` carries every diagnostic with its file,
//! line and column (1-based, columns in characters, as `galac check`
//! reports them), and its message starts with the first error's
//! `file:line:col`.

use galac_compiler::diagnostic::{render, Diagnostic, Severity, SourceMap};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

create_exception!(_galac, GalacError, PyException, "Every error galac raises.");
create_exception!(_galac, GameError, GalacError, "The game does not compile: `diagnostics` lists why.");
create_exception!(_galac, ParamError, GalacError, "A param or an option is not one the game or solver has.");
create_exception!(_galac, BuildError, GalacError, "The tree cannot be built (a limit, or an error while playing).");
create_exception!(_galac, SolveError, GalacError, "The solver cannot solve the game, or refuses an option.");
create_exception!(
    _galac,
    MemoryLimitError,
    GalacError,
    "The work passed the memory limit (`max_memory`, MiB) and was stopped; the process lives on."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GalacError", py.get_type::<GalacError>())?;
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("ParamError", py.get_type::<ParamError>())?;
    m.add("BuildError", py.get_type::<BuildError>())?;
    m.add("SolveError", py.get_type::<SolveError>())?;
    m.add("MemoryLimitError", py.get_type::<MemoryLimitError>())?;
    Ok(())
}

/// One diagnostic as a dict: severity, message, file, line, column,
/// end_line, end_column (of its primary label; None without one), notes,
/// help.
fn diagnostic_dict<'py>(py: Python<'py>, sources: &SourceMap, d: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("severity", if d.severity == Severity::Error { "error" } else { "warning" })?;
    dict.set_item("message", &d.message)?;
    let place = d.primary_span().map(|span| {
        let (line, column) = sources.line_column(span.file, span.start);
        let (end_line, end_column) = sources.line_column(span.file, span.end);
        (sources.name(span.file).to_string(), line, column, end_line, end_column)
    });
    let (file, line, column, end_line, end_column) = match place {
        Some((f, l, c, el, ec)) => (Some(f), Some(l), Some(c), Some(el), Some(ec)),
        None => (None, None, None, None, None),
    };
    dict.set_item("file", file)?;
    dict.set_item("line", line)?;
    dict.set_item("column", column)?;
    dict.set_item("end_line", end_line)?;
    dict.set_item("end_column", end_column)?;
    dict.set_item("notes", &d.notes)?;
    dict.set_item("help", d.help.as_deref())?;
    Ok(dict)
}

/// The diagnostics as a list of dicts ([`diagnostic_dict`]).
pub fn diagnostics_list<'py>(
    py: Python<'py>,
    sources: &SourceMap,
    diagnostics: &[Diagnostic],
) -> PyResult<Bound<'py, PyList>> {
    let items: PyResult<Vec<_>> = diagnostics.iter().map(|d| diagnostic_dict(py, sources, d)).collect();
    PyList::new(py, items?)
}

/// A `GameError` for a game that does not compile: its message is
/// `file:line:col: message` of the first error, then every diagnostic as
/// `galac check` renders it; `diagnostics` holds them as dicts, and
/// `file`, `line`, `column` the first error's place.
pub fn game_error(py: Python<'_>, sources: &SourceMap, diagnostics: &[Diagnostic]) -> PyErr {
    let first = diagnostics.iter().find(|d| d.severity == Severity::Error).or(diagnostics.first());
    let headline = match first {
        Some(d) => match d.primary_span() {
            Some(span) => {
                let (line, column) = sources.line_column(span.file, span.start);
                format!("{}:{line}:{column}: {}", sources.name(span.file), d.message)
            }
            None => d.message.clone(),
        },
        None => "the game does not compile".to_string(),
    };
    let rendered = render(sources, diagnostics, false);
    let err = GameError::new_err(format!("{headline}\n{rendered}"));
    let value = err.value(py);
    let attach = || -> PyResult<()> {
        let list = diagnostics_list(py, sources, diagnostics)?;
        let first = list.get_item(0).ok();
        for key in ["file", "line", "column"] {
            let v = match &first {
                Some(d) => d.get_item(key)?,
                None => py.None().into_bound(py),
            };
            value.setattr(key, v)?;
        }
        value.setattr("diagnostics", list)?;
        value.setattr("rendered", rendered.as_str())
    };
    match attach() {
        Ok(()) => err,
        Err(e) => e,
    }
}
