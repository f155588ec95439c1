//! Run-time values of the interpreter, their encoding as fact words and
//! their display in the game's terms.
//!
//! Scalars (`int`, `bool`, `player`, enum values, cards) are one `i64`;
//! tuples, arrays and lists are shared sequences, copied on write.

use std::rc::Rc;

use crate::typeck::tast;
use crate::typeck::types::Ty;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Int(i64),
    Seq(Rc<Vec<Value>>),
}

impl Value {
    pub fn seq(items: Vec<Value>) -> Value {
        Value::Seq(Rc::new(items))
    }

    pub fn bool(b: bool) -> Value {
        Value::Int(i64::from(b))
    }

    /// Appends the exact word encoding: a scalar is one word, a sequence is
    /// its length followed by its elements.
    pub fn encode(&self, out: &mut Vec<u64>) {
        match self {
            Value::Int(n) => out.push(*n as u64),
            Value::Seq(xs) => {
                out.push(xs.len() as u64);
                for x in xs.iter() {
                    x.encode(out);
                }
            }
        }
    }
}

/// A card is `rank << 16 | suit`, so that cards order by rank, then suit.
pub const SUIT_BITS: u32 = 16;

/// Names needed to show values: players and enums.
pub struct Names<'a> {
    pub players: &'a [String],
    pub enums: &'a [tast::Enum],
}

impl Names<'_> {
    pub fn show(&self, v: &Value, ty: &Ty) -> String {
        match (v, ty) {
            (Value::Int(n), Ty::Bool) => (*n != 0).to_string(),
            (Value::Int(n), Ty::Player) => self.players.get(*n as usize).cloned().unwrap_or_else(|| n.to_string()),
            (Value::Int(n), Ty::Enum(id, _)) => self.enums[id.0 as usize]
                .variants
                .get(*n as usize)
                .cloned()
                .unwrap_or_else(|| n.to_string()),
            (Value::Int(n), Ty::Card) => format!("card({}, {})", n >> SUIT_BITS, n & ((1 << SUIT_BITS) - 1)),
            (Value::Int(n), _) => n.to_string(),
            (Value::Seq(xs), Ty::Tuple(ts)) => {
                let parts: Vec<String> = xs.iter().zip(ts).map(|(x, t)| self.show(x, t)).collect();
                format!("({})", parts.join(", "))
            }
            (Value::Seq(xs), t) => {
                let elem = t.element().cloned().unwrap_or(Ty::Int);
                let parts: Vec<String> = xs.iter().map(|x| self.show(x, &elem)).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    /// Decodes one value of type `ty` from fact words (see [`Value::encode`]).
    pub fn decode(&self, words: &[u64], pos: &mut usize, ty: &Ty) -> Value {
        let mut next = || {
            let w = words.get(*pos).copied().unwrap_or(0);
            *pos += 1;
            w
        };
        match ty {
            Ty::Tuple(ts) => {
                let n = next() as usize;
                let items = ts.iter().take(n).map(|t| self.decode(words, pos, t)).collect();
                Value::seq(items)
            }
            Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t) => {
                let n = next() as usize;
                let items = (0..n.min(words.len())).map(|_| self.decode(words, pos, t)).collect();
                Value::seq(items)
            }
            _ => Value::Int(next() as i64),
        }
    }
}
