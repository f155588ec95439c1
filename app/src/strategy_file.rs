//! Strategy files: the profile `solve --out` writes, read back by `solve
//! --strategy`. A file is checked against the game it is given with: the
//! game's name and params, every information set and every action must be
//! the game's own, so that a profile of another game or of other params is
//! refused with the first mismatch named, never evaluated silently.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use galac_runtime::game::GameInfo;
use galac_runtime::ids::{IdSlice, IdVec, InfosetId};
use galac_runtime::tree::Tree;
use galac_solvers::Profile;

/// The largest strategy file read (a profile of a few million sets).
const MAX_STRATEGY_BYTES: u64 = 1 << 30;

/// A profile read from a file, and how much of it the file gave.
pub struct LoadedProfile {
    pub profile: Profile,
    /// Information sets the file did not list (uniform play there); only
    /// non-empty when a partial profile was allowed.
    pub filled: Vec<InfosetId>,
}

/// Reads a profile written by `--out` and matches it to the tree's sets
/// (`labels`: the sets' unique labels). Sets missing from the file are an
/// error unless `allow_partial`, when they get uniform play.
///
/// The JSON is read in one pass straight into the profile (no document
/// tree: that would take tens of times the file's size), so a read holds
/// the file, the profile and one set's entry at a time.
pub fn read(
    path: &std::path::Path,
    info: &GameInfo,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    allow_partial: bool,
) -> Result<LoadedProfile, String> {
    let bytes = crate::read_bounded(path, MAX_STRATEGY_BYTES)?;
    parse(&bytes, &path.display().to_string(), info, tree, labels, allow_partial)
}

/// The sets a strategy file is read into: a tree's information sets, or
/// a public game's pairs of a decision and a private state (`play` on the
/// turn). Sets are numbered as their labels are.
pub trait SetTarget {
    /// The actions of `set`, in order.
    fn action_labels(&self, set: InfosetId) -> &[String];
    /// Uniform play over every set.
    fn uniform(&self) -> Profile;
}

impl SetTarget for Tree {
    fn action_labels(&self, set: InfosetId) -> &[String] {
        Tree::action_labels(self, set)
    }

    fn uniform(&self) -> Profile {
        Profile::uniform(self)
    }
}

/// [`read`] into any [`SetTarget`].
pub fn read_into(
    path: &std::path::Path,
    info: &GameInfo,
    sets: &dyn SetTarget,
    labels: &IdSlice<InfosetId, String>,
    allow_partial: bool,
) -> Result<LoadedProfile, String> {
    let bytes = crate::read_bounded(path, MAX_STRATEGY_BYTES)?;
    parse(&bytes, &path.display().to_string(), info, sets, labels, allow_partial)
}

/// [`read`] on the file's bytes (`file`: its name, for messages).
pub fn parse(
    bytes: &[u8],
    file: &str,
    info: &GameInfo,
    tree: &dyn SetTarget,
    labels: &IdSlice<InfosetId, String>,
    allow_partial: bool,
) -> Result<LoadedProfile, String> {
    // Answers write cards as cards (`Qc`); a file written before they did
    // keys them `card(10, 3)`: both are read.
    let written: Vec<(String, InfosetId)> = labels
        .iter_enumerated()
        .filter(|(_, l)| l.contains("card("))
        .map(|(set, l)| (crate::cards::standard(l), set))
        .collect();
    let sets: HashMap<&str, InfosetId> = labels
        .iter_enumerated()
        .map(|(set, l)| (l.as_str(), set))
        .chain(written.iter().map(|(l, set)| (l.as_str(), *set)))
        .collect();
    let mut reading = Reading {
        info,
        tree,
        sets: &sets,
        profile: tree.uniform(),
        seen: IdVec::from(vec![false; labels.len()]),
        game: None,
        params: None,
        program: None,
        strategy: false,
        why: None,
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = (&mut reading).deserialize(&mut de).and_then(|()| de.end());
    if let Err(e) = read {
        return Err(match (reading.why.take(), e.classify()) {
            // Our own message, with where in the file it arose.
            (Some(why), _) => format!("`{file}`: {why} (line {}, column {})", e.line(), e.column()),
            (None, serde_json::error::Category::Data) => format!("`{file}` is not a strategy file: {e}"),
            (None, _) => format!("`{file}` is not valid JSON: {e}"),
        });
    }
    reading.check_game().map_err(|e| format!("`{file}` {e}"))?;
    if !reading.strategy {
        return Err(format!("`{file}` has no \"strategy\" object"));
    }
    let mut filled = Vec::new();
    for (set, label) in labels.iter_enumerated() {
        if !reading.seen[set] {
            if !allow_partial {
                return Err(format!(
                    "`{file}` has no strategy for the information set \"{}\"",
                    crate::cards::standard(label)
                ));
            }
            filled.push(set);
        }
    }
    Ok(LoadedProfile { profile: reading.profile, filled })
}

/// The state of one pass over a strategy file.
struct Reading<'a> {
    info: &'a GameInfo,
    tree: &'a dyn SetTarget,
    /// Each information set by its label.
    sets: &'a HashMap<&'a str, InfosetId>,
    profile: Profile,
    /// The sets the file gave.
    seen: IdVec<InfosetId, bool>,
    game: Option<serde_json::Value>,
    params: Option<serde_json::Value>,
    program: Option<serde_json::Value>,
    /// Whether the `strategy` object was met.
    strategy: bool,
    /// Why the pass stopped, when it was our check and not the JSON.
    why: Option<String>,
}

impl Reading<'_> {
    /// A data error that keeps `why` as the message the user sees.
    fn fail<E: serde::de::Error>(&mut self, why: String) -> E {
        let e = E::custom(&why);
        self.why = Some(why);
        e
    }

    /// The file's `game`, `program` and `params` against the game's: a
    /// file without them (hand-written) is taken as meant for this game.
    fn check_game(&self) -> Result<(), String> {
        let info = self.info;
        if let Some(name) = &self.game {
            if name.as_str() != Some(info.name.as_str()) {
                return Err(format!("is a strategy for the game {name}, not `{}`", info.name));
            }
        }
        // Then the version of the game's program.
        if let Some(program) = &self.program {
            if program.as_str() != Some(crate::report::program_hex(info).as_str()) {
                return Err(format!(
                    "was made for another version of `{}`: the rules of the program differ (solve it again)",
                    info.name
                ));
            }
        }
        let Some(params) = &self.params else { return Ok(()) };
        let params = params.as_object().ok_or("has a \"params\" entry that is not an object")?;
        for (name, value) in &info.params {
            let theirs = params.get(name).map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            });
            match theirs {
                Some(v) if v == *value => {}
                Some(v) => return Err(format!("was made with param {name}={v}, and this game has {name}={value}")),
                None => return Err(format!("does not give param `{name}` (this game has {name}={value})")),
            }
        }
        if let Some(extra) = params.keys().find(|k| !info.params.iter().any(|(n, _)| n == *k)) {
            return Err(format!("gives param `{extra}`, which this game does not have"));
        }
        Ok(())
    }

    /// One set's entry, `{action: probability, ...}`, into the profile.
    fn set_entry<'de, A: MapAccess<'de>>(&mut self, set: InfosetId, label: &str, map: &mut A) -> Result<(), A::Error> {
        let names = self.tree.action_labels(set);
        let mut given = vec![None; names.len()];
        while let Some(action) = map.next_key::<Cow<'de, str>>()? {
            let Some(a) = names.iter().position(|n| *n == action) else {
                let why = format!(
                    "the strategy at \"{label}\" names action \"{action}\", which is not one of {}",
                    names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
                );
                return Err(self.fail(why));
            };
            let x: serde_json::Value = map.next_value()?;
            let Some(x) = x.as_f64() else {
                let why = format!("the strategy gives no probability to action \"{action}\" at \"{label}\"");
                return Err(self.fail(why));
            };
            given[a] = Some(x);
        }
        let mut total = 0.0;
        for (a, name) in names.iter().enumerate() {
            let Some(x) = given[a] else {
                let why = format!("the strategy gives no probability to action \"{name}\" at \"{label}\"");
                return Err(self.fail(why));
            };
            if !(0.0..=1.0 + 1e-9).contains(&x) {
                return Err(self.fail(format!("probability {x} of \"{name}\" at \"{label}\" is not in [0, 1]")));
            }
            total += x;
        }
        if (total - 1.0).abs() > 1e-6 {
            return Err(self.fail(format!("the probabilities at \"{label}\" sum to {total}, not 1")));
        }
        let probs = self.profile.probs_mut(set);
        for (p, x) in probs.iter_mut().zip(given) {
            *p = x.unwrap_or_default();
        }
        self.seen[set] = true;
        Ok(())
    }
}

/// The top-level object: `game` and `params` kept (small), `strategy`
/// read set by set, anything else skipped.
impl<'de> DeserializeSeed<'de> for &mut Reading<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut Reading<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a strategy file: an object with a \"strategy\" object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "game" => self.game = Some(map.next_value()?),
                "params" => self.params = Some(map.next_value()?),
                "program" => self.program = Some(map.next_value()?),
                "strategy" => {
                    // A strategy of another game fails here with the game
                    // named, not at its first foreign set.
                    if let Err(e) = self.check_game() {
                        return Err(self.fail(e));
                    }
                    map.next_value_seed(Sets(&mut *self))?;
                    self.strategy = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `strategy` object: `{set label: entry, ...}`.
struct Sets<'r, 'a>(&'r mut Reading<'a>);

impl<'de> DeserializeSeed<'de> for Sets<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Sets<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a \"strategy\" object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let reading = self.0;
        while let Some(label) = map.next_key::<Cow<'de, str>>()? {
            let Some(&set) = reading.sets.get(label.as_ref()) else {
                let why = format!("gives a strategy for \"{label}\", which is not an information set of this game");
                return Err(reading.fail(why));
            };
            map.next_value_seed(Entry { reading: &mut *reading, set, label: &label })?;
        }
        Ok(())
    }
}

/// One set's entry.
struct Entry<'r, 'a, 'l> {
    reading: &'r mut Reading<'a>,
    set: InfosetId,
    label: &'l str,
}

impl<'de> DeserializeSeed<'de> for Entry<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Entry<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "the strategy at \"{}\" as an object of action probabilities", self.label)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.reading.set_entry(self.set, self.label, &mut map)
    }
}
