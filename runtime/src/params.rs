//! Param overrides on the command line (`--param name=value`), parsed the
//! same way by galac and by every compiled solver.

use crate::notation::{self, NotationError};

/// A param's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    /// A `list<card>`, as a board: `Td9d6hQc`.
    Cards(Vec<i64>),
    /// A `range`: two-card hands with their weights in thousandths.
    Range(notation::Range),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Cards(cards) => f.write_str(&notation::show_cards(cards)),
            ParamValue::Range(range) => f.write_str(&notation::show_range(range)),
        }
    }
}

/// The type of a param, which says how its value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Int,
    Bool,
    /// `list<card>`, written as cards one after another (`Td9d6hQc`).
    Cards,
    /// `range`, written in players' notation (`QQ-22,AKs,ATo+:0.5`).
    Range,
}

impl ParamKind {
    /// What a value of this kind looks like, for messages.
    fn expected(self) -> &'static str {
        match self {
            ParamKind::Int => "an int",
            ParamKind::Bool => "a bool; give `true` or `false`",
            ParamKind::Cards => "a list of cards, written as `Td9d6hQc`",
            ParamKind::Range => "a range, written as `QQ-22,AKs,ATo+:0.5`",
        }
    }
}

/// A param of a game: its name, its kind, and whether it is a constant
/// (`const`), which no override may set.
pub struct ParamSpec<'a> {
    pub name: &'a str,
    pub kind: ParamKind,
    pub constant: bool,
}

/// The value written `text` for a param of `kind`; an error of the cards
/// and range notations says where in `text` it is.
pub fn parse_value(kind: ParamKind, text: &str) -> Result<ParamValue, NotationError> {
    let whole = |message: String| NotationError { start: 0, end: text.len(), message };
    match kind {
        ParamKind::Bool => match text {
            "true" => Ok(ParamValue::Bool(true)),
            "false" => Ok(ParamValue::Bool(false)),
            _ => Err(whole(format!("`{text}` is not a bool; give `true` or `false`"))),
        },
        ParamKind::Int => match text.replace('_', "").parse::<i64>() {
            Ok(n) => Ok(ParamValue::Int(n)),
            Err(_) => Err(whole(format!("`{text}` is not a 64-bit integer"))),
        },
        ParamKind::Cards => notation::parse_cards(text).map(ParamValue::Cards),
        ParamKind::Range => notation::parse_range(text).map(ParamValue::Range),
    }
}

/// The most characters of an override that a message shows.
const SHOWN_CHARS: usize = 60;

/// Parses `name=value` overrides; the result holds, per param, the value
/// given for it or `None`. A param given twice is an error: silently
/// keeping one of two values would solve a game the user did not ask for.
pub fn parse_overrides(game: &str, params: &[ParamSpec], args: &[String]) -> Result<Vec<Option<ParamValue>>, String> {
    let mut out: Vec<Option<ParamValue>> = vec![None; params.len()];
    for arg in args {
        let Some((name, value)) = arg.split_once('=') else {
            return Err(format!("param override `{arg}`: expected `name=value`"));
        };
        let (name, value) = (name.trim(), value.trim());
        let Some(idx) = params.iter().position(|p| p.name == name) else {
            let known: Vec<&str> = params.iter().filter(|p| !p.constant).map(|p| p.name).collect();
            let list = if known.is_empty() {
                format!("game `{game}` has no params")
            } else {
                format!("its params are: {}", known.join(", "))
            };
            return Err(format!("param override `{arg}`: game `{game}` has no param `{name}`; {list}"));
        };
        if params[idx].constant {
            return Err(format!(
                "param override `{arg}`: `{name}` is a constant of game `{game}` (`const`), not a param; it cannot be set"
            ));
        }
        if out[idx].is_some() {
            return Err(format!("param override `{arg}`: `{name}` is set twice"));
        }
        let kind = params[idx].kind;
        // A long value (a range read from a file) is shown by its start,
        // on one line.
        let arg = arg.replace('\n', "\\n");
        let arg = match arg.char_indices().nth(SHOWN_CHARS) {
            Some((end, _)) => format!("{}…", &arg[..end]),
            None => arg,
        };
        out[idx] = Some(parse_value(kind, value).map_err(|e| match kind {
            ParamKind::Bool => format!("param override `{arg}`: `{name}` is {}", kind.expected()),
            ParamKind::Int => format!("param override `{arg}`: `{name}` is {}; {}", kind.expected(), e.message),
            ParamKind::Cards | ParamKind::Range => {
                let before = &value[..e.start.min(value.len())];
                let at = match before.rfind('\n') {
                    Some(nl) => {
                        let (line, column) = (before.matches('\n').count() + 1, before[nl + 1..].chars().count() + 1);
                        format!("line {line}, character {column}")
                    }
                    None => format!("character {}", before.chars().count() + 1),
                };
                format!("param override `{arg}`: `{name}` is {}; {} (at {at} of the value)", kind.expected(), e.message)
            }
        })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(kind: ParamKind, arg: &str) -> Result<ParamValue, String> {
        let specs = [ParamSpec { name: "x", kind, constant: false }];
        parse_overrides("g", &specs, &[arg.to_string()]).map(|mut v| v.remove(0).expect("given"))
    }

    /// Boards and ranges are read in players' notation, and a bad one is
    /// named with where it is in the value.
    #[test]
    fn boards_and_ranges_are_read_and_bad_ones_located() {
        let board = parse(ParamKind::Cards, "x=Td9d6hQc").expect("a board");
        assert_eq!(board.to_string(), "Td9d6hQc");
        let range = parse(ParamKind::Range, "x=AKs:0.5").expect("a range");
        assert_eq!(range.to_string(), "AKs:0.5");
        assert_eq!(
            parse(ParamKind::Range, "x=QQ+,AQx").unwrap_err(),
            "param override `x=QQ+,AQx`: `x` is a range, written as `QQ-22,AKs,ATo+:0.5`; `AQx` is not a range \
             item: after the two ranks comes `s`, `o`, `+` or nothing (at character 5 of the value)"
        );
        assert!(parse(ParamKind::Cards, "x=Td9x").unwrap_err().contains("`9x` is not a card"));
        // A value of several lines (read from a file) is located by line,
        // and a long one shown by its start.
        let lines = parse(ParamKind::Range, "x=QQ+,\n  AKs,AQx").unwrap_err();
        assert!(lines.starts_with("param override `x=QQ+,\\n  AKs,AQx`: "), "{lines}");
        assert!(lines.ends_with("(at line 2, character 7 of the value)"), "{lines}");
        let long = format!("x={}AQx", "AKs,".repeat(20));
        let err = parse(ParamKind::Range, &long).unwrap_err();
        assert!(err.starts_with(&format!("param override `{}…`: ", &long[..60])), "{err}");
        assert!(err.ends_with("(at character 81 of the value)"), "{err}");
        assert_eq!(
            parse(ParamKind::Bool, "x=yes").unwrap_err(),
            "param override `x=yes`: `x` is a bool; give `true` or `false`"
        );
    }
}
