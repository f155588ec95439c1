//! The formatter behind `galac fmt`: one canonical layout for a Gala file.
//!
//! It works on the token stream, not the AST, so that it can never change
//! what a program means: it only decides the whitespace between tokens and
//! around comments, and it checks its own output by lexing it again and
//! comparing tokens and comments with the input's (a mismatch is an
//! internal error, never a silently changed program). The file must parse.
//!
//! The layout:
//! - spacing is fixed by the tokens (`f(x, y)`, `a[i]`, `a + -b`, `0..n`,
//!   `list<int>`, `[player]int`, `x: int`, `1/2` in a probability table);
//! - a statement or declaration starts a line, a block's `{` ends one and
//!   its `}` starts one, indented four spaces a block (`{}` when empty);
//!   `}` and `else`, `until`, `unless`, `;` or `,` stay on one line;
//! - inside a statement, a line break is kept where the source has one
//!   (as gofmt does; there is no width limit), except before `,` and `;`;
//!   continuation lines are indented one level for each earlier line that
//!   opened the statement or a bracket still open, and a closing bracket
//!   that starts a line lines up with the line of its opening bracket;
//! - at most one blank line in a row, none after a block's `{` or before
//!   its `}`;
//! - every comment is kept where it is: on its own line (indented as the
//!   code there) or after code on the same line; the trailing `//`
//!   comments of consecutive lines of one indentation are aligned one
//!   space after the longest line of the run.
//!
//! Formatting is idempotent: every rule reads only the tokens, the comments
//! and which gaps hold a line break, and the output has its breaks exactly
//! where the rules put them.

use crate::diagnostic::Diagnostic;
use crate::lexer::{Lexer, Token};
use crate::span::{FileId, Span};

const INDENT: usize = 4;

/// The source `src` in the canonical layout, or the syntax errors that stop
/// it from being formatted (the file must parse).
pub fn format(file: FileId, src: &str) -> Result<String, Vec<Diagnostic>> {
    let (program, diagnostics) = crate::parser::parse(file, src);
    if program.is_none() || !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let pieces = pieces(file, src)?;
    let out = Printer::new(&pieces).print();
    // The safety net: the same tokens and comments, in the same order.
    let again = pieces_of(file, &out).map_err(|_| internal(file, "its output does not lex"))?;
    let same = again.len() == pieces.len() && again.iter().zip(&pieces).all(|(a, b)| a.same_as(b));
    if !same {
        return Err(internal(file, "its output would change the program's tokens"));
    }
    Ok(out)
}

fn internal(file: FileId, why: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error(format!("internal error in the formatter, please report: {why}"))
        .primary(Span::new(file, 0, 0), "while formatting this file")]
}

/// What the formatter sees: a token or a comment, and the line breaks in
/// the whitespace before it.
#[derive(Clone, Debug)]
struct Piece<'s> {
    kind: PieceKind<'s>,
    /// The source text (a comment without trailing whitespace).
    text: &'s str,
    newlines_before: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum PieceKind<'s> {
    Token(Token<'s>),
    LineComment,
    BlockComment,
}

impl<'s> Piece<'s> {
    fn same_as(&self, other: &Piece<'_>) -> bool {
        self.kind == other.kind && self.text == other.text
    }

    fn token(&self) -> Option<Token<'s>> {
        match self.kind {
            PieceKind::Token(t) => Some(t),
            _ => None,
        }
    }
}

fn pieces(file: FileId, src: &str) -> Result<Vec<Piece<'_>>, Vec<Diagnostic>> {
    pieces_of(file, src).map_err(|at| {
        vec![Diagnostic::error("cannot format this file")
            .primary(Span::new(file, at, at + 1), "not a token, a comment or whitespace")]
    })
}

/// The file's tokens and comments in order; `Err(offset)` where the text
/// between two tokens is neither whitespace nor a comment (a lexical error).
fn pieces_of(file: FileId, src: &str) -> Result<Vec<Piece<'_>>, usize> {
    let mut lexer = Lexer::new(file, src);
    let mut out = Vec::new();
    let mut at = 0;
    for t in lexer.by_ref() {
        let (start, tok, end) = t.unwrap_or_else(|never| match never {});
        let newlines = trivia(src, at, start, &mut out)?;
        out.push(Piece { kind: PieceKind::Token(tok), text: &src[start..end], newlines_before: newlines });
        at = end;
    }
    if !lexer.errors.is_empty() {
        return Err(lexer.errors[0].span.start as usize);
    }
    trivia(src, at, src.len(), &mut out)?;
    Ok(out)
}

/// Pushes the comments in `src[from..to]`; returns the line breaks after
/// the last of them.
fn trivia<'s>(src: &'s str, from: usize, to: usize, out: &mut Vec<Piece<'s>>) -> Result<usize, usize> {
    let mut newlines = 0;
    let mut i = from;
    let bytes = src.as_bytes();
    while i < to {
        let rest = &src[i..to];
        if rest.starts_with("//") {
            let len = rest.find('\n').unwrap_or(rest.len());
            let text = rest[..len].trim_end();
            out.push(Piece { kind: PieceKind::LineComment, text, newlines_before: newlines });
            newlines = 0;
            i += len;
        } else if let Some(body) = rest.strip_prefix("/*") {
            let len = body.find("*/").map(|e| e + 4).ok_or(i)?;
            out.push(Piece { kind: PieceKind::BlockComment, text: &rest[..len], newlines_before: newlines });
            newlines = 0;
            i += len;
        } else if bytes[i].is_ascii_whitespace() {
            newlines += usize::from(bytes[i] == b'\n');
            i += 1;
        } else {
            return Err(i);
        }
    }
    Ok(newlines)
}

/// An output line: indentation, code, and a trailing `//` comment.
#[derive(Default)]
struct Line {
    indent: usize,
    code: String,
    comment: Option<String>,
}

/// What is open at a point of the output.
#[derive(Clone, Copy, Debug)]
enum Open {
    /// A block of statements (or declarations): `{ ... }`.
    Block {
        /// No token of a statement has been printed yet.
        at_statement_start: bool,
        /// The output line where the current statement started.
        statement_line: usize,
    },
    /// `(`, `[`, an inline `{` (an enum's variants, a probability table)
    /// or the `<` of `list<T>`.
    Group {
        close: Bracket,
        /// The output line of the opening bracket and its indentation.
        line: usize,
        indent: usize,
        /// `[player]` not after an operand: the per-player type `[player]T`.
        per_player: bool,
        /// The `{` of an enum's variants, whose `}` ends the declaration.
        ends_item: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bracket {
    Paren,
    Square,
    Brace,
    Angle,
}

/// How one piece is separated from the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gap {
    Tight,
    Space,
    Newline,
    BlankLine,
}

struct Printer<'p, 's> {
    pieces: &'p [Piece<'s>],
    lines: Vec<Line>,
    open: Vec<Open>,
    /// The index of the last token printed.
    prev: Option<usize>,
    /// What the last token printed was, as far as spacing cares.
    prev_role: Role,
    /// The piece printed last was a `//` comment: a line break follows.
    after_line_comment: bool,
    /// The piece printed last was a `/* */` comment on the current line.
    after_block_comment: bool,
    /// The piece printed last was a block's `{`: no blank line follows.
    after_block_open: bool,
    /// The token where the pattern of a `choose` starts (after its chooser).
    choose_pattern: Option<usize>,
}

/// The role of a printed token that the next one's spacing depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Other,
    /// A block's `{`.
    BlockOpen,
    /// A block's `}`.
    BlockClose,
    /// `;` ending a statement (in a block, not `[e; n]`).
    StatementEnd,
    /// `,` after a match arm's block.
    ArmComma,
    /// `-` or `!` before its operand.
    Prefix,
    /// The `]` of a per-player type `[player]T`.
    PerPlayerClose,
    /// `<` of `list<T>`.
    AngleOpen,
    /// A number between `:` and `/` in a probability table.
    ProbNumerator,
    /// `/` of a probability `n/d`.
    ProbSlash,
}

impl<'p, 's> Printer<'p, 's> {
    fn new(pieces: &'p [Piece<'s>]) -> Self {
        Printer {
            pieces,
            lines: Vec::new(),
            open: Vec::new(),
            prev: None,
            prev_role: Role::Other,
            after_line_comment: false,
            after_block_comment: false,
            after_block_open: false,
            choose_pattern: None,
        }
    }

    fn print(mut self) -> String {
        for i in 0..self.pieces.len() {
            match self.pieces[i].kind {
                PieceKind::Token(tok) => self.token(i, tok),
                PieceKind::LineComment | PieceKind::BlockComment => self.comment(i),
            }
        }
        render(self.lines)
    }

    fn blocks(&self) -> usize {
        self.open.iter().filter(|o| matches!(o, Open::Block { .. })).count()
    }

    /// The indentation of a new line that does not start with a closing
    /// bracket: the blocks, then one level for each earlier line that
    /// started the current statement or opened a bracket still open.
    fn indent(&self) -> usize {
        let mut lines: Vec<usize> = Vec::new();
        for o in self.open.iter().rev() {
            match *o {
                Open::Group { line, .. } => lines.push(line),
                Open::Block { at_statement_start, statement_line } => {
                    if !at_statement_start {
                        lines.push(statement_line);
                    }
                    break;
                }
            }
        }
        lines.sort_unstable();
        lines.dedup();
        INDENT * (self.blocks() + lines.len())
    }

    fn newline(&mut self, gap: Gap, indent: usize) {
        if gap == Gap::BlankLine && !self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        self.lines.push(Line { indent, ..Line::default() });
    }

    fn append(&mut self, gap: Gap, text: &str) {
        let line = self.lines.last_mut().expect("a line is started before text is appended");
        if gap == Gap::Space && !line.code.is_empty() {
            line.code.push(' ');
        }
        line.code.push_str(text);
    }

    fn comment(&mut self, i: usize) {
        let piece = &self.pieces[i];
        let gap = if self.lines.is_empty() || self.after_line_comment || piece.newlines_before > 0 {
            if piece.newlines_before > 1 && !self.after_block_open {
                Gap::BlankLine
            } else {
                Gap::Newline
            }
        } else {
            Gap::Space
        };
        if gap != Gap::Space {
            let indent = self.indent();
            self.newline(gap, indent);
        }
        match piece.kind {
            PieceKind::LineComment if gap == Gap::Space => {
                self.lines.last_mut().expect("a line").comment = Some(piece.text.to_string());
            }
            _ => self.append(Gap::Space, piece.text),
        }
        self.after_line_comment = piece.kind == PieceKind::LineComment;
        self.after_block_comment = piece.kind == PieceKind::BlockComment;
        self.after_block_open = false;
    }

    fn token(&mut self, i: usize, tok: Token<'s>) {
        let piece = &self.pieces[i];
        let prev_tok = self.prev.and_then(|p| self.pieces[p].token());
        let forced = self.forced_break(tok);
        let breakable = forced || self.breakable(prev_tok, tok);
        let gap = if self.lines.is_empty() {
            Gap::Newline
        } else if forced || self.after_line_comment || (breakable && piece.newlines_before > 0) {
            let blank_allowed = !self.after_block_open && !self.closes_block(tok);
            if piece.newlines_before > 1 && blank_allowed {
                Gap::BlankLine
            } else {
                Gap::Newline
            }
        } else if self.after_block_comment {
            Gap::Space
        } else {
            self.spacing(i, prev_tok, tok)
        };
        // A closing bracket leaves its group (or block) before it is placed.
        let closed = if is_closer(tok) || self.is_generic_close(tok) { self.open.pop() } else { None };
        if matches!(gap, Gap::Newline | Gap::BlankLine) {
            let indent = match closed {
                Some(Open::Group { indent, .. }) => indent,
                Some(Open::Block { .. }) => INDENT * self.blocks(),
                None => self.indent(),
            };
            self.newline(gap, indent);
        }
        self.append(gap, piece.text);
        self.after_line_comment = false;
        self.after_block_comment = false;
        self.role_and_context(i, tok, closed);
        self.after_block_open = self.prev_role == Role::BlockOpen;
        self.prev = Some(i);
    }

    fn closes_block(&self, tok: Token<'_>) -> bool {
        tok == Token::RBrace && matches!(self.open.last(), Some(Open::Block { .. }))
    }

    fn is_generic_close(&self, tok: Token<'_>) -> bool {
        tok == Token::Gt && matches!(self.open.last(), Some(Open::Group { close: Bracket::Angle, .. }))
    }

    /// A line break that the layout requires before `tok`.
    fn forced_break(&self, tok: Token<'_>) -> bool {
        match self.prev_role {
            Role::StatementEnd | Role::ArmComma => true,
            Role::BlockOpen => tok != Token::RBrace,
            Role::BlockClose => !glued_after_block(tok),
            _ => self.closes_block(tok),
        }
    }

    /// Whether a line break in the source before `tok` is kept.
    fn breakable(&self, prev: Option<Token<'_>>, tok: Token<'_>) -> bool {
        match tok {
            Token::Comma | Token::Semi => false,
            _ if self.prev_role == Role::BlockClose => !glued_after_block(tok),
            Token::RBrace => prev != Some(Token::LBrace),
            _ => true,
        }
    }

    /// The spacing of two tokens on one line.
    fn spacing(&self, i: usize, prev: Option<Token<'_>>, tok: Token<'_>) -> Gap {
        use Token::*;
        let Some(prev) = prev else { return Gap::Space };
        if self.choose_pattern == Some(i) {
            return Gap::Space;
        }
        let tight = match (prev, tok) {
            (_, Comma | Semi | RParen | RBracket | Dot | Colon | ColonColon | DotDot | DotDotEq) => true,
            (LParen | LBracket | Dot | ColonColon | DotDot | DotDotEq, _) => true,
            (LBrace, RBrace) => true,
            (_, Gt) if self.is_generic_close(tok) => true,
            (List, Lt) => true,
            (Ident(_) | TakeTurns, LParen) => true,
            (_, LBracket) => ends_operand(prev),
            (LBrace, _) | (_, RBrace) => false,
            _ => {
                matches!(self.prev_role, Role::Prefix | Role::AngleOpen | Role::ProbNumerator | Role::ProbSlash)
                    || (self.prev_role == Role::PerPlayerClose && starts_type(tok))
            }
        };
        if tight {
            Gap::Tight
        } else {
            Gap::Space
        }
    }

    /// Records what `tok` opened or ended and its role for the next token.
    fn role_and_context(&mut self, i: usize, tok: Token<'s>, closed: Option<Open>) {
        use Token::*;
        let line = self.lines.len() - 1;
        let indent = self.lines[line].indent;
        let prev_tok = self.prev.and_then(|p| self.pieces[p].token());
        let mut role = Role::Other;
        match tok {
            LBrace if !self.inline_brace(i) => {
                self.open.push(Open::Block { at_statement_start: true, statement_line: line });
                role = Role::BlockOpen;
            }
            LBrace | LParen | LBracket => {
                let close = match tok {
                    LBrace => Bracket::Brace,
                    LParen => Bracket::Paren,
                    _ => Bracket::Square,
                };
                let per_player = tok == LBracket
                    && !prev_tok.is_some_and(ends_operand)
                    && self.next_tokens(i, 2) == [Some(Player), Some(RBracket)];
                let ends_item = tok == LBrace && prev_tok != Some(In);
                self.open.push(Open::Group { close, line, indent, per_player, ends_item });
            }
            Lt if prev_tok == Some(List) => {
                let close = Bracket::Angle;
                self.open.push(Open::Group { close, line, indent, per_player: false, ends_item: false });
                role = Role::AngleOpen;
            }
            RBrace if matches!(closed, Some(Open::Block { .. })) => role = Role::BlockClose,
            RBrace if matches!(closed, Some(Open::Group { ends_item: true, .. })) => role = Role::StatementEnd,
            RBracket if matches!(closed, Some(Open::Group { per_player: true, .. })) => role = Role::PerPlayerClose,
            Semi if matches!(self.open.last(), Some(Open::Block { .. })) => role = Role::StatementEnd,
            Comma if self.prev_role == Role::BlockClose => role = Role::ArmComma,
            Minus | Bang if !prev_tok.is_some_and(ends_operand) => role = Role::Prefix,
            Int(_) if prev_tok == Some(Colon) && self.next_tokens(i, 1) == [Some(Slash)] => {
                role = Role::ProbNumerator;
            }
            Slash if self.prev_role == Role::ProbNumerator => role = Role::ProbSlash,
            Choose => self.choose_pattern = Some(self.after_chooser(i)),
            _ => {}
        }
        let statement_done = matches!(role, Role::StatementEnd | Role::ArmComma | Role::BlockClose);
        let starts = !matches!(role, Role::BlockOpen) && !statement_done;
        for o in self.open.iter_mut().rev() {
            if let Open::Block { at_statement_start, statement_line } = o {
                if statement_done {
                    *at_statement_start = true;
                } else if starts && *at_statement_start {
                    *at_statement_start = false;
                    *statement_line = line;
                }
                break;
            }
        }
        self.prev_role = role;
    }

    /// The tokens after piece `i` (comments skipped), `n` of them.
    fn next_tokens(&self, i: usize, n: usize) -> Vec<Option<Token<'s>>> {
        let mut toks = self.pieces[i + 1..].iter().filter_map(Piece::token);
        (0..n).map(|_| toks.next()).collect()
    }

    /// A `{` that holds no statements: an enum's variants (`enum E {`) or
    /// a probability table (`in {`).
    fn inline_brace(&self, i: usize) -> bool {
        let toks: Vec<Token<'_>> = self.pieces[..i].iter().rev().filter_map(Piece::token).take(2).collect();
        matches!(toks.as_slice(), [Token::In, ..] | [Token::Ident(_), Token::Enum])
    }

    /// The index of the first token after the chooser of the `choose` at
    /// `i`: `nature`, or a name, `player`, `opponent` or `( .. )`, indexed
    /// any number of times.
    fn after_chooser(&self, i: usize) -> usize {
        let mut toks = self.pieces.iter().enumerate().skip(i + 1).filter_map(|(k, p)| Some((k, p.token()?))).peekable();
        if let Some((_, Token::LParen)) = toks.next() {
            skip_group(&mut toks);
        }
        loop {
            match toks.peek() {
                Some((_, Token::LBracket)) => {
                    toks.next();
                    skip_group(&mut toks);
                }
                Some(&(k, _)) => return k,
                None => return usize::MAX,
            }
        }
    }
}

/// Consumes the tokens up to the bracket that closes one already opened.
fn skip_group<'s>(toks: &mut impl Iterator<Item = (usize, Token<'s>)>) {
    let mut depth = 1usize;
    for (_, t) in toks {
        match t {
            Token::LParen | Token::LBracket => depth += 1,
            Token::RParen | Token::RBracket => {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

fn is_closer(tok: Token<'_>) -> bool {
    matches!(tok, Token::RParen | Token::RBracket | Token::RBrace)
}

/// Tokens that follow a block's `}` on its line.
fn glued_after_block(tok: Token<'_>) -> bool {
    matches!(tok, Token::Else | Token::Until | Token::Unless | Token::Comma | Token::Semi)
}

/// Tokens that end an operand, so that a `-` after them is binary and a
/// `[` after them indexes.
fn ends_operand(tok: Token<'_>) -> bool {
    use Token::*;
    matches!(
        tok,
        Ident(_) | Int(_) | Card(_) | Text(_) | True | False | RParen | RBracket | Players | Player | Opponent | BoolTy
    )
}

/// Tokens that start a type (after `[player]`).
fn starts_type(tok: Token<'_>) -> bool {
    use Token::*;
    matches!(tok, Ident(_) | IntTy | BoolTy | Player | List | LParen | LBracket)
}

/// The lines joined, trailing comments of consecutive lines aligned.
fn render(lines: Vec<Line>) -> String {
    let width = |l: &Line| l.indent + l.code.chars().count();
    let mut out = String::new();
    let mut run_start = 0;
    while run_start < lines.len() {
        let mut run_end = run_start;
        let in_run = |l: &Line| l.comment.is_some() && !l.code.is_empty() && l.indent == lines[run_start].indent;
        while run_end < lines.len() && in_run(&lines[run_end]) {
            run_end += 1;
        }
        let column = lines[run_start..run_end].iter().map(width).max().unwrap_or(0) + 1;
        for line in &lines[run_start..run_end.max(run_start + 1)] {
            let mut text = String::new();
            if !line.code.is_empty() {
                text.push_str(&" ".repeat(line.indent));
                text.push_str(&line.code);
            }
            if let Some(c) = &line.comment {
                if text.is_empty() {
                    text.push_str(&" ".repeat(line.indent));
                } else {
                    let pad = if run_end > run_start { column - width(line) } else { 1 };
                    text.push_str(&" ".repeat(pad));
                }
                text.push_str(c);
            }
            out.push_str(&text);
            out.push('\n');
        }
        run_start = run_end.max(run_start + 1);
    }
    out
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
