//! The compiler's entry point: [`compile`] decodes, parses, checks and
//! lowers a source file once. Its [`Compiled`] result (the typed program,
//! the IR, the warnings and the file's line index) feeds every user: the
//! `galac` subcommands, the interpreter ([`Compiled::interp`]) and the code
//! generator ([`Compiled::emit_game`]).

use std::sync::Arc;

use crate::codegen::Specialised;
use crate::diagnostic::{Diagnostic, Severity, SourceMap};
use crate::source::SourceFile;
use crate::span::Span;
use crate::typeck::consts::ParamValue;
use crate::typeck::{self, tast};
use crate::{ast, interp, ir};

/// Largest source file galac reads (spans are 32-bit offsets).
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// Memory [`compile`] may take per byte of source, at most: tokens, the
/// AST, the typed program, the IR and the diagnostics together. Measured
/// peaks (resident memory over the file's size, BENCHMARKS.md "Front
/// end") reach 220 on a file of unknown names on one line and 160 on a
/// list literal of names; the parser's stack, which made 30 MB of `(`
/// need gigabytes, is bounded by [`crate::delimiters::MAX_PENDING`].
/// A command refuses a source larger than its memory limit over this.
pub const MAX_BYTES_PER_SOURCE_BYTE: u64 = 256;

/// Errors in the game reported at most: each shows its source line, so
/// that thousands of errors on one long line made an output (and memory)
/// quadratic in the file (20 KB of `x=1;` took 32 s to report in a
/// debug build).
pub const MAX_REPORTED_ERRORS: usize = 100;

/// The first [`MAX_REPORTED_ERRORS`] of `errors` by place, the last saying
/// how many more there are.
fn first_errors(mut errors: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if errors.len() > MAX_REPORTED_ERRORS {
        errors.sort_by_key(|d| d.primary_span());
        let more = errors.len() - MAX_REPORTED_ERRORS;
        errors.truncate(MAX_REPORTED_ERRORS);
        if let Some(last) = errors.last_mut() {
            last.notes.push(format!("{more} more errors not shown"));
        }
    }
    errors
}

/// Stack size of the compiler thread: generous, so that the bounded-depth
/// recursive passes can never overflow it.
const COMPILER_STACK: usize = 256 << 20;

/// A game parsed, checked and lowered, for any values of its params.
pub struct Compiled {
    /// The typed program.
    pub program: tast::Program,
    /// The program lowered to one control-flow graph, shared with every
    /// interpreter made of it ([`Compiled::interp`]).
    pub ir: Arc<ir::Program>,
    /// Every warning, sorted by place (an error fails [`compile`]).
    pub warnings: Vec<Diagnostic>,
    /// The source file, whose line index locates run-time errors.
    pub source: Arc<SourceFile>,
    /// The parsed program, checked again by [`Compiled::specialised`].
    ast: ast::Program,
}

/// Decodes, parses, checks and lowers the file `bytes`, adding it to
/// `sources` (where the diagnostics' spans point) as `name`, the name shown
/// in messages. On failure returns the errors; after a syntax error, the
/// syntax errors alone.
pub fn compile(sources: &mut SourceMap, name: &str, bytes: &[u8]) -> Result<Compiled, Vec<Diagnostic>> {
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
    let source = sources.file(file).cloned().expect("the file just added");
    on_big_stack(|| {
        let (ast, mut diagnostics) = crate::parser::parse(file, source.text());
        // After a syntax error the program is partial: checking it would
        // report names lost with the skipped text. Report the syntax only.
        let ast = match ast {
            Some(p) if diagnostics.is_empty() => p,
            _ => return Err(diagnostics),
        };
        let (typed, problems) = typeck::check(&ast);
        diagnostics.extend(problems);
        match typed {
            Some(mut program) if diagnostics.iter().all(|d| d.severity != Severity::Error) => {
                for check in program.params.iter_mut().filter_map(|p| p.check.as_mut()) {
                    let span = check.cond.span;
                    check.site = source.at(span);
                    check.text = source.text().get(span.start as usize..span.end as usize).unwrap_or("").to_string();
                }
                let ir = crate::lower::lower(&program);
                diagnostics.extend(crate::lint::warnings(&program, &ir));
                diagnostics.sort_by_key(|d| d.primary_span());
                Ok(Compiled { program, ir: Arc::new(ir), warnings: diagnostics, source: source.clone(), ast })
            }
            // Names left unused by a statement in error are noise: errors only.
            _ => Err(first_errors(diagnostics.into_iter().filter(|d| d.severity == Severity::Error).collect())),
        }
    })
}

impl Compiled {
    /// The value of every param: its default, or the override given for it
    /// as `name=value` (parsed as compiled solvers parse them). An error is
    /// a wrong call, not an error in the game.
    pub fn param_values(&self, overrides: &[String]) -> Result<Vec<ParamValue>, String> {
        parse_param_overrides(&self.program, overrides).and_then(|o| param_values(&self.program, &o))
    }

    /// A new interpreter of the game for these param values (one per thread
    /// that builds a tree).
    pub fn interp(&self, values: &[ParamValue]) -> interp::Interp {
        interp::Interp::new(Arc::clone(&self.ir), values, self.source.clone())
    }

    /// The game checked and lowered again for its params' defaults (array
    /// lengths computed from them known), or `None` if it does not check
    /// for them (the general game still serves).
    pub fn specialised(&self) -> Option<Specialised> {
        let values = param_values(&self.program, &[]).ok()?;
        on_big_stack(|| {
            let (typed, problems) = typeck::check_for(&self.ast, Some(&values));
            if problems.iter().any(|d| d.severity == Severity::Error) {
                return None;
            }
            Some(Specialised { ir: crate::lower::lower(&typed?), values })
        })
    }

    /// The Rust module of the game (`src/game.rs` of a solver crate), with
    /// its copy specialised to the params' defaults where that helps (made
    /// only then); `source_name` is the file named in its header.
    pub fn emit_game(&self, source_name: &str) -> Result<String, String> {
        crate::codegen::emit_game_with(&self.ir, || self.specialised(), &self.source, source_name)
    }

    /// `kuhn: ok; 2 players (first, second); 1 param (ante=1); 3 flows (deal, bet, main)`
    pub fn summary(&self, values: &[ParamValue]) -> String {
        summary(&self.program, values)
    }
}

/// Runs `f` on a thread with [`COMPILER_STACK`] bytes of stack.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().stack_size(COMPILER_STACK).spawn_scoped(scope, f);
        match handle {
            Ok(h) => match h.join() {
                Ok(v) => v,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => panic!("internal error: cannot start the compiler thread, please report"),
        }
    })
}

/// The game `src` compiled as `t.gala` (for tests), or a panic showing
/// its errors.
/// Parses `name=value` overrides against the program's params (the same
/// parser and messages as compiled solvers).
pub fn parse_param_overrides(program: &tast::Program, args: &[String]) -> Result<Vec<(usize, ParamValue)>, String> {
    let specs: Vec<galac_runtime::params::ParamSpec> = program
        .params
        .iter()
        .map(|p| galac_runtime::params::ParamSpec {
            name: &p.name,
            kind: typeck::consts::param_kind(&p.ty).unwrap_or(galac_runtime::params::ParamKind::Int),
            constant: p.constant,
        })
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
        if let Some(check) = &p.check {
            match typeck::consts::eval_const(&check.cond, &values) {
                Ok(ParamValue::Bool(true)) => {}
                Ok(_) => return Err(check.broken(&p.name)),
                Err(why) => {
                    return Err(format!("{}the condition of param `{}` cannot be computed: {why}", check.site, p.name))
                }
            }
        }
    }
    Ok(values)
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

#[cfg(test)]
pub(crate) fn compiled(src: &str) -> Compiled {
    let mut sources = SourceMap::new();
    compile(&mut sources, "t.gala", src.as_bytes())
        .unwrap_or_else(|d| panic!("{}", crate::diagnostic::render(&sources, &d, false)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use galac_runtime::tree::{build, BuildOptions};

    /// A param's `where` condition is a `bool` of the params up to it, and
    /// the default must meet it; an override that breaks it is refused
    /// with the condition's place and text.
    #[test]
    fn param_conditions_are_checked() {
        let errors = |src: &str| {
            let mut sources = SourceMap::new();
            match compile(&mut sources, "t.gala", src.as_bytes()) {
                Ok(_) => String::new(),
                Err(d) => crate::diagnostic::render(&sources, &d, false),
            }
        };
        let game = |params: &str| format!("game t {{ players a; {params} flow {{ outcome [n]; }} }}");
        let broken = errors(&game("param n: int = 0 where n > 0;"));
        assert!(broken.contains("the default of param `n` breaks its condition"), "{broken}");
        let later = errors(&game("param n: int = 1 where m > 0; param m: int = 1;"));
        assert!(later.contains("param `m` is used before it is declared"), "{later}");
        let not_bool = errors(&game("param n: int = 1 where n + 1;"));
        assert!(not_bool.contains("bool") && !not_bool.contains("breaks"), "{not_bool}");
        let src = game("param m: int = 2; param n: int = 3 where n > m && n % 2 == 1;");
        let c = compiled(&src);
        assert!(c.param_values(&["n=5".into()]).is_ok());
        let err = c.param_values(&["n=4".into()]).unwrap_err();
        let column = src.find("n > m").expect("the condition") + 1;
        assert_eq!(err, format!("t.gala:1:{column}: param `n` breaks its condition `n > m && n % 2 == 1`"));
    }

    /// A run-time error on a line holding characters of several bytes
    /// (`é`, `♠`) before it is placed at the column a diagnostic gives its
    /// span (characters), by the interpreter and in generated code alike.
    #[test]
    fn run_time_errors_count_columns_in_characters() {
        let src = "game t { players a; var xs: list<int> = [1, 2]; flow {\n  \
                   /* é ♠ */ choose a i in 3..5; outcome [xs[i]]; } }";
        let c = compiled(src);
        let err = match build(&c.interp(&[]), &BuildOptions::default()) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("the game indexes past its list"),
        };
        let line = src.lines().nth(1).expect("line 2");
        let column = line[..line.find("xs[i]").expect("the index")].chars().count() + 1;
        let expected = format!("t.gala:2:{column}: index 3 is out of bounds for length 2\n");
        assert!(err.starts_with(&expected), "{err}");
        assert_eq!(column + 3, line.find("xs[i]").expect("the index") + 1, "é and ♠: 2 characters, 5 bytes");
        let code = c.emit_game("t.gala").expect("code");
        assert!(code.contains(&format!("\"t.gala:2:{column}: \"")), "{code}");
    }
}
