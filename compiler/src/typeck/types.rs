//! The types of Gala values, as the checker computes them.

use std::fmt;
use std::sync::Arc;

/// Index of an enum declaration in [`super::tast::Program::enums`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

#[derive(Clone, Debug)]
pub enum Ty {
    Int,
    Bool,
    Player,
    Card,
    Enum(EnumId, Arc<str>),
    /// An enum with fields (`enum Call { Bid(int, int), Liar }`), held as
    /// the tuple of these types (`tast::Enum::repr`).
    Data(EnumId, Arc<str>, Arc<[Ty]>),
    Tuple(Vec<Ty>),
    /// `[T; n]`; the length is known here only when written as a literal.
    Array(Box<Ty>, Option<i64>),
    /// `[player]T`
    PerPlayer(Box<Ty>),
    List(Box<Ty>),
    /// The type of an expression that already has an error: compatible with
    /// everything, so one mistake is reported once.
    Error,
}

impl PartialEq for Ty {
    fn eq(&self, other: &Ty) -> bool {
        use Ty::*;
        match (self, other) {
            (Int, Int) | (Bool, Bool) | (Player, Player) | (Card, Card) => true,
            (Enum(a, _), Enum(b, _)) | (Data(a, ..), Data(b, ..)) => a == b,
            (Tuple(a), Tuple(b)) => a == b,
            (Array(a, n), Array(b, m)) => a == b && (n.is_none() || m.is_none() || n == m),
            (PerPlayer(a), PerPlayer(b)) | (List(a), List(b)) => a == b,
            (Error, _) | (_, Error) => true,
            _ => false,
        }
    }
}

impl Ty {
    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    /// True if the type (or any part of it) is an error.
    pub fn has_error(&self) -> bool {
        match self {
            Ty::Error => true,
            Ty::Tuple(ts) => ts.iter().any(Ty::has_error),
            Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t) => t.has_error(),
            _ => false,
        }
    }

    /// How deeply the type nests (a scalar is 1).
    pub fn depth(&self) -> u32 {
        1 + match self {
            Ty::Tuple(ts) => ts.iter().map(Ty::depth).max().unwrap_or(0),
            Ty::Data(..) => 1,
            Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t) => t.depth(),
            _ => 0,
        }
    }

    /// The levels of lists (arrays, per-player arrays) around the first
    /// element type that is not one: 0 for a scalar, a tuple or data.
    pub fn list_depth(&self) -> u32 {
        self.element().map_or(0, |t| 1 + t.list_depth())
    }

    /// The element type when values of this type can be iterated (a domain).
    pub fn element(&self) -> Option<&Ty> {
        match self {
            Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t) => Some(t),
            _ => None,
        }
    }

    /// The element type of a sequence indexed by an `int`.
    pub fn int_indexed_element(&self) -> Option<&Ty> {
        match self {
            Ty::Array(t, _) | Ty::List(t) => Some(t),
            _ => None,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int => write!(f, "int"),
            Ty::Bool => write!(f, "bool"),
            Ty::Player => write!(f, "player"),
            Ty::Card => write!(f, "card"),
            Ty::Enum(_, name) | Ty::Data(_, name, _) => write!(f, "{name}"),
            Ty::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    write!(f, ",")?;
                }
                write!(f, ")")
            }
            Ty::Array(t, Some(n)) => write!(f, "[{t}; {n}]"),
            Ty::Array(t, None) => write!(f, "[{t}; _]"),
            Ty::PerPlayer(t) => write!(f, "[player]{t}"),
            Ty::List(t) => write!(f, "list<{t}>"),
            Ty::Error => write!(f, "{{unknown}}"),
        }
    }
}

impl Ty {
    /// The type with its article, for messages: "an `int`", "a `bool`".
    pub fn a(&self) -> String {
        let text = self.to_string();
        let vowel = text.starts_with(|c: char| "aeiouAEIOU".contains(c));
        format!("{} `{text}`", if vowel { "an" } else { "a" })
    }
}

/// The card a literal names (`Qc`: rank 10, suit 3).
pub fn card(rank: u8, suit: u8) -> i64 {
    galac_runtime::notation::card(i64::from(rank), i64::from(suit))
}

/// The type `range` names: a hold'em range, each two-card hand with its
/// weight in thousandths (`galac_runtime::notation`).
pub fn range_ty() -> Ty {
    Ty::List(Box::new(Ty::Tuple(vec![Ty::List(Box::new(Ty::Card)), Ty::Int])))
}
