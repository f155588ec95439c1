//! Parsing: tokens to the AST, with error recovery at statement boundaries.
//!
//! [`parse`] never fails as a whole: it returns whatever program it could
//! build (if any) and every lexical and syntax error it met.

use lalrpop_util::{ErrorRecovery, ParseError};

use crate::ast::Program;
use crate::diagnostic::Diagnostic;
use crate::grammar::grammar::ProgramParser;
use crate::lexer::{LexErrorKind, Lexer, Token};
use crate::span::{FileId, Span};

type LalrpopError<'src> = ParseError<usize, Token<'src>, std::convert::Infallible>;

/// Parses one source file.
pub fn parse(file: FileId, src: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let mut lexer = Lexer::new(file, src);
    let mut recovered: Vec<ErrorRecovery<usize, Token<'_>, std::convert::Infallible>> = Vec::new();
    let result = ProgramParser::new().parse(file, &mut recovered, &mut lexer);

    let mut diagnostics: Vec<Diagnostic> = lexer.errors.iter().map(lex_diagnostic).collect();
    // Syntax errors caused by a bad token the lexer already reported are noise.
    let lex_spans: Vec<Span> = lexer.errors.iter().map(|e| e.span).collect();
    let mut push = |d: Diagnostic| {
        let dup = d.primary_span().is_some_and(|s| {
            lex_spans.iter().any(|l| l.start <= s.start && s.start <= l.end.max(l.start + 1))
        });
        if !dup {
            diagnostics.push(d);
        }
    };
    for r in &recovered {
        push(syntax_diagnostic(file, src, &r.error));
    }
    let program = match result {
        Ok(p) => Some(p),
        Err(e) => {
            push(syntax_diagnostic(file, src, &e));
            None
        }
    };
    diagnostics.sort_by_key(|d| d.primary_span());
    (program, diagnostics)
}

fn lex_diagnostic(e: &crate::lexer::LexError) -> Diagnostic {
    match e.kind {
        LexErrorKind::UnexpectedChar => Diagnostic::error("unexpected character")
            .primary(e.span, "not part of the Gala language")
            .help("names are letters, digits and `_`; comments start with `//`"),
        LexErrorKind::IntTooLarge => Diagnostic::error("integer literal too large")
            .primary(e.span, "does not fit in a 64-bit signed integer"),
        LexErrorKind::UnterminatedComment => Diagnostic::error("unterminated block comment")
            .primary(Span { end: e.span.start + 2, ..e.span }, "this comment is never closed")
            .help("close it with `*/`"),
    }
}

fn syntax_diagnostic(file: FileId, src: &str, e: &LalrpopError<'_>) -> Diagnostic {
    match e {
        ParseError::UnrecognizedEof { location, expected } => {
            let at = (*location).min(src.len());
            let start = src[..at].trim_end().len();
            let span = Span::new(file, start, start);
            Diagnostic::error("unexpected end of file")
                .primary(span, format!("expected {}", describe_expected(expected)))
        }
        ParseError::UnrecognizedToken { token: (l, tok, r), expected } => {
            Diagnostic::error(format!("unexpected {tok}"))
                .primary(Span::new(file, *l, *r), format!("expected {}", describe_expected(expected)))
                .with_help(keyword_help(tok))
        }
        ParseError::ExtraToken { token: (l, tok, r) } => {
            Diagnostic::error(format!("unexpected {tok} after the end of the game"))
                .primary(Span::new(file, *l, *r), "nothing may follow the closing `}` of the game")
        }
        ParseError::InvalidToken { location } => Diagnostic::error("invalid token")
            .primary(Span::new(file, *location, *location + 1), "not understood here"),
        ParseError::User { error } => match *error {},
    }
}

/// A hint when a keyword is used where a name was expected.
fn keyword_help(tok: &Token<'_>) -> Option<String> {
    match tok {
        Token::Ident(_) | Token::Int(_) => None,
        t if crate::lexer::token_text(t).chars().all(|c| c.is_ascii_alphabetic() || c == '_') => {
            Some(format!("`{}` is a keyword and cannot be used as a name", crate::lexer::token_text(t)))
        }
        _ => None,
    }
}

/// "one of `;`, `}` or an identifier", from lalrpop's quoted terminal names.
fn describe_expected(expected: &[String]) -> String {
    let mut items: Vec<String> = expected
        .iter()
        .map(|s| {
            let bare = s.trim_matches('"');
            if bare == "identifier" || bare == "integer literal" {
                format!("an {bare}")
            } else {
                format!("`{}`", bare.replace("\\\"", "\""))
            }
        })
        .collect();
    items.sort();
    items.dedup();
    const SHOWN: usize = 8;
    match items.len() {
        0 => "nothing more".to_string(),
        1 => items.remove(0),
        n if n <= SHOWN => {
            let last = items.pop().unwrap_or_default();
            format!("one of {} or {last}", items.join(", "))
        }
        n => format!("one of {} or {} others", items[..SHOWN].join(", "), n - SHOWN),
    }
}
