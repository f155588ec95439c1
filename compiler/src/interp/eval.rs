//! Evaluating expressions and running the (pure, structured) fn bodies.

use galac_runtime::game::GameError;

use super::value::Value;
use super::Interp;
use crate::ast::BinOp;
use crate::span::Span;
use crate::typeck::tast::{self, ArithOp, Builtin, Expr, ExprKind, Pattern, Place, StmtKind};
use crate::typeck::types::Ty;

/// Where names read their values: state variables and the current locals
/// (for flows both are the slot array).
pub struct Env<'a> {
    pub vars: &'a [Value],
    pub locals: &'a [Value],
}

/// Counts evaluation steps so that endless loops stop with an error.
pub struct Budget {
    pub used: u64,
    pub limit: u64,
}

impl Budget {
    pub fn step(&mut self, interp: &Interp, span: Span) -> Result<(), GameError> {
        self.used += 1;
        if self.used > self.limit {
            return Err(GameError::StepLimit { limit: self.limit, at: interp.at(span) });
        }
        Ok(())
    }

    /// Counts `n` steps at once (a block and its instructions).
    pub fn steps(&mut self, interp: &Interp, n: u64, span: Span) -> Result<(), GameError> {
        self.used += n;
        if self.used > self.limit {
            return Err(GameError::StepLimit { limit: self.limit, at: interp.at(span) });
        }
        Ok(())
    }
}

enum Flow {
    Normal,
    Return(Value),
}

impl Interp {
    /// Evaluates a scalar expression. The common cases are handled here,
    /// in a small stack frame, without building a `Value`.
    pub fn int(&self, e: &Expr, env: &Env, b: &mut Budget) -> Result<i64, GameError> {
        use ExprKind as K;
        let scalar = |v: &Value| match v {
            Value::Int(n) => Ok(*n),
            Value::Seq(_) => Err(self.internal(e.span, "expected a scalar")),
        };
        match &e.kind {
            K::Int(n) => Ok(*n),
            K::Bool(x) => Ok(i64::from(*x)),
            K::Player(i) | K::Variant(_, i) => Ok(i64::from(*i)),
            K::Local(l) => scalar(&env.locals[l.0 as usize]),
            K::Var(v) => scalar(&env.vars[v.0 as usize]),
            K::Param(p) => scalar(&self.params[p.0 as usize]),
            K::Not(a) => Ok(i64::from(self.int(a, env, b)? == 0)),
            K::Binary(op, x, y)
                if !matches!(op, BinOp::Eq | BinOp::Ne)
                    || x.ty.element().is_none() && !matches!(x.ty, Ty::Tuple(_)) =>
            {
                self.int_binary(*op, x, y, env, b, e.span)
            }
            K::Index(a, i) => {
                let idx = self.int(i, env, b)?;
                // Index a slot directly, without cloning the sequence.
                let read = |xs: &[Value]| match usize::try_from(idx).ok().and_then(|k| xs.get(k)) {
                    Some(v) => scalar(v),
                    None => Err(GameError::IndexOutOfBounds { index: idx, len: xs.len(), at: self.at(e.span) }),
                };
                match &a.kind {
                    K::Local(l) => match &env.locals[l.0 as usize] {
                        Value::Seq(xs) => read(xs),
                        Value::Int(_) => Err(self.internal(e.span, "index of a scalar")),
                    },
                    K::Var(v) => match &env.vars[v.0 as usize] {
                        Value::Seq(xs) => read(xs),
                        Value::Int(_) => Err(self.internal(e.span, "index of a scalar")),
                    },
                    _ => scalar(&self.eval(e, env, b)?),
                }
            }
            _ => scalar(&self.eval(e, env, b)?),
        }
    }

    /// A binary operator on scalars (all of them compare as integers).
    fn int_binary(
        &self,
        op: BinOp,
        x: &Expr,
        y: &Expr,
        env: &Env,
        b: &mut Budget,
        span: Span,
    ) -> Result<i64, GameError> {
        match op {
            BinOp::And => return Ok(i64::from(self.int(x, env, b)? != 0 && self.int(y, env, b)? != 0)),
            BinOp::Or => return Ok(i64::from(self.int(x, env, b)? != 0 || self.int(y, env, b)? != 0)),
            _ => {}
        }
        let (a, c) = (self.int(x, env, b)?, self.int(y, env, b)?);
        Ok(match op {
            BinOp::Add => a.checked_add(c).ok_or_else(|| self.overflow(span))?,
            BinOp::Sub => a.checked_sub(c).ok_or_else(|| self.overflow(span))?,
            BinOp::Mul => a.checked_mul(c).ok_or_else(|| self.overflow(span))?,
            BinOp::Div | BinOp::Rem => {
                if c == 0 {
                    return Err(GameError::DivisionByZero { at: self.at(span) });
                }
                let r = if op == BinOp::Div { a.checked_div(c) } else { a.checked_rem(c) };
                r.ok_or_else(|| self.overflow(span))?
            }
            BinOp::Eq => i64::from(a == c),
            BinOp::Ne => i64::from(a != c),
            BinOp::Lt => i64::from(a < c),
            BinOp::Le => i64::from(a <= c),
            BinOp::Gt => i64::from(a > c),
            BinOp::Ge => i64::from(a >= c),
            BinOp::And | BinOp::Or => unreachable!("handled above"),
        })
    }

    fn internal(&self, span: Span, what: &str) -> GameError {
        GameError::Other { message: format!("internal error ({what}), please report"), at: self.at(span) }
    }

    fn overflow(&self, span: Span) -> GameError {
        GameError::Overflow { at: self.at(span) }
    }

    pub fn eval(&self, e: &Expr, env: &Env, b: &mut Budget) -> Result<Value, GameError> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Int(n) => Value::Int(*n),
            K::Bool(x) => Value::bool(*x),
            K::Player(i) => Value::Int(i64::from(*i)),
            K::Variant(_, i) => Value::Int(i64::from(*i)),
            K::Param(p) => self.params[p.0 as usize].clone(),
            K::Var(v) => env.vars[v.0 as usize].clone(),
            K::Local(l) => env.locals[l.0 as usize].clone(),
            K::Players => Value::seq((0..self.n_players as i64).map(Value::Int).collect()),
            K::Call(f, args) => {
                let vals = args.iter().map(|a| self.eval(a, env, b)).collect::<Result<Vec<_>, _>>()?;
                self.call_fn(*f, vals, b, e.span)?
            }
            K::Builtin(bi, args) => self.builtin(*bi, args, env, b, e.span)?,
            K::Index(a, i) => {
                let seq = self.eval(a, env, b)?;
                let idx = self.int(i, env, b)?;
                match seq {
                    Value::Seq(xs) => match usize::try_from(idx).ok().and_then(|k| xs.get(k)) {
                        Some(v) => v.clone(),
                        None => {
                            return Err(GameError::IndexOutOfBounds { index: idx, len: xs.len(), at: self.at(e.span) })
                        }
                    },
                    Value::Int(_) => return Err(self.internal(e.span, "index of a scalar")),
                }
            }
            K::Field(a, n) => match self.eval(a, env, b)? {
                Value::Seq(xs) => xs.get(*n as usize).cloned().ok_or_else(|| self.internal(e.span, "tuple field"))?,
                Value::Int(_) => return Err(self.internal(e.span, "field of a scalar")),
            },
            K::Neg(a) => Value::Int(self.int(a, env, b)?.checked_neg().ok_or_else(|| self.overflow(e.span))?),
            K::Not(a) => Value::bool(self.int(a, env, b)? == 0),
            K::Binary(op @ (BinOp::Eq | BinOp::Ne), x, y) => {
                let equal = self.eval(x, env, b)? == self.eval(y, env, b)?;
                Value::bool(equal == (*op == BinOp::Eq))
            }
            K::Binary(op, x, y) => Value::Int(self.int_binary(*op, x, y, env, b, e.span)?),
            K::Range { lo, hi, inclusive } => {
                let lo = self.int(lo, env, b)?;
                let hi = self.int(hi, env, b)?;
                let hi = if *inclusive { hi.checked_add(1).ok_or_else(|| self.overflow(e.span))? } else { hi };
                let n = hi.saturating_sub(lo).max(0);
                if n > 100_000_000 {
                    return Err(GameError::Other {
                        message: format!("range of {n} values is too large"),
                        at: self.at(e.span),
                    });
                }
                Value::seq((lo..hi).map(Value::Int).collect())
            }
            K::If(c, x, y) => {
                if self.int(c, env, b)? != 0 {
                    self.eval(x, env, b)?
                } else {
                    self.eval(y, env, b)?
                }
            }
            K::Tuple(xs) | K::List(xs) => {
                Value::seq(xs.iter().map(|x| self.eval(x, env, b)).collect::<Result<Vec<_>, _>>()?)
            }
            K::Repeat(v, n) => {
                let v = self.eval(v, env, b)?;
                let n = self.int(n, env, b)?;
                if !(0..=100_000_000).contains(&n) {
                    return Err(GameError::Other {
                        message: format!("cannot repeat a value {n} times"),
                        at: self.at(e.span),
                    });
                }
                Value::seq(vec![v; n as usize])
            }
            K::PerPlayerFill(v) => Value::seq(vec![self.eval(v, env, b)?; self.n_players as usize]),
            K::Error => return Err(self.internal(e.span, "error expression")),
        })
    }

    fn seq(&self, e: &Expr, env: &Env, b: &mut Budget) -> Result<std::rc::Rc<Vec<Value>>, GameError> {
        match self.eval(e, env, b)? {
            Value::Seq(xs) => Ok(xs),
            Value::Int(_) => Err(self.internal(e.span, "expected a sequence")),
        }
    }

    fn builtin(&self, bi: Builtin, args: &[Expr], env: &Env, b: &mut Budget, span: Span) -> Result<Value, GameError> {
        use Builtin::*;
        let limit = |n: i64, what: &str| -> Result<usize, GameError> {
            usize::try_from(n)
                .ok()
                .filter(|n| *n <= 1 << 24)
                .ok_or_else(|| GameError::Other { message: format!("{what} {n} is out of range"), at: self.at(span) })
        };
        Ok(match bi {
            Len => Value::Int(self.seq(&args[0], env, b)?.len() as i64),
            Contains => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                Value::bool(xs.contains(&x))
            }
            Count => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                let flat = args[0].ty.element().is_some_and(|t| *t == args[1].ty);
                let n = if flat {
                    xs.iter().filter(|v| **v == x).count()
                } else {
                    xs.iter()
                        .map(|row| match row {
                            Value::Seq(r) => r.iter().filter(|v| **v == x).count(),
                            Value::Int(_) => 0,
                        })
                        .sum()
                };
                Value::Int(n as i64)
            }
            Push => {
                let xs = self.seq(&args[0], env, b)?;
                let mut v = (*xs).clone();
                v.push(self.eval(&args[1], env, b)?);
                Value::seq(v)
            }
            Remove => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                let mut v = (*xs).clone();
                if let Some(i) = v.iter().position(|y| *y == x) {
                    v.remove(i);
                }
                Value::seq(v)
            }
            Sum => {
                let xs = self.seq(&args[0], env, b)?;
                let mut total: i64 = 0;
                for x in xs.iter() {
                    if let Value::Int(n) = x {
                        total = total.checked_add(*n).ok_or_else(|| self.overflow(span))?;
                    }
                }
                Value::Int(total)
            }
            Sort => {
                let mut v = (*self.seq(&args[0], env, b)?).clone();
                v.sort();
                Value::seq(v)
            }
            Combinations => {
                let xs = self.seq(&args[0], env, b)?;
                let k = limit(self.int(&args[1], env, b)?, "combination size")?;
                let mut out = Vec::new();
                galac_runtime::ops::for_each_combination(xs.len(), k, |pick| {
                    out.push(Value::seq(pick.iter().map(|i| xs[*i].clone()).collect()));
                });
                b.used += out.len() as u64;
                b.step(self, span)?;
                Value::seq(out)
            }
            Min => Value::Int(self.int(&args[0], env, b)?.min(self.int(&args[1], env, b)?)),
            Max => Value::Int(self.int(&args[0], env, b)?.max(self.int(&args[1], env, b)?)),
            Abs => Value::Int(self.int(&args[0], env, b)?.checked_abs().ok_or_else(|| self.overflow(span))?),
            Next => Value::Int((self.int(&args[0], env, b)? + 1) % i64::from(self.n_players)),
            Index => Value::Int(self.int(&args[0], env, b)?),
            Deck => {
                let (r, s) = (self.int(&args[0], env, b)?, self.int(&args[1], env, b)?);
                let deck = galac_runtime::ops::deck(r, s, &self.at(span))?;
                Value::seq(deck.iter().map(|c| Value::Int(*c)).collect())
            }
            Card => {
                let (r, s) = (self.int(&args[0], env, b)?, self.int(&args[1], env, b)?);
                Value::Int(galac_runtime::ops::card(r, s, &self.at(span))?)
            }
            Rank => Value::Int(galac_runtime::ops::rank(self.int(&args[0], env, b)?)),
            Suit => Value::Int(galac_runtime::ops::suit(self.int(&args[0], env, b)?)),
            Cells => {
                let (r, c) = (self.int(&args[0], env, b)?, self.int(&args[1], env, b)?);
                let cells = galac_runtime::ops::cells(r, c, &self.at(span))?;
                Value::seq(cells.iter().map(|(r, c)| Value::seq(vec![Value::Int(*r), Value::Int(*c)])).collect())
            }
            HasLine => {
                let board = self.seq(&args[0], env, b)?;
                let k = self.int(&args[1], env, b)?;
                let v = self.eval(&args[2], env, b)?;
                Value::bool(has_line(&board, k, &v))
            }
        })
    }

    /// Calls a pure fn with evaluated arguments.
    pub fn call_fn(&self, f: tast::FnId, args: Vec<Value>, b: &mut Budget, span: Span) -> Result<Value, GameError> {
        b.step(self, span)?;
        let func = &self.fns[f.0 as usize];
        let mut frame = args;
        frame.resize(func.locals.len().max(frame.len()), Value::Int(0));
        match self.exec_fn_block(&func.body, &mut frame, b)? {
            Flow::Return(v) => Ok(v),
            Flow::Normal => Err(self.internal(func.span, "fn ended without return")),
        }
    }

    fn exec_fn_block(&self, block: &tast::Block, frame: &mut Vec<Value>, b: &mut Budget) -> Result<Flow, GameError> {
        for s in &block.stmts {
            b.step(self, s.span)?;
            let env_value = |this: &Self, e: &Expr, frame: &Vec<Value>, b: &mut Budget| {
                this.eval(e, &Env { vars: &[], locals: frame }, b)
            };
            match &s.kind {
                StmtKind::Let { local, value } => {
                    let v = env_value(self, value, frame, b)?;
                    frame[local.0 as usize] = v;
                }
                StmtKind::Assign { target, op, value } => {
                    let v = env_value(self, value, frame, b)?;
                    let path = self.place_path(target, &Env { vars: &[], locals: frame }, b)?;
                    self.store(path, *op, v, frame, s.span)?;
                }
                StmtKind::If { cond, then_block, else_block } => {
                    let c = env_value(self, cond, frame, b)?;
                    let flow = if c != Value::Int(0) {
                        self.exec_fn_block(then_block, frame, b)?
                    } else {
                        self.exec_fn_block(else_block, frame, b)?
                    };
                    if let Flow::Return(v) = flow {
                        return Ok(Flow::Return(v));
                    }
                }
                StmtKind::While { cond, body } => loop {
                    b.step(self, s.span)?;
                    if env_value(self, cond, frame, b)? == Value::Int(0) {
                        break;
                    }
                    if let Flow::Return(v) = self.exec_fn_block(body, frame, b)? {
                        return Ok(Flow::Return(v));
                    }
                },
                StmtKind::Repeat { body, cond } => loop {
                    b.step(self, s.span)?;
                    if let Flow::Return(v) = self.exec_fn_block(body, frame, b)? {
                        return Ok(Flow::Return(v));
                    }
                    if env_value(self, cond, frame, b)? != Value::Int(0) {
                        break;
                    }
                },
                StmtKind::For { pattern, domain, body } => {
                    let items = self.enumerate(domain, &Env { vars: &[], locals: frame }, b)?;
                    for item in items {
                        b.step(self, s.span)?;
                        bind(pattern, item, frame);
                        if let Flow::Return(v) = self.exec_fn_block(body, frame, b)? {
                            return Ok(Flow::Return(v));
                        }
                    }
                }
                StmtKind::Return(Some(e)) => return Ok(Flow::Return(env_value(self, e, frame, b)?)),
                _ => return Err(self.internal(s.span, "statement not allowed in a fn")),
            }
        }
        Ok(Flow::Normal)
    }

    /// The elements of a domain, in order.
    pub fn enumerate(&self, d: &tast::Domain, env: &Env, b: &mut Budget) -> Result<Vec<Value>, GameError> {
        Ok(match &d.kind {
            tast::DomainKind::Values(e) => (*self.seq(e, env, b)?).clone(),
            tast::DomainKind::Enum(id) => {
                (0..self.enums[id.0 as usize].variants.len() as i64).map(Value::Int).collect()
            }
            tast::DomainKind::Bool => vec![Value::Int(0), Value::Int(1)],
            tast::DomainKind::Product(parts) => {
                let lists = parts.iter().map(|p| self.enumerate(p, env, b)).collect::<Result<Vec<_>, _>>()?;
                let mut out: Vec<Vec<Value>> = vec![Vec::new()];
                for list in &lists {
                    let mut next = Vec::with_capacity(out.len() * list.len());
                    for prefix in &out {
                        for x in list {
                            let mut t = prefix.clone();
                            t.push(x.clone());
                            next.push(t);
                        }
                    }
                    out = next;
                }
                out.into_iter().map(Value::seq).collect()
            }
        })
    }

    /// The slot and index path of a place (indices evaluated now).
    pub fn place_path(&self, place: &Place, env: &Env, b: &mut Budget) -> Result<(usize, Vec<i64>), GameError> {
        let mut path: Vec<i64> = Vec::new();
        let mut root = place;
        while let Place::Index(base, i) = root {
            path.push(self.int(i, env, b)?);
            root = base;
        }
        path.reverse();
        let slot = match root {
            Place::Var(v) => v.0 as usize,
            Place::Local(l) => l.0 as usize,
            Place::Index(..) => unreachable!("the loop above strips every index"),
        };
        Ok((slot, path))
    }

    /// Stores `v` (combined with `op`) at `slot[path...]`.
    pub fn store(
        &self,
        (slot, path): (usize, Vec<i64>),
        op: Option<ArithOp>,
        v: Value,
        slots: &mut [Value],
        span: Span,
    ) -> Result<(), GameError> {
        let mut target = &mut slots[slot];
        for idx in path {
            let Value::Seq(xs) = target else { return Err(self.internal(span, "index of a scalar")) };
            let xs = std::rc::Rc::make_mut(xs);
            let len = xs.len();
            target = match usize::try_from(idx).ok().and_then(|k| xs.get_mut(k)) {
                Some(t) => t,
                None => return Err(GameError::IndexOutOfBounds { index: idx, len, at: self.at(span) }),
            };
        }
        *target = match op {
            None => v,
            Some(op) => {
                let (Value::Int(a), Value::Int(c)) = (&*target, &v) else {
                    return Err(self.internal(span, "compound assignment"));
                };
                let r = match op {
                    ArithOp::Add => a.checked_add(*c),
                    ArithOp::Sub => a.checked_sub(*c),
                    ArithOp::Mul => a.checked_mul(*c),
                };
                Value::Int(r.ok_or_else(|| self.overflow(span))?)
            }
        };
        Ok(())
    }
}

/// Destructures `v` into the locals or slots of a pattern.
pub fn bind(p: &Pattern, v: Value, slots: &mut [Value]) {
    match p {
        Pattern::Bind(l) => slots[l.0 as usize] = v,
        Pattern::Wildcard => {}
        Pattern::Tuple(ps) => {
            if let Value::Seq(xs) = v {
                for (p, x) in ps.iter().zip(xs.iter()) {
                    bind(p, x.clone(), slots);
                }
            }
        }
    }
}

/// True iff some row, column or diagonal has `k` consecutive cells equal to `v`.
fn has_line(board: &[Value], k: i64, v: &Value) -> bool {
    let row = |r: usize| match &board[r] {
        Value::Seq(xs) => xs.as_slice(),
        Value::Int(_) => &[][..],
    };
    galac_runtime::ops::has_line_by(board.len(), |r| row(r).len(), |r, c| row(r)[c] == *v, k)
}
