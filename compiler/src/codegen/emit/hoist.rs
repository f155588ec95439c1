//! Reads of a choice's `where` clause lifted out of its inner candidate
//! loops: in `choose (row, col, mark) in (0..n, 0..n, Cell) where
//! board[row][col] == Empty`, `board[row]` is looked up once per row and
//! `board[row][col]` once per row and column, not once per candidate
//! (blind tic-tac-toe: two checked lookups for each of 27 candidates).
//!
//! A lifted lookup keeps the item it found (`ops::get`: a pointer, not a
//! `Result` carrying an error: 4% of blind tic-tac-toe's instructions),
//! and a candidate that reads one not found makes the lookup again, which
//! returns the error where the unlifted clause would have met it: the same
//! error at the same candidate, after the same steps. Nothing else
//! changes: a lookup is pure (no step, no write), and a clause that could
//! write the state (`push`, `remove`) lifts nothing.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::emitter::DomainPlan;
use super::emitter::{Ctx, Emitter};
use crate::ast::BinOp;
use crate::ir;
use crate::typeck::tast::{Builtin, Expr, ExprKind, Pattern};
use crate::typeck::types::Ty;

/// What lifting needs to know about a choice's loops.
struct Loops<'p> {
    /// The product's number (its loops bind `__t{id}_{k}`).
    id: u32,
    /// Per component of the product, the local its pattern binds it to.
    comps: Vec<Option<u32>>,
    /// Per loop level, the lookups made once that level's component is bound.
    levels: &'p mut Vec<TokenStream>,
}

impl Emitter<'_> {
    /// Lifts the lookups of `c`'s `where` clause that depend only on the
    /// outer components of its product, and returns per loop level the
    /// statements making them (empty when nothing is lifted). The clause
    /// reads them through [`Self::hoisted_read`] until
    /// [`Self::clear_hoisted`].
    pub(super) fn hoist_filter(&self, c: &ir::Choose, plan: &DomainPlan) -> Vec<TokenStream> {
        let (Some(f), DomainPlan::Product(id, parts), Pattern::Tuple(ps)) = (&c.filter, plan, &c.pattern) else {
            return Vec::new();
        };
        if ps.len() != parts.len() || writes(f) || c.weight.as_ref().is_some_and(writes) {
            return Vec::new();
        }
        let comps = ps.iter().map(|p| if let Pattern::Bind(l) = p { Some(l.0) } else { None }).collect();
        let mut levels = vec![TokenStream::new(); parts.len()];
        let mut loops = Loops { id: *id, comps, levels: &mut levels };
        self.lift_in(f, &mut loops);
        levels
    }

    /// Lifts what can be lifted in `e`, outermost lookups first.
    fn lift_in(&self, e: &Expr, loops: &mut Loops<'_>) {
        if self.lift(e, loops).is_none() {
            for child in e.kind.children() {
                self.lift_in(child, loops);
            }
        }
    }

    /// Lifts `e` if it is a lookup `a[i]` of a list that the loops do not
    /// bind (or of a lifted lookup) by a component the pattern binds, to
    /// the level of the last component it reads, short of the innermost
    /// (where nothing is saved). Returns that level and the result's name.
    fn lift(&self, e: &Expr, loops: &mut Loops<'_>) -> Option<(usize, Ident)> {
        let ExprKind::Index(a, i) = &e.kind else { return None };
        if let Some((_, name, level)) = self.hoisted.borrow().iter().find(|(h, ..)| std::ptr::eq(*h, e)) {
            return Some((*level, name.clone()));
        }
        let ExprKind::Local(l) = &i.kind else { return None };
        let k = loops.comps.iter().position(|c| *c == Some(l.0))?;
        if i.ty != Ty::Int || matches!(a.ty, Ty::PerPlayer(_)) {
            return None;
        }
        let (base, level) = match &a.kind {
            ExprKind::Var(_) => (None, k),
            ExprKind::Local(b) if !loops.comps.contains(&Some(b.0)) => (None, k),
            ExprKind::Index(..) => {
                let (j, name) = self.lift(a, loops)?;
                (Some((j, name)), j.max(k))
            }
            _ => return None,
        };
        if level + 1 >= loops.levels.len() {
            return None;
        }
        let comp = format_ident!("__t{}_{}", loops.id, k);
        let name = {
            let mut hoisted = self.hoisted.borrow_mut();
            let name = format_ident!("__h{}", hoisted.len());
            hoisted.push((e as *const Expr, name.clone(), level));
            name
        };
        let read = match base {
            None => {
                let xs = self.slice(a, Ctx::Flow);
                quote!(::galac_runtime::ops::get(#xs, #comp))
            }
            Some((j, b)) => {
                // The base's items as a slice, taken once where the base is
                // found (a list's `as_slice` tests its variant), not once per
                // lookup in it.
                let items = format_ident!("{}_s", name);
                loops.levels[j].extend(quote!(let #items = #b.map(|__r| __r.as_slice());));
                quote!(#items.and_then(|__r| ::galac_runtime::ops::get(__r, #comp)))
            }
        };
        loops.levels[level].extend(quote!(let #name = #read;));
        Some((level, name))
    }

    /// The place `e` reads when it is a lifted lookup: its kept item, or,
    /// when the lookup found none, the lookup made again here, which
    /// returns its error (a lookup is pure: the same error as when lifted).
    pub(super) fn hoisted_read(&self, e: &Expr, ctx: Ctx) -> Option<TokenStream> {
        let name = {
            let hoisted = self.hoisted.borrow();
            hoisted.iter().find(|(h, ..)| std::ptr::eq(*h, e))?.1.clone()
        };
        let ExprKind::Index(a, i) = &e.kind else { return None };
        let again = self.item_ref(a, i, ctx, &self.at(e.span));
        Some(quote! {
            (*match #name {
                ::std::option::Option::Some(__r) => __r,
                ::std::option::Option::None => &#again,
            })
        })
    }

    /// Per loop level of [`Self::hoist_filter`]'s loops, a test that skips
    /// the rest of that level's loop: when the `where` clause `f` starts
    /// with `x == c` or `x != c` (its leftmost conjunct; `c` may come
    /// first), `x` a lookup lifted to that level and `c` a constant, and
    /// the lookup found an item that fails the test, every candidate below
    /// it fails that conjunct first (it is pure) and is rejected. Only for
    /// loops that count no steps of their own (all counted at once): blind
    /// tic-tac-toe skips the marks of an occupied square.
    pub(super) fn filter_skips(&self, f: &Expr, n_levels: usize) -> Vec<TokenStream> {
        let mut skips = vec![TokenStream::new(); n_levels];
        let mut first = f;
        while let ExprKind::Binary(BinOp::And, left, _) = &first.kind {
            first = left;
        }
        let ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) = &first.kind else { return skips };
        let constant = |c: &Expr| {
            matches!(c.kind, ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Player(_) | ExprKind::Variant(..))
        };
        let lifted = |x: &Expr| {
            self.hoisted.borrow().iter().find(|(h, ..)| std::ptr::eq(*h, x)).map(|(_, n, l)| (n.clone(), *l))
        };
        // Equality is symmetric: the constant may stand on either side.
        let (x, c) = if constant(right) { (left, right) } else { (right, left) };
        if let (true, Some((name, level))) = (constant(c), lifted(x)) {
            let c = self.expr(c, Ctx::Flow);
            let fails = match op {
                BinOp::Eq => quote!(*__r != #c),
                _ => quote!(*__r == #c),
            };
            if let Some(skip) = skips.get_mut(level) {
                *skip = quote!(if let ::std::option::Option::Some(__r) = #name { if #fails { continue; } });
            }
        }
        skips
    }

    /// Forgets the lifted lookups (their names are out of scope).
    pub(super) fn clear_hoisted(&self) {
        self.hoisted.borrow_mut().clear();
    }
}

/// Whether `e` may change a list in place (`push`, `remove`).
pub(super) fn writes(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Builtin(Builtin::Push | Builtin::Remove, _)) || e.kind.children().any(writes)
}

#[cfg(test)]
mod tests {
    use super::super::emitted;

    /// A `where` on a square of the board and a mark, its test of the
    /// square written `TEST`.
    const GAME: &str = "game t { players a, b; enum Cell { Empty, X, O }
        var board: [[Cell; 3]; 3] = [[Empty; 3]; 3];
        flow { choose a (r, c, m) in (0..3, 0..3, Cell) where TEST && m != Empty;
            board[r][c] = m; outcome [0, 0]; } }";

    /// The constant may stand on either side of the test: the marks of an
    /// occupied square are skipped in both forms (and in neither when the
    /// first test is not of the lifted lookup).
    #[test]
    fn a_test_of_a_lifted_lookup_skips_its_inner_loop_either_way_round() {
        let skip = "continue;";
        for test in ["board[r][c] == Empty", "Empty == board[r][c]", "board[r][c] != X", "X != board[r][c]"] {
            let code = emitted(&GAME.replace("TEST", test));
            assert!(code.contains(skip), "{test}: {code}");
        }
        let code = emitted(&GAME.replace("TEST", "r != c && board[r][c] == Empty"));
        assert!(!code.contains(skip), "{code}");
    }
}
