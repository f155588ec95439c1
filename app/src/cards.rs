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
        rewrite_with(text, |r, s| Some(self.card(r, s)))
    }
}

/// `text` with every `card(r, s)` of the standard deck (rank below 13, suit
/// below 4) written as players write it (`Qc`, `2s`), others kept: the set
/// labels of `solve`'s answers, of strategy files and of every other
/// command ([`crate::report::unique_labels`]).
pub fn standard(text: &str) -> String {
    if !text.contains("card(") {
        return text.to_string();
    }
    rewrite_with(text, |r, s| {
        (r < 13 && s < 4).then(|| galac_runtime::notation::show_card(galac_runtime::notation::card(r as i64, s as i64)))
    })
}

/// `text` with each `card(r, s)` that `write` names replaced by its name.
fn rewrite_with(text: &str, write: impl Fn(u64, u64) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("card(") {
        // `my_card(3)` is a fact named ..._card, not a card.
        let word_before = rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        let tail = &rest[at + 5..];
        let parsed = tail.split_once(')').and_then(|(inside, after)| {
            let (r, s) = inside.split_once(',')?;
            Some((r.trim().parse::<u64>().ok()?, s.trim().parse::<u64>().ok()?, after))
        });
        match parsed.and_then(|(r, s, after)| Some((write(r, s)?, after))) {
            Some((name, after)) if !word_before => {
                out += &rest[..at];
                out += &name;
                rest = after;
            }
            _ => {
                out += &rest[..at + 5];
                rest = tail;
            }
        }
    }
    out + rest
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
    }
}
