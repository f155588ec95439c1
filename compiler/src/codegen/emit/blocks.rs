//! The `advance` state machine: one match arm per IR block that is not
//! inlined into its only predecessor, each counting the block's steps.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Ctx, Emitter};
use crate::ir::{self, Inst, Term};
use crate::span::Span;
use crate::typeck::tast::{ArithOp, Expr, FactId};

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
    pub fn advance_arms(&self) -> TokenStream {
        let inlined = self.inlined_blocks();
        let arms = (0..self.ir.blocks.len()).filter(|i| !inlined[*i]).map(|i| {
            let id = i as u32;
            let code = self.block_code(i, &inlined);
            quote!(#id => { #code })
        });
        quote!(#(#arms)*)
    }

    /// Going to block `to`: its code if it is inlined, else a jump.
    pub(super) fn goto(&self, to: ir::BlockId, inlined: &[bool]) -> TokenStream {
        if inlined[to.0 as usize] {
            self.block_code(to.0 as usize, inlined)
        } else {
            let to = to.0;
            quote!(block = #to;)
        }
    }

    /// The code of one block (its own scope), then where it goes.
    pub(super) fn block_code(&self, i: usize, inlined: &[bool]) -> TokenStream {
        {
            let b = &self.ir.blocks[i];
            let id = i as u32;
            let span = self.ir.block_spans[i];
            let at = self.at(span);
            let insts = self.insts(b, span);
            // The block's steps, counted and checked once on entry (as the interpreter does).
            let n_steps = b.steps();
            let count = quote!(::galac_runtime::ops::steps(steps, #n_steps, g.step_limit, #at)?;);
            let ctx = Ctx::Flow;
            let term = match &b.term {
                Term::Jump(to) => {
                    let go = self.goto(*to, inlined);
                    return quote!({ #count #insts } #go);
                }
                Term::Branch { cond, then_to, else_to } => {
                    let c = self.expr(cond, ctx);
                    let (t, e) = (self.goto(*then_to, inlined), self.goto(*else_to, inlined));
                    return quote!({ #count #insts } if #c { #t } else { #e });
                }
                Term::Reveal { to, fact, args, next } => {
                    let body = self.reveal(to.as_ref(), *fact, args);
                    let go = self.goto(*next, inlined);
                    return quote!({ #count #insts #body } #go);
                }
                Term::Payoff { player, op, amount, next } => {
                    let (p, x) = (self.expr(player, ctx), self.expr(amount, ctx));
                    let f = if *op == ArithOp::Sub { quote!(sub) } else { quote!(add) };
                    let go = self.goto(*next, inlined);
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
                        return Ok(::galac_runtime::game::Node::Terminal);
                    }
                }
                Term::End => quote!(s.block = #id; return Ok(::galac_runtime::game::Node::Terminal);),
                Term::Choose(c) => {
                    let choose = self.choose_advance(c, &at, i);
                    // `apply` and the labels find the choice by the stored block.
                    quote!(s.block = #id; #choose)
                }
            };
            quote!({ #count #insts #term })
        }
    }
}

impl Emitter<'_> {
    /// A fact pushed onto the information states of its receivers: its
    /// words in an array on the stack when they are fixed in number, else
    /// in the scratch buffer.
    fn reveal(&self, to: Option<&Expr>, fact: FactId, args: &[Expr]) -> TokenStream {
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
        if let Some(words) = self.fixed_words(&[quote!(#fact)], &names, &tys) {
            let values = args.iter().map(|a| self.expr(a, ctx));
            return quote! {
                #(let #names = #values;)*
                #words
                for __p in #targets { s.info[__p] = info.push(s.info[__p], &__w); }
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
            for __p in #targets { s.info[__p] = info.push(s.info[__p], &sc.words); }
        }
    }
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
