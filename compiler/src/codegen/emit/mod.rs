//! Emitting Rust for a lowered game: a state struct with the game's slots
//! as typed fields, and `advance`/`apply` as a state machine over the IR
//! blocks, implementing `galac_runtime::game::Game`.
//!
//! Every name from the .gala file becomes an identifier only through
//! `format_ident!` after mangling (`s3_pot`, `f0_beats`), and every string
//! (labels, locations) only as a `quote`d literal, so a game description
//! cannot inject code. Generated code names the runtime only as `::galac_runtime`.

mod arrays;
mod blocks;
mod choose;
/// The representative walk's hooks (`Game::advance_public` and the rest).
mod course;
/// Own-move records deferred from `apply` to where they are read.
mod deferred;
mod emitter;
mod expr;
mod fns;
/// A chance node's candidates held apart from the scratch.
mod held;
mod hoist;
mod scan;
/// Reveals made at the next choice instead of where they run.
mod sunk;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::ir;
use crate::source::SourceFile;
use crate::span::Span;
use crate::typeck::tast::{self, Expr, ExprKind};
use crate::typeck::types::{EnumId, Ty};

use super::layout::Layout;
use emitter::Ctx;
pub use emitter::Emitter;

/// Whether values of `t` hold a [`List`](galac_runtime::value::List) (a
/// reference-counted allocation), as opposed to plain words (`fixed`:
/// arrays are Rust arrays).
fn owns_heap(t: &Ty, fixed: bool) -> bool {
    match t {
        Ty::Array(..) => !fixed,
        Ty::List(_) => true,
        Ty::Tuple(ts) => ts.iter().any(|t| owns_heap(t, fixed)),
        Ty::PerPlayer(t) => owns_heap(t, fixed),
        Ty::Int | Ty::Card | Ty::Error | Ty::Bool | Ty::Player | Ty::Enum(..) | Ty::Data(..) => false,
    }
}

/// Enums with at most this many variants hold their values in a `u8`,
/// larger ones in a `u32` (a player is a `u8`: `ops::MAX_PLAYERS`).
const U8_VARIANTS: usize = 256;

impl<'a> Emitter<'a> {
    /// An emitter of `ir`, with arrays as Rust arrays if `fixed_arrays`
    /// (then [`Emitter::unfit`] says, after emitting, whether they can be).
    pub fn new(ir: &'a ir::Program, locator: &'a SourceFile, fixed_arrays: bool) -> Emitter<'a> {
        let empty = Layout { field_of: Vec::new(), fields: Vec::new(), dead_after_choice: Vec::new() };
        let remembered = crate::offers::remembered(ir);
        let mut e = Emitter {
            ir,
            locator,
            n_players: ir.players.len(),
            layout: empty,
            remembered,
            deferred: Vec::new(),
            sunk: sunk::sunk_reveals(ir),
            hoisted: Default::default(),
            bound: Default::default(),
            scan: Default::default(),
            scan_next: Default::default(),
            fixed_arrays,
            unfit: Default::default(),
            course: crate::public::public_course_at(ir, locator),
            stopping: Default::default(),
        };
        let keys: Vec<String> = ir.slots.iter().map(|(_, t)| e.ty(t).to_string()).collect();
        let pinned = e.course.as_ref().ok().and_then(|c| c.strengths).map_or(Vec::new(), Vec::from);
        let owns = |i: u32| owns_heap(&ir.slots[i as usize].1, fixed_arrays);
        e.layout = Layout::new(ir, |i| keys[i as usize].clone(), owns, &pinned);
        e.deferred = deferred::deferred_records(ir, &e.layout, &e.remembered);
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
            Ty::Player => quote!(u8),
            Ty::Enum(id, _) if self.wide_enum(*id) => quote!(u32),
            Ty::Enum(..) => quote!(u8),
            Ty::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.ty(t));
                quote!((#(#ts,)*))
            }
            Ty::Data(_, _, ts) => {
                let ts = ts.iter().map(|t| self.ty(t));
                quote!((#(#ts,)*))
            }
            Ty::PerPlayer(t) => {
                let t = self.ty(t);
                let n = self.n_players;
                quote!([#t; #n])
            }
            Ty::Array(elem, _) => self.array_ty(t, elem),
            Ty::List(elem) => self.list_ty(elem),
        }
    }

    fn name_read(&self, ctx: Ctx, id: u32) -> TokenStream {
        match ctx {
            Ctx::Flow => {
                if let Some((_, name)) = self.bound.borrow().iter().find(|(l, _)| *l == id) {
                    return quote!(#name);
                }
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

    /// `e` as an expression that can be borrowed: a name, or an item of
    /// one (`board[r]`, `board[r][c]`), is read in place (no clone of a
    /// list: a read of `board[r][c]` once cloned the row, a reference count
    /// per candidate of a choice); anything else is computed into a temporary.
    fn by_ref(&self, e: &Expr, ctx: Ctx) -> TokenStream {
        match &e.kind {
            ExprKind::Var(v) => self.name_read(Ctx::Flow, v.0),
            ExprKind::Local(l) => self.name_read(ctx, l.0),
            ExprKind::Index(a, i) => match self.hoisted_read(e, ctx) {
                Some(read) => read,
                None => self.item_ref(a, i, ctx, &self.at(e.span)),
            },
            _ => {
                let x = self.expr(e, ctx);
                quote!((#x))
            }
        }
    }

    /// Whether an enum's values need a `u32` (more than [`U8_VARIANTS`]).
    fn wide_enum(&self, id: EnumId) -> bool {
        self.ir.enums.get(id.0 as usize).is_some_and(|e| e.variants.len() > U8_VARIANTS)
    }

    /// The literal of player or variant number `n`, typed as its values are.
    fn small_lit(&self, ty: &Ty, n: u32) -> Literal {
        match ty {
            Ty::Enum(id, _) if self.wide_enum(*id) => Literal::u32_suffixed(n),
            // The checker keeps players and narrow enums' variants below 256.
            _ => Literal::u8_suffixed(n as u8),
        }
    }

    /// Whether values of `ty` encode in a fixed number of words
    /// (`galac_runtime::value::Fixed`: no list inside).
    fn fixed(ty: &Ty) -> bool {
        match ty {
            Ty::Tuple(ts) => ts.iter().all(Self::fixed),
            Ty::PerPlayer(t) => Self::fixed(t),
            Ty::Array(..) | Ty::List(_) => false,
            Ty::Int | Ty::Card | Ty::Error | Ty::Bool | Ty::Player | Ty::Enum(..) | Ty::Data(..) => true,
        }
    }

    /// Writes `[tag, extra..., the words of each value]` into an array on
    /// the stack named `__w`, when every value is [`Self::fixed`]: the
    /// values are held in the names `vals`, of types `tys`.
    fn fixed_words(&self, head: &[TokenStream], vals: &[TokenStream], tys: &[&Ty]) -> Option<TokenStream> {
        if !tys.iter().all(|t| Self::fixed(t)) {
            return None;
        }
        let rust: Vec<TokenStream> = tys.iter().map(|t| self.ty(t)).collect();
        let n = head.len();
        let heads = head.iter().enumerate().map(|(i, h)| quote!(__w[#i] = #h;));
        let len = self.words_len(n, tys);
        Some(quote! {
            let mut __w = [0u64; #len];
            #(#heads)*
            let mut __k = #n;
            #(
                ::galac_runtime::value::Fixed::put(&#vals, &mut __w[__k..]);
                __k += <#rust as ::galac_runtime::value::Fixed>::WORDS;
            )*
            let _ = __k;
        })
    }

    /// The length of [`Self::fixed_words`]'s array: `head` words, then
    /// those of values of types `tys`.
    fn words_len(&self, head: usize, tys: &[&Ty]) -> TokenStream {
        let rust = tys.iter().map(|t| self.ty(t));
        quote!(#head #(+ <#rust as ::galac_runtime::value::Fixed>::WORDS)*)
    }

    /// The value a field or local of type `ty` holds before it is set
    /// (`Default` stops at arrays of 32, and per-player arrays are longer
    /// with more players).
    fn default_value(&self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.default_value(t));
                quote!((#(#ts,)*))
            }
            Ty::Data(_, _, ts) => {
                let ts = ts.iter().map(|t| self.default_value(t));
                quote!((#(#ts,)*))
            }
            Ty::PerPlayer(t) => {
                let t = self.default_value(t);
                quote!(::std::array::from_fn(|_| #t))
            }
            _ => quote!(::std::default::Default::default()),
        }
    }

    pub fn state_fields(&self) -> TokenStream {
        let fields = self.layout.fields.iter().map(|&first| {
            let f = self.field(first);
            let t = self.ty(&self.ir.slots[first as usize].1);
            quote!(#f: #t,)
        });
        let deferred = self.deferred_fields();
        quote!(#(#fields)* #deferred)
    }

    /// The state fields' values before anything is set (see [`Self::default_value`]).
    pub fn state_defaults(&self) -> TokenStream {
        let fields = self.layout.fields.iter().map(|&first| {
            let f = self.field(first);
            let v = self.default_value(&self.ir.slots[first as usize].1);
            quote!(#f: #v,)
        });
        let deferred = self.deferred_defaults();
        quote!(#(#fields)* #deferred)
    }

    pub fn scratch_fields(&self) -> TokenStream {
        let fields = self.ir.choice_tys.iter().enumerate().map(|(i, ty)| {
            let f = self.choice_field(i as u32);
            let t = self.ty(ty);
            quote!(#f: Vec<#t>,)
        });
        let offered_key = self.deferred_scratch_field();
        quote!(#(#fields)* #offered_key)
    }

    pub fn var_inits(&self) -> TokenStream {
        let inits = self.ir.var_inits.iter().enumerate().map(|(i, e)| {
            let f = self.slot(i as u32);
            let v = self.expr(e, Ctx::Flow);
            quote!(s.#f = #v;)
        });
        quote!(#(#inits)*)
    }

    /// `position_key`'s arms: at the entry block and after each choice, the
    /// block, the payoffs, the variables and the live locals, encoded as the
    /// interpreter encodes them.
    pub fn position_key_arms(&self) -> TokenStream {
        let live = super::layout::live_locals(self.ir);
        let mut starts: Vec<u32> = self
            .ir
            .blocks
            .iter()
            .filter_map(|b| if let ir::Term::Choose(c) = &b.term { Some(c.next.0) } else { None })
            .collect();
        starts.push(self.ir.entry.0);
        starts.sort_unstable();
        starts.dedup();
        let vars: Vec<proc_macro2::Ident> = (0..self.ir.n_vars).map(|v| self.slot(v)).collect();
        let arms = starts.iter().map(|&b| {
            let locals = live[b as usize].iter().map(|&l| self.slot(l));
            quote! {
                #b => {
                    #(::galac_runtime::value::Encode::encode(&s.#locals, out);)*
                }
            }
        });
        quote! {
            out.clear();
            out.push(u64::from(s.block));
            for p in &s.payoffs {
                ::galac_runtime::value::Encode::encode(p, out);
            }
            #(::galac_runtime::value::Encode::encode(&s.#vars, out);)*
            match s.block {
                #(#arms)*
                _ => return false,
            }
            true
        }
    }

    /// `evaluate`'s body: the game's `evaluate` fn called with the state
    /// variables it names, a step counted at the fn as the interpreter does.
    pub fn evaluate_body(&self) -> TokenStream {
        let Some((f, vars)) = self.ir.evaluate_fn() else {
            return quote!(let _ = (s, out); Ok(None));
        };
        let name = self.fn_name(f);
        let at = self.at(self.ir.fns[f.0 as usize].span);
        let args = vars.iter().map(|&v| self.slot(v));
        quote! {
            let g = self;
            let mut __steps = g.step_limit;
            let steps = &mut __steps;
            ::galac_runtime::ops::step(steps, g.step_limit, #at)?;
            let (v, den) = #name(g, #(s.#args.clone(),)* steps)?;
            out.clear();
            out.extend_from_slice(&v);
            Ok(Some(den))
        }
    }

    pub fn n_players(&self) -> usize {
        self.n_players
    }

    /// Whether an array met while emitting with Rust arrays cannot be one
    /// (the code emitted is then not to be used).
    pub fn unfit(&self) -> bool {
        self.unfit.get()
    }
}

/// The generated module of the game `src` (for tests of what codegen
/// emits): with a specialised copy (arrays as Rust arrays), or with Rust
/// arrays in the game itself, or neither.
/// `name` with every character outside `[A-Za-z0-9_]` as `_`: the tail of
/// a generated identifier (always behind a prefix such as `f3_`, through
/// `format_ident!`).
pub(crate) fn clean(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

#[cfg(test)]
fn emitted(src: &str) -> String {
    crate::compile::compiled(src).emit_game("t.gala").expect("code")
}

/// The code of `fn advance` in generated `code` (up to `fn apply`), not
/// its copies for the representative walk (`course`).
#[cfg(test)]
fn advance_of(code: &str) -> &str {
    let start = code.find("fn advance(").expect("advance");
    let end = code[start..].find("fn apply(").map_or(code.len(), |e| start + e);
    &code[start..end]
}
