//! Evaluating expressions and running the (pure, structured) fn bodies.
//! Every operation and builtin is `galac_runtime::ops`'s, as in compiled
//! games; this file only walks the expressions.

use galac_runtime::game::GameError;
use galac_runtime::ops;

use super::env::{bind, Budget, Env};
use super::{Interp, Value};
use crate::ast::BinOp;
use crate::span::Span;
use crate::typeck::tast::{self, ArithOp, Builtin, Expr, ExprKind, Place, StmtKind};
use crate::typeck::types::Ty;

/// Whether `op` with left operand `x` compares or computes scalars (`==`
/// and `!=` on lists, tuples and data compare values: `eval`).
fn scalar_operator(op: BinOp, x: &Expr) -> bool {
    !matches!(op, BinOp::Eq | BinOp::Ne) || x.ty.element().is_none() && !matches!(x.ty, Ty::Tuple(_) | Ty::Data(..))
}

/// The most fn call frames kept for reuse (`Interp::frames`): as deep as
/// calls usually nest, not a deep recursion's worth.
const MAX_SPARE_FRAMES: usize = 16;

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
        // Literals and names (a name holding a list is reported below).
        if let Some(n) = self.leaf_int(e, env) {
            return Ok(n);
        }
        match &e.kind {
            K::Not(a) => Ok(i64::from(self.int(a, env, b)? == 0)),
            K::Binary(op, x, y) if scalar_operator(*op, x) => self.int_binary(*op, x, y, env, b, e.span),
            K::Index(a, i) => {
                let idx = self.int(i, env, b)?;
                // Index a slot directly, without cloning the sequence.
                let read = |xs: &[Value]| scalar(ops::index(xs, idx, self.loc(e.span))?);
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
            // Card removal's `contains(h1, river)` in a chance's `where`,
            // a deal a candidate.
            K::Builtin(Builtin::Contains, _) => match self.leaf_contains(e, env, b) {
                Some(found) => Ok(i64::from(found?)),
                None => scalar(&self.eval(e, env, b)?),
            },
            _ => scalar(&self.eval(e, env, b)?),
        }
    }

    /// `contains(xs, x)` where `xs` is a list a param or slot holds and
    /// `x` a scalar leaf ([`Self::leaf_seq`], [`Self::leaf_int`]): read in
    /// place, not cloned through `builtin`, with the same steps and
    /// errors; `None` for any other expression.
    #[inline(always)]
    fn leaf_contains(&self, e: &Expr, env: &Env, b: &mut Budget) -> Option<Result<bool, GameError>> {
        let ExprKind::Builtin(Builtin::Contains, args) = &e.kind else { return None };
        let (xs, x) = (self.leaf_seq(&args[0], env)?, self.leaf_int(&args[1], env)?);
        Some(ops::contains(xs, &Value::Int(x), &mut b.left, b.limit, self.loc(e.span)))
    }

    /// The list a param or slot holds, read in place; `None` for any
    /// other expression (or a scalar).
    #[inline(always)]
    fn leaf_seq<'a>(&'a self, e: &Expr, env: &Env<'a>) -> Option<&'a [Value]> {
        use ExprKind as K;
        let v = match &e.kind {
            K::Local(l) => env.locals.get(l.0 as usize),
            K::Var(v) => env.vars.get(v.0 as usize),
            K::Param(p) => self.params.get(p.0 as usize),
            _ => None,
        };
        match v? {
            Value::Seq(xs) => Some(xs),
            Value::Int(_) => None,
        }
    }

    /// The value of a literal or of a name holding a scalar, without a
    /// call (`int`'s frame and result cost more than the read): most
    /// operands are such (liar's dice's `b > last && (b < liar || last >= 0)`).
    /// `None` for anything else, which `int` evaluates (and reports).
    #[inline(always)]
    fn leaf_int(&self, e: &Expr, env: &Env) -> Option<i64> {
        use ExprKind as K;
        let scalar = |v: &Value| match v {
            Value::Int(n) => Some(*n),
            Value::Seq(_) => None,
        };
        match &e.kind {
            K::Int(n) => Some(*n),
            K::Bool(x) => Some(i64::from(*x)),
            K::Player(i) | K::Variant(_, i) => Some(i64::from(*i)),
            K::Local(l) => env.locals.get(l.0 as usize).and_then(scalar),
            K::Var(v) => env.vars.get(v.0 as usize).and_then(scalar),
            K::Param(p) => self.params.get(p.0 as usize).and_then(scalar),
            _ => None,
        }
    }

    /// `int`, for an operand of a binary operator: a leaf read in place
    /// ([`Self::leaf_int`]), another scalar operator evaluated without
    /// `int`'s frame.
    #[inline(always)]
    fn operand(&self, e: &Expr, env: &Env, b: &mut Budget) -> Result<i64, GameError> {
        if let Some(n) = self.leaf_int(e, env) {
            return Ok(n);
        }
        match &e.kind {
            ExprKind::Binary(op, x, y) if scalar_operator(*op, x) => self.int_binary(*op, x, y, env, b, e.span),
            // `!contains(..)` (card removal's), without `int`'s frames.
            ExprKind::Not(a) => match self.leaf_contains(a, env, b) {
                Some(found) => Ok(i64::from(!found?)),
                None => self.int(e, env, b),
            },
            _ => self.int(e, env, b),
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
            BinOp::And => return Ok(i64::from(self.operand(x, env, b)? != 0 && self.operand(y, env, b)? != 0)),
            BinOp::Or => return Ok(i64::from(self.operand(x, env, b)? != 0 || self.operand(y, env, b)? != 0)),
            _ => {}
        }
        let (a, c) = (self.operand(x, env, b)?, self.operand(y, env, b)?);
        let at = self.loc(span);
        Ok(match op {
            BinOp::Add => ops::add(a, c, at)?,
            BinOp::Sub => ops::sub(a, c, at)?,
            BinOp::Mul => ops::mul(a, c, at)?,
            BinOp::Div => ops::div(a, c, at)?,
            BinOp::Rem => ops::rem(a, c, at)?,
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
                let mut vals = self.frames.borrow_mut().pop().unwrap_or_default();
                for a in args {
                    vals.push(self.eval(a, env, b)?);
                }
                self.call_fn(*f, vals, b, e.span)?
            }
            K::Builtin(bi, args) => self.builtin(*bi, args, env, b, e.span)?,
            K::Index(a, i) => {
                let seq = self.eval(a, env, b)?;
                let idx = self.int(i, env, b)?;
                match seq {
                    Value::Seq(xs) => ops::index(&xs, idx, self.loc(e.span))?.clone(),
                    Value::Int(_) => return Err(self.internal(e.span, "index of a scalar")),
                }
            }
            K::Field(a, n) => match self.eval(a, env, b)? {
                Value::Seq(xs) => xs.get(*n as usize).cloned().ok_or_else(|| self.internal(e.span, "tuple field"))?,
                Value::Int(_) => return Err(self.internal(e.span, "field of a scalar")),
            },
            K::Neg(a) => Value::Int(ops::neg(self.int(a, env, b)?, self.loc(e.span))?),
            K::Not(a) => Value::bool(self.int(a, env, b)? == 0),
            K::Binary(op @ (BinOp::Eq | BinOp::Ne), x, y) => {
                let (l, r) = (self.eval(x, env, b)?, self.eval(y, env, b)?);
                // Lists take a step per cell read (`ops::equality_cells`).
                let depth = x.ty.list_depth();
                if depth > 0 {
                    b.steps(ops::equality_cells(&l, depth) * ops::STEP, self.loc(e.span))?;
                }
                Value::bool((l == r) == (*op == BinOp::Eq))
            }
            K::Binary(op, x, y) => Value::Int(self.int_binary(*op, x, y, env, b, e.span)?),
            K::Range { lo, hi, inclusive } => {
                let lo = self.int(lo, env, b)?;
                let hi = self.int(hi, env, b)?;
                let hi = ops::range_list_end(lo, hi, *inclusive, &mut b.left, b.limit, self.loc(e.span))?;
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
                let n = ops::repeat_count(n, &mut b.left, b.limit, self.loc(e.span))?;
                Value::seq(vec![v; n])
            }
            K::PerPlayerFill(v) => Value::seq(vec![self.eval(v, env, b)?; self.n_players as usize]),
            K::Error => return Err(self.internal(e.span, "error expression")),
        })
    }

    pub(super) fn seq(&self, e: &Expr, env: &Env, b: &mut Budget) -> Result<std::rc::Rc<Vec<Value>>, GameError> {
        match self.eval(e, env, b)? {
            Value::Seq(xs) => Ok(xs),
            Value::Int(_) => Err(self.internal(e.span, "expected a sequence")),
        }
    }

    fn builtin(&self, bi: Builtin, args: &[Expr], env: &Env, b: &mut Budget, span: Span) -> Result<Value, GameError> {
        use Builtin::*;
        let at = self.loc(span);
        let int = |i: usize, b: &mut Budget| self.int(&args[i], env, b);
        let ints = |xs: Vec<i64>| Value::seq(xs.into_iter().map(Value::Int).collect());
        Ok(match bi {
            Len => Value::Int(self.seq(&args[0], env, b)?.len() as i64),
            Contains => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                Value::bool(ops::contains(&xs, &x, &mut b.left, b.limit, at)?)
            }
            Count => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                let flat = args[0].ty.element().is_some_and(|t| *t == args[1].ty);
                Value::Int(if flat {
                    ops::count(&xs, &x, &mut b.left, b.limit, at)?
                } else {
                    ops::count2d(&xs, &x, &mut b.left, b.limit, at)?
                })
            }
            Push => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                Value::seq(ops::pushed(&xs, x, &mut b.left, b.limit, at)?)
            }
            Remove => {
                let xs = self.seq(&args[0], env, b)?;
                let x = self.eval(&args[1], env, b)?;
                Value::seq(ops::removed(&xs, &x, &mut b.left, b.limit, at)?)
            }
            Sum => {
                let xs = self.seq(&args[0], env, b)?;
                Value::Int(ops::sum(&xs, &mut b.left, b.limit, at)?)
            }
            Sort => {
                let xs = self.seq(&args[0], env, b)?;
                Value::seq(ops::sorted(&xs, &mut b.left, b.limit, at)?)
            }
            Combinations => {
                let xs = self.seq(&args[0], env, b)?;
                let k = int(1, b)?;
                let all = ops::combinations(&xs, k, &mut b.left, b.limit, at)?;
                Value::seq(all.into_iter().map(Value::seq).collect())
            }
            Min => Value::Int(ops::min(int(0, b)?, int(1, b)?)),
            Max => Value::Int(ops::max(int(0, b)?, int(1, b)?)),
            Abs => Value::Int(ops::abs(int(0, b)?, at)?),
            Next => Value::Int(i64::from(ops::next_player(self.player_index(int(0, b)?, span)?, self.n_players))),
            Index => Value::Int(ops::player_number(self.player_index(int(0, b)?, span)?)),
            Deck => {
                let (ranks, suits) = (int(0, b)?, int(1, b)?);
                ints(ops::deck(ranks, suits, &mut b.left, b.limit, at)?.as_slice().to_vec())
            }
            Card => Value::Int(ops::card(int(0, b)?, int(1, b)?, at)?),
            Rank => Value::Int(ops::rank(int(0, b)?)),
            Suit => Value::Int(ops::suit(int(0, b)?)),
            Deck52 => ints(ops::deck52(&mut b.left, b.limit, at)?.as_slice().to_vec()),
            HandRank => Value::Int(ops::hand_rank(&self.seq(&args[0], env, b)?, at)?),
            DealHands => {
                let d = self.deal_args(args, env, b)?;
                let pairs = d.pairs(&mut b.left, b.limit, at)?;
                let [first, second] = &d.ranges;
                Value::seq(
                    pairs
                        .iter()
                        .map(|(i, j, w)| Value::seq(vec![hand(&first[i]), hand(&second[j]), Value::Int(w)]))
                        .collect(),
                )
            }
            Cells => {
                let (rows, cols) = (int(0, b)?, int(1, b)?);
                let cells = ops::cells(rows, cols, &mut b.left, b.limit, at)?;
                Value::seq(cells.iter().map(|(r, c)| Value::seq(vec![Value::Int(*r), Value::Int(*c)])).collect())
            }
            HasLine => {
                let board = self.seq(&args[0], env, b)?;
                let k = int(1, b)?;
                let v = self.eval(&args[2], env, b)?;
                Value::bool(ops::has_line(&board, k, &v, &mut b.left, b.limit, at)?)
            }
        })
    }

    /// Calls a pure fn with evaluated arguments (in a frame from
    /// `Interp::frames`, or a new one). The same call as one of the fn's
    /// last (`Interp::recent_calls`) gives that call's result and takes its
    /// steps without running the body, where they fit in the budget; else
    /// the body runs (and fails where it would have).
    pub fn call_fn(&self, f: tast::FnId, args: Vec<Value>, b: &mut Budget, span: Span) -> Result<Value, GameError> {
        let mut recent = self.recent_calls.borrow_mut();
        let calls = &mut recent[f.0 as usize];
        // A call inside the fn's own call (recursion) neither reads nor
        // records: the outer call records its own arguments when it ends.
        let outer = !calls.running();
        if outer {
            if let Some(v) = calls.recall(&args, &mut b.left) {
                drop(recent);
                self.give_back_frame(args);
                return Ok(v);
            }
            calls.start(&args);
        }
        drop(recent);
        let left = b.left;
        let result = self.run_fn(f, args, b, span);
        if outer {
            self.recent_calls.borrow_mut()[f.0 as usize].end(result.as_ref().ok(), left - b.left);
        }
        result
    }

    /// Runs a fn's body on `args` (`call_fn` without its memory).
    fn run_fn(&self, f: tast::FnId, args: Vec<Value>, b: &mut Budget, span: Span) -> Result<Value, GameError> {
        b.step(self.loc(span))?;
        let func = &self.fns[f.0 as usize];
        let mut frame = args;
        frame.resize(func.locals.len().max(frame.len()), Value::Int(0));
        let flow = self.exec_fn_block(&func.body, &mut frame, b);
        self.give_back_frame(frame);
        match flow? {
            Flow::Return(v) => Ok(v),
            Flow::Normal => Err(self.internal(func.span, "fn ended without return")),
        }
    }

    /// A call's frame goes back for the next call (its values dropped now;
    /// a deep recursion's frames are not all kept).
    fn give_back_frame(&self, mut frame: Vec<Value>) {
        frame.clear();
        let mut frames = self.frames.borrow_mut();
        if frames.len() < MAX_SPARE_FRAMES {
            frames.push(frame);
        }
    }

    fn exec_fn_block(&self, block: &tast::Block, frame: &mut Vec<Value>, b: &mut Budget) -> Result<Flow, GameError> {
        for s in &block.stmts {
            b.step(self.loc(s.span))?;
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
                    b.step(self.loc(s.span))?;
                    if env_value(self, cond, frame, b)? == Value::Int(0) {
                        break;
                    }
                    if let Flow::Return(v) = self.exec_fn_block(body, frame, b)? {
                        return Ok(Flow::Return(v));
                    }
                },
                StmtKind::Repeat { body, cond } => loop {
                    b.step(self.loc(s.span))?;
                    if let Flow::Return(v) = self.exec_fn_block(body, frame, b)? {
                        return Ok(Flow::Return(v));
                    }
                    if env_value(self, cond, frame, b)? != Value::Int(0) {
                        break;
                    }
                },
                StmtKind::For { pattern, domain, body } => {
                    // A list is walked where it lies, not copied (liar's
                    // dice counts a hand this way at each leaf).
                    let env = Env { vars: &[], locals: frame };
                    let shared = match &domain.kind {
                        tast::DomainKind::Values(e) if !matches!(e.kind, ExprKind::Range { .. }) => {
                            Some(self.seq(e, &env, b)?)
                        }
                        _ => None,
                    };
                    let made = match shared {
                        Some(_) => Vec::new(),
                        None => self.enumerate(domain, &env, b)?,
                    };
                    for item in shared.as_deref().unwrap_or(&made) {
                        b.step(self.loc(s.span))?;
                        bind(pattern, item.clone(), frame);
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
            // A range is walked, not made into a list: it takes no steps
            // per item here, as in generated code (`domain_plan`).
            tast::DomainKind::Values(tast::Expr {
                kind: tast::ExprKind::Range { lo, hi, inclusive }, span, ..
            }) => {
                let lo = self.int(lo, env, b)?;
                let hi = ops::range_end(lo, self.int(hi, env, b)?, *inclusive, self.loc(*span))?;
                (lo..hi).map(Value::Int).collect()
            }
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
        let at = self.loc(span);
        let mut target = &mut slots[slot];
        for idx in path {
            let Value::Seq(xs) = target else { return Err(self.internal(span, "index of a scalar")) };
            target = ops::index_slice_mut(std::rc::Rc::make_mut(xs).as_mut_slice(), idx, at)?;
        }
        *target = match op {
            None => v,
            Some(op) => {
                let (Value::Int(a), Value::Int(c)) = (&*target, &v) else {
                    return Err(self.internal(span, "compound assignment"));
                };
                Value::Int(match op {
                    ArithOp::Add => ops::add(*a, *c, at)?,
                    ArithOp::Sub => ops::sub(*a, *c, at)?,
                    ArithOp::Mul => ops::mul(*a, *c, at)?,
                })
            }
        };
        Ok(())
    }
}

/// A range entry's hand (a range is a list of (hand, weight)).
pub(super) fn hand(entry: &Value) -> Value {
    match entry {
        Value::Seq(parts) => parts[0].clone(),
        Value::Int(_) => Value::Int(0),
    }
}
