//! Lemke's algorithm on the sequence form (`--solver lemke`, two-player
//! games with any payoffs): its run and its findings (payoffs, regrets,
//! pivots).

use galac_runtime::tree::Tree;
use galac_solvers::lemke;
use galac_solvers::solver::{Control, Progress, Solution};

use super::solved::{fields, with_hint, Context, Solved};

/// Lemke's own fields of the `solve` JSON answer.
#[derive(serde::Serialize)]
pub struct Findings {
    /// Both players' expected payoffs under the profile.
    pub payoffs: [f64; 2],
    /// Each player's regret (best-response value minus payoff).
    pub regret: [f64; 2],
    pub pivots: u64,
}
json_answers!(Findings);

/// The registry's `lemke` row.
pub fn run(tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let sol = {
        let _watch = cx.limits.watch("Lemke's algorithm");
        // Asked every 64 pivots: stops at the caller's cancel.
        let cancel = cx.limits.cancel.clone();
        let mut until_cancelled = |_: &Progress| {
            if galac_runtime::cancel::requested(cancel.as_ref()) {
                Control::Stop
            } else {
                Control::Continue
            }
        };
        lemke::solve(tree, &mut until_cancelled)
    }
    .map_err(|e| with_hint(&e))?;
    let notes = vec![
        format!("pivots: {}", sol.pivots),
        format!("regret per player (best response check): {:.3e}, {:.3e}", sol.regret[0], sol.regret[1]),
    ];
    Ok(Solved {
        solution: Solution {
            profile: sol.profile,
            unreached: sol.unreached,
            phases: vec![("build LCP", sol.build_seconds), ("pivot", sol.solve_seconds)],
            stopped: false,
        },
        name: "lemke (sequence form)".into(),
        notes,
        curve: None,
        findings: Some(fields(&Findings { payoffs: sol.payoffs, regret: sol.regret, pivots: sol.pivots })?),
        distributed: None,
    })
}
