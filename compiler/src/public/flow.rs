//! Reading the lowered graph for the public-course proof: which blocks
//! follow which, what an instruction, a choice or an expression reads and
//! writes (a leaf of `public`, shared by the proof and its showdown
//! analysis).

use crate::ir::{BlockId, Program, Term};
use crate::typeck::tast::{ChooseDomain, Domain, DomainKind, Expr, ExprKind, Pattern, Place};

/// The slots `e` reads, into `out` (a fn call's arguments only, as in
/// [`first_private`]).
pub(super) fn slots_named(e: &Expr, out: &mut Vec<u32>) {
    match &e.kind {
        ExprKind::Local(l) => out.push(l.0),
        ExprKind::Var(v) => out.push(v.0),
        kind => kind.children().for_each(|x| slots_named(x, out)),
    }
}

/// The block a player's choice goes on to.
pub(super) fn player_choice(term: &Term) -> Option<BlockId> {
    match term {
        Term::Choose(c) if c.chooser.is_some() => Some(c.next),
        _ => None,
    }
}

/// The blocks a terminator goes to (a choice's `next` included).
pub(super) fn successors(term: &Term) -> Vec<BlockId> {
    match term {
        Term::Jump(to) => vec![*to],
        Term::Branch { then_to, else_to, .. } => vec![*then_to, *else_to],
        Term::Choose(c) => vec![c.next],
        Term::Reveal { next, .. } | Term::Payoff { next, .. } => vec![*next],
        Term::Outcome(_) | Term::End => Vec::new(),
    }
}

/// The blocks reachable from `from` (included); with `stop_at_moves`, not
/// through a player's choice.
pub(super) fn reachable(ir: &Program, from: Vec<BlockId>, stop_at_moves: bool) -> Vec<bool> {
    let mut seen = vec![false; ir.blocks.len()];
    let mut stack = from;
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b.0 as usize], true) {
            continue;
        }
        let term = &ir.blocks[b.0 as usize].term;
        if stop_at_moves && player_choice(term).is_some() {
            continue;
        }
        stack.extend(successors(term));
    }
    seen
}

/// Per block: whether no choice (a player's or chance's) is reachable
/// from it, itself included.
pub(super) fn payoff_code(ir: &Program) -> Vec<bool> {
    let n = ir.blocks.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, block) in ir.blocks.iter().enumerate() {
        for s in successors(&block.term) {
            preds[s.0 as usize].push(b);
        }
    }
    let mut to_choice = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&b| matches!(ir.blocks[b].term, Term::Choose(_))).collect();
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut to_choice[b], true) {
            continue;
        }
        stack.extend(preds[b].iter().copied());
    }
    to_choice.into_iter().map(|c| !c).collect()
}

/// The slots a chance choice at `next` shows before anything else
/// happens (blocks with no instructions, jumps and reveals), each with to
/// whom (`None`: every player).
pub(super) fn shown_after(ir: &Program, mut next: BlockId) -> Vec<(Option<&Expr>, u32)> {
    let mut shown = Vec::new();
    for _ in 0..ir.blocks.len() {
        let block = &ir.blocks[next.0 as usize];
        if !block.insts.is_empty() {
            break;
        }
        match &block.term {
            Term::Jump(to) => next = *to,
            Term::Reveal { to, args, next: after, .. } => {
                shown.extend(args.iter().filter_map(slot_of).map(|s| (to.as_ref(), s)));
                next = *after;
            }
            _ => break,
        }
    }
    shown
}

/// The slot an expression is exactly, if it is one.
pub(super) fn slot_of(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Local(l) => Some(l.0),
        ExprKind::Var(v) => Some(v.0),
        _ => None,
    }
}

/// The slots a pattern binds, into `out`.
pub(super) fn pattern_slots(p: &Pattern, out: &mut Vec<u32>) {
    match p {
        Pattern::Bind(l) => out.push(l.0),
        Pattern::Wildcard => {}
        Pattern::Tuple(ps) => ps.iter().for_each(|p| pattern_slots(p, out)),
    }
}

/// An instruction's written slots and the expressions it reads.
pub(super) fn inst_flow(inst: &crate::ir::Inst) -> (Vec<u32>, Vec<&Expr>) {
    use crate::ir::Inst;
    let mut targets = Vec::new();
    let mut from = Vec::new();
    match inst {
        Inst::Assign { place, value, .. } => {
            place_flow(place, &mut targets, &mut from);
            from.push(value);
        }
        Inst::Bind { pattern, value } => {
            pattern_slots(pattern, &mut targets);
            from.push(value);
        }
        Inst::Enumerate { slot, domain } => {
            targets.push(*slot);
            domain_kind_exprs(domain, &mut from);
        }
    }
    (targets, from)
}

/// A place's slot, and its index expressions (read).
pub(super) fn place_flow<'a>(place: &'a Place, targets: &mut Vec<u32>, from: &mut Vec<&'a Expr>) {
    match place {
        Place::Var(v) => targets.push(v.0),
        Place::Local(l) => targets.push(l.0),
        Place::Index(p, i) => {
            from.push(i);
            place_flow(p, targets, from);
        }
    }
}

/// The expressions a choice's domain reads, into `out`.
pub(super) fn domain_exprs<'a>(d: &'a ChooseDomain, out: &mut Vec<&'a Expr>) {
    match d {
        ChooseDomain::Domain(d) => domain_kind_exprs(d, out),
        ChooseDomain::Table(rows) => out.extend(rows.iter().map(|(e, _)| e)),
    }
}

/// The expressions a domain reads, into `out`.
pub(super) fn domain_kind_exprs<'a>(d: &'a Domain, out: &mut Vec<&'a Expr>) {
    match &d.kind {
        DomainKind::Values(e) => out.push(e),
        DomainKind::Enum(_) | DomainKind::Bool => {}
        DomainKind::Product(parts) => parts.iter().for_each(|p| domain_kind_exprs(p, out)),
    }
}

/// Whether `e` reads a private slot.
pub(super) fn reads_private(e: &Expr, private: &[bool]) -> bool {
    first_private(e, private).is_some()
}

/// The first private slot `e` reads. A fn call reads its arguments only:
/// fns are pure and read params, constants and their arguments
/// (docs/language.md), so their bodies need no look.
pub(super) fn first_private(e: &Expr, private: &[bool]) -> Option<u32> {
    match &e.kind {
        ExprKind::Local(l) if private[l.0 as usize] => Some(l.0),
        ExprKind::Var(v) if private[v.0 as usize] => Some(v.0),
        kind => kind.children().find_map(|x| first_private(x, private)),
    }
}
