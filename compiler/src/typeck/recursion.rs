//! Flows may not call themselves, directly or through other flows: a game's
//! flows are expanded in place when it is lowered, so recursion would never
//! end. Loops (`while`, `repeat`, `take_turns`) express repetition instead.

use super::tast::{Block, Flow, FlowId, StmtKind};
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// Reports every cycle of flow calls once, at a call that closes it.
pub fn check_flow_recursion(flows: &[Flow]) -> Vec<Diagnostic> {
    let calls: Vec<Vec<(FlowId, Span)>> = flows
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            collect_calls(&f.body, &mut out);
            out
        })
        .collect();
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut state = vec![0u8; flows.len()];
    let mut path: Vec<usize> = Vec::new();
    let mut problems = Vec::new();
    for start in 0..flows.len() {
        visit(start, &calls, flows, &mut state, &mut path, &mut problems);
    }
    problems
}

fn visit(
    f: usize,
    calls: &[Vec<(FlowId, Span)>],
    flows: &[Flow],
    state: &mut [u8],
    path: &mut Vec<usize>,
    problems: &mut Vec<Diagnostic>,
) {
    if state[f] != 0 {
        return;
    }
    state[f] = 1;
    path.push(f);
    for (callee, span) in &calls[f] {
        let c = callee.0 as usize;
        if c >= flows.len() {
            continue;
        }
        match state[c] {
            1 => {
                let name = |i: usize| flows[i].name.clone().unwrap_or_else(|| "main".into());
                let from = path.iter().position(|x| *x == c).unwrap_or(0);
                let cycle: Vec<String> = path[from..].iter().map(|i| format!("`{}`", name(*i))).collect();
                let message = if cycle.len() == 1 {
                    format!("flow `{}` calls itself", name(c))
                } else {
                    format!("flows {} call each other in a cycle", cycle.join(" → "))
                };
                problems.push(
                    Diagnostic::error(message)
                        .primary(*span, "this call starts the flow again")
                        .help("flows are expanded in place; repeat with `while`, `repeat` or `take_turns`"),
                );
            }
            0 => visit(c, calls, flows, state, path, problems),
            _ => {}
        }
    }
    path.pop();
    state[f] = 2;
}

fn collect_calls(b: &Block, out: &mut Vec<(FlowId, Span)>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::CallFlow { flow, .. } => out.push((*flow, s.span)),
            StmtKind::If { then_block, else_block, .. } => {
                collect_calls(then_block, out);
                collect_calls(else_block, out);
            }
            StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::TakeTurns { body, .. } => collect_calls(body, out),
            _ => {}
        }
    }
}
