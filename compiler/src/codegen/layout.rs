//! The state's layout: which field of the generated `State` holds each IR slot.
//!
//! Flows are expanded at every call with fresh slots, so a flow called twice
//! has two copies of its locals that are never in use at the same time. A
//! liveness analysis over the IR graph finds, for each write of a slot, the
//! slots whose values may still be read later; two slots interfere if one is
//! written while the other is live (or both are written by one pattern). Slots
//! of the same Rust type that do not interfere share a field (greedy colouring
//! in slot order), which makes the state smaller to clone and move.
//!
//! The state variables keep their own fields (they are initialised before the
//! entry block). A slot read before any write reads the field's default value,
//! which is the same for every slot of that Rust type.

use crate::ir::{self, Inst, Term};
use crate::typeck::tast::{ChooseDomain, Domain, DomainKind, Expr, ExprKind, Pattern, Place};

/// Above this many slots the quadratic interference matrix is not built and
/// every slot keeps its own field.
const MAX_SHARED_SLOTS: usize = 4096;

pub struct Layout {
    /// The field of each slot.
    pub field_of: Vec<u32>,
    /// Per field, the first slot stored in it (its name and type).
    pub fields: Vec<u32>,
    /// Per block that ends in a choice: the fields holding heap values
    /// (lists) that nothing reads after the node, by first slot. `advance`
    /// empties them before it returns the node, so that the builder's clones
    /// of the state do not share (count references to) dead lists.
    pub dead_after_choice: Vec<Vec<u32>>,
}

impl Layout {
    /// One field per slot.
    fn identity(n: usize, n_blocks: usize) -> Layout {
        Layout {
            field_of: (0..n as u32).collect(),
            fields: (0..n as u32).collect(),
            dead_after_choice: vec![Vec::new(); n_blocks],
        }
    }

    /// Shares fields between non-interfering slots whose Rust types
    /// (`type_key`) are equal; `owns_heap` says which slots hold lists;
    /// the slots `pinned` keep their own field, read when the play has
    /// ended (the showdown's strengths: `Game::strengths`).
    pub fn new(
        ir: &ir::Program,
        type_key: impl Fn(u32) -> String,
        owns_heap: impl Fn(u32) -> bool,
        pinned: &[u32],
    ) -> Layout {
        let n = ir.slots.len();
        if n > MAX_SHARED_SLOTS {
            return Layout::identity(n, ir.blocks.len());
        }
        let (g, live_in) = Interference::build(ir);
        let n_vars = ir.n_vars as usize;
        let keys: Vec<String> = (0..n as u32).map(type_key).collect();
        let mut field_of = vec![0u32; n];
        let mut fields: Vec<u32> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for s in 0..n {
            let reuse = if s < n_vars || pinned.contains(&(s as u32)) {
                None
            } else {
                (0..fields.len()).find(|&f| {
                    let first = fields[f] as usize;
                    first >= n_vars
                        && !pinned.contains(&fields[f])
                        && keys[first] == keys[s]
                        && members[f].iter().all(|&m| !g.get(m, s))
                })
            };
            match reuse {
                Some(f) => {
                    field_of[s] = f as u32;
                    members[f].push(s);
                }
                None => {
                    field_of[s] = fields.len() as u32;
                    fields.push(s as u32);
                    members.push(vec![s]);
                }
            }
        }
        let dead_after_choice = ir
            .blocks
            .iter()
            .map(|b| {
                let Term::Choose(c) = &b.term else { return Vec::new() };
                // After the node, `apply` reads the chooser, writes the
                // pattern and goes on at `next`.
                let mut live = live_in[c.next.0 as usize].clone();
                let mut uses = Vec::new();
                if let Some(p) = &c.chooser {
                    expr_uses(p, &mut uses);
                }
                for u in uses {
                    live.insert(u);
                }
                // State variables are not in the liveness sets: kept.
                (0..fields.len())
                    .filter(|&f| fields[f] as usize >= n_vars && owns_heap(fields[f]))
                    .filter(|&f| members[f].iter().all(|&m| !live.contains(m as u32)))
                    .map(|f| fields[f])
                    .collect()
            })
            .collect();
        Layout { field_of, fields, dead_after_choice }
    }
}

/// A set of slots.
#[derive(Clone, PartialEq)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }
    fn remove(&mut self, i: u32) {
        self.0[i as usize / 64] &= !(1 << (i % 64));
    }
    fn contains(&self, i: u32) -> bool {
        self.0[i as usize / 64] >> (i % 64) & 1 == 1
    }
    fn union(&mut self, o: &Set) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(w, bits)| (0..64u32).filter(move |b| bits >> b & 1 == 1).map(move |b| w as u32 * 64 + b))
    }
}

struct Interference {
    n: usize,
    bits: Vec<bool>,
}

impl Interference {
    fn get(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.n + b]
    }

    fn add(&mut self, a: u32, b: u32) {
        if a != b {
            let (a, b) = (a as usize, b as usize);
            self.bits[a * self.n + b] = true;
            self.bits[b * self.n + a] = true;
        }
    }

    /// `defs` are written at a point where `live` may still be read later:
    /// each def interferes with the live slots and with the other defs.
    fn defs_at(&mut self, defs: &[u32], live: &Set) {
        for &d in defs {
            for l in live.iter() {
                self.add(d, l);
            }
            for &e in defs {
                self.add(d, e);
            }
        }
    }

    /// The interferences, and the slots live at the start of each block.
    fn build(ir: &ir::Program) -> (Interference, Vec<Set>) {
        let n = ir.slots.len();
        let nb = ir.blocks.len();
        let live_in = live_in_sets(ir);
        let mut g = Interference { n, bits: vec![false; n * n] };
        for b in 0..nb {
            block_live_in(ir, b, &live_in, &mut g, true);
        }
        (g, live_in)
    }
}

/// The local slots (not state variables) live at the start of each block,
/// to a fixpoint (backwards over the blocks, repeatedly).
fn live_in_sets(ir: &ir::Program) -> Vec<Set> {
    let n = ir.slots.len();
    let nb = ir.blocks.len();
    let mut live_in: Vec<Set> = vec![Set::new(n); nb];
    let mut scratch = Interference { n, bits: Vec::new() };
    loop {
        let mut changed = false;
        for b in (0..nb).rev() {
            let live = block_live_in(ir, b, &live_in, &mut scratch, false);
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
        if !changed {
            return live_in;
        }
    }
}

/// Per block, the local slots that may be read from its start on (sorted):
/// with the state variables, the payoffs so far and the block itself, all
/// that the rest of a play from there depends on (the game's position key,
/// `galac_runtime::game::Game::position_key`, in both executions).
pub fn live_locals(ir: &ir::Program) -> Vec<Vec<u32>> {
    let n_vars = ir.n_vars;
    live_in_sets(ir).iter().map(|set| set.iter().filter(|&s| s >= n_vars).collect()).collect()
}

/// The slots live at the start of block `b`, given the live-in sets of its
/// successors; with `record`, adds the interferences of its writes to `g`.
fn block_live_in(ir: &ir::Program, b: usize, live_in: &[Set], g: &mut Interference, record: bool) -> Set {
    let n = ir.slots.len();
    let block = &ir.blocks[b];
    let mut live = Set::new(n);
    let mut uses = Vec::new();
    match &block.term {
        Term::Jump(to) => live.union(&live_in[to.0 as usize]),
        Term::Branch { cond, then_to, else_to } => {
            live.union(&live_in[then_to.0 as usize]);
            live.union(&live_in[else_to.0 as usize]);
            expr_uses(cond, &mut uses);
        }
        Term::Reveal { to, args, next, .. } => {
            live.union(&live_in[next.0 as usize]);
            if let Some(p) = to {
                expr_uses(p, &mut uses);
            }
            for a in args {
                expr_uses(a, &mut uses);
            }
        }
        Term::Payoff { player, amount, next, .. } => {
            live.union(&live_in[next.0 as usize]);
            expr_uses(player, &mut uses);
            expr_uses(amount, &mut uses);
        }
        Term::Outcome(e) => expr_uses(e, &mut uses),
        Term::End => {}
        Term::Choose(c) => {
            // The candidate loop writes the pattern while the chooser, the
            // domain, `where` and `weight` are read, and `apply` writes it
            // again (reading the chooser) before `next`.
            live.union(&live_in[c.next.0 as usize]);
            let mut defs = Vec::new();
            pattern_defs(&c.pattern, &mut defs);
            // The chooser and domain are read before any write of the
            // pattern; the filter and weight once per candidate, after it.
            let mut before = Vec::new();
            if let Some(p) = &c.chooser {
                expr_uses(p, &mut before);
            }
            match &c.domain {
                ChooseDomain::Domain(d) => domain_uses(d, &mut before),
                ChooseDomain::Table(es) => {
                    for (e, _) in es {
                        expr_uses(e, &mut before);
                    }
                }
            }
            let mut read = before.clone();
            for e in c.filter.iter().chain(&c.weight) {
                expr_uses(e, &mut read);
            }
            for &r in &read {
                live.insert(r);
            }
            if record {
                g.defs_at(&defs, &live);
            }
            for &d in &defs {
                live.remove(d);
            }
            for r in before {
                live.insert(r);
            }
        }
    }
    for u in uses {
        live.insert(u);
    }
    for inst in block.insts.iter().rev() {
        let mut defs = Vec::new();
        let mut kills = true;
        let mut uses = Vec::new();
        match inst {
            Inst::Assign { place, op, value } => {
                expr_uses(value, &mut uses);
                let root = place_uses(place, &mut uses);
                if let Some(r) = root {
                    defs.push(r);
                    // A compound or element assignment also reads the slot.
                    if op.is_some() || matches!(place, Place::Index(..)) {
                        kills = false;
                        uses.push(r);
                    }
                }
            }
            Inst::Bind { pattern, value } => {
                expr_uses(value, &mut uses);
                pattern_defs(pattern, &mut defs);
            }
            Inst::Enumerate { slot, domain } => {
                domain_uses(domain, &mut uses);
                defs.push(*slot);
            }
        }
        if record {
            g.defs_at(&defs, &live);
        }
        if kills {
            for &d in &defs {
                live.remove(d);
            }
        }
        for u in uses {
            live.insert(u);
        }
    }
    live
}

/// The slots a pattern binds (all of them, past any `_`).
pub(super) fn pattern_defs(p: &Pattern, out: &mut Vec<u32>) {
    match p {
        Pattern::Bind(l) => out.push(l.0),
        Pattern::Wildcard => {}
        Pattern::Tuple(ps) => ps.iter().for_each(|p| pattern_defs(p, out)),
    }
}

/// Adds the slots read by a place's indices; returns the slot it writes
/// (`None` for a state variable, which keeps its own field).
fn place_uses(p: &Place, out: &mut Vec<u32>) -> Option<u32> {
    match p {
        Place::Var(_) => None,
        Place::Local(l) => Some(l.0),
        Place::Index(base, i) => {
            expr_uses(i, out);
            place_uses(base, out)
        }
    }
}

fn domain_uses(d: &Domain, out: &mut Vec<u32>) {
    match &d.kind {
        DomainKind::Values(e) => expr_uses(e, out),
        DomainKind::Product(ds) => ds.iter().for_each(|d| domain_uses(d, out)),
        DomainKind::Enum(_) | DomainKind::Bool => {}
    }
}

/// The slots an expression of a flow reads (`Local(i)` is slot `i`).
fn expr_uses(e: &Expr, out: &mut Vec<u32>) {
    use ExprKind as K;
    match &e.kind {
        K::Local(l) => out.push(l.0),
        K::Int(_) | K::Bool(_) | K::Player(_) | K::Variant(..) | K::Param(_) | K::Var(_) | K::Players | K::Error => {}
        K::Call(_, xs) | K::Builtin(_, xs) | K::Tuple(xs) | K::List(xs) => xs.iter().for_each(|x| expr_uses(x, out)),
        K::Index(a, b) | K::Binary(_, a, b) | K::Repeat(a, b) | K::Range { lo: a, hi: b, .. } => {
            expr_uses(a, out);
            expr_uses(b, out);
        }
        K::Field(a, _) | K::Neg(a) | K::Not(a) | K::PerPlayerFill(a) => expr_uses(a, out),
        K::If(c, a, b) => {
            expr_uses(c, out);
            expr_uses(a, out);
            expr_uses(b, out);
        }
    }
}
