//! The IR: a game's flows as one control-flow graph whose blocks each end in
//! exactly one event (choose, reveal, payoff, outcome, end) or a jump/branch.
//!
//! Flows are expanded in place at each call, so the whole play is one graph
//! over a flat array of *slots*: the state variables first (slot `i` is var
//! `i`), then the locals of every expanded flow and the loop counters.
//! Expressions are the checker's typed expressions with `Local(i)` meaning
//! slot `i` (in fns, which stay structured, `Local(i)` is the fn's own local).
//! Spans live in a side table (`block_spans`), not in the blocks.

use std::fmt;

use crate::span::Span;
use crate::typeck::tast::{self, ArithOp, Expr, FactId, Pattern, Place};
use crate::typeck::types::Ty;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockId(pub u32);

#[derive(Clone)]
pub struct Program {
    pub name: String,
    pub players: Vec<String>,
    pub params: Vec<tast::Param>,
    pub enums: Vec<tast::Enum>,
    pub facts: Vec<tast::Fact>,
    pub fns: Vec<tast::Fn>,
    /// Name and type of each slot (for display, labels and codegen).
    pub slots: Vec<(String, Ty)>,
    pub n_vars: u32,
    /// Initial values of the state variables, in declaration order.
    pub var_inits: Vec<Expr>,
    pub blocks: Vec<Block>,
    pub block_spans: Vec<Span>,
    pub entry: BlockId,
    /// Types of the values chosen at choices, indexed by `Choose::choice_ty`.
    pub choice_tys: Vec<Ty>,
}

#[derive(Clone)]
pub struct Block {
    pub insts: Vec<Inst>,
    pub term: Term,
}

impl Block {
    /// The steps entering this block costs against the step limit, for
    /// both executions: one for the block and one per instruction (fns,
    /// calls, `where` tests and `combinations` count
    /// `galac_runtime::ops::STEP`s of their own).
    pub fn steps(&self) -> u64 {
        (1 + self.insts.len() as u64) * galac_runtime::ops::STEP
    }
}

#[derive(Clone)]
pub enum Inst {
    /// `place = value`, or `place op= value`.
    Assign { place: Place, op: Option<ArithOp>, value: Expr },
    /// Destructure `value` into the slots of `pattern`.
    Bind { pattern: Pattern, value: Expr },
    /// Store the elements of a domain as a list in `slot` (for `for` loops).
    Enumerate { slot: u32, domain: tast::Domain },
}

#[derive(Clone)]
pub enum Term {
    Jump(BlockId),
    Branch {
        cond: Expr,
        then_to: BlockId,
        else_to: BlockId,
    },
    Choose(Box<Choose>),
    Reveal {
        to: Option<Expr>,
        fact: FactId,
        args: Vec<Expr>,
        next: BlockId,
    },
    Payoff {
        player: Expr,
        op: ArithOp,
        amount: Expr,
        next: BlockId,
    },
    /// A leaf: accumulated payoffs plus this per-player vector.
    Outcome(Expr),
    /// A leaf with the accumulated payoffs.
    End,
}

#[derive(Clone)]
pub struct Choose {
    /// `None` for nature.
    pub chooser: Option<Expr>,
    pub pattern: Pattern,
    pub domain: tast::ChooseDomain,
    pub filter: Option<Expr>,
    pub weight: Option<Expr>,
    /// Index into [`Program::choice_tys`]: the type of the chosen value.
    pub choice_ty: u32,
    pub next: BlockId,
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game {} (players {})", self.name, self.players.join(", "))?;
        for (i, p) in self.params.iter().enumerate() {
            writeln!(f, "  param {i} {}: {} = {}", p.name, p.ty, self.show(&p.default))?;
        }
        for (i, (name, ty)) in self.slots.iter().enumerate() {
            let init =
                if i < self.var_inits.len() { format!(" = {}", self.show(&self.var_inits[i])) } else { String::new() };
            writeln!(f, "  slot {i} {name}: {ty}{init}")?;
        }
        writeln!(f, "entry: b{}", self.entry.0)?;
        for (i, b) in self.blocks.iter().enumerate() {
            writeln!(f, "b{i}:")?;
            for inst in &b.insts {
                writeln!(f, "    {}", self.inst_text(inst))?;
            }
            writeln!(f, "    {}", self.term_text(&b.term))?;
        }
        Ok(())
    }
}

/// `text` (a `Debug` print) with each `Span { .. }` cut to `Span`.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span { ") {
        out.push_str(&rest[..at + 4]);
        // A span's fields hold no braces: its end is the next `}`.
        rest = rest[at..].find('}').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out
}

/// FNV-1a of `s`: a checksum that identifies text (not for security).
pub(crate) fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Program {
    /// A checksum of the game's rules: the printed IR and the functions,
    /// enums and facts it calls, without source positions, so that an
    /// edit of comments or layout keeps it and an edit of a rule changes it.
    /// Both executions report it ([`galac_runtime::game::GameInfo::program`]);
    /// a saved tree carries it and is refused for a program that differs.
    pub fn fingerprint(&self) -> u64 {
        let decls = format!("{:?}", (&self.fns, &self.enums, &self.facts));
        fnv1a(&format!("{self}\n{}", without_spans(&decls)))
    }

    /// One instruction as `ir` prints it (also each line of `ir --format json`).
    pub fn inst_text(&self, inst: &Inst) -> String {
        match inst {
            Inst::Assign { place, op, value } => {
                let op = match op {
                    None => "=",
                    Some(ArithOp::Add) => "+=",
                    Some(ArithOp::Sub) => "-=",
                    Some(ArithOp::Mul) => "*=",
                };
                format!("{} {op} {}", self.show_place(place), self.show(value))
            }
            Inst::Bind { pattern, value } => {
                format!("let {} = {}", self.show_pattern(pattern), self.show(value))
            }
            Inst::Enumerate { slot, domain } => {
                format!("s{slot} = list of {}", self.show_domain(domain))
            }
        }
    }

    /// A block's terminator as `ir` prints it.
    pub fn term_text(&self, term: &Term) -> String {
        match term {
            Term::Jump(to) => format!("jump b{}", to.0),
            Term::Branch { cond, then_to, else_to } => {
                format!("branch {} ? b{} : b{}", self.show(cond), then_to.0, else_to.0)
            }
            Term::Choose(c) => {
                let who = c.chooser.as_ref().map_or("nature".to_string(), |e| self.show(e));
                let dom = match &c.domain {
                    tast::ChooseDomain::Domain(d) => self.show_domain(d),
                    tast::ChooseDomain::Table(entries) => {
                        let es: Vec<String> = entries.iter().map(|(e, p)| format!("{}: {p}", self.show(e))).collect();
                        format!("{{{}}}", es.join(", "))
                    }
                };
                let mut s = format!("choose {who} {} in {dom}", self.show_pattern(&c.pattern));
                if let Some(w) = &c.filter {
                    s += &format!(" where {}", self.show(w));
                }
                if let Some(w) = &c.weight {
                    s += &format!(" weight {}", self.show(w));
                }
                format!("{s} -> b{}", c.next.0)
            }
            Term::Reveal { to, fact, args, next } => {
                let to = to.as_ref().map_or("all".to_string(), |e| self.show(e));
                let args: Vec<String> = args.iter().map(|a| self.show(a)).collect();
                format!("reveal {to} {}({}) -> b{}", self.facts[fact.0 as usize].tag, args.join(", "), next.0)
            }
            Term::Payoff { player, op, amount, next } => {
                let op = if *op == ArithOp::Sub { "-=" } else { "+=" };
                format!("payoff {} {op} {} -> b{}", self.show(player), self.show(amount), next.0)
            }
            Term::Outcome(e) => format!("outcome {}", self.show(e)),
            Term::End => "end".to_string(),
        }
    }
}

impl Program {
    fn show_place(&self, p: &Place) -> String {
        match p {
            Place::Var(v) => format!("s{}", v.0),
            Place::Local(l) => format!("s{}", l.0),
            Place::Index(b, i) => format!("{}[{}]", self.show_place(b), self.show(i)),
        }
    }

    fn show_pattern(&self, p: &Pattern) -> String {
        match p {
            Pattern::Bind(l) => format!("s{}", l.0),
            Pattern::Wildcard => "_".into(),
            Pattern::Tuple(ps) => {
                format!("({})", ps.iter().map(|p| self.show_pattern(p)).collect::<Vec<_>>().join(", "))
            }
        }
    }

    fn show_domain(&self, d: &tast::Domain) -> String {
        match &d.kind {
            tast::DomainKind::Values(e) => self.show(e),
            tast::DomainKind::Enum(id) => self.enums[id.0 as usize].name.clone(),
            tast::DomainKind::Bool => "bool".into(),
            tast::DomainKind::Product(ds) => {
                format!("({})", ds.iter().map(|d| self.show_domain(d)).collect::<Vec<_>>().join(", "))
            }
        }
    }

    /// An expression in source-like syntax (slots as `sN`).
    pub fn show(&self, e: &Expr) -> String {
        use tast::ExprKind as K;
        let list = |xs: &[Expr]| xs.iter().map(|x| self.show(x)).collect::<Vec<_>>().join(", ");
        match &e.kind {
            K::Int(n) => n.to_string(),
            K::Bool(b) => b.to_string(),
            K::Player(i) => self.players.get(*i as usize).cloned().unwrap_or_default(),
            K::Variant(en, i) => {
                let en = &self.enums[en.0 as usize];
                format!("{}::{}", en.name, en.variants[*i as usize])
            }
            K::Param(p) => self.params[p.0 as usize].name.clone(),
            K::Var(v) => format!("s{}", v.0),
            K::Local(l) => format!("s{}", l.0),
            K::Players => "players".into(),
            K::Call(f, args) => format!("{}({})", self.fns[f.0 as usize].name, list(args)),
            K::Builtin(b, args) => format!("{}({})", b.name(), list(args)),
            K::Index(a, i) => format!("{}[{}]", self.show(a), self.show(i)),
            K::Field(a, n) => format!("{}.{n}", self.show(a)),
            K::Neg(a) => format!("-{}", self.show(a)),
            K::Not(a) => format!("!{}", self.show(a)),
            K::Binary(op, a, b) => format!("({} {} {})", self.show(a), op.symbol(), self.show(b)),
            K::Range { lo, hi, inclusive } => {
                format!("{}{}{}", self.show(lo), if *inclusive { "..=" } else { ".." }, self.show(hi))
            }
            K::If(c, a, b) => format!("(if {} then {} else {})", self.show(c), self.show(a), self.show(b)),
            K::Tuple(xs) => format!("({})", list(xs)),
            K::List(xs) => format!("[{}]", list(xs)),
            K::Repeat(v, n) => format!("[{}; {}]", self.show(v), self.show(n)),
            K::PerPlayerFill(v) => format!("[{}; players]", self.show(v)),
            K::Error => "<error>".into(),
        }
    }
}

/// The runtime's description of a value type (for labels).
pub fn type_desc(enums: &[tast::Enum], ty: &Ty) -> galac_runtime::labels::TypeDesc {
    use galac_runtime::labels::TypeDesc as D;
    let desc = |t: &Ty| type_desc(enums, t);
    match ty {
        Ty::Bool => D::Bool,
        Ty::Player => D::Player,
        Ty::Enum(id, _) => D::Enum(id.0),
        Ty::Data(id, ..) => {
            let fields = enums.get(id.0 as usize).map_or(&[][..], |e| &e.fields[..]);
            D::Data(id.0, fields.iter().map(|fs| fs.iter().map(desc).collect()).collect())
        }
        Ty::Card => D::Card,
        Ty::Tuple(ts) => D::Tuple(ts.iter().map(desc).collect()),
        Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t) => D::Seq(Box::new(desc(t))),
        Ty::Int | Ty::Error => D::Int,
    }
}

impl Program {
    /// Everything needed to label actions and information sets.
    pub fn labeler(&self) -> galac_runtime::labels::Labeler {
        galac_runtime::labels::Labeler {
            players: self.players.clone(),
            enums: self.enums.iter().map(|e| e.variants.clone()).collect(),
            facts: self
                .facts
                .iter()
                .map(|f| (f.tag.clone(), f.args.iter().map(|t| type_desc(&self.enums, t)).collect()))
                .collect(),
            choice_types: self.choice_tys.iter().map(|t| type_desc(&self.enums, t)).collect(),
        }
    }
}

impl Program {
    /// The checked `evaluate` fn of a lowered game and the slot of the state
    /// variable each of its params receives.
    pub fn evaluate_fn(&self) -> Option<(tast::FnId, Vec<u32>)> {
        let ir = self;
        let id = ir.fns.iter().position(|f| f.name == crate::typeck::evaluate::EVALUATE)?;
        let f = &ir.fns[id];
        let vars = &ir.slots[..ir.n_vars as usize];
        let slots: Option<Vec<u32>> = f.locals[..f.n_params as usize]
            .iter()
            .map(|p| vars.iter().position(|(name, _)| *name == p.name).map(|s| s as u32))
            .collect();
        Some((tast::FnId(id as u32), slots?))
    }
}
