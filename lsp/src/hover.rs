//! What a hover shows: a name's declaration and type (a param's default,
//! a const's value), and at a `choose`, what the chooser knows there.

use galac_compiler::ast::{self, StmtKind};
use galac_compiler::span::Span;
use galac_compiler::typeck::tast;

use crate::analysis::Analysis;
use crate::index::{Symbol, SymbolKind};

/// Markdown for the symbol or `choose` at byte `offset`, with the span it
/// describes.
pub fn hover(a: &Analysis, offset: u32) -> Option<(String, Span)> {
    if let Some(id) = a.index.at(offset) {
        let s = &a.index.symbols[id];
        let span = a.index.occurrences(id).into_iter().find(|o| o.start <= offset && offset <= o.end)?;
        return Some((symbol(a, s), span));
    }
    let program = a.program.as_ref()?;
    chooser_knowledge(a, program, offset)
}

fn code(text: &str) -> String {
    format!("```gala\n{}\n```", text.trim().trim_end_matches(';'))
}

fn symbol(a: &Analysis, s: &Symbol) -> String {
    let typed = a.typed.as_ref();
    let head = || a.slice(s.head).trim().to_string();
    match s.kind {
        SymbolKind::Param | SymbolKind::Const => {
            let mut text = code(&head());
            let value = a.values.as_ref().and_then(|v| v.get(s.ordinal));
            let ty = typed.and_then(|t| t.params.get(s.ordinal)).map(|p| p.ty.to_string());
            if let (Some(v), Some(ty)) = (value, ty) {
                let what = if s.kind == SymbolKind::Const { "value" } else { "default" };
                text.push_str(&format!("\n\n{what}: `{v}` (`{ty}`)"));
            }
            text
        }
        SymbolKind::Player => {
            let n = typed.map_or(0, |t| t.players.len());
            format!("{}\n\nplayer {} of {n} in turn order", code(&format!("player {}", s.name)), s.ordinal + 1)
        }
        SymbolKind::Var | SymbolKind::Enum | SymbolKind::Fn | SymbolKind::Flow => code(&head()),
        SymbolKind::Variant => {
            let parent = s.parent.map(|p| a.index.symbols[p].name.clone()).unwrap_or_default();
            let fields = s
                .parent
                .and_then(|p| typed?.enums.get(a.index.symbols[p].ordinal)?.fields.get(s.ordinal).cloned())
                .unwrap_or_default();
            let fields = if fields.is_empty() {
                String::new()
            } else {
                format!("({})", fields.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
            };
            code(&format!("{parent}::{}{fields}", s.name))
        }
        SymbolKind::Argument | SymbolKind::Local => {
            let ty = local_type(a, s).map(|t| format!(": {t}")).unwrap_or_default();
            let word = if s.kind == SymbolKind::Local { "let" } else { "argument" };
            code(&format!("{word} {}{ty}", s.name))
        }
        SymbolKind::Fact => {
            let fact = typed.and_then(|t| t.facts.iter().find(|f| f.tag == s.name));
            let args = fact.map(|f| f.args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "));
            code(&format!("fact {}({})", s.name, args.unwrap_or_default()))
        }
    }
}

/// The type of a local: the typed body holding it has its locals in the
/// order they are declared, as the index met them; the k-th local of a
/// name in the index is the k-th of that name in the typed body.
fn local_type(a: &Analysis, s: &Symbol) -> Option<String> {
    let program = a.program.as_ref()?;
    let typed = a.typed.as_ref()?;
    let within = |span: Span| span.start <= s.def.start && s.def.end <= span.end;
    let (item_span, locals): (Span, &[tast::Local]) = program.items.iter().find_map(|item| match item {
        ast::Item::Fn(f) if within(f.span) => {
            Some((f.span, typed.fns.iter().find(|t| t.name == f.name.name)?.locals.as_slice()))
        }
        ast::Item::Flow(f) if within(f.span) => {
            let name = f.name.as_ref().map(|n| &n.name);
            Some((f.span, typed.flows.iter().find(|t| t.name.as_ref() == name)?.locals.as_slice()))
        }
        _ => None,
    })?;
    let k = a
        .index
        .symbols
        .iter()
        .filter(|o| matches!(o.kind, SymbolKind::Local | SymbolKind::Argument) && o.name == s.name)
        .filter(|o| item_span.start <= o.def.start && o.def.end <= item_span.end && o.def.start < s.def.start)
        .count();
    locals.iter().filter(|l| l.name == s.name).nth(k).map(|l| l.ty.to_string())
}

/// At a `choose`: the facts revealed to its chooser before it in its
/// flow or fn, in source order (to them or to all), and the chooser's own
/// earlier choices there; a player remembers both (perfect recall).
fn chooser_knowledge(a: &Analysis, program: &ast::Program, offset: u32) -> Option<(String, Span)> {
    let body = program.items.iter().find_map(|item| match item {
        ast::Item::Flow(f) if f.span.start <= offset && offset <= f.span.end => Some(&f.body),
        ast::Item::Fn(f) if f.span.start <= offset && offset <= f.span.end => Some(&f.body),
        _ => None,
    })?;
    let mut before = Vec::new();
    statements(body, &mut before);
    let at = before.iter().position(|s| s.span.start <= offset && offset < s.span.start + "choose".len() as u32)?;
    let StmtKind::Choose(choose) = &before[at].kind else { return None };
    let keyword = Span { end: before[at].span.start + "choose".len() as u32, ..before[at].span };
    let chooser = match &choose.chooser {
        ast::Chooser::Nature(_) => return Some(("nature's choice: no information set".to_string(), keyword)),
        ast::Chooser::Player(e) => a.slice(e.span).to_string(),
    };
    // A player named in `players` is known; `player`, `opponent` or an
    // expression may be anyone, so every reveal is listed with its target.
    let named = a.index.at(choose_span(choose).start).is_some_and(|id| a.index.symbols[id].kind == SymbolKind::Player);
    let mut known = Vec::new();
    for stmt in &before[..at] {
        match &stmt.kind {
            StmtKind::Reveal { to, .. } => {
                let target = match to {
                    ast::RevealTarget::All(_) => "all",
                    ast::RevealTarget::Player(e) => a.slice(e.span),
                };
                if !named || target == "all" || target == chooser {
                    known.push(format!("- `{}`", a.slice(stmt.span).trim_end_matches(';')));
                }
            }
            StmtKind::Choose(c) => {
                let by = match &c.chooser {
                    ast::Chooser::Player(e) => a.slice(e.span),
                    ast::Chooser::Nature(_) => continue,
                };
                if !named || by == chooser {
                    known.push(format!("- the choice `{}` of `{by}`", a.slice(c.pattern.span)));
                }
            }
            _ => {}
        }
    }
    let list = if known.is_empty() { "- nothing revealed yet".to_string() } else { known.join("\n") };
    let whose = if named {
        format!("revealed to `{chooser}` or to all")
    } else {
        format!("every reveal and choice: which reach `{chooser}` depends on who it is at the time")
    };
    let text = format!(
        "`{chooser}` chooses here. Earlier in this body, in source order ({whose}):\n\n{list}\n\n\
         A player knows what was revealed to them on the path the play took, and their own choices."
    );
    Some((text, keyword))
}

/// Where the chooser of a `choose` is written.
fn choose_span(choose: &ast::Choose) -> Span {
    match &choose.chooser {
        ast::Chooser::Nature(span) => *span,
        ast::Chooser::Player(e) => e.span,
    }
}

/// The statements of a block and of the blocks inside it, in source order.
fn statements<'p>(block: &'p ast::Block, out: &mut Vec<&'p ast::Stmt>) {
    for stmt in &block.stmts {
        out.push(stmt);
        match &stmt.kind {
            StmtKind::If { then_block, else_block, .. } => {
                statements(then_block, out);
                if let Some(b) = else_block {
                    statements(b, out);
                }
            }
            StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::Simultaneous(body)
            | StmtKind::TakeTurns { body, .. } => statements(body, out),
            StmtKind::Match { arms, .. } => arms.iter().for_each(|arm| statements(&arm.body, out)),
            _ => {}
        }
    }
}
