//! The untyped abstract syntax tree, as the parser builds it.
//!
//! Every node carries the [`Span`] of the source it came from. Nesting is
//! bounded: the parser replaces any expression, type or block nested deeper
//! than [`MAX_DEPTH`] by an `Error`-like node and the checker reports it, so no
//! later recursive pass can overflow the stack on hostile input.

use crate::span::Span;

/// Deepest nesting of expressions, types, patterns or blocks that galac accepts.
pub const MAX_DEPTH: u32 = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: Ident,
    pub items: Vec<Item>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Item {
    Players(PlayersDecl),
    Param(ParamDecl),
    Enum(EnumDecl),
    Var(VarDecl),
    Fn(FnDecl),
    Flow(FlowDecl),
    /// A declaration the parser could not read; already reported.
    Error(Span),
}

#[derive(Clone, Debug)]
pub struct PlayersDecl {
    pub names: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub name: Ident,
    /// Always given for a `param`; a `const` may leave it to its value.
    pub ty: Option<Type>,
    pub default: Expr,
    /// A default written as text in the notation `--param` reads
    /// (`param board: list<card> = "Td9d6hQc";`); `default` then stands
    /// at the text's span and is not read.
    pub text: Option<String>,
    /// `const NAME = expr;`: a param that cannot be overridden.
    pub constant: bool,
    /// `param NAME: T = default where COND;`: a condition every value
    /// of the param must meet (it sees the params up to this one).
    pub check: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: Ident,
    pub variants: Vec<VariantDecl>,
    pub span: Span,
}

/// One alternative of an enum: `Liar`, or `Bid(int, int)` with fields.
#[derive(Clone, Debug)]
pub struct VariantDecl {
    pub name: Ident,
    pub fields: Vec<Type>,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: Type,
    pub init: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: Ident,
    pub params: Vec<ParamBinding>,
    pub ret: Type,
    pub body: Block,
    pub span: Span,
}

/// A defined gameflow; `name` is `None` for the main flow.
#[derive(Clone, Debug)]
pub struct FlowDecl {
    pub name: Option<Ident>,
    pub params: Vec<ParamBinding>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ParamBinding {
    pub name: Ident,
    pub ty: Type,
}

#[derive(Clone, Debug)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    Int,
    Bool,
    Player,
    /// A named type: `card` or an enum.
    Named(Ident),
    Tuple(Vec<Type>),
    /// `[T; n]`
    Array(Box<Type>, Box<Expr>),
    /// `[player]T`
    PerPlayer(Box<Type>),
    /// `list<T>`
    List(Box<Type>),
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
    pub depth: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
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
        name: Ident,
        ty: Option<Type>,
        value: Expr,
    },
    Assign {
        target: Expr,
        op: AssignOp,
        value: Expr,
    },
    Choose(Box<Choose>),
    /// `reveal P tag(args);`, or `reveal P name;` (`args` is `None`), which
    /// reveals the value of `name` as the fact `name(name)`.
    Reveal {
        to: RevealTarget,
        tag: Ident,
        args: Option<Vec<Expr>>,
    },
    Payoff {
        player: Expr,
        op: AssignOp,
        amount: Expr,
    },
    Outcome(Expr),
    End,
    If {
        cond: Expr,
        then_block: Block,
        else_block: Option<Block>,
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
        domain: Expr,
        body: Block,
    },
    /// `simultaneous { choose a x in D; choose b y in E; }`: players' choices
    /// made at once (none sees the others').
    Simultaneous(Block),
    TakeTurns {
        start: Expr,
        body: Block,
        unless: Option<Expr>,
        until: Option<Expr>,
    },
    /// `match value { Bid(q, f) => { ... } Liar => { ... } }`: runs the
    /// arm of the value's variant, its fields bound to the arm's names.
    Match {
        scrutinee: Expr,
        arms: Vec<MatchArm>,
    },
    /// An expression used as a statement: must be a call of a defined flow.
    Expr(Expr),
    Return(Option<Expr>),
    /// A block the parser nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A statement the parser could not read; already reported.
    Error,
}

/// One arm of a `match`.
#[derive(Clone, Debug)]
pub struct MatchArm {
    pub pattern: ArmPattern,
    pub body: Block,
    pub span: Span,
}

/// `Variant`, `Enum::Variant`, `Variant(a, b)` or `_` (a variant named `_`).
#[derive(Clone, Debug)]
pub struct ArmPattern {
    pub variant: (Option<Ident>, Ident),
    /// The names bound to the fields, when written with parentheses.
    pub fields: Option<Vec<Ident>>,
}

#[derive(Clone, Debug)]
pub struct Choose {
    pub chooser: Chooser,
    pub pattern: Pattern,
    pub domain: ChooseDomain,
    pub filter: Option<Expr>,
    pub weight: Option<Expr>,
}

#[derive(Clone, Debug)]
pub enum Chooser {
    Nature(Span),
    Player(Expr),
}

#[derive(Clone, Debug)]
pub enum ChooseDomain {
    Expr(Expr),
    /// `{ e1: p1, e2: p2 }` with exact probabilities.
    Table(Vec<(Expr, Prob)>, Span),
}

/// A probability literal `n` or `n/d`.
#[derive(Clone, Copy, Debug)]
pub struct Prob {
    pub num: i64,
    pub den: i64,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum RevealTarget {
    All(Span),
    Player(Expr),
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub kind: PatternKind,
    pub span: Span,
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub enum PatternKind {
    Bind(Ident),
    Wildcard,
    Tuple(Vec<Pattern>),
    TooDeep,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    /// A card literal `Qc`: rank (0 = two .. 12 = ace) and suit (0 to 3 for `s h d c`).
    Card(u8, u8),
    Bool(bool),
    Name(Ident),
    /// `Enum::Variant`
    Path(Ident, Ident),
    /// `players`
    Players,
    /// `player` inside take_turns
    CurrentPlayer,
    /// `opponent` inside take_turns
    Opponent,
    /// `bool` used as a domain
    BoolDomain,
    Call(Ident, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, u32),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Range {
        lo: Box<Expr>,
        hi: Box<Expr>,
        inclusive: bool,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    /// `[e; n]`, or `[e; players]` when the count is [`ExprKind::Players`].
    Repeat(Box<Expr>, Box<Expr>),
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl Expr {
    /// Builds a node, computing its depth from its children and cutting it off
    /// at [`MAX_DEPTH`].
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let depth = 1 + kind.children().map(|c| c.depth).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            // The cut-off node keeps the maximal depth so that every enclosing
            // node is cut off too and only one error is reported.
            return Expr { kind: ExprKind::TooDeep, span, depth: MAX_DEPTH };
        }
        Expr { kind, span, depth }
    }
}

impl ExprKind {
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (one, many): (Vec<&Expr>, &[Expr]) = match self {
            ExprKind::Call(_, args) => (vec![], args),
            ExprKind::Index(a, b) => (vec![a, b], &[]),
            ExprKind::Field(a, _) | ExprKind::Unary(_, a) => (vec![a], &[]),
            ExprKind::Binary(_, a, b) | ExprKind::Repeat(a, b) => (vec![a, b], &[]),
            ExprKind::Range { lo, hi, .. } => (vec![lo, hi], &[]),
            ExprKind::If(a, b, c) => (vec![a, b, c], &[]),
            ExprKind::Tuple(xs) | ExprKind::List(xs) => (vec![], xs),
            _ => (vec![], &[]),
        };
        one.into_iter().chain(many.iter())
    }
}

impl Type {
    pub fn new(kind: TypeKind, span: Span) -> Type {
        let depth = 1 + match &kind {
            TypeKind::Tuple(ts) => ts.iter().map(|t| t.depth).max().unwrap_or(0),
            TypeKind::Array(t, n) => t.depth.max(n.depth),
            TypeKind::PerPlayer(t) | TypeKind::List(t) => t.depth,
            _ => 0,
        };
        if depth > MAX_DEPTH {
            return Type { kind: TypeKind::TooDeep, span, depth: MAX_DEPTH };
        }
        Type { kind, span, depth }
    }
}

impl Pattern {
    pub fn new(kind: PatternKind, span: Span) -> Pattern {
        let depth = 1 + match &kind {
            PatternKind::Tuple(ps) => ps.iter().map(|p| p.depth).max().unwrap_or(0),
            _ => 0,
        };
        if depth > MAX_DEPTH {
            return Pattern { kind: PatternKind::TooDeep, span, depth: MAX_DEPTH };
        }
        Pattern { kind, span, depth }
    }
}

impl Block {
    /// Builds a block; a block nested deeper than [`MAX_DEPTH`] is replaced by
    /// one `TooDeep` statement.
    pub fn new(stmts: Vec<Stmt>, span: Span) -> Block {
        let depth = 1 + stmts.iter().map(Stmt::depth).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            let stmt = Stmt { kind: StmtKind::TooDeep, span };
            return Block { stmts: vec![stmt], span, depth: MAX_DEPTH };
        }
        Block { stmts, span, depth }
    }
}

impl Stmt {
    /// Nesting depth of blocks inside this statement.
    fn depth(&self) -> u32 {
        match &self.kind {
            StmtKind::If { then_block, else_block, .. } => {
                then_block.depth.max(else_block.as_ref().map_or(0, |b| b.depth))
            }
            StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::TakeTurns { body, .. }
            | StmtKind::Simultaneous(body) => body.depth,
            StmtKind::Match { arms, .. } => arms.iter().map(|a| a.body.depth).max().unwrap_or(0),
            StmtKind::TooDeep => MAX_DEPTH,
            _ => 0,
        }
    }
}

/// A binary-operator node (used by the grammar).
pub fn bin(file: crate::span::FileId, l: usize, r: usize, op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), Span::new(file, l, r))
}
