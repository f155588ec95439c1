//! The showdown: whether the payoff's code depends on the deal only
//! through how one int of player 0's compares with one of player 1's
//! (hold'em's `hand_rank`s), so that a derivation evaluates each player's
//! strength once per private state instead of the payoff once per deal.
//!
//! Each private value belongs to the one player it is revealed to right
//! after chance deals it (`reveal oop hand(h1)`); a slot assigned from
//! only one player's private values and public values is that player's
//! (flow-insensitive: over every assignment in the deal and the payoff's
//! code, so a slot assigned from two players' values, or from a value
//! revealed to no one or to both, is mixed). The payoff's code is a
//! showdown of `x0` (player 0's) against `x1` (player 1's) when:
//!
//! - every branch there whose test reads a private value compares (`<`,
//!   `<=`, `>`, `>=`, `==`, `!=`) exactly `x0` and `x1`, two int locals;
//! - nothing else there reads a private value but assignments to one
//!   player's slots (never a mixed one), and none of those comes after a
//!   comparison: the blocks up to the first comparison read no private
//!   value in a test, so every deal runs the same ones, and each player's
//!   slots there are a function of its own private values;
//! - `x0` and `x1` each hold one value for the whole play: bound by
//!   chance and never assigned, or assigned by one instruction of the
//!   payoff's code outside any loop.
//!
//! Then which way every branch goes, and so what the play pays, follows
//! from the public values and whether `x0` is below, equal to or above
//! `x1`, and both hold their compared values when the play ends.

use super::flow::{inst_flow, pattern_slots, reachable, shown_after, slot_of, slots_named, successors};
use crate::ast::BinOp;
use crate::ir::{Program, Term};
use crate::typeck::tast::{Expr, ExprKind};
use crate::typeck::types::Ty;

/// A slot's owners, as bits: player 0's, player 1's, and a private value
/// revealed to neither alone.
const UNSHOWN: u8 = 4;

/// The two slots the payoff's code compares, player 0's then player 1's,
/// if it is a showdown (see the module comment); `deal`, `payoff_code` and
/// `private` as the proof worked them out.
pub(super) fn strengths(ir: &Program, deal: &[bool], payoff_code: &[bool], private: &[bool]) -> Option<[u32; 2]> {
    if ir.players.len() != 2 {
        return None;
    }
    let owners = owners(ir, deal, payoff_code, private)?;
    let masked = |e: &Expr| {
        let mut read = Vec::new();
        slots_named(e, &mut read);
        read.iter().any(|&s| owners[s as usize] != 0)
    };
    // The compared pair, and the blocks where some comparison was made.
    let mut pair = None;
    let mut compare = Vec::new();
    for (_, block) in ir.blocks.iter().enumerate().filter(|&(b, _)| payoff_code[b]) {
        let read: Vec<&Expr> = match &block.term {
            Term::Branch { cond, then_to, else_to } if masked(cond) => {
                let this = compared(cond, &owners)?;
                if *pair.get_or_insert(this) != this {
                    return None;
                }
                compare.extend([*then_to, *else_to]);
                continue;
            }
            Term::Branch { .. } | Term::Jump(_) | Term::End | Term::Choose(_) => continue,
            Term::Outcome(e) => vec![e],
            Term::Reveal { to, args, .. } => to.iter().chain(args).collect(),
            Term::Payoff { player, amount, .. } => vec![player, amount],
        };
        if read.into_iter().any(masked) {
            return None;
        }
    }
    let pair = pair?;
    let after = reachable(ir, compare, false);
    for (b, block) in ir.blocks.iter().enumerate().filter(|&(b, _)| payoff_code[b]) {
        for inst in &block.insts {
            let (targets, from) = inst_flow(inst);
            if from.into_iter().any(masked)
                && (after[b] || targets.iter().any(|&t| !matches!(owners[t as usize], 1 | 2)))
            {
                return None;
            }
        }
    }
    pair.iter().all(|&s| one_value(ir, deal, payoff_code, s)).then_some(pair)
}

/// Per slot, its owners (bits: see [`UNSHOWN`]); `None` when a branch of
/// the deal reads a private value (whose ways' assignments this does not
/// follow).
fn owners(ir: &Program, deal: &[bool], payoff_code: &[bool], private: &[bool]) -> Option<Vec<u8>> {
    let mut owners = vec![0u8; ir.slots.len()];
    for (_, block) in ir.blocks.iter().enumerate().filter(|&(b, _)| deal[b]) {
        match &block.term {
            Term::Choose(c) if c.chooser.is_none() => {
                let mut bound = Vec::new();
                pattern_slots(&c.pattern, &mut bound);
                let shown = shown_after(ir, c.next);
                for s in bound.into_iter().filter(|&s| private[s as usize]) {
                    for &(to, shown) in &shown {
                        match to.map(|e| &e.kind) {
                            Some(ExprKind::Player(p)) if shown == s && *p < 2 => owners[s as usize] |= 1 << p,
                            _ => {}
                        }
                    }
                }
            }
            Term::Branch { cond, .. } => {
                let mut read = Vec::new();
                slots_named(cond, &mut read);
                if read.iter().any(|&s| private[s as usize]) {
                    return None;
                }
            }
            _ => {}
        }
    }
    // A private value not revealed to one player alone is no one's.
    for (s, owner) in owners.iter_mut().enumerate() {
        if private[s] && !matches!(*owner, 1 | 2) {
            *owner = UNSHOWN;
        }
    }
    // What is assigned from them, in the deal and the payoff's code (the
    // proof lets no other code read a private value).
    loop {
        let mut changed = false;
        for (_, block) in ir.blocks.iter().enumerate().filter(|&(b, _)| deal[b] || payoff_code[b]) {
            for inst in &block.insts {
                let (targets, from) = inst_flow(inst);
                let mut read = Vec::new();
                from.iter().for_each(|e| slots_named(e, &mut read));
                let bits = read.iter().fold(0, |bits, &s| bits | owners[s as usize]);
                for t in targets {
                    let was = owners[t as usize];
                    owners[t as usize] |= bits;
                    changed |= owners[t as usize] != was;
                }
            }
        }
        if !changed {
            return Some(owners);
        }
    }
}

/// The slots `cond` compares, player 0's then player 1's, when it is a
/// comparison of two slots, one each player's.
fn compared(cond: &Expr, owners: &[u8]) -> Option<[u32; 2]> {
    let ExprKind::Binary(op, a, b) = &cond.kind else { return None };
    if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne) {
        return None;
    }
    let (a, b) = (slot_of(a)?, slot_of(b)?);
    match (owners[a as usize], owners[b as usize]) {
        (1, 2) => Some([a, b]),
        (2, 1) => Some([b, a]),
        _ => None,
    }
}

/// Whether slot `s` is an int local holding one value for the whole play
/// (see the module comment).
fn one_value(ir: &Program, deal: &[bool], payoff_code: &[bool], s: u32) -> bool {
    if s < ir.n_vars || ir.slots[s as usize].1 != Ty::Int {
        return false;
    }
    let (mut bound, mut assigned) = (0, Vec::new());
    for (b, block) in ir.blocks.iter().enumerate() {
        for inst in &block.insts {
            if inst_flow(inst).0.contains(&s) {
                assigned.push(b);
            }
        }
        if let Term::Choose(c) = &block.term {
            let mut slots = Vec::new();
            pattern_slots(&c.pattern, &mut slots);
            if slots.contains(&s) {
                bound += if c.chooser.is_none() && deal[b] { 1 } else { 2 };
            }
        }
    }
    match (bound, assigned.as_slice()) {
        (1, []) => true,
        (0, &[b]) => payoff_code[b] && !reachable(ir, successors(&ir.blocks[b].term), false)[b],
        _ => false,
    }
}
