//! Checking expressions: name resolution and types, bidirectionally (an
//! expected type flows into list literals and `[e; n]`).

use super::checker::{too_deep, too_deep_to_compile, Checker, MAX_EXPR_DEPTH, MAX_TYPE_DEPTH};
use super::env::{BodyKind, Global};
use super::tast::{Expr, ExprKind, ParamId, VarId};
use super::types::Ty;
use crate::ast::{self, BinOp, UnOp};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::span::Span;

impl Checker {
    /// Checks `e`; when `expected` is given, reports a mismatch with it.
    pub(super) fn check_expr(&mut self, e: &ast::Expr, expected: Option<&Ty>) -> Expr {
        let typed = self.infer_expr(e, expected);
        if let Some(want) = expected {
            if typed.ty != *want {
                self.error(mismatch(e.span, want, &typed.ty));
                return Expr { ty: want.clone(), ..typed };
            }
        }
        typed
    }

    /// Checks that `e` is an `int`.
    pub(super) fn check_int(&mut self, e: &ast::Expr) -> Expr {
        self.check_expr(e, Some(&Ty::Int))
    }

    pub(super) fn check_bool(&mut self, e: &ast::Expr) -> Expr {
        self.check_expr(e, Some(&Ty::Bool))
    }

    /// Checks that `e` denotes a player.
    pub(super) fn check_player(&mut self, e: &ast::Expr, role: &str) -> Expr {
        let typed = self.infer_expr(e, Some(&Ty::Player));
        if typed.ty != Ty::Player {
            self.error(
                Diagnostic::error(format!("{role} must be a player, found `{}`", typed.ty))
                    .primary(e.span, format!("this is {}", typed.ty.a()))
                    .with_help(if self.env.players.is_empty() {
                        None
                    } else {
                        Some(format!("the players are {}", self.env.players.join(", ")))
                    }),
            );
            return Expr::error(e.span);
        }
        typed
    }

    /// Checks `e` using `expected` only as a hint; the caller reports mismatches.
    pub(super) fn infer_expr(&mut self, e: &ast::Expr, expected: Option<&Ty>) -> Expr {
        // Reported once, at the subexpression just past the bound (its
        // enclosing expressions see an error and say nothing more).
        if e.depth == MAX_EXPR_DEPTH + 1 {
            self.error(too_deep_to_compile(e.span, "expression", MAX_EXPR_DEPTH));
            return Expr::error(e.span);
        }
        let typed = self.infer_expr_parts(e, expected);
        let deep = |t: &Ty| t.depth() > MAX_TYPE_DEPTH;
        if deep(&typed.ty) && !typed.kind.children().any(|c| deep(&c.ty)) {
            self.error(
                too_deep_to_compile(e.span, "type", MAX_TYPE_DEPTH)
                    .note(format!("this value's type nests {} levels deep", typed.ty.depth())),
            );
            return Expr::error(e.span);
        }
        typed
    }

    fn infer_expr_parts(&mut self, e: &ast::Expr, expected: Option<&Ty>) -> Expr {
        let span = e.span;
        let (kind, ty) = match &e.kind {
            ast::ExprKind::Int(n) => (ExprKind::Int(*n), Ty::Int),
            ast::ExprKind::Card(r, s) => (ExprKind::Int(super::types::card(*r, *s)), Ty::Card),
            ast::ExprKind::Bool(b) => (ExprKind::Bool(*b), Ty::Bool),
            ast::ExprKind::Name(name) => return self.resolve_name(name, span),
            ast::ExprKind::Path(en, variant) => return self.resolve_path(en, variant, span),
            ast::ExprKind::Players => {
                if !self.can_see_game() {
                    return self.not_here(span, "`players`");
                }
                (ExprKind::Players, Ty::List(Box::new(Ty::Player)))
            }
            ast::ExprKind::CurrentPlayer | ast::ExprKind::Opponent => {
                let is_player = matches!(e.kind, ast::ExprKind::CurrentPlayer);
                let word = if is_player { "player" } else { "opponent" };
                let Some(current) = self.body.turns.last().copied() else {
                    self.error(
                        Diagnostic::error(format!("`{word}` is only bound inside `take_turns`"))
                            .primary(span, "no take_turns loop encloses this")
                            .help("pass the player as an argument, e.g. `flow bet(p: player) { ... }`"),
                    );
                    return Expr::error(span);
                };
                let local = Expr { kind: ExprKind::Local(current), ty: Ty::Player, span };
                if is_player {
                    return local;
                }
                (ExprKind::Builtin(super::tast::Builtin::Next, vec![local]), Ty::Player)
            }
            ast::ExprKind::BoolDomain => {
                self.error(
                    Diagnostic::error("`bool` is a type, not a value")
                        .primary(span, "used as a value here")
                        .help("`bool` can be a domain: `choose p b in bool;`"),
                );
                return Expr::error(span);
            }
            ast::ExprKind::Call(name, args) => return self.check_call(name, args, span),
            ast::ExprKind::Index(base, idx) => return self.check_index(base, idx, span),
            ast::ExprKind::Field(base, n) => {
                let b = self.check_expr(base, None);
                match &b.ty {
                    Ty::Tuple(ts) if (*n as usize) < ts.len() => {
                        let ty = ts[*n as usize].clone();
                        (ExprKind::Field(Box::new(b), *n), ty)
                    }
                    Ty::Tuple(ts) => {
                        let len = ts.len();
                        self.error(
                            Diagnostic::error(format!("tuple has no field `{n}`"))
                                .primary(span, format!("a tuple with {len} fields, numbered from 0")),
                        );
                        return Expr::error(span);
                    }
                    Ty::Error => return Expr::error(span),
                    other => {
                        let other = other.clone();
                        self.error(
                            Diagnostic::error(format!("`.{n}` on a value of type `{other}`"))
                                .primary(base.span, "not a tuple")
                                .note("only tuples have numbered fields"),
                        );
                        return Expr::error(span);
                    }
                }
            }
            ast::ExprKind::Unary(UnOp::Neg, inner) => {
                let x = self.check_int(inner);
                (ExprKind::Neg(Box::new(x)), Ty::Int)
            }
            ast::ExprKind::Unary(UnOp::Not, inner) => {
                let x = self.check_bool(inner);
                (ExprKind::Not(Box::new(x)), Ty::Bool)
            }
            ast::ExprKind::Binary(op, a, b) => return self.check_binary(*op, a, b, span),
            ast::ExprKind::Range { lo, hi, inclusive } => {
                let lo = self.check_int(lo);
                let hi = self.check_int(hi);
                (
                    ExprKind::Range { lo: Box::new(lo), hi: Box::new(hi), inclusive: *inclusive },
                    Ty::List(Box::new(Ty::Int)),
                )
            }
            ast::ExprKind::If(c, a, b) => {
                let c = self.check_bool(c);
                let a = self.check_expr(a, expected);
                let b_typed = self.check_expr(b, Some(&a.ty));
                let ty = if a.ty.is_error() { b_typed.ty.clone() } else { a.ty.clone() };
                (ExprKind::If(Box::new(c), Box::new(a), Box::new(b_typed)), ty)
            }
            ast::ExprKind::Tuple(items) => {
                let want: Option<&Vec<Ty>> = match expected {
                    Some(Ty::Tuple(ts)) if ts.len() == items.len() => Some(ts),
                    _ => None,
                };
                let typed: Vec<Expr> =
                    items.iter().enumerate().map(|(i, x)| self.check_expr(x, want.map(|w| &w[i]))).collect();
                let ty = Ty::Tuple(typed.iter().map(|x| x.ty.clone()).collect());
                (ExprKind::Tuple(typed), ty)
            }
            ast::ExprKind::List(items) => return self.check_list(items, expected, span),
            ast::ExprKind::Repeat(value, count) => return self.check_repeat(value, count, expected, span),
            ast::ExprKind::TooDeep => {
                self.error(too_deep(span, "expression"));
                return Expr::error(span);
            }
        };
        Expr { kind, ty, span }
    }

    /// Whether the current body may use game-level names such as `players`.
    fn can_see_game(&self) -> bool {
        !matches!(self.body.kind, BodyKind::ParamDefault { .. } | BodyKind::ArrayLen)
    }

    fn not_here(&mut self, span: Span, what: &str) -> Expr {
        let place = match self.body.kind {
            BodyKind::ParamDefault { .. } => "a param default",
            BodyKind::ArrayLen => "an array length",
            BodyKind::VarInit { .. } => "a state variable's initial value",
            BodyKind::Fn => "a function",
            BodyKind::Flow => "a flow",
        };
        self.error(
            Diagnostic::error(format!("{what} cannot be used in {place}")).primary(span, "not available here").note(
                match self.body.kind {
                    BodyKind::ParamDefault { .. } | BodyKind::ArrayLen => {
                        "param defaults and array lengths may use literals and earlier params only"
                    }
                    BodyKind::VarInit { .. } => "initial values may use params, earlier state variables and functions",
                    BodyKind::Fn => "functions are pure: they see their arguments and the params, not the game state",
                    BodyKind::Flow => "",
                },
            ),
        );
        Expr::error(span)
    }

    fn resolve_name(&mut self, name: &ast::Ident, span: Span) -> Expr {
        if self.body.hidden.contains(&name.name) {
            self.error(
                Diagnostic::error(format!("`{}` is chosen in the same simultaneous move", name.name))
                    .primary(span, "read here, before the move is over")
                    .note("in a simultaneous move no choice can depend on another; the chosen values are known after the `simultaneous` block"),
            );
            return Expr::error(span);
        }
        if let Some(id) = self.body.lookup(&name.name) {
            self.body.read[id.0 as usize] = true;
            let ty = self.body.local(id).ty.clone();
            return Expr { kind: ExprKind::Local(id), ty, span };
        }
        if let Some((g, decl_span)) = self.env.globals.get(&name.name).copied() {
            self.used.insert(name.name.clone());
            return match g {
                Global::Player(i) => {
                    if !self.can_see_game() {
                        return self.not_here(span, &format!("player `{}`", name.name));
                    }
                    Expr { kind: ExprKind::Player(i), ty: Ty::Player, span }
                }
                Global::Param(ParamId(i)) => {
                    if let BodyKind::ParamDefault { upto } = self.body.kind {
                        if i >= upto {
                            self.error(
                                Diagnostic::error(format!("param `{}` is used before it is declared", name.name))
                                    .primary(span, "used here")
                                    .secondary(decl_span, "declared here")
                                    .note("a param default may only use the params declared before it"),
                            );
                            return Expr::error(span);
                        }
                    }
                    let ty = self.env.params[i as usize].1.clone();
                    Expr { kind: ExprKind::Param(ParamId(i)), ty, span }
                }
                Global::Var(VarId(i)) => {
                    match self.body.kind {
                        BodyKind::Flow => {}
                        BodyKind::VarInit { upto } if i < upto => {}
                        BodyKind::VarInit { .. } => {
                            self.error(
                                Diagnostic::error(format!(
                                    "state variable `{}` is used before it is initialised",
                                    name.name
                                ))
                                .primary(span, "used here")
                                .secondary(decl_span, "declared here")
                                .note("state variables are initialised in declaration order"),
                            );
                            return Expr::error(span);
                        }
                        _ => return self.not_here(span, &format!("state variable `{}`", name.name)),
                    }
                    let ty = self.env.vars[i as usize].1.clone();
                    Expr { kind: ExprKind::Var(VarId(i)), ty, span }
                }
                Global::Enum(_) => {
                    self.error(
                        Diagnostic::error(format!("enum `{}` used as a value", name.name))
                            .primary(span, "this is a type")
                            .help(format!(
                                "write one of its values, `{}::<variant>`, or use it as a domain: `choose p x in {};`",
                                name.name, name.name
                            )),
                    );
                    Expr::error(span)
                }
                Global::Fn(_) | Global::Flow(_) => {
                    self.error(
                        Diagnostic::error(format!("{} `{}` used as a value", g.describe(), name.name))
                            .primary(span, format!("call it: `{}(...)`", name.name)),
                    );
                    Expr::error(span)
                }
            };
        }
        if let Some(vs) = self.env.variants.get(&name.name).cloned() {
            if vs.len() == 1 {
                let (id, idx) = vs[0];
                return self.variant_value(id, idx, None, span);
            }
            let options: Vec<String> =
                vs.iter().map(|(id, _)| format!("`{}::{}`", self.env.enums[id.0 as usize].name, name.name)).collect();
            self.error(
                Diagnostic::error(format!("`{}` is ambiguous", name.name))
                    .primary(span, "a variant of more than one enum")
                    .help(format!("write {}", options.join(" or "))),
            );
            return Expr::error(span);
        }
        let candidates: Vec<String> = self
            .body
            .visible_names()
            .map(str::to_string)
            .chain(self.env.globals.keys().cloned())
            .chain(self.env.variants.keys().cloned())
            .collect();
        let help = did_you_mean(&name.name, candidates.iter().map(String::as_str));
        self.error(
            Diagnostic::error(format!("unknown name `{}`", name.name))
                .primary(span, "not found in this scope")
                .with_help(help),
        );
        Expr::error(span)
    }

    fn resolve_path(&mut self, en: &ast::Ident, variant: &ast::Ident, span: Span) -> Expr {
        match self.env.globals.get(&en.name).map(|(g, _)| *g) {
            Some(Global::Enum(id)) => {
                let variants = &self.env.enums[id.0 as usize].variants;
                match variants.iter().position(|v| *v == variant.name) {
                    Some(idx) => self.variant_value(id, idx as u32, None, span),
                    None => {
                        let help = did_you_mean(&variant.name, variants.iter().map(String::as_str));
                        let list = variants.join(", ");
                        self.error(
                            Diagnostic::error(format!("enum `{}` has no variant `{}`", en.name, variant.name))
                                .primary(variant.span, "unknown variant")
                                .with_help(help.or(Some(format!("its variants are {list}")))),
                        );
                        Expr::error(span)
                    }
                }
            }
            _ => {
                let enums: Vec<&str> = self.env.enums.iter().map(|e| e.name.as_str()).collect();
                let help = did_you_mean(&en.name, enums.iter().copied());
                self.error(
                    Diagnostic::error(format!("unknown enum `{}`", en.name))
                        .primary(en.span, "not an enum")
                        .with_help(help),
                );
                Expr::error(span)
            }
        }
    }

    fn check_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        if self.body.lookup(&name.name).is_some() {
            self.error(
                Diagnostic::error(format!("`{}` is a local variable, not a function", name.name))
                    .primary(name.span, "called here"),
            );
            return Expr::error(span);
        }
        match self.env.globals.get(&name.name).map(|(g, _)| *g) {
            Some(Global::Fn(id)) => {
                if matches!(self.body.kind, BodyKind::ParamDefault { .. } | BodyKind::ArrayLen) {
                    return self.not_here(span, &format!("function `{}`", name.name));
                }
                self.used.insert(name.name.clone());
                let sig = &self.env.fns[id.0 as usize];
                let params = sig.params.clone();
                let ret = sig.ret.clone();
                let args = self.check_args(name, args, &params, span);
                Expr { kind: ExprKind::Call(id, args), ty: ret, span }
            }
            Some(Global::Flow(_)) => {
                self.error(
                    Diagnostic::error(format!("flow `{}` used in an expression", name.name))
                        .primary(span, "a flow produces game events, not a value")
                        .help(format!("call a flow as a statement: `{}(...);`", name.name)),
                );
                Expr::error(span)
            }
            Some(g) => {
                self.error(
                    Diagnostic::error(format!("`{}` is not a function", name.name))
                        .primary(name.span, format!("this is a {}", g.describe())),
                );
                Expr::error(span)
            }
            None if self.env.variants.contains_key(&name.name) => self.variant_call(name, args, span),
            None => match super::builtins::lookup(&name.name) {
                Some(b) => self.check_builtin(b, name, args, span),
                None => {
                    let fns: Vec<String> = self
                        .env
                        .globals
                        .iter()
                        .filter(|(_, (g, _))| matches!(g, Global::Fn(_) | Global::Flow(_)))
                        .map(|(n, _)| n.clone())
                        .chain(super::builtins::names().map(str::to_string))
                        .collect();
                    let help = did_you_mean(&name.name, fns.iter().map(String::as_str));
                    self.error(
                        Diagnostic::error(format!("unknown function `{}`", name.name))
                            .primary(name.span, "no function or flow of this name")
                            .with_help(help),
                    );
                    for a in args {
                        self.check_expr(a, None);
                    }
                    Expr::error(span)
                }
            },
        }
    }

    /// Checks call arguments against parameter types, reporting arity.
    pub(super) fn check_args(&mut self, name: &ast::Ident, args: &[ast::Expr], params: &[Ty], span: Span) -> Vec<Expr> {
        if args.len() != params.len() {
            self.error(
                Diagnostic::error(format!(
                    "`{}` takes {} argument{} but {} {} given",
                    name.name,
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ))
                .primary(span, "wrong number of arguments"),
            );
        }
        args.iter().enumerate().map(|(i, a)| self.check_expr(a, params.get(i))).collect()
    }

    fn check_index(&mut self, base: &ast::Expr, idx: &ast::Expr, span: Span) -> Expr {
        let b = self.check_expr(base, None);
        let (elem, idx_ty) = match &b.ty {
            Ty::Array(t, _) | Ty::List(t) => ((**t).clone(), Ty::Int),
            Ty::PerPlayer(t) => ((**t).clone(), Ty::Player),
            Ty::Error => {
                self.check_expr(idx, None);
                return Expr::error(span);
            }
            other => {
                let other = other.clone();
                self.error(
                    Diagnostic::error(format!("cannot index a value of type `{other}`"))
                        .primary(base.span, "not an array or list"),
                );
                self.check_expr(idx, None);
                return Expr::error(span);
            }
        };
        let i = self.infer_expr(idx, Some(&idx_ty));
        if i.ty != idx_ty {
            let by = if idx_ty == Ty::Player { "a player" } else { "an `int`" };
            self.error(
                Diagnostic::error(format!("`{}` is indexed by {by}, found `{}`", b.ty, i.ty))
                    .primary(idx.span, format!("this is {}", i.ty.a())),
            );
        }
        Expr { kind: ExprKind::Index(Box::new(b), Box::new(i)), ty: elem, span }
    }

    fn check_binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Expr {
        let (ta, tb, ty) = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                (self.check_operand(op, a, &Ty::Int), self.check_operand(op, b, &Ty::Int), Ty::Int)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                (self.check_operand(op, a, &Ty::Int), self.check_operand(op, b, &Ty::Int), Ty::Bool)
            }
            BinOp::And | BinOp::Or => {
                (self.check_operand(op, a, &Ty::Bool), self.check_operand(op, b, &Ty::Bool), Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let ta = self.check_expr(a, None);
                let tb = self.infer_expr(b, Some(&ta.ty));
                if ta.ty != tb.ty {
                    self.error(
                        Diagnostic::error(format!("cannot compare `{}` with `{}`", ta.ty, tb.ty))
                            .primary(span, format!("`{}` needs both sides of the same type", op.symbol()))
                            .secondary(a.span, format!("this is {}", ta.ty.a()))
                            .secondary(b.span, format!("this is {}", tb.ty.a())),
                    );
                }
                (ta, tb, Ty::Bool)
            }
        };
        Expr { kind: ExprKind::Binary(op, Box::new(ta), Box::new(tb)), ty, span }
    }

    fn check_operand(&mut self, op: BinOp, e: &ast::Expr, want: &Ty) -> Expr {
        let typed = self.infer_expr(e, Some(want));
        if typed.ty != *want {
            self.error(
                Diagnostic::error(format!("`{}` expects `{want}` operands, found `{}`", op.symbol(), typed.ty))
                    .primary(e.span, format!("this is {}", typed.ty.a())),
            );
        }
        typed
    }

    fn check_list(&mut self, items: &[ast::Expr], expected: Option<&Ty>, span: Span) -> Expr {
        let elem_want: Option<Ty> = expected.and_then(|t| t.element().cloned());
        let mut typed: Vec<Expr> = Vec::with_capacity(items.len());
        let mut elem: Option<Ty> = elem_want.clone();
        for item in items {
            let x = self.check_expr(item, elem.as_ref());
            if elem.as_ref().is_none_or(Ty::is_error) {
                elem = Some(x.ty.clone());
            }
            typed.push(x);
        }
        let Some(elem) = elem else {
            self.error(
                Diagnostic::error("cannot tell the type of this empty list")
                    .primary(span, "type unknown")
                    .help("give the variable a type: `let xs: list<int> = [];`"),
            );
            return Expr::error(span);
        };
        let ty = match expected {
            Some(Ty::PerPlayer(_)) => {
                let n = self.env.players.len();
                if items.len() != n && n > 0 {
                    self.error(
                        Diagnostic::error(format!(
                            "a per-player array needs {n} element{}, one per player, found {}",
                            if n == 1 { "" } else { "s" },
                            items.len()
                        ))
                        .primary(span, format!("players are {}", self.env.players.join(", ")))
                        .help("or fill it: `[value; players]`"),
                    );
                }
                Ty::PerPlayer(Box::new(elem))
            }
            Some(Ty::Array(_, len)) => {
                if let Some(n) = len {
                    if *n != items.len() as i64 {
                        self.error(
                            Diagnostic::error(format!("array of length {n} given {} elements", items.len()))
                                .primary(span, format!("{} elements", items.len())),
                        );
                    }
                }
                Ty::Array(Box::new(elem), len.or(Some(items.len() as i64)))
            }
            _ => Ty::List(Box::new(elem)),
        };
        Expr { kind: ExprKind::List(typed), ty, span }
    }

    fn check_repeat(&mut self, value: &ast::Expr, count: &ast::Expr, expected: Option<&Ty>, span: Span) -> Expr {
        let elem_want: Option<Ty> = expected.and_then(|t| t.element().cloned());
        let v = self.check_expr(value, elem_want.as_ref());
        if matches!(count.kind, ast::ExprKind::Players) {
            if let Some(t) = expected {
                if !matches!(t, Ty::PerPlayer(_) | Ty::Error) {
                    self.error(mismatch(span, t, &Ty::PerPlayer(Box::new(v.ty.clone()))));
                    return Expr::error(span);
                }
            }
            let ty = Ty::PerPlayer(Box::new(v.ty.clone()));
            return Expr { kind: ExprKind::PerPlayerFill(Box::new(v)), ty, span };
        }
        let n = self.check_int(count);
        let ty = match expected {
            Some(Ty::Array(_, _)) => {
                let len = match (&n.kind, &self.params) {
                    (ExprKind::Int(k), _) => Some(*k),
                    (_, Some(_)) => self.known_int(&n),
                    (_, None) => None,
                };
                Ty::Array(Box::new(v.ty.clone()), len)
            }
            Some(Ty::PerPlayer(_)) => {
                self.error(
                    Diagnostic::error("a per-player array is filled with `[value; players]`")
                        .primary(count.span, "write `players` here"),
                );
                return Expr::error(span);
            }
            _ => Ty::List(Box::new(v.ty.clone())),
        };
        Expr { kind: ExprKind::Repeat(Box::new(v), Box::new(n)), ty, span }
    }
}

pub(super) fn mismatch(span: Span, want: &Ty, found: &Ty) -> Diagnostic {
    let d = Diagnostic::error(format!("mismatched types: expected `{want}`, found `{found}`"))
        .primary(span, format!("this is {}", found.a()));
    match (want, found) {
        (Ty::PerPlayer(_), Ty::List(_)) => d.help("a per-player array literal needs one element per player"),
        (Ty::Array(..), Ty::List(_)) => d.help("lists and arrays are different types; declare the type you need"),
        (Ty::Int, Ty::Bool) | (Ty::Bool, Ty::Int) => {
            d.note("there are no implicit conversions between `int` and `bool`")
        }
        _ => d,
    }
}
