//! Statements that bend the scope rules: `take_turns` binds `player`; the
//! `until` of a loop sees the body's locals; `simultaneous { ... }` hides
//! each choice from the others; `reveal P name;` reads `name` as a value.

use super::checker::Checker;
use super::env::Global;
use super::tast::{self, StmtKind};
use super::types::Ty;
use crate::ast;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

impl Checker {
    /// `simultaneous { choose ...; ... }`: players' choices only, each
    /// checked while the names chosen before it in the block are hidden, so
    /// that no choice (its chooser, domain or filter) reads another's value.
    /// The names are bound for the rest of the enclosing block afterwards.
    pub(super) fn check_simultaneous(&mut self, body: &ast::Block, span: Span) -> StmtKind {
        let mut chosen: Vec<(String, tast::LocalId)> = Vec::new();
        let mut stmts = Vec::new();
        let mut players: Vec<(String, Span)> = Vec::new();
        for s in &body.stmts {
            let ast::StmtKind::Choose(c) = &s.kind else {
                if !matches!(s.kind, ast::StmtKind::Error) {
                    self.error(
                        Diagnostic::error("a simultaneous move holds only players' `choose` statements")
                            .primary(s.span, "not a `choose`")
                            .help("do the rest before or after the `simultaneous` block"),
                    );
                }
                continue;
            };
            let chooser = match &c.chooser {
                ast::Chooser::Player(e) => e,
                ast::Chooser::Nature(at) => {
                    self.error(
                        Diagnostic::error("nature in a simultaneous move")
                            .primary(*at, "nature's choice")
                            .help("chance moves are hidden anyway: make this choice before or after the block"),
                    );
                    continue;
                }
            };
            if let ast::ExprKind::Name(who) = &chooser.kind {
                if let Some((_, first)) = players.iter().find(|(n, _)| *n == who.name) {
                    self.error(
                        Diagnostic::error(format!("`{}` chooses twice in one simultaneous move", who.name))
                            .primary(chooser.span, "second choice")
                            .secondary(*first, "first choice"),
                    );
                }
                players.push((who.name.clone(), chooser.span));
            }
            let before = self.body.scope_len();
            let kind = self.check_choose(c);
            stmts.push(tast::Stmt { kind, span: s.span });
            let names = self.body.take_since(before);
            self.body.hidden.extend(names.iter().map(|(n, _)| n.clone()));
            chosen.extend(names);
        }
        if stmts.len() < 2 && stmts.len() == body.stmts.len() {
            self.error(
                Diagnostic::error("a simultaneous move needs two or more choices")
                    .primary(span, "one choice")
                    .help("a single choice needs no `simultaneous` block"),
            );
        }
        self.body.hidden.clear();
        self.body.restore(chosen);
        StmtKind::Simultaneous(tast::Block { stmts })
    }

    /// `reveal P name;` reveals the value of `name` as the fact `name(name)`;
    /// a bare name that is not a value is most likely a fact meant to have no
    /// arguments, so say how to write that.
    pub(super) fn check_revealed_name(&mut self, name: &ast::Ident) -> Option<tast::Expr> {
        let is_value = self.body.lookup(&name.name).is_some()
            || matches!(
                self.env.globals.get(&name.name),
                Some((Global::Param(_) | Global::Var(_) | Global::Player(_), _))
            );
        if !is_value {
            self.error(
                Diagnostic::error(format!("`reveal` of `{}`, which is not a value", name.name))
                    .primary(name.span, "no variable, param or player has this name")
                    .help(format!(
                        "`reveal P x;` reveals the value of `x`; to reveal a fact with no arguments write `{}()`",
                        name.name
                    )),
            );
            return None;
        }
        let expr = ast::Expr::new(ast::ExprKind::Name(name.clone()), name.span);
        Some(self.check_expr(&expr, None))
    }

    /// Checks a loop body and then its `until` condition in the body's
    /// scope: the condition is tested right after the body, so it sees the
    /// body's locals.
    pub(super) fn check_body_then_until(
        &mut self,
        b: &ast::Block,
        until: Option<&ast::Expr>,
    ) -> (tast::Block, Option<tast::Expr>) {
        self.body.push_scope();
        let stmts = b.stmts.iter().filter_map(|s| self.check_stmt(s)).collect();
        let until = until.map(|c| self.check_bool(c));
        self.body.pop_scope();
        (tast::Block { stmts }, until)
    }

    /// `take_turns(START) { BODY } unless C1 until C2;`: `player` is bound
    /// in the body and both conditions; `C1` runs before the body's locals.
    pub(super) fn check_take_turns(
        &mut self,
        span: Span,
        start: &ast::Expr,
        body: &ast::Block,
        unless: Option<&ast::Expr>,
        until: Option<&ast::Expr>,
    ) -> Option<StmtKind> {
        if !self.flow_only(span, "take_turns") {
            return None;
        }
        let start = self.check_player(start, "the first player of take_turns");
        self.body.push_scope();
        let current = self.body.declare("player", Ty::Player, false, None);
        self.body.turns.push(current);
        let unless = unless.map(|c| self.check_bool(c));
        let (body, until) = self.check_body_then_until(body, until);
        self.body.turns.pop();
        self.body.pop_scope();
        Some(StmtKind::TakeTurns { start, current, body, unless, until })
    }
}
