//! Lowering: the typed program to the IR control-flow graph.
//!
//! Each flow call is expanded in place with its own slots for its locals, so
//! the IR of a game is one graph (the checker rejects recursive flows).
//! Loops become branches; `for` enumerates its domain into a hidden list slot
//! and walks it with a hidden counter; `take_turns` keeps the current player
//! in a slot.

use crate::ast::BinOp;
use crate::ir::{self, BlockId, Inst, Term};
use crate::span::Span;
use crate::typeck::tast::{self, ArithOp, Builtin, Expr, ExprKind, LocalId, Pattern, Place, StmtKind};
use crate::typeck::types::Ty;

pub fn lower(p: &tast::Program) -> ir::Program {
    let mut l = Lowerer {
        prog: p,
        blocks: Vec::new(),
        spans: Vec::new(),
        slots: p.vars.iter().map(|v| (v.name.clone(), v.ty.clone())).collect(),
        cur: BlockId(0),
        insts: Vec::new(),
        choice_tys: Vec::new(),
    };
    let main = &p.flows[p.main_flow.0 as usize];
    let entry = l.new_block(main.span);
    l.cur = entry;
    let exit = l.expand_flow(p.main_flow, Vec::new(), main.span);
    l.finish(Term::Jump(exit));
    l.cur = exit;
    // Reaching the end of the main flow ends the play with the accumulated payoffs.
    l.finish(Term::End);
    ir::Program {
        name: p.name.clone(),
        players: p.players.clone(),
        params: p.params.clone(),
        enums: p.enums.clone(),
        facts: p.facts.clone(),
        fns: p.fns.clone(),
        slots: l.slots,
        n_vars: p.vars.len() as u32,
        var_inits: p.vars.iter().map(|v| v.init.clone()).collect(),
        blocks: l.blocks.into_iter().map(|b| b.unwrap_or(ir::Block { insts: Vec::new(), term: Term::End })).collect(),
        block_spans: l.spans,
        entry,
        choice_tys: l.choice_tys,
    }
}

struct Lowerer<'p> {
    prog: &'p tast::Program,
    blocks: Vec<Option<ir::Block>>,
    spans: Vec<Span>,
    slots: Vec<(String, Ty)>,
    /// The block being filled, and its instructions so far.
    cur: BlockId,
    insts: Vec<Inst>,
    choice_tys: Vec<Ty>,
}

/// Where the locals of the flow being expanded start, and where `return` goes.
#[derive(Clone, Copy)]
struct Frame {
    base: u32,
    exit: BlockId,
}

impl Lowerer<'_> {
    fn new_block(&mut self, span: Span) -> BlockId {
        self.blocks.push(None);
        self.spans.push(span);
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Ends the current block with `term`.
    fn finish(&mut self, term: Term) {
        let insts = std::mem::take(&mut self.insts);
        self.blocks[self.cur.0 as usize] = Some(ir::Block { insts, term });
    }

    /// Ends the current block with `term` and continues in a new block.
    fn finish_and_continue(&mut self, term: impl FnOnce(BlockId) -> Term, span: Span) {
        let next = self.new_block(span);
        self.finish(term(next));
        self.cur = next;
    }

    fn new_slot(&mut self, name: String, ty: Ty) -> u32 {
        self.slots.push((name, ty));
        self.slots.len() as u32 - 1
    }

    /// Expands a flow at the current point; returns its exit block (not yet filled).
    fn expand_flow(&mut self, id: tast::FlowId, args: Vec<Expr>, span: Span) -> BlockId {
        let flow = &self.prog.flows[id.0 as usize];
        let fname = flow.name.clone().unwrap_or_else(|| "main".into());
        let base = self.slots.len() as u32;
        for local in &flow.locals {
            self.new_slot(format!("{fname}.{}", local.name), local.ty.clone());
        }
        for (i, a) in args.into_iter().enumerate() {
            self.insts.push(Inst::Assign { place: Place::Local(LocalId(base + i as u32)), op: None, value: a });
        }
        let exit = self.new_block(span);
        self.lower_block(&flow.body, Frame { base, exit });
        exit
    }

    fn lower_block(&mut self, b: &tast::Block, fr: Frame) {
        for s in &b.stmts {
            self.lower_stmt(s, fr);
        }
    }

    fn lower_stmt(&mut self, s: &tast::Stmt, fr: Frame) {
        let span = s.span;
        match &s.kind {
            StmtKind::Let { local, value } => {
                let value = remap(value, fr.base);
                self.insts.push(Inst::Assign { place: Place::Local(LocalId(fr.base + local.0)), op: None, value });
            }
            StmtKind::Assign { target, op, value } => {
                let place = remap_place(target, fr.base);
                self.insts.push(Inst::Assign { place, op: *op, value: remap(value, fr.base) });
            }
            StmtKind::Choose(c) => self.lower_choose(c, fr, span),
            StmtKind::For { pattern, domain, body } if is_players(domain) => {
                self.lower_for_players(pattern, body, fr, span)
            }
            StmtKind::For { pattern, domain, body } => self.lower_for(pattern, domain, body, fr, span),
            StmtKind::TakeTurns { start, current, body, unless, until } => {
                self.lower_take_turns(start, *current, body, unless.as_ref(), until.as_ref(), fr, span)
            }
            StmtKind::Reveal { to, fact, args } => {
                let to = to.as_ref().map(|e| remap(e, fr.base));
                let args: Vec<Expr> = args.iter().map(|a| remap(a, fr.base)).collect();
                self.spans[self.cur.0 as usize] = span;
                self.finish_and_continue(|next| Term::Reveal { to, fact: *fact, args, next }, span);
            }
            StmtKind::Payoff { player, op, amount } => {
                let (player, amount) = (remap(player, fr.base), remap(amount, fr.base));
                self.spans[self.cur.0 as usize] = span;
                self.finish_and_continue(|next| Term::Payoff { player, op: *op, amount, next }, span);
            }
            StmtKind::Outcome(e) => {
                let e = remap(e, fr.base);
                self.spans[self.cur.0 as usize] = span;
                // Whatever follows is unreachable; it goes into a fresh block.
                self.finish_and_continue(|_| Term::Outcome(e), span);
            }
            StmtKind::End => {
                self.spans[self.cur.0 as usize] = span;
                self.finish_and_continue(|_| Term::End, span);
            }
            StmtKind::If { cond, then_block, else_block } => {
                let (then_b, else_b, join) = (self.new_block(span), self.new_block(span), self.new_block(span));
                self.finish(Term::Branch { cond: remap(cond, fr.base), then_to: then_b, else_to: else_b });
                self.cur = then_b;
                self.lower_block(then_block, fr);
                self.finish(Term::Jump(join));
                self.cur = else_b;
                self.lower_block(else_block, fr);
                self.finish(Term::Jump(join));
                self.cur = join;
            }
            StmtKind::While { cond, body } => {
                let (head, body_b, exit) = (self.new_block(span), self.new_block(span), self.new_block(span));
                self.finish(Term::Jump(head));
                self.cur = head;
                self.finish(Term::Branch { cond: remap(cond, fr.base), then_to: body_b, else_to: exit });
                self.cur = body_b;
                self.lower_block(body, fr);
                self.finish(Term::Jump(head));
                self.cur = exit;
            }
            StmtKind::Simultaneous(body) => self.lower_block(body, fr),
            StmtKind::Repeat { body, cond } => {
                let (body_b, exit) = (self.new_block(span), self.new_block(span));
                self.finish(Term::Jump(body_b));
                self.cur = body_b;
                self.lower_block(body, fr);
                self.finish(Term::Branch { cond: remap(cond, fr.base), then_to: exit, else_to: body_b });
                self.cur = exit;
            }
            StmtKind::CallFlow { flow, args } => {
                let args = args.iter().map(|a| remap(a, fr.base)).collect();
                let exit = self.expand_flow(*flow, args, span);
                self.finish(Term::Jump(exit));
                self.cur = exit;
            }
            StmtKind::Return(_) => {
                self.finish_and_continue(|_| Term::Jump(fr.exit), span);
            }
        }
    }
    /// A choice ends the block; its value is bound where `apply` resumes.
    fn lower_choose(&mut self, c: &tast::Choose, fr: Frame, span: Span) {
        let elem = match &c.domain {
            tast::ChooseDomain::Domain(d) => d.elem.clone(),
            tast::ChooseDomain::Table(es) => es.first().map_or(Ty::Error, |e| e.0.ty.clone()),
        };
        let choice_ty = match self.choice_tys.iter().position(|t| *t == elem && !t.has_error()) {
            Some(i) => i as u32,
            None => {
                self.choice_tys.push(elem);
                self.choice_tys.len() as u32 - 1
            }
        };
        let choose = ir::Choose {
            chooser: c.chooser.as_ref().map(|e| remap(e, fr.base)),
            pattern: remap_pattern(&c.pattern, fr.base),
            domain: match &c.domain {
                tast::ChooseDomain::Domain(d) => tast::ChooseDomain::Domain(remap_domain(d, fr.base)),
                tast::ChooseDomain::Table(es) => {
                    tast::ChooseDomain::Table(es.iter().map(|(e, p)| (remap(e, fr.base), *p)).collect())
                }
            },
            filter: c.filter.as_ref().map(|e| remap(e, fr.base)),
            weight: c.weight.as_ref().map(|e| remap(e, fr.base)),
            choice_ty,
            next: BlockId(0),
        };
        self.spans[self.cur.0 as usize] = span;
        self.finish_and_continue(|next| Term::Choose(Box::new(ir::Choose { next, ..choose })), span);
    }

    /// `for p in players`: unrolled, one copy of the body per player (no
    /// list is built on every pass).
    fn lower_for_players(&mut self, pattern: &Pattern, body: &tast::Block, fr: Frame, span: Span) {
        // `for p in players`: unrolled, one copy of the body per
        // player (no list is built on every pass).
        for i in 0..self.prog.players.len() as u32 {
            let player = Expr { kind: ExprKind::Player(i), ty: Ty::Player, span };
            self.insts.push(Inst::Bind { pattern: remap_pattern(pattern, fr.base), value: player });
            self.lower_block(body, fr);
        }
    }

    /// `for`: the domain enumerated into a hidden list slot, walked with a
    /// hidden counter.
    fn lower_for(&mut self, pattern: &Pattern, domain: &tast::Domain, body: &tast::Block, fr: Frame, span: Span) {
        let list_ty = Ty::List(Box::new(domain.elem.clone()));
        let list = self.new_slot("for.list".into(), list_ty.clone());
        let idx = self.new_slot("for.index".into(), Ty::Int);
        self.insts.push(Inst::Enumerate { slot: list, domain: remap_domain(domain, fr.base) });
        self.insts.push(Inst::Assign { place: Place::Local(LocalId(idx)), op: None, value: int(0, span) });
        let (head, body_b, exit) = (self.new_block(span), self.new_block(span), self.new_block(span));
        self.finish(Term::Jump(head));
        self.cur = head;
        let len =
            Expr { kind: ExprKind::Builtin(Builtin::Len, vec![slot(list, list_ty.clone(), span)]), ty: Ty::Int, span };
        let more = Expr {
            kind: ExprKind::Binary(BinOp::Lt, Box::new(slot(idx, Ty::Int, span)), Box::new(len)),
            ty: Ty::Bool,
            span,
        };
        self.finish(Term::Branch { cond: more, then_to: body_b, else_to: exit });
        self.cur = body_b;
        let item = Expr {
            kind: ExprKind::Index(Box::new(slot(list, list_ty, span)), Box::new(slot(idx, Ty::Int, span))),
            ty: domain.elem.clone(),
            span,
        };
        self.insts.push(Inst::Bind { pattern: remap_pattern(pattern, fr.base), value: item });
        self.insts.push(Inst::Assign {
            place: Place::Local(LocalId(idx)),
            op: Some(ArithOp::Add),
            value: int(1, span),
        });
        self.lower_block(body, fr);
        self.finish(Term::Jump(head));
        self.cur = exit;
    }

    /// `take_turns`: the current player in a slot, moved on by `next`.
    #[allow(clippy::too_many_arguments)]
    fn lower_take_turns(
        &mut self,
        start: &Expr,
        current: LocalId,
        body: &tast::Block,
        unless: Option<&Expr>,
        until: Option<&Expr>,
        fr: Frame,
        span: Span,
    ) {
        let cur_slot = fr.base + current.0;
        self.insts.push(Inst::Assign {
            place: Place::Local(LocalId(cur_slot)),
            op: None,
            value: remap(start, fr.base),
        });
        let (head, body_b, after, exit) =
            (self.new_block(span), self.new_block(span), self.new_block(span), self.new_block(span));
        self.finish(Term::Jump(head));
        self.cur = head;
        match unless {
            Some(c) => self.finish(Term::Branch { cond: remap(c, fr.base), then_to: exit, else_to: body_b }),
            None => self.finish(Term::Jump(body_b)),
        }
        self.cur = body_b;
        self.lower_block(body, fr);
        let advance = self.new_block(span);
        self.finish(Term::Jump(after));
        self.cur = after;
        match until {
            Some(c) => self.finish(Term::Branch { cond: remap(c, fr.base), then_to: exit, else_to: advance }),
            None => self.finish(Term::Jump(advance)),
        }
        self.cur = advance;
        let next = Expr {
            kind: ExprKind::Builtin(Builtin::Next, vec![slot(cur_slot, Ty::Player, span)]),
            ty: Ty::Player,
            span,
        };
        self.insts.push(Inst::Assign { place: Place::Local(LocalId(cur_slot)), op: None, value: next });
        self.finish(Term::Jump(head));
        self.cur = exit;
    }
}

fn int(n: i64, span: Span) -> Expr {
    Expr { kind: ExprKind::Int(n), ty: Ty::Int, span }
}

fn slot(s: u32, ty: Ty, span: Span) -> Expr {
    Expr { kind: ExprKind::Local(LocalId(s)), ty, span }
}

/// Renames a flow's locals to slots starting at `base`.
fn remap(e: &Expr, base: u32) -> Expr {
    use ExprKind as K;
    let r = |x: &Expr| Box::new(remap(x, base));
    let rs = |xs: &[Expr]| xs.iter().map(|x| remap(x, base)).collect();
    let kind = match &e.kind {
        K::Local(l) => K::Local(LocalId(base + l.0)),
        K::Call(f, args) => K::Call(*f, rs(args)),
        K::Builtin(b, args) => K::Builtin(*b, rs(args)),
        K::Index(a, i) => K::Index(r(a), r(i)),
        K::Field(a, n) => K::Field(r(a), *n),
        K::Neg(a) => K::Neg(r(a)),
        K::Not(a) => K::Not(r(a)),
        K::Binary(op, a, b) => K::Binary(*op, r(a), r(b)),
        K::Range { lo, hi, inclusive } => K::Range { lo: r(lo), hi: r(hi), inclusive: *inclusive },
        K::If(c, a, b) => K::If(r(c), r(a), r(b)),
        K::Tuple(xs) => K::Tuple(rs(xs)),
        K::List(xs) => K::List(rs(xs)),
        K::Repeat(v, n) => K::Repeat(r(v), r(n)),
        K::PerPlayerFill(v) => K::PerPlayerFill(r(v)),
        other => other.clone(),
    };
    Expr { kind, ty: e.ty.clone(), span: e.span }
}

fn remap_place(p: &Place, base: u32) -> Place {
    match p {
        Place::Var(v) => Place::Var(*v),
        Place::Local(l) => Place::Local(LocalId(base + l.0)),
        Place::Index(b, i) => Place::Index(Box::new(remap_place(b, base)), Box::new(remap(i, base))),
    }
}

fn remap_pattern(p: &Pattern, base: u32) -> Pattern {
    match p {
        Pattern::Bind(l) => Pattern::Bind(LocalId(base + l.0)),
        Pattern::Wildcard => Pattern::Wildcard,
        Pattern::Tuple(ps) => Pattern::Tuple(ps.iter().map(|p| remap_pattern(p, base)).collect()),
    }
}

/// Whether a `for` domain is `players`, all players in turn order.
fn is_players(d: &tast::Domain) -> bool {
    matches!(&d.kind, tast::DomainKind::Values(Expr { kind: ExprKind::Players, .. }))
}

fn remap_domain(d: &tast::Domain, base: u32) -> tast::Domain {
    let kind = match &d.kind {
        tast::DomainKind::Values(e) => tast::DomainKind::Values(remap(e, base)),
        tast::DomainKind::Product(ds) => tast::DomainKind::Product(ds.iter().map(|d| remap_domain(d, base)).collect()),
        other => other.clone(),
    };
    tast::Domain { kind, elem: d.elem.clone() }
}
