//! Parsing: tokens to the AST, with error recovery at statement boundaries.
//!
//! [`parse`] never fails as a whole: it returns whatever program it could
//! build (if any) and every lexical and syntax error it met.

use lalrpop_util::{ErrorRecovery, ParseError};

use self::grammar::grammar::ProgramParser;
use crate::ast::Program;
use crate::delimiters::Spanned;
use crate::diagnostic::Diagnostic;
use crate::lexer::{LexErrorKind, Lexer, Token};
use crate::span::{FileId, Span};

/// The LALRPOP parser generated from `grammar.lalrpop` (by `build.rs`).
#[allow(clippy::all, unused)]
mod grammar {
    lalrpop_util::lalrpop_mod!(pub grammar);
}

type LalrpopError<'src> = ParseError<usize, Token<'src>, std::convert::Infallible>;

/// Syntax errors reported before parsing stops: the rest of a file this
/// broken is rarely worth reading, and each recovery costs the parser's
/// stack depth.
pub const MAX_SYNTAX_ERRORS: usize = 50;

/// Parses one source file.
pub fn parse(file: FileId, src: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let mut lexer = Lexer::new(file, src);
    let tokens: Vec<Spanned<'_>> = lexer.by_ref().map(|t| t.unwrap_or_else(|never| match never {})).collect();
    let mut diagnostics: Vec<Diagnostic> = lexer.errors.iter().map(lex_diagnostic).collect();
    let delimiters = crate::delimiters::check(file, src, &tokens);
    if let Some(problem) = delimiters.as_ref().filter(|p| p.too_deep) {
        diagnostics.push(problem.diagnostic.clone());
        return (None, diagnostics);
    }
    let mut recovered: Vec<ErrorRecovery<usize, Token<'_>, std::convert::Infallible>> = Vec::new();
    let count = std::cell::Cell::new(0);
    // The parser sees the end of the file once enough errors were recovered.
    let stream =
        tokens.iter().take_while(|_| count.get() < MAX_SYNTAX_ERRORS).map(|&t| Ok::<_, std::convert::Infallible>(t));
    let result = ProgramParser::new().parse(file, &mut recovered, &count, stream);
    let stopped = count.get() >= MAX_SYNTAX_ERRORS;

    // Syntax errors caused by a bad token the lexer already reported are noise.
    let lex_spans: Vec<Span> = lexer.errors.iter().map(|e| e.span).collect();
    let mut push = |d: Diagnostic| {
        let dup = d
            .primary_span()
            .is_some_and(|s| lex_spans.iter().any(|l| l.start <= s.start && s.start <= l.end.max(l.start + 1)));
        if !dup {
            diagnostics.push(d);
        }
    };
    for r in &recovered {
        push(syntax_diagnostic(file, src, &r.error));
    }
    let program = match result {
        Ok(p) => Some(p),
        // Past the cap the parser's complaint is the cut, not the file.
        Err(_) if stopped => None,
        // At the end of the file, an unclosed delimiter placed by the
        // indentation says more.
        Err(ParseError::UnrecognizedEof { .. }) if delimiters.as_ref().is_some_and(|p| p.placed_by_indentation) => {
            diagnostics.extend(delimiters.map(|p| p.diagnostic));
            None
        }
        Err(e) => {
            push(syntax_diagnostic(file, src, &e));
            None
        }
    };
    if stopped {
        if let Some(last) = diagnostics.last_mut() {
            last.notes.push(format!("stopped after {MAX_SYNTAX_ERRORS} syntax errors"));
        }
    }
    diagnostics.sort_by_key(|d| d.primary_span());
    (program, diagnostics)
}

fn lex_diagnostic(e: &crate::lexer::LexError) -> Diagnostic {
    match e.kind {
        LexErrorKind::UnexpectedChar => Diagnostic::error("unexpected character")
            .primary(e.span, "not part of the Gala language")
            .help("names are letters, digits and `_`; comments start with `//`"),
        LexErrorKind::IntTooLarge => {
            Diagnostic::error("integer literal too large").primary(e.span, "does not fit in a 64-bit signed integer")
        }
        LexErrorKind::UnterminatedComment => Diagnostic::error("unterminated block comment")
            .primary(e.span, "this comment is never closed")
            .help("close it with `*/`"),
        LexErrorKind::NumberRunIntoName => Diagnostic::error("a number run into a name")
            .primary(e.span, "neither a number nor a card")
            .help("cards are a rank and a suit, `2s` to `Ac` (ranks 23456789TJQKA, suits shdc); put a space between a number and a name"),
        LexErrorKind::FloatLiteral => Diagnostic::error("floating-point numbers are not supported")
            .primary(e.span, "a decimal number")
            .help("Gala computes with integers; scale the values (e.g. cents instead of dollars)"),
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
        ParseError::UnrecognizedToken { token: (l, tok, r), expected } if expected.is_empty() => {
            Diagnostic::error(format!("unexpected {tok} after the end of the game"))
                .primary(Span::new(file, *l, *r), "nothing may follow the closing `}` of the game")
                .help("a file holds one game; put everything inside `game NAME { ... }`")
        }
        ParseError::UnrecognizedToken { token: (l, tok, r), expected } => {
            // A `;` forgotten at the end of a line: point at the line's end.
            let before = src[..*l].trim_end().len();
            let expects_semi = expected.iter().any(|e| e == "\";\"");
            if expects_semi && src[before..*l].contains('\n') {
                return Diagnostic::error("missing `;`")
                    .primary(Span::new(file, before, before), "expected `;` here")
                    .secondary(Span::new(file, *l, *r), format!("the next statement starts with {tok}"));
            }
            if expects_semi && matches!(tok, Token::RBrace) {
                return Diagnostic::error("missing `;` before `}`")
                    .primary(Span::new(file, before, before), "expected `;` here")
                    .secondary(Span::new(file, *l, *r), "the block ends here")
                    .help("every statement but `if`, `while`, `for` and blocks ends with `;`, the last one too");
            }
            if let Some(help) = word_operator_help(src, *l, tok) {
                return Diagnostic::error(format!("unexpected {tok}"))
                    .primary(Span::new(file, *l, *r), format!("expected {}", describe_expected(expected)))
                    .help(help);
            }
            // A name position (not an expression, which may also start with a name).
            let wanted_name =
                expected.iter().any(|e| e == "\"identifier\"") && !expected.iter().any(|e| e == "\"integer literal\"");
            let help = match tok {
                Token::Text(_) => Some(
                    "text is written only as a param's default, in `--param`'s notation: \
                     `param board: list<card> = \"Td9d6h\";`"
                        .to_string(),
                ),
                Token::Card(_) if wanted_name => {
                    Some("a rank and a suit (`Qc`, `Ah`) is a card, never a name; choose another name".to_string())
                }
                _ if wanted_name => keyword_help(tok),
                _ => None,
            };
            Diagnostic::error(format!("unexpected {tok}"))
                .primary(Span::new(file, *l, *r), format!("expected {}", describe_expected(expected)))
                .with_help(help)
        }
        ParseError::ExtraToken { token: (l, tok, r) } => {
            Diagnostic::error(format!("unexpected {tok} after the end of the game"))
                .primary(Span::new(file, *l, *r), "nothing may follow the closing `}` of the game")
        }
        ParseError::InvalidToken { location } => {
            Diagnostic::error("invalid token").primary(Span::new(file, *location, *location + 1), "not understood here")
        }
        ParseError::User { error } => match *error {},
    }
}

/// `and`, `or` and `not` written for `&&`, `||` and `!`: the unexpected
/// token is the word itself (`a and b`) or follows `not` (`not a`).
fn word_operator_help(src: &str, at: usize, tok: &Token<'_>) -> Option<String> {
    let symbol = |word: &str| match word {
        "and" => Some("&&"),
        "or" => Some("||"),
        "not" => Some("!"),
        _ => None,
    };
    let word = match tok {
        Token::Ident(w) if symbol(w).is_some() => *w,
        _ => {
            let before = src[..at].trim_end();
            let start = before
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let word = &before[start..];
            symbol(word)?;
            word
        }
    };
    Some(format!("Gala writes `{word}` as `{}`", symbol(word)?))
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

/// "one of `;`, `}` or an identifier", from lalrpop's quoted terminal names;
/// "a statement" or "an expression" when the list is one of those.
fn describe_expected(expected: &[String]) -> String {
    let has = |t: &str| expected.iter().any(|e| e.trim_matches('"') == t);
    if has("choose") && has("let") {
        return if has("}") { "a statement or `}`".into() } else { "a statement".into() };
    }
    if has("integer literal") && has("identifier") && has("(") {
        let mut extra: Vec<&str> = [")", "]", ";", ","].into_iter().filter(|t| has(t)).collect();
        extra.dedup();
        return match extra.as_slice() {
            [] => "an expression".into(),
            [t] => format!("an expression or `{t}`"),
            ts => format!(
                "an expression or one of {}",
                ts.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
            ),
        };
    }
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
    // Closing punctuation first: it is what is usually missing.
    let rank = |s: &String| match s.as_str() {
        "`;`" => 0,
        "`)`" | "`]`" | "`}`" | "`,`" => 1,
        s if s.starts_with("an ") => 2,
        s if s[1..].starts_with(|c: char| c.is_ascii_alphabetic()) => 3,
        _ => 4,
    };
    items.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
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
