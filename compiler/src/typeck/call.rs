//! Checking a call of a builtin against its row of the table
//! ([`super::builtins`]): the arguments' types against its [`Rule`].

use super::builtins::{Builtin, Rule, Seq};
use super::checker::Checker;
use super::expr::mismatch;
use super::tast::{Expr, ExprKind};
use super::types::Ty;
use crate::ast;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

impl Checker {
    pub(super) fn check_builtin(&mut self, b: Builtin, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let rule = match b.rule() {
            Rule::Fixed(params, result) => {
                let params: Vec<Ty> = params.iter().map(|p| p.ty()).collect();
                let args = self.check_args(name, args, &params, span);
                return Expr { kind: ExprKind::Builtin(b, args), ty: result.ty(), span };
            }
            Rule::Sequence(rule) => rule,
        };
        let int = Ty::Int;

        // The first argument fixes the item type.
        let arity = rule.arity();
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
        let ret = match rule {
            Seq::Len => int,
            Seq::Sum => {
                if elem != Ty::Int {
                    self.error(
                        Diagnostic::error(format!("`sum` needs a sequence of `int`, found `{}`", typed[0].ty))
                            .primary(args[0].span, "not numbers"),
                    );
                }
                int
            }
            Seq::Sorted => typed[0].ty.clone(),
            Seq::Contains | Seq::Count => {
                // `count(board, v)` also counts the cells of a 2-D array.
                let inner = elem.int_indexed_element().cloned();
                let x = self.infer_expr(&args[1], Some(&elem));
                let ok = x.ty == elem || (rule == Seq::Count && inner.as_ref().is_some_and(|t| x.ty == *t));
                if !ok {
                    self.error(mismatch(args[1].span, &elem, &x.ty));
                }
                typed.push(x);
                if rule == Seq::Contains {
                    Ty::Bool
                } else {
                    int
                }
            }
            Seq::Edit => {
                if !is_list {
                    self.error(
                        Diagnostic::error(format!("`{}` needs a `list`, found `{}`", name.name, typed[0].ty))
                            .primary(args[0].span, "arrays have a fixed length"),
                    );
                }
                typed.push(self.check_expr(&args[1], Some(&elem)));
                Ty::List(Box::new(elem))
            }
            Seq::Subsets => {
                typed.push(self.check_expr(&args[1], Some(&Ty::Int)));
                Ty::List(Box::new(Ty::List(Box::new(elem))))
            }
            Seq::Line => {
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
        };
        Expr { kind: ExprKind::Builtin(b, typed), ty: ret, span }
    }
}
