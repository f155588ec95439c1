//! Checking statements: what may appear in flows and in functions, choose
//! domains and patterns, facts, assignments.

use super::checker::{too_deep, Checker};
use super::env::{BodyKind, Global};
use super::tast::{self, ArithOp, ChooseDomain, Domain, DomainKind, Pattern, Place, StmtKind};
use super::types::Ty;
use crate::ast::{self, AssignOp};
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use galac_runtime::rational::Ratio;

impl Checker {
    /// Checks a block in its own scope.
    pub(super) fn check_block(&mut self, b: &ast::Block) -> tast::Block {
        self.body.push_scope();
        let stmts = b.stmts.iter().filter_map(|s| self.check_stmt(s)).collect();
        self.body.pop_scope();
        tast::Block { stmts }
    }

    fn in_fn(&self) -> bool {
        self.body.kind == BodyKind::Fn
    }

    /// Reports a game event used inside a pure function.
    pub(super) fn flow_only(&mut self, span: Span, what: &str) -> bool {
        if self.in_fn() {
            self.error(
                Diagnostic::error(format!("`{what}` is not allowed in a function"))
                    .primary(span, "functions are pure: they compute a value and cannot change the game")
                    .help("move this into a `flow`"),
            );
            return false;
        }
        true
    }

    pub(super) fn check_stmt(&mut self, s: &ast::Stmt) -> Option<tast::Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Let { name, ty, value } => {
                let ty = ty.as_ref().map(|t| self.resolve_type(t));
                let value = self.check_expr(value, ty.as_ref());
                let local_ty = ty.unwrap_or_else(|| value.ty.clone());
                let local = self.body.declare(&name.name, local_ty, true, Some(name.span));
                StmtKind::Let { local, value }
            }
            ast::StmtKind::Assign { target, op, value } => self.check_assign(target, *op, value)?,
            ast::StmtKind::Choose(c) => {
                if !self.flow_only(span, "choose") {
                    return None;
                }
                return Some(tast::Stmt { kind: self.check_choose(c), span });
            }
            ast::StmtKind::Reveal { to, tag, args } => {
                if !self.flow_only(span, "reveal") {
                    return None;
                }
                let to = match to {
                    ast::RevealTarget::All(_) => None,
                    ast::RevealTarget::Player(e) => Some(self.check_player(e, "the receiver of a fact")),
                };
                let args: Vec<tast::Expr> = match args {
                    Some(args) => args.iter().map(|a| self.check_expr(a, None)).collect(),
                    None => vec![self.check_revealed_name(tag)?],
                };
                let fact = self.intern_fact(tag, &args)?;
                StmtKind::Reveal { to, fact, args }
            }
            ast::StmtKind::Payoff { player, op, amount } => {
                if !self.flow_only(span, "payoff") {
                    return None;
                }
                let player = self.check_player(player, "the receiver of a payoff");
                let amount = self.check_int(amount);
                let op = if *op == AssignOp::Sub { ArithOp::Sub } else { ArithOp::Add };
                StmtKind::Payoff { player, op, amount }
            }
            ast::StmtKind::Outcome(e) => {
                if !self.flow_only(span, "outcome") {
                    return None;
                }
                let want = Ty::PerPlayer(Box::new(Ty::Int));
                StmtKind::Outcome(self.check_expr(e, Some(&want)))
            }
            ast::StmtKind::End => {
                if !self.flow_only(span, "end") {
                    return None;
                }
                StmtKind::End
            }
            ast::StmtKind::If { cond, then_block, else_block } => {
                let cond = self.check_bool(cond);
                let then_block = self.check_block(then_block);
                let else_block = else_block.as_ref().map(|b| self.check_block(b)).unwrap_or_default();
                StmtKind::If { cond, then_block, else_block }
            }
            ast::StmtKind::Match { scrutinee, arms } => self.check_match(scrutinee, arms, span),
            ast::StmtKind::While { cond, body } => {
                let cond = self.check_bool(cond);
                let body = self.check_block(body);
                StmtKind::While { cond, body }
            }
            ast::StmtKind::Repeat { body, cond } => {
                let (body, cond) = self.check_body_then_until(body, Some(cond));
                StmtKind::Repeat { body, cond: cond? }
            }
            ast::StmtKind::For { pattern, domain, body } => {
                let domain = self.check_domain(domain);
                self.body.push_scope();
                let pattern = self.bind_pattern(pattern, &domain.elem);
                let body = self.check_block(body);
                self.body.pop_scope();
                StmtKind::For { pattern, domain, body }
            }
            ast::StmtKind::Simultaneous(body) => {
                if !self.flow_only(span, "simultaneous") {
                    return None;
                }
                self.check_simultaneous(body, span)
            }
            ast::StmtKind::TakeTurns { start, body, unless, until } => {
                self.check_take_turns(span, start, body, unless.as_ref(), until.as_ref())?
            }
            ast::StmtKind::Expr(e) => return self.check_expr_stmt(e, span),
            ast::StmtKind::Return(value) => self.check_return(span, value.as_ref())?,
            ast::StmtKind::TooDeep => {
                self.error(too_deep(span, "block"));
                return None;
            }
            ast::StmtKind::Error => return None,
        };
        Some(tast::Stmt { kind, span })
    }

    /// `place = value`, `place += value`, ...
    fn check_assign(&mut self, target: &ast::Expr, op: AssignOp, value: &ast::Expr) -> Option<StmtKind> {
        let place = self.check_place(target)?;
        let (place, place_ty) = place;
        let op = match op {
            AssignOp::Set => None,
            AssignOp::Add => Some(ArithOp::Add),
            AssignOp::Sub => Some(ArithOp::Sub),
            AssignOp::Mul => Some(ArithOp::Mul),
        };
        let value = if op.is_some() && place_ty != Ty::Int {
            self.error(
                Diagnostic::error(format!("compound assignment to {}", place_ty.a()))
                    .primary(target.span, "`+=`, `-=` and `*=` need an `int`"),
            );
            self.check_expr(value, None)
        } else {
            self.check_expr(value, Some(&place_ty))
        };
        Some(StmtKind::Assign { target: place, op, value })
    }

    /// `take_turns (start) { ... } unless c until d`: `player` is the current player.
    /// `return` in a fn (with a value of its type) or a flow (without one).
    fn check_return(&mut self, span: Span, value: Option<&ast::Expr>) -> Option<StmtKind> {
        match (&self.body.ret, value) {
            (Some(ret), Some(v)) => {
                let ret = ret.clone();
                Some(StmtKind::Return(Some(self.check_expr(v, Some(&ret)))))
            }
            (Some(ret), None) => {
                let ret = ret.clone();
                self.error(
                    Diagnostic::error("`return` without a value in a function")
                        .primary(span, format!("this function returns {}", ret.a())),
                );
                None
            }
            (None, Some(v)) => {
                self.check_expr(v, None);
                self.error(
                    Diagnostic::error("a flow cannot return a value")
                        .primary(v.span, "this value")
                        .help("flows change the game; compute values with a `fn`"),
                );
                None
            }
            (None, None) => Some(StmtKind::Return(None)),
        }
    }

    fn check_expr_stmt(&mut self, e: &ast::Expr, span: Span) -> Option<tast::Stmt> {
        if let ast::ExprKind::Call(name, args) = &e.kind {
            if self.body.lookup(&name.name).is_none() {
                if let Some((Global::Flow(id), _)) = self.env.globals.get(&name.name).copied() {
                    self.used.insert(name.name.clone());
                    if !self.flow_only(span, "a flow call") {
                        return None;
                    }
                    let params = self.env.flows[id.0 as usize].params.clone();
                    let args = self.check_args(name, args, &params, e.span);
                    return Some(tast::Stmt { kind: StmtKind::CallFlow { flow: id, args }, span });
                }
            }
            let typed = self.check_expr(e, None);
            if !typed.ty.is_error() {
                self.error(
                    Diagnostic::error(format!("the value of `{}(...)` is unused", name.name))
                        .primary(e.span, format!("this computes {} and throws it away", typed.ty.a()))
                        .help("only flows can be called as statements; use the value, e.g. `let x = ...;`"),
                );
            }
            return None;
        }
        self.check_expr(e, None);
        self.error(
            Diagnostic::error("this expression does nothing")
                .primary(e.span, "a statement must be an action, an assignment or a flow call"),
        );
        None
    }

    /// Resolves an assignment target.
    fn check_place(&mut self, target: &ast::Expr) -> Option<(Place, Ty)> {
        match &target.kind {
            ast::ExprKind::Name(name) => {
                if let Some(id) = self.body.lookup(&name.name) {
                    let local = self.body.local(id);
                    if !local.mutable {
                        let what = if name.name == "player" { "the current player" } else { "this name" };
                        self.error(
                            Diagnostic::error(format!("cannot assign to `{}`", name.name))
                                .primary(
                                    target.span,
                                    format!("{what} is bound by a parameter, `for`, `choose` or `take_turns`"),
                                )
                                .help(format!("copy it first: `let {0}2 = {0};`", name.name)),
                        );
                        return None;
                    }
                    return Some((Place::Local(id), local.ty.clone()));
                }
                match self.env.globals.get(&name.name).copied() {
                    Some((Global::Var(id), _)) => {
                        if self.body.kind != BodyKind::Flow {
                            self.error(
                                Diagnostic::error(format!(
                                    "cannot assign to state variable `{}` in a function",
                                    name.name
                                ))
                                .primary(target.span, "functions cannot change the game state")
                                .help("return the new value and assign it in a flow"),
                            );
                            return None;
                        }
                        let ty = self.env.vars[id.0 as usize].1.clone();
                        Some((Place::Var(id), ty))
                    }
                    Some((g, decl)) => {
                        self.error(
                            Diagnostic::error(format!("cannot assign to {} `{}`", g.describe(), name.name))
                                .primary(target.span, "not a variable")
                                .secondary(decl, "declared here")
                                .with_help(matches!(g, Global::Param(_)).then(|| {
                                    "params are fixed for a game; set them with `--param name=value`".to_string()
                                })),
                        );
                        None
                    }
                    None => {
                        self.check_expr(target, None);
                        None
                    }
                }
            }
            ast::ExprKind::Index(base, idx) => {
                let (place, ty) = self.check_place(base)?;
                let (elem, idx_ty) = match &ty {
                    Ty::Array(t, _) | Ty::List(t) => ((**t).clone(), Ty::Int),
                    Ty::PerPlayer(t) => ((**t).clone(), Ty::Player),
                    Ty::Error => return None,
                    other => {
                        let other = other.clone();
                        self.error(
                            Diagnostic::error(format!("cannot index a value of type `{other}`"))
                                .primary(base.span, "not an array or list"),
                        );
                        return None;
                    }
                };
                let i = self.check_expr(idx, Some(&idx_ty));
                Some((Place::Index(Box::new(place), Box::new(i)), elem))
            }
            ast::ExprKind::CurrentPlayer | ast::ExprKind::Opponent => {
                let word = if matches!(target.kind, ast::ExprKind::CurrentPlayer) { "player" } else { "opponent" };
                self.error(
                    Diagnostic::error(format!("cannot assign to `{word}`"))
                        .primary(target.span, "take_turns decides whose turn it is")
                        .help("to skip or repeat turns, write the loop yourself with `while` and a `player` variable"),
                );
                None
            }
            _ => {
                self.check_expr(target, None);
                self.error(
                    Diagnostic::error("cannot assign to this expression")
                        .primary(target.span, "not a variable or an element of one"),
                );
                None
            }
        }
    }

    pub(super) fn check_choose(&mut self, c: &ast::Choose) -> StmtKind {
        let chooser = match &c.chooser {
            ast::Chooser::Nature(_) => None,
            ast::Chooser::Player(e) => Some(self.check_player(e, "the chooser")),
        };
        let (domain, elem) = match &c.domain {
            ast::ChooseDomain::Expr(d) => {
                let d = self.check_domain(d);
                let elem = d.elem.clone();
                (ChooseDomain::Domain(d), elem)
            }
            ast::ChooseDomain::Table(entries, table_span) => {
                if let Some(e) = &c.chooser.player_expr() {
                    self.error(
                        Diagnostic::error("only nature's choices have probabilities")
                            .primary(*table_span, "a probability table")
                            .secondary(e.span, "a player chooses here")
                            .help("players choose from a domain: `choose p x in [a, b];`"),
                    );
                }
                self.check_table(entries, *table_span)
            }
        };
        // The chosen value stays bound for the rest of the enclosing block.
        let pattern = self.bind_pattern(&c.pattern, &elem);
        let filter = c.filter.as_ref().map(|f| self.check_bool(f));
        let weight = c.weight.as_ref().map(|w| {
            if let Some(e) = c.chooser.player_expr() {
                self.error(
                    Diagnostic::error("only nature's choices can be weighted")
                        .primary(w.span, "a weight")
                        .secondary(e.span, "a player chooses here"),
                );
            }
            self.check_int(w)
        });
        StmtKind::Choose(Box::new(tast::Choose { chooser, pattern, domain, filter, weight }))
    }

    fn check_table(&mut self, entries: &[(ast::Expr, ast::Prob)], span: Span) -> (ChooseDomain, Ty) {
        let mut elem: Option<Ty> = None;
        let mut out = Vec::new();
        // Exact sum of the probabilities as a fraction (i128 to avoid overflow).
        let (mut num, mut den): (i128, i128) = (0, 1);
        let mut overflow = false;
        let mut bad_entry = false;
        let mut literals: Vec<(LiteralKey, Span)> = Vec::new();
        for (e, p) in entries {
            let x = self.check_expr(e, elem.as_ref());
            if elem.as_ref().is_none_or(Ty::is_error) {
                elem = Some(x.ty.clone());
            }
            if let Some(key) = LiteralKey::of(&x) {
                if let Some((_, first)) = literals.iter().find(|(k, _)| *k == key) {
                    self.error(
                        Diagnostic::error("the same outcome twice in a chance table")
                            .primary(e.span, "this outcome")
                            .secondary(*first, "is already here")
                            .help("give it one entry with the sum of the probabilities"),
                    );
                }
                literals.push((key, e.span));
            }
            let Some(prob) = Ratio::new(p.num.unsigned_abs(), p.den.unsigned_abs()) else {
                self.error(Diagnostic::error("probability with denominator 0").primary(p.span, "division by zero"));
                continue;
            };
            if p.num == 0 {
                self.error(
                    Diagnostic::error("probability 0 in a chance table")
                        .primary(p.span, "this outcome can never happen")
                        .help("leave it out of the table"),
                );
                continue;
            }
            if p.num > p.den {
                bad_entry = true;
                self.error(
                    Diagnostic::error(format!("probability {}/{} is greater than 1", p.num, p.den))
                        .primary(p.span, "not a probability"),
                );
            }
            let (a, b) = (i128::from(p.num), i128::from(p.den));
            match num.checked_mul(b).and_then(|x| a.checked_mul(den).and_then(|y| x.checked_add(y))) {
                Some(n) => {
                    num = n;
                    den *= b;
                    let g = gcd(num, den);
                    num /= g;
                    den /= g;
                }
                None => overflow = true,
            }
            out.push((x, prob));
        }
        if entries.is_empty() {
            self.error(Diagnostic::error("empty chance table").primary(span, "nature has nothing to choose from"));
        } else if overflow {
            self.error(
                Diagnostic::error("probabilities too fine to add up exactly").primary(span, "use smaller denominators"),
            );
        } else if num != den && out.len() == entries.len() && !bad_entry {
            self.error(
                Diagnostic::error(format!("probabilities sum to {}, not 1", fraction(num, den)))
                    .primary(span, "these probabilities")
                    .help("make them add up to exactly 1, or use `weight` for relative weights"),
            );
        }
        (ChooseDomain::Table(out), elem.unwrap_or(Ty::Error))
    }

    /// Checks a domain of `choose` or `for`.
    pub(super) fn check_domain(&mut self, d: &ast::Expr) -> Domain {
        match &d.kind {
            ast::ExprKind::Tuple(parts) => {
                let parts: Vec<Domain> = parts.iter().map(|p| self.check_domain(p)).collect();
                let elem = Ty::Tuple(parts.iter().map(|p| p.elem.clone()).collect());
                return Domain { kind: DomainKind::Product(parts), elem };
            }
            ast::ExprKind::BoolDomain => return Domain { kind: DomainKind::Bool, elem: Ty::Bool },
            ast::ExprKind::Name(name) if self.body.lookup(&name.name).is_none() => {
                if let Some((Global::Enum(id), _)) = self.env.globals.get(&name.name).copied() {
                    let elem = self.env.enum_ty(id);
                    if matches!(elem, Ty::Data(..)) {
                        self.error(
                            Diagnostic::error(format!(
                                "enum `{}` has variants with fields: it cannot be enumerated",
                                name.name
                            ))
                            .primary(d.span, "not a finite domain")
                            .help("choose from a list of its values, e.g. built by a `fn` returning `list<...>`"),
                        );
                        return Domain { kind: DomainKind::Values(tast::Expr::error(d.span)), elem: Ty::Error };
                    }
                    return Domain { kind: DomainKind::Enum(id), elem };
                }
            }
            _ => {}
        }
        let e = self.check_expr(d, None);
        let elem = match e.ty.element() {
            Some(t) => t.clone(),
            None if e.ty.is_error() => Ty::Error,
            None => {
                let help = match e.ty {
                    Ty::Int => "a range such as `0..n` or `1..=n` enumerates integers",
                    _ => "a domain is a list, an array, a range, an enum, `bool`, `players` or a tuple of domains",
                };
                self.error(
                    Diagnostic::error(format!("cannot choose from {}", e.ty.a()))
                        .primary(d.span, "not enumerable")
                        .help(help),
                );
                Ty::Error
            }
        };
        Domain { kind: DomainKind::Values(e), elem }
    }

    /// Declares the names a pattern binds to parts of a value of type `ty`.
    fn bind_pattern(&mut self, p: &ast::Pattern, ty: &Ty) -> Pattern {
        match &p.kind {
            ast::PatternKind::Bind(name) => {
                Pattern::Bind(self.body.declare(&name.name, ty.clone(), false, Some(name.span)))
            }
            ast::PatternKind::Wildcard => Pattern::Wildcard,
            ast::PatternKind::Tuple(ps) => {
                let parts: Vec<Ty> = match ty {
                    Ty::Tuple(ts) if ts.len() == ps.len() => ts.clone(),
                    Ty::Error => vec![Ty::Error; ps.len()],
                    other => {
                        self.error(
                            Diagnostic::error(format!("a pattern of {} parts cannot match {}", ps.len(), other.a()))
                                .primary(p.span, "this pattern"),
                        );
                        vec![Ty::Error; ps.len()]
                    }
                };
                Pattern::Tuple(ps.iter().zip(&parts).map(|(p, t)| self.bind_pattern(p, t)).collect())
            }
            ast::PatternKind::TooDeep => {
                self.error(too_deep(p.span, "pattern"));
                Pattern::Wildcard
            }
        }
    }

    /// Finds or creates the fact `tag` with these argument types.
    fn intern_fact(&mut self, tag: &ast::Ident, args: &[tast::Expr]) -> Option<tast::FactId> {
        let tys: Vec<Ty> = args.iter().map(|a| a.ty.clone()).collect();
        if let Some((id, first)) = self.env.fact_index.get(&tag.name).copied() {
            let known = &self.env.facts[id.0 as usize].args;
            if known.len() != tys.len() || known.iter().zip(&tys).any(|(a, b)| a != b) {
                let show = |ts: &[Ty]| ts.iter().map(Ty::to_string).collect::<Vec<_>>().join(", ");
                let (was, now) = (show(known), show(&tys));
                self.error(
                    Diagnostic::error(format!("fact `{}` revealed with different arguments", tag.name))
                        .primary(tag.span, format!("here `{}({now})`", tag.name))
                        .secondary(first, format!("first revealed as `{}({was})`", tag.name))
                        .help("give different facts different names"),
                );
                return None;
            }
            return Some(id);
        }
        if tys.iter().any(Ty::has_error) {
            return None;
        }
        let id = tast::FactId(self.env.facts.len() as u32);
        self.env.facts.push(tast::Fact { tag: tag.name.clone(), args: tys });
        self.env.fact_index.insert(tag.name.clone(), (id, tag.span));
        Some(id)
    }
}

impl ast::Chooser {
    fn player_expr(&self) -> Option<&ast::Expr> {
        match self {
            ast::Chooser::Player(e) => Some(e),
            ast::Chooser::Nature(_) => None,
        }
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

fn fraction(num: i128, den: i128) -> String {
    if den == 1 {
        num.to_string()
    } else {
        format!("{num}/{den}")
    }
}

/// Whether every path through the block ends in `return` (for functions).
pub(super) fn always_returns(b: &ast::Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        ast::StmtKind::Return(_) => true,
        ast::StmtKind::If { then_block, else_block: Some(e), .. } => always_returns(then_block) && always_returns(e),
        // A `match` that misses a variant is an error of its own.
        ast::StmtKind::Match { arms, .. } => !arms.is_empty() && arms.iter().all(|a| always_returns(&a.body)),
        // Errors were reported already; do not add a second one.
        ast::StmtKind::Error | ast::StmtKind::TooDeep => true,
        _ => false,
    })
}

/// The value of a table key written as a literal (numbers, booleans,
/// players, enum variants and tuples of them), so that a key written twice
/// is caught; keys computed from params or state are compared at run time
/// only as outcomes.
#[derive(PartialEq)]
enum LiteralKey {
    Int(i64),
    Bool(bool),
    Player(u32),
    Variant(u32, u32),
    Tuple(Vec<LiteralKey>),
}

impl LiteralKey {
    fn of(e: &tast::Expr) -> Option<LiteralKey> {
        use tast::ExprKind as K;
        Some(match &e.kind {
            K::Int(n) => LiteralKey::Int(*n),
            K::Neg(x) => match x.kind {
                K::Int(n) => LiteralKey::Int(n.checked_neg()?),
                _ => return None,
            },
            K::Bool(b) => LiteralKey::Bool(*b),
            K::Player(p) => LiteralKey::Player(*p),
            K::Variant(en, v) => LiteralKey::Variant(en.0, *v),
            K::Tuple(xs) => LiteralKey::Tuple(xs.iter().map(LiteralKey::of).collect::<Option<_>>()?),
            _ => return None,
        })
    }
}
