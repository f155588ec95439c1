//! Warnings about a checked game that is valid but likely not what its
//! author meant: statements that can never run, plays that end without any
//! payoff, facts revealed to a player who never chooses again. (Unused
//! names are found by the checker, which sees every read.)

use crate::diagnostic::Diagnostic;
use crate::ir::{self, BlockId, Term};
use crate::span::Span;
use crate::typeck::tast::{self, ExprKind, StmtKind};

/// Every warning of these kinds, in source order.
pub fn warnings(program: &tast::Program, ir: &ir::Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in &program.fns {
        unreachable(&f.body, &mut out);
    }
    for f in &program.flows {
        unreachable(&f.body, &mut out);
    }
    let main_span = program.flows[program.main_flow.0 as usize].span;
    no_payoff(ir, main_span, &mut out);
    useless_reveals(ir, &mut out);
    out.sort_by_key(|d| d.primary_span());
    out.dedup_by(|a, b| a.message == b.message && a.primary_span() == b.primary_span());
    out
}

/// Whether a statement never lets control reach the next one.
fn diverges(s: &tast::Stmt) -> bool {
    match &s.kind {
        StmtKind::End | StmtKind::Outcome(_) | StmtKind::Return(_) => true,
        StmtKind::If { then_block, else_block, .. } => block_diverges(then_block) && block_diverges(else_block),
        _ => false,
    }
}

fn block_diverges(b: &tast::Block) -> bool {
    b.stmts.iter().any(diverges)
}

/// The first statement after one that diverges, in every block.
fn unreachable(b: &tast::Block, out: &mut Vec<Diagnostic>) {
    let mut ended: Option<Span> = None;
    for s in &b.stmts {
        if let Some(at) = ended {
            out.push(
                Diagnostic::warning("unreachable", "unreachable statement")
                    .primary(s.span, "this can never run")
                    .secondary(at, "every path ends here"),
            );
            break;
        }
        match &s.kind {
            StmtKind::If { then_block, else_block, .. } => {
                unreachable(then_block, out);
                unreachable(else_block, out);
            }
            StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::TakeTurns { body, .. }
            | StmtKind::Simultaneous(body) => unreachable(body, out),
            _ => {}
        }
        if diverges(s) {
            ended = Some(s.span);
        }
    }
}

fn successors(term: &Term) -> impl Iterator<Item = BlockId> {
    let (a, b) = match term {
        Term::Jump(to) => (Some(*to), None),
        Term::Branch { then_to, else_to, .. } => (Some(*then_to), Some(*else_to)),
        Term::Choose(c) => (Some(c.next), None),
        Term::Reveal { next, .. } | Term::Payoff { next, .. } => (Some(*next), None),
        Term::Outcome(_) | Term::End => (None, None),
    };
    a.into_iter().chain(b)
}

/// Visits each block reachable from the entry once, going on past a block
/// only where `visit` returns true.
fn walk(ir: &ir::Program, mut visit: impl FnMut(BlockId, &Term) -> bool) {
    let mut seen = vec![false; ir.blocks.len()];
    let mut todo = vec![ir.entry];
    while let Some(b) = todo.pop() {
        if std::mem::replace(&mut seen[b.0 as usize], true) {
            continue;
        }
        let term = &ir.blocks[b.0 as usize].term;
        if visit(b, term) {
            todo.extend(successors(term));
        }
    }
}

/// `end;` (or the end of the main flow) reached on a path with no `payoff`:
/// every player gets 0, which is rarely meant; `outcome [0, 0];` says so.
fn no_payoff(ir: &ir::Program, main_span: Span, out: &mut Vec<Diagnostic>) {
    walk(ir, |b, term| {
        match term {
            // Paths past a payoff are paid.
            Term::Payoff { .. } => return false,
            Term::End => {
                let mut at = ir.block_spans[b.0 as usize];
                if at == main_span {
                    at = Span { start: at.end.saturating_sub(1), ..at };
                }
                out.push(
                    Diagnostic::warning("no-payoff", "a play can end here without any payoff")
                        .primary(at, "every player gets 0 on a path that reaches this")
                        .help("if that is meant, say so with `outcome [0, 0];` (one entry per player)"),
                );
            }
            _ => {}
        }
        true
    });
}

/// A fixed player (`Some(i)`) or any player (`None`) named by an expression.
fn fixed_player(e: &tast::Expr) -> Option<u32> {
    match e.kind {
        ExprKind::Player(i) => Some(i),
        _ => None,
    }
}

/// `reveal P f(..)` after which P never chooses: the fact changes nothing.
fn useless_reveals(ir: &ir::Program, out: &mut Vec<Diagnostic>) {
    let n = ir.blocks.len();
    let players = ir.players.len();
    // Per block, the players who may choose at it or after it (a chooser
    // that is not a fixed player may be anyone), to a fixed point.
    let mut may: Vec<Vec<bool>> = vec![vec![false; players]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let term = &ir.blocks[b].term;
            let mut set = may[b].clone();
            if let Term::Choose(c) = term {
                match c.chooser.as_ref().map(fixed_player) {
                    Some(Some(i)) => set[i as usize] = true,
                    Some(None) => set.iter_mut().for_each(|x| *x = true),
                    None => {}
                }
            }
            for s in successors(term) {
                for (x, y) in set.iter_mut().zip(&may[s.0 as usize]) {
                    *x |= *y;
                }
            }
            if set != may[b] {
                may[b] = set;
                changed = true;
            }
        }
    }
    // Only reachable reveals; a statement of a flow expanded at several
    // calls is useless only if it is at every one of them.
    let mut verdicts: Vec<(Span, bool, Option<u32>)> = Vec::new();
    walk(ir, |b, term| {
        if let Term::Reveal { to, next, .. } = term {
            let later = &may[next.0 as usize];
            let useless = match to.as_ref().map(fixed_player) {
                Some(Some(i)) => !later[i as usize],
                Some(None) => false,
                None => !later.iter().any(|x| *x),
            };
            let at = ir.block_spans[b.0 as usize];
            match verdicts.iter_mut().find(|(s, _, _)| *s == at) {
                Some(v) => v.1 &= useless,
                None => verdicts.push((at, useless, to.as_ref().and_then(fixed_player))),
            }
        }
        true
    });
    for (at, _, to) in verdicts.into_iter().filter(|v| v.1) {
        let who = match to {
            Some(i) => format!("`{}` makes no choice after this", ir.players[i as usize]),
            None => "no player makes a choice after this".to_string(),
        };
        out.push(
            Diagnostic::warning("useless-reveal", "a fact revealed to a player who never chooses again")
                .primary(at, who)
                .note("a fact only changes the information sets of later choices; this one changes nothing"),
        );
    }
}
