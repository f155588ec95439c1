//! Gala fns: one Rust fn each, statements structured as in the source,
//! each counting its steps as the interpreter does.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::blocks::{check, may_fail, Carry};
use super::emitter::{Ctx, Emitter};
use crate::typeck::tast::{self, Expr, ExprKind, Place, StmtKind};
use crate::typeck::types::Ty;

/// Whether evaluating `e` counts steps of its own (a call of a function, a
/// builtin that makes a list or reads one, `==` on lists, as the
/// interpreter counts them).
pub(super) fn counts_steps(e: &Expr) -> bool {
    let own = match &e.kind {
        ExprKind::Call(..) | ExprKind::Range { .. } | ExprKind::Repeat(..) => true,
        ExprKind::Builtin(b, _) => b.takes_steps(),
        // `==` on lists: a step per cell.
        ExprKind::Binary(crate::ast::BinOp::Eq | crate::ast::BinOp::Ne, x, _) => x.ty.list_depth() > 0,
        _ => false,
    };
    own || e.kind.children().any(counts_steps)
}

/// The local a `for` walks, if it is a list the loop's body never assigns:
/// walked in place, not cloned first (liar's dice's `matches`: a count
/// up and down per call, 1.2% of its build's instructions).
fn walked_in_place(pattern: &tast::Pattern, domain: &tast::Domain, body: &tast::Block) -> Option<tast::LocalId> {
    let tast::DomainKind::Values(e) = &domain.kind else { return None };
    match (&e.kind, &e.ty) {
        (_, Ty::PerPlayer(_)) => None,
        (ExprKind::Local(l), _) if !binds(pattern, *l) && !assigns(body, *l) => Some(*l),
        _ => None,
    }
}

/// Whether the pattern `p` binds the local `l`.
fn binds(p: &tast::Pattern, l: tast::LocalId) -> bool {
    match p {
        tast::Pattern::Bind(b) => *b == l,
        tast::Pattern::Wildcard => false,
        tast::Pattern::Tuple(ps) => ps.iter().any(|p| binds(p, l)),
    }
}

/// Whether a statement of `b` (or of a block in it) sets the local `l` or
/// a part of it.
fn assigns(b: &tast::Block, l: tast::LocalId) -> bool {
    fn root(p: &Place) -> Option<tast::LocalId> {
        match p {
            Place::Var(_) => None,
            Place::Local(l) => Some(*l),
            Place::Index(p, _) => root(p),
        }
    }
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Let { local, .. } => *local == l,
        StmtKind::Assign { target, .. } => root(target) == Some(l),
        StmtKind::If { then_block, else_block, .. } => assigns(then_block, l) || assigns(else_block, l),
        StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } => assigns(body, l),
        StmtKind::For { pattern, body, .. } => binds(pattern, l) || assigns(body, l),
        _ => false,
    })
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

/// Whether a Gala fn's last calls are remembered ([`galac_runtime::recent::Calls`]):
/// its arguments are plain values (compared as they are), its result a
/// list (made again, it would be allocated again), and it is not inlined
/// (so it loops or calls). A derivation's deals make the same calls of
/// hold'em's `moves` at every deal of a public node (a million a node with
/// every hand); the interpreter remembers every fn's (`interp::recent`).
fn remembered(f: &tast::Fn) -> bool {
    let plain = |t: &Ty| matches!(t, Ty::Int | Ty::Card | Ty::Bool | Ty::Player | Ty::Enum(..));
    matches!(f.ret, Ty::List(_)) && f.locals[..f.n_params as usize].iter().all(|l| plain(&l.ty)) && !inlines(f)
}

impl Emitter<'_> {
    /// Whether a fn's calls are [`remembered`]: else the game has no
    /// `Recent`, nor a field for it.
    pub fn remembers_calls(&self) -> bool {
        self.ir.fns.iter().any(remembered)
    }

    /// The fields of the game's `Recent`: a fn's last calls for each fn
    /// [`remembered`], named as the fn.
    pub fn recent_fields(&self) -> TokenStream {
        let fields = self.ir.fns.iter().enumerate().filter(|(_, f)| remembered(f)).map(|(i, f)| {
            let name = self.fn_name(tast::FnId(i as u32));
            let args = f.locals[..f.n_params as usize].iter().map(|l| self.ty(&l.ty));
            let ret = self.ty(&f.ret);
            quote!(#name: ::galac_runtime::recent::Calls<(#(#args,)*), #ret>,)
        });
        quote!(#(#fields)*)
    }

    /// The body of a pure fn (structured statements over locals).
    pub(super) fn fn_block(&self, b: &tast::Block) -> TokenStream {
        self.fn_block_after(b, Vec::new())
    }

    /// A block run after statements whose steps `carry` are not yet
    /// checked: a statement that cannot fail has its step checked with the
    /// next one's (as `advance`'s blocks: `blocks::check`), the rest at the
    /// block's end at the latest.
    fn fn_block_after(&self, b: &tast::Block, mut carry: Carry) -> TokenStream {
        let mut code = TokenStream::new();
        for s in &b.stmts {
            let (stmt, rest) = self.fn_stmt(s, carry);
            code.extend(stmt);
            carry = rest;
        }
        code.extend(check(&carry));
        code
    }

    /// A statement after the unchecked steps `carry`, and the steps left
    /// unchecked after it (its own, if it cannot fail).
    fn fn_stmt(&self, s: &tast::Stmt, mut carry: Carry) -> (TokenStream, Carry) {
        let ctx = Ctx::Fn;
        let at = self.at(s.span);
        carry.push((galac_runtime::ops::STEP, at.clone()));
        // Code that cannot fail runs before the check; else the check first.
        let go_on = |code: TokenStream, carry: Carry| match may_fail(&code) {
            false => (code, carry),
            true => {
                let step = check(&carry);
                (quote!(#step #code), Vec::new())
            }
        };
        match &s.kind {
            StmtKind::Let { local, value } => {
                let l = self.local(local.0);
                let v = self.expr(value, ctx);
                go_on(quote!(#l = #v;), carry)
            }
            StmtKind::Assign { target, op, value } => go_on(self.assign(target, *op, value, ctx, s.span), carry),
            StmtKind::If { cond, then_block, else_block } => {
                let c = self.expr(cond, ctx);
                let (step, carry) = match may_fail(&c) {
                    true => (check(&carry), Vec::new()),
                    false => (TokenStream::new(), carry),
                };
                let t = self.fn_block_after(then_block, carry.clone());
                let e = self.fn_block_after(else_block, carry);
                (quote!(#step if #c { #t } else { #e }), Vec::new())
            }
            // As the interpreter counts: a step per statement, and loops
            // one more per round.
            StmtKind::While { cond, body } => {
                let (step, round) = (check(&carry), check(&[(galac_runtime::ops::STEP, at)]));
                let (c, b) = (self.expr(cond, ctx), self.fn_block(body));
                (quote!(#step loop { #round if !(#c) { break; } #b }), Vec::new())
            }
            StmtKind::Repeat { body, cond } => {
                let (step, round) = (check(&carry), check(&[(galac_runtime::ops::STEP, at)]));
                let (c, b) = (self.expr(cond, ctx), self.fn_block(body));
                (quote!(#step loop { #round #b if #c { break; } }), Vec::new())
            }
            StmtKind::For { pattern, domain, body } => {
                // A round's step is checked with its body's first ones.
                let step = check(&carry);
                let round: Carry = vec![(galac_runtime::ops::STEP, at)];
                let bind = self.bind(pattern, quote!(__x), ctx);
                let (bind, round) = match may_fail(&bind) {
                    true => {
                        let round = check(&round);
                        (quote!(#round #bind), Vec::new())
                    }
                    false => (bind, round),
                };
                let b = self.fn_block_after(body, round);
                let each = match walked_in_place(pattern, domain, body) {
                    Some(l) => {
                        let l = self.local(l.0);
                        quote!(for __x in #l.iter().cloned() { #bind #b })
                    }
                    None => self.for_each(domain, ctx, quote!(#bind #b)),
                };
                (quote!(#step #each), Vec::new())
            }
            StmtKind::Return(Some(e)) => {
                let step = check(&carry);
                let v = self.expr(e, ctx);
                (quote!(#step return Ok(#v);), Vec::new())
            }
            _ => {
                let step = check(&carry);
                (quote!(#step unreachable!("internal error: a flow statement in a fn, please report");), Vec::new())
            }
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
            let run = match remembered(f) {
                true => format_ident!("{}_run", name),
                false => name.clone(),
            };
            let fun = quote! {
                #[allow(unused_mut, unused_variables, unreachable_code, clippy::all)]
                #inline
                fn #run(g: &Game, #(mut #params,)* steps: &mut u64) -> ::std::result::Result<#ret, ::galac_runtime::game::GameError> {
                    #(#locals)*
                    #body
                    Err(::galac_runtime::game::GameError::Other { message: "a function ended without returning".into(), at: #at.into() })
                }
            };
            if !remembered(f) {
                return fun;
            }
            // A remembered call's steps taken again where they fit, else
            // the body run (so it stops at the step limit where it would).
            let args: Vec<proc_macro2::Ident> = (0..f.n_params).map(|k| self.local(k)).collect();
            let types = f.locals[..f.n_params as usize].iter().map(|l| self.ty(&l.ty));
            quote! {
                #fun
                #[allow(clippy::all)]
                fn #name(g: &Game, #(#args: #types,)* steps: &mut u64) -> ::std::result::Result<#ret, ::galac_runtime::game::GameError> {
                    let __args = (#(#args,)*);
                    if let Some(r) = g.recent.borrow().#name.recall(&__args, steps) {
                        return Ok(r);
                    }
                    let __before = *steps;
                    let r = #run(g, #(#args,)* steps)?;
                    g.recent.borrow_mut().#name.put(__args, r.clone(), __before - *steps);
                    Ok(r)
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
        let c = crate::compile::compiled(source);
        let code = crate::codegen::emit_game(&c.ir, None, &c.source, "t.gala").expect("code");
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
