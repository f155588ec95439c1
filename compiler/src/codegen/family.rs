//! A game's `Family`: the games of one description, one per choice of
//! params (their kinds, defaults and `where` conditions), as generated code.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::emit::{clean, Emitter};
use crate::ir;
use crate::typeck::consts::ParamKind;
use crate::typeck::types::Ty;

/// The family of games of this description, one per choice of params.
pub(super) fn family(ir: &ir::Program, e: &Emitter) -> TokenStream {
    let name = Literal::string(&ir.name);
    let specs = ir.params.iter().map(|p| {
        let name = Literal::string(&p.name);
        let kind = match param_kind(&p.ty) {
            ParamKind::Int => quote!(Int),
            ParamKind::Bool => quote!(Bool),
            ParamKind::Cards => quote!(Cards),
            ParamKind::Range => quote!(Range),
        };
        let constant = p.constant;
        quote!(::galac_runtime::params::ParamSpec {
            name: #name,
            kind: ::galac_runtime::params::ParamKind::#kind,
            constant: #constant,
        })
    });
    let param_help: Vec<String> = ir
        .params
        .iter()
        .filter(|p| !p.constant)
        .map(|p| format!("{}: {} = {}", p.name, p.ty, ir.show(&p.default)))
        .collect();
    let param_help = Literal::string(&if param_help.is_empty() { "none".to_string() } else { param_help.join(", ") });
    let param_values = ir.params.iter().enumerate().map(|(i, p)| {
        let f = param_field(i, p);
        let default = e.param_default_expr(&p.default);
        let t = e.ty(&p.ty);
        let pv = quote!(::galac_runtime::params::ParamValue);
        let list = quote!(::galac_runtime::value::List::from_vec);
        let given = match param_kind(&p.ty) {
            ParamKind::Int => quote!(Some(#pv::Int(v)) => *v,),
            ParamKind::Bool => quote!(Some(#pv::Bool(v)) => *v,),
            ParamKind::Cards => quote!(Some(#pv::Cards(v)) => #list(v.clone()),),
            ParamKind::Range => {
                quote!(Some(#pv::Range(v)) => #list(v.iter().map(|(h, w)| (#list(h.clone()), *w)).collect()),)
            }
        };
        let name = Literal::string(&p.name);
        // A `where` condition, with the interpreter's messages.
        let check = p.check.as_ref().map(|check| {
            let cond = e.param_default_expr(&check.cond);
            let broken = Literal::string(&check.broken(&p.name));
            let site = Literal::string(&check.site);
            quote! {
                let __met = (|| -> ::std::result::Result<bool, ::galac_runtime::game::GameError> { Ok(#cond) })()
                    .map_err(|e| format!("{}the condition of param `{}` cannot be computed: {}", #site, #name, e.message()))?;
                if !__met {
                    return Err(#broken.to_string());
                }
            }
        });
        quote! {
            let #f: #t = match &__given[#i] {
                #given
                _ => (|| -> ::std::result::Result<#t, ::galac_runtime::game::GameError> { Ok(#default) })()
                    .map_err(|e| format!("the default of param `{}` cannot be computed: {}", #name, e.message()))?,
            };
            #check
        }
    });
    let param_names = ir.params.iter().enumerate().map(|(i, p)| param_field(i, p));
    quote! {
        /// The whole family of games of this description, one per choice of params.
        pub struct Family;

        impl ::galac_runtime::game::Family for Family {
            type Game = Game;

            fn name(&self) -> &str {
                #name
            }

            fn param_help(&self) -> String {
                #param_help.to_string()
            }

            fn instantiate(&self, overrides: &[String], step_limit: u64) -> ::std::result::Result<Game, String> {
                let specs = [#(#specs),*];
                let __given = ::galac_runtime::params::parse_overrides(#name, &specs, overrides)?;
                let params = (|| -> ::std::result::Result<Params, String> {
                    #(#param_values)*
                    Ok(Params { #(#param_names),* })
                })()?;
                Ok(Game::new(params, step_limit))
            }
        }
    }
}

/// How the param of type `ty` is written (the checker allowed no other type).
pub(super) fn param_kind(ty: &Ty) -> ParamKind {
    crate::typeck::consts::param_kind(ty).unwrap_or(ParamKind::Int)
}

pub(super) fn param_field(i: usize, p: &crate::typeck::tast::Param) -> proc_macro2::Ident {
    format_ident!("p{}_{}", i, clean(&p.name))
}
