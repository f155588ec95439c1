//! Constant evaluation at check time: param defaults and array lengths.

use super::tast;
use super::types::Ty;
use crate::span::Span;

pub use galac_runtime::params::{ParamKind, ParamValue};

/// How a param of type `ty` is written on the command line, if a param
/// may have that type.
pub fn param_kind(ty: &Ty) -> Option<ParamKind> {
    match ty {
        Ty::Int => Some(ParamKind::Int),
        Ty::Bool => Some(ParamKind::Bool),
        // Matched by shape: `==` on types lets an error match anything.
        Ty::List(t) => match &**t {
            Ty::Card => Some(ParamKind::Cards),
            Ty::Tuple(ts) => match ts.as_slice() {
                [Ty::List(c), Ty::Int] if matches!(**c, Ty::Card) => Some(ParamKind::Range),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The literal expression of a param value, of type `ty` (a default given
/// as text becomes this, so every later pass sees an ordinary literal).
pub fn value_expr(v: &ParamValue, ty: &Ty, span: Span) -> tast::Expr {
    use tast::{Expr, ExprKind as K};
    let int = |n: i64, ty: Ty| Expr { kind: K::Int(n), ty, span };
    let cards = |cs: &[i64]| Expr {
        kind: K::List(cs.iter().map(|&c| int(c, Ty::Card)).collect()),
        ty: Ty::List(Box::new(Ty::Card)),
        span,
    };
    match v {
        ParamValue::Int(n) => int(*n, Ty::Int),
        ParamValue::Bool(b) => Expr { kind: K::Bool(*b), ty: Ty::Bool, span },
        ParamValue::Cards(cs) => cards(cs),
        ParamValue::Range(hands) => {
            let hand_ty = Ty::Tuple(vec![Ty::List(Box::new(Ty::Card)), Ty::Int]);
            let items = hands
                .iter()
                .map(|(h, w)| Expr { kind: K::Tuple(vec![cards(h), int(*w, Ty::Int)]), ty: hand_ty.clone(), span })
                .collect();
            Expr { kind: K::List(items), ty: ty.clone(), span }
        }
    }
}

/// Evaluates a param default (literals, earlier params, arithmetic).
pub fn eval_const(e: &tast::Expr, params: &[ParamValue]) -> Result<ParamValue, String> {
    use crate::ast::BinOp;
    use tast::ExprKind as K;
    let int = |e: &tast::Expr| match eval_const(e, params)? {
        ParamValue::Int(n) => Ok(n),
        _ => Err("expected an int".to_string()),
    };
    let boolean = |e: &tast::Expr| match eval_const(e, params)? {
        ParamValue::Bool(b) => Ok(b),
        _ => Err("expected a bool".to_string()),
    };
    let overflow = || "integer overflow".to_string();
    Ok(match &e.kind {
        K::Int(n) => ParamValue::Int(*n),
        K::Bool(b) => ParamValue::Bool(*b),
        // A board (cards) or a range (hands with weights), written out.
        K::List(items) if param_kind(&e.ty) == Some(ParamKind::Cards) => {
            ParamValue::Cards(items.iter().map(&int).collect::<Result<_, _>>()?)
        }
        K::List(items) if param_kind(&e.ty) == Some(ParamKind::Range) => {
            let hand = |h: &tast::Expr| match &h.kind {
                K::Tuple(parts) if parts.len() == 2 => match eval_const(&parts[0], params)? {
                    ParamValue::Cards(cards) => Ok((cards, int(&parts[1])?)),
                    _ => Err("expected cards".to_string()),
                },
                _ => Err("a range's hands are written as `(cards, weight)`".to_string()),
            };
            ParamValue::Range(items.iter().map(hand).collect::<Result<_, _>>()?)
        }
        K::Param(id) => params.get(id.0 as usize).cloned().ok_or("a later param")?,
        K::Neg(x) => ParamValue::Int(int(x)?.checked_neg().ok_or_else(overflow)?),
        K::Not(x) => ParamValue::Bool(!boolean(x)?),
        K::If(c, a, b) => {
            if boolean(c)? {
                eval_const(a, params)?
            } else {
                eval_const(b, params)?
            }
        }
        K::Binary(op, a, b) => match op {
            BinOp::And => ParamValue::Bool(boolean(a)? && boolean(b)?),
            BinOp::Or => ParamValue::Bool(boolean(a)? || boolean(b)?),
            BinOp::Eq => ParamValue::Bool(eval_const(a, params)? == eval_const(b, params)?),
            BinOp::Ne => ParamValue::Bool(eval_const(a, params)? != eval_const(b, params)?),
            _ => {
                let (x, y) = (int(a)?, int(b)?);
                match op {
                    BinOp::Add => ParamValue::Int(x.checked_add(y).ok_or_else(overflow)?),
                    BinOp::Sub => ParamValue::Int(x.checked_sub(y).ok_or_else(overflow)?),
                    BinOp::Mul => ParamValue::Int(x.checked_mul(y).ok_or_else(overflow)?),
                    // As the runtime's `ops`: a zero divisor, else overflow (MIN / -1).
                    BinOp::Div if y == 0 => return Err("division by zero".into()),
                    BinOp::Rem if y == 0 => return Err("division by zero".into()),
                    BinOp::Div => ParamValue::Int(x.checked_div(y).ok_or_else(overflow)?),
                    BinOp::Rem => ParamValue::Int(x.checked_rem(y).ok_or_else(overflow)?),
                    BinOp::Lt => ParamValue::Bool(x < y),
                    BinOp::Le => ParamValue::Bool(x <= y),
                    BinOp::Gt => ParamValue::Bool(x > y),
                    BinOp::Ge => ParamValue::Bool(x >= y),
                    _ => return Err("unsupported operator".into()),
                }
            }
        },
        K::Builtin(tast::Builtin::Min, args) if args.len() == 2 => ParamValue::Int(int(&args[0])?.min(int(&args[1])?)),
        K::Builtin(tast::Builtin::Max, args) if args.len() == 2 => ParamValue::Int(int(&args[0])?.max(int(&args[1])?)),
        K::Builtin(tast::Builtin::Len, args) if args.len() == 1 => match eval_const(&args[0], params)? {
            ParamValue::Cards(cards) => ParamValue::Int(cards.len() as i64),
            ParamValue::Range(hands) => ParamValue::Int(hands.len() as i64),
            _ => return Err("`len` of a value that is not a list".into()),
        },
        K::Builtin(tast::Builtin::Abs, args) if args.len() == 1 => {
            ParamValue::Int(int(&args[0])?.checked_abs().ok_or_else(overflow)?)
        }
        _ => return Err("only literals, earlier params and arithmetic are allowed".into()),
    })
}
