//! The builtin functions: lists, cards, boards and players.

use super::tast::{Builtin, Expr, ExprKind};
use super::types::Ty;
use super::Checker;
use crate::ast;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Every builtin's name, for lookup and suggestions.
pub const NAMES: &[&str] = &[
    "len",
    "contains",
    "count",
    "push",
    "remove",
    "sum",
    "sort",
    "combinations",
    "min",
    "max",
    "abs",
    "next",
    "index",
    "deck",
    "card",
    "rank",
    "suit",
    "cells",
    "has_line",
];

pub fn lookup(name: &str) -> Option<Builtin> {
    use Builtin::*;
    Some(match name {
        "len" => Len,
        "contains" => Contains,
        "count" => Count,
        "push" => Push,
        "remove" => Remove,
        "sum" => Sum,
        "sort" => Sort,
        "combinations" => Combinations,
        "min" => Min,
        "max" => Max,
        "abs" => Abs,
        "next" => Next,
        "index" => Index,
        "deck" => Deck,
        "card" => Card,
        "rank" => Rank,
        "suit" => Suit,
        "cells" => Cells,
        "has_line" => HasLine,
        _ => return None,
    })
}

impl Checker {
    pub(super) fn check_builtin(&mut self, b: Builtin, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        use Builtin::*;
        let int = Ty::Int;
        let fixed = |params: &[Ty]| params.to_vec();
        // Builtins with fixed signatures.
        let simple: Option<(Vec<Ty>, Ty)> = match b {
            Min | Max => Some((fixed(&[int.clone(), int.clone()]), int.clone())),
            Abs => Some((fixed(std::slice::from_ref(&int)), int.clone())),
            Next => Some((fixed(&[Ty::Player]), Ty::Player)),
            Index => Some((fixed(&[Ty::Player]), int.clone())),
            Deck => Some((fixed(&[int.clone(), int.clone()]), Ty::List(Box::new(Ty::Card)))),
            Card => Some((fixed(&[int.clone(), int.clone()]), Ty::Card)),
            Rank | Suit => Some((fixed(&[Ty::Card]), int.clone())),
            Cells => Some((
                fixed(&[int.clone(), int.clone()]),
                Ty::List(Box::new(Ty::Tuple(vec![int.clone(), int.clone()]))),
            )),
            _ => None,
        };
        if let Some((params, ret)) = simple {
            let args = self.check_args(name, args, &params, span);
            return Expr { kind: ExprKind::Builtin(b, args), ty: ret, span };
        }

        // Generic builtins over a sequence: the first argument fixes the element type.
        let arity = match b {
            Len | Sum | Sort => 1,
            Contains | Count | Push | Remove | Combinations => 2,
            HasLine => 3,
            _ => 0,
        };
        if args.len() != arity {
            self.check_args(name, args, &vec![Ty::Error; arity], span);
            return Expr::error(span);
        }
        let seq = self.check_expr(&args[0], None);
        if seq.ty.is_error() {
            for a in &args[1..] {
                self.check_expr(a, None);
            }
            return Expr::error(span);
        }
        let Some(elem) = seq.ty.element().cloned() else {
            self.error(
                Diagnostic::error(format!("`{}` needs a list or an array, found `{}`", name.name, seq.ty))
                    .primary(args[0].span, format!("this is {}", seq.ty.a())),
            );
            for a in &args[1..] {
                self.check_expr(a, None);
            }
            return Expr::error(span);
        };
        let is_list = matches!(seq.ty, Ty::List(_));
        let mut typed = vec![seq];
        let ret = match b {
            Len => int,
            Sum => {
                if elem != Ty::Int {
                    self.error(
                        Diagnostic::error(format!("`sum` needs a sequence of `int`, found `{}`", typed[0].ty))
                            .primary(args[0].span, "not numbers"),
                    );
                }
                int
            }
            Sort => typed[0].ty.clone(),
            Contains | Count => {
                // `count(board, v)` also counts the cells of a 2-D array.
                let inner = elem.int_indexed_element().cloned();
                let x = self.infer_expr(&args[1], Some(&elem));
                let ok = x.ty == elem || (b == Count && inner.as_ref().is_some_and(|t| x.ty == *t));
                if !ok {
                    self.error(super::expr::mismatch(args[1].span, &elem, &x.ty));
                }
                typed.push(x);
                if b == Contains {
                    Ty::Bool
                } else {
                    int
                }
            }
            Push | Remove => {
                if !is_list {
                    self.error(
                        Diagnostic::error(format!("`{}` needs a `list`, found `{}`", name.name, typed[0].ty))
                            .primary(args[0].span, "arrays have a fixed length"),
                    );
                }
                typed.push(self.check_expr(&args[1], Some(&elem)));
                Ty::List(Box::new(elem))
            }
            Combinations => {
                typed.push(self.check_expr(&args[1], Some(&Ty::Int)));
                Ty::List(Box::new(Ty::List(Box::new(elem))))
            }
            HasLine => {
                let Some(cell) = elem.int_indexed_element().cloned() else {
                    self.error(
                        Diagnostic::error(format!("`has_line` needs a 2-D array, found `{}`", typed[0].ty))
                            .primary(args[0].span, "not a board")
                            .help("declare the board as `[[T; cols]; rows]`"),
                    );
                    return Expr::error(span);
                };
                typed.push(self.check_expr(&args[1], Some(&Ty::Int)));
                typed.push(self.check_expr(&args[2], Some(&cell)));
                Ty::Bool
            }
            _ => Ty::Error,
        };
        Expr { kind: ExprKind::Builtin(b, typed), ty: ret, span }
    }
}
