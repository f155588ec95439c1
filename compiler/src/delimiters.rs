//! Delimiter balance, checked on the token stream before parsing.
//!
//! lalrpop's error recovery copies its state stack for every recovery
//! attempt, so a file with many unclosed `{` made `check` quadratic (a
//! 96 KB file of unbalanced `if`s took 35 s). One linear pass over the
//! tokens finds `{` nested past [`MAX_NESTING`] before the parser runs, so
//! its stack stays bounded. The same pass finds unbalanced `(`, `[` and
//! `{`, which explain a parse that hits the end of the file better than
//! the parser can: by the delimiter left open, found from the indentation.

use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::span::{FileId, Span};

/// Nested `{` allowed. Each open block is a place where the parser's error
/// recovery may resume, and every recovery attempt copies the stack below
/// each of them: bounding blocks keeps a broken file's check linear in its
/// size (parentheses and brackets hold no such place and are bounded by
/// the AST's [`crate::ast::MAX_DEPTH`] where they nest the tree).
pub const MAX_NESTING: usize = 128;

/// A delimiter problem, and what the parser should do with it.
#[derive(Clone, Debug)]
pub struct Problem {
    pub diagnostic: Diagnostic,
    /// Blocks nest too deeply: the file is not parsed.
    pub too_deep: bool,
    /// An unclosed delimiter placed by the indentation, which says more
    /// than the parser's "unexpected end of file".
    pub placed_by_indentation: bool,
}

impl Problem {
    fn new(diagnostic: Diagnostic) -> Option<Problem> {
        Some(Problem { diagnostic, too_deep: false, placed_by_indentation: false })
    }
}

/// A token as the parser receives it: (start, token, end).
pub type Spanned<'src> = (usize, Token<'src>, usize);

/// The closing delimiter of an opening one.
fn closer(open: &Token<'_>) -> Option<&'static str> {
    match open {
        Token::LBrace => Some("}"),
        Token::LParen => Some(")"),
        Token::LBracket => Some("]"),
        _ => None,
    }
}

fn is_closer(tok: &Token<'_>) -> bool {
    matches!(tok, Token::RBrace | Token::RParen | Token::RBracket)
}

/// The first delimiter problem of `tokens`, if any (one is enough: the
/// others usually follow from it).
pub fn check(file: FileId, src: &str, tokens: &[Spanned<'_>]) -> Option<Problem> {
    // Open delimiters, and every matched pair (open start, close start).
    let mut open: Vec<(usize, Token<'_>, usize)> = Vec::new();
    let mut blocks = 0;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for &(l, tok, r) in tokens {
        if closer(&tok).is_some() {
            if tok == Token::LBrace {
                blocks += 1;
                if blocks > MAX_NESTING {
                    let diagnostic = Diagnostic::error("blocks nested too deeply")
                        .primary(Span::new(file, l, r), format!("more than {MAX_NESTING} levels of `{{`"))
                        .help("split it into smaller parts with a `fn` or a flow");
                    return Some(Problem { diagnostic, too_deep: true, placed_by_indentation: false });
                }
            }
            open.push((l, tok, r));
        } else if is_closer(&tok) {
            let text = crate::lexer::token_text(&tok);
            match open.pop() {
                Some((ol, otok, _)) if closer(&otok) == Some(text) => {
                    blocks -= usize::from(otok == Token::LBrace);
                    pairs.push((ol, l));
                }
                Some((ol, otok, or)) => {
                    let o = crate::lexer::token_text(&otok);
                    return Problem::new(
                        Diagnostic::error(format!("mismatched `{text}`"))
                            .primary(Span::new(file, l, r), format!("this `{text}` does not close the `{o}`"))
                            .secondary(Span::new(file, ol, or), format!("this `{o}` is never closed")),
                    );
                }
                None => {
                    return Problem::new(
                        Diagnostic::error(format!("unexpected `{text}`"))
                            .primary(Span::new(file, l, r), "nothing is open here"),
                    );
                }
            }
        }
    }
    let &(l, tok, r) = open.last()?;
    let o = crate::lexer::token_text(&tok);
    let end = src.trim_end().len();
    // A missing closer shifts the pairs after it inwards: the last pair
    // that looks wrong is the one left open.
    let placed = misindented(src, &pairs);
    let (at, label) = match placed {
        Some(o) => {
            (Span::new(file, o, o + 1), "probably never closed: the delimiter paired with it is indented differently")
        }
        None => (Span::new(file, l, r), "never closed"),
    };
    let diagnostic = Diagnostic::error(format!("unclosed `{o}`"))
        .primary(at, label)
        .secondary(Span::new(file, end, end), "the file ends here");
    Some(Problem { diagnostic, too_deep: false, placed_by_indentation: placed.is_some() })
}

/// The last opener of a matched pair whose closing delimiter starts its
/// line indented unlike the line that opened it: in hand-written code the
/// trace of a missing closer.
fn misindented(src: &str, pairs: &[(usize, usize)]) -> Option<usize> {
    let indent = |at: usize| {
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &src[line_start..];
        (line_start, line.len() - line.trim_start().len())
    };
    let mut sorted = pairs.to_vec();
    sorted.sort_unstable();
    sorted.into_iter().rev().find_map(|(o, c)| {
        let (open_line, open_indent) = indent(o);
        let (close_line, close_indent) = indent(c);
        (open_line != close_line && close_line + close_indent == c && open_indent != close_indent).then_some(o)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_problem(src: &str) -> Option<String> {
        let tokens: Vec<Spanned<'_>> = crate::lexer::Lexer::new(FileId(0), src).map(|t| t.unwrap()).collect();
        check(FileId(0), src, &tokens).map(|p| p.diagnostic.message)
    }

    #[test]
    fn balanced_input_passes() {
        assert_eq!(first_problem("game g { flow { f([1, (2)]); } }"), None);
    }

    #[test]
    fn each_imbalance_is_named() {
        assert_eq!(first_problem("game g { flow { }").as_deref(), Some("unclosed `{`"));
        assert_eq!(first_problem("game g { } }").as_deref(), Some("unexpected `}`"));
        assert_eq!(first_problem("game g { x = (1 + 2; }").as_deref(), Some("mismatched `}`"));
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "{".repeat(MAX_NESTING + 1);
        assert_eq!(first_problem(&deep).as_deref(), Some("blocks nested too deeply"));
        let parens = format!("{}{}", "(".repeat(10 * MAX_NESTING), ")".repeat(10 * MAX_NESTING));
        assert_eq!(first_problem(&parens), None);
    }
}
