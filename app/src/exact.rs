//! `solve --exact`: the answer's exact section. The profile is made exact
//! (solved on its supports, or rounded to fractions) and checked in exact arithmetic
//! ([`galac_solvers::exact::certify`]); the report gives the value as a
//! fraction when the rounded profile is an exact equilibrium, otherwise an
//! exact interval holding it (two-player constant-sum games) and the exact
//! exploitability of the rounded profile.

use galac_runtime::game::GameInfo;
use galac_runtime::ids::{IdSlice, InfosetId};
use galac_runtime::tree::Tree;
use galac_solvers::exact::{certify, Certificate};
use galac_solvers::lp::{Backend, LpSolver};
use galac_solvers::solver::{RunToEnd, Solver};
use galac_solvers::Profile;

/// The text lines and the JSON value (key `exact`) of the exact section.
/// With `retry`, a two-player constant-sum game whose answer does not round
/// to an exact equilibrium is solved again by the simplex backend, whose
/// vertex answers are rational and usually round exactly (an interior-point
/// answer lies inside a face of equilibria and rarely does).
pub fn section(
    tree: &Tree,
    profile: &Profile,
    labels: &IdSlice<InfosetId, String>,
    info: &GameInfo,
    retry: bool,
) -> (String, ExactJson) {
    let mut cert = certify(tree, profile);
    let mut note = String::new();
    if retry && !cert.certified() && cert.interval.is_some() {
        let simplex = LpSolver { backend: Backend::Microlp, cancel: None };
        if let Ok(sol) = simplex.solve(tree, &mut RunToEnd) {
            let other = certify(tree, &sol.profile);
            if other.certified() || width(&other) < width(&cert) {
                note =
                    format!("  from the {} answer (the first did not round to an exact equilibrium)\n", simplex.name());
                cert = other;
            }
        }
    }
    let json = json(&cert, tree, labels, info, !note.is_empty());
    (text(&cert, info) + &note, json)
}

/// The width of a certificate's interval (the exact NashConv without one).
fn width(cert: &Certificate) -> galac_solvers::exact::Q {
    cert.interval.as_ref().map_or_else(|| cert.nash_conv.clone(), |(lo, hi)| hi - lo)
}

/// The section's text lines.
fn text(cert: &Certificate, info: &GameInfo) -> String {
    let values: Vec<String> = info.players.iter().zip(&cert.values).map(|(p, v)| format!("{p} {}", show(v))).collect();
    let mut out = String::new();
    if cert.certified() {
        // A certified value is the point of `--exact`: written in full, however long.
        let full: Vec<String> =
            info.players.iter().zip(&cert.values).map(|(p, v)| format!("{p} {}", full(v))).collect();
        out += &format!("exact value: {} (certified)\n", full.join(", "));
        if cert.solved {
            out += &format!(
                "  the equilibrium conditions on the answer's supports, solved in rationals (free unknowns rounded to denominators <= {}), give an exact equilibrium: every best response gains exactly 0\n",
                cert.max_denominator
            );
        } else {
            out += &format!(
                "  the profile rounded to denominators <= {} is an exact equilibrium: every best response gains exactly 0\n",
                cert.max_denominator
            );
        }
        if info.players.len() > 2 {
            out += "  (an equilibrium's payoffs; with three or more players other equilibria may pay otherwise)\n";
        }
        return out;
    }
    match &cert.interval {
        Some((lo, hi)) => {
            out += &format!("exact value: {} in [{}, {}] (not certified)\n", info.players[0], show(lo), show(hi));
        }
        None => out += "exact value: not certified (no exact bounds: the game is not two-player constant-sum)\n",
    }
    out += &format!(
        "  the rounded profile (denominators <= {}) pays {} and has exact NashConv {}\n",
        cert.max_denominator,
        values.join(", "),
        show(&cert.nash_conv)
    );
    if [&cert.nash_conv].into_iter().chain(&cert.values).any(|q| show(q).starts_with('~')) {
        out += "  (~: a fraction too long to show; the JSON answer has it)\n";
    }
    out
}

/// A fraction as written, followed by its decimal value when it is long.
fn full(q: &galac_solvers::exact::Q) -> String {
    let exact = q.to_string();
    if exact.len() <= 32 {
        return exact;
    }
    format!("{exact} (~{:.12e})", galac_solvers::exact::to_f64(q))
}

/// A fraction as written, or `~` and its decimal value when it is long.
fn show(q: &galac_solvers::exact::Q) -> String {
    let exact = q.to_string();
    if exact.len() <= 32 {
        return exact;
    }
    format!("~{:.12e}", galac_solvers::exact::to_f64(q))
}

/// The `exact` section of the `solve` JSON answer: fractions as text.
#[derive(serde::Serialize)]
pub struct ExactJson {
    pub certified: bool,
    /// Per player, in the game's order.
    pub value: serde_json::Map<String, serde_json::Value>,
    pub best_response: serde_json::Map<String, serde_json::Value>,
    pub nash_conv: String,
    /// An exact interval that holds the first player's value, when not certified.
    pub interval: Option<[String; 2]>,
    pub max_denominator: u64,
    /// `support` (solved exactly on the supports) or `rounding`.
    pub method: &'static str,
    /// Each set's label to its actions' probabilities.
    pub strategy: serde_json::Map<String, serde_json::Value>,
    /// The answer certified is the simplex's, the first one's did not round.
    pub resolved_by_simplex: bool,
}

/// The section's JSON value.
fn json(
    cert: &Certificate,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    info: &GameInfo,
    resolved: bool,
) -> ExactJson {
    let per_player = |xs: &[galac_solvers::exact::Q]| -> serde_json::Map<String, serde_json::Value> {
        info.players.iter().zip(xs).map(|(p, v)| (p.clone(), v.to_string().into())).collect()
    };
    let strategy: serde_json::Map<String, serde_json::Value> = cert
        .probs
        .iter_enumerated()
        .map(|(set, probs)| {
            let acts: serde_json::Map<String, serde_json::Value> =
                tree.action_labels(set).iter().zip(probs).map(|(a, x)| (a.clone(), x.to_string().into())).collect();
            (labels[set].clone(), serde_json::Value::Object(acts))
        })
        .collect();
    ExactJson {
        certified: cert.certified(),
        value: per_player(&cert.values),
        best_response: per_player(&cert.best_response),
        nash_conv: cert.nash_conv.to_string(),
        interval: cert.interval.as_ref().map(|(lo, hi)| [lo.to_string(), hi.to_string()]),
        max_denominator: cert.max_denominator,
        method: if cert.solved { "support" } else { "rounding" },
        strategy,
        resolved_by_simplex: resolved,
    }
}
