//! The `advance` state machine: one match arm per IR block that is not
//! inlined into its only predecessor, each counting the block's steps.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::emitter::{Ctx, Emitter};
use crate::ir::{self, Inst, Term};
use crate::span::Span;
use crate::typeck::tast::{ArithOp, Builtin, Expr, ExprKind, FactId, Place};
use crate::typeck::types::Ty;

impl Emitter<'_> {
    /// Instructions of a block, inside `advance`.
    pub(super) fn insts(&self, block: &ir::Block, span: Span) -> TokenStream {
        let ctx = Ctx::Flow;
        let items = block.insts.iter().map(|inst| match inst {
            Inst::Assign { place, op, value } => self.assign(place, *op, value, ctx, span),
            Inst::Bind { pattern, value } => {
                let v = self.expr(value, ctx);
                self.bind(pattern, v, ctx)
            }
            Inst::Enumerate { slot, domain } => {
                let f = self.slot(*slot);
                let t = self.ty(&domain.elem);
                let push = quote!(__items.push(__x.clone()););
                let fill = self.for_each(domain, ctx, push);
                quote!({ let mut __items: Vec<#t> = Vec::new(); #fill s.#f = ::galac_runtime::value::List::from_vec(__items); })
            }
        });
        quote!(#(#items)*)
    }

    /// Which blocks are emitted inside their only predecessor (a jump,
    /// branch, reveal or payoff) instead of as a match arm of their own, so
    /// that straight-line code and `if`s do not go through the dispatch.
    /// Chains are cut every `MAX_INLINE_DEPTH` blocks (bounded nesting).
    pub(super) fn inlined_blocks(&self) -> Vec<bool> {
        const MAX_INLINE_DEPTH: usize = 32;
        let n = self.ir.blocks.len();
        let mut preds = vec![0u32; n];
        preds[self.ir.entry.0 as usize] += 1;
        for b in &self.ir.blocks {
            for t in jump_targets(&b.term) {
                preds[t as usize] += 1;
            }
            if let Term::Choose(c) = &b.term {
                // Entered from `apply`: must stay an arm.
                preds[c.next.0 as usize] += 2;
            }
        }
        // A branch threaded through after a known answer (`goto_known`)
        // jumps to the branch's other target: kept an arm, not copied.
        for b in &self.ir.blocks {
            if let Term::Branch { cond, then_to, else_to } = &b.term {
                for to in [then_to, else_to] {
                    let to = self.past_keeping(*to, cond, |b| preds[b.0 as usize] == 1);
                    if let Some((_, then2, else2)) = self.threaded(to, cond) {
                        for t in [then2, else2].into_iter().filter(|t| self.retested(*t, cond).is_none()) {
                            preds[t.0 as usize] += 1;
                        }
                    }
                }
            }
        }
        let candidate: Vec<bool> = preds.iter().map(|p| *p == 1).collect();
        let mut inlined = vec![false; n];
        // From every arm, walk the candidates it would contain.
        let mut stack: Vec<(u32, usize)> = (0..n as u32).filter(|b| !candidate[*b as usize]).map(|b| (b, 0)).collect();
        while let Some((b, depth)) = stack.pop() {
            for t in jump_targets(&self.ir.blocks[b as usize].term) {
                let t_ = t as usize;
                if candidate[t_] && !inlined[t_] && depth < MAX_INLINE_DEPTH {
                    inlined[t_] = true;
                    stack.push((t, depth + 1));
                } else if candidate[t_] && !inlined[t_] {
                    // Too deep: it becomes an arm of its own (and a new root).
                    stack.push((t, 0));
                }
            }
        }
        inlined
    }

    /// The `advance` match arms: one per block that is not inlined.
    /// In `advance_public` (`stopping`), none for the payoff's code, which
    /// it stops before.
    pub fn advance_arms(&self) -> TokenStream {
        let inlined = self.inlined_blocks();
        self.arms(&inlined, |i| !inlined[i] && !self.stops_at(i))
    }

    /// Match arms for the blocks `armed` says, with the blocks `inlined`
    /// says inside their predecessor's code.
    pub(super) fn arms(&self, inlined: &[bool], armed: impl Fn(usize) -> bool) -> TokenStream {
        let arms = (0..self.ir.blocks.len()).filter(|&i| armed(i)).map(|i| {
            let id = i as u32;
            let code = self.block_code(i, inlined, Vec::new());
            quote!(#id => { #code })
        });
        quote!(#(#arms)*)
    }

    /// Going to block `to` with the steps `carry` not yet checked: its
    /// code if it is inlined, else a jump after the check.
    pub(super) fn goto(&self, to: ir::BlockId, inlined: &[bool], carry: Carry) -> TokenStream {
        if let Some(stop) = self.stop(to, &carry) {
            return stop;
        }
        if inlined[to.0 as usize] {
            self.block_code(to.0 as usize, inlined, carry)
        } else {
            let to = to.0;
            let check = check(&carry);
            quote!(#check block = #to;)
        }
    }

    /// Going to block `to` right after `cond` was found to be `value`: if
    /// `to` only tests the same condition again (a loop's `until` test,
    /// then the `if` after the loop), its steps are counted and its test
    /// is skipped, since nothing in between can change the answer (blind
    /// tic-tac-toe asked `has_line` twice at every leaf). If `to` only
    /// tests another condition (a loop's `unless`) and one of its targets
    /// tests `cond` again, `to` is run here and that target's test is
    /// skipped the same way (blind tic-tac-toe asked `has_line` again on
    /// a full board after the `until` had said no); its other target is
    /// jumped to. One hop past each test only, so that a loop of such
    /// blocks still goes through its match arms. A count in the test run
    /// in place may read the pass over the board that answered `cond`
    /// ([`scan`](super::scan)).
    fn goto_known(&self, to: ir::BlockId, cond: &Expr, value: bool, inlined: &[bool], mut carry: Carry) -> TokenStream {
        if let Some(stop) = self.stop(to, &carry) {
            return stop;
        }
        let b = &self.ir.blocks[to.0 as usize];
        if let (Term::Jump(next), true) = (&b.term, inlined[to.0 as usize] && keeps(b, cond)) {
            // Emitted as `block_code` emits a jump, the answer carried on.
            let span = self.ir.block_spans[to.0 as usize];
            let insts = self.insts(b, span);
            carry.push((b.steps(), self.at(span)));
            let (count, carry) = match may_fail(&insts) {
                true => (check(&carry), Vec::new()),
                false => (TokenStream::new(), carry),
            };
            let go = self.goto_known(*next, cond, value, inlined, carry);
            return quote!({ #count #insts } #go);
        }
        if let Some((then2, else2)) = self.retested(to, cond) {
            self.skipped(to, cond, &mut carry);
            return self.goto(if value { then2 } else { else2 }, inlined, carry);
        }
        let Some((again, then2, else2)) = self.threaded(to, cond) else {
            return self.goto(to, inlined, carry);
        };
        carry.push((self.ir.blocks[to.0 as usize].steps(), self.at(self.ir.block_spans[to.0 as usize])));
        self.scan.set(self.scan_next.take());
        let c = self.expr(again, Ctx::Flow);
        self.scan.set(None);
        let (count, carry) = match may_fail(&c) {
            true => (check(&carry), Vec::new()),
            false => (TokenStream::new(), carry),
        };
        let go = |next: ir::BlockId, carry: Carry| match self.retested(next, cond) {
            Some(_) if self.stops_at(next.0 as usize) => self.goto(next, inlined, carry),
            Some((t, e)) => {
                let mut carry = carry;
                self.skipped(next, cond, &mut carry);
                self.goto(if value { t } else { e }, inlined, carry)
            }
            None => self.goto(next, inlined, carry),
        };
        let (t, e) = (go(then2, carry.clone()), go(else2, carry));
        quote!({ #count } if #c { #t } else { #e })
    }

    /// The test `goto_known` runs in place when it goes to `to` after an
    /// answer to `cond`, if it does.
    pub(super) fn run_in_place(&self, to: ir::BlockId, cond: &Expr, inlined: &[bool]) -> Option<&Expr> {
        let to = self.past_keeping(to, cond, |b| inlined[b.0 as usize]);
        match self.retested(to, cond) {
            Some(_) => None,
            None => self.threaded(to, cond).map(|(again, ..)| again),
        }
    }

    /// The first block from `to` on that is not an inlined jump keeping
    /// `cond`'s answer (`goto_known` passes those with the answer).
    fn past_keeping(&self, mut to: ir::BlockId, cond: &Expr, inlined: impl Fn(ir::BlockId) -> bool) -> ir::BlockId {
        for _ in 0..self.ir.blocks.len() {
            let b = &self.ir.blocks[to.0 as usize];
            match &b.term {
                Term::Jump(next) if inlined(to) && keeps(b, cond) => to = *next,
                _ => break,
            }
        }
        to
    }

    /// The targets of block `to` if it only tests `cond` again (no
    /// instructions, a branch on the same test).
    fn retested(&self, to: ir::BlockId, cond: &Expr) -> Option<(ir::BlockId, ir::BlockId)> {
        let b = &self.ir.blocks[to.0 as usize];
        match &b.term {
            Term::Branch { cond: again, then_to, else_to }
                if b.insts.is_empty() && same_test(cond, again) && self.test_steps(again, &mut Vec::new()) =>
            {
                Some((*then_to, *else_to))
            }
            _ => None,
        }
    }

    /// Counts the steps of block `to`, a test of `cond` skipped
    /// ([`Self::retested`]): the block's own, then its `has_line`s', each
    /// where it would have read the board.
    fn skipped(&self, to: ir::BlockId, cond: &Expr, carry: &mut Carry) {
        carry.push((self.ir.blocks[to.0 as usize].steps(), self.at(self.ir.block_spans[to.0 as usize])));
        let Term::Branch { cond: again, .. } = &self.ir.blocks[to.0 as usize].term else { return };
        debug_assert!(same_test(cond, again));
        self.test_steps(again, carry);
    }

    /// The steps the builtins of the test `e` take, in the order they take
    /// them, into `out`, if they are known without running it: those of
    /// `has_line` (a step per cell) on a board of Rust arrays, whose size
    /// is its type's. False if a `has_line` reads a list, whose size only
    /// a run tells (then its test is asked again, not skipped).
    fn test_steps(&self, e: &Expr, out: &mut Carry) -> bool {
        let known = e.kind.children().all(|c| self.test_steps(c, out));
        match &e.kind {
            ExprKind::Builtin(Builtin::HasLine, args) => {
                let rows = self.fixed_len(&args[0].ty);
                let width = args[0].ty.element().and_then(|row| self.fixed_len(row));
                match rows.zip(width) {
                    Some((rows, width)) => {
                        out.push(((rows * width) as u64, self.at(e.span)));
                        known
                    }
                    None => false,
                }
            }
            // `==` on lists: its steps are known from a type of Rust
            // arrays alone (every level's length fixed).
            ExprKind::Binary(crate::ast::BinOp::Eq | crate::ast::BinOp::Ne, x, _) if x.ty.list_depth() > 0 => {
                match self.fixed_cells(&x.ty) {
                    Some(cells) => {
                        out.push((cells, self.at(e.span)));
                        known
                    }
                    None => false,
                }
            }
            _ => known,
        }
    }

    /// The cells `==` reads on a value of `ty` when every level of its
    /// lists has a length its type fixes.
    fn fixed_cells(&self, ty: &Ty) -> Option<u64> {
        match ty.element() {
            None => Some(1),
            Some(item) => {
                let len = match ty {
                    Ty::PerPlayer(_) => self.n_players,
                    _ => self.fixed_len(ty)?,
                };
                Some(len as u64 * self.fixed_cells(item)?)
            }
        }
    }

    /// Block `to`'s test and targets if `goto_known` runs it in place after
    /// an answer to `cond`: it only tests another condition (expressions
    /// change no state, so `cond`'s answer holds after it), and one of its
    /// targets tests `cond` again.
    fn threaded(&self, to: ir::BlockId, cond: &Expr) -> Option<(&Expr, ir::BlockId, ir::BlockId)> {
        let b = &self.ir.blocks[to.0 as usize];
        match &b.term {
            Term::Branch { cond: other, then_to, else_to }
                if b.insts.is_empty()
                    && !same_test(cond, other)
                    && (self.retested(*then_to, cond).is_some() || self.retested(*else_to, cond).is_some()) =>
            {
                Some((other, *then_to, *else_to))
            }
            _ => None,
        }
    }

    /// The code of one block (its own scope), then where it goes; `carry`
    /// are the steps of the blocks before it not yet checked.
    pub(super) fn block_code(&self, i: usize, inlined: &[bool], mut carry: Carry) -> TokenStream {
        {
            let b = &self.ir.blocks[i];
            let id = i as u32;
            let span = self.ir.block_spans[i];
            let at = self.at(span);
            let insts = self.insts(b, span);
            // The block's steps, counted on entry (as the interpreter
            // does); checked there, or, when nothing in the block can
            // fail, with those of the next block it runs (one check, the
            // same error: `ops::steps_of`).
            carry.push((b.steps(), at.clone()));
            let ctx = Ctx::Flow;
            let terminal = self.return_node(quote!(::galac_runtime::game::Node::Terminal));
            let term = match &b.term {
                Term::Jump(to) if !may_fail(&insts) => {
                    let go = self.goto(*to, inlined, carry);
                    return quote!({ #insts } #go);
                }
                Term::Jump(to) => {
                    let count = check(&carry);
                    let go = self.goto(*to, inlined, Vec::new());
                    return quote!({ #count #insts } #go);
                }
                Term::Branch { cond, then_to, else_to } => {
                    // `has_line` and the count asked after it in one pass (`scan`).
                    let (make, c, scan) = match self.board_scan(cond, *else_to, inlined) {
                        Some((make, c, scan)) => (make, c, Some(scan)),
                        None => (TokenStream::new(), self.expr(cond, ctx), None),
                    };
                    let (count, carry) = match may_fail(&insts) || may_fail(&make) || may_fail(&c) {
                        true => (check(&carry), Vec::new()),
                        false => (TokenStream::new(), carry),
                    };
                    let t = self.goto_known(*then_to, cond, true, inlined, carry.clone());
                    self.scan_next.set(scan);
                    let e = self.goto_known(*else_to, cond, false, inlined, carry);
                    self.scan_next.set(None);
                    return quote!({ #count #insts } #make if #c { #t } else { #e });
                }
                Term::Reveal { to, fact, args, next } => {
                    let body = self.reveal(i, to.as_ref(), *fact, args);
                    let (count, carry) = match may_fail(&insts) || may_fail(&body) {
                        true => (check(&carry), Vec::new()),
                        false => (TokenStream::new(), carry),
                    };
                    let go = self.goto(*next, inlined, carry);
                    return quote!({ #count #insts #body } #go);
                }
                Term::Payoff { player, op, amount, next } => {
                    let count = check(&carry);
                    let (p, x) = (self.expr(player, ctx), self.expr(amount, ctx));
                    let f = if *op == ArithOp::Sub { quote!(sub) } else { quote!(add) };
                    let go = self.goto(*next, inlined, Vec::new());
                    let body = quote! {
                        let __p = (#p) as usize;
                        let __x = #x;
                        s.payoffs[__p] = ::galac_runtime::ops::#f(s.payoffs[__p], __x, #at)?;
                    };
                    return quote!({ #count #insts #body } #go);
                }
                Term::Outcome(e) => {
                    let v = self.expr(e, ctx);
                    quote! {
                        let __o = #v;
                        for __p in 0..__o.len() { s.payoffs[__p] = ::galac_runtime::ops::add(s.payoffs[__p], __o[__p], #at)?; }
                        s.block = #id;
                        #terminal
                    }
                }
                Term::End => quote!(s.block = #id; #terminal),
                Term::Choose(c) => {
                    let choose = self.choose_advance(c, &at, i);
                    // `apply` and the labels find the choice by the stored block.
                    quote!(s.block = #id; #choose)
                }
            };
            let count = check(&carry);
            quote!({ #count #insts #term })
        }
    }
}

impl Emitter<'_> {
    /// A fact pushed onto the information states of its receivers: its
    /// words in an array on the stack when they are fixed in number, else
    /// in the scratch buffer. A sunk reveal (`sunk`) keeps the words and
    /// the audience instead.
    fn reveal(&self, block: usize, to: Option<&Expr>, fact: FactId, args: &[Expr]) -> TokenStream {
        let ctx = Ctx::Flow;
        let fact = u64::from(fact.0);
        let targets = match to {
            Some(p) => {
                let p = self.expr(p, ctx);
                quote!({ let __p = (#p) as usize; __p..__p + 1 })
            }
            None => {
                let n = self.n_players;
                quote!(0..#n)
            }
        };
        let names: Vec<TokenStream> = (0..args.len())
            .map(|i| {
                let n = format_ident!("__a{}", i);
                quote!(#n)
            })
            .collect();
        let tys: Vec<_> = args.iter().map(|a| &a.ty).collect();
        // A record deferred for a player is made before the facts revealed
        // to them after it (`deferred`).
        let flush = self.flush_deferred_for_targets();
        if let Some(words) = self.fixed_words(&[quote!(#fact)], &names, &tys) {
            let values = args.iter().map(|a| self.expr(a, ctx));
            if self.sunk[block] {
                // Pushed at the next choice, after a pending record (`sunk`).
                let kept = self.sunk_local(block);
                return quote! {
                    #(let #names = #values;)*
                    #words
                    #kept = Some((__w, #targets));
                };
            }
            return quote! {
                #(let #names = #values;)*
                #words
                let __targets = #targets;
                #flush
                for __p in __targets { s.info[__p] = info.push(s.info[__p], &__w); }
            };
        }
        let args = args.iter().map(|a| {
            let v = self.by_ref(a, ctx);
            quote!(::galac_runtime::value::Encode::encode(&#v, &mut sc.words);)
        });
        quote! {
            let mut sc = self.scratch.borrow_mut();
            sc.words.clear();
            sc.words.push(#fact);
            #(#args)*
            let __targets = #targets;
            #flush
            for __p in __targets { s.info[__p] = info.push(s.info[__p], &sc.words); }
        }
    }
}

/// Steps counted but not yet checked: each block's count and place, in
/// the order they ran.
pub(super) type Carry = Vec<(u64, proc_macro2::Literal)>;

/// The check of the steps `carry`: none, one block's (`ops::steps`), or
/// several blocks' at once (`ops::steps_of`).
pub(super) fn check(carry: &[(u64, proc_macro2::Literal)]) -> TokenStream {
    match carry {
        [] => TokenStream::new(),
        [(n, at)] => quote!(::galac_runtime::ops::steps(steps, #n, g.step_limit, #at)?;),
        _ => {
            let total: u64 = carry.iter().map(|c| c.0).sum();
            let parts = carry.iter().map(|(n, at)| quote!((#n, #at)));
            quote!(::galac_runtime::ops::steps_of(steps, #total, &[#(#parts),*], g.step_limit)?;)
        }
    }
}

/// Whether generated code can fail or leave `advance` before its end: it
/// propagates an error (`?`: every operation that can fail or count steps
/// does) or returns. Code that cannot may run before its block's steps are
/// checked, as the check then fails the same way.
pub(super) fn may_fail(code: &TokenStream) -> bool {
    code.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Punct(p) => p.as_char() == '?',
        proc_macro2::TokenTree::Ident(i) => i == "return" || i == "unreachable" || i == "panic",
        proc_macro2::TokenTree::Group(g) => may_fail(&g.stream()),
        proc_macro2::TokenTree::Literal(_) => false,
    })
}

/// The blocks a terminator goes to within `advance` (not a choice's `next`,
/// which `apply` enters).
fn jump_targets(t: &Term) -> Vec<u32> {
    match t {
        Term::Jump(to) => vec![to.0],
        Term::Branch { then_to, else_to, .. } => vec![then_to.0, else_to.0],
        Term::Reveal { next, .. } | Term::Payoff { next, .. } => vec![next.0],
        Term::Choose(_) | Term::Outcome(_) | Term::End => Vec::new(),
    }
}

/// Whether block `b`'s instructions keep the answer of the test `cond`
/// (one `same_test` accepts): they only assign variables it does not read.
fn keeps(b: &ir::Block, cond: &Expr) -> bool {
    let mut read = Vec::new();
    test_reads(cond, &mut read)
        && b.insts.iter().all(|inst| match inst {
            Inst::Assign { place: Place::Var(v), .. } => !read.contains(&v.0),
            Inst::Assign { place: Place::Local(l), .. } => !read.contains(&l.0),
            _ => false,
        })
}

/// The slots of the variables and locals the test `e` reads, into `out`;
/// false if `e` is not a test `same_test` accepts.
fn test_reads(e: &Expr, out: &mut Vec<u32>) -> bool {
    use ExprKind as K;
    match &e.kind {
        K::Int(_) | K::Bool(_) | K::Player(_) | K::Variant(..) | K::Param(_) => true,
        K::Var(v) => {
            out.push(v.0);
            true
        }
        K::Local(l) => {
            out.push(l.0);
            true
        }
        K::Index(x, i) | K::Binary(_, x, i) => test_reads(x, out) && test_reads(i, out),
        K::Field(x, _) | K::Not(x) | K::Neg(x) => test_reads(x, out),
        K::Builtin(Builtin::HasLine, xs) => xs.iter().all(|x| test_reads(x, out)),
        _ => false,
    }
}

/// Whether `a` and `b` are one test (their spans aside) whose answer
/// depends on the state alone and whose evaluation counts no steps (no
/// call, no builtin that counts): asked twice with nothing run in
/// between, it answers alike, and skipping the second changes no count.
fn same_test(a: &Expr, b: &Expr) -> bool {
    use ExprKind as K;
    let all = |xs: &[Expr], ys: &[Expr]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_test(x, y));
    match (&a.kind, &b.kind) {
        (K::Int(x), K::Int(y)) => x == y,
        (K::Bool(x), K::Bool(y)) => x == y,
        (K::Player(x), K::Player(y)) => x == y,
        (K::Variant(e, x), K::Variant(f, y)) => e == f && x == y,
        (K::Param(x), K::Param(y)) => x == y,
        (K::Var(x), K::Var(y)) => x == y,
        (K::Local(x), K::Local(y)) => x == y,
        (K::Index(x, i), K::Index(y, j)) => same_test(x, y) && same_test(i, j),
        (K::Field(x, n), K::Field(y, m)) => n == m && same_test(x, y),
        (K::Not(x), K::Not(y)) | (K::Neg(x), K::Neg(y)) => same_test(x, y),
        (K::Binary(o, x, u), K::Binary(p, y, v)) => o == p && same_test(x, y) && same_test(u, v),
        (K::Builtin(Builtin::HasLine, xs), K::Builtin(Builtin::HasLine, ys)) => all(xs, ys),
        _ => false,
    }
}

#[cfg(test)]
#[path = "blocks_tests.rs"]
mod tests;
