//! Readable labels of actions and information sets, rendered from the exact
//! words of values and facts, so that the interpreter and compiled games
//! label everything identically.

use crate::info::{InfoInterner, CHOSE_TAG};
use crate::value::SUIT_BITS;

/// The shape of a value, for decoding its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeDesc {
    Int,
    Bool,
    Player,
    /// An enum, by index into [`Labeler::enums`].
    Enum(u32),
    Card,
    Tuple(Vec<TypeDesc>),
    /// A list, array or per-player array.
    Seq(Box<TypeDesc>),
    /// An enum with fields, by index into [`Labeler::enums`], with each
    /// variant's field types: held as a tuple of the variant number and
    /// every variant's fields in order (shown as `Bid(2, 5)` or `Liar`).
    Data(u32, Vec<Vec<TypeDesc>>),
}

/// Names needed to show values and facts.
#[derive(Clone, Debug, Default)]
pub struct Labeler {
    pub players: Vec<String>,
    /// Variant names of each enum.
    pub enums: Vec<Vec<String>>,
    /// Tag and argument types of each fact.
    pub facts: Vec<(String, Vec<TypeDesc>)>,
    /// Types of chosen values, by choice-type index.
    pub choice_types: Vec<TypeDesc>,
}

impl Labeler {
    /// Shows the value encoded at `words[*pos..]`, advancing `pos`.
    pub fn show(&self, words: &[u64], pos: &mut usize, ty: &TypeDesc) -> String {
        let next = |pos: &mut usize| {
            let w = words.get(*pos).copied().unwrap_or(0);
            *pos += 1;
            w
        };
        match ty {
            TypeDesc::Int => (next(pos) as i64).to_string(),
            TypeDesc::Bool => (next(pos) != 0).to_string(),
            TypeDesc::Player => {
                let p = next(pos) as usize;
                self.players.get(p).cloned().unwrap_or_else(|| p.to_string())
            }
            TypeDesc::Enum(e) => {
                let v = next(pos) as usize;
                self.enums.get(*e as usize).and_then(|vs| vs.get(v)).cloned().unwrap_or_else(|| v.to_string())
            }
            TypeDesc::Card => {
                let c = next(pos) as i64;
                format!("card({}, {})", c >> SUIT_BITS, c & ((1 << SUIT_BITS) - 1))
            }
            TypeDesc::Tuple(ts) => {
                let n = next(pos) as usize;
                let parts: Vec<String> = ts.iter().take(n).map(|t| self.show(words, pos, t)).collect();
                format!("({})", parts.join(", "))
            }
            TypeDesc::Data(e, variants) => {
                next(pos); // the tuple's length
                let v = next(pos) as usize;
                let name =
                    self.enums.get(*e as usize).and_then(|vs| vs.get(v)).cloned().unwrap_or_else(|| v.to_string());
                let mut own = String::new();
                for (i, fields) in variants.iter().enumerate() {
                    let shown: Vec<String> = fields.iter().map(|t| self.show(words, pos, t)).collect();
                    if i == v && !shown.is_empty() {
                        own = format!("({})", shown.join(", "));
                    }
                }
                format!("{name}{own}")
            }
            TypeDesc::Seq(t) => {
                let n = (next(pos) as usize).min(words.len());
                let parts: Vec<String> = (0..n).map(|_| self.show(words, pos, t)).collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }

    /// The label of a chosen value of choice type `choice_ty`.
    pub fn value(&self, words: &[u64], choice_ty: u32) -> String {
        let ty = self.choice_types.get(choice_ty as usize).cloned().unwrap_or(TypeDesc::Int);
        self.show(words, &mut 0, &ty)
    }

    /// "chose X" for an own-move record, "chose X of N" when the record
    /// also holds the N options offered (`info::append_choice_key`): the
    /// count alone keeps labels short, the list is in the information set.
    fn chose(&self, words: &[u64]) -> String {
        let ty = words.get(1).copied().unwrap_or(0) as u32;
        let desc = self.choice_types.get(ty as usize).cloned().unwrap_or(TypeDesc::Int);
        let mut pos = 2.min(words.len());
        let value = self.show(words, &mut pos, &desc);
        let Some((&form, offered)) = words.get(pos..).and_then(|rest| rest.split_first()) else {
            return format!("chose {value}");
        };
        let n = match form % 4 {
            1 | 3 => offered.first().map_or(0, |m| m.count_ones() as usize),
            2 => offered.len(),
            _ => {
                let (mut at, mut n) = (pos + 1, 0);
                while at < words.len() {
                    self.show(words, &mut at, &desc);
                    n += 1;
                }
                n
            }
        };
        format!("chose {value} of {n}")
    }

    /// "player: fact, fact, chose X" for an information set.
    pub fn infoset(&self, info: &InfoInterner, infoset: u32) -> String {
        let key = info.infoset_key(infoset);
        let facts: Vec<String> = info
            .facts(key.state)
            .into_iter()
            .map(|words| {
                if words.first() == Some(&CHOSE_TAG) {
                    self.chose(&words)
                } else {
                    let (tag, args) = match self.facts.get(words.first().copied().unwrap_or(0) as usize) {
                        Some(f) => f,
                        None => return format!("{words:?}"),
                    };
                    let mut pos = 1;
                    let shown: Vec<String> = args.iter().map(|t| self.show(&words, &mut pos, t)).collect();
                    if shown.is_empty() {
                        tag.clone()
                    } else {
                        format!("{tag}({})", shown.join(", "))
                    }
                }
            })
            .collect();
        let who = self.players.get(key.player as usize).cloned().unwrap_or_default();
        if facts.is_empty() {
            format!("{who}: start")
        } else {
            format!("{who}: {}", facts.join(", "))
        }
    }
}
