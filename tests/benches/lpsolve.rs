//! Benchmark of solving with the sequence-form LP, per LP backend: tree
//! generation, sequence form, LP build and LP solve times, the value and
//! the exploitability (NashConv) of the answer.
//!
//! ```text
//! cargo bench -p galac-tests --bench lpsolve                 # every case, every backend
//! cargo bench -p galac-tests --bench lpsolve -- leduc        # some cases, by name
//! cargo bench -p galac-tests --bench lpsolve -- liars --write-lp DIR
//! cargo bench -p galac-tests --bench lpsolve -- leduc13 --backend clarabel-pub   # one backend
//! ```
//!
//! `clarabel-pub` and `highs-pub` are the public LP
//! (`galac_solvers::lp_public`) of a case in vector CFR's class by that
//! engine; their "sf s" is the public game's derivation from the tree.
//!
//! `--write-lp DIR` also writes each case's LP as HiGHS gets it to
//! `DIR/CASE.lp.txt` (`galac_solvers::lp::write_highs_model`), and its
//! public LP to `DIR/CASE.pub.lp.txt`, which
//! `bench/lp_scipy.py` solves with scipy's HiGHS (`bench/lp_side_by_side.sh`
//! runs both). Times are wall seconds, plus the process's CPU seconds over
//! the LP solve.
//!
//! Each (case, backend) runs once (LP solves of the large cases take
//! seconds). The microlp simplex is skipped above `MICROLP_MAX_NODES` nodes,
//! where it takes minutes. Without `--bench` (as `cargo test --benches` runs
//! it) only Leduc is solved once, as a smoke test.

use std::time::Instant;

use galac_runtime::ids::PlayerId;
use galac_runtime::tree::{build, BuildOptions};
use galac_solvers::best_response::evaluate;
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::Profile;
use galac_tests::cpu_seconds;

struct Case {
    name: &'static str,
    file: &'static str,
    params: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case { name: "kuhn", file: "examples/kuhn.gala", params: &[] },
    Case { name: "leduc", file: "examples/leduc.gala", params: &[] },
    Case { name: "poker145k", file: "examples/poker.gala", params: &["suits=2", "ranks=10", "cash=6"] },
    Case { name: "poker248k", file: "examples/poker.gala", params: &["suits=2", "ranks=13", "cash=6"] },
    Case { name: "leduc13", file: "examples/leduc.gala", params: &["ranks=13"] },
    Case { name: "poker247k", file: "examples/poker.gala", params: &["suits=4", "ranks=13", "cash=4"] },
    Case { name: "liars", file: "examples/liars_dice.gala", params: &[] },
];

const MICROLP_MAX_NODES: usize = 200_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bench = args.iter().any(|a| a == "--bench");
    let write_lp = args.iter().position(|a| a == "--write-lp").and_then(|k| args.get(k + 1)).cloned();
    let only = args.iter().position(|a| a == "--backend").and_then(|k| args.get(k + 1)).cloned();
    let wanted: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with("--") && Some(*a) != write_lp.as_ref() && Some(*a) != only.as_ref())
        .collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    println!(
        "{:<10} {:>9} {:<9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>13} {:>10}",
        "case", "nodes", "backend", "gen s", "sf s", "build s", "solve s", "cpu s", "value", "NashConv"
    );
    for case in CASES {
        if !bench && case.name != "leduc" || !wanted.is_empty() && !wanted.iter().any(|w| *w == case.name) {
            continue;
        }
        let src = std::fs::read(root.join(case.file)).expect("example file");
        let params: Vec<String> = case.params.iter().map(|s| s.to_string()).collect();
        let game = galac_compiler::driver::load_interp(case.file, &src, &params).expect("valid example");
        let t = Instant::now();
        let (tree, _, _) = build(&game, &BuildOptions { labels: false, ..BuildOptions::default() }).expect("tree");
        let gen = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let sf = SequenceForm::new(&tree).expect("two-player zero-sum");
        let sf_secs = t.elapsed().as_secs_f64();
        if let Some(dir) = &write_lp {
            let path = std::path::Path::new(dir).join(format!("{}.lp.txt", case.name));
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("writable --write-lp DIR"));
            lp::write_highs_model(&sf, &mut out).expect("LP written");
        }
        for &backend in Backend::ALL {
            if backend == Backend::Microlp && tree.n_nodes() > MICROLP_MAX_NODES
                || !bench && backend != Backend::Clarabel
                || only.as_ref().is_some_and(|b| b != backend.name())
            {
                continue;
            }
            let cpu = cpu_seconds();
            let sol = match lp::solve(&sf, backend, None) {
                Ok(s) => s,
                Err(e) => {
                    println!("{:<10} {:>9} {:<9} failed: {e}", case.name, tree.n_nodes(), backend.name());
                    continue;
                }
            };
            let cpu = cpu_seconds() - cpu;
            let mut profile = Profile::uniform(&tree);
            sf.behaviour(&tree, PlayerId(0), &sol.plans[0], &mut profile);
            sf.behaviour(&tree, PlayerId(1), &sol.plans[1], &mut profile);
            let eval = evaluate(&tree, &profile);
            println!(
                "{:<10} {:>9} {:<9} {:>8.4} {:>8.4} {:>8.4} {:>8.3} {:>8.2} {:>13.9} {:>10.2e}",
                case.name,
                tree.n_nodes(),
                backend.name(),
                gen,
                sf_secs,
                sol.build_seconds,
                sol.solve_seconds,
                cpu,
                eval.values[0],
                eval.nash_conv
            );
        }
        for backend in [Backend::Clarabel, Backend::Highs] {
            let name = format!("{}-pub", backend.name());
            if bench && backend.available().is_ok() && only.as_ref().is_none_or(|b| *b == name) {
                public_lp(case.name, &tree, gen, backend, write_lp.as_deref());
            }
        }
    }
}

/// The public LP (`galac_solvers::lp_public`) of a case in vector CFR's
/// class by `backend`: its row says `clarabel-pub` or `highs-pub`, with
/// the public game's derivation as its "sf s" and the LP's size after it.
fn public_lp(name: &str, tree: &galac_runtime::tree::Tree, gen: f64, backend: Backend, write_lp: Option<&str>) {
    let t = Instant::now();
    let Ok(derived) = galac_solvers::vector::from_tree(tree) else {
        println!("{name:<10} {:>9} {}-pub: not in vector CFR's class", tree.n_nodes(), backend.name());
        return;
    };
    let derive = t.elapsed().as_secs_f64();
    let lp = galac_solvers::lp_public::PublicLp::new(&derived.game);
    // Written once (by the first engine's row).
    if let Some(dir) = write_lp.filter(|_| backend == Backend::Clarabel) {
        let path = std::path::Path::new(dir).join(format!("{name}.pub.lp.txt"));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("writable --write-lp DIR"));
        lp.write(&mut out).expect("LP written");
    }
    let cpu = cpu_seconds();
    let sol = match lp.solve(backend, None) {
        Ok(s) => s,
        Err(e) => {
            println!("{name:<10} {:>9} {}-pub failed: {e}", tree.n_nodes(), backend.name());
            return;
        }
    };
    let cpu = cpu_seconds() - cpu;
    let (profile, _) = lp.profile(tree, &derived, &sol.plans);
    let eval = evaluate(tree, &profile);
    let size = lp.size();
    println!(
        "{:<10} {:>9} {:<9} {:>8.4} {:>8.4} {:>8.4} {:>8.3} {:>8.2} {:>13.9} {:>10.2e}  ({} columns, {} rows, {} nonzeros; LP value {:.9})",
        name,
        tree.n_nodes(),
        format!("{}-pub", backend.name()),
        gen,
        derive,
        lp.build_seconds,
        sol.solve_seconds,
        cpu,
        eval.values[0],
        eval.nash_conv,
        size.columns,
        size.rows,
        size.nonzeros,
        sol.value
    );
}
