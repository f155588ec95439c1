//! Enums with fields (`enum Call { Bid(int, int), Liar }`): building their
//! values and checking `match`. A value is held as a plain tuple
//! ([`tast::Enum::repr`]) and a `match` becomes tests of the variant number
//! and reads of the fields, so nothing after the checker knows of them.

use super::checker::Checker;
use super::tast::{self, Expr, ExprKind, StmtKind};
use super::types::{EnumId, Ty};
use crate::ast::{self, BinOp};
use crate::diagnostic::{did_you_mean, Diagnostic};
use crate::span::Span;

impl Checker {
    /// The value of variant `idx` of enum `id`, from `args` when written
    /// `Bid(q, f)` (`None` for a bare `Liar`).
    pub(super) fn variant_value(&mut self, id: EnumId, idx: u32, args: Option<&[ast::Expr]>, span: Span) -> Expr {
        let e = self.env.enums[id.0 as usize].clone();
        let ty = self.env.enum_ty(id);
        let name = &e.variants[idx as usize];
        let fields = &e.fields[idx as usize];
        let given = args.map_or(0, <[ast::Expr]>::len);
        if given != fields.len() || (args.is_some() && fields.is_empty()) {
            let diag = if fields.is_empty() {
                Diagnostic::error(format!("variant `{name}` has no fields"))
                    .primary(span, "written with arguments")
                    .help(format!("write `{name}` alone"))
            } else {
                let blanks = vec!["_"; fields.len()].join(", ");
                Diagnostic::error(format!(
                    "variant `{name}` has {} field{} but {given} {} given",
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" },
                    if given == 1 { "was" } else { "were" }
                ))
                .primary(span, "wrong number of fields")
                .help(format!("write `{name}({blanks})` with its values"))
            };
            self.error(diag);
            for a in args.unwrap_or(&[]) {
                self.check_expr(a, None);
            }
            return Expr::error(span);
        }
        let Some(repr) = e.repr() else {
            return Expr { kind: ExprKind::Variant(id, idx), ty, span };
        };
        let values: Vec<Expr> =
            args.unwrap_or(&[]).iter().zip(fields).map(|(a, t)| self.check_expr(a, Some(t))).collect();
        let offset = e.field_offset(idx) as usize;
        let items = repr
            .iter()
            .enumerate()
            .map(|(k, t)| match k {
                0 => int(i64::from(idx), span),
                k if (offset..offset + values.len()).contains(&k) => values[k - offset].clone(),
                _ => zero(t, span),
            })
            .collect();
        Expr { kind: ExprKind::Tuple(items), ty, span }
    }

    /// `Bid(q, f)`: a variant written with its fields, by its bare name.
    pub(super) fn variant_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let vs = self.env.variants.get(&name.name).cloned().unwrap_or_default();
        if let [(id, idx)] = vs[..] {
            return self.variant_value(id, idx, Some(args), span);
        }
        let options: Vec<String> =
            vs.iter().map(|(id, _)| format!("`{}`", self.env.enums[id.0 as usize].name)).collect();
        self.error(
            Diagnostic::error(format!("`{}` is ambiguous", name.name))
                .primary(name.span, format!("a variant of {}", options.join(" and ")))
                .help("give the variants of different enums different names"),
        );
        for a in args {
            self.check_expr(a, None);
        }
        Expr::error(span)
    }

    /// `match value { Bid(q, f) => { ... } Liar => { ... } }` as a chain of
    /// `if`s on the variant, each arm binding its fields with `let`s. The
    /// value is read again in each test and field (expressions are pure).
    pub(super) fn check_match(&mut self, scrutinee: &ast::Expr, arms: &[ast::MatchArm], span: Span) -> StmtKind {
        let value = self.check_expr(scrutinee, None);
        let id = match &value.ty {
            Ty::Enum(id, _) | Ty::Data(id, ..) => *id,
            Ty::Error => {
                for arm in arms {
                    self.check_block(&arm.body);
                }
                return StmtKind::If {
                    cond: value,
                    then_block: tast::Block::default(),
                    else_block: Default::default(),
                };
            }
            other => {
                self.error(
                    Diagnostic::error(format!("`match` needs an enum value, found {}", other.a()))
                        .primary(scrutinee.span, "not an enum")
                        .help("test other values with `if`"),
                );
                return StmtKind::If {
                    cond: Expr::error(span),
                    then_block: Default::default(),
                    else_block: Default::default(),
                };
            }
        };
        let e = self.env.enums[id.0 as usize].clone();
        let mut tests: Vec<(Option<Expr>, tast::Block)> = Vec::new();
        let mut covered = vec![false; e.variants.len()];
        let mut rest = false;
        let mut unknown = false;
        for arm in arms {
            let (en, name) = &arm.pattern.variant;
            if rest {
                self.error(
                    Diagnostic::error("this arm is never reached")
                        .primary(arm.span, "after a `_` arm")
                        .help("put the `_` arm last"),
                );
            }
            if en.is_none() && name.name == "_" && arm.pattern.fields.is_none() {
                rest = true;
                let body = self.check_block(&arm.body);
                tests.push((None, body));
                continue;
            }
            let Some(idx) = self.arm_variant(&e, en.as_ref(), name) else {
                unknown = true;
                self.check_block(&arm.body);
                continue;
            };
            if std::mem::replace(&mut covered[idx as usize], true) {
                self.error(
                    Diagnostic::error(format!("variant `{}` is matched twice", name.name))
                        .primary(arm.span, "again here"),
                );
            }
            let cond = variant_test(&value, &e, id, idx, arm.span);
            let body = self.arm_body(&value, &e, idx, arm);
            tests.push((Some(cond), body));
        }
        let missing: Vec<&str> =
            e.variants.iter().zip(&covered).filter(|(_, c)| !**c).map(|(v, _)| v.as_str()).collect();
        if !rest && !unknown && !missing.is_empty() {
            let list = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            self.error(
                Diagnostic::error(format!("`match` on `{}` does not cover {list}", e.name))
                    .primary(span, "some variants have no arm")
                    .help(format!("add an arm `{} => {{ ... }}` or `_ => {{ ... }}`", missing[0])),
            );
        }
        chain(tests, span)
    }

    /// The variant an arm names, within the matched enum `e`.
    fn arm_variant(&mut self, e: &tast::Enum, en: Option<&ast::Ident>, name: &ast::Ident) -> Option<u32> {
        if let Some(en) = en.filter(|en| en.name != e.name) {
            self.error(
                Diagnostic::error(format!("this arm names enum `{}` but the value is a `{}`", en.name, e.name))
                    .primary(en.span, "another enum"),
            );
            return None;
        }
        match e.variants.iter().position(|v| *v == name.name) {
            Some(i) => Some(i as u32),
            None => {
                let help = did_you_mean(&name.name, e.variants.iter().map(String::as_str));
                self.error(
                    Diagnostic::error(format!("enum `{}` has no variant `{}`", e.name, name.name))
                        .primary(name.span, "unknown variant")
                        .with_help(help.or(Some(format!("its variants are {}", e.variants.join(", "))))),
                );
                None
            }
        }
    }

    /// An arm's block: `let`s of its named fields, then its statements.
    fn arm_body(&mut self, value: &Expr, e: &tast::Enum, idx: u32, arm: &ast::MatchArm) -> tast::Block {
        let fields = &e.fields[idx as usize];
        let names = arm.pattern.fields.as_deref().unwrap_or(&[]);
        let variant = &e.variants[idx as usize];
        if names.len() != fields.len() || (arm.pattern.fields.is_some() && fields.is_empty()) {
            let blanks = vec!["_"; fields.len()].join(", ");
            let shape = if fields.is_empty() { variant.clone() } else { format!("{variant}({blanks})") };
            self.error(
                Diagnostic::error(format!(
                    "variant `{variant}` has {} field{}",
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                ))
                .primary(arm.pattern.variant.1.span, "the arm names a different number")
                .help(format!("write `{shape}`, naming each field or `_`")),
            );
            // The names still exist (typed as errors), so they add no errors of their own.
            self.body.push_scope();
            for name in names {
                self.body.declare(&name.name, Ty::Error, false, None);
            }
            self.check_block(&arm.body);
            self.body.pop_scope();
            return tast::Block::default();
        }
        self.body.push_scope();
        let offset = e.field_offset(idx);
        let mut stmts = Vec::new();
        for (k, (name, ty)) in names.iter().zip(fields).enumerate() {
            if name.name == "_" {
                continue;
            }
            let local = self.body.declare(&name.name, ty.clone(), false, Some(name.span));
            let read = Expr {
                kind: ExprKind::Field(Box::new(value.clone()), offset + k as u32),
                ty: ty.clone(),
                span: name.span,
            };
            stmts.push(tast::Stmt { kind: StmtKind::Let { local, value: read }, span: name.span });
        }
        stmts.extend(self.check_block(&arm.body).stmts);
        self.body.pop_scope();
        tast::Block { stmts }
    }
}

/// Whether `value` is variant `idx`: its number (first tuple item) for an
/// enum with fields, the value itself for one without.
fn variant_test(value: &Expr, e: &tast::Enum, id: EnumId, idx: u32, span: Span) -> Expr {
    let (left, right) = if e.repr().is_some() {
        (Expr { kind: ExprKind::Field(Box::new(value.clone()), 0), ty: Ty::Int, span }, int(i64::from(idx), span))
    } else {
        (value.clone(), Expr { kind: ExprKind::Variant(id, idx), ty: value.ty.clone(), span })
    };
    Expr { kind: ExprKind::Binary(BinOp::Eq, Box::new(left), Box::new(right)), ty: Ty::Bool, span }
}

/// Nests the tested arms into `if ... else if ...`; the last arm needs no
/// test when the arms cover every variant (a missing one was reported).
fn chain(mut tests: Vec<(Option<Expr>, tast::Block)>, span: Span) -> StmtKind {
    let Some((last_cond, last_body)) = tests.pop() else {
        return StmtKind::If {
            cond: Expr::error(span),
            then_block: Default::default(),
            else_block: Default::default(),
        };
    };
    let mut kind = match (tests.pop(), last_cond) {
        (Some((Some(cond), then_block)), _) => StmtKind::If { cond, then_block, else_block: last_body },
        (Some((None, then_block)), _) => StmtKind::If {
            cond: Expr { kind: ExprKind::Bool(true), ty: Ty::Bool, span },
            then_block,
            else_block: last_body,
        },
        (None, _) => StmtKind::If {
            cond: Expr { kind: ExprKind::Bool(true), ty: Ty::Bool, span },
            then_block: last_body,
            else_block: Default::default(),
        },
    };
    while let Some((cond, then_block)) = tests.pop() {
        let cond = cond.unwrap_or(Expr { kind: ExprKind::Bool(true), ty: Ty::Bool, span });
        let else_block = tast::Block { stmts: vec![tast::Stmt { kind, span }] };
        kind = StmtKind::If { cond, then_block, else_block };
    }
    kind
}

fn int(n: i64, span: Span) -> Expr {
    Expr { kind: ExprKind::Int(n), ty: Ty::Int, span }
}

/// The value held in a field that belongs to another variant.
fn zero(t: &Ty, span: Span) -> Expr {
    let kind = match t {
        Ty::Bool => ExprKind::Bool(false),
        Ty::Player => ExprKind::Player(0),
        Ty::Enum(id, _) => ExprKind::Variant(*id, 0),
        _ => ExprKind::Int(0),
    };
    Expr { kind, ty: t.clone(), span }
}
