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
    #[token("const")]
    Const,
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
    #[token("simultaneous")]
    Simultaneous,
    #[token("match")]
    Match,
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
    #[token("=>")]
    FatArrow,
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
    /// A card of the standard deck, `Qc` or `2s`: its rank (0 for a two to
    /// 12 for an ace) and suit (0 to 3 for `s h d c`), as `card(r, s)`.
    /// Such names are cards, never identifiers; a number run into letters
    /// (`2x`, `10c`) is an error rather than a number and a name.
    #[regex(r"[2-9TJQKA][shdc]", card_literal, priority = 10)]
    #[regex(r"[0-9][0-9_]*[A-Za-z_][A-Za-z0-9_]*", bad_card, priority = 1)]
    Card((u8, u8)),
    /// `"QQ-22,AKs"`: a text, only as a param's default (in the notation
    /// `--param` reads).
    #[regex(r#""[^"\n]*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Text(&'src str),

    /// `/*` without its `*/` (a closed comment is skipped as a longer match).
    #[token("/*", unterminated_comment)]
    UnterminatedComment,
    /// `1.5`: not Gala, but after a `.` it is two tuple fields (`t.0.1`).
    #[regex(r"[0-9]+\.[0-9]+")]
    Decimal(&'src str),
}

fn unterminated_comment<'src>(_: &mut logos::Lexer<'src, Token<'src>>) -> Result<(), LexErrorKind> {
    Err(LexErrorKind::UnterminatedComment)
}

fn card_literal<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> Option<(u8, u8)> {
    let b = lex.slice().as_bytes();
    let rank = b"23456789TJQKA".iter().position(|&r| r == b[0])?;
    let suit = b"shdc".iter().position(|&s| s == b[1])?;
    Some((rank as u8, suit as u8))
}

fn bad_card<'src>(_: &mut logos::Lexer<'src, Token<'src>>) -> Result<(u8, u8), LexErrorKind> {
    Err(LexErrorKind::NumberRunIntoName)
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
    FloatLiteral,
    /// `2x`: digits run into letters (not a card such as `2s`).
    NumberRunIntoName,
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
    file: FileId,
    pub errors: Vec<LexError>,
    /// Tokens split from one lexeme (`0.1` after a `.`), in reverse order.
    pending: Vec<(usize, Token<'src>, usize)>,
    previous: Option<Token<'src>>,
}

impl<'src> Lexer<'src> {
    pub fn new(file: FileId, src: &'src str) -> Lexer<'src> {
        Lexer { inner: Token::lexer(src).spanned(), file, errors: Vec::new(), pending: Vec::new(), previous: None }
    }

    fn error(&mut self, kind: LexErrorKind, start: usize, end: usize) {
        // Report one error per run of unknown characters, not per byte.
        if let Some(e) = self.errors.last_mut() {
            if e.kind == kind && kind == LexErrorKind::UnexpectedChar && e.span.end as usize == start {
                e.span.end = end as u32;
                return;
            }
        }
        self.errors.push(LexError { kind, span: Span::new(self.file, start, end) });
    }

    fn next_token(&mut self) -> Option<(usize, Token<'src>, usize)> {
        if let Some(t) = self.pending.pop() {
            return Some(t);
        }
        loop {
            let (tok, range) = self.inner.next()?;
            let (start, end) = (range.start, range.end);
            match tok {
                Ok(Token::Decimal(text)) => {
                    let dot = text.find('.').unwrap_or(0);
                    let field = |s: &str| s.parse::<i64>().unwrap_or(i64::MAX);
                    if self.previous == Some(Token::Dot) {
                        // `t.0.1`: field 0, then field 1.
                        self.pending.push((start + dot + 1, Token::Int(field(&text[dot + 1..])), end));
                        self.pending.push((start + dot, Token::Dot, start + dot + 1));
                        return Some((start, Token::Int(field(&text[..dot])), start + dot));
                    }
                    self.error(LexErrorKind::FloatLiteral, start, end);
                    return Some((start, Token::Int(0), end));
                }
                Ok(tok) => return Some((start, tok, end)),
                Err(LexErrorKind::IntTooLarge) => {
                    self.error(LexErrorKind::IntTooLarge, start, end);
                    return Some((start, Token::Int(0), end));
                }
                Err(LexErrorKind::UnterminatedComment) => {
                    // The rest of the file is the comment.
                    self.error(LexErrorKind::UnterminatedComment, start, end);
                    return None;
                }
                Err(kind) => self.error(kind, start, end),
            }
        }
    }
}

impl<'src> Iterator for Lexer<'src> {
    /// Lexing errors never reach the parser; they are collected in `errors`.
    type Item = Result<(usize, Token<'src>, usize), std::convert::Infallible>;

    fn next(&mut self) -> Option<Self::Item> {
        let t = self.next_token()?;
        self.previous = Some(t.1);
        Some(Ok(t))
    }
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Ident(s) => write!(f, "identifier `{s}`"),
            Token::Int(n) => write!(f, "integer `{n}`"),
            Token::Card((r, s)) => write!(
                f,
                "card `{}`",
                galac_runtime::notation::show_card(galac_runtime::notation::card(i64::from(*r), i64::from(*s)))
            ),
            Token::Text(t) => write!(f, "text `\"{t}\"`"),
            other => write!(f, "`{}`", token_text(other)),
        }
    }
}

/// The source text of a fixed token (keywords and punctuation).
pub fn token_text(tok: &Token<'_>) -> &'static str {
    use Token::*;
    match tok {
        Game => "game",
        Players => "players",
        Param => "param",
        Const => "const",
        Enum => "enum",
        Var => "var",
        Fn => "fn",
        Flow => "flow",
        Let => "let",
        If => "if",
        Then => "then",
        Else => "else",
        While => "while",
        Repeat => "repeat",
        Until => "until",
        For => "for",
        In => "in",
        TakeTurns => "take_turns",
        Simultaneous => "simultaneous",
        Match => "match",
        Unless => "unless",
        Choose => "choose",
        Nature => "nature",
        Reveal => "reveal",
        All => "all",
        Payoff => "payoff",
        Outcome => "outcome",
        End => "end",
        Return => "return",
        Where => "where",
        Weight => "weight",
        True => "true",
        False => "false",
        IntTy => "int",
        BoolTy => "bool",
        Player => "player",
        Opponent => "opponent",
        List => "list",
        LBrace => "{",
        RBrace => "}",
        LParen => "(",
        RParen => ")",
        LBracket => "[",
        RBracket => "]",
        Semi => ";",
        Comma => ",",
        Colon => ":",
        ColonColon => "::",
        Dot => ".",
        DotDot => "..",
        DotDotEq => "..=",
        Arrow => "->",
        FatArrow => "=>",
        Eq => "=",
        PlusEq => "+=",
        MinusEq => "-=",
        StarEq => "*=",
        Plus => "+",
        Minus => "-",
        Star => "*",
        Slash => "/",
        Percent => "%",
        EqEq => "==",
        NotEq => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        AndAnd => "&&",
        OrOr => "||",
        Bang => "!",
        Ident(_) => "identifier",
        Int(_) => "integer",
        Card(_) => "card",
        Text(_) => "text",
        UnterminatedComment => "/*",
        Decimal(_) => "decimal number",
    }
}
