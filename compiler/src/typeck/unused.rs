//! The `unused` warning: locals, params, constants, state variables, fns and
//! named flows that nothing reads or calls. A name starting with `_` is
//! meant to be unused and is not reported.

use super::checker::Checker;
use super::env::Global;
use crate::diagnostic::Diagnostic;

impl Checker {
    /// Locals of the body just checked that are never read.
    pub(super) fn warn_unused_locals(&mut self) {
        for (i, local) in self.body.locals.iter().enumerate() {
            let (Some(at), false) = (self.body.declared_at[i], self.body.read[i]) else { continue };
            if local.name.starts_with('_') {
                continue;
            }
            let what = if local.mutable { "variable" } else { "value" };
            self.problems.push(
                Diagnostic::warning("unused", format!("`{}` is never read", local.name))
                    .primary(at, format!("this {what} is never used"))
                    .help(format!("if that is intended, name it `_{}`", local.name)),
            );
        }
    }

    /// Global declarations that nothing reads or calls.
    pub(super) fn warn_unused_globals(&mut self) {
        let mut unused: Vec<_> = self
            .env
            .globals
            .iter()
            .filter(|(name, _)| !self.used.contains(*name) && !name.starts_with('_'))
            .filter_map(|(name, (g, at))| {
                let what = match g {
                    Global::Param(id) if self.env.param_is_constant(*id) => "constant",
                    Global::Param(_) => "param",
                    Global::Var(_) => "state variable",
                    // The look-ahead heuristic is called by the search.
                    Global::Fn(_) if name.as_str() == super::evaluate::EVALUATE => return None,
                    Global::Fn(_) => "function",
                    Global::Flow(_) => "flow",
                    Global::Player(_) | Global::Enum(_) => return None,
                };
                Some((*at, name.clone(), what))
            })
            .collect();
        unused.sort_by_key(|(at, _, _)| *at);
        for (at, name, what) in unused {
            let verb = if matches!(what, "function" | "flow") { "called" } else { "read" };
            self.problems.push(
                Diagnostic::warning("unused", format!("{what} `{name}` is never {verb}"))
                    .primary(at, format!("this {what} is never used")),
            );
        }
    }
}
