//! Name resolution and static type checking: AST to the typed program.
//!
//! The checker never stops at the first problem: every error is pushed into
//! one list (sorted by position at the end) and an erroneous expression gets
//! the type [`Ty::Error`], which is compatible with everything, so that one
//! mistake yields one message. A typed program is returned only when there
//! are no errors.

pub mod builtins;
mod call;
mod checker;
pub mod consts;
mod env;
pub mod evaluate;
mod expr;
mod recursion;
mod scoping;
mod stmt;
pub mod tast;
pub mod types;
mod unused;
mod variants;

use std::collections::{HashMap, HashSet};

use crate::ast;
use crate::diagnostic::{did_you_mean, Diagnostic, Severity};
use crate::span::Span;
use checker::{too_deep, too_deep_to_compile, Checker};
pub use checker::{MAX_EXPR_DEPTH, MAX_TYPE_DEPTH};
use env::{Body, BodyKind, Env, FlowSig, FnSig, Global};
use tast::{FlowId, FnId, ParamId, VarId};
use types::{EnumId, Ty};

/// Checks a parsed program.
pub fn check(program: &ast::Program) -> (Option<tast::Program>, Vec<Diagnostic>) {
    check_for(program, None)
}

/// Checks a parsed program for the given values of its params (`Some`:
/// array lengths computed from them are known, as if written as literals;
/// the program `codegen` specialises), or for any values (`None`).
pub fn check_for(
    program: &ast::Program,
    params: Option<&[consts::ParamValue]>,
) -> (Option<tast::Program>, Vec<Diagnostic>) {
    let mut checker = Checker {
        env: Env::default(),
        problems: Vec::new(),
        body: Body::new(BodyKind::Flow),
        used: HashSet::new(),
        params: params.map(<[_]>::to_vec),
    };
    let typed = checker.program(program);
    let mut problems = checker.problems;
    problems.sort_by_key(|d| d.primary_span());
    let ok = !problems.iter().any(|d| d.severity == Severity::Error);
    (typed.filter(|_| ok), problems)
}

impl Checker {
    fn program(&mut self, p: &ast::Program) -> Option<tast::Program> {
        self.collect_players(p);
        self.collect_enums(p);
        let params = self.collect_params(p);
        let vars = self.collect_vars(p);
        let (fn_decls, flow_decls, main) = self.collect_callables(p);

        let params = self.check_params(params);
        let vars = self.check_vars(vars);
        let fns: Vec<tast::Fn> = fn_decls.iter().map(|f| self.check_fn(f)).collect();
        let flows: Vec<tast::Flow> = flow_decls.iter().map(|f| self.check_flow(f)).collect();
        self.problems.extend(recursion::check_flow_recursion(&flows));
        self.warn_unused_globals();
        self.problems.extend(evaluate::check(&vars, &fns));

        let main_flow = match main {
            Some(id) => id,
            None => {
                self.error(
                    Diagnostic::error(format!("game `{}` has no main flow", p.name.name))
                        .primary(p.name.span, "this game never starts")
                        .help("add the main flow: `flow { ... }`"),
                );
                return None;
            }
        };
        Some(tast::Program {
            name: p.name.name.clone(),
            players: self.env.players.clone(),
            params,
            enums: self.env.enums.clone(),
            vars,
            fns,
            flows,
            main_flow,
            facts: self.env.facts.clone(),
        })
    }

    /// Declares a global name, reporting a duplicate.
    fn declare_global(&mut self, name: &ast::Ident, g: Global) -> bool {
        if let Some((prev, prev_span)) = self.env.globals.get(&name.name).copied() {
            // Declarations are collected kind by kind: say which comes first in the file.
            let d = Diagnostic::error(format!("`{}` is declared twice", name.name));
            let d = if prev_span.start < name.span.start {
                d.primary(name.span, format!("declared again here as a {}", g.describe()))
                    .secondary(prev_span, format!("first declared here as a {}", prev.describe()))
            } else {
                d.primary(prev_span, format!("declared again here as a {}", prev.describe()))
                    .secondary(name.span, format!("first declared here as a {}", g.describe()))
            };
            self.error(d);
            return false;
        }
        if let Some(vs) = self.env.variants.get(&name.name) {
            let (e, _) = vs[0];
            let enum_name = self.env.enums[e.0 as usize].name.clone();
            self.error(
                Diagnostic::error(format!("`{}` is declared twice", name.name))
                    .primary(name.span, "declared again here")
                    .note(format!("`{}` is already a variant of enum `{enum_name}`", name.name)),
            );
            return false;
        }
        self.env.globals.insert(name.name.clone(), (g, name.span));
        true
    }

    fn collect_players(&mut self, p: &ast::Program) {
        let mut decls = p.items.iter().filter_map(|i| match i {
            ast::Item::Players(d) => Some(d),
            _ => None,
        });
        let Some(first) = decls.next() else {
            self.error(
                Diagnostic::error(format!("game `{}` declares no players", p.name.name))
                    .primary(p.name.span, "who plays this game?")
                    .help("declare the players in turn order: `players alice, bob;`"),
            );
            return;
        };
        for again in decls {
            self.error(
                Diagnostic::error("players are declared twice")
                    .primary(again.span, "second `players` declaration")
                    .secondary(first.span, "first declared here")
                    .help("list all players in one declaration, in turn order"),
            );
        }
        for name in &first.names {
            let idx = self.env.players.len() as u32;
            // A duplicate is reported but still counted, so that per-player
            // arrays are checked against the players as written.
            self.declare_global(name, Global::Player(idx));
            self.env.players.push(name.name.clone());
        }
        if let Some(extra) = first.names.get(galac_runtime::ops::MAX_PLAYERS) {
            self.error(
                Diagnostic::error(format!("more than {} players", galac_runtime::ops::MAX_PLAYERS))
                    .primary(extra.span, format!("player number {}", galac_runtime::ops::MAX_PLAYERS + 1))
                    .note("the game tree numbers a decision's player in one byte"),
            );
        }
    }

    fn collect_enums(&mut self, p: &ast::Program) {
        for item in &p.items {
            let ast::Item::Enum(e) = item else { continue };
            let id = EnumId(self.env.enums.len() as u32);
            if !self.declare_global(&e.name, Global::Enum(id)) {
                continue;
            }
            if e.variants.is_empty() {
                self.error(
                    Diagnostic::error(format!("enum `{}` has no variants", e.name.name))
                        .primary(e.span, "an empty enum has no values")
                        .help("list its values: `enum Move { Pass, Bet }`"),
                );
            }
            let mut names: Vec<String> = Vec::new();
            for v in &e.variants {
                let v = &v.name;
                if names.contains(&v.name) {
                    self.error(
                        Diagnostic::error(format!("variant `{}` is declared twice in enum `{}`", v.name, e.name.name))
                            .primary(v.span, "declared again here"),
                    );
                    continue;
                }
                if let Some((g, span)) = self.env.globals.get(&v.name).copied() {
                    self.error(
                        Diagnostic::error(format!("`{}` is declared twice", v.name))
                            .primary(v.span, "declared again here as an enum variant")
                            .secondary(span, format!("first declared here as a {}", g.describe())),
                    );
                    continue;
                }
                self.env.variants.entry(v.name.clone()).or_default().push((id, names.len() as u32));
                names.push(v.name.clone());
            }
            let fields = vec![Vec::new(); names.len()];
            self.env.enums.push(tast::Enum { name: e.name.name.clone(), variants: names, fields });
        }
        self.collect_variant_fields(p);
    }

    /// The field types of variants such as `Bid(int, int)`, once every enum
    /// is known: scalars only (int, bool, player, card or an enum without
    /// fields), so that a value is one flat tuple (see [`tast::Enum::repr`]).
    fn collect_variant_fields(&mut self, p: &ast::Program) {
        // Enums with fields, known before any field is resolved: a field of
        // such an enum (itself included) would not be a scalar.
        let with_fields: std::collections::HashSet<&str> = p
            .items
            .iter()
            .filter_map(|item| match item {
                ast::Item::Enum(e) if e.variants.iter().any(|v| !v.fields.is_empty()) => Some(e.name.name.as_str()),
                _ => None,
            })
            .collect();
        let mut id = 0;
        for item in &p.items {
            let ast::Item::Enum(e) = item else { continue };
            if !matches!(self.env.globals.get(&e.name.name), Some((Global::Enum(EnumId(i)), _)) if *i == id) {
                continue;
            }
            let mut seen = 0;
            for v in &e.variants {
                let Some(index) = self.env.enums[id as usize].variants.iter().position(|n| *n == v.name.name) else {
                    continue;
                };
                if index < seen {
                    continue; // a repeated name, already reported
                }
                seen = index + 1;
                let mut tys = Vec::new();
                for f in &v.fields {
                    let ty = self.resolve_type(f);
                    let scalar = match &ty {
                        Ty::Int | Ty::Bool | Ty::Player | Ty::Card | Ty::Error => true,
                        Ty::Enum(_, name) => !with_fields.contains(&**name),
                        _ => false,
                    };
                    if !scalar {
                        self.error(
                            Diagnostic::error(format!("variant `{}` has a field of type `{ty}`", v.name.name)).primary(
                                f.span,
                                "a field must be `int`, `bool`, `player`, `card` or an enum without fields",
                            ),
                        );
                    }
                    tys.push(if scalar { ty } else { Ty::Error });
                }
                self.env.enums[id as usize].fields[index] = tys;
            }
            id += 1;
        }
    }

    /// Declares the params and constants in order. A constant without a
    /// type takes its value's: its value is checked here, where the params
    /// before it are known, and kept for `check_params`.
    fn collect_params<'a>(&mut self, p: &'a ast::Program) -> Vec<(&'a ast::ParamDecl, Option<tast::Expr>)> {
        let mut out = Vec::new();
        for item in &p.items {
            let ast::Item::Param(d) = item else { continue };
            let id = ParamId(self.env.params.len() as u32);
            if !self.declare_global(&d.name, Global::Param(id)) {
                continue;
            }
            let what = if d.constant { "constant" } else { "param" };
            let (ty, ty_span, checked) = match &d.ty {
                Some(t) => (self.resolve_type(t), t.span, None),
                None => {
                    self.body = Body::new(BodyKind::ParamDefault { upto: id.0 });
                    let value = self.check_expr(&d.default, None);
                    (value.ty.clone(), d.default.span, Some(value))
                }
            };
            if !ty.is_error() && consts::param_kind(&ty).is_none() {
                let mut diag = Diagnostic::error(format!("{what} `{}` has type `{ty}`", d.name.name))
                    .primary(ty_span, format!("{what}s must be `int`, `bool`, `list<card>` or `range`"));
                if !d.constant {
                    diag = diag.note("params are set on the command line with `--param name=value`");
                }
                self.error(diag);
            }
            self.env.params.push((d.name.name.clone(), ty));
            self.env.constants.push(d.constant);
            out.push((d, checked));
        }
        out
    }

    fn collect_vars<'a>(&mut self, p: &'a ast::Program) -> Vec<&'a ast::VarDecl> {
        let mut out = Vec::new();
        for item in &p.items {
            let ast::Item::Var(d) = item else { continue };
            let id = VarId(self.env.vars.len() as u32);
            if !self.declare_global(&d.name, Global::Var(id)) {
                continue;
            }
            let ty = self.resolve_type(&d.ty);
            self.env.vars.push((d.name.name.clone(), ty));
            out.push(d);
        }
        out
    }

    #[allow(clippy::type_complexity)]
    fn collect_callables<'a>(
        &mut self,
        p: &'a ast::Program,
    ) -> (Vec<&'a ast::FnDecl>, Vec<&'a ast::FlowDecl>, Option<FlowId>) {
        let mut fns = Vec::new();
        let mut flows = Vec::new();
        let mut main: Option<(FlowId, Span)> = None;
        for item in &p.items {
            match item {
                ast::Item::Fn(f) => {
                    let id = FnId(self.env.fns.len() as u32);
                    if !self.declare_global(&f.name, Global::Fn(id)) {
                        continue;
                    }
                    let params = f.params.iter().map(|b| self.resolve_type(&b.ty)).collect();
                    let ret = self.resolve_type(&f.ret);
                    self.env.fns.push(FnSig { params, ret });
                    fns.push(f);
                }
                ast::Item::Flow(f) => {
                    let id = FlowId(self.env.flows.len() as u32);
                    match &f.name {
                        Some(name) => {
                            if !self.declare_global(name, Global::Flow(id)) {
                                continue;
                            }
                        }
                        None => {
                            let head = Span { end: f.span.start + 4, ..f.span };
                            if let Some((_, prev)) = main {
                                self.error(
                                    Diagnostic::error("the game has two main flows")
                                        .primary(head, "second main flow")
                                        .secondary(prev, "first main flow")
                                        .help("give the other flows names: `flow deal() { ... }`"),
                                );
                                continue;
                            }
                            main = Some((id, head));
                        }
                    }
                    let params = f.params.iter().map(|b| self.resolve_type(&b.ty)).collect();
                    self.env.flows.push(FlowSig { params });
                    flows.push(f);
                }
                _ => {}
            }
        }
        (fns, flows, main.map(|(id, _)| id))
    }

    fn check_params(&mut self, decls: Vec<(&ast::ParamDecl, Option<tast::Expr>)>) -> Vec<tast::Param> {
        let mut out = Vec::new();
        // Default values, to report a default that cannot be computed.
        let mut values: Vec<consts::ParamValue> = Vec::new();
        for (i, (d, checked)) in decls.into_iter().enumerate() {
            self.body = Body::new(BodyKind::ParamDefault { upto: i as u32 });
            let ty = self.env.params[i].1.clone();
            let default = match (checked, &d.text) {
                (Some(value), _) => value,
                (None, Some(text)) => self.text_default(d, text, &ty),
                (None, None) => self.check_expr(&d.default, Some(&ty)),
            };
            if !default.ty.has_error() {
                match consts::eval_const(&default, &values) {
                    Ok(v) => values.push(v),
                    Err(why) => {
                        self.error(
                            Diagnostic::error(format!(
                                "the {} `{}` cannot be computed: {why}",
                                if d.constant { "value of constant" } else { "default of param" },
                                d.name.name
                            ))
                            .primary(d.default.span, why),
                        );
                        values.push(consts::ParamValue::Int(0));
                    }
                }
            } else {
                values.push(consts::ParamValue::Int(0));
            }
            let check = d.check.as_ref().map(|c| self.check_param_condition(d, c, i, &values));
            let default = default.into();
            out.push(tast::Param { name: d.name.name.clone(), ty, default, constant: d.constant, check, span: d.span });
        }
        out
    }

    /// A param's `where` condition: a `bool` of literals and the params up
    /// to this one (`values`: their defaults), which the default must meet.
    fn check_param_condition(
        &mut self,
        d: &ast::ParamDecl,
        cond: &ast::Expr,
        i: usize,
        values: &[consts::ParamValue],
    ) -> tast::ParamCheck {
        self.body = Body::new(BodyKind::ParamDefault { upto: i as u32 + 1 });
        let reported = self.problems.len();
        let cond = self.check_expr(cond, Some(&Ty::Bool));
        // A condition in error (of another type) is reported by
        // `check_expr` alone, not evaluated.
        let failed = self.problems[reported..].iter().any(|d| d.severity == Severity::Error);
        if !failed && values.len() == i + 1 {
            let broken = match consts::eval_const(&cond, values) {
                Ok(consts::ParamValue::Bool(true)) => None,
                Ok(_) => Some(format!("the default of param `{}` breaks its condition", d.name.name)),
                Err(why) => Some(format!("the condition of param `{}` cannot be computed: {why}", d.name.name)),
            };
            if let Some(msg) = broken {
                self.error(
                    Diagnostic::error(msg)
                        .primary(cond.span, "this condition")
                        .secondary(d.default.span, "the default"),
                );
            }
        }
        tast::ParamCheck { cond, site: String::new(), text: String::new() }
    }

    fn check_vars(&mut self, decls: Vec<&ast::VarDecl>) -> Vec<tast::Var> {
        let mut out = Vec::new();
        for (i, d) in decls.into_iter().enumerate() {
            self.body = Body::new(BodyKind::VarInit { upto: i as u32 });
            let ty = self.env.vars[i].1.clone();
            let init = self.check_expr(&d.init, Some(&ty));
            out.push(tast::Var { name: d.name.name.clone(), ty, init, span: d.span });
        }
        out
    }

    fn check_fn(&mut self, f: &ast::FnDecl) -> tast::Fn {
        let id = self.env.globals.get(&f.name.name).map(|(g, _)| *g);
        let (params, ret) = match id {
            Some(Global::Fn(id)) => {
                let sig = &self.env.fns[id.0 as usize];
                (sig.params.clone(), sig.ret.clone())
            }
            _ => (Vec::new(), Ty::Error),
        };
        self.body = Body::new(BodyKind::Fn);
        self.body.ret = Some(ret.clone());
        self.declare_params(&f.params, &params);
        let body = self.check_block(&f.body);
        if !stmt::always_returns(&f.body) {
            let end = Span { start: f.body.span.end.saturating_sub(1), ..f.body.span };
            self.error(
                Diagnostic::error(format!("function `{}` may end without returning a value", f.name.name))
                    .primary(end, "the end of the function can be reached")
                    .secondary(f.ret.span, format!("it must return {}", ret.a()))
                    .help("add `return <value>;` on every path"),
            );
        }
        self.warn_unused_locals();
        let locals = std::mem::take(&mut self.body.locals);
        tast::Fn { name: f.name.name.clone(), n_params: params.len() as u32, ret, locals, body, span: f.span }
    }

    fn check_flow(&mut self, f: &ast::FlowDecl) -> tast::Flow {
        let params: Vec<Ty> = match &f.name {
            Some(n) => match self.env.globals.get(&n.name).map(|(g, _)| *g) {
                Some(Global::Flow(id)) => self.env.flows[id.0 as usize].params.clone(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        self.body = Body::new(BodyKind::Flow);
        self.declare_params(&f.params, &params);
        let body = self.check_block(&f.body);
        self.warn_unused_locals();
        let locals = std::mem::take(&mut self.body.locals);
        tast::Flow {
            name: f.name.as_ref().map(|n| n.name.clone()),
            n_params: params.len() as u32,
            locals,
            body,
            span: f.span,
        }
    }

    fn declare_params(&mut self, bindings: &[ast::ParamBinding], tys: &[Ty]) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for (b, ty) in bindings.iter().zip(tys) {
            if let Some(prev) = seen.insert(&b.name.name, b.name.span) {
                self.error(
                    Diagnostic::error(format!("parameter `{}` is declared twice", b.name.name))
                        .primary(b.name.span, "declared again here")
                        .secondary(prev, "first declared here"),
                );
            }
            self.body.declare(&b.name.name, ty.clone(), false, Some(b.name.span));
        }
    }

    /// Resolves a written type.
    /// The type written as `t`, if it nests no deeper than [`MAX_TYPE_DEPTH`]
    /// (reported once, at the innermost part past the bound).
    fn resolve_type(&mut self, t: &ast::Type) -> Ty {
        let ty = self.resolve_type_parts(t);
        if ty.depth() > MAX_TYPE_DEPTH {
            self.error(too_deep_to_compile(t.span, "type", MAX_TYPE_DEPTH));
            return Ty::Error;
        }
        ty
    }

    fn resolve_type_parts(&mut self, t: &ast::Type) -> Ty {
        match &t.kind {
            ast::TypeKind::Int => Ty::Int,
            ast::TypeKind::Bool => Ty::Bool,
            ast::TypeKind::Player => Ty::Player,
            ast::TypeKind::Named(name) => {
                match self.env.globals.get(&name.name).map(|(g, _)| *g) {
                    Some(Global::Enum(id)) => self.env.enum_ty(id),
                    _ if name.name == "card" => Ty::Card,
                    _ if name.name == "range" => types::range_ty(),
                    Some(g) => {
                        self.error(
                            Diagnostic::error(format!("`{}` is not a type", name.name))
                                .primary(name.span, format!("this is a {}", g.describe())),
                        );
                        Ty::Error
                    }
                    None => {
                        let builtin = ["int", "bool", "player", "card", "range"];
                        let enums: Vec<&str> = self.env.enums.iter().map(|e| e.name.as_str()).collect();
                        let help = did_you_mean(&name.name, enums.iter().copied().chain(builtin));
                        self.error(
                        Diagnostic::error(format!("unknown type `{}`", name.name))
                            .primary(name.span, "not a type")
                            .with_help(help.or_else(|| {
                                Some("types are int, bool, player, card, enums, tuples, [T; n], [player]T and list<T>".into())
                            })),
                    );
                        Ty::Error
                    }
                }
            }
            ast::TypeKind::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.resolve_type(t)).collect()),
            ast::TypeKind::Array(elem, len) => {
                let elem = self.resolve_type(elem);
                let saved = std::mem::replace(&mut self.body, Body::new(BodyKind::ArrayLen));
                let len_expr = self.check_expr(len, Some(&Ty::Int));
                self.body = saved;
                // Lengths written with literals only are known now; those
                // using params are checked when the game is generated
                // (or known now, when checking for the params' values).
                let n = self.known_int(&len_expr);
                if let Some(n) = n.filter(|n| *n < 0) {
                    self.error(Diagnostic::error("array length is negative").primary(len.span, format!("length {n}")));
                }
                Ty::Array(Box::new(elem), n)
            }
            ast::TypeKind::PerPlayer(elem) => Ty::PerPlayer(Box::new(self.resolve_type(elem))),
            ast::TypeKind::List(elem) => Ty::List(Box::new(self.resolve_type(elem))),
            ast::TypeKind::TooDeep => {
                self.error(too_deep(t.span, "type"));
                Ty::Error
            }
        }
    }
}
