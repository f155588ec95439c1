//! Choices: their candidates (walked over a domain's loops, with `where`
//! and `weight`, the odds through `galac_runtime::ops::Odds`), `apply`, and
//! action labels.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::emitter::{Ctx, DomainPlan, Emitter};
use super::fns::counts_steps;
use super::hoist::writes;
use crate::ir::{self, Term};
use crate::typeck::tast::{self, ChooseDomain, DomainKind, ExprKind};
use crate::typeck::types::Ty;

impl Emitter<'_> {
    /// Runs `body` with `__x` bound to each element of a domain, in order.
    /// What the domain is made of (bounds, lists; every part of a product)
    /// is evaluated once, in order, before the loops, as the interpreter
    /// enumerates it.
    pub(super) fn for_each(&self, d: &tast::Domain, ctx: Ctx, body: TokenStream) -> TokenStream {
        let mut prelude = TokenStream::new();
        let plan = self.domain_plan(d, ctx, &mut prelude, &mut 0);
        let looped = Self::domain_loop(&plan, body);
        quote!({ #prelude #looped })
    }

    /// Evaluates what `d` needs into locals (appended to `prelude`; `next`
    /// numbers them) and says how to loop over its elements.
    pub(super) fn domain_plan(
        &self,
        d: &tast::Domain,
        ctx: Ctx,
        prelude: &mut TokenStream,
        next: &mut u32,
    ) -> DomainPlan {
        let id = *next;
        *next += 1;
        match &d.kind {
            DomainKind::Values(e) => match (&e.kind, &e.ty) {
                (ExprKind::Range { lo, hi, inclusive }, _) => {
                    // Checked as a range value is (overflow, size), not made.
                    let (lo, hi, at) = (self.expr(lo, ctx), self.expr(hi, ctx), self.at(e.span));
                    let (l, h) = (format_ident!("__lo{}", id), format_ident!("__hi{}", id));
                    prelude.extend(quote! {
                        let #l: i64 = #lo;
                        let #h: i64 = ::galac_runtime::ops::range_end(#l, #hi, #inclusive, #at)?;
                    });
                    DomainPlan::Each(quote!(#l..#h), quote!((#h.saturating_sub(#l).max(0) as u64)))
                }
                (ExprKind::Players, _) => self.numbered(&Ty::Player, self.n_players),
                (_, Ty::PerPlayer(_)) => {
                    let (xs, v) = (self.expr(e, ctx), format_ident!("__xs{}", id));
                    prelude.extend(quote!(let #v = #xs;));
                    DomainPlan::Each(quote!(#v.clone()), quote!((#v.len() as u64)))
                }
                (ExprKind::Builtin(crate::typeck::builtins::Builtin::DealHands, args), _) => {
                    // The deals made one at a time as the loop takes them,
                    // not a list (`galac_runtime::ops::holdem::Pairs`): the
                    // arguments in order, then the deal's checks and steps.
                    let v = format_ident!("__xs{}", id);
                    let a: Vec<proc_macro2::Ident> = (0..3u32).map(|k| format_ident!("__deal{}_{}", id, k)).collect();
                    let (x0, x1, x2) = (self.expr(&args[0], ctx), self.expr(&args[1], ctx), self.expr(&args[2], ctx));
                    let (a0, a1, a2) = (&a[0], &a[1], &a[2]);
                    let at = self.at(e.span);
                    prelude.extend(quote! {
                        let (#a0, #a1, #a2) = (#x0, #x1, #x2);
                        let #v = ::galac_runtime::ops::holdem::Pairs::new(
                            ::galac_runtime::value::Items::items(&#a0),
                            ::galac_runtime::value::Items::items(&#a1),
                            ::galac_runtime::value::Items::items(&#a2),
                            steps,
                            g.step_limit,
                            #at,
                        )?;
                    });
                    DomainPlan::Each(quote!(#v.deals()), quote!((#v.len() as u64)))
                }
                _ => {
                    // An owned (shared, not copied) list: the body may change the state.
                    let (xs, v) = (self.expr(e, ctx), format_ident!("__xs{}", id));
                    prelude.extend(quote!(let #v = #xs;));
                    DomainPlan::Each(quote!(#v.iter().cloned()), quote!((#v.len() as u64)))
                }
            },
            DomainKind::Enum(e) => self.numbered(&d.elem, self.ir.enums[e.0 as usize].variants.len()),
            DomainKind::Bool => DomainPlan::Each(quote!([false, true]), quote!(2u64)),
            DomainKind::Product(parts) => {
                DomainPlan::Product(id, parts.iter().map(|p| self.domain_plan(p, ctx, prelude, next)).collect())
            }
        }
    }

    /// The values `0..n` of a type numbered from 0 (players, an enum's
    /// variants), as that type's values. An exclusive range when its end
    /// fits the type (an inclusive one costs Leduc's build 9%), else
    /// `0..=n-1` (256 variants in a `u8`).
    fn numbered(&self, ty: &Ty, n: usize) -> DomainPlan {
        let size = n as u64;
        let narrow = !matches!(ty, Ty::Enum(id, _) if self.wide_enum(*id));
        match n.checked_sub(1) {
            Some(last) if narrow && n > usize::from(u8::MAX) => {
                let last = self.small_lit(ty, last as u32);
                DomainPlan::Each(quote!(0..=#last), quote!(#size))
            }
            Some(_) => {
                let end = self.small_lit(ty, n as u32);
                DomainPlan::Each(quote!(0..#end), quote!(#size))
            }
            None => DomainPlan::Each(quote!([]), quote!(0u64)),
        }
    }

    /// The number of elements of a planned domain (a `u64` expression).
    pub(super) fn domain_size(plan: &DomainPlan) -> TokenStream {
        match plan {
            DomainPlan::Each(_, size) => size.clone(),
            DomainPlan::Product(_, parts) => {
                let sizes = parts.iter().map(Self::domain_size);
                quote!((1u64 #(.saturating_mul(#sizes))*))
            }
        }
    }

    /// The loops of a planned domain around `body`, `__x` bound to each element.
    pub(super) fn domain_loop(plan: &DomainPlan, body: TokenStream) -> TokenStream {
        Self::domain_loop_with(plan, body, &[])
    }

    /// [`Self::domain_loop`], a product's loop `k` running `levels[k]` once
    /// its part is bound (the lookups of [`Self::hoist_filter`]).
    fn domain_loop_with(plan: &DomainPlan, body: TokenStream, levels: &[TokenStream]) -> TokenStream {
        match plan {
            DomainPlan::Each(iter, _) => quote!(for __x in #iter { #body }),
            DomainPlan::Product(id, parts) => {
                // Nested loops, the last part fastest; the tuple is built
                // innermost (names by product, so nested products do not
                // shadow each other's).
                let names: Vec<proc_macro2::Ident> =
                    (0..parts.len()).map(|i| format_ident!("__t{}_{}", id, i)).collect();
                let mut inner = quote!({ let __x = (#(#names.clone(),)*); #body });
                for (k, (part, name)) in parts.iter().zip(&names).enumerate().rev() {
                    let lifted = levels.get(k);
                    inner = Self::domain_loop(part, quote!(let #name = __x; #lifted #inner));
                }
                inner
            }
        }
    }

    pub(super) fn choice_field(&self, ty: u32) -> proc_macro2::Ident {
        format_ident!("c{}", ty)
    }

    /// The end of a block that ends in a choice: the chooser, then the
    /// candidates and their odds into the scratch, then the node.
    pub(super) fn choose_advance(&self, c: &ir::Choose, at: &Literal, block: usize) -> TokenStream {
        let ctx = Ctx::Flow;
        let dead = self.layout.dead_after_choice.get(block).map_or(&[][..], |d| d.as_slice());
        let release = dead.iter().map(|&f| {
            let (name, v) = (self.field(f), self.default_value(&self.ir.slots[f as usize].1));
            quote!(s.#name = #v;)
        });
        let release = quote!(#(#release)*);
        let field = self.choice_field(c.choice_ty);
        let ty = Literal::u32_suffixed(c.choice_ty);
        let collect = self.candidates(c, at);
        let finish_chance = match (&c.chooser, &c.domain) {
            (None, ChooseDomain::Domain(_)) => quote!(sc.odds.finish_domain_reused(__n, #at)?;),
            _ => quote!(),
        };
        // The chooser first, then the candidates (as the interpreter does).
        let chooser = c.chooser.as_ref().map(|p| {
            let p = self.expr(p, ctx);
            quote!(let __player = (#p) as usize;)
        });
        let (node, who) = match &c.chooser {
            Some(_) => {
                let names = self.ir.players.iter().map(|n| Literal::string(n));
                // A move that remembers its options records this key
                // (`apply`): made in place there, not copied (a memcpy call).
                let key = match self.remembered[block] {
                    true => quote! {
                        __sc.offered.clear();
                        ::galac_runtime::info::append_choice_key(#ty, &__sc.#field, &mut __sc.offered);
                        let __key = &__sc.offered[..];
                    },
                    false => quote! {
                        let mut __short = [0u64; 2];
                        let __key = ::galac_runtime::info::choice_key(#ty, &__sc.#field, &mut __short, &mut __sc.words);
                    },
                };
                let set = self.node_infoset(block);
                let ret = self.return_node(quote!(::galac_runtime::game::Node::Decision {
                    player: __player as u32,
                    infoset: __set,
                    n_actions: __n as u32
                }));
                let node = quote! {
                    let __sc = &mut *sc;
                    #key
                    #set
                    #release
                    #ret
                };
                (node, quote!(Some([#(#names),*][__player])))
            }
            None => (
                {
                    let ret = self.return_node(quote!(::galac_runtime::game::Node::Chance { n_outcomes: __n as u32 }));
                    quote!(#release #ret)
                },
                quote!(None),
            ),
        };
        // A record still pending is made first (`deferred`), then a fact
        // kept (`sunk`).
        let flush = self.flush_deferred();
        let flush_sunk = self.flush_sunk();
        quote! {
            #flush
            #flush_sunk
            #chooser
            let mut sc = self.scratch.borrow_mut();
            sc.#field.clear();
            sc.odds.clear();
            #collect
            let __n = sc.#field.len();
            if __n == 0 {
                return Err(::galac_runtime::ops::no_choices(#who, #at));
            }
            #finish_chance
            #node
        }
    }

    /// Pushes the candidates of a choice into the scratch, with their odds.
    fn candidates(&self, c: &ir::Choose, at: &Literal) -> TokenStream {
        let ctx = Ctx::Flow;
        let field = self.choice_field(c.choice_ty);
        let d = match &c.domain {
            ChooseDomain::Domain(d) => d,
            ChooseDomain::Table(entries) => {
                let items = entries.iter().map(|(e, p)| {
                    let (v, num, den) = (self.expr(e, ctx), p.num, p.den);
                    quote! {
                        sc.#field.push(#v);
                        sc.odds.table(::galac_runtime::rational::Ratio { num: #num, den: #den });
                    }
                });
                return quote!(#(#items)*);
            }
        };
        // A candidate is tested on Rust locals, the state left as it is
        // (`apply` binds the chosen one), unless the test may write.
        let mut prelude = TokenStream::new();
        let plan = self.domain_plan(d, ctx, &mut prelude, &mut 0);
        let on_locals = !c.filter.as_ref().is_some_and(writes) && !c.weight.as_ref().is_some_and(writes);
        let bind = match on_locals {
            true if c.filter.is_none() && c.weight.is_none() => quote!(),
            true => {
                let names = self.bind_locals(&c.pattern);
                quote!(let #names = __x.clone();)
            }
            false => self.bind(&c.pattern, quote!(__x.clone()), ctx),
        };
        let weight = c.weight.as_ref().map(|w| {
            let w = self.expr(w, ctx);
            quote!(sc.odds.weigh(#w, #at)?;)
        });
        let Some(f) = &c.filter else {
            self.bound.borrow_mut().clear();
            // A chance over `deal_hands` has as many candidates (and
            // weights) as deals, counted before they are made: room for
            // them at once, not grown by doubling (with every hand, a
            // million). Not over other lists: a few items, the same room
            // from node to node.
            let listed = c.chooser.is_none()
                && matches!(&d.kind, tast::DomainKind::Values(e)
                    if matches!(e.kind, ExprKind::Builtin(crate::typeck::builtins::Builtin::DealHands, _)));
            let reserve = listed.then(|| {
                let size = Self::domain_size(&plan);
                let weights = c.weight.is_some().then(|| quote!(sc.odds.reserve_weights((#size) as usize);));
                quote!(sc.#field.reserve((#size) as usize); #weights)
            });
            let looped = Self::domain_loop(&plan, quote!(#bind #weight sc.#field.push(__x.clone());));
            return quote!({ #prelude #reserve #looped });
        };
        // A candidate the filter rejects leaves the labelled block early,
        // after a step counted before its test. The filter's lookups that
        // outer loops can make are made there.
        let levels = self.hoist_filter(c, &plan);
        let skips = self.filter_skips(f, levels.len());
        let f = self.expr(f, ctx);
        self.clear_hoisted();
        self.bound.borrow_mut().clear();
        let step = quote!(::galac_runtime::ops::step(steps, g.step_limit, #at)?;);
        let body = quote!('cand: { #bind #step if !(#f) { break 'cand; } #weight sc.#field.push(__x.clone()); });
        if counts_steps_in(c) {
            let looped = Self::domain_loop_with(&plan, body, &levels);
            return quote!({ #prelude #looped });
        }
        // When neither the filter nor the weight counts steps of its own,
        // and all the candidates' steps fit in the limit, they are counted
        // at once and the loop checks nothing: the same count, and no
        // step-limit error either way.
        let unchecked = quote!('cand: { #bind if !(#f) { break 'cand; } #weight sc.#field.push(__x.clone()); });
        let size = Self::domain_size(&plan);
        let checked = Self::domain_loop_with(&plan, body, &levels);
        // Unchecked, a level whose lookup fails the clause's first test
        // skips its inner loops (`filter_skips`).
        let skipping: Vec<TokenStream> = levels.iter().zip(skips).map(|(l, s)| quote!(#l #s)).collect();
        let unchecked = Self::domain_loop_with(&plan, unchecked, &skipping);
        quote!({
            #prelude
            let __all: u64 = (#size).saturating_mul(::galac_runtime::ops::STEP);
            if ::galac_runtime::ops::steps_fit(steps, __all) {
                #unchecked
            } else {
                #checked
            }
        })
    }

    /// A Rust pattern binding `p`'s locals to fresh Rust locals, which
    /// expressions read until `bound` is cleared.
    fn bind_locals(&self, p: &tast::Pattern) -> TokenStream {
        match p {
            tast::Pattern::Bind(l) => {
                let name = format_ident!("__b{}", l.0);
                self.bound.borrow_mut().push((l.0, name.clone()));
                quote!(#name)
            }
            tast::Pattern::Wildcard => quote!(_),
            tast::Pattern::Tuple(ps) => {
                let ps = ps.iter().map(|p| self.bind_locals(p));
                quote!((#(#ps,)*))
            }
        }
    }

    /// The `apply` match arms: bind the chosen value, record it, go on.
    pub fn apply_arms(&self) -> TokenStream {
        let arms = self.ir.blocks.iter().enumerate().filter_map(|(i, b)| {
            let Term::Choose(c) = &b.term else { return None };
            let id = i as u32;
            let field = self.choice_field(c.choice_ty);
            let ty_idx = u64::from(c.choice_ty);
            let bind = self.bind(&c.pattern, quote!(__x.clone()), Ctx::Flow);
            let head = [quote!(::galac_runtime::info::CHOSE_TAG), quote!(#ty_idx)];
            let remembered = self.remembered[i];
            let fixed = self.fixed_words(&head, &[quote!(__x)], &[&self.ir.choice_tys[c.choice_ty as usize]]);
            // The offered list, for a choice that remembers it
            // (`crate::offers`): its key, kept by `advance`.
            let push = |words: TokenStream| match remembered {
                true => quote!(info.push_offered(s.info[__player], __player as u32, #words, &sc.offered)),
                false => quote!(info.push(s.info[__player], #words)),
            };
            let record = c.chooser.as_ref().map(|p| {
                let p = self.expr(p, Ctx::Flow);
                match &fixed {
                    Some(_) if self.deferred[i] => {
                        let record = self.defer_record(i);
                        quote! {
                            let __player = (#p) as usize;
                            #record
                        }
                    }
                    Some(words) => {
                        let push = push(quote!(&__w));
                        quote! {
                            let __player = (#p) as usize;
                            #words
                            s.info[__player] = #push;
                        }
                    }
                    None => {
                        let push = push(quote!(&sc.words));
                        quote! {
                            let __player = (#p) as usize;
                            let __sc = &mut *sc;
                            __sc.words.clear();
                            __sc.words.push(::galac_runtime::info::CHOSE_TAG);
                            __sc.words.push(#ty_idx);
                            ::galac_runtime::value::Encode::encode(&__x, &mut __sc.words);
                            let sc = &*__sc;
                            s.info[__player] = #push;
                        }
                    }
                }
            });
            let next = c.next.0;
            // The chooser is evaluated before the pattern is bound, as in the interpreter.
            // Only a choice list that is not fixed-width is encoded in the scratch.
            let sc = if record.is_some() && fixed.is_none() {
                quote!(let mut sc = self.scratch.borrow_mut();)
            } else {
                quote!(let sc = self.scratch.borrow();)
            };
            Some(quote! {
                #id => {
                    #sc
                    let __x = sc.#field[action as usize].clone();
                    #record
                    #bind
                    s.block = #next;
                }
            })
        });
        quote!(#(#arms)*)
    }

    /// `block => choice type` for labels.
    pub fn label_arms(&self) -> TokenStream {
        let arms = self.ir.blocks.iter().enumerate().filter_map(|(i, b)| {
            let Term::Choose(c) = &b.term else { return None };
            let id = i as u32;
            let field = self.choice_field(c.choice_ty);
            let ty = c.choice_ty;
            Some(quote! {
                #id => {
                    let sc = self.scratch.borrow();
                    let mut __w = Vec::new();
                    match sc.#field.get(action as usize) {
                        Some(v) => ::galac_runtime::value::Encode::encode(v, &mut __w),
                        None => return action.to_string(),
                    }
                    self.labeler.value(&__w, #ty)
                }
            })
        });
        quote!(#(#arms)*)
    }

    /// `Game::action_key`: a choice's block and its candidate's words, from
    /// which [`Self::label_arms`] makes the label (the block's choice type
    /// and the words), so that equal keys have equal labels.
    pub fn action_key_fn(&self) -> TokenStream {
        let arms = self.ir.blocks.iter().enumerate().filter_map(|(i, b)| {
            let Term::Choose(c) = &b.term else { return None };
            let id = i as u32;
            let field = self.choice_field(c.choice_ty);
            Some(quote! {
                #id => match self.scratch.borrow().#field.get(action as usize) {
                    Some(v) => {
                        out.push(u64::from(#id));
                        ::galac_runtime::value::Encode::encode(v, out);
                        true
                    }
                    None => false,
                },
            })
        });
        quote! {
            fn action_key(&self, s: &State, action: u32, out: &mut Vec<u64>) -> bool {
                out.clear();
                match s.block {
                    #(#arms)*
                    _ => false,
                }
            }
        }
    }
}

/// Whether a choice's `where` or `weight` counts steps of its own.
fn counts_steps_in(c: &ir::Choose) -> bool {
    c.filter.as_ref().is_some_and(counts_steps) || c.weight.as_ref().is_some_and(counts_steps)
}
