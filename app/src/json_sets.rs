//! A JSON answer's strategy map written set by set straight to the
//! answer's writer ([`crate::report::Strategy::Sets`]: vector CFR's, a set
//! per public decision and private state, too many to hold).
//! A set's label is written from pieces escaped once each (a private
//! state's, a public line's), never joined into one string, and its
//! actions' keys once per decision; the bytes are those serde_json writes
//! for the joined label and the actions' map, as every other strategy.

use std::io::{self, Write};

use crate::report::{SolveJson, Strategy};

/// A string's JSON contents (between its quotes), as serde_json escapes
/// it. Escaping goes character by character, so the contents of a
/// string are those of its pieces one after another: a label is written
/// from its pieces' [`Escaped`] without escaping it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escaped(String);

impl Escaped {
    /// `text` escaped by serde_json itself.
    pub fn new(text: &str) -> Escaped {
        // A string's JSON is its contents between two quotes, which
        // escaping never yields bare inside: the quotes are its first and
        // last bytes.
        let quoted = serde_json::Value::from(text).to_string();
        Escaped(quoted[1..quoted.len() - 1].to_string())
    }
}

/// Bytes gathered before they go to the writer in one call.
const FLUSH_AT: usize = 1 << 13;

/// Writes a strategy map, `{"label":{"action":p,...},...}`, a set at a
/// time ([`SetWriter::set`]), to `out`; [`SetWriter::finish`] closes it.
pub struct SetWriter<'w> {
    out: &'w mut dyn Write,
    /// What is written but not yet given to `out`.
    buf: Vec<u8>,
    /// Whether a set was written (the next one follows a comma).
    any: bool,
}

impl<'w> SetWriter<'w> {
    /// Opens the map on `out`.
    pub fn new(out: &'w mut dyn Write) -> SetWriter<'w> {
        let mut buf = Vec::with_capacity(2 * FLUSH_AT);
        buf.push(b'{');
        SetWriter { out, buf, any: false }
    }

    /// One set: its label (the contents of `label`'s pieces one after
    /// another), each action of `actions` with its probability in `probs`
    /// (written as serde_json writes an `f64`).
    pub fn set(&mut self, label: &[&Escaped], actions: &[Escaped], probs: &[f64]) -> io::Result<()> {
        let buf = &mut self.buf;
        if self.any {
            buf.push(b',');
        }
        self.any = true;
        buf.push(b'"');
        for piece in label {
            buf.extend_from_slice(piece.0.as_bytes());
        }
        buf.extend_from_slice(b"\":{");
        for (a, (action, p)) in actions.iter().zip(probs).enumerate() {
            if a > 0 {
                buf.push(b',');
            }
            buf.push(b'"');
            buf.extend_from_slice(action.0.as_bytes());
            buf.extend_from_slice(b"\":");
            serde::Serialize::serialize(p, &mut serde_json::Serializer::new(&mut *buf))?;
        }
        buf.push(b'}');
        if buf.len() >= FLUSH_AT {
            self.out.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    }

    /// Closes the map and gives the rest to the writer.
    pub fn finish(mut self) -> io::Result<()> {
        self.buf.push(b'}');
        self.out.write_all(&self.buf)
    }
}

impl crate::answer::Json for SolveJson<'_> {
    /// Through serde, but for [`Strategy::Sets`], written straight to `w`
    /// between the head's keys and the tail's: the bytes serde would
    /// write for the same keys (the compact format's object is `{`, its
    /// entries joined by commas, `}`).
    fn write_json(&self, w: &mut dyn Write) -> serde_json::Result<()> {
        let Strategy::Sets(sets) = self.strategy else { return serde_json::to_writer(w, self) };
        // `{` and the head's entries (a few keys) with the comma that joins
        // them to the strategy, then the tail's, written as serialised (its
        // hands' grids are the larger part).
        let head = serde_json::to_vec(&self.head)?;
        let head = if head.len() > 2 { [&head[..head.len() - 1], b","].concat() } else { b"{".to_vec() };
        w.write_all(&head).map_err(serde_json::Error::io)?;
        w.write_all(b"\"strategy\":").map_err(serde_json::Error::io)?;
        sets(w).map_err(serde_json::Error::io)?;
        serde_json::to_writer(Following { out: w, opened: false, joined: false }, &self.tail)
    }

    fn json_value(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::to_value(self)
    }
}

/// An object's JSON written as the entries after others in an object
/// being written: its `{` dropped, a comma before its first entry (none
/// when it has none: `}` follows the `{` at once).
struct Following<'w> {
    out: &'w mut dyn Write,
    /// Whether the `{` was seen.
    opened: bool,
    /// Whether what follows the `{` was seen (and the comma written when
    /// it is an entry).
    joined: bool,
}

impl Write for Following<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        if !self.opened && !rest.is_empty() {
            if rest[0] != b'{' {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "the keys after the strategy are no object"));
            }
            self.opened = true;
            rest = &rest[1..];
        }
        if self.opened && !self.joined && !rest.is_empty() {
            self.joined = true;
            if rest[0] != b'}' {
                self.out.write_all(b",")?;
            }
        }
        self.out.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_written_as_serde_writes_their_joined_labels() {
        let labels = [["oop: \"a\"\\", ", ", "Check\n\tBet é"], ["", "", ""], ["x\u{1}", "", "y"]];
        let actions = ["Check", "Bet(\"1\")"];
        let probs: [&[f64]; 3] = [&[0.25, 0.75], &[1.0 / 3.0, f64::NAN], &[0.0, 1e-300]];
        let mut written = Vec::new();
        let mut sets = SetWriter::new(&mut written);
        let escaped: Vec<Escaped> = actions.iter().map(|a| Escaped::new(a)).collect();
        for (label, p) in labels.iter().zip(probs) {
            let pieces: Vec<Escaped> = label.iter().map(|l| Escaped::new(l)).collect();
            sets.set(&pieces.iter().collect::<Vec<_>>(), &escaped, p).unwrap();
        }
        sets.finish().unwrap();
        let mut expected = serde_json::Map::new();
        for (label, p) in labels.iter().zip(probs) {
            let probs = actions.iter().zip(p).map(|(a, &p)| (a.to_string(), serde_json::json!(p))).collect();
            expected.insert(label.concat(), serde_json::Value::Object(probs));
        }
        assert_eq!(String::from_utf8(written).unwrap(), serde_json::Value::Object(expected).to_string());
        let mut empty = Vec::new();
        SetWriter::new(&mut empty).finish().unwrap();
        assert_eq!(empty, b"{}");
    }

    /// An answer with its sets written by [`SetWriter`] is, byte for byte,
    /// the same answer with the sets given whole to serde, with keys after
    /// the strategy and without.
    #[test]
    fn an_answer_written_set_by_set_is_the_one_serde_writes() {
        use crate::report::{SolveHead, SolveTail};
        use galac_solvers::double_oracle::LabelledSet;
        let labelled = |label: &str, actions: &[&str], probs: &[f64]| LabelledSet {
            player: galac_runtime::ids::PlayerId::from(0usize),
            label: label.to_string(),
            actions: actions.iter().map(|a| a.to_string()).collect(),
            probs: probs.to_vec(),
        };
        let sets = [
            labelled("oop: hand([card(12, 0), card(0, 3)]), Check 2s", &["Check", "Bet(100)"], &[0.5, 0.5]),
            labelled("ip: \"q\" card(1, 1)", &["Fold"], &[1.0]),
        ];
        let by_set = |w: &mut dyn Write| {
            let mut out = SetWriter::new(w);
            for set in &sets {
                let actions: Vec<Escaped> = set.actions.iter().map(|a| Escaped::new(a)).collect();
                out.set(&[&Escaped::new(&crate::cards::standard(&set.label))], &actions, &set.probs)?;
            }
            out.finish()
        };
        let findings: crate::registry::solved::Fields =
            [("public_game".to_string(), serde_json::json!([1]))].into_iter().collect();
        let notes = ["a note".to_string()];
        for tail in [false, true] {
            let answer = |strategy| SolveJson {
                head: SolveHead {
                    schema: crate::report::SOLVE_SCHEMA,
                    game: "g",
                    params: serde_json::json!({"n": 1}),
                    program: "00".into(),
                    solver: "vcfr",
                    notes: &notes,
                    value: None,
                    value_bounds: None,
                    exploitability: Some(0.5),
                    best_response: None,
                    nodes: None,
                    infosets: None,
                    seconds: serde_json::Map::new(),
                    unreached: None,
                },
                strategy,
                tail: SolveTail {
                    hands: None,
                    curve: None,
                    findings: tail.then_some(&findings),
                    exact: None,
                    note: tail.then_some("n"),
                },
            };
            let written = |a: &SolveJson| {
                let mut w = Vec::new();
                crate::answer::Json::write_json(a, &mut w).unwrap();
                String::from_utf8(w).unwrap()
            };
            let whole = written(&answer(Strategy::Labelled(&sets)));
            assert_eq!(written(&answer(Strategy::Sets(&by_set))), whole);
            assert!(
                whole.contains("\"oop: hand([As, 2c]), Check 2s\":{")
                    && whole.ends_with(if tail { "\"n\"}" } else { "}}" })
            );
            // serde itself refuses a strategy it cannot write.
            assert!(serde_json::to_vec(&answer(Strategy::Sets(&by_set))).is_err());
        }
    }
}
