//! A chance node's candidates held apart from the scratch
//! (`Game::hold_candidates`, `Game::apply_held`), and the scratch let go
//! (`Game::release_buffers`): generated code keeps a
//! choice's candidates in the game's scratch only until the next
//! `advance`, so a derivation of the public game that keeps a chance node
//! to make its outcomes' states later (the deals, `from_game/dealt.rs`)
//! takes the node's list out of the scratch (moved, not copied) and binds
//! an outcome from it as `apply` binds one from the scratch; the node's
//! odds, read before, are let go (a candidate's worth of buffers each
//! where one node deals every hand). Only chance choices: a player's move
//! records what it was offered from the scratch.

use proc_macro2::TokenStream;
use quote::quote;

use super::emitter::Ctx;
use super::Emitter;
use crate::ir::{self, Term};

impl Emitter<'_> {
    /// The chance choices: (block, choice).
    fn chance_choices(&self) -> impl Iterator<Item = (u32, &ir::Choose)> {
        self.ir.blocks.iter().enumerate().filter_map(|(i, b)| match &b.term {
            Term::Choose(c) if c.chooser.is_none() => Some((i as u32, &**c)),
            _ => None,
        })
    }

    /// `release_buffers` (the scratch made anew), and `hold_candidates`
    /// and `apply_held`, or not those (the trait's defaults: no
    /// candidates held) for a game without chance.
    pub fn held_hooks(&self) -> TokenStream {
        let release = quote! {
            fn release_buffers(&self) {
                *self.scratch.borrow_mut() = ::std::default::Default::default();
            }
        };
        if self.chance_choices().next().is_none() {
            return release;
        }
        let holds = self.chance_choices().map(|(id, c)| {
            let field = self.choice_field(c.choice_ty);
            quote!(#id => {
                let mut sc = self.scratch.borrow_mut();
                sc.odds = ::std::default::Default::default();
                Some(::galac_runtime::game::Held::new(::std::mem::take(&mut sc.#field)))
            })
        });
        let applies = self.chance_choices().map(|(id, c)| {
            let ty = self.ty(&self.ir.choice_tys[c.choice_ty as usize]);
            let bind = self.bind(&c.pattern, quote!(__x.clone()), Ctx::Flow);
            let next = c.next.0;
            quote! {
                #id => {
                    let Some(__held) = held.get::<Vec<#ty>>() else {
                        return Err(::galac_runtime::game::GameError::Other {
                            message: "internal error, please report: candidates held for another choice".into(),
                            at: String::new(),
                        });
                    };
                    let Some(__x) = __held.get(action as usize) else {
                        return Err(::galac_runtime::game::GameError::Other {
                            message: "internal error, please report: an outcome past the held candidates".into(),
                            at: String::new(),
                        });
                    };
                    #bind
                    s.block = #next;
                }
            }
        });
        quote! {
            #release

            fn hold_candidates(&self, s: &State) -> Option<::galac_runtime::game::Held> {
                match s.block {
                    #(#holds)*
                    _ => None,
                }
            }

            fn apply_held(
                &self,
                s: &mut State,
                held: &::galac_runtime::game::Held,
                action: u32,
                info: &mut ::galac_runtime::info::InfoInterner,
            ) -> ::std::result::Result<(), ::galac_runtime::game::GameError> {
                let g = self;
                let mut __steps = g.step_limit;
                let steps = &mut __steps;
                match s.block {
                    #(#applies)*
                    _ => return self.apply(s, action, info),
                }
                Ok(())
            }
        }
    }
}
