//! Expressions, places and patterns: every operation and builtin becomes a
//! call of `galac_runtime::ops`, the functions the interpreter calls too.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::emitter::{Ctx, Emitter};
use crate::ast::BinOp;
use crate::span::Span;
use crate::typeck::tast::{ArithOp, Builtin, Expr, ExprKind, Pattern, Place};
use crate::typeck::types::Ty;

impl Emitter<'_> {
    /// A Rust expression computing `e` (inside a fn returning `Result<_, GameError>`).
    pub(super) fn expr(&self, e: &Expr, ctx: Ctx) -> TokenStream {
        use ExprKind as K;
        let at = self.at(e.span);
        match &e.kind {
            K::Int(n) => {
                let n = Literal::i64_suffixed(*n);
                quote!(#n)
            }
            K::Bool(b) => quote!(#b),
            K::Player(i) | K::Variant(_, i) => {
                let l = self.small_lit(&e.ty, *i);
                quote!(#l)
            }
            K::Param(p) => {
                let p = self.param(*p);
                // A list (a board, a range) is shared, never moved out.
                let clone = if matches!(e.ty, Ty::List(_)) { quote!(.clone()) } else { quote!() };
                match ctx {
                    Ctx::Params => quote!(#p #clone),
                    _ => quote!(g.params.#p #clone),
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
                let n = self.small_lit(&Ty::Player, self.n_players as u32);
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
            K::Index(a, i) => match self.hoisted_read(e, ctx) {
                Some(read) => quote!(#read.clone()),
                None => self.index(a, i, ctx, &at),
            },
            K::Field(a, n) => {
                let n = syn::Index::from(*n as usize);
                match &a.kind {
                    ExprKind::Var(_) | ExprKind::Local(_) | ExprKind::Index(..) => {
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
            K::Binary(op, a, b) => self.binary(*op, a, b, ctx, &at),
            K::Range { lo, hi, inclusive } => {
                let (lo, hi) = (self.expr(lo, ctx), self.expr(hi, ctx));
                quote!(::galac_runtime::ops::range(#lo, #hi, #inclusive, steps, g.step_limit, #at)?)
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
                    // Typed, so that an empty one (`xs == []`) is too.
                    Ty::Array(..) if self.fixed_len(&e.ty).is_some() => {
                        let t = self.ty(&e.ty);
                        quote!({ let __a: #t = [#(#items),*]; __a })
                    }
                    _ => {
                        let t = self.ty(e.ty.element().unwrap_or(&Ty::Int));
                        quote!(::galac_runtime::value::List::from_vec(::std::vec::Vec::<#t>::from([#(#items),*])))
                    }
                }
            }
            K::Repeat(v, n) => {
                let (v, n) = (self.expr(v, ctx), self.expr(n, ctx));
                match self.fixed_len(&e.ty) {
                    Some(len) => {
                        quote!(::galac_runtime::ops::repeat_array::<_, #len>(#v, #n, steps, g.step_limit, #at)?)
                    }
                    None => quote!(::galac_runtime::ops::repeat(#v, #n, steps, g.step_limit, #at)?),
                }
            }
            K::PerPlayerFill(v) => {
                let v = self.expr(v, ctx);
                // The length is spelled out: `[x; players] == [y; players]`
                // leaves nothing else to infer it from.
                let n = Literal::usize_unsuffixed(self.n_players);
                quote!({ let __v = #v; ::std::array::from_fn::<_, #n, _>(|_| __v.clone()) })
            }
            K::Error => quote!(unreachable!("internal error: an erroneous expression was compiled, please report")),
        }
    }

    /// A binary operator: arithmetic through `ops` (checked), comparisons
    /// and connectives as Rust's.
    fn binary(&self, op: BinOp, a: &Expr, b: &Expr, ctx: Ctx, at: &Literal) -> TokenStream {
        let (x, y) = match op {
            // Comparisons borrow their operands (no clone of a list).
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                (self.by_ref(a, ctx), self.by_ref(b, ctx))
            }
            _ => (self.expr(a, ctx), self.expr(b, ctx)),
        };
        if matches!(op, BinOp::Eq | BinOp::Ne) && a.ty.list_depth() > 0 {
            // A step per cell read, as the interpreter takes them
            // (`ops::equality_cells`), before comparing.
            let cells = equality_cells(quote!(__l), &a.ty);
            let equal = if op == BinOp::Eq { quote!(__l == __r) } else { quote!(__l != __r) };
            return quote!({
                let (__l, __r) = (&#x, &#y);
                ::galac_runtime::ops::steps(steps, #cells * ::galac_runtime::ops::STEP, g.step_limit, #at)?;
                #equal
            });
        }
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

    /// `a[i]`: a per-player array by the player, else checked by `ops::index`.
    fn index(&self, a: &Expr, i: &Expr, ctx: Ctx, at: &Literal) -> TokenStream {
        let item = self.item_ref(a, i, ctx, at);
        quote!(#item.clone())
    }

    /// `a[i]` as a place that can be borrowed (see [`Self::by_ref`]); `a`
    /// is borrowed too, so `board[r][c]` reads the cell without a copy of `board[r]`.
    pub(super) fn item_ref(&self, a: &Expr, i: &Expr, ctx: Ctx, at: &Literal) -> TokenStream {
        let idx = self.expr(i, ctx);
        match a.ty {
            Ty::PerPlayer(_) => {
                let x = self.by_ref(a, ctx);
                quote!(#x[(#idx) as usize])
            }
            _ => {
                let xs = self.slice(a, ctx);
                quote!((*::galac_runtime::ops::index(#xs, #idx, #at)?))
            }
        }
    }

    /// A builtin: a call of its `galac_runtime::ops` function.
    pub(super) fn builtin(&self, b: Builtin, args: &[Expr], ctx: Ctx, at: &Literal) -> TokenStream {
        use Builtin::*;
        let a = |i: usize| self.expr(&args[i], ctx);
        let slice = |i: usize| self.slice(&args[i], ctx);
        let ops = quote!(::galac_runtime::ops);
        match b {
            // A length known here is still read after its argument (which
            // may fail or take steps: `len(board[i])`, `len(sort(xs))`).
            Len => match (&args[0].ty, self.fixed_len(&args[0].ty)) {
                (Ty::PerPlayer(_), _) => {
                    let (x, n) = (self.by_ref(&args[0], ctx), self.n_players as i64);
                    quote!({ let _ = &#x; #n })
                }
                (_, Some(n)) => {
                    let (x, n) = (self.by_ref(&args[0], ctx), n as i64);
                    quote!({ let _ = &#x; #n })
                }
                _ => {
                    let x = self.by_ref(&args[0], ctx);
                    quote!(#x.len())
                }
            },
            Contains => {
                let (xs, x) = (slice(0), a(1));
                quote!({ let __x = #x; #ops::contains(#xs, &__x, steps, g.step_limit, #at)? })
            }
            Count => {
                if let Some(read) = self.scanned_count(args, at) {
                    return read;
                }
                // The list, then the element (outside any closure: it may fail).
                let (xs, x) = (self.by_ref(&args[0], ctx), a(1));
                let f = if args[0].ty.element().is_some_and(|t| *t == args[1].ty) {
                    quote!(count)
                } else {
                    quote!(count2d)
                };
                quote!({
                    let __xs = &#xs;
                    let __v = #x;
                    #ops::#f(::galac_runtime::value::Items::items(__xs), &__v, steps, g.step_limit, #at)?
                })
            }
            Push => {
                let (xs, x) = (self.by_ref(&args[0], ctx), a(1));
                quote!({ let __x = #x; #xs.push(__x, steps, g.step_limit, #at)? })
            }
            Remove => {
                // The item as a value (a list held in a field or a local
                // is cloned, not moved: `remove([g], g)`).
                let (xs, x) = (self.by_ref(&args[0], ctx), a(1));
                quote!({ let __x = #x; #xs.remove(&__x, steps, g.step_limit, #at)? })
            }
            Sum => {
                let xs = slice(0);
                quote!(#ops::sum(#xs, steps, g.step_limit, #at)?)
            }
            Sort => match (&args[0].ty, self.fixed_len(&args[0].ty)) {
                (Ty::PerPlayer(_), _) => {
                    let xs = self.by_ref(&args[0], ctx);
                    quote!({ let __v = #ops::sorted(&#xs, steps, g.step_limit, #at)?; ::std::array::from_fn(|__i| __v[__i].clone()) })
                }
                (_, Some(n)) => {
                    let xs = self.by_ref(&args[0], ctx);
                    quote!({ let __v = #ops::sorted(&#xs, steps, g.step_limit, #at)?; ::std::array::from_fn::<_, #n, _>(|__i| __v[__i]) })
                }
                _ => {
                    let xs = self.by_ref(&args[0], ctx);
                    quote!(#xs.sorted(steps, g.step_limit, #at)?)
                }
            },
            Combinations => {
                // `combinations_list` takes a list: a game that combines an
                // array's items keeps its arrays as lists.
                if self.fixed_len(&args[0].ty).is_some() {
                    self.unfit.set(true);
                }
                let (xs, k) = (self.by_ref(&args[0], ctx), a(1));
                quote!({ let __xs = &#xs; #ops::combinations_list(__xs, #k, steps, g.step_limit, #at)? })
            }
            Min | Max => {
                let (x, y, f) = (a(0), a(1), if b == Min { quote!(min) } else { quote!(max) });
                quote!(#ops::#f(#x, #y))
            }
            Abs => {
                let x = a(0);
                quote!(#ops::abs(#x, #at)?)
            }
            Next => {
                let (p, n) = (a(0), self.n_players as u32);
                quote!((#ops::next_player(u32::from(#p), #n) as u8))
            }
            Index => {
                let p = a(0);
                quote!(#ops::player_number(u32::from(#p)))
            }
            Deck52 => quote!(#ops::deck52(steps, g.step_limit, #at)?),
            HandRank => {
                let xs = slice(0);
                quote!(#ops::hand_rank(#xs, #at)?)
            }
            DealHands => {
                let (first, second, board) = (slice(0), slice(1), slice(2));
                quote!(#ops::deal_hands(#first, #second, #board, steps, g.step_limit, #at)?)
            }
            Card => {
                let (x, y) = (a(0), a(1));
                quote!(#ops::card(#x, #y, #at)?)
            }
            Deck | Cells => {
                // Both arguments first: the steps they take come before the list's.
                let (x, y) = (a(0), a(1));
                let f = if b == Deck { quote!(deck) } else { quote!(cells) };
                quote!({ let (__x, __y) = (#x, #y); #ops::#f(__x, __y, steps, g.step_limit, #at)? })
            }
            Rank | Suit => {
                let (c, f) = (a(0), if b == Rank { quote!(rank) } else { quote!(suit) });
                quote!(#ops::#f(#c))
            }
            HasLine => {
                let (board, k, v) = (slice(0), a(1), a(2));
                quote!(#ops::has_line(#board, #k, &(#v), steps, g.step_limit, #at)?)
            }
        }
    }

    /// `&mut` to a place.
    pub(super) fn place_mut(&self, p: &Place, ctx: Ctx, at: &Literal) -> TokenStream {
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

    pub(super) fn assign(&self, place: &Place, op: Option<ArithOp>, value: &Expr, ctx: Ctx, span: Span) -> TokenStream {
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
    pub(super) fn place_with_indices(&self, p: &Place, ctx: Ctx, at: &Literal) -> (TokenStream, TokenStream) {
        let mut prep = TokenStream::new();
        let mut n = 0;
        let place = self.place_indexed(p, ctx, at, &mut prep, &mut n);
        (prep, place)
    }

    pub(super) fn place_indexed(
        &self,
        p: &Place,
        ctx: Ctx,
        at: &Literal,
        prep: &mut TokenStream,
        n: &mut usize,
    ) -> TokenStream {
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
    pub(super) fn bind(&self, p: &Pattern, value: TokenStream, ctx: Ctx) -> TokenStream {
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
}

/// The cells of `x` (a reference to a value of type `ty`) that `==` on it
/// reads: `ops::equality_cells` for the value's Rust type, its levels of
/// lists walked by nested loops (a fixed length folds to a constant).
fn equality_cells(x: TokenStream, ty: &Ty) -> TokenStream {
    match ty.element() {
        None => quote!(1u64),
        Some(item) if item.list_depth() == 0 => quote!((::galac_runtime::value::Items::items(#x).len() as u64)),
        Some(item) => {
            let inner = equality_cells(quote!(__c), item);
            quote!(::galac_runtime::value::Items::items(#x).iter().map(|__c| #inner).sum::<u64>())
        }
    }
}
