//! Own-move records made where they are needed. A move's record (with the
//! list it was offered) extends the mover's information state, which is
//! read only at a choice; two thirds of blind tic-tac-toe's moves lead to
//! a leaf first. So `apply` keeps only the offered list's id in the state,
//! and the record is made from the move's bound locals when the flow
//! reaches a choice (any choice: each `apply` then finds no record
//! pending) or a reveal to the mover (whose facts keep their order): the
//! same fact at the same place in the mover's list, so the same states and
//! the same tree (blind tic-tac-toe's build 3.5% fewer instructions and
//! about 2% faster, poker's 5% faster: BENCHMARKS.md).
//!
//! A choice's record is deferred only when the flow cannot change its
//! bound locals before every such point (their fields are read then), it
//! binds every part of the chosen value, its record has fixed width and it
//! carries the offered list (`crate::offers`). A record made now and one
//! made later are the same fact (`InfoInterner::push_offered` makes what
//! `push_deferred` makes), so a game may do both. Leduc's bets and liar's
//! dice's bids are deferred too: more than half their moves end the game
//! (a fold, a call of "liar").

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::emitter::{Ctx, Emitter};
use super::hoist::writes;
use crate::codegen::layout::{pattern_defs, Layout};
use crate::ir::{self, Inst, Term};
use crate::typeck::tast::{Pattern, Place};
use crate::typeck::types::Ty;

/// Per block: whether its choice's record is deferred.
pub(super) fn deferred_records(ir: &ir::Program, layout: &Layout, remembered: &[bool]) -> Vec<bool> {
    ir.blocks
        .iter()
        .enumerate()
        .map(|(i, b)| match &b.term {
            Term::Choose(c) => {
                let mut slots = Vec::new();
                pattern_defs(&c.pattern, &mut slots);
                c.chooser.is_some()
                    && remembered.get(i).copied().unwrap_or(false)
                    && scalars(&ir.choice_tys[c.choice_ty as usize])
                    && all_bound(&c.pattern)
                    && unchanged_until_read(ir, layout, c.next, &slots)
            }
            _ => false,
        })
        .collect()
}

/// Whether `ty` is a scalar or a tuple of them: a record of fixed width,
/// made again from the bound locals (other types' records are not
/// deferred).
fn scalars(ty: &Ty) -> bool {
    match ty {
        Ty::Int | Ty::Bool | Ty::Player | Ty::Enum(..) | Ty::Card => true,
        Ty::Tuple(ts) => ts.iter().all(scalars),
        _ => false,
    }
}

/// Whether `p` binds every part of the value (no `_`).
fn all_bound(p: &Pattern) -> bool {
    match p {
        Pattern::Bind(_) => true,
        Pattern::Wildcard => false,
        Pattern::Tuple(ps) => ps.iter().all(all_bound),
    }
}

/// The blocks the flow can run from `from` on before it reaches a
/// choice or ends (`from` included; `None` if a block is missing).
pub(super) fn blocks_until_choice(ir: &ir::Program, from: ir::BlockId) -> Option<Vec<usize>> {
    let mut seen = HashSet::new();
    let mut todo = vec![from];
    let mut out = Vec::new();
    while let Some(b) = todo.pop() {
        if !seen.insert(b.0) {
            continue;
        }
        let block = ir.blocks.get(b.0 as usize)?;
        out.push(b.0 as usize);
        match &block.term {
            Term::Jump(next) | Term::Reveal { next, .. } | Term::Payoff { next, .. } => todo.push(*next),
            Term::Branch { then_to, else_to, .. } => todo.extend([*then_to, *else_to]),
            Term::Choose(_) | Term::Outcome(_) | Term::End => {}
        }
    }
    Some(out)
}

/// Whether no path from `from` writes the fields of `slots` (nor changes
/// any list in place) before it reaches a choice or ends.
fn unchanged_until_read(ir: &ir::Program, layout: &Layout, from: ir::BlockId, slots: &[u32]) -> bool {
    let field = |slot: u32| layout.field_of.get(slot as usize).copied();
    let held: HashSet<Option<u32>> = slots.iter().map(|&s| field(s)).collect();
    let hits = |slot: u32| held.contains(&field(slot));
    let Some(blocks) = blocks_until_choice(ir, from) else { return false };
    blocks.into_iter().all(|b| {
        let block = &ir.blocks[b];
        let inst_changes = |inst: &Inst| match inst {
            Inst::Assign { place, value, .. } => hits(place_slot(place)) || writes(value),
            Inst::Bind { pattern, value } => {
                let mut bound = Vec::new();
                pattern_defs(pattern, &mut bound);
                bound.into_iter().any(hits) || writes(value)
            }
            Inst::Enumerate { slot, .. } => hits(*slot),
        };
        // A choice reads the record (made first); an end never does.
        let term_changes = match &block.term {
            Term::Branch { cond, .. } => writes(cond),
            Term::Reveal { to, args, .. } => to.as_ref().is_some_and(writes) || args.iter().any(writes),
            Term::Payoff { player, amount, .. } => writes(player) || writes(amount),
            Term::Jump(_) | Term::Choose(_) | Term::Outcome(_) | Term::End => false,
        };
        !block.insts.iter().any(inst_changes) && !term_changes
    })
}

/// The slot a place writes into (its root).
fn place_slot(p: &Place) -> u32 {
    match p {
        Place::Var(v) => v.0,
        Place::Local(l) => l.0,
        Place::Index(base, _) => place_slot(base),
    }
}

impl Emitter<'_> {
    /// The state field holding the offered list's id of the record that
    /// block `i`'s choice deferred (`u32::MAX`: none pending).
    fn deferred_field(&self, i: usize) -> Ident {
        format_ident!("d{}_offered", i)
    }

    /// Whether any choice defers its record (the state then has the
    /// mover's field and the game its out-of-line maker).
    fn defers_any(&self) -> bool {
        self.deferred.iter().any(|&d| d)
    }

    fn deferred_blocks(&self) -> impl Iterator<Item = (usize, &ir::Choose)> + '_ {
        self.ir.blocks.iter().enumerate().filter_map(|(i, b)| match &b.term {
            Term::Choose(c) if self.deferred[i] => Some((i, &**c)),
            _ => None,
        })
    }

    /// The state's fields for deferred records: per choice, its list's
    /// id; the mover, shared (one record is pending at most).
    pub(super) fn deferred_fields(&self) -> TokenStream {
        let fields = self.deferred_blocks().map(|(i, _)| self.deferred_field(i));
        let mover = self.defers_any().then(|| quote!(deferred_mover: u8,));
        quote!(#(#fields: u32,)* #mover)
    }

    /// The scratch's id of the list just offered, which `apply` keeps for
    /// a deferred record: asked for once per node
    /// ([`Self::node_infoset`]), not once per child.
    pub(super) fn deferred_scratch_field(&self) -> TokenStream {
        match self.defers_any() {
            true => quote!(offered_key: u32,),
            false => quote!(),
        }
    }

    /// The information set `__set` of the decision node of block `i`
    /// whose chooser and key are `__player` and `__key`: for a choice that
    /// defers its record, with its list's id kept in the scratch.
    pub(super) fn node_infoset(&self, i: usize) -> TokenStream {
        match self.deferred[i] {
            true => quote! {
                let (__set, _, __list) = info.infoset_with_key(__player as u32, s.info[__player], __key);
                __sc.offered_key = __list;
            },
            false => quote!(let (__set, _) = info.infoset(__player as u32, s.info[__player], __key);),
        }
    }

    pub(super) fn deferred_defaults(&self) -> TokenStream {
        let fields = self.deferred_blocks().map(|(i, _)| self.deferred_field(i));
        let mover = self.defers_any().then(|| quote!(deferred_mover: 0,));
        quote!(#(#fields: u32::MAX,)* #mover)
    }

    /// `apply`'s record of block `i`'s choice made by `__player`: its
    /// offered list's id kept (from the scratch), the record made later.
    pub(super) fn defer_record(&self, i: usize) -> TokenStream {
        let field = self.deferred_field(i);
        quote! {
            s.#field = sc.offered_key;
            s.deferred_mover = __player as u8;
        }
    }

    /// Before a reveal to the players `__targets` (a range): the record
    /// pending for one of them made first, out of line (the mover is rarely
    /// told anything before the next choice: blind tic-tac-toe never tells
    /// them).
    pub(super) fn flush_deferred_for_targets(&self) -> TokenStream {
        let fields: Vec<Ident> = self.deferred_blocks().map(|(i, _)| self.deferred_field(i)).collect();
        if fields.is_empty() {
            return quote!();
        }
        quote! {
            if (false #(|| s.#fields != u32::MAX)*) && __targets.contains(&(s.deferred_mover as usize)) {
                self.make_deferred_record(s, info);
            }
        }
    }

    /// The game's out-of-line maker of a pending record (for
    /// [`Self::flush_deferred_for_targets`]), if any choice defers one.
    pub fn deferred_impl(&self) -> TokenStream {
        if !self.defers_any() {
            return quote!();
        }
        let flush = self.flush_deferred();
        quote! {
            impl Game {
                #[cold]
                #[inline(never)]
                fn make_deferred_record(&self, s: &mut State, info: &mut ::galac_runtime::info::InfoInterner) {
                    #flush
                }
            }
        }
    }

    /// Makes the pending record, if any (at a choice, before its chooser).
    pub(super) fn flush_deferred(&self) -> TokenStream {
        let flushes = self.deferred_blocks().map(|(i, c)| {
            let field = self.deferred_field(i);
            let ty_idx = u64::from(c.choice_ty);
            let value = self.bound_value(&c.pattern);
            let head = [quote!(::galac_runtime::info::CHOSE_TAG), quote!(#ty_idx)];
            let ty = &self.ir.choice_tys[c.choice_ty as usize];
            let words = self.fixed_words(&head, &[quote!(__x)], &[ty]).unwrap_or_default();
            quote! {
                if s.#field != u32::MAX {
                    let __m = s.deferred_mover as usize;
                    let __x = #value;
                    #words
                    s.info[__m] = info.push_deferred(s.info[__m], s.#field, &__w);
                    s.#field = u32::MAX;
                }
            }
        });
        quote!(#(#flushes)*)
    }

    /// The chosen value, read back from the fields of the locals `p` bound.
    fn bound_value(&self, p: &Pattern) -> TokenStream {
        match p {
            Pattern::Bind(l) => {
                let r = self.name_read(Ctx::Flow, l.0);
                quote!(#r.clone())
            }
            Pattern::Wildcard => quote!(()),
            Pattern::Tuple(ps) => {
                let ps = ps.iter().map(|p| self.bound_value(p));
                quote!((#(#ps,)*))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scalars;
    use crate::codegen::emit::Emitter;
    use crate::typeck::types::Ty;

    /// Blind tic-tac-toe's moves (a tuple of three), Leduc's bets and the
    /// test game's first choice are recorded where they are read; a move
    /// whose pattern drops a part (its record needs the whole value) in
    /// `apply`.
    #[test]
    fn records_are_deferred_unless_a_part_is_dropped() {
        let deferred = |src: &str| super::super::emitted(src).contains("fn make_deferred_record");
        assert!(deferred(include_str!("../../../../examples/blind_tictactoe.gala")));
        assert!(deferred(include_str!("../../../../examples/leduc.gala")));
        assert!(deferred(include_str!("../../../../tests/codegen/deferred_records.gala")));
        let dropped = "game g { players a, b; flow { choose nature h in bool; \
                       choose a (x, _) in [(1, 2), (3, 4)] where h || x < 2; choose a y in bool; end; } }";
        assert!(!deferred(dropped) && super::super::emitted(dropped).contains("push_offered"));
    }

    /// The types whose records are deferred are scalars and tuples of
    /// them, all of fixed width (the flush writes their words on the stack).
    #[test]
    fn deferred_records_have_fixed_width() {
        let nested = Ty::Tuple(vec![Ty::Tuple(vec![Ty::Int, Ty::Player]), Ty::Bool]);
        for ty in [Ty::Int, Ty::Tuple(vec![Ty::Int, Ty::Int, Ty::Bool]), nested] {
            assert!(scalars(&ty) && Emitter::fixed(&ty), "{ty:?}");
        }
        assert!(!scalars(&Ty::List(Box::new(Ty::Int))));
        assert!(!scalars(&Ty::Tuple(vec![Ty::Int, Ty::List(Box::new(Ty::Int))])));
    }
}
