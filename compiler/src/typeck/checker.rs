//! The checker's state and how it reports: the [`Checker`] whose methods,
//! spread over this module's siblings by what they check, walk the AST;
//! the depth limits; and the diagnostics for nesting too deep.

use std::collections::HashSet;

use super::consts::{eval_const, param_kind, value_expr, ParamValue};
use super::env::{Body, Env};
use super::tast;
use super::types::Ty;
use crate::ast;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The deepest expression the checker accepts (deeper ones parse, up to
/// [`ast::MAX_DEPTH`]): its Rust in a compiled game nests as deeply, and
/// rustc takes seconds at this depth but minutes at three times it.
pub const MAX_EXPR_DEPTH: u32 = 256;

/// The deepest type of a value the checker accepts: a compiled game's
/// values are Rust types nested as deeply (lists inside lists), and rustc
/// stops proving their traits at its recursion limit (128).
pub const MAX_TYPE_DEPTH: u32 = 32;

/// Walks the AST of one program, collecting every problem it finds.
pub(crate) struct Checker {
    pub(super) env: Env,
    pub(super) problems: Vec<Diagnostic>,
    pub(super) body: Body,
    /// The global names read or called somewhere, for the unused warnings.
    pub(super) used: HashSet<String>,
    /// The params' values, when checking for them ([`super::check_for`]).
    pub(super) params: Option<Vec<ParamValue>>,
}

impl Checker {
    pub(super) fn error(&mut self, d: Diagnostic) {
        self.problems.push(d);
    }

    /// A param default written as text (`"Td9d6hQc"`), read as `--param`
    /// reads a value, made into a literal; a bad part of it is reported
    /// where it is in the text.
    pub(super) fn text_default(&mut self, d: &ast::ParamDecl, text: &str, ty: &Ty) -> tast::Expr {
        let at = d.default.span;
        let Some(kind) = param_kind(ty) else {
            return tast::Expr::error(at);
        };
        match galac_runtime::params::parse_value(kind, text) {
            Ok(v) => value_expr(&v, ty, at),
            Err(e) => {
                // Past the opening quote.
                let start = at.start as usize + 1;
                let span = Span::new(at.file, start + e.start, start + e.end.max(e.start));
                self.error(
                    Diagnostic::error(format!("the default of param `{}` cannot be read", d.name.name))
                        .primary(span, e.message),
                );
                tast::Expr::error(at)
            }
        }
    }

    /// The value of `e`, an int computed from literals (and from params,
    /// when checking for their values), if it is one.
    pub(super) fn known_int(&self, e: &tast::Expr) -> Option<i64> {
        match eval_const(e, self.params.as_deref().unwrap_or(&[])) {
            Ok(ParamValue::Int(n)) => Some(n),
            _ => None,
        }
    }
}

/// Nested deeper than the generated Rust of a compiled game can be.
pub(crate) fn too_deep_to_compile(span: Span, what: &str, max: u32) -> Diagnostic {
    let help = match what {
        "type" => "nest fewer lists, arrays and tuples",
        _ => "split it into smaller parts with `let` or a `fn`",
    };
    Diagnostic::error(format!("{what} nested too deeply"))
        .primary(span, format!("more than {max} levels of nesting"))
        .help(help)
}

pub(crate) fn too_deep(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!("{what} nested too deeply"))
        .primary(span, format!("more than {} levels of nesting", ast::MAX_DEPTH))
        .help("split it into smaller parts with `let` or a `fn`")
}
