//! Emitting Rust for a lowered game: a state struct with the game's slots
//! as typed fields, and `advance`/`apply` as a state machine over the IR
//! blocks, implementing `galac_runtime::game::Game`.
//!
//! Every name from the .gala file becomes an identifier only through
//! `format_ident!` after mangling (`s3_pot`, `f0_beats`), and every string
//! (labels, locations) only as a `quote`d literal, so a game description
//! cannot inject code. Generated code names the runtime only as `::galac_runtime`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ast::BinOp;
use crate::interp::Locator;
use crate::ir::{self, Inst, Term};
use crate::span::Span;
use crate::typeck::tast::{self, ArithOp, Builtin, ChooseDomain, DomainKind, Expr, ExprKind, Pattern, Place, StmtKind};
use crate::typeck::types::Ty;

/// Where expressions read names: the state's slots (flows) or a fn's locals.
#[derive(Clone, Copy)]
enum Ctx {
    Flow,
    Fn,
    /// Param defaults: params are locals named like the fields.
    Params,
}

pub struct Emitter<'a> {
    ir: &'a ir::Program,
    locator: &'a Locator,
    n_players: usize,
    layout: Layout,
}

use super::clean;
use super::layout::Layout;

/// Whether values of `t` hold a [`List`](galac_runtime::value::List) (a
/// reference-counted allocation), as opposed to plain words.
fn owns_heap(t: &Ty) -> bool {
    match t {
        Ty::Array(..) | Ty::List(_) => true,
        Ty::Tuple(ts) => ts.iter().any(owns_heap),
        Ty::PerPlayer(t) => owns_heap(t),
        Ty::Int | Ty::Card | Ty::Error | Ty::Bool | Ty::Player | Ty::Enum(..) => false,
    }
}

/// How a domain is looped over, once what it is made of is evaluated.
enum DomainPlan {
    /// `for __x in` this iterator, of this many elements (a `u64`).
    Each(TokenStream, TokenStream),
    /// Nested loops over the parts (the product's number names its tuple's parts).
    Product(u32, Vec<DomainPlan>),
}

/// Whether evaluating `e` counts steps of its own (a call of a function, or
/// `combinations`, as the interpreter counts them).
fn counts_steps(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Call(..) | ExprKind::Builtin(Builtin::Combinations, _))
        || e.kind.children().any(counts_steps)
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

fn u8_lit(n: u32) -> Literal {
    Literal::u8_suffixed(n.min(255) as u8)
}

impl<'a> Emitter<'a> {
    pub fn new(ir: &'a ir::Program, locator: &'a Locator) -> Emitter<'a> {
        let empty = Layout { field_of: Vec::new(), fields: Vec::new(), dead_after_choice: Vec::new() };
        let mut e = Emitter { ir, locator, n_players: ir.players.len(), layout: empty };
        let keys: Vec<String> = ir.slots.iter().map(|(_, t)| e.ty(t).to_string()).collect();
        e.layout = Layout::new(ir, |i| keys[i as usize].clone(), |i| owns_heap(&ir.slots[i as usize].1));
        e
    }

    fn at(&self, span: Span) -> Literal {
        Literal::string(&self.locator.at(span))
    }

    /// The state field holding slot `i` (shared with slots never live at the same time).
    fn slot(&self, i: u32) -> proc_macro2::Ident {
        let field = self.layout.field_of.get(i as usize).map_or(i, |f| self.layout.fields[*f as usize]);
        self.field(field)
    }

    /// The field named after slot `first`, the first slot stored in it.
    fn field(&self, first: u32) -> proc_macro2::Ident {
        let name = self.ir.slots.get(first as usize).map_or(String::new(), |(n, _)| clean(n));
        format_ident!("s{}_{}", first, name)
    }

    fn local(&self, i: u32) -> proc_macro2::Ident {
        format_ident!("l{}", i)
    }

    fn fn_name(&self, f: tast::FnId) -> proc_macro2::Ident {
        format_ident!("f{}_{}", f.0, clean(&self.ir.fns[f.0 as usize].name))
    }

    fn param(&self, p: tast::ParamId) -> proc_macro2::Ident {
        format_ident!("p{}_{}", p.0, clean(&self.ir.params[p.0 as usize].name))
    }

    pub fn ty(&self, t: &Ty) -> TokenStream {
        match t {
            Ty::Int | Ty::Card | Ty::Error => quote!(i64),
            Ty::Bool => quote!(bool),
            Ty::Player | Ty::Enum(..) => quote!(u8),
            Ty::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.ty(t));
                quote!((#(#ts,)*))
            }
            Ty::PerPlayer(t) => {
                let t = self.ty(t);
                let n = self.n_players;
                quote!([#t; #n])
            }
            Ty::Array(t, _) | Ty::List(t) => {
                let t = self.ty(t);
                quote!(::galac_runtime::value::List<#t>)
            }
        }
    }

    fn name_read(&self, ctx: Ctx, id: u32) -> TokenStream {
        match ctx {
            Ctx::Flow => {
                let f = self.slot(id);
                quote!(s.#f)
            }
            Ctx::Fn | Ctx::Params => {
                let l = self.local(id);
                quote!(#l)
            }
        }
    }

    /// A param's default value, computed from the earlier params.
    pub fn param_default_expr(&self, e: &Expr) -> TokenStream {
        self.expr(e, Ctx::Params)
    }

    /// A slice view of a sequence value.
    fn slice(&self, e: &Expr, ctx: Ctx) -> TokenStream {
        let x = self.by_ref(e, ctx);
        match e.ty {
            Ty::PerPlayer(_) => quote!((&#x[..])),
            _ => quote!(#x.as_slice()),
        }
    }

    /// `e` as an expression that can be borrowed: a name is read in place
    /// (no clone of a list), anything else is computed into a temporary.
    fn by_ref(&self, e: &Expr, ctx: Ctx) -> TokenStream {
        match &e.kind {
            ExprKind::Var(v) => self.name_read(Ctx::Flow, v.0),
            ExprKind::Local(l) => self.name_read(ctx, l.0),
            _ => {
                let x = self.expr(e, ctx);
                quote!((#x))
            }
        }
    }

    /// The words `Encode` writes for a value of type `ty` held in `v` (a
    /// name), when their number does not depend on the value.
    fn fixed_words(&self, ty: &Ty, v: &TokenStream) -> Option<Vec<TokenStream>> {
        match ty {
            Ty::Int | Ty::Card | Ty::Error => Some(vec![quote!((#v as u64))]),
            Ty::Bool | Ty::Player | Ty::Enum(..) => Some(vec![quote!(u64::from(#v))]),
            Ty::Tuple(ts) => {
                let mut words = vec![{
                    let n = ts.len() as u64;
                    quote!(#n)
                }];
                for (i, t) in ts.iter().enumerate() {
                    let i = syn::Index::from(i);
                    words.extend(self.fixed_words(t, &quote!(#v.#i))?);
                }
                Some(words)
            }
            Ty::PerPlayer(t) => {
                let mut words = vec![{
                    let n = self.n_players as u64;
                    quote!(#n)
                }];
                for i in 0..self.n_players {
                    words.extend(self.fixed_words(t, &quote!(#v[#i]))?);
                }
                Some(words)
            }
            Ty::Array(..) | Ty::List(_) => None,
        }
    }

    /// A Rust expression computing `e` (inside a fn returning `Result<_, GameError>`).
    fn expr(&self, e: &Expr, ctx: Ctx) -> TokenStream {
        use ExprKind as K;
        let at = self.at(e.span);
        match &e.kind {
            K::Int(n) => {
                let n = Literal::i64_suffixed(*n);
                quote!(#n)
            }
            K::Bool(b) => quote!(#b),
            K::Player(i) | K::Variant(_, i) => {
                let l = u8_lit(*i);
                quote!(#l)
            }
            K::Param(p) => {
                let p = self.param(*p);
                match ctx {
                    Ctx::Params => quote!(#p),
                    _ => quote!(g.params.#p),
                }
            }
            K::Var(v) => {
                let r = self.name_read(Ctx::Flow, v.0);
                quote!(#r.clone())
            }
            K::Local(l) => {
                let r = self.name_read(ctx, l.0);
                quote!(#r.clone())
            }
            K::Players => {
                let n = u8_lit(self.n_players as u32);
                quote!(::galac_runtime::value::List::from_vec((0..#n).collect::<Vec<u8>>()))
            }
            K::Call(f, args) => {
                // The arguments, then a step for the call (as the interpreter counts).
                let name = self.fn_name(*f);
                let names: Vec<proc_macro2::Ident> = (0..args.len()).map(|i| format_ident!("__c{}", i)).collect();
                let args = args.iter().map(|a| self.expr(a, ctx));
                quote!({
                    #(let #names = #args;)*
                    ::galac_runtime::ops::step(steps, g.step_limit, #at)?;
                    #name(g, #(#names,)* steps)?
                })
            }
            K::Builtin(b, args) => self.builtin(*b, args, ctx, &at),
            K::Index(a, i) => {
                let idx = self.expr(i, ctx);
                match a.ty {
                    Ty::PerPlayer(_) => {
                        let x = self.by_ref(a, ctx);
                        quote!(#x[(#idx) as usize].clone())
                    }
                    _ => {
                        let xs = self.slice(a, ctx);
                        quote!(::galac_runtime::ops::index(#xs, #idx, #at)?.clone())
                    }
                }
            }
            K::Field(a, n) => {
                let n = syn::Index::from(*n as usize);
                match &a.kind {
                    ExprKind::Var(_) | ExprKind::Local(_) => {
                        let x = self.by_ref(a, ctx);
                        quote!(#x.#n.clone())
                    }
                    _ => {
                        let x = self.expr(a, ctx);
                        quote!((#x).#n)
                    }
                }
            }
            K::Neg(a) => {
                let x = self.expr(a, ctx);
                quote!(::galac_runtime::ops::neg(#x, #at)?)
            }
            K::Not(a) => {
                let x = self.expr(a, ctx);
                quote!((!(#x)))
            }
            K::Binary(op, a, b) => {
                let (x, y) = match op {
                    // Comparisons borrow their operands (no clone of a list).
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        (self.by_ref(a, ctx), self.by_ref(b, ctx))
                    }
                    _ => (self.expr(a, ctx), self.expr(b, ctx)),
                };
                match op {
                    BinOp::Add => quote!(::galac_runtime::ops::add(#x, #y, #at)?),
                    BinOp::Sub => quote!(::galac_runtime::ops::sub(#x, #y, #at)?),
                    BinOp::Mul => quote!(::galac_runtime::ops::mul(#x, #y, #at)?),
                    BinOp::Div => quote!(::galac_runtime::ops::div(#x, #y, #at)?),
                    BinOp::Rem => quote!(::galac_runtime::ops::rem(#x, #y, #at)?),
                    BinOp::Eq => quote!(((#x) == (#y))),
                    BinOp::Ne => quote!(((#x) != (#y))),
                    BinOp::Lt => quote!(((#x) < (#y))),
                    BinOp::Le => quote!(((#x) <= (#y))),
                    BinOp::Gt => quote!(((#x) > (#y))),
                    BinOp::Ge => quote!(((#x) >= (#y))),
                    BinOp::And => quote!(((#x) && (#y))),
                    BinOp::Or => quote!(((#x) || (#y))),
                }
            }
            K::Range { lo, hi, inclusive } => {
                let (lo, hi) = (self.expr(lo, ctx), self.expr(hi, ctx));
                quote!(::galac_runtime::ops::range(#lo, #hi, #inclusive, #at)?)
            }
            K::If(c, a, b) => {
                let (c, a, b) = (self.expr(c, ctx), self.expr(a, ctx), self.expr(b, ctx));
                quote!((if #c { #a } else { #b }))
            }
            K::Tuple(xs) => {
                let xs = xs.iter().map(|x| self.expr(x, ctx));
                quote!((#(#xs,)*))
            }
            K::List(xs) => {
                let items = xs.iter().map(|x| self.expr(x, ctx));
                match e.ty {
                    Ty::PerPlayer(_) => quote!([#(#items),*]),
                    _ => {
                        let t = self.ty(e.ty.element().unwrap_or(&Ty::Int));
                        quote!(::galac_runtime::value::List::from_vec(::std::vec![#(#items),*] as Vec<#t>))
                    }
                }
            }
            K::Repeat(v, n) => {
                let (v, n) = (self.expr(v, ctx), self.expr(n, ctx));
                quote!(::galac_runtime::ops::repeat(#v, #n, #at)?)
            }
            K::PerPlayerFill(v) => {
                let v = self.expr(v, ctx);
                quote!({ let __v = #v; ::std::array::from_fn(|_| __v.clone()) })
            }
            K::Error => quote!(unreachable!("internal error: an erroneous expression was compiled, please report")),
        }
    }

    fn builtin(&self, b: Builtin, args: &[Expr], ctx: Ctx, at: &Literal) -> TokenStream {
        use Builtin::*;
        let a = |i: usize| self.expr(&args[i], ctx);
        match b {
            Len => match args[0].ty {
                Ty::PerPlayer(_) => {
                    let n = self.n_players as i64;
                    quote!(#n)
                }
                _ => {
                    let x = self.by_ref(&args[0], ctx);
                    quote!(#x.len())
                }
            },
            Contains => {
                let (xs, x) = (self.slice(&args[0], ctx), a(1));
                quote!(#xs.contains(&(#x)))
            }
            Count => {
                let flat = args[0].ty.element().is_some_and(|t| *t == args[1].ty);
                if flat {
                    // The list, then the element once (outside the closure: it may fail).
                    let (xs, x) = (self.by_ref(&args[0], ctx), a(1));
                    quote!({
                        let __xs = &#xs;
                        let __v = #x;
                        __xs.iter().filter(|__y| **__y == __v).count() as i64
                    })
                } else {
                    let (xs, x) = (self.slice(&args[0], ctx), a(1));
                    quote!(::galac_runtime::ops::count2d(#xs, &(#x)))
                }
            }
            Push => {
                let (xs, x) = (self.by_ref(&args[0], ctx), a(1));
                quote!(#xs.push(#x))
            }
            Remove => {
                let (xs, x) = (self.by_ref(&args[0], ctx), self.by_ref(&args[1], ctx));
                quote!(#xs.remove(&#x))
            }
            Sum => {
                let xs = self.slice(&args[0], ctx);
                quote!(::galac_runtime::ops::sum(#xs, #at)?)
            }
            Sort => match args[0].ty {
                Ty::PerPlayer(_) => {
                    let xs = a(0);
                    quote!({ let mut __a = #xs; __a.sort(); __a })
                }
                _ => {
                    let xs = self.by_ref(&args[0], ctx);
                    quote!(#xs.sorted())
                }
            },
            Combinations => {
                // A step per sub-list and one for the builtin (as the interpreter counts).
                let (xs, k) = (self.by_ref(&args[0], ctx), a(1));
                quote!({
                    let __xs = &#xs;
                    let __k = ::galac_runtime::ops::combination_size(#k, #at)?;
                    let __all = __xs.combinations(__k);
                    *steps += __all.len() as u64;
                    ::galac_runtime::ops::step(steps, g.step_limit, #at)?;
                    __all
                })
            }
            Min => {
                let (x, y) = (a(0), a(1));
                quote!(::std::cmp::min::<i64>(#x, #y))
            }
            Max => {
                let (x, y) = (a(0), a(1));
                quote!(::std::cmp::max::<i64>(#x, #y))
            }
            Abs => {
                let x = a(0);
                quote!(::galac_runtime::ops::abs(#x, #at)?)
            }
            Next => {
                let (p, n) = (a(0), u8_lit(self.n_players as u32));
                quote!(::galac_runtime::ops::next_player(#p, #n))
            }
            Index => {
                let p = a(0);
                quote!((#p as i64))
            }
            Deck => {
                let (r, s) = (a(0), a(1));
                quote!(::galac_runtime::ops::deck(#r, #s, #at)?)
            }
            Card => {
                let (r, s) = (a(0), a(1));
                quote!(::galac_runtime::ops::card(#r, #s, #at)?)
            }
            Rank => {
                let c = a(0);
                quote!(::galac_runtime::ops::rank(#c))
            }
            Suit => {
                let c = a(0);
                quote!(::galac_runtime::ops::suit(#c))
            }
            Cells => {
                let (r, c) = (a(0), a(1));
                quote!(::galac_runtime::ops::cells(#r, #c, #at)?)
            }
            HasLine => {
                let (board, k, v) = (self.slice(&args[0], ctx), a(1), a(2));
                quote!(::galac_runtime::ops::has_line(#board, #k, &(#v)))
            }
        }
    }

    /// `&mut` to a place.
    fn place_mut(&self, p: &Place, ctx: Ctx, at: &Literal) -> TokenStream {
        match p {
            Place::Var(v) => {
                let r = self.name_read(Ctx::Flow, v.0);
                quote!((&mut #r))
            }
            Place::Local(l) => {
                let r = self.name_read(ctx, l.0);
                quote!((&mut #r))
            }
            Place::Index(base, i) => {
                let b = self.place_mut(base, ctx, at);
                let idx = self.expr(i, ctx);
                if matches!(i.ty, Ty::Player) {
                    quote!((&mut (#b)[(#idx) as usize]))
                } else {
                    quote!(::galac_runtime::ops::index_mut(#b, #idx, #at)?)
                }
            }
        }
    }

    fn assign(&self, place: &Place, op: Option<ArithOp>, value: &Expr, ctx: Ctx, span: Span) -> TokenStream {
        let at = self.at(span);
        let v = self.expr(value, ctx);
        // Index expressions are evaluated before the place is borrowed.
        let (prep, place) = self.place_with_indices(place, ctx, &at);
        let store = match op {
            None => quote!(*__p = __v;),
            Some(ArithOp::Add) => quote!(*__p = ::galac_runtime::ops::add(*__p, __v, #at)?;),
            Some(ArithOp::Sub) => quote!(*__p = ::galac_runtime::ops::sub(*__p, __v, #at)?;),
            Some(ArithOp::Mul) => quote!(*__p = ::galac_runtime::ops::mul(*__p, __v, #at)?;),
        };
        quote!({ let __v = #v; #prep let __p = #place; #store })
    }

    /// Evaluates the indices of a place into locals first (they may read the
    /// state), then returns the `&mut` expression using them.
    fn place_with_indices(&self, p: &Place, ctx: Ctx, at: &Literal) -> (TokenStream, TokenStream) {
        let mut prep = TokenStream::new();
        let mut n = 0;
        let place = self.place_indexed(p, ctx, at, &mut prep, &mut n);
        (prep, place)
    }

    fn place_indexed(&self, p: &Place, ctx: Ctx, at: &Literal, prep: &mut TokenStream, n: &mut usize) -> TokenStream {
        match p {
            Place::Index(base, i) => {
                let b = self.place_indexed(base, ctx, at, prep, n);
                let idx_name = format_ident!("__i{}", *n);
                *n += 1;
                let idx = self.expr(i, ctx);
                prep.extend(quote!(let #idx_name = #idx;));
                if matches!(i.ty, Ty::Player) {
                    quote!((&mut (*#b)[(#idx_name) as usize]))
                } else {
                    quote!(::galac_runtime::ops::index_mut(#b, #idx_name, #at)?)
                }
            }
            other => self.place_mut(other, ctx, at),
        }
    }

    /// Destructures `value` into the names of a pattern.
    fn bind(&self, p: &Pattern, value: TokenStream, ctx: Ctx) -> TokenStream {
        match p {
            Pattern::Bind(l) => {
                let r = self.name_read(ctx, l.0);
                quote!(#r = #value;)
            }
            Pattern::Wildcard => quote!(let _ = #value;),
            Pattern::Tuple(ps) => {
                let names: Vec<proc_macro2::Ident> = (0..ps.len()).map(|i| format_ident!("__t{}", i)).collect();
                let binds = ps.iter().zip(&names).map(|(p, n)| self.bind(p, quote!(#n), ctx));
                quote!({ let (#(#names,)*) = #value; #(#binds)* })
            }
        }
    }

    /// Runs `body` with `__x` bound to each element of a domain, in order.
    /// What the domain is made of (bounds, lists; every part of a product)
    /// is evaluated once, in order, before the loops, as the interpreter
    /// enumerates it.
    fn for_each(&self, d: &tast::Domain, ctx: Ctx, body: TokenStream) -> TokenStream {
        let mut prelude = TokenStream::new();
        let plan = self.domain_plan(d, ctx, &mut prelude, &mut 0);
        let looped = Self::domain_loop(&plan, body);
        quote!({ #prelude #looped })
    }

    /// Evaluates what `d` needs into locals (appended to `prelude`; `next`
    /// numbers them) and says how to loop over its elements.
    fn domain_plan(&self, d: &tast::Domain, ctx: Ctx, prelude: &mut TokenStream, next: &mut u32) -> DomainPlan {
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
                (ExprKind::Players, _) => {
                    let n = u8_lit(self.n_players as u32);
                    DomainPlan::Each(quote!(0..#n), quote!((#n as u64)))
                }
                (_, Ty::PerPlayer(_)) => {
                    let (xs, v) = (self.expr(e, ctx), format_ident!("__xs{}", id));
                    prelude.extend(quote!(let #v = #xs;));
                    DomainPlan::Each(quote!(#v.clone()), quote!((#v.len() as u64)))
                }
                _ => {
                    // An owned (shared, not copied) list: the body may change the state.
                    let (xs, v) = (self.expr(e, ctx), format_ident!("__xs{}", id));
                    prelude.extend(quote!(let #v = #xs;));
                    DomainPlan::Each(quote!(#v.iter().cloned()), quote!((#v.len() as u64)))
                }
            },
            DomainKind::Enum(e) => {
                let n = u8_lit(self.ir.enums[e.0 as usize].variants.len() as u32);
                DomainPlan::Each(quote!(0..#n), quote!((#n as u64)))
            }
            DomainKind::Bool => DomainPlan::Each(quote!([false, true]), quote!(2u64)),
            DomainKind::Product(parts) => {
                DomainPlan::Product(id, parts.iter().map(|p| self.domain_plan(p, ctx, prelude, next)).collect())
            }
        }
    }

    /// The number of elements of a planned domain (a `u64` expression).
    fn domain_size(plan: &DomainPlan) -> TokenStream {
        match plan {
            DomainPlan::Each(_, size) => size.clone(),
            DomainPlan::Product(_, parts) => {
                let sizes = parts.iter().map(Self::domain_size);
                quote!((1u64 #(.saturating_mul(#sizes))*))
            }
        }
    }

    /// The loops of a planned domain around `body`, `__x` bound to each element.
    fn domain_loop(plan: &DomainPlan, body: TokenStream) -> TokenStream {
        match plan {
            DomainPlan::Each(iter, _) => quote!(for __x in #iter { #body }),
            DomainPlan::Product(id, parts) => {
                // Nested loops, the last part fastest; the tuple is built
                // innermost (names by product, so nested products do not
                // shadow each other's).
                let names: Vec<proc_macro2::Ident> =
                    (0..parts.len()).map(|i| format_ident!("__t{}_{}", id, i)).collect();
                let mut inner = quote!({ let __x = (#(#names.clone(),)*); #body });
                for (part, name) in parts.iter().zip(&names).rev() {
                    inner = Self::domain_loop(part, quote!(let #name = __x; #inner));
                }
                inner
            }
        }
    }

    /// The body of a pure fn (structured statements over locals).
    fn fn_block(&self, b: &tast::Block) -> TokenStream {
        let stmts = b.stmts.iter().map(|s| self.fn_stmt(s));
        quote!(#(#stmts)*)
    }

    fn fn_stmt(&self, s: &tast::Stmt) -> TokenStream {
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
                quote!(let mut #l: #t = ::std::default::Default::default();)
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

    /// Instructions of a block, inside `advance`.
    fn insts(&self, block: &ir::Block, span: Span) -> TokenStream {
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

    fn choice_field(&self, ty: u32) -> proc_macro2::Ident {
        format_ident!("c{}", ty)
    }

    /// Which blocks are emitted inside their only predecessor (a jump,
    /// branch, reveal or payoff) instead of as a match arm of their own, so
    /// that straight-line code and `if`s do not go through the dispatch.
    /// Chains are cut every `MAX_INLINE_DEPTH` blocks (bounded nesting).
    fn inlined_blocks(&self) -> Vec<bool> {
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
    fn goto(&self, to: ir::BlockId, inlined: &[bool]) -> TokenStream {
        if inlined[to.0 as usize] {
            self.block_code(to.0 as usize, inlined)
        } else {
            let to = to.0;
            quote!(block = #to;)
        }
    }

    /// The code of one block (its own scope), then where it goes.
    fn block_code(&self, i: usize, inlined: &[bool]) -> TokenStream {
        {
            let b = &self.ir.blocks[i];
            let id = i as u32;
            let span = self.ir.block_spans[i];
            let at = self.at(span);
            let insts = self.insts(b, span);
            // One step for the block and one per instruction, counted and
            // checked once on entry (as the interpreter does).
            let n_steps = 1 + b.insts.len() as u64;
            let count = quote! {
                *steps += #n_steps;
                if *steps > g.step_limit {
                    return Err(step_limit_error(g.step_limit, #at));
                }
            };
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
                    let fact = u64::from(fact.0);
                    // Fixed-width facts are encoded into an array on the stack.
                    let names: Vec<TokenStream> = (0..args.len())
                        .map(|i| {
                            let n = format_ident!("__a{}", i);
                            quote!(#n)
                        })
                        .collect();
                    let fixed: Option<Vec<Vec<TokenStream>>> =
                        args.iter().zip(&names).map(|(a, n)| self.fixed_words(&a.ty, n)).collect();
                    let values: Vec<TokenStream> = args.iter().map(|a| self.expr(a, ctx)).collect();
                    let args = args.iter().map(|a| {
                        let v = self.by_ref(a, ctx);
                        quote!(::galac_runtime::value::Encode::encode(&#v, &mut sc.words);)
                    });
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
                    let go = self.goto(*next, inlined);
                    let body = match fixed {
                        Some(words) => {
                            let words = words.into_iter().flatten();
                            quote! {
                                #(let #names = #values;)*
                                let __w = [#fact, #(#words),*];
                                for __p in #targets { s.info[__p] = info.push(s.info[__p], &__w); }
                            }
                        }
                        None => quote! {
                            let mut sc = self.scratch.borrow_mut();
                            sc.words.clear();
                            sc.words.push(#fact);
                            #(#args)*
                            for __p in #targets { s.info[__p] = info.push(s.info[__p], &sc.words); }
                        },
                    };
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

    fn choose_advance(&self, c: &ir::Choose, at: &Literal, block: usize) -> TokenStream {
        let ctx = Ctx::Flow;
        let dead = self.layout.dead_after_choice.get(block).map_or(&[][..], |d| d.as_slice());
        let dead = dead.iter().map(|&f| self.field(f));
        let release = quote!(#(s.#dead = ::std::default::Default::default();)*);
        let field = self.choice_field(c.choice_ty);
        let ty = Literal::u32_suffixed(c.choice_ty);
        let bind = self.bind(&c.pattern, quote!(__x.clone()), ctx);
        let filter = c.filter.as_ref().map(|f| {
            let f = self.expr(f, ctx);
            quote!(::galac_runtime::ops::step(steps, g.step_limit, #at)?; if !(#f) { break 'cand; })
        });
        let weight = c.weight.as_ref().map(|w| {
            let w = self.expr(w, ctx);
            quote! {
                let __w: i64 = #w;
                if __w <= 0 { return Err(::galac_runtime::game::GameError::BadWeight { weight: __w, at: #at.into() }); }
                sc.weights.push(__w as u64);
            }
        });
        let collect = match &c.domain {
            ChooseDomain::Domain(d) => {
                // A candidate the filter rejects leaves the labelled block early.
                let body = quote!('cand: { #bind #filter #weight sc.#field.push(__x.clone()); });
                match &c.filter {
                    // A step per candidate, counted before its filter. When
                    // neither the filter nor the weight counts steps of its
                    // own, and all the candidates' steps fit in the limit,
                    // they are counted at once and the loop checks nothing:
                    // the same count, and no step-limit error either way.
                    Some(f) if !counts_steps(f) && !c.weight.as_ref().is_some_and(counts_steps) => {
                        let f = self.expr(f, ctx);
                        let unchecked =
                            quote!('cand: { #bind if !(#f) { break 'cand; } #weight sc.#field.push(__x.clone()); });
                        let mut prelude = TokenStream::new();
                        let plan = self.domain_plan(d, ctx, &mut prelude, &mut 0);
                        let size = Self::domain_size(&plan);
                        let (checked, unchecked) =
                            (Self::domain_loop(&plan, body), Self::domain_loop(&plan, unchecked));
                        quote!({
                            #prelude
                            let __all = #size;
                            if __all <= g.step_limit.saturating_sub(*steps) {
                                *steps += __all;
                                #unchecked
                            } else {
                                #checked
                            }
                        })
                    }
                    _ => self.for_each(d, ctx, body),
                }
            }
            ChooseDomain::Table(entries) => {
                let items = entries.iter().map(|(e, n, d)| {
                    let v = self.expr(e, ctx);
                    let (n, d) = (*n as u64, *d as u64);
                    quote! {
                        sc.#field.push(#v);
                        sc.probs.push(::galac_runtime::rational::Ratio::new(#n, #d).unwrap_or(::galac_runtime::rational::Ratio::ZERO));
                    }
                });
                quote!(#(#items)*)
            }
        };
        let uniform_or_weights = match (&c.chooser, &c.domain) {
            (None, ChooseDomain::Domain(_)) => quote! {
                if sc.weights.is_empty() { let __n = sc.#field.len(); sc.weights.resize(__n, 1); }
                let __w = ::std::mem::take(&mut sc.weights);
                let mut __probs = ::std::mem::take(&mut sc.probs);
                let __ok = ::galac_runtime::rational::normalize(&__w, &mut __probs);
                sc.weights = __w;
                sc.probs = __probs;
                if __ok.is_none() {
                    return Err(::galac_runtime::game::GameError::Other { message: "chance weights are too large to add up".into(), at: #at.into() });
                }
            },
            _ => quote!(),
        };
        // The chooser first, then the candidates (as the interpreter does).
        let chooser = c.chooser.as_ref().map(|p| {
            let p = self.expr(p, ctx);
            quote!(let __player = (#p) as usize;)
        });
        let node = match &c.chooser {
            Some(_) => {
                quote! {
                    let __sc = &mut *sc;
                    let mut __short = [0u64; 2];
                    let __key = ::galac_runtime::info::choice_key(#ty, &__sc.#field, &mut __short, &mut __sc.words);
                    let (__set, _) = info.infoset(__player as u32, s.info[__player], __key);
                    #release
                    return Ok(::galac_runtime::game::Node::Decision { player: __player as u32, infoset: __set, n_actions: __n as u32 });
                }
            }
            None => quote!(#release return Ok(::galac_runtime::game::Node::Chance { n_outcomes: __n as u32 });),
        };
        let who = match &c.chooser {
            Some(_) => {
                let names = self.ir.players.iter().map(|n| Literal::string(n));
                quote!([#(#names),*][__player].to_string())
            }
            None => quote!("nature".to_string()),
        };
        quote! {
            #chooser
            let mut sc = self.scratch.borrow_mut();
            sc.#field.clear();
            sc.weights.clear();
            sc.probs.clear();
            #collect
            let __n = sc.#field.len();
            if __n == 0 {
                return Err(::galac_runtime::game::GameError::NoChoices { who: #who, at: #at.into() });
            }
            #uniform_or_weights
            #node
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
            let fixed = self.fixed_words(&self.ir.choice_tys[c.choice_ty as usize], &quote!(__x));
            let record = c.chooser.as_ref().map(|p| {
                let p = self.expr(p, Ctx::Flow);
                match &fixed {
                    Some(words) => quote! {
                        let __player = (#p) as usize;
                        let __w = [::galac_runtime::info::CHOSE_TAG, #ty_idx, #(#words),*];
                        s.info[__player] = info.push(s.info[__player], &__w);
                    },
                    None => quote! {
                        let __player = (#p) as usize;
                        sc.words.clear();
                        sc.words.push(::galac_runtime::info::CHOSE_TAG);
                        sc.words.push(#ty_idx);
                        ::galac_runtime::value::Encode::encode(&__x, &mut sc.words);
                        s.info[__player] = info.push(s.info[__player], &sc.words);
                    },
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

    pub fn state_fields(&self) -> TokenStream {
        let fields = self.layout.fields.iter().map(|&first| {
            let f = self.field(first);
            let t = self.ty(&self.ir.slots[first as usize].1);
            quote!(#f: #t,)
        });
        quote!(#(#fields)*)
    }

    pub fn scratch_fields(&self) -> TokenStream {
        let fields = self.ir.choice_tys.iter().enumerate().map(|(i, ty)| {
            let f = self.choice_field(i as u32);
            let t = self.ty(ty);
            quote!(#f: Vec<#t>,)
        });
        quote!(#(#fields)*)
    }

    pub fn var_inits(&self) -> TokenStream {
        let inits = self.ir.var_inits.iter().enumerate().map(|(i, e)| {
            let f = self.slot(i as u32);
            let v = self.expr(e, Ctx::Flow);
            quote!(s.#f = #v;)
        });
        quote!(#(#inits)*)
    }

    pub fn n_players(&self) -> usize {
        self.n_players
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

#[cfg(test)]
mod tests {
    /// The generated fn items of `source`, each with whether it is always inlined.
    fn inlined_fns(source: &str) -> Vec<(String, bool)> {
        let interp = crate::driver::load_interp("t.gala", source.as_bytes(), &[]).expect("valid game");
        let code = super::super::emit_game(interp.ir(), interp.locator(), "t.gala").expect("code");
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
