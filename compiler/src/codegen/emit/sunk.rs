//! Reveals made at the next choice. A fact told to a player extends
//! their information state, which is read only at a choice: when the flow
//! from a reveal reaches a choice (or ends) without another reveal, the
//! fact's words and audience are kept in locals of `advance` and pushed at
//! the choice, so a play that ends first never pushes them (blind
//! tic-tac-toe tells the opponent every mark's square, and two thirds of
//! its moves end the game). The words are the ones the reveal computed
//! (its errors and steps stay where they were), and the fact comes after
//! a record still pending for the mover (`deferred`, made first at the
//! choice, as before the reveal) and before any later fact: the same
//! states, so the same tree.
//!
//! A choice returns from `advance`, so a fact is never kept past it: the
//! locals never reach the state.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::deferred::blocks_until_choice;
use super::emitter::Emitter;
use crate::ir::{self, Term};

/// Per block: whether its reveal is made at the next choice: its fact has
/// fixed width (words on the stack), and no other reveal comes before a
/// choice or the end.
pub(super) fn sunk_reveals(ir: &ir::Program) -> Vec<bool> {
    ir.blocks
        .iter()
        .map(|b| match &b.term {
            Term::Reveal { args, next, .. } => {
                args.iter().all(|a| Emitter::fixed(&a.ty))
                    && blocks_until_choice(ir, *next)
                        .is_some_and(|bs| bs.iter().all(|&i| !matches!(ir.blocks[i].term, Term::Reveal { .. })))
            }
            _ => false,
        })
        .collect()
}

impl Emitter<'_> {
    /// The local of `advance` keeping block `i`'s fact: its words and
    /// audience once the reveal ran (`None` before, and after a choice).
    pub(super) fn sunk_local(&self, i: usize) -> Ident {
        format_ident!("__sunk{}", i)
    }

    fn sunk_blocks(&self) -> impl Iterator<Item = usize> + '_ {
        self.sunk.iter().enumerate().filter_map(|(i, &s)| s.then_some(i))
    }

    /// `advance`'s locals for the sunk reveals, all empty.
    pub fn sunk_locals(&self) -> TokenStream {
        let locals = self.sunk_blocks().map(|i| {
            let name = self.sunk_local(i);
            let Term::Reveal { args, .. } = &self.ir.blocks[i].term else { return quote!() };
            let tys: Vec<_> = args.iter().map(|a| &a.ty).collect();
            let len = self.words_len(1, &tys);
            quote!(let mut #name: ::std::option::Option<([u64; #len], ::std::ops::Range<usize>)> = None;)
        });
        quote!(#(#locals)*)
    }

    /// At a choice: the fact kept, if any, pushed onto its audience's
    /// states (after the pending record, `flush_deferred`). At most one is
    /// kept: no reveal follows a sunk one before a choice.
    pub(super) fn flush_sunk(&self) -> TokenStream {
        let flushes = self.sunk_blocks().map(|i| {
            let name = self.sunk_local(i);
            quote! {
                if let Some((__w, __targets)) = #name.take() {
                    for __p in __targets { s.info[__p] = info.push(s.info[__p], &__w); }
                }
            }
        });
        quote!(#(#flushes)*)
    }
}

#[cfg(test)]
mod tests {
    /// The places a fact is kept for the next choice in `src`'s code.
    fn kept(src: &str) -> usize {
        let code = super::super::emitted(src);
        let code: String = super::super::advance_of(&code).split_whitespace().collect();
        code.matches("=Some((__w,").count()
    }

    /// Blind tic-tac-toe's reveal of the marked square is made at the next
    /// choice; of two reveals in a row, only the second.
    #[test]
    fn reveals_are_sunk_unless_another_follows() {
        assert!(kept(include_str!("../../../../examples/blind_tictactoe.gala")) >= 1);
        let two = "game g { players a, b; flow { choose a x in 0..2; reveal b saw(x); reveal b again(x); \
                   choose b y in 0..2; outcome [x, y]; } }";
        assert_eq!(kept(two), 1);
        let one = "game g { players a, b; flow { choose a x in 0..2; reveal b saw(x); \
                   choose b y in 0..2; outcome [x, y]; } }";
        assert_eq!(kept(one), 1);
    }
}
