//! Readable labels of actions and information sets, rendered from the exact
//! words of values and facts, so that the interpreter and compiled games
//! label everything identically.

use std::fmt::Write;

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

/// The cards a label shows, as [`Labeler::write`] writes them
/// (`card(rank, suit)`), in order as `(rank, suit)`: what a solver reads
/// back from a private state's label (and then checks, never trusts).
pub fn cards_shown(text: &str) -> Vec<(i64, i64)> {
    let mut cards = Vec::new();
    for (at, _) in text.match_indices("card(") {
        let rest = &text[at + "card(".len()..];
        let Some(end) = rest.find(')') else { break };
        if let Some((rank, suit)) = rest[..end].split_once(", ") {
            if let (Ok(rank), Ok(suit)) = (rank.parse(), suit.parse()) {
                cards.push((rank, suit));
            }
        }
    }
    cards
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
        let mut out = String::new();
        self.write(&mut out, words, pos, ty);
        out
    }

    /// Writes the value encoded at `words[*pos..]` to `out`, advancing
    /// `pos`: one growing string rather than one per part, since a tree
    /// with labels shows millions of them.
    fn write(&self, out: &mut String, words: &[u64], pos: &mut usize, ty: &TypeDesc) {
        let next = |pos: &mut usize| {
            let w = words.get(*pos).copied().unwrap_or(0);
            *pos += 1;
            w
        };
        match ty {
            TypeDesc::Int => push_display(out, next(pos) as i64),
            TypeDesc::Bool => push_display(out, next(pos) != 0),
            TypeDesc::Player => {
                let p = next(pos) as usize;
                name_or_number(out, self.players.get(p), p);
            }
            TypeDesc::Enum(e) => {
                let v = next(pos) as usize;
                name_or_number(out, self.enums.get(*e as usize).and_then(|vs| vs.get(v)), v);
            }
            TypeDesc::Card => {
                let c = next(pos) as i64;
                out.push_str("card(");
                push_display(out, c >> SUIT_BITS);
                out.push_str(", ");
                push_display(out, c & ((1 << SUIT_BITS) - 1));
                out.push(')');
            }
            TypeDesc::Tuple(ts) => {
                let n = next(pos) as usize;
                out.push('(');
                self.write_list(out, words, pos, ts.iter().take(n));
                out.push(')');
            }
            TypeDesc::Data(e, variants) => {
                next(pos); // the tuple's length
                let v = next(pos) as usize;
                name_or_number(out, self.enums.get(*e as usize).and_then(|vs| vs.get(v)), v);
                // Every variant's fields are held; only the variant's own show.
                for (i, fields) in variants.iter().enumerate() {
                    let mark = out.len();
                    out.push('(');
                    self.write_list(out, words, pos, fields.iter());
                    out.push(')');
                    if i != v || fields.is_empty() {
                        out.truncate(mark);
                    }
                }
            }
            TypeDesc::Seq(t) => {
                let n = (next(pos) as usize).min(words.len());
                out.push('[');
                self.write_list(out, words, pos, std::iter::repeat_n(&**t, n));
                out.push(']');
            }
        }
    }

    /// Writes values of the types `tys` one after another, comma-separated.
    fn write_list<'t>(
        &self,
        out: &mut String,
        words: &[u64],
        pos: &mut usize,
        tys: impl Iterator<Item = &'t TypeDesc>,
    ) {
        for (i, t) in tys.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.write(out, words, pos, t);
        }
    }

    /// The type of chosen values of choice type `choice_ty`.
    fn choice_type(&self, choice_ty: u64) -> &TypeDesc {
        self.choice_types.get(choice_ty as usize).unwrap_or(&TypeDesc::Int)
    }

    /// The label of a chosen value of choice type `choice_ty`.
    pub fn value(&self, words: &[u64], choice_ty: u32) -> String {
        self.show(words, &mut 0, self.choice_type(choice_ty.into()))
    }

    /// Writes "chose X" for an own-move record, "chose X of N" when the
    /// record also holds the N options offered (`info::append_choice_key`):
    /// the count alone keeps labels short, the list is in the information set.
    fn write_chose(&self, out: &mut String, words: &[u64]) {
        let desc = self.choice_type(words.get(1).copied().unwrap_or(0));
        let mut pos = 2.min(words.len());
        out.push_str("chose ");
        self.write(out, words, &mut pos, desc);
        let Some((&form, offered)) = words.get(pos..).and_then(|rest| rest.split_first()) else {
            return;
        };
        let n = match form % 4 {
            1 | 3 => offered.first().map_or(0, |m| m.count_ones() as usize),
            2 => offered.len(),
            _ => {
                let (mut at, mut n, mark) = (pos + 1, 0, out.len());
                while at < words.len() {
                    self.write(out, words, &mut at, desc);
                    out.truncate(mark);
                    n += 1;
                }
                n
            }
        };
        out.push_str(" of ");
        push_display(out, n);
    }

    /// "player: fact, fact, chose X" for an information set.
    pub fn infoset(&self, info: &InfoInterner, infoset: u32) -> String {
        let key = info.infoset_key(infoset);
        let mut out = String::new();
        out.push_str(self.players.get(key.player as usize).map_or("", String::as_str));
        out.push_str(": ");
        let facts = info.facts(key.state);
        if facts.is_empty() {
            out.push_str("start");
        }
        for (i, words) in facts.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if words.first() == Some(&CHOSE_TAG) {
                self.write_chose(&mut out, words);
                continue;
            }
            let Some((tag, args)) = self.facts.get(words.first().copied().unwrap_or(0) as usize) else {
                let _ = write!(out, "{words:?}");
                continue;
            };
            out.push_str(tag);
            if !args.is_empty() {
                out.push('(');
                self.write_list(&mut out, words, &mut 1, args.iter());
                out.push(')');
            }
        }
        out
    }
}

/// Writes `x` as `Display` shows it.
fn push_display(out: &mut String, x: impl std::fmt::Display) {
    let _ = write!(out, "{x}");
}

/// Writes a name, or the number it names when there is no name.
fn name_or_number(out: &mut String, name: Option<&String>, n: usize) {
    match name {
        Some(name) => out.push_str(name),
        None => push_display(out, n),
    }
}

#[cfg(test)]
mod tests {
    use super::{cards_shown, Labeler, TypeDesc};
    use crate::value::SUIT_BITS;

    /// A card as a label shows it reads back as its rank and suit; other
    /// text and malformed cards are skipped.
    #[test]
    fn shown_cards_read_back() {
        let labeler = Labeler::default();
        let ace_of_hearts = (12 << SUIT_BITS) | 1;
        let shown = labeler.show(&[ace_of_hearts], &mut 0, &TypeDesc::Card);
        assert_eq!(shown, "card(12, 1)");
        let label = format!("hand([{shown}, card(3, 0)]), moved(Bet(100)), card(x, 1), card(2,");
        assert_eq!(cards_shown(&label), vec![(12, 1), (3, 0)]);
    }
}
