//! What the interpreter remembers of its last few evaluations that are
//! functions of their inputs: a fn's calls ([`RecentCalls`]; fns are pure)
//! and a player's choice's candidates made from a list ([`RecentChoices`]).
//! A derivation advances every deal of a public node the same way, so a
//! decision's moves are the same few calls and lists at every deal: made
//! once, then found by comparing a few values (no hashing).

use std::rc::Rc;

use galac_runtime::ops;

use super::{Pending, Value};

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
/// the values of the slots its domain reads, the player, the steps the
/// domain's evaluation took and the pending choice (with its key). The
/// domain is a function of those slots (fns are pure, the params fixed),
/// so the same values give the same candidates in the same steps.
#[derive(Default)]
pub(super) struct RecentChoices {
    choices: Vec<Choice>,
    next: usize,
}

struct Choice {
    inputs: Vec<Value>,
    chooser: u32,
    steps: u64,
    pending: Rc<Pending>,
}

impl RecentChoices {
    /// The pending choice remembered for `chooser` and the values of the
    /// slots `reads` in `slots`, if its steps fit in `left` (then taken
    /// from it); its key written into `key`.
    pub fn recall(
        &self,
        slots: &[Value],
        reads: &[u32],
        chooser: u32,
        left: &mut u64,
        key: &mut Vec<u64>,
    ) -> Option<Rc<Pending>> {
        let same =
            |c: &&Choice| c.chooser == chooser && reads.iter().zip(&c.inputs).all(|(&r, v)| slots[r as usize] == *v);
        let c = self.choices.iter().find(same)?;
        if !ops::steps_fit(left, c.steps) {
            return None;
        }
        key.clear();
        key.extend_from_slice(c.pending.key.as_deref().unwrap_or_default());
        Some(c.pending.clone())
    }

    /// Remembers `pending` (its key made), made for `chooser` from the
    /// values of the slots `reads` in `slots`, in `steps`.
    pub fn remember(&mut self, slots: &[Value], reads: &[u32], chooser: u32, steps: u64, pending: &Rc<Pending>) {
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
