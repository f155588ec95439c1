//! Every name of a parsed program, where it is defined and where it is
//! used: what definitions, references, rename, hover and the outline read.
//!
//! Names are resolved on the AST with the language's scopes
//! (docs/language.md): a `let`, a `choose` or `for` pattern, a fn's or
//! flow's parameter or a `match` arm's field is visible from its statement
//! to the end of its block, the innermost first; then the game's players,
//! params, consts, state variables, enums, variants, fns and flows. A name
//! that resolves to nothing (an error the checker reports, or a builtin)
//! has no symbol. Fact tags (`reveal P moved(m)`) form their own namespace;
//! a tag's first `reveal` is its definition.

use std::collections::HashMap;

use galac_compiler::ast::{self, ExprKind, Item, StmtKind, TypeKind};
use galac_compiler::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Player,
    Param,
    Const,
    Enum,
    Variant,
    Var,
    Fn,
    Flow,
    /// A fn's or flow's parameter.
    Argument,
    Local,
    Fact,
}

impl SymbolKind {
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Player => "player",
            SymbolKind::Param => "param",
            SymbolKind::Const => "const",
            SymbolKind::Enum => "enum",
            SymbolKind::Variant => "variant",
            SymbolKind::Var => "var",
            SymbolKind::Fn => "fn",
            SymbolKind::Flow => "flow",
            SymbolKind::Argument => "argument",
            SymbolKind::Local => "let",
            SymbolKind::Fact => "fact",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The name where it is defined.
    pub def: Span,
    /// The whole declaration (the def itself for locals and facts).
    pub decl: Span,
    /// What a hover shows of the declaration: a fn's or flow's head
    /// (without its body), else the declaration.
    pub head: Span,
    /// A variant's enum.
    pub parent: Option<usize>,
    /// The index among its kind in the typed program: the n-th param or
    /// const, var, enum, fn, player; a variant's number in its enum.
    pub ordinal: usize,
}

/// The symbols of one file and every use of them.
#[derive(Default, Debug)]
pub struct Index {
    pub symbols: Vec<Symbol>,
    /// (the name used, its symbol), in source order.
    pub uses: Vec<(Span, usize)>,
}

impl Index {
    /// The symbol named at byte `offset` (on its definition or a use).
    pub fn at(&self, offset: u32) -> Option<usize> {
        let hit = |s: &Span| s.start <= offset && offset <= s.end;
        self.uses.iter().find(|(s, _)| hit(s)).map(|u| u.1).or_else(|| self.symbols.iter().position(|s| hit(&s.def)))
    }

    /// Every use of a symbol, its definition first.
    pub fn occurrences(&self, symbol: usize) -> Vec<Span> {
        let uses = self.uses.iter().filter(|u| u.1 == symbol).map(|u| u.0);
        std::iter::once(self.symbols[symbol].def).chain(uses).collect()
    }
}

/// Indexes a parsed program.
pub fn index(program: &ast::Program) -> Index {
    let mut r = Resolver::default();
    r.globals(program);
    for item in &program.items {
        r.item(item);
    }
    r.index.uses.sort_by_key(|u| u.0.start);
    r.index
}

#[derive(Default)]
struct Resolver {
    index: Index,
    globals: HashMap<String, usize>,
    enums: HashMap<String, usize>,
    facts: HashMap<String, usize>,
    /// Locals in scope, innermost last; `scopes` marks where each block's start.
    locals: Vec<(String, usize)>,
    scopes: Vec<usize>,
}

impl Resolver {
    fn define(&mut self, ident: &ast::Ident, kind: SymbolKind, decl: Span, ordinal: usize) -> usize {
        let symbol =
            Symbol { name: ident.name.clone(), kind, def: ident.span, decl, head: decl, parent: None, ordinal };
        self.index.symbols.push(symbol);
        self.index.symbols.len() - 1
    }

    fn global(&mut self, ident: &ast::Ident, kind: SymbolKind, decl: Span, ordinal: usize) -> usize {
        let id = self.define(ident, kind, decl, ordinal);
        self.globals.entry(ident.name.clone()).or_insert(id);
        id
    }

    fn globals(&mut self, program: &ast::Program) {
        let mut counts = [0usize; 5];
        let mut next = |k: usize| {
            counts[k] += 1;
            counts[k] - 1
        };
        for item in &program.items {
            match item {
                Item::Players(p) => {
                    for name in &p.names {
                        self.global(name, SymbolKind::Player, p.span, next(0));
                    }
                }
                Item::Param(p) => {
                    let kind = if p.constant { SymbolKind::Const } else { SymbolKind::Param };
                    self.global(&p.name, kind, p.span, next(1));
                }
                Item::Enum(e) => {
                    let id = self.define(&e.name, SymbolKind::Enum, e.span, next(2));
                    self.enums.entry(e.name.name.clone()).or_insert(id);
                    for (n, v) in e.variants.iter().enumerate() {
                        let vid = self.global(&v.name, SymbolKind::Variant, e.span, n);
                        self.index.symbols[vid].parent = Some(id);
                    }
                }
                Item::Var(v) => {
                    self.global(&v.name, SymbolKind::Var, v.span, next(3));
                }
                Item::Fn(f) => {
                    let id = self.global(&f.name, SymbolKind::Fn, f.span, next(4));
                    self.index.symbols[id].head = Span { end: f.body.span.start, ..f.span };
                }
                Item::Flow(f) => {
                    if let Some(name) = &f.name {
                        let id = self.global(name, SymbolKind::Flow, f.span, 0);
                        self.index.symbols[id].head = Span { end: f.body.span.start, ..f.span };
                    }
                }
                Item::Error(_) => {}
            }
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Param(p) => {
                if let Some(ty) = &p.ty {
                    self.ty(ty);
                }
                if p.text.is_none() {
                    self.expr(&p.default);
                }
                if let Some(check) = &p.check {
                    self.expr(check);
                }
            }
            Item::Enum(e) => e.variants.iter().flat_map(|v| &v.fields).for_each(|t| self.ty(t)),
            Item::Var(v) => {
                self.ty(&v.ty);
                self.expr(&v.init);
            }
            Item::Fn(f) => {
                self.ty(&f.ret);
                self.body(&f.params, &f.body);
            }
            Item::Flow(f) => self.body(&f.params, &f.body),
            Item::Players(_) | Item::Error(_) => {}
        }
    }

    fn body(&mut self, params: &[ast::ParamBinding], body: &ast::Block) {
        self.scopes.push(self.locals.len());
        for p in params {
            self.ty(&p.ty);
            self.local(&p.name, SymbolKind::Argument);
        }
        self.block(body);
        self.pop_scope();
    }

    fn local(&mut self, ident: &ast::Ident, kind: SymbolKind) {
        let id = self.define(ident, kind, ident.span, 0);
        self.locals.push((ident.name.clone(), id));
    }

    fn pop_scope(&mut self) {
        let start = self.scopes.pop().unwrap_or(0);
        self.locals.truncate(start);
    }

    fn block(&mut self, block: &ast::Block) {
        self.scopes.push(self.locals.len());
        for stmt in &block.stmts {
            self.stmt(stmt);
        }
        self.pop_scope();
    }

    fn pattern(&mut self, pattern: &ast::Pattern) {
        match &pattern.kind {
            ast::PatternKind::Bind(name) => self.local(name, SymbolKind::Local),
            ast::PatternKind::Tuple(ps) => ps.iter().for_each(|p| self.pattern(p)),
            ast::PatternKind::Wildcard | ast::PatternKind::TooDeep => {}
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt) {
        match &stmt.kind {
            StmtKind::Let { name, ty, value } => {
                if let Some(ty) = ty {
                    self.ty(ty);
                }
                self.expr(value);
                self.local(name, SymbolKind::Local);
            }
            StmtKind::Assign { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            StmtKind::Choose(c) => {
                if let ast::Chooser::Player(e) = &c.chooser {
                    self.expr(e);
                }
                match &c.domain {
                    ast::ChooseDomain::Expr(e) => self.expr(e),
                    ast::ChooseDomain::Table(entries, _) => entries.iter().for_each(|(e, _)| self.expr(e)),
                }
                self.pattern(&c.pattern);
                c.filter.iter().chain(&c.weight).for_each(|e| self.expr(e));
            }
            StmtKind::Reveal { to, tag, args } => {
                if let ast::RevealTarget::Player(e) = to {
                    self.expr(e);
                }
                match args {
                    Some(args) => {
                        self.fact(tag);
                        args.iter().for_each(|e| self.expr(e));
                    }
                    None => self.name(tag),
                }
            }
            StmtKind::Payoff { player, amount, .. } => {
                self.expr(player);
                self.expr(amount);
            }
            StmtKind::Outcome(e) | StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::If { cond, then_block, else_block } => {
                self.expr(cond);
                self.block(then_block);
                if let Some(b) = else_block {
                    self.block(b);
                }
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Repeat { body, cond } => {
                self.block(body);
                self.expr(cond);
            }
            StmtKind::For { pattern, domain, body } => {
                self.expr(domain);
                self.scopes.push(self.locals.len());
                self.pattern(pattern);
                self.block(body);
                self.pop_scope();
            }
            StmtKind::Simultaneous(body) => self.block(body),
            StmtKind::TakeTurns { start, body, unless, until } => {
                self.expr(start);
                self.block(body);
                unless.iter().chain(until).for_each(|e| self.expr(e));
            }
            StmtKind::Match { scrutinee, arms } => {
                self.expr(scrutinee);
                for arm in arms {
                    self.variant(arm.pattern.variant.0.as_ref(), &arm.pattern.variant.1);
                    self.scopes.push(self.locals.len());
                    for f in arm.pattern.fields.iter().flatten() {
                        self.local(f, SymbolKind::Local);
                    }
                    self.block(&arm.body);
                    self.pop_scope();
                }
            }
            StmtKind::Return(None) | StmtKind::End | StmtKind::TooDeep | StmtKind::Error => {}
        }
    }

    fn fact(&mut self, tag: &ast::Ident) {
        match self.facts.get(&tag.name) {
            Some(&id) => self.index.uses.push((tag.span, id)),
            None => {
                let id = self.define(tag, SymbolKind::Fact, tag.span, 0);
                self.facts.insert(tag.name.clone(), id);
            }
        }
    }

    /// A use of a name in an expression.
    fn name(&mut self, ident: &ast::Ident) {
        let local = self.locals.iter().rev().find(|(n, _)| *n == ident.name).map(|l| l.1);
        if let Some(id) = local.or_else(|| self.globals.get(&ident.name).copied()) {
            self.index.uses.push((ident.span, id));
        }
    }

    /// `Variant` or `Enum::Variant` (`_` is no name).
    fn variant(&mut self, enum_name: Option<&ast::Ident>, variant: &ast::Ident) {
        let owner = enum_name.and_then(|e| self.enums.get(&e.name).copied());
        if let (Some(e), Some(id)) = (enum_name, owner) {
            self.index.uses.push((e.span, id));
        }
        let found = self.index.symbols.iter().position(|s| {
            s.kind == SymbolKind::Variant && s.name == variant.name && (owner.is_none() || s.parent == owner)
        });
        if let Some(id) = found {
            self.index.uses.push((variant.span, id));
        }
    }

    fn ty(&mut self, ty: &ast::Type) {
        match &ty.kind {
            TypeKind::Named(name) => {
                if let Some(&id) = self.enums.get(&name.name) {
                    self.index.uses.push((name.span, id));
                }
            }
            TypeKind::Tuple(ts) => ts.iter().for_each(|t| self.ty(t)),
            TypeKind::Array(t, n) => {
                self.ty(t);
                self.expr(n);
            }
            TypeKind::PerPlayer(t) | TypeKind::List(t) => self.ty(t),
            TypeKind::Int | TypeKind::Bool | TypeKind::Player | TypeKind::TooDeep => {}
        }
    }

    fn expr(&mut self, e: &ast::Expr) {
        match &e.kind {
            ExprKind::Name(name) => {
                // An enum named as a domain (`choose p m in Move`).
                match self.enums.get(&name.name) {
                    Some(&id) if !self.locals.iter().any(|l| l.0 == name.name) => self.index.uses.push((name.span, id)),
                    _ => self.name(name),
                }
            }
            ExprKind::Path(enum_name, variant) => self.variant(Some(enum_name), variant),
            ExprKind::Call(f, _) => self.name(f),
            _ => {}
        }
        for child in e.kind.children() {
            self.expr(child);
        }
    }
}
