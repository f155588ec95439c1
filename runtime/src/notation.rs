//! Cards and hold'em ranges in the notation players write: a card is a rank
//! (`23456789TJQKA`) and a suit (`shdc`), as `Qc`; a board is cards one
//! after another (`Td9d6hQc`); a range is a comma-separated list of hands
//! (`QQ-22,AQs-A2s,ATo+,K5s+:0.5,AsKh`), each with an optional weight.
//! Galac and every compiled solver read param values with it, the checker
//! reads param defaults with it, so all three accept and refuse alike; an
//! error names the offending text and its byte range.
//!
//! Cards are numbered as in [`crate::ops::holdem`]: rank 0 is a two, 12 an
//! ace; suit 0 is spades, then hearts, diamonds, clubs.

use crate::value::SUIT_BITS;

/// A range's weight of 1 (weights are exact thousandths: `0.125` is 125).
pub const WEIGHT_ONE: i64 = 1000;

const RANK_CHARS: &[u8] = b"23456789TJQKA";
const SUIT_CHARS: &[u8] = b"shdc";

/// What is wrong in a text, and where (bytes `start..end` of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

impl NotationError {
    fn new(start: usize, end: usize, message: impl Into<String>) -> NotationError {
        NotationError { start, end, message: message.into() }
    }
}

/// A range: each hand (its two cards, the higher first) with its weight in
/// thousandths, hands in increasing order of their cards.
pub type Range = Vec<(Vec<i64>, i64)>;

fn rank_of(b: u8) -> Option<i64> {
    RANK_CHARS.iter().position(|&r| r == b.to_ascii_uppercase()).map(|r| r as i64)
}

fn suit_of(b: u8) -> Option<i64> {
    SUIT_CHARS.iter().position(|&s| s == b).map(|s| s as i64)
}

/// The card with this rank and suit.
pub fn card(rank: i64, suit: i64) -> i64 {
    (rank << SUIT_BITS) | suit
}

/// The card written `text` (`Qc`), if it is one.
pub fn parse_card(text: &str) -> Option<i64> {
    match text.as_bytes() {
        [r, s] => Some(card(rank_of(*r)?, suit_of(*s)?)),
        _ => None,
    }
}

/// The card `c` as players write it (`Qc`), or `card(r, s)` outside the
/// standard deck.
pub fn show_card(c: i64) -> String {
    let (rank, suit) = (c >> SUIT_BITS, c & ((1 << SUIT_BITS) - 1));
    match card_chars(rank, suit) {
        Some([r, s]) => format!("{r}{s}"),
        None => format!("card({rank}, {suit})"),
    }
}

/// The rank's and the suit's letters of the card of rank `rank` and suit
/// `suit` (`Q`, `c`), if it is one of the standard deck's.
pub fn card_chars(rank: i64, suit: i64) -> Option<[char; 2]> {
    let (r, s) = (usize::try_from(rank).ok()?, usize::try_from(suit).ok()?);
    Some([char::from(*RANK_CHARS.get(r)?), char::from(*SUIT_CHARS.get(s)?)])
}

/// Cards one after another (`Td9d6hQc`; spaces and commas between cards
/// are allowed), none twice.
pub fn parse_cards(text: &str) -> Result<Vec<i64>, NotationError> {
    let bytes = text.as_bytes();
    let mut cards = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let end = (i + 2).min(bytes.len());
        let piece = text.get(i..end).unwrap_or("");
        let Some(c) = parse_card(piece) else {
            let end = text[i..].find([' ', ',']).map_or(text.len(), |k| i + k);
            return Err(NotationError::new(
                i,
                end,
                format!(
                    "`{}` is not a card: a card is a rank (23456789TJQKA) and a suit (shdc), as `Qc`",
                    &text[i..end]
                ),
            ));
        };
        if cards.contains(&c) {
            return Err(NotationError::new(i, end, format!("`{piece}` is there twice")));
        }
        cards.push(c);
        i = end;
    }
    Ok(cards)
}

/// Cards written one after another, as [`parse_cards`] reads them.
pub fn show_cards(cards: &[i64]) -> String {
    cards.iter().map(|&c| show_card(c)).collect()
}

/// A range in players' notation. Items, separated by commas or line
/// breaks (a blank line is no item; two commas in a row are an error): a pair `QQ`,
/// suited `AKs`, offsuit `AKo` or both `AK`; with `+` the better hands of
/// the same kind up to the first rank (`QQ+`, `ATo+` is ATo to AKo); a
/// span with `-` (`QQ-22`, `AQs-A2s`: the same first rank); two cards
/// (`AsKh`). `:w` after an item gives its hands the weight `w` (0 to 1, at
/// most three decimals; 1 without); a hand named again takes the later
/// weight, and a hand of weight 0 is left out.
pub fn parse_range(text: &str) -> Result<Range, NotationError> {
    let mut weights = vec![0i64; 52 * 52];
    let (mut start, mut after_line) = (0, false);
    for item in text.split([',', '\n']) {
        let lead = item.len() - item.trim_start().len();
        let trimmed = item.trim();
        let at = start + lead;
        let before_line = text.as_bytes().get(start + item.len()) == Some(&b'\n');
        start += item.len() + 1;
        let line = std::mem::replace(&mut after_line, before_line) || before_line;
        if trimmed.is_empty() {
            if line || text.trim().is_empty() {
                continue;
            }
            return Err(NotationError::new(at, at, "an empty item in the range (two commas in a row?)"));
        }
        let (hands, weight) = match trimmed.split_once(':') {
            Some((h, w)) => (h.trim_end(), parse_weight(w, at + h.len() + 1)?),
            None => (trimmed, WEIGHT_ONE),
        };
        let bad =
            |why: &str| NotationError::new(at, at + trimmed.len(), format!("`{trimmed}` is not a range item: {why}"));
        for (hi, lo) in item_hands(hands).map_err(|why| bad(&why))? {
            weights[index(hi, lo)] = weight;
        }
    }
    let mut range = Range::new();
    for hi in 0..52 {
        for lo in 0..hi {
            let w = weights[index(hi, lo)];
            if w > 0 {
                range.push((vec![deck_card(hi), deck_card(lo)], w));
            }
        }
    }
    Ok(range)
}

/// A range written back in players' notation, which [`parse_range`] reads
/// as the same range: a hand class (`QQ`, `AKs`, `AKo`) whose hands all
/// have one weight is written as the class, runs of such classes of one
/// weight as spans (`QQ-22`, `AQs-A2s`) or with `+` (`66+`, `K9s+`), the
/// other hands as two cards (`AsKh:0.5`). Pairs come first, then the
/// classes by their higher rank, so a range written this way reads back
/// as it was written (issue 45's ranges do); the items never overlap, so
/// their order does not change the range.
pub fn show_range(range: &[(Vec<i64>, i64)]) -> String {
    let mut weights = vec![0i64; 52 * 52];
    for (hand, w) in range {
        let standard = |c: i64| show_card(c).len() == 2;
        match hand.as_slice() {
            [a, b] if standard(*a) && standard(*b) && a != b => {
                weights[index(number(*a.max(b)), number(*a.min(b)))] = *w;
            }
            // Not a hand of the standard deck (parse_range never makes
            // one): every hand on its own.
            _ => return show_hands(range),
        }
    }
    let mut items = Vec::new();
    let mut single = vec![true; 52 * 52];
    // The weight every hand of a class has, if one.
    let mut class_weight = |hi: i64, lo: i64, kind: Kind| {
        let mut hands = Vec::new();
        combos(hi, lo, kind, &mut hands);
        let w = weights[index(hands[0].0, hands[0].1)];
        let uniform = w > 0 && hands.iter().all(|&(h, l)| weights[index(h, l)] == w);
        if uniform {
            hands.iter().for_each(|&(h, l)| single[index(h, l)] = false);
        }
        uniform.then_some(w)
    };
    let rank = |r: i64| RANK_CHARS[r as usize] as char;
    // Pairs from aces down, then per higher rank its suited and offsuit
    // classes from the best kicker down: runs of one weight.
    let pairs: Vec<Option<i64>> = (0..13).rev().map(|r| class_weight(r, r, Kind::Both)).collect();
    for (top, bottom, w) in runs(&pairs) {
        let (t, b) = (12 - top as i64, 12 - bottom as i64);
        let text = match (t, b) {
            _ if t == b => format!("{0}{0}", rank(t)),
            (12, _) => format!("{0}{0}+", rank(b)),
            _ => format!("{0}{0}-{1}{1}", rank(t), rank(b)),
        };
        items.push(weighted(text, w));
    }
    for hi in (1..13).rev() {
        for (kind, k) in [(Kind::Suited, 's'), (Kind::Offsuit, 'o')] {
            let kickers: Vec<Option<i64>> = (0..hi).rev().map(|lo| class_weight(hi, lo, kind)).collect();
            for (top, bottom, w) in runs(&kickers) {
                let (t, b) = (hi - 1 - top as i64, hi - 1 - bottom as i64);
                let (h, t_, b_) = (rank(hi), rank(t), rank(b));
                let text = match t {
                    _ if t == b => format!("{h}{t_}{k}"),
                    _ if t == hi - 1 => format!("{h}{b_}{k}+"),
                    _ => format!("{h}{t_}{k}-{h}{b_}{k}"),
                };
                items.push(weighted(text, w));
            }
        }
    }
    let rest: Range = range
        .iter()
        .filter(|(hand, _)| single[index(number(hand[0].max(hand[1])), number(hand[0].min(hand[1])))])
        .cloned()
        .collect();
    if !rest.is_empty() {
        items.push(show_hands(&rest));
    }
    items.join(",")
}

/// The maximal runs of equal `Some` weights in `classes`: (first index,
/// last index, weight).
fn runs(classes: &[Option<i64>]) -> Vec<(usize, usize, i64)> {
    let mut out: Vec<(usize, usize, i64)> = Vec::new();
    for (i, w) in classes.iter().enumerate() {
        match (w, out.last_mut()) {
            (Some(w), Some(run)) if run.1 + 1 == i && run.2 == *w => run.1 = i,
            (Some(w), _) => out.push((i, i, *w)),
            (None, _) => {}
        }
    }
    out
}

/// An item with its weight, `:w` unless it is 1.
fn weighted(item: String, w: i64) -> String {
    if w == WEIGHT_ONE {
        item
    } else {
        let w = format!("{}.{:03}", w / WEIGHT_ONE, w % WEIGHT_ONE);
        format!("{item}:{}", w.trim_end_matches('0'))
    }
}

/// Every hand as its two cards (`AsKs,AhKh:0.5`).
fn show_hands(range: &[(Vec<i64>, i64)]) -> String {
    let items: Vec<String> = range.iter().map(|(hand, w)| weighted(show_cards(hand), *w)).collect();
    items.join(",")
}

/// The card numbered `i` of the standard deck (rank-major).
fn deck_card(i: usize) -> i64 {
    card(i as i64 / 4, i as i64 % 4)
}

fn index(hi: usize, lo: usize) -> usize {
    hi * 52 + lo
}

/// A weight `0`, `1`, `0.5`, `.25`, in thousandths; `at` is where it starts.
fn parse_weight(text: &str, at: usize) -> Result<i64, NotationError> {
    let t = text.trim();
    let bad = |why: &str| NotationError::new(at, at + text.len(), format!("`{t}` is not a weight: {why}"));
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if (whole.is_empty() && frac.is_empty()) || !whole.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(bad("write a number from 0 to 1, as `0.5`"));
    }
    if frac.len() > 3 {
        return Err(bad("at most three decimals"));
    }
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad("too large"))? };
    let frac: i64 = format!("{frac:0<3}").parse().map_err(|_| bad("write a number from 0 to 1"))?;
    let w = whole.checked_mul(WEIGHT_ONE).and_then(|w| w.checked_add(frac)).ok_or_else(|| bad("too large"))?;
    if w > WEIGHT_ONE {
        return Err(bad("a weight is at most 1"));
    }
    Ok(w)
}

/// Suited, offsuit or both (a pair has neither).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Suited,
    Offsuit,
    Both,
}

/// A hand class `AKs` read: its ranks (the higher first) and kind.
fn class(text: &str) -> Result<(i64, i64, Kind), String> {
    let b = text.as_bytes();
    let (r1, r2) = match b {
        [r1, r2, ..] => (rank_of(*r1), rank_of(*r2)),
        _ => return Err("a hand is two ranks (`AK`, `QQ`) or two cards (`AsKh`)".into()),
    };
    let (Some(r1), Some(r2)) = (r1, r2) else {
        return Err("ranks are 23456789TJQKA".into());
    };
    let kind = match &b[2..] {
        [] => Kind::Both,
        [b's'] if r1 != r2 => Kind::Suited,
        [b'o'] if r1 != r2 => Kind::Offsuit,
        [b's' | b'o'] => return Err("a pair is neither suited nor offsuit".into()),
        _ => return Err("after the two ranks comes `s`, `o`, `+` or nothing".into()),
    };
    Ok((r1.max(r2), r1.min(r2), kind))
}

/// The hands (higher card's number, lower card's number) of one item.
fn item_hands(text: &str) -> Result<Vec<(usize, usize)>, String> {
    // Two cards.
    if text.len() == 4 {
        if let (Some(a), Some(b)) = (parse_card(&text[..2]), parse_card(&text[2..])) {
            if a == b {
                return Err("the same card twice".into());
            }
            return Ok(vec![(number(a.max(b)), number(a.min(b)))]);
        }
    }
    let mut out = Vec::new();
    if let Some(base) = text.strip_suffix('+') {
        let (hi, lo, kind) = class(base)?;
        if hi == lo {
            for r in lo..13 {
                combos(r, r, kind, &mut out);
            }
        } else {
            for r in lo..hi {
                combos(hi, r, kind, &mut out);
            }
        }
    } else if let Some((a, b)) = text.split_once('-') {
        let ((h1, l1, k1), (h2, l2, k2)) = (class(a)?, class(b)?);
        if k1 != k2 {
            return Err("both ends of a span are of one kind (`AQs-A2s`)".into());
        }
        if h1 == l1 && h2 == l2 {
            for r in l1.min(l2)..=l1.max(l2) {
                combos(r, r, k1, &mut out);
            }
        } else if h1 == h2 && h1 != l1 && h2 != l2 {
            for r in l1.min(l2)..=l1.max(l2) {
                combos(h1, r, k1, &mut out);
            }
        } else {
            return Err("a span is of pairs (`QQ-22`) or keeps its first rank (`AQs-A2s`)".into());
        }
    } else {
        let (hi, lo, kind) = class(text)?;
        combos(hi, lo, kind, &mut out);
    }
    Ok(out)
}

/// The number (0 to 51) of a standard card.
fn number(c: i64) -> usize {
    ((c >> SUIT_BITS) * 4 + (c & ((1 << SUIT_BITS) - 1))) as usize
}

/// The hands of ranks `hi` >= `lo` of a kind, as card numbers.
fn combos(hi: i64, lo: i64, kind: Kind, out: &mut Vec<(usize, usize)>) {
    for s1 in 0..4 {
        for s2 in 0..4 {
            let suited = s1 == s2;
            let keep = if hi == lo {
                s1 > s2
            } else {
                matches!((kind, suited), (Kind::Both, _) | (Kind::Suited, true) | (Kind::Offsuit, false))
            };
            if keep {
                out.push(((hi * 4 + s1) as usize, (lo * 4 + s2) as usize));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        parse_range(text).map(|r| r.len()).unwrap_or(usize::MAX)
    }

    #[test]
    fn ranges_have_the_hands_players_count() {
        assert_eq!(count("AA"), 6);
        assert_eq!(count("AKs"), 4);
        assert_eq!(count("AKo"), 12);
        assert_eq!(count("AK"), 16);
        assert_eq!(count("QQ+"), 18);
        assert_eq!(count("QQ-22"), 66);
        assert_eq!(count("22-QQ"), 66);
        assert_eq!(count("ATo+"), 48);
        assert_eq!(count("AQs-A2s"), 44);
        assert_eq!(count("AsKh"), 1);
        assert_eq!(count(""), 0);
        // Every hand: 1,326 combinations.
        assert_eq!(count("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"), 1326);
        // Issue 45's ranges, item by item, and (postflop-solver's counts)
        // 167 and 246 hands left on the board Td9d6hQc2s.
        let oop = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s";
        let ip = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+";
        assert_eq!(count(oop), 54 + 24 + 8 + 36 + 16 + 12 + 8 + 4 + 12 + 12 + 8 + 4 + 4);
        assert_eq!(count(ip), 66 + 44 + 48 + 32 + 24 + 16 + 12 + 12 + 12 + 8 + 8 + 8 + 8);
        let board = parse_cards("Td9d6hQc2s").expect("valid");
        let live = |text: &str| {
            parse_range(text).map_or(0, |r| r.iter().filter(|(h, _)| !h.iter().any(|c| board.contains(c))).count())
        };
        assert_eq!((live(oop), live(ip)), (167, 246));
    }

    #[test]
    fn weights_are_exact_and_the_later_one_counts() {
        let r = parse_range("AKs:0.5,AsKs:0.125,AhKh:0").expect("valid");
        let w: Vec<i64> = r.iter().map(|h| h.1).collect();
        assert_eq!(w, [125, 500, 500]);
        assert_eq!(r[0].0, [card(12, 0), card(11, 0)]);
        assert_eq!(parse_range(&show_range(&r)), Ok(r));
    }

    /// A range is written back in the notation it was written in where it
    /// can be, and always reads back as the same range.
    #[test]
    fn ranges_are_written_back_as_players_write_them() {
        for text in [
            "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
            "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
            "AA:0.5,KK,AKs:0.25,AKo",
            "22+,A2s+,A2o+,K2s+,K2o+,Q2s+,Q2o+,J2s+,J2o+,T2s+,T2o+,92s+,92o+,82s+,82o+,72s+,72o+,62s+,62o+,52s+,\
             52o+,42s+,42o+,32s,32o",
            "",
        ] {
            let range = parse_range(text).expect("valid");
            assert_eq!(show_range(&range), text);
        }
        // A class with one hand of another weight: its hands one by one.
        let range = parse_range("AKs,AsKs:0.5,QQ").expect("valid");
        assert_eq!(show_range(&range), "QQ,AsKs:0.5,AhKh,AdKd,AcKc");
        // Random ranges: a few classes whole, others in part, random weights.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let mut range = Range::new();
            for hi in 0..52 {
                for lo in 0..hi {
                    if next(3) == 0 {
                        range.push((
                            vec![deck_card(hi), deck_card(lo)],
                            [WEIGHT_ONE, 500, 1 + next(999) as i64][next(3) as usize],
                        ));
                    }
                }
            }
            assert_eq!(parse_range(&show_range(&range)), Ok(range));
            let whole = parse_range(&format!("{}{}s+:0.5,QQ-99", ["A", "K", "7"][next(3) as usize], 2)).expect("valid");
            assert_eq!(parse_range(&show_range(&whole)), Ok(whole));
        }
    }

    #[test]
    fn bad_items_are_named_and_located() {
        let e = parse_range("QQ+, AQx,KK").unwrap_err();
        assert_eq!((e.start, e.end), (5, 8));
        assert!(e.message.contains("`AQx`"), "{}", e.message);
        let e = parse_range("AKs:0.3333").unwrap_err();
        assert_eq!((e.start, e.end), (4, 10));
        assert!(e.message.contains("three decimals"));
        assert!(parse_range("AKs:2").unwrap_err().message.contains("at most 1"));
        assert!(parse_range("AQs-KTs").unwrap_err().message.contains("span"));
        assert!(parse_range("AA,,KK").unwrap_err().message.contains("empty item"));
        // Line breaks separate items too, and blank lines are none.
        assert_eq!(parse_range("AA,KK,\n\nQQ\r\nJJ:0.5\n"), parse_range("AA,KK,QQ,JJ:0.5"));
        assert!(parse_range("AA,\nKK,,QQ").unwrap_err().message.contains("empty item"));
        assert!(parse_range("AsAs").unwrap_err().message.contains("twice"));
    }

    #[test]
    fn boards_read_and_show() {
        let board = parse_cards("Td9d6hQc").expect("valid");
        assert_eq!(board, [card(8, 2), card(7, 2), card(4, 1), card(10, 3)]);
        assert_eq!(show_cards(&board), "Td9d6hQc");
        assert_eq!(parse_cards("Td 9d,6h"), Ok(board[..3].to_vec()));
        let e = parse_cards("Td9x6h").unwrap_err();
        assert_eq!((e.start, e.end, e.message.contains("`9x6h`")), (2, 6, true));
        assert!(parse_cards("TdTd").unwrap_err().message.contains("twice"));
    }
}
