//! Strategy files: the profile `solve --out` writes, read back by `solve
//! --strategy`. A file is checked against the game it is given with: the
//! game's name and params, every information set and every action must be
//! the game's own, so that a profile of another game or of other params is
//! refused with the first mismatch named, never evaluated silently.

use galac_runtime::game::GameInfo;
use galac_runtime::ids::{IdSlice, InfosetId};
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
pub fn read(
    path: &std::path::Path,
    info: &GameInfo,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    allow_partial: bool,
) -> Result<LoadedProfile, String> {
    let bytes = crate::read_bounded(path, MAX_STRATEGY_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("`{}` is not UTF-8 text", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("`{}` is not valid JSON: {e}", path.display()))?;
    let file = path.display();
    check_game(&json, info).map_err(|e| format!("`{file}` {e}"))?;
    let strategy = json
        .get("strategy")
        .and_then(|s| s.as_object())
        .ok_or_else(|| format!("`{file}` has no \"strategy\" object"))?;
    let known: std::collections::HashSet<&str> = labels.iter().map(String::as_str).collect();
    if let Some(unknown) = strategy.keys().find(|k| !known.contains(k.as_str())) {
        return Err(format!(
            "`{file}` gives a strategy for \"{unknown}\", which is not an information set of this game"
        ));
    }
    let mut profile = Profile::uniform(tree);
    let mut filled = Vec::new();
    for (set, label) in labels.iter_enumerated() {
        let Some(entry) = strategy.get(label) else {
            if allow_partial {
                filled.push(set);
                continue;
            }
            return Err(format!("`{file}` has no strategy for the information set \"{label}\""));
        };
        let acts = entry.as_object().ok_or_else(|| format!("the strategy at \"{label}\" is not an object"))?;
        let names = tree.action_labels(set);
        if let Some(unknown) = acts.keys().find(|a| !names.contains(a)) {
            return Err(format!(
                "the strategy at \"{label}\" names action \"{unknown}\", which is not one of {}",
                names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
            ));
        }
        let probs = profile.probs_mut(set);
        let mut total = 0.0;
        for (a, name) in names.iter().enumerate() {
            let x = acts
                .get(name)
                .and_then(|v| v.as_f64())
                .ok_or_else(|| format!("the strategy gives no probability to action \"{name}\" at \"{label}\""))?;
            if !(0.0..=1.0 + 1e-9).contains(&x) {
                return Err(format!("probability {x} of \"{name}\" at \"{label}\" is not in [0, 1]"));
            }
            probs[a] = x;
            total += x;
        }
        if (total - 1.0).abs() > 1e-6 {
            return Err(format!("the probabilities at \"{label}\" sum to {total}, not 1"));
        }
    }
    Ok(LoadedProfile { profile, filled })
}

/// The file's `game` and `params` against the game's: a file without them
/// (hand-written) is taken as meant for this game.
fn check_game(json: &serde_json::Value, info: &GameInfo) -> Result<(), String> {
    if let Some(name) = json.get("game") {
        if name.as_str() != Some(info.name.as_str()) {
            return Err(format!("is a strategy for the game {name}, not `{}`", info.name));
        }
    }
    let Some(params) = json.get("params") else { return Ok(()) };
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
