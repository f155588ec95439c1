//! What the interpreter remembers of its last few evaluations that are
//! functions of their inputs: a fn's calls ([`RecentCalls`]; fns are pure)
//! and a player's choice's candidates made from a list, by the values of
//! the slots its domain reads ([`RecentChoices`], [`domain_reads`]). A
//! derivation advances every deal of a public node the same way, so a
//! decision's moves are the same few calls and lists at every deal: made
//! once, then found by comparing a few values (no hashing). A leaf of
//! `interp`, as `env` is.

use std::rc::Rc;

use galac_runtime::ops;
use galac_runtime::value::Dyn as Value;

use crate::ir;
use crate::typeck::tast::{self, ChooseDomain};

/// How many calls of a fn, or lists of a choice, are remembered: a
/// derivation's first moves alternate between a few (a deal's state at the
/// root made again, then advanced to the other player's decision).
const RECENT: usize = 4;

/// A fn's last calls: each one's arguments, result and the steps it took.
/// The same arguments give the same result in the same steps (the params
/// are fixed); the steps are taken again, or the body run where they do
/// not fit, so that a step limit stops a play where it would without this.
#[derive(Default)]
pub(super) struct RecentCalls {
    calls: Vec<Call>,
    /// The entry written after the last one once all `RECENT` are in use.
    next: usize,
    /// The entry of the call running (its arguments recorded, its result
    /// not yet), if one is: a call inside it (recursion) is not remembered.
    running: Option<usize>,
}

struct Call {
    args: Vec<Value>,
    /// The result of a call on `args` that ended without error.
    result: Option<Value>,
    steps: u64,
}

impl RecentCalls {
    /// Whether a call of the fn is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// The result of a remembered call on these `args`, if its steps fit in
    /// `left` (then taken from it).
    pub fn recall(&self, args: &[Value], left: &mut u64) -> Option<Value> {
        let call = self.calls.iter().find(|c| c.result.is_some() && c.args == args)?;
        if ops::steps_fit(left, call.steps) {
            call.result.clone()
        } else {
            None
        }
    }

    /// A call on `args` begins (written over the oldest entry, whose
    /// buffer is reused, once all are in use).
    pub fn start(&mut self, args: &[Value]) {
        let i = entry(&mut self.calls, &mut self.next);
        let call = &mut self.calls[i];
        call.result = None;
        call.args.clear();
        call.args.extend_from_slice(args);
        self.running = Some(i);
    }

    /// The call begun ends with `result` (`None`: an error) after `steps`.
    pub fn end(&mut self, result: Option<&Value>, steps: u64) {
        if let Some(i) = self.running.take() {
            self.calls[i].result = result.cloned();
            self.calls[i].steps = steps;
        }
    }
}

/// A choice block's last candidates made from a list value: per choice,
/// the values of the slots its domain reads ([`domain_reads`]), the
/// player, the steps the domain's evaluation took and the pending choice
/// `P` made of them. The domain is a function of those slots (fns are
/// pure, the params fixed), so the same values give the same candidates
/// in the same steps.
pub(super) struct RecentChoices<P> {
    choices: Vec<Choice<P>>,
    next: usize,
}

impl<P> Default for RecentChoices<P> {
    fn default() -> Self {
        RecentChoices { choices: Vec::new(), next: 0 }
    }
}

struct Choice<P> {
    inputs: Vec<Value>,
    chooser: u32,
    steps: u64,
    pending: Rc<P>,
}

impl<P> RecentChoices<P> {
    /// The pending choice remembered for `chooser` and the values of the
    /// slots `reads` in `slots`, if its steps fit in `left` (then taken
    /// from it).
    pub fn recall(&self, slots: &[Value], reads: &[u32], chooser: u32, left: &mut u64) -> Option<&Rc<P>> {
        let same =
            |c: &&Choice<P>| c.chooser == chooser && reads.iter().zip(&c.inputs).all(|(&r, v)| slots[r as usize] == *v);
        let c = self.choices.iter().find(same)?;
        ops::steps_fit(left, c.steps).then_some(&c.pending)
    }

    /// Remembers `pending`, made for `chooser` from the values of the
    /// slots `reads` in `slots`, in `steps`.
    pub fn remember(&mut self, slots: &[Value], reads: &[u32], chooser: u32, steps: u64, pending: &Rc<P>) {
        let inputs = reads.iter().map(|&r| slots[r as usize].clone()).collect();
        let choice = Choice { inputs, chooser, steps, pending: pending.clone() };
        if self.choices.len() < RECENT {
            self.choices.push(choice);
        } else {
            self.choices[self.next] = choice;
            self.next = (self.next + 1) % RECENT;
        }
    }
}

/// The entry to write a call into: a new one while fewer than [`RECENT`]
/// are in use, else the one written longest ago (its buffer reused).
fn entry(calls: &mut Vec<Call>, next: &mut usize) -> usize {
    if calls.len() < RECENT {
        calls.push(Call { args: Vec::new(), result: None, steps: 0 });
        return calls.len() - 1;
    }
    let i = *next;
    *next = (i + 1) % RECENT;
    i
}

/// A choice's domain where it is a list value (not a range) with no
/// `where` or `weight`: its candidates are the list's items, a function of
/// the slots the expression reads (fns are pure).
pub(super) fn listed_domain(c: &ir::Choose) -> Option<&tast::Expr> {
    match &c.domain {
        ChooseDomain::Domain(tast::Domain { kind: tast::DomainKind::Values(e), .. })
            if c.filter.is_none() && c.weight.is_none() && !matches!(e.kind, tast::ExprKind::Range { .. }) =>
        {
            Some(e)
        }
        _ => None,
    }
}

/// Per block, where it ends in a player's choice over a [`listed_domain`],
/// the slots the domain reads (each once, in order met).
pub(super) fn domain_reads(ir: &ir::Program) -> Vec<Option<Vec<u32>>> {
    fn reads(e: &tast::Expr, out: &mut Vec<u32>) {
        match &e.kind {
            tast::ExprKind::Var(v) if !out.contains(&v.0) => out.push(v.0),
            tast::ExprKind::Local(l) if !out.contains(&l.0) => out.push(l.0),
            kind => kind.children().for_each(|x| reads(x, out)),
        }
    }
    fn domain(block: &ir::Block) -> Option<&tast::Expr> {
        match &block.term {
            ir::Term::Choose(c) if c.chooser.is_some() => listed_domain(c),
            _ => None,
        }
    }
    ir.blocks
        .iter()
        .map(|block| {
            domain(block).map(|e| {
                let mut out = Vec::new();
                reads(e, &mut out);
                out
            })
        })
        .collect()
}
