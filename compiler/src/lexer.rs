//! The lexer: source text to tokens with byte spans (logos).
//!
//! Lexing never fails as a whole: an unknown character or an integer literal
//! that does not fit in 64 bits is recorded as a [`LexError`] and skipped (or
//! replaced by `0`), so the parser still sees the rest of the file and every
//! problem is reported at once.

use logos::Logos;

use crate::span::{FileId, Span};

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
#[logos(error = LexErrorKind)]
pub enum Token<'src> {
    #[token("game")]
    Game,
    #[token("players")]
    Players,
    #[token("param")]
    Param,
    #[token("enum")]
    Enum,
    #[token("var")]
    Var,
    #[token("fn")]
    Fn,
    #[token("flow")]
    Flow,
    #[token("let")]
    Let,
    #[token("if")]
    If,
    #[token("then")]
    Then,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("repeat")]
    Repeat,
    #[token("until")]
    Until,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("take_turns")]
    TakeTurns,
    #[token("unless")]
    Unless,
    #[token("choose")]
    Choose,
    #[token("nature")]
    Nature,
    #[token("reveal")]
    Reveal,
    #[token("all")]
    All,
    #[token("payoff")]
    Payoff,
    #[token("outcome")]
    Outcome,
    #[token("end")]
    End,
    #[token("return")]
    Return,
    #[token("where")]
    Where,
    #[token("weight")]
    Weight,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("int")]
    IntTy,
    #[token("bool")]
    BoolTy,
    #[token("player")]
    Player,
    #[token("opponent")]
    Opponent,
    #[token("list")]
    List,

    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token("..=")]
    DotDotEq,
    #[token("->")]
    Arrow,
    #[token("=")]
    Eq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("!")]
    Bang,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'src str),
    #[regex(r"[0-9][0-9_]*", parse_int)]
    Int(i64),
}

fn parse_int<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> Result<i64, LexErrorKind> {
    let digits: String = lex.slice().chars().filter(|c| *c != '_').collect();
    digits.parse::<i64>().map_err(|_| LexErrorKind::IntTooLarge)
}

/// What went wrong at one place in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LexErrorKind {
    #[default]
    UnexpectedChar,
    IntTooLarge,
    UnterminatedComment,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub span: Span,
}

/// Adapts logos to the `(start, token, end)` triples lalrpop expects,
/// collecting lexical errors on the side instead of stopping.
pub struct Lexer<'src> {
    inner: logos::SpannedIter<'src, Token<'src>>,
    src: &'src str,
    file: FileId,
    pub errors: Vec<LexError>,
}

impl<'src> Lexer<'src> {
    pub fn new(file: FileId, src: &'src str) -> Lexer<'src> {
        Lexer { inner: Token::lexer(src).spanned(), src, file, errors: Vec::new() }
    }
}

impl<'src> Iterator for Lexer<'src> {
    /// Lexing errors never reach the parser; they are collected in `errors`.
    type Item = Result<(usize, Token<'src>, usize), std::convert::Infallible>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (tok, range) = self.inner.next()?;
            match tok {
                Ok(tok) => return Some(Ok((range.start, tok, range.end))),
                Err(LexErrorKind::IntTooLarge) => {
                    self.errors.push(LexError {
                        kind: LexErrorKind::IntTooLarge,
                        span: Span::new(self.file, range.start, range.end),
                    });
                    return Some(Ok((range.start, Token::Int(0), range.end)));
                }
                Err(_) => {
                    let kind = if self.src[range.start..].starts_with("/*") {
                        LexErrorKind::UnterminatedComment
                    } else {
                        LexErrorKind::UnexpectedChar
                    };
                    // Report one error per run of unknown characters, not per byte.
                    let merged = self.errors.last_mut().filter(|e| {
                        e.kind == kind && e.span.end as usize == range.start
                    });
                    match merged {
                        Some(e) => e.span.end = range.end as u32,
                        None => self.errors.push(LexError {
                            kind,
                            span: Span::new(self.file, range.start, range.end),
                        }),
                    }
                    if kind == LexErrorKind::UnterminatedComment {
                        // The rest of the file is the comment.
                        let end = self.src.len();
                        if let Some(e) = self.errors.last_mut() {
                            e.span.end = end as u32;
                        }
                        return None;
                    }
                }
            }
        }
    }
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Ident(s) => write!(f, "identifier `{s}`"),
            Token::Int(n) => write!(f, "integer `{n}`"),
            other => write!(f, "`{}`", token_text(other)),
        }
    }
}

/// The source text of a fixed token (keywords and punctuation).
pub fn token_text(tok: &Token<'_>) -> &'static str {
    use Token::*;
    match tok {
        Game => "game", Players => "players", Param => "param", Enum => "enum", Var => "var",
        Fn => "fn", Flow => "flow", Let => "let", If => "if", Then => "then", Else => "else",
        While => "while", Repeat => "repeat", Until => "until", For => "for", In => "in",
        TakeTurns => "take_turns", Unless => "unless", Choose => "choose", Nature => "nature",
        Reveal => "reveal", All => "all", Payoff => "payoff", Outcome => "outcome", End => "end",
        Return => "return", Where => "where", Weight => "weight", True => "true",
        False => "false", IntTy => "int", BoolTy => "bool", Player => "player",
        Opponent => "opponent", List => "list", LBrace => "{", RBrace => "}",
        LParen => "(", RParen => ")", LBracket => "[", RBracket => "]", Semi => ";",
        Comma => ",", Colon => ":", ColonColon => "::", Dot => ".", DotDot => "..",
        DotDotEq => "..=", Arrow => "->", Eq => "=", PlusEq => "+=", MinusEq => "-=",
        StarEq => "*=", Plus => "+", Minus => "-", Star => "*", Slash => "/", Percent => "%",
        EqEq => "==", NotEq => "!=", Lt => "<", Le => "<=", Gt => ">", Ge => ">=",
        AndAnd => "&&", OrOr => "||", Bang => "!", Ident(_) => "identifier", Int(_) => "integer",
    }
}
