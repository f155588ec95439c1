//! The typed program: names resolved to ids, every expression typed.
//!
//! This is what the checker hands to lowering. It keeps spans for
//! diagnostics at run time (e.g. an overflow in a payoff expression).

use super::types::{EnumId, Ty};
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FnId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlowId(pub u32);
/// A local variable of one fn or flow body (arguments come first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FactId(pub u32);

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub players: Vec<String>,
    pub params: Vec<Param>,
    pub enums: Vec<Enum>,
    pub vars: Vec<Var>,
    pub fns: Vec<Fn>,
    pub flows: Vec<Flow>,
    pub main_flow: FlowId,
    pub facts: Vec<Fact>,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    /// Shared by the typed program and its IR (a range's default is an
    /// expression of a few allocations per hand).
    pub default: std::sync::Arc<Expr>,
    /// Declared with `const`: its value is its default, never overridden.
    pub constant: bool,
    /// The condition its values must meet (`where`).
    pub check: Option<ParamCheck>,
    pub span: Span,
}

/// A param's condition (`param stack: int = 900 where stack > 0;`), met by
/// every value or the game is not instantiated.
#[derive(Clone, Debug)]
pub struct ParamCheck {
    /// A `bool` of literals and the params up to this one.
    pub cond: Expr,
    /// `file:line:column: ` and the condition as written, which the error
    /// of a value that breaks it shows (in the interpreter and in generated
    /// code alike); filled by `compile` once the source is known.
    pub site: String,
    pub text: String,
}

impl ParamCheck {
    /// The error of a value of param `name` that breaks the condition (the
    /// interpreter's and generated code's).
    pub fn broken(&self, name: &str) -> String {
        format!("{}param `{name}` breaks its condition `{}`", self.site, self.text)
    }
}

#[derive(Clone, Debug)]
pub struct Enum {
    pub name: String,
    pub variants: Vec<String>,
    /// The field types of each variant (empty for `Liar`, two for `Bid(int, int)`).
    pub fields: Vec<Vec<Ty>>,
}

impl Enum {
    /// How a value of an enum with fields is held: the tuple of its variant
    /// number, then the fields of every variant in order (those of other
    /// variants than its own are zero), so both executions store, compare
    /// and intern it as a plain tuple. `None` for an enum without fields,
    /// whose values are variant numbers.
    pub fn repr(&self) -> Option<Vec<Ty>> {
        if self.fields.iter().all(Vec::is_empty) {
            return None;
        }
        Some(std::iter::once(Ty::Int).chain(self.fields.iter().flatten().cloned()).collect())
    }

    /// Where variant `v`'s first field sits in [`Self::repr`].
    pub fn field_offset(&self, v: u32) -> u32 {
        1 + self.fields.iter().take(v as usize).map(|f| f.len() as u32).sum::<u32>()
    }
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
    pub init: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
    pub mutable: bool,
}

#[derive(Clone, Debug)]
pub struct Fn {
    pub name: String,
    pub n_params: u32,
    pub ret: Ty,
    pub locals: Vec<Local>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Flow {
    /// `None` for the main flow.
    pub name: Option<String>,
    pub n_params: u32,
    pub locals: Vec<Local>,
    pub body: Block,
    pub span: Span,
}

/// A fact tag and the types of its arguments (the same at every use).
#[derive(Clone, Debug)]
pub struct Fact {
    pub tag: String,
    pub args: Vec<Ty>,
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let {
        local: LocalId,
        value: Expr,
    },
    Assign {
        target: Place,
        op: Option<ArithOp>,
        value: Expr,
    },
    Choose(Box<Choose>),
    Reveal {
        to: Option<Expr>,
        fact: FactId,
        args: Vec<Expr>,
    },
    Payoff {
        player: Expr,
        op: ArithOp,
        amount: Expr,
    },
    Outcome(Expr),
    End,
    If {
        cond: Expr,
        then_block: Block,
        else_block: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    Repeat {
        body: Block,
        cond: Expr,
    },
    For {
        pattern: Pattern,
        domain: Domain,
        body: Block,
    },
    /// Players' choices made at once: lowered as the same choices one after
    /// the other, none of which can read another's value.
    Simultaneous(Block),
    /// `current` is the local holding `player`.
    TakeTurns {
        start: Expr,
        current: LocalId,
        body: Block,
        unless: Option<Expr>,
        until: Option<Expr>,
    },
    CallFlow {
        flow: FlowId,
        args: Vec<Expr>,
    },
    Return(Option<Expr>),
}

/// A choice. `chooser` is `None` for nature.
#[derive(Clone, Debug)]
pub struct Choose {
    pub chooser: Option<Expr>,
    pub pattern: Pattern,
    pub domain: ChooseDomain,
    pub filter: Option<Expr>,
    pub weight: Option<Expr>,
}

#[derive(Clone, Debug)]
pub enum ChooseDomain {
    Domain(Domain),
    /// Values with exact probabilities `(num, den)` that sum to 1.
    /// Outcomes with their exact probabilities (checked: each in (0, 1], summing to 1).
    Table(Vec<(Expr, galac_runtime::rational::Ratio)>),
}

/// Something to enumerate in `choose` or `for`.
#[derive(Clone, Debug)]
pub struct Domain {
    pub kind: DomainKind,
    pub elem: Ty,
}

#[derive(Clone, Debug)]
pub enum DomainKind {
    /// The elements of a list, array or per-player array.
    Values(Expr),
    Enum(EnumId),
    Bool,
    /// Cartesian product, row-major.
    Product(Vec<Domain>),
}

#[derive(Clone, Debug)]
pub enum Pattern {
    Bind(LocalId),
    Wildcard,
    Tuple(Vec<Pattern>),
}

/// An assignable location.
#[derive(Clone, Debug)]
pub enum Place {
    Var(VarId),
    Local(LocalId),
    Index(Box<Place>, Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

/// The builtin functions are defined by their table.
pub use super::builtins::Builtin;

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    /// A player by turn-order position.
    Player(u32),
    Variant(EnumId, u32),
    Param(ParamId),
    Var(VarId),
    Local(LocalId),
    /// All players in turn order.
    Players,
    Call(FnId, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, u32),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(crate::ast::BinOp, Box<Expr>, Box<Expr>),
    Range {
        lo: Box<Expr>,
        hi: Box<Expr>,
        inclusive: bool,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Tuple(Vec<Expr>),
    /// A list, array or per-player array literal (see `ty`).
    List(Vec<Expr>),
    /// `[e; n]` as a list or array (see `ty`).
    Repeat(Box<Expr>, Box<Expr>),
    /// `[e; players]`
    PerPlayerFill(Box<Expr>),
    /// Stands for an expression that had an error.
    Error,
}

impl Expr {
    pub fn error(span: Span) -> Expr {
        Expr { kind: ExprKind::Error, ty: Ty::Error, span }
    }
}

impl ExprKind {
    /// The direct subexpressions.
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (one, many): (Vec<&Expr>, &[Expr]) = match self {
            ExprKind::Call(_, args) | ExprKind::Builtin(_, args) => (vec![], args),
            ExprKind::Tuple(xs) | ExprKind::List(xs) => (vec![], xs),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Repeat(a, b) => (vec![a, b], &[]),
            ExprKind::Field(a, _) | ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::PerPlayerFill(a) => (vec![a], &[]),
            ExprKind::Range { lo, hi, .. } => (vec![lo, hi], &[]),
            ExprKind::If(a, b, c) => (vec![a, b, c], &[]),
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Player(_)
            | ExprKind::Variant(..)
            | ExprKind::Param(_)
            | ExprKind::Var(_)
            | ExprKind::Local(_)
            | ExprKind::Players
            | ExprKind::Error => (vec![], &[]),
        };
        one.into_iter().chain(many.iter())
    }
}
