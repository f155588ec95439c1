//! Which player choices remember the list of options they offered.
//!
//! A player remembers the options it was offered: they were part of its
//! information set when it chose. The record of an own move (`apply`)
//! therefore carries the offered list (its `info::choice_key`) unless the
//! list is already known from the record alone: the record names the
//! choice type and the value, so a choice whose list is the same wherever
//! a choice of its type is made needs no more. This keeps the facts short
//! (and packed) for the common fixed choices, and the information sets of
//! games that already had perfect recall unchanged.

use crate::ir::{Program, Term};
use crate::typeck::tast::{ChooseDomain, Domain, DomainKind, Expr, ExprKind};

/// Per block: whether its choice is a player's that records the offered
/// list with the choice (false for blocks that do not end in a choice).
pub fn remembered(ir: &Program) -> Vec<bool> {
    let mut per_ty = vec![0u32; ir.choice_tys.len()];
    for b in &ir.blocks {
        if let Term::Choose(c) = &b.term {
            if c.chooser.is_some() {
                per_ty[c.choice_ty as usize] += 1;
            }
        }
    }
    ir.blocks
        .iter()
        .map(|b| match &b.term {
            Term::Choose(c) if c.chooser.is_some() => {
                let fixed = match &c.domain {
                    // The whole type: the same list at every choice of it.
                    ChooseDomain::Domain(d) if whole_type(d) => true,
                    // A constant list, and the only player choice of its type.
                    ChooseDomain::Domain(d) => constant_domain(d) && per_ty[c.choice_ty as usize] == 1,
                    ChooseDomain::Table(xs) => xs.iter().all(|(e, _)| constant(e)) && per_ty[c.choice_ty as usize] == 1,
                };
                c.filter.is_some() || !fixed
            }
            _ => false,
        })
        .collect()
}

/// A domain that lists every value of its type, in the type's order.
fn whole_type(d: &Domain) -> bool {
    match &d.kind {
        DomainKind::Enum(_) | DomainKind::Bool => true,
        DomainKind::Values(e) => matches!(e.kind, ExprKind::Players),
        DomainKind::Product(parts) => parts.iter().all(whole_type),
    }
}

/// A domain whose elements are the same at every node of one tree.
fn constant_domain(d: &Domain) -> bool {
    match &d.kind {
        DomainKind::Enum(_) | DomainKind::Bool => true,
        DomainKind::Values(e) => constant(e),
        DomainKind::Product(parts) => parts.iter().all(constant_domain),
    }
}

/// An expression of literals, params and builtins of them: the same value
/// at every node of one tree (fns are not looked into).
fn constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Local(_) | ExprKind::Call(..) | ExprKind::Error => false,
        k => k.children().all(constant),
    }
}
