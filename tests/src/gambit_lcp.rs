//! Lemke's algorithm against Gambit's `lcp_solve` (through pygambit, same
//! conventions as `gambit.rs`) on small two-player general-sum trees: the
//! signalling example and random programs from the generator. Both may find
//! different equilibria, so each answer is checked to be an equilibrium on
//! galac's tree by the independent best response (Gambit's profile is read
//! back into the tree), and the payoffs are compared where they coincide.

use std::path::Path;
use std::process::Command;

use galac_app::formats::write_efg;
use galac_runtime::ids::InfosetId;
use galac_runtime::tree::{build, BuildOptions, NodeView, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::lemke;
use galac_solvers::solver::RunToEnd;
use galac_solvers::Profile;

use crate::gambit::python_with_pygambit;
use crate::repo_root;

use crate::progen;

/// Gambit's equilibrium: payoffs, its own max regret, and per player the
/// action probabilities of each information set in the file's order.
struct GambitAnswer {
    payoffs: Vec<f64>,
    regret: f64,
    sets: Vec<Vec<Vec<f64>>>,
}

fn gambit_lcp(python: &str, efg: &Path) -> Result<GambitAnswer, String> {
    let out = Command::new(python)
        .arg(repo_root().join("tests/interop/gambit_lcp.py"))
        .arg(efg)
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("gambit_lcp.py failed: {text}{}", String::from_utf8_lossy(&out.stderr)));
    }
    let mut answer = GambitAnswer { payoffs: Vec::new(), regret: f64::NAN, sets: vec![Vec::new(), Vec::new()] };
    let num = |s: &str| s.parse::<f64>().map_err(|e| format!("`{s}`: {e}"));
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["payoffs", rest @ ..] => answer.payoffs = rest.iter().map(|w| num(w)).collect::<Result<_, _>>()?,
            ["regret", r] => answer.regret = num(r)?,
            ["infoset", p, _k, probs @ ..] => {
                let p: usize = p.parse().map_err(|_| format!("bad line {line}"))?;
                answer.sets[p].push(probs.iter().map(|w| num(w)).collect::<Result<_, _>>()?);
            }
            _ => {}
        }
    }
    Ok(answer)
}

/// Gambit's behaviour strategies as a profile of galac's tree (the export
/// numbers each player's sets in galac's order).
fn profile_of(tree: &Tree, answer: &GambitAnswer) -> Result<Profile, String> {
    let mut profile = Profile::uniform(tree);
    for (set, info) in tree.infosets.iter().enumerate() {
        let probs = answer
            .sets
            .get(info.player.index())
            .and_then(|s| s.get(info.index_in_player as usize))
            .ok_or_else(|| format!("Gambit gave no strategy for set {set}"))?;
        if probs.len() != info.n_actions as usize {
            return Err(format!("set {set}: {} actions, Gambit gave {}", info.n_actions, probs.len()));
        }
        let total: f64 = probs.iter().sum();
        for (x, p) in profile.probs_mut(InfosetId::from_index(set)).iter_mut().zip(probs) {
            *x = if total > 0.0 { p / total } else { 1.0 / probs.len() as f64 };
        }
    }
    Ok(profile)
}

fn constant_sum(tree: &Tree) -> bool {
    let sums: Vec<i64> =
        tree.nodes().filter(|&v| tree.node(v) == NodeView::Terminal).map(|v| tree.payoffs(v).iter().sum()).collect();
    sums.windows(2).all(|w| w[0] == w[1])
}

/// Up to `want` random two-player general-sum trees of at most 3,000 nodes
/// with decisions of both players, from the program generator.
fn random_trees(want: usize) -> Vec<(String, Tree)> {
    let features =
        progen::Features::parse("-many_players,-large_enums,-deep_exprs,-deep_bool_exprs").expect("features");
    let mut out = Vec::new();
    for seed in 0..3000u64 {
        let generated = progen::program_with(seed, features);
        let Ok(game) =
            galac_compiler::driver::load_interp("random.gala", generated.source.as_bytes(), &generated.params)
        else {
            continue;
        };
        let opts = BuildOptions { labels: true, max_nodes: 3000, ..BuildOptions::default() };
        let Ok((tree, _, _)) = build(&game, &opts) else { continue };
        let stats = tree.stats();
        if tree.n_players == 2 && stats.decision_nodes.iter().all(|&d| d > 0) && !constant_sum(&tree) {
            out.push((format!("progen seed {seed}"), tree));
            if out.len() == want {
                break;
            }
        }
    }
    out
}

fn example(file: &str) -> (String, Tree) {
    let game = crate::games::load_interp(file, &[]).unwrap_or_else(|e| panic!("{e}"));
    let tree = build(&game, &BuildOptions { labels: true, ..BuildOptions::default() }).expect("tree").0;
    (file.to_string(), tree)
}

#[test]
fn lemke_and_gambit_lcp_both_find_equilibria() {
    let Some(python) = python_with_pygambit("lcp") else { return };
    let dir = std::env::temp_dir().join(format!("galac-gambit-lcp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut games = vec![example("beer_quiche.gala"), example("kuhn.gala")];
    let random = random_trees(10);
    assert!(random.len() >= 8, "the generator gave only {} two-player general-sum trees", random.len());
    games.extend(random);
    let (mut failures, mut same) = (Vec::new(), 0);
    for (i, (name, tree)) in games.iter().enumerate() {
        let scale = tree.nodes().flat_map(|v| tree.payoffs(v).iter().map(|x| (*x as f64).abs())).fold(1.0, f64::max);
        let ours = match lemke::solve(tree, &mut RunToEnd) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let efg = dir.join(format!("g{i}.efg"));
        let file = std::fs::File::create(&efg).expect("efg file");
        write_efg(tree, name, "galac-tests lcp interop", file).expect("efg written");
        let theirs = match gambit_lcp(&python, &efg).and_then(|a| profile_of(tree, &a).map(|p| (a, p))) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let (answer, profile) = theirs;
        let eval = evaluate(tree, &profile);
        if eval.nash_conv > 1e-6 * scale || answer.regret > 1e-6 * scale {
            failures.push(format!("{name}: Gambit's profile has NashConv {} on galac's tree", eval.nash_conv));
        }
        for p in 0..2 {
            if (eval.values[p] - answer.payoffs[p]).abs() > 1e-6 * scale {
                failures.push(format!("{name}: Gambit says {:?}, galac evaluates {:?}", answer.payoffs, eval.values));
            }
        }
        if ours.regret.iter().any(|r| r.abs() > 1e-9 * scale) {
            failures.push(format!("{name}: Lemke's regrets {:?}", ours.regret));
        }
        let agree = (0..2).all(|p| (ours.payoffs[p] - answer.payoffs[p]).abs() < 1e-6 * scale);
        same += usize::from(agree);
        eprintln!(
            "{name}: galac {:?}, gambit {:?}{}",
            ours.payoffs,
            answer.payoffs,
            if agree { "" } else { " (another equilibrium)" }
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    crate::announce(&format!(
        "gambit interop (lcp): ran with `{python}`: {} of {} games checked, {same} with the same equilibrium payoffs",
        games.len() - failures.len(),
        games.len()
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Without the dense tableau's lexicographic rule only the perturbation of
/// `q` keeps the factored pivoting off degenerate ties: on many random
/// general-sum trees (small integer payoffs, so degenerate) every answer is
/// an equilibrium by the independent best response. No Gambit needed.
#[test]
fn lemke_finds_equilibria_on_many_random_trees() {
    let games = random_trees(60);
    assert!(games.len() >= 40, "the generator gave only {} two-player general-sum trees", games.len());
    let mut failures = Vec::new();
    for (name, tree) in &games {
        let scale = tree.nodes().flat_map(|v| tree.payoffs(v).iter().map(|x| (*x as f64).abs())).fold(1.0, f64::max);
        match lemke::solve(tree, &mut RunToEnd) {
            Ok(sol) => {
                let eval = evaluate(tree, &sol.profile);
                for p in 0..2 {
                    let regret = eval.best_response[p] - eval.values[p];
                    if regret.abs() > 1e-9 * scale || (eval.values[p] - sol.payoffs[p]).abs() > 1e-9 * scale {
                        failures.push(format!("{name}: player {p} regret {regret}"));
                    }
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
