//! The front-end pipeline for one file: read, decode, parse, check, apply
//! param overrides. Shared by every `galac` subcommand.

use crate::diagnostic::{Diagnostic, SourceMap};
use crate::span::Span;
use crate::typeck::{self, tast, types::Ty};

/// Largest source file galac reads (spans are 32-bit offsets).
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// Stack size of the compiler thread: generous, so that the bounded-depth
/// recursive passes can never overflow it.
const COMPILER_STACK: usize = 256 << 20;

/// A checked game, with the source map its spans refer to.
pub struct Checked {
    pub program: tast::Program,
    pub warnings: Vec<Diagnostic>,
}

/// Decodes, parses and checks a source file. `name` is how the file is shown
/// in messages.
pub fn check_source(sources: &mut SourceMap, name: &str, bytes: &[u8]) -> Result<Checked, Vec<Diagnostic>> {
    if bytes.len() > MAX_SOURCE_BYTES {
        let file = sources.add(name, String::new());
        return Err(vec![Diagnostic::error(format!(
            "`{name}` is too large: {} bytes (at most {} MiB)",
            bytes.len(),
            MAX_SOURCE_BYTES >> 20
        ))
        .primary(Span::new(file, 0, 0), "this file")]);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            // Show the file with replacement characters; the prefix is valid,
            // so the offset of the first bad byte is the same in both.
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            let at = e.valid_up_to();
            let end = lossy[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            let file = sources.add(name, lossy);
            return Err(vec![Diagnostic::error("the file is not valid UTF-8")
                .primary(Span::new(file, at, end), "invalid byte here")
                .help("save the file as UTF-8")]);
        }
    };
    let file = sources.add(name, text);
    let src = sources.source(file).to_string();
    run_on_big_stack(move || {
        let (program, mut diagnostics) = crate::parser::parse(file, &src);
        // After a syntax error the program is partial: checking it would
        // report names lost with the skipped text. Report the syntax only.
        let program = match program {
            Some(p) if diagnostics.is_empty() => p,
            _ => return Err(diagnostics),
        };
        let (typed, problems) = typeck::check(&program);
        diagnostics.extend(problems);
        match typed {
            Some(program) if diagnostics.iter().all(|d| d.severity != crate::diagnostic::Severity::Error) => {
                let ir = crate::lower::lower(&program);
                diagnostics.extend(crate::lint::warnings(&program, &ir));
                diagnostics.sort_by_key(|d| d.primary_span());
                Ok(Checked { program, warnings: diagnostics })
            }
            // Names left unused by a statement in error are noise: errors only.
            _ => Err(diagnostics.into_iter().filter(|d| d.severity == crate::diagnostic::Severity::Error).collect()),
        }
    })
}

fn run_on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new().stack_size(COMPILER_STACK).spawn(f);
    match handle {
        Ok(h) => match h.join() {
            Ok(v) => v,
            Err(panic) => std::panic::resume_unwind(panic),
        },
        // Could not spawn a thread: run here.
        Err(_) => panic!("internal error: cannot start the compiler thread, please report"),
    }
}

pub use crate::typeck::consts::ParamValue;

/// Parses `name=value` overrides against the program's params (the same
/// parser and messages as compiled solvers).
pub fn parse_param_overrides(program: &tast::Program, args: &[String]) -> Result<Vec<(usize, ParamValue)>, String> {
    let specs: Vec<galac_runtime::params::ParamSpec> = program
        .params
        .iter()
        .map(|p| galac_runtime::params::ParamSpec { name: &p.name, is_bool: p.ty == Ty::Bool, constant: p.constant })
        .collect();
    let given = galac_runtime::params::parse_overrides(&program.name, &specs, args)?;
    Ok(given.into_iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect())
}

/// The value of every param: its default, or the override given for it.
/// Defaults may use earlier params and integer arithmetic.
pub fn param_values(program: &tast::Program, overrides: &[(usize, ParamValue)]) -> Result<Vec<ParamValue>, String> {
    let mut values: Vec<ParamValue> = Vec::with_capacity(program.params.len());
    for (i, p) in program.params.iter().enumerate() {
        let v = match overrides.iter().find(|(idx, _)| *idx == i) {
            Some((_, v)) => v.clone(),
            None => typeck::consts::eval_const(&p.default, &values)
                .map_err(|why| format!("the default of param `{}` cannot be computed: {why}", p.name))?,
        };
        values.push(v);
    }
    Ok(values)
}

/// A game checked and lowered for its params' default values: what
/// `codegen` compiles into a copy specialised to them, beside the general
/// game (arrays whose lengths are params held as Rust arrays).
pub struct Specialised {
    pub ir: crate::ir::Program,
    /// The value of each param the copy is compiled for.
    pub values: Vec<ParamValue>,
}

/// The game in `bytes` checked and lowered for its params' defaults, or
/// `None` if it does not check for them (the general game still serves).
pub fn specialise(name: &str, bytes: &[u8]) -> Option<Specialised> {
    let text = std::str::from_utf8(bytes).ok()?.to_string();
    let mut sources = SourceMap::new();
    let file = sources.add(name, text.clone());
    run_on_big_stack(move || {
        let (program, syntax) = crate::parser::parse(file, &text);
        let program = program.filter(|_| syntax.is_empty())?;
        let values = param_values(&typeck::check(&program).0?, &[]).ok()?;
        let (typed, problems) = typeck::check_for(&program, Some(&values));
        if problems.iter().any(|d| d.severity == crate::diagnostic::Severity::Error) {
            return None;
        }
        Some(Specialised { ir: crate::lower::lower(&typed?), values })
    })
}

/// Reads, checks and lowers a game for the interpreter, with `name=value`
/// param overrides. On failure returns the rendered diagnostics or message.
pub fn load_interp(name: &str, bytes: &[u8], params: &[String]) -> Result<crate::interp::Interp, String> {
    let mut sources = SourceMap::new();
    let checked =
        check_source(&mut sources, name, bytes).map_err(|d| crate::diagnostic::render(&sources, &d, false))?;
    let values = parse_param_overrides(&checked.program, params).and_then(|o| param_values(&checked.program, &o))?;
    let ir = crate::lower::lower(&checked.program);
    let text = String::from_utf8_lossy(bytes);
    Ok(crate::interp::Interp::new(ir, &values, crate::interp::Locator::new(name, &text)))
}

/// `kuhn: ok; 2 players (first, second); 1 param (ante=1); 3 flows (deal, bet, main)`
pub fn summary(program: &tast::Program, values: &[ParamValue]) -> String {
    let plural = |items: &[String], word: &str| match items.len() {
        0 => format!("no {word}s"),
        1 => format!("1 {word} ({})", items[0]),
        n => format!("{n} {word}s ({})", items.join(", ")),
    };
    let params: Vec<String> = program
        .params
        .iter()
        .zip(values)
        .filter(|(p, _)| !p.constant)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect();
    let flows: Vec<String> = program.flows.iter().map(|f| f.name.clone().unwrap_or_else(|| "main".into())).collect();
    format!(
        "{}: ok; {}; {}; {}",
        program.name,
        plural(&program.players, "player"),
        plural(&params, "param"),
        plural(&flows, "flow")
    )
}
