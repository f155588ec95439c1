//! Cards written as cards: `card(r, s)` in a label becomes a rank letter and
//! a suit (`Qs`, or `Q♠` on a UTF-8 terminal). The language numbers ranks
//! from 0 without naming them, so the rank names are a choice of the user
//! (`--ranks`), by default those of a full deck, 2 to ace. [`standard`]
//! writes the cards of labels that `solve` answers and strategy files key
//! by: always letters, as docs/language.md ("Hold'em") names the 52 cards.

/// The default rank names: rank 0 is a two, rank 12 an ace.
pub const DEFAULT_RANKS: &str = "23456789TJQKA";

/// How cards are written, as the user asks: shared by `explain`, `plot`
/// and `play`.
#[derive(clap::Args, Debug, Clone)]
pub struct CardArgs {
    /// Names of the card ranks, rank 0 first.
    #[arg(long, value_name = "NAMES", default_value = DEFAULT_RANKS)]
    pub ranks: String,
    /// Suits as letters (`Qs`) even on a UTF-8 terminal (`Q♠`).
    #[arg(long)]
    pub ascii: bool,
}

impl CardArgs {
    /// The style asked for; letters for machine-read output (`json`).
    pub fn style(&self, json: bool) -> CardStyle {
        CardStyle::new(&self.ranks, self.ascii || json)
    }
}

/// How cards are written.
#[derive(Clone, Debug)]
pub struct CardStyle {
    /// One name per rank, by rank index (ranks past the end stay numbers).
    pub ranks: Vec<char>,
    /// Suit symbols (`♠♥♦♣`) instead of letters (`shdc`).
    pub symbols: bool,
}

impl CardStyle {
    /// Symbols when the terminal's locale says UTF-8.
    pub fn new(ranks: &str, ascii: bool) -> CardStyle {
        let utf8 = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
            .is_some_and(|v| v.to_uppercase().contains("UTF-8") || v.to_uppercase().contains("UTF8"));
        CardStyle { ranks: ranks.chars().collect(), symbols: utf8 && !ascii }
    }

    /// One card.
    pub fn card(&self, rank: u64, suit: u64) -> String {
        let rank = self.ranks.get(rank as usize).map_or_else(|| rank.to_string(), |c| c.to_string());
        let suits: [&str; 4] = if self.symbols { ["♠", "♥", "♦", "♣"] } else { ["s", "h", "d", "c"] };
        let suit = suits.get(suit as usize).map_or_else(|| format!("/{suit}"), |s| s.to_string());
        format!("{rank}{suit}")
    }

    /// `text` with every `card(r, s)` written as a card.
    pub fn rewrite(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        rewrite_into(text, &mut out, |r, s, out| {
            out.push_str(&self.card(r, s));
            true
        });
        out
    }
}

/// `text` with every `card(r, s)` of the standard deck (rank below 13, suit
/// below 4) written as players write it (`Qc`, `2s`), others kept: the set
/// labels of `solve`'s answers, of strategy files and of every other
/// command ([`crate::report::unique_labels`]). Called once per set of an
/// answer (a turn spot's: about 730,000), so a card costs no allocation.
pub fn standard(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    rewrite_into(text, &mut out, |r, s, out| {
        // `card_chars` names the standard deck's cards only.
        let standard = i64::try_from(r).ok().zip(i64::try_from(s).ok());
        let chars = standard.and_then(|(r, s)| galac_runtime::notation::card_chars(r, s));
        chars.map(|[r, s]| (out.push(r), out.push(s))).is_some()
    });
    out
}

/// Whether every `card(` in `text` is closed by a `)` within it, so that
/// [`standard`] of `text` joined to any `rest` by `", "` is `standard(text)`
/// joined to `standard(rest)`: no card of `text` is read past its end, no
/// `card(` spans the separator (whose characters are not in `card(`), and
/// the separator's space before `rest` is no word before a card of it.
/// Lets a label made of a private state and a public line be rewritten
/// piece by piece, each piece once.
pub fn standard_closed(text: &str) -> bool {
    text.rfind("card(").is_none_or(|at| text[at..].contains(')'))
}

/// Where `card(` first starts in `text`: a search for its first byte, on
/// labels of a few dozen bytes cheaper than a substring searcher's set-up.
fn find_card(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&b| b == b'c') {
        let at = from + i;
        if bytes[at..].starts_with(b"card(") {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `text` into `out`, with each `card(r, s)` that `write` writes (true)
/// replaced by what it wrote.
fn rewrite_into(text: &str, out: &mut String, write: impl Fn(u64, u64, &mut String) -> bool) {
    let mut rest = text;
    while let Some(at) = find_card(rest) {
        // `my_card(3)` is a fact named ..._card, not a card.
        let word_before = rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        let tail = &rest[at + 5..];
        // `)` and `,` are ASCII: their byte positions split at characters.
        let at_byte = |text: &str, b: u8| text.as_bytes().iter().position(|&x| x == b);
        let parsed = at_byte(tail, b')').and_then(|close| {
            let (inside, after) = (&tail[..close], &tail[close + 1..]);
            let comma = at_byte(inside, b',')?;
            let (r, s) = (&inside[..comma], &inside[comma + 1..]);
            Some((r.trim().parse::<u64>().ok()?, s.trim().parse::<u64>().ok()?, after))
        });
        out.push_str(&rest[..at]);
        let len = out.len();
        match parsed {
            Some((r, s, after)) if !word_before && write(r, s, out) => rest = after,
            _ => {
                out.truncate(len);
                out.push_str("card(");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_rewritten_and_other_facts_kept() {
        let style = CardStyle { ranks: "JQK".chars().collect(), symbols: false };
        assert_eq!(
            style.rewrite("private_card(card(1, 0)), public_card(card(2, 3))"),
            "private_card(Qs), public_card(Kc)"
        );
        assert_eq!(style.rewrite("my_card(3), card(x)"), "my_card(3), card(x)");
        let symbols = CardStyle { ranks: DEFAULT_RANKS.chars().collect(), symbols: true };
        assert_eq!(symbols.rewrite("card(10, 0) card(20, 1)"), "Q♠ 20♥");
    }

    #[test]
    fn standard_cards_are_written_as_players_write_them_and_others_kept() {
        assert_eq!(standard("oop: hand([card(10, 3), card(0, 0)])"), "oop: hand([Qc, 2s])");
        assert_eq!(standard("a: card(13, 0), card(2, 4), my_card(3)"), "a: card(13, 0), card(2, 4), my_card(3)");
        assert_eq!(standard("no cards"), "no cards");
        // Unclosed, unparsed and spaced forms; a card right after a kept one.
        assert_eq!(standard("card(1, 2"), "card(1, 2");
        assert_eq!(standard("card(x, 2) card( 12 ,1 )"), "card(x, 2) Ah");
        assert_eq!(standard("card(13, 0)card(0, 0), écard(0, 0), c card"), "card(13, 0)2s, écard(0, 0), c card");
    }

    #[test]
    fn closed_texts_are_rewritten_piece_by_piece() {
        let texts = [
            "oop: hand([card(10, 3), card(0, 0)])",
            "no cards",
            "card(x, 2)",
            "my_card(3)",
            "card(1, 2",
            "a card(",
            "card(1",
        ];
        let rests = ["Check card(0, 0)", "card(1, 2) Bet", ")", "0) card(3, 3)", " 2)", "", "card(12, 1)"];
        let mut split = 0;
        for text in texts {
            let closed = standard_closed(text);
            for rest in rests {
                let whole = standard(&format!("{text}, {rest}"));
                if closed {
                    assert_eq!(whole, format!("{}, {}", standard(text), standard(rest)), "{text:?} {rest:?}");
                } else if whole != format!("{}, {}", standard(text), standard(rest)) {
                    split += 1;
                }
            }
        }
        assert_eq!(texts.map(standard_closed), [true, true, true, true, false, false, false]);
        // The unclosed ones do differ where the rest closes their card.
        assert!(split > 0);
    }
}
