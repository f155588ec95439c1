//! What the interpreter remembers of evaluations that are functions of
//! their inputs: a fn's last calls ([`RecentCalls`]; fns are pure) and a
//! player's choice's candidates, by the values of the slots its domain
//! and `where` read ([`ChoiceMemo`], [`memo_reads`]). A derivation
//! advances every deal of a public node the same way, so a decision's
//! moves are the same few calls and lists at every deal; a tree repeats
//! its betting under every deal, so a decision's candidates are the same
//! few lists throughout: each made once. A leaf of `interp`, as `env` is.

use std::rc::Rc;

use galac_runtime::ops;
use galac_runtime::recent::slot;
use galac_runtime::value::Dyn as Value;
use galac_runtime::value::Encode;
use rustc_hash::FxHashMap;

use crate::ir;
use crate::typeck::tast::{self, ChooseDomain};

/// A fn's last calls: each one's arguments, result and the steps it took.
/// The same arguments give the same result in the same steps (the params
/// are fixed); the steps are taken again, or the body run where they do
/// not fit, so that a step limit stops a play where it would without this.
#[derive(Default)]
pub(super) struct RecentCalls {
    calls: Vec<Call>,
    /// The entry written after the last one once all `galac_runtime::recent::RECENT` are in use.
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
        let i = slot(&mut self.calls, &mut self.next, || Call { args: Vec::new(), result: None, steps: 0 });
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

/// A player's choice's candidates remembered per block: keyed by the
/// chooser and the values of the slots the choice reads ([`memo_reads`]),
/// each entry the steps its evaluation took, the pending choice `P` made,
/// and the values it left in the pattern's slots. The candidates are a
/// function of those slots (fns are pure, the params fixed), so the same
/// values give the same candidates in the same steps.
///
/// The last [`RECENT`](galac_runtime::recent::RECENT) entries found or made are found first by comparing
/// values (a derivation offers each deal the same few), the others by the
/// values' words ([`Encode`], one-to-one over the values of each slot's
/// type) in a table (a tree repeats its betting under every deal); a block
/// keeps at most [`MEMO_BYTES`] there, then evaluates what it has not
/// kept.
pub(super) struct ChoiceMemo<P> {
    recent: Vec<(Vec<Value>, u32, Rc<Choice<P>>)>,
    /// The recent entry written after the last one once all are in use.
    next: usize,
    entries: FxHashMap<Box<[u64]>, Rc<Choice<P>>>,
    /// The table's keys' and candidates' bytes, about.
    bytes: usize,
}

impl<P> Default for ChoiceMemo<P> {
    fn default() -> Self {
        ChoiceMemo { recent: Vec::new(), next: 0, entries: FxHashMap::default(), bytes: 0 }
    }
}

/// How much a block's table keeps: every betting state of a game's deals
/// (the tree repeats them under every deal), bounded where the states
/// rarely repeat (a board read whole) or the lists are long.
const MEMO_BYTES: usize = 8 << 20;

struct Choice<P> {
    steps: u64,
    pending: Rc<P>,
    bound: Vec<Value>,
}

/// What a choice was made from, kept while it is evaluated: the values
/// of the slots it reads (the pattern may bind one of them) and their key.
pub(super) struct Inputs {
    values: Vec<Value>,
    chooser: u32,
    key: Vec<u64>,
}

impl<P> ChoiceMemo<P> {
    /// The pending choice remembered for `chooser` and the values of the
    /// slots `reads` in `slots`, if its steps fit in `left` (then taken
    /// from it), with the pattern's slots set as its evaluation left them;
    /// else what to [`Self::remember`] it by once made. `words` is scratch.
    pub fn recall(
        &mut self,
        slots: &mut [Value],
        reads: &MemoReads,
        chooser: u32,
        words: &mut Vec<u64>,
        left: &mut u64,
    ) -> Result<Rc<P>, Inputs> {
        let same = |(inputs, c, _): &&(Vec<Value>, u32, Rc<Choice<P>>)| {
            *c == chooser && reads.reads.iter().zip(inputs).all(|(&r, v)| slots[r as usize] == *v)
        };
        let mut hashed = false;
        // The recent entry found, by its values or else by its words.
        let at = match self.recent.iter().position(|r| same(&r)) {
            Some(at) => Some(at),
            None => {
                key_words(slots, reads, chooser, words);
                hashed = true;
                let choice = self.entries.get(&words[..]).cloned();
                choice.map(|choice| {
                    let values = reads.reads.iter().map(|&r| slots[r as usize].clone()).collect();
                    self.put_recent(values, chooser, &choice)
                })
            }
        };
        if let Some(c) = at.map(|at| &self.recent[at].2).filter(|c| ops::steps_fit(left, c.steps)) {
            reads.bound.iter().zip(&c.bound).for_each(|(&r, v)| slots[r as usize] = v.clone());
            return Ok(c.pending.clone());
        }
        if !hashed {
            key_words(slots, reads, chooser, words);
        }
        let values = reads.reads.iter().map(|&r| slots[r as usize].clone()).collect();
        Err(Inputs { values, chooser, key: words.clone() })
    }

    /// Remembers `pending`, made from `inputs` in `steps`, with what its
    /// evaluation left in the pattern's slots (`slots`); `size` is about
    /// its bytes.
    pub fn remember(
        &mut self,
        inputs: Inputs,
        reads: &MemoReads,
        slots: &[Value],
        steps: u64,
        pending: &Rc<P>,
        size: usize,
    ) {
        let bound = reads.bound.iter().map(|&r| slots[r as usize].clone()).collect();
        let choice = Rc::new(Choice { steps, pending: pending.clone(), bound });
        self.put_recent(inputs.values, inputs.chooser, &choice);
        let size = size + size_of_val(&inputs.key[..]);
        if self.bytes + size <= MEMO_BYTES {
            self.bytes += size;
            self.entries.insert(inputs.key.into(), choice);
        }
    }

    /// Keeps `choice` among the recent entries; its position there.
    fn put_recent(&mut self, values: Vec<Value>, chooser: u32, choice: &Rc<Choice<P>>) -> usize {
        let at = slot(&mut self.recent, &mut self.next, || (Vec::new(), chooser, choice.clone()));
        self.recent[at] = (values, chooser, choice.clone());
        at
    }
}

/// The table's key of `chooser` and the values of the slots `reads` in
/// `slots`, into `words`.
fn key_words(slots: &[Value], reads: &MemoReads, chooser: u32, words: &mut Vec<u64>) {
    words.clear();
    words.push(u64::from(chooser));
    reads.reads.iter().for_each(|&r| slots[r as usize].encode(words));
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

/// What a player's choice's candidates are a function of ([`ChoiceMemo`]):
/// the slots its domain and its `where` read, each once in order met (the
/// pattern's own slots aside where only the `where` reads them: each
/// candidate is bound to them before the test), and the pattern's slots
/// where a `where` tests candidates, which the test leaves bound to the
/// domain's last item.
pub(super) struct MemoReads {
    pub reads: Vec<u32>,
    pub bound: Vec<u32>,
}

/// Per block, where it ends in a player's choice with no `weight` (its
/// odds are its own), what its candidates are a function of.
pub(super) fn memo_reads(ir: &ir::Program) -> Vec<Option<MemoReads>> {
    let memo = |c: &ir::Choose| {
        let ChooseDomain::Domain(d) = &c.domain else { return None };
        if c.chooser.is_none() || c.weight.is_some() {
            return None;
        }
        let mut out = MemoReads { reads: Vec::new(), bound: Vec::new() };
        domain_reads(d, &mut out.reads);
        if let Some(f) = &c.filter {
            bound(&c.pattern, &mut out.bound);
            expr_reads(f, &out.bound, &mut out.reads);
        }
        Some(out)
    };
    ir.blocks
        .iter()
        .map(|block| match &block.term {
            ir::Term::Choose(c) => memo(c),
            _ => None,
        })
        .collect()
}

/// Adds to `out` the slots `e` reads, each once in order met, but `skip`'s.
fn expr_reads(e: &tast::Expr, skip: &[u32], out: &mut Vec<u32>) {
    match &e.kind {
        tast::ExprKind::Var(v) if !out.contains(&v.0) => out.push(v.0),
        tast::ExprKind::Local(l) if !out.contains(&l.0) && !skip.contains(&l.0) => out.push(l.0),
        kind => kind.children().for_each(|x| expr_reads(x, skip, out)),
    }
}

/// Adds to `out` the slots a domain reads.
fn domain_reads(d: &tast::Domain, out: &mut Vec<u32>) {
    match &d.kind {
        tast::DomainKind::Values(e) => expr_reads(e, &[], out),
        tast::DomainKind::Product(parts) => parts.iter().for_each(|p| domain_reads(p, out)),
        tast::DomainKind::Enum(_) | tast::DomainKind::Bool => {}
    }
}

/// Adds to `out` the slots a pattern binds.
fn bound(p: &tast::Pattern, out: &mut Vec<u32>) {
    match p {
        tast::Pattern::Bind(l) => out.push(l.0),
        tast::Pattern::Wildcard => {}
        tast::Pattern::Tuple(ps) => ps.iter().for_each(|p| bound(p, out)),
    }
}

/// A choice's `where` as its conjuncts ([`ConjunctMemo`]): the slots its
/// domain reads, and per conjunct (its `&&` chain, left to right) the
/// slots it reads, the pattern's own aside.
pub(super) struct Conjuncts {
    domain: Vec<u32>,
    parts: Vec<Vec<u32>>,
}

impl Conjuncts {
    /// The number of conjuncts.
    pub fn len(&self) -> usize {
        self.parts.len()
    }
}

/// Per block ending in a choice with a `where` and no `weight` over a
/// domain that is not a product, its [`Conjuncts`].
pub(super) fn conjunct_reads(ir: &ir::Program) -> Vec<Option<Conjuncts>> {
    let of = |c: &ir::Choose| {
        let (ChooseDomain::Domain(d), Some(f), None) = (&c.domain, &c.filter, &c.weight) else { return None };
        if matches!(d.kind, tast::DomainKind::Product(_)) {
            return None;
        }
        let mut domain = Vec::new();
        domain_reads(d, &mut domain);
        let mut skip = Vec::new();
        bound(&c.pattern, &mut skip);
        let mut parts = Vec::new();
        for_each_conjunct(f, &mut |e| {
            let mut out = Vec::new();
            expr_reads(e, &skip, &mut out);
            parts.push(out);
        });
        Some(Conjuncts { domain, parts })
    };
    ir.blocks
        .iter()
        .map(|block| match &block.term {
            ir::Term::Choose(c) => of(c),
            _ => None,
        })
        .collect()
}

/// Calls `f` on each conjunct of `e`, left to right (`a && b && c` is
/// `(a && b) && c`).
pub(super) fn for_each_conjunct<'e>(e: &'e tast::Expr, f: &mut impl FnMut(&'e tast::Expr)) {
    match &e.kind {
        tast::ExprKind::Binary(crate::ast::BinOp::And, a, b) => {
            for_each_conjunct(a, f);
            for_each_conjunct(b, f);
        }
        _ => f(e),
    }
}

/// A block's `where` remembered conjunct by conjunct: per conjunct, its
/// result and steps on each of the domain's items by the values of the
/// slots the domain and the conjunct read ([`Conjuncts`]). A deal's test
/// of each card (hold'em's river: `!contains(h1, river) &&
/// !contains(h2, river)` and the board) is then a lookup by each hand,
/// not a test per card. A conjunct is evaluated on every item, not only
/// where the ones before it held, so its results are what the test gives
/// wherever it asks; one that fails on an item is left out for good. At
/// most [`CONJUNCT_BYTES`] a conjunct.
#[derive(Default)]
pub(super) struct ConjunctMemo {
    parts: Vec<Part>,
}

/// A conjunct's result and steps on each item of its domain.
pub(super) type Results = Rc<[(bool, u32)]>;

#[derive(Default)]
struct Part {
    results: FxHashMap<Box<[u64]>, Results>,
    /// The keys' and results' bytes.
    bytes: usize,
    off: bool,
}

/// How much a conjunct keeps: a river card's test for every hand of a
/// range many times over, bounded where the keys rarely repeat.
const CONJUNCT_BYTES: usize = 8 << 20;

impl ConjunctMemo {
    /// Whether conjunct `k` of `reads` is left out (it failed on an item).
    pub fn off(&self, k: usize) -> bool {
        self.parts.get(k).is_some_and(|p| p.off)
    }

    /// The key of conjunct `k` of `reads`: the values in `slots` that the
    /// domain and the conjunct read, into `words`.
    pub fn key(k: usize, reads: &Conjuncts, slots: &[Value], words: &mut Vec<u64>) {
        words.clear();
        reads.domain.iter().chain(&reads.parts[k]).for_each(|&r| slots[r as usize].encode(words));
    }

    /// Conjunct `k`'s result and steps on each of `items` items under
    /// `key` ([`Self::key`]), remembered or made by `test` (an item's, or
    /// `None` where it failed); `None` where the conjunct is left out.
    pub fn results(
        &mut self,
        k: usize,
        n_parts: usize,
        key: &[u64],
        items: usize,
        test: impl FnMut(usize) -> Option<(bool, u32)>,
    ) -> Option<Results> {
        if self.parts.len() < n_parts {
            self.parts.resize_with(n_parts, Part::default);
        }
        let part = &mut self.parts[k];
        if part.off {
            return None;
        }
        if let Some(r) = part.results.get(key) {
            return Some(r.clone());
        }
        let made: Option<Results> = (0..items).map(test).collect();
        let Some(made) = made else {
            part.off = true;
            return None;
        };
        let size = size_of_val(key) + size_of_val(&made[..]);
        if part.bytes + size <= CONJUNCT_BYTES {
            part.bytes += size;
            part.results.insert(key.into(), made.clone());
        }
        Some(made)
    }
}
