//! The answers to LSP requests, and diagnostics turned into LSP's.

use std::collections::HashMap;

use galac_compiler::diagnostic::Severity;
use lsp_server::{ErrorCode, Request, Response};
use lsp_types::request::{
    DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References, Rename, Request as _,
};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, Hover, HoverContents, Location, MarkupContent,
    MarkupKind, NumberOrString, TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::Value;

use crate::analysis::{Analysis, FILE};
use crate::index::SymbolKind;

/// The open documents by URI, each with its analysis.
pub(crate) type Documents = HashMap<String, (Uri, Analysis)>;

/// The analysis of the open document `uri`.
fn document<'a>(docs: &'a Documents, uri: &Uri) -> Option<&'a Analysis> {
    docs.get(uri.as_str()).map(|d| &d.1)
}

/// Answers one request: a result, `null` when there is nothing to say, or
/// an error for a request this server does not know or cannot read.
pub(crate) fn handle(docs: &Documents, request: Request) -> Response {
    let id = request.id.clone();
    match answer(docs, request) {
        Ok(value) => Response::new_ok(id, value),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}

type Answer = Result<Value, (ErrorCode, String)>;

fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn json(value: impl serde::Serialize) -> Answer {
    serde_json::to_value(value).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn answer(docs: &Documents, request: Request) -> Answer {
    let at = |p: &TextDocumentPositionParams| {
        let a = document(docs, &p.text_document.uri)?;
        Some((a, a.offset(p.position) as u32))
    };
    match request.method.as_str() {
        HoverRequest::METHOD => {
            let p: lsp_types::HoverParams = params(request)?;
            let Some((a, offset)) = at(&p.text_document_position_params) else { return Ok(Value::Null) };
            let hover = crate::hover::hover(a, offset).map(|(text, span)| Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
                range: Some(a.range(span)),
            });
            json(hover)
        }
        GotoDefinition::METHOD => {
            let p: lsp_types::GotoDefinitionParams = params(request)?;
            let uri = p.text_document_position_params.text_document.uri.clone();
            let Some((a, offset)) = at(&p.text_document_position_params) else { return Ok(Value::Null) };
            let def = a.index.at(offset).map(|id| Location { uri, range: a.range(a.index.symbols[id].def) });
            json(def)
        }
        References::METHOD => {
            let p: lsp_types::ReferenceParams = params(request)?;
            let uri = p.text_document_position.text_document.uri.clone();
            let Some((a, offset)) = at(&p.text_document_position) else { return Ok(Value::Null) };
            let Some(id) = a.index.at(offset) else { return Ok(Value::Null) };
            let skip = usize::from(!p.context.include_declaration);
            let spans = a.index.occurrences(id).into_iter().skip(skip);
            json(spans.map(|s| Location { uri: uri.clone(), range: a.range(s) }).collect::<Vec<_>>())
        }
        DocumentSymbolRequest::METHOD => {
            let p: lsp_types::DocumentSymbolParams = params(request)?;
            let Some(a) = document(docs, &p.text_document.uri) else { return Ok(Value::Null) };
            json(symbols(a))
        }
        Formatting::METHOD => {
            let p: lsp_types::DocumentFormattingParams = params(request)?;
            let Some(a) = document(docs, &p.text_document.uri) else { return Ok(Value::Null) };
            // A file that does not parse is left as it is (its errors are shown).
            match galac_compiler::format::format(FILE, &a.text) {
                Ok(text) if text != a.text => json(vec![TextEdit { range: a.full_range(), new_text: text }]),
                _ => json(Vec::<TextEdit>::new()),
            }
        }
        Rename::METHOD => {
            let p: lsp_types::RenameParams = params(request)?;
            let uri = p.text_document_position.text_document.uri.clone();
            let Some((a, offset)) = at(&p.text_document_position) else { return Ok(Value::Null) };
            rename(a, uri, offset, &p.new_name)
        }
        method => Err((ErrorCode::MethodNotFound, format!("galac lsp does not answer `{method}`"))),
    }
}

fn rename(a: &Analysis, uri: Uri, offset: u32, new_name: &str) -> Answer {
    let Some(id) = a.index.at(offset) else {
        return Err((ErrorCode::RequestFailed, "no name to rename here".to_string()));
    };
    if !is_name(new_name) {
        return Err((ErrorCode::RequestFailed, format!("`{new_name}` is not a name")));
    }
    let edits =
        a.index.occurrences(id).into_iter().map(|s| TextEdit { range: a.range(s), new_text: new_name.to_string() });
    json(WorkspaceEdit { changes: Some(HashMap::from([(uri, edits.collect())])), ..WorkspaceEdit::default() })
}

/// An identifier that lexes as one (not a keyword nor a card).
fn is_name(text: &str) -> bool {
    use galac_compiler::lexer::{Lexer, Token};
    let mut tokens = Lexer::new(FILE, text);
    let first = tokens.next().and_then(Result::ok);
    matches!(first, Some((0, Token::Ident(_), end)) if end == text.len()) && tokens.next().is_none()
}

/// The outline: players, params, consts, enums with their variants, state
/// variables, fns and flows.
fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    use lsp_types::SymbolKind as K;
    let kind = |k: SymbolKind| match k {
        SymbolKind::Player => K::OBJECT,
        SymbolKind::Param => K::PROPERTY,
        SymbolKind::Const => K::CONSTANT,
        SymbolKind::Enum => K::ENUM,
        SymbolKind::Variant => K::ENUM_MEMBER,
        SymbolKind::Var => K::VARIABLE,
        SymbolKind::Fn => K::FUNCTION,
        SymbolKind::Flow => K::METHOD,
        SymbolKind::Argument | SymbolKind::Local | SymbolKind::Fact => K::VARIABLE,
    };
    #[allow(deprecated)] // `deprecated` is a required field of the struct.
    let symbol = |id: usize, children: Option<Vec<DocumentSymbol>>| {
        let s = &a.index.symbols[id];
        DocumentSymbol {
            name: s.name.clone(),
            detail: Some(s.kind.word().to_string()),
            kind: kind(s.kind),
            tags: None,
            deprecated: None,
            range: a.range(s.decl),
            selection_range: a.range(s.def),
            children,
        }
    };
    let top =
        |k: SymbolKind| !matches!(k, SymbolKind::Variant | SymbolKind::Argument | SymbolKind::Local | SymbolKind::Fact);
    (0..a.index.symbols.len())
        .filter(|&id| top(a.index.symbols[id].kind))
        .map(|id| {
            let children = (a.index.symbols[id].kind == SymbolKind::Enum).then(|| {
                let variants = (0..a.index.symbols.len()).filter(|&v| a.index.symbols[v].parent == Some(id));
                variants.map(|v| symbol(v, None)).collect()
            });
            symbol(id, children)
        })
        .collect()
}

/// `galac check`'s diagnostics as LSP's: the primary label's range, the
/// message with its notes and help, the warning's code, the other labels
/// as related information.
pub(crate) fn diagnostics(uri: &Uri, a: &Analysis) -> Vec<lsp_types::Diagnostic> {
    a.diagnostics
        .iter()
        .map(|d| {
            let primary = d.primary_span().unwrap_or_default();
            let mut message = d.message.clone();
            if let Some(label) = d.labels.iter().find(|l| l.primary && !l.message.is_empty()) {
                message.push_str(&format!(": {}", label.message));
            }
            for note in &d.notes {
                message.push_str(&format!("\nnote: {note}"));
            }
            if let Some(help) = &d.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            let related: Vec<DiagnosticRelatedInformation> = d
                .labels
                .iter()
                .filter(|l| !l.primary)
                .map(|l| DiagnosticRelatedInformation {
                    location: Location { uri: uri.clone(), range: a.range(l.span) },
                    message: l.message.clone(),
                })
                .collect();
            lsp_types::Diagnostic {
                range: a.range(primary),
                severity: Some(match d.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                code: d.code.map(|c| NumberOrString::String(c.to_string())),
                source: Some("galac".to_string()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..lsp_types::Diagnostic::default()
            }
        })
        .collect()
}
