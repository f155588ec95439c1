//! The representative walk's hooks (issue 45: `Game::representative`,
//! `advance_public`, `course_key`, `transplant`, `strengths`), from the same
//! [`PublicCourse`](crate::public::PublicCourse) the interpreter uses,
//! worked out here and baked in: which blocks are the payoff's code, the
//! public slots each keyed block reads, whether it reads a private one,
//! and the fields holding private values.
//!
//! `advance_public` is a second copy of the `advance` state machine
//! (emitted with `stopping` set), so that `advance`, the tree builders'
//! hot path, has no test for the stop: the copy stores the block and
//! returns `None` wherever the flow would enter the payoff's code, the
//! steps before it checked. A reveal kept for the next choice (`sunk`) is
//! dropped there: no choice follows in the payoff's code, so `advance`
//! would never push it either. `advance_payoff` goes on from there, a
//! cold copy of the payoff's code with an arm per block: a block of it
//! inlined into its predecessor has no arm in `advance` (giving it one,
//! or a default arm that goes on, cost the tree builder about 2% of its
//! instructions on 13-rank Leduc).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::blocks::{check, Carry};
use super::emitter::Emitter;
use crate::ir;

impl Emitter<'_> {
    /// Whether the code being emitted stops before block `b` (the
    /// payoff's code, in `advance_public`).
    pub(super) fn stops_at(&self, b: usize) -> bool {
        self.stopping.get() && self.course.as_ref().is_ok_and(|c| c.payoff_code[b])
    }

    /// Going to block `to` in `advance_public` when it is the payoff's
    /// code: the steps `carry` checked, the block stored, `None`.
    pub(super) fn stop(&self, to: ir::BlockId, carry: &Carry) -> Option<TokenStream> {
        if !self.stops_at(to.0 as usize) {
            return None;
        }
        let (check, to) = (check(carry), to.0);
        Some(quote!(#check s.block = #to; return Ok(None);))
    }

    /// `return` of the node `node` from `advance` (or `advance_public`,
    /// whose nodes are `Some`).
    pub(super) fn return_node(&self, node: TokenStream) -> TokenStream {
        match self.stopping.get() {
            true => quote!(return Ok(Some(#node));),
            false => quote!(return Ok(#node);),
        }
    }

    /// The four hooks' `Game` methods, or nothing (the trait's defaults,
    /// and `representative`'s refusal) when the proof fails.
    pub fn course_hooks(&self) -> TokenStream {
        let course = match &self.course {
            Ok(course) => course,
            Err(why) => {
                let why = Literal::string(why);
                return quote! {
                    fn representative(&self) -> ::std::result::Result<String, String> {
                        Err(#why.to_string())
                    }
                };
            }
        };
        let proof = Literal::string(&course.describe(self.ir));
        self.stopping.set(true);
        let arms = self.advance_arms();
        let sunk_locals = self.sunk_locals();
        self.stopping.set(false);
        let stops: Vec<u32> = (0..self.ir.blocks.len() as u32).filter(|&b| course.payoff_code[b as usize]).collect();
        let stop_at_entry = match stops.is_empty() {
            true => quote!(),
            false => quote!(if matches!(block, #(#stops)|*) {
                return Ok(None);
            }),
        };
        // Every block of the payoff's code an arm (none inlined).
        let inlined: Vec<bool> =
            self.inlined_blocks().iter().zip(&course.payoff_code).map(|(&i, &p)| i && !p).collect();
        let payoff_arms = self.arms(&inlined, |i| course.payoff_code[i]);
        let key_arms = self.course_key_arms(course);
        // The showdown's slots keep their own fields (`Layout::new`'s `pinned`).
        let strengths = course.strengths.map(|[a, b]| {
            let (a, b) = (self.slot(a), self.slot(b));
            quote! {
                fn strengths(&self, s: &State) -> Option<[i64; 2]> {
                    Some([s.#a, s.#b])
                }
            }
        });
        let (donor, transplant_arms) = self.transplant_arms(course);
        quote! {
            fn representative(&self) -> ::std::result::Result<String, String> {
                Ok(#proof.to_string())
            }

            fn advance_public(
                &self,
                s: &mut State,
                info: &mut ::galac_runtime::info::InfoInterner,
            ) -> ::std::result::Result<Option<::galac_runtime::game::Node>, ::galac_runtime::game::GameError> {
                let g = self;
                let mut __steps = g.step_limit;
                let steps = &mut __steps;
                let mut block = s.block;
                #stop_at_entry
                #sunk_locals
                loop {
                    match block {
                        #arms
                        _ => unreachable!("internal error: no such block, please report"),
                    }
                }
            }

            #[cold]
            #[inline(never)]
            fn advance_payoff(
                &self,
                s: &mut State,
                info: &mut ::galac_runtime::info::InfoInterner,
            ) -> ::std::result::Result<::galac_runtime::game::Node, ::galac_runtime::game::GameError> {
                let g = self;
                let mut __steps = g.step_limit;
                let steps = &mut __steps;
                let mut block = s.block;
                #sunk_locals
                loop {
                    match block {
                        #payoff_arms
                        _ => unreachable!("internal error: no such block, please report"),
                    }
                }
            }

            fn course_key(&self, s: &State, out: &mut Vec<u64>) -> bool {
                out.clear();
                out.push(u64::from(s.block));
                for p in &s.payoffs {
                    ::galac_runtime::value::Encode::encode(p, out);
                }
                match s.block {
                    #key_arms
                    _ => false,
                }
            }

            #donor

            #[allow(unused_variables)]
            fn transplant(&self, into: &mut State, donors: &::galac_runtime::game::Donors<State>, deal: u32) {
                match into.block {
                    #transplant_arms
                    _ => {}
                }
            }

            #strengths
        }
    }

    /// `course_key`'s arms: per keyed block, its public slots' fields
    /// encoded, then whether its code reads a private slot.
    fn course_key_arms(&self, course: &crate::public::PublicCourse) -> TokenStream {
        let arms =
            (0..self.ir.blocks.len()).filter(|&b| !course.keys[b].is_empty() || course.reads_private[b]).map(|b| {
                let fields = course.keys[b].iter().map(|&slot| self.slot(slot));
                let (id, reads) = (b as u32, course.reads_private[b]);
                quote! {
                    #id => {
                        #(::galac_runtime::value::Encode::encode(&s.#fields, out);)*
                        #reads
                    }
                }
            });
        quote!(#(#arms)*)
    }

    /// `donor`, which keeps every field that some block's arm of
    /// `transplant` reads as exemplars (`Donors::push_exemplar`: a state
    /// per distinct value of a field, not a state per deal), each encoded
    /// to tell values apart; and `transplant`'s arms: per block, the fields
    /// holding the private values there (the private variables, and the
    /// private locals live at the block: a field may hold another slot
    /// where its private one is dead), blocks with the same fields in one
    /// arm, each read from the state its donor kept for it.
    fn transplant_arms(&self, course: &crate::public::PublicCourse) -> (TokenStream, TokenStream) {
        let live = super::super::layout::live_locals(self.ir);
        let mut by_fields: BTreeMap<Vec<u32>, Vec<u32>> = BTreeMap::new();
        for (b, live) in live.iter().enumerate() {
            let mut fields: Vec<u32> = course
                .private
                .iter()
                .filter(|&&slot| slot < self.ir.n_vars || live.contains(&slot))
                .map(|&slot| self.layout.field_of.get(slot as usize).map_or(slot, |&f| self.layout.fields[f as usize]))
                .collect();
            fields.sort_unstable();
            fields.dedup();
            if !fields.is_empty() {
                by_fields.entry(fields).or_default().push(b as u32);
            }
        }
        // Every field some arm reads, by its place in a donor's values.
        let kept: Vec<u32> = by_fields.keys().flatten().copied().collect::<BTreeSet<u32>>().into_iter().collect();
        let place = |f: u32| kept.iter().position(|&k| k == f).expect("a field some arm reads");
        let arms = by_fields.iter().map(|(fields, blocks)| {
            let places = fields.iter().map(|&f| place(f));
            let fields: Vec<Ident> = fields.iter().map(|&f| self.field(f)).collect();
            quote! {
                #(#blocks)|* => {
                    #(::std::clone::Clone::clone_from(&mut into.#fields, &donors.exemplar(deal, #places).#fields);)*
                }
            }
        });
        let (n, places) = (kept.len(), 0..kept.len());
        let kept = kept.iter().map(|&f| self.field(f));
        let donor = quote! {
            fn donor(&self, s: &State, donors: &mut ::galac_runtime::game::Donors<State>) {
                let mut sc = self.scratch.borrow_mut();
                let __w = &mut sc.words;
                __w.clear();
                let mut __ends = [0usize; #n];
                #(
                    ::galac_runtime::value::Encode::encode(&s.#kept, __w);
                    __ends[#places] = __w.len();
                )*
                donors.push_exemplar(s, __w, &__ends);
            }
        };
        (donor, quote!(#(#arms)*))
    }
}
