//! Gala fns: one Rust fn each, statements structured as in the source,
//! each counting its steps as the interpreter does.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Ctx, Emitter};
use crate::typeck::tast::{self, Builtin, Expr, ExprKind, Place, StmtKind};

/// Whether evaluating `e` counts steps of its own (a call of a function, a
/// builtin that makes a list or reads one, as the interpreter counts them).
pub(super) fn counts_steps(e: &Expr) -> bool {
    use Builtin::*;
    matches!(
        e.kind,
        ExprKind::Call(..)
            | ExprKind::Range { .. }
            | ExprKind::Repeat(..)
            | ExprKind::Builtin(Combinations | Push | Remove | Sort | Deck | Cells | Contains | Count | Sum, _)
    ) || e.kind.children().any(counts_steps)
}

/// Statements at most, in all, of a fn that is always inlined.
const INLINE_MAX_STMTS: usize = 8;

/// Whether a Gala fn is a small helper worth inlining at every call: a few
/// statements, no loop, and no call (so not recursive). LLVM leaves such a
/// fn out of line (its error paths make it look big), and Leduc's
/// `strength`, called twice at each showdown, cost 2.6% of the build's
/// instructions in calls.
fn inlines(f: &tast::Fn) -> bool {
    fn place_calls(p: &Place) -> bool {
        match p {
            Place::Var(_) | Place::Local(_) => false,
            Place::Index(p, i) => place_calls(p) || counts_steps(i),
        }
    }
    /// The block's statement count, or `None` if it loops or calls.
    fn size(b: &tast::Block) -> Option<usize> {
        b.stmts.iter().try_fold(0, |n, s| {
            let own = match &s.kind {
                StmtKind::Let { value, .. } | StmtKind::Return(Some(value)) => (!counts_steps(value)).then_some(1),
                StmtKind::Assign { target, value, .. } => (!place_calls(target) && !counts_steps(value)).then_some(1),
                StmtKind::If { cond, then_block, else_block } if !counts_steps(cond) => {
                    Some(1 + size(then_block)? + size(else_block)?)
                }
                _ => None,
            };
            Some(n + own?)
        })
    }
    size(&f.body).is_some_and(|n| n <= INLINE_MAX_STMTS)
}

impl Emitter<'_> {
    /// The body of a pure fn (structured statements over locals).
    pub(super) fn fn_block(&self, b: &tast::Block) -> TokenStream {
        let stmts = b.stmts.iter().map(|s| self.fn_stmt(s));
        quote!(#(#stmts)*)
    }

    pub(super) fn fn_stmt(&self, s: &tast::Stmt) -> TokenStream {
        let ctx = Ctx::Fn;
        let at = self.at(s.span);
        let step = quote!(::galac_runtime::ops::step(steps, g.step_limit, #at)?;);
        match &s.kind {
            StmtKind::Let { local, value } => {
                let l = self.local(local.0);
                let v = self.expr(value, ctx);
                quote!(#step #l = #v;)
            }
            StmtKind::Assign { target, op, value } => {
                let a = self.assign(target, *op, value, ctx, s.span);
                quote!(#step #a)
            }
            StmtKind::If { cond, then_block, else_block } => {
                let (c, t, e) = (self.expr(cond, ctx), self.fn_block(then_block), self.fn_block(else_block));
                quote!(#step if #c { #t } else { #e })
            }
            // As the interpreter counts: a step per statement, and loops
            // one more per round.
            StmtKind::While { cond, body } => {
                let (c, b) = (self.expr(cond, ctx), self.fn_block(body));
                quote!(#step loop { #step if !(#c) { break; } #b })
            }
            StmtKind::Repeat { body, cond } => {
                let (c, b) = (self.expr(cond, ctx), self.fn_block(body));
                quote!(#step loop { #step #b if #c { break; } })
            }
            StmtKind::For { pattern, domain, body } => {
                let bind = self.bind(pattern, quote!(__x), ctx);
                let b = self.fn_block(body);
                let each = self.for_each(domain, ctx, quote!(#step #bind #b));
                quote!(#step #each)
            }
            StmtKind::Return(Some(e)) => {
                let v = self.expr(e, ctx);
                quote!(#step return Ok(#v);)
            }
            _ => quote!(unreachable!("internal error: a flow statement in a fn, please report");),
        }
    }

    /// One Rust fn per Gala fn.
    pub fn functions(&self) -> TokenStream {
        let fns = self.ir.fns.iter().enumerate().map(|(i, f)| {
            let name = self.fn_name(tast::FnId(i as u32));
            let ret = self.ty(&f.ret);
            let params = (0..f.n_params as usize).map(|k| {
                let l = self.local(k as u32);
                let t = self.ty(&f.locals[k].ty);
                quote!(#l: #t)
            });
            let locals = f.locals.iter().enumerate().skip(f.n_params as usize).map(|(k, local)| {
                let l = self.local(k as u32);
                let t = self.ty(&local.ty);
                let v = self.default_value(&local.ty);
                quote!(let mut #l: #t = #v;)
            });
            let body = self.fn_block(&f.body);
            let at = self.at(f.span);
            let inline = inlines(f).then(|| quote!(#[inline(always)]));
            quote! {
                #[allow(unused_mut, unused_variables, unreachable_code, clippy::all)]
                #inline
                fn #name(g: &Game, #(mut #params,)* steps: &mut u64) -> ::std::result::Result<#ret, ::galac_runtime::game::GameError> {
                    #(#locals)*
                    #body
                    Err(::galac_runtime::game::GameError::Other { message: "a function ended without returning".into(), at: #at.into() })
                }
            }
        });
        quote!(#(#fns)*)
    }
}

#[cfg(test)]
mod tests {
    /// The generated fn items of `source`, each with whether it is always inlined.
    fn inlined_fns(source: &str) -> Vec<(String, bool)> {
        let interp = crate::driver::load_interp("t.gala", source.as_bytes(), &[]).expect("valid game");
        let code = crate::codegen::emit_game(interp.ir(), interp.locator(), "t.gala").expect("code");
        let lines: Vec<&str> = code.lines().collect();
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with("fn f"))
            .map(|(i, l)| {
                (l.trim_start_matches("fn ").trim_end_matches('(').to_string(), lines[i - 1] == "#[inline(always)]")
            })
            .collect()
    }

    #[test]
    fn small_fns_without_loops_or_calls_are_always_inlined() {
        let source = "game g {
            players a, b;
            fn small(x: int) -> int { let y = x * 2; if y > 3 { return y; } return x; }
            fn looping(x: int) -> int { let t = 0; for i in 0..x { t += i; } return t; }
            fn calling(x: int) -> int { return small(x) + 1; }
            fn long(x: int) -> int { let a = x; let b = a; let c = b; let d = c; let e = d; let f = e; let h = f; let i = h; return i; }
            flow { outcome [small(1) + looping(2) + calling(3) + long(4), 0]; }
        }";
        let want = [("f0_small", true), ("f1_looping", false), ("f2_calling", false), ("f3_long", false)];
        let want: Vec<(String, bool)> = want.iter().map(|(n, i)| (n.to_string(), *i)).collect();
        assert_eq!(inlined_fns(source), want);
    }
}
