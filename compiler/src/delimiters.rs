//! Delimiter balance, checked on the token stream before parsing.
//!
//! lalrpop's error recovery copies its state stack for every recovery
//! attempt, so a file with many unclosed `{` made `check` quadratic (a
//! 96 KB file of unbalanced `if`s took 35 s). One linear pass over the
//! tokens finds `{` nested past [`MAX_NESTING`] before the parser runs, so
//! its stack stays bounded. It bounds the other constructs that deepen
//! the parser's stack too (every open `(` or `[`, and the unfinished `if`,
//! `-`, `!`, `list<` and `[player]` that a right-nested chain leaves on
//! it) by [`MAX_PENDING`]: 30 MB of `(` held gigabytes of parser stack and
//! 200 KB of `-` or `else if` took seconds to recover from. The same pass
//! finds unbalanced `(`, `[` and `{`, which explain a parse that hits the
//! end of the file better than the parser can: by the delimiter left open,
//! found from the indentation.

use crate::diagnostic::Diagnostic;
use crate::lexer::Token;
use crate::span::{FileId, Span};

/// Nested `{` allowed. Each open block is a place where the parser's error
/// recovery may resume, and every recovery attempt copies the stack below
/// each of them: bounding blocks keeps a broken file's check linear in its
/// size (parentheses and brackets hold no such place and are bounded by
/// the AST's [`crate::ast::MAX_DEPTH`] where they nest the tree).
pub const MAX_NESTING: usize = 128;

/// Unfinished constructs allowed at any point of the file: open `(`, `[`
/// and `{`, and the `if`, `-`, `!`, `list<` and `[player]` not yet ended
/// by a `;` or `,` at their level, or by the `}` of an `if` with no `else`
/// after it. Each holds a few entries of the parser's stack, whose size
/// and error recovery it bounds. A count, not the AST's depth: it counts
/// a binary `-` and an `if` finished within a longer statement too, so it
/// is four times [`crate::ast::MAX_DEPTH`], and any program past it would
/// nest deeper than the AST allows (parentheses around one expression
/// alone excepted, which no program needs thousands of).
pub const MAX_PENDING: usize = 4 * crate::ast::MAX_DEPTH as usize;

/// The unfinished constructs of [`MAX_PENDING`] as the tokens go by: a
/// count per open delimiter (and one outside them all) and their total
/// with the delimiters themselves.
struct Pending {
    levels: Vec<usize>,
    total: usize,
}

impl Pending {
    fn new() -> Pending {
        Pending { levels: vec![0], total: 0 }
    }

    /// Counts `tok` (at `at` in `tokens`) and returns the total after it.
    fn step(&mut self, tokens: &[Spanned<'_>], at: usize) -> usize {
        let kind = |i: usize| tokens.get(i).map(|t| t.1);
        let tok = tokens[at].1;
        if closer(&tok).is_some() {
            self.levels.push(0);
            self.total += 1;
        } else if is_closer(&tok) {
            if self.levels.len() > 1 {
                let inner = self.levels.pop().unwrap_or(0);
                self.total -= 1 + inner;
            }
            if tok == Token::RBrace && kind(at + 1) != Some(Token::Else) {
                // The `if` whose block (or last `else` block) this closes is done.
                self.end_level();
            } else if tok == Token::RBracket
                && at >= 2
                && kind(at - 1) == Some(Token::Player)
                && kind(at - 2) == Some(Token::LBracket)
            {
                // `[player]` before a type.
                self.open_one();
            }
        } else {
            match tok {
                Token::Semi | Token::Comma => self.end_level(),
                Token::If | Token::Minus | Token::Bang | Token::List => self.open_one(),
                _ => {}
            }
        }
        self.total
    }

    fn open_one(&mut self) {
        if let Some(n) = self.levels.last_mut() {
            *n += 1;
            self.total += 1;
        }
    }

    fn end_level(&mut self) {
        if let Some(n) = self.levels.last_mut() {
            self.total -= *n;
            *n = 0;
        }
    }
}

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
    let mut pending = Pending::new();
    // The first imbalance; the scan goes on to bound the nesting, which
    // the parser would otherwise meet after it.
    let mut first: Option<Problem> = None;
    for (at, &(l, tok, r)) in tokens.iter().enumerate() {
        if pending.step(tokens, at) > MAX_PENDING {
            let diagnostic = Diagnostic::error("nested too deeply to parse")
                .primary(
                    Span::new(file, l, r),
                    format!(
                        "more than {MAX_PENDING} unfinished `(`, `[`, `{{`, `if`, `-`, `!`, `list<` or `[player]` here"
                    ),
                )
                .help("split it into smaller parts with `let` or a `fn`");
            return Some(Problem { diagnostic, too_deep: true, placed_by_indentation: false });
        }
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
                    blocks -= usize::from(otok == Token::LBrace);
                    let o = crate::lexer::token_text(&otok);
                    first = first.or_else(|| {
                        Problem::new(
                            Diagnostic::error(format!("mismatched `{text}`"))
                                .primary(Span::new(file, l, r), format!("this `{text}` does not close the `{o}`"))
                                .secondary(Span::new(file, ol, or), format!("this `{o}` is never closed")),
                        )
                    });
                }
                None => {
                    first = first.or_else(|| {
                        Problem::new(
                            Diagnostic::error(format!("unexpected `{text}`"))
                                .primary(Span::new(file, l, r), "nothing is open here"),
                        )
                    });
                }
            }
        }
    }
    if first.is_some() {
        return first;
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
///
/// Linear in the file: each line's start and indentation are found once
/// (searching back from each pair made a one-line file of `{ }` pairs
/// quadratic: 800 KB of `else if` took 16 s).
fn misindented(src: &str, pairs: &[(usize, usize)]) -> Option<usize> {
    let starts: Vec<usize> = std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let indents: Vec<usize> = starts
        .iter()
        .map(|&start| {
            let line = &src[start..];
            let line = &line[..line.find('\n').unwrap_or(line.len())];
            line.len() - line.trim_start().len()
        })
        .collect();
    let indent = |at: usize| {
        let line = starts.partition_point(|&start| start <= at).saturating_sub(1);
        (starts[line], indents[line])
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

    /// Each chain that deepens the parser's stack stops at [`MAX_PENDING`],
    /// balanced or not, after another imbalance too; the same constructs
    /// one after another do not add up.
    #[test]
    fn unfinished_constructs_are_bounded() {
        let n = MAX_PENDING + 1;
        let too_deep = Some("nested too deeply to parse");
        let chains = [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1", "(".repeat(n)),
            format!("x = {}1;", "-".repeat(n)),
            format!("x = {}1;", "!".repeat(n)),
            format!("x = 1{};", " - 1".repeat(n)),
            format!("if a {{ }}{}", " else if a { }".repeat(n)),
            format!("x = {}1;", "if a then 1 else ".repeat(n)),
            format!("var v: {}int = 0;", "[player]".repeat(n)),
            format!("var v: {}int{} = 0;", "list<".repeat(n), ">".repeat(n)),
            format!(") {}", "(".repeat(n)),
        ];
        for chain in &chains {
            let src = format!("game g {{ flow {{ {chain} }} }}");
            assert_eq!(first_problem(&src).as_deref(), too_deep, "{}", &chain[..40]);
        }
        let sequences = [
            "if a { x = 1; } ".repeat(n),
            "if a { } else { } ".repeat(n),
            "x = -1; ".repeat(n),
            "x = if a then -1 else !b; ".repeat(n),
            format!("x = f({});", "-1, ".repeat(n)),
            "var v: [player]list<int> = 0; ".repeat(n),
        ];
        for sequence in &sequences {
            let src = format!("game g {{ flow {{ {sequence} }} }}");
            assert_eq!(first_problem(&src), None, "{}", &sequence[..40]);
        }
    }
}
