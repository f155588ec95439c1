//! Constant evaluation at check time: param defaults and array lengths.

use super::tast;

pub use galac_runtime::params::ParamValue;

/// Evaluates a param default (literals, earlier params, arithmetic).
pub fn eval_const(e: &tast::Expr, params: &[ParamValue]) -> Result<ParamValue, String> {
    use crate::ast::BinOp;
    use tast::ExprKind as K;
    let int = |e: &tast::Expr| match eval_const(e, params)? {
        ParamValue::Int(n) => Ok(n),
        ParamValue::Bool(_) => Err("expected an int".to_string()),
    };
    let boolean = |e: &tast::Expr| match eval_const(e, params)? {
        ParamValue::Bool(b) => Ok(b),
        ParamValue::Int(_) => Err("expected a bool".to_string()),
    };
    let overflow = || "integer overflow".to_string();
    Ok(match &e.kind {
        K::Int(n) => ParamValue::Int(*n),
        K::Bool(b) => ParamValue::Bool(*b),
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
        K::Builtin(tast::Builtin::Abs, args) if args.len() == 1 => {
            ParamValue::Int(int(&args[0])?.checked_abs().ok_or_else(overflow)?)
        }
        _ => return Err("only literals, earlier params and arithmetic are allowed".into()),
    })
}
