//! `tree`: generate the game tree and report its size.

use galac_runtime::game::Game;
use galac_runtime::tree::Stats;

use crate::{Format, LimitArgs};

#[derive(clap::Args, Debug, Clone)]
pub struct TreeArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Build the tree N times in this process and report the fastest
    /// build (for benchmarks: the first build of a process also pays for
    /// faulting its memory in and for cold caches).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Also write the tree, with its labels, to FILE in galac's binary tree
    /// format (docs/tree-format.md), for `solve --tree FILE` and
    /// `export --tree FILE` to read instead of building it again. On one
    /// thread the tree is written as it is built, so it need not fit in
    /// memory.
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
}

/// Generation times of the builds of one `tree` command, in order.
#[derive(Clone, Debug)]
pub struct Timing {
    pub builds: Vec<f64>,
}

impl Timing {
    /// The fastest build: the one reported as the generation time.
    pub fn best(&self) -> f64 {
        self.builds.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// The middle build (the mean of the two middle ones for an even count).
    pub fn median(&self) -> f64 {
        let mut sorted = self.builds.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        }
    }
}

pub fn run<G: Game>(game: &G, args: &TreeArgs, make: crate::Maker<G>) -> i32 {
    if let Some(path) = &args.save {
        if let Err(e) = crate::check_writable(path) {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return 1;
        }
    }
    match &args.save {
        // Saved as it is built, unless it is read from a file or written
        // to something other than a file (standard output, a device: the
        // streamed save seeks and reads back).
        Some(path)
            if args.limits.tree.is_none()
                && path != std::path::Path::new("-")
                && (path.is_file() || !path.exists()) =>
        {
            run_saving(game, args, make, path)
        }
        _ => run_in_memory(game, args, make),
    }
}

/// `tree`, the tree built (or read) in memory, then saved if asked.
fn run_in_memory<G: Game>(game: &G, args: &TreeArgs, make: crate::Maker<G>) -> i32 {
    // A saved tree keeps its labels, for the commands that read it.
    let Some((tree, first)) = crate::build_tree(game, make, &args.limits, args.save.is_some()) else {
        return 1;
    };
    if let Some(path) = &args.save {
        if !save(&tree, game.info(), path) {
            return 1;
        }
    }
    let Some(timing) = repeat(game, args, make, first) else { return 1 };
    report(game, args, make, &tree.stats(), tree.build_bytes(), &timing, Some(&tree))
}

/// Writes `tree` to `path` (`--save`); false after the message.
fn save(tree: &galac_runtime::tree::Tree, info: &galac_runtime::game::GameInfo, path: &std::path::Path) -> bool {
    let written = crate::write_atomically(path, |file| {
        galac_runtime::tree::save(tree, info, std::io::BufWriter::with_capacity(1 << 20, file))
    });
    if let Err(e) = written {
        eprintln!("error: cannot write `{}`: {e}", path.display());
        return false;
    }
    true
}

/// `tree --save FILE`: the tree written to FILE as it is built (see
/// [`crate::build_saving`]), then the report.
fn run_saving<G: Game>(game: &G, args: &TreeArgs, make: crate::Maker<G>, path: &std::path::Path) -> i32 {
    use galac_runtime::tree::BuildError;
    let mut outcome = None;
    let written = crate::write_atomically(path, |file| {
        let result = crate::build_saving(game, make, &args.limits, file, path);
        let status = match &result {
            Ok(_) => Ok(()),
            Err(BuildError::Write(e)) => Err(std::io::Error::other(e.clone())),
            Err(_) => Err(std::io::Error::other("the build stopped")),
        };
        outcome = Some(result);
        status
    });
    let saved = match (outcome, written) {
        (Some(Err(e)), _) if !matches!(e, BuildError::Write(_)) => {
            eprintln!("error: {e}");
            crate::building::print_limit_hint(&e);
            return 1;
        }
        (Some(Ok(saved)), Ok(())) => saved,
        (_, written) => {
            let e = written.err().map_or_else(|| "the build stopped".to_string(), |e| e.to_string());
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return 1;
        }
    };
    // A small tree is read back for the matrix view.
    let small = (saved.stats.nodes <= MATRIX_MAX_NODES as u64)
        .then(|| crate::load_tree(game.info(), path, &args.limits.build_options(true)).ok().map(|(t, _)| t))
        .flatten();
    let Some(timing) = repeat(game, args, make, saved.seconds) else { return 1 };
    report(game, args, make, &saved.stats, saved.build_bytes, &timing, small.as_ref())
}

/// The generation times: `first`, then those of `--repeat` builds (in
/// memory, without labels; each dropped before the next).
fn repeat<G: Game>(game: &G, args: &TreeArgs, make: crate::Maker<G>, first: f64) -> Option<Timing> {
    let mut timing = Timing { builds: vec![first] };
    for _ in 1..args.repeat {
        let (_, seconds) = crate::build_tree(game, make, &args.limits, false)?;
        timing.builds.push(seconds);
    }
    Some(timing)
}

/// Prints the report of a tree with these `stats`; `tree`, when at hand,
/// is shown as a matrix if it is a small one-move game. The exit status.
fn report<G: Game>(
    game: &G,
    args: &TreeArgs,
    make: crate::Maker<G>,
    stats: &Stats,
    held: u64,
    timing: &Timing,
    tree: Option<&galac_runtime::tree::Tree>,
) -> i32 {
    let info = game.info();
    // A one-move game is shown as its matrix, with the actions' labels (a
    // second build, with labels: such a tree is small).
    let matrix = match tree.and_then(|t| crate::matrix::of(t).map(|_| t)) {
        Some(t) if t.n_nodes() <= MATRIX_MAX_NODES => {
            crate::build_tree(game, make, &args.limits, true).and_then(|(labelled, _)| crate::matrix::of(&labelled))
        }
        _ => None,
    };
    match args.format {
        Format::Text => {
            let mut text = text_report(&info.name, &info.params, &info.players, stats, held, timing);
            if let Some(m) = &matrix {
                text += &m.text(&info.players);
            }
            crate::emit(&text);
            0
        }
        Format::Json => {
            let json = TreeJson::new(info, stats, held, timing, matrix.as_ref().map(|m| m.json(&info.players)));
            crate::emit_json(&json)
        }
    }
}

/// The largest one-move game shown as a matrix.
const MATRIX_MAX_NODES: usize = 10_000;

fn per_player(players: &[String], counts: &[u64]) -> String {
    players.iter().zip(counts).map(|(p, n)| format!("{p} {n}")).collect::<Vec<_>>().join(", ")
}

/// The report's text; `held` is what the build held at once with the
/// information-set interner ([`galac_runtime::tree::Tree::build_bytes`]; 0
/// for a tree read from a file, which holds only itself).
pub fn text_report(
    name: &str,
    params: &[(String, String)],
    players: &[String],
    s: &Stats,
    held: u64,
    timing: &Timing,
) -> String {
    let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let decisions: u64 = s.decision_nodes.iter().sum();
    let seconds = timing.best();
    let rate = if seconds > 0.0 { s.nodes as f64 / seconds } else { 0.0 };
    let mut report = format!(
        "game: {name}{}\n\
         nodes: {} (decision {decisions}, chance {}, terminal {})\n\
         decision nodes: {}\n\
         info sets: {}\n\
         sequences: {}\n\
         depth: {}\n\
         memory: {} bytes ({:.1} bytes/node){}\n\
         generation: {seconds:.6} s ({:.0} nodes/s)\n",
        if params.is_empty() { String::new() } else { format!(" ({})", params.join(", ")) },
        s.nodes,
        s.chance_nodes,
        s.terminals,
        per_player(players, &s.decision_nodes),
        per_player(players, &s.infosets),
        per_player(players, &s.sequences),
        s.max_depth,
        s.bytes,
        s.bytes as f64 / s.nodes.max(1) as f64,
        if held > 0 {
            format!("; the build held {held} bytes with the information-set interner")
        } else {
            String::new()
        },
        rate,
    );
    if let [first, _, ..] = timing.builds[..] {
        report += &format!(
            "builds: {} in this process; generation is the fastest (first {first:.6} s, median {:.6} s)\n",
            timing.builds.len(),
            timing.median()
        );
    }
    report
}

/// The `tree` answer as JSON (schema `galac.tree/1`).
#[derive(serde::Serialize)]
pub struct TreeJson<'a> {
    pub schema: &'static str,
    pub game: &'a str,
    pub params: serde_json::Value,
    pub players: &'a [String],
    pub nodes: u64,
    pub terminals: u64,
    pub chance_nodes: u64,
    pub decision_nodes: &'a [u64],
    pub infosets: &'a [u64],
    pub sequences: &'a [u64],
    pub depth: u32,
    pub bytes: u64,
    /// Bytes the build held with its information-set interner.
    pub build_bytes: u64,
    /// The fastest build's seconds.
    pub seconds: f64,
    pub build_seconds: &'a [f64],
    /// A one-move game's payoff matrix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<crate::matrix::MatrixJson<'a>>,
}
json_answers!(TreeJson<'_>);

impl<'a> TreeJson<'a> {
    pub fn new(
        info: &'a galac_runtime::game::GameInfo,
        s: &'a Stats,
        held: u64,
        timing: &'a Timing,
        matrix: Option<crate::matrix::MatrixJson<'a>>,
    ) -> TreeJson<'a> {
        TreeJson {
            schema: "galac.tree/1",
            game: &info.name,
            params: crate::params_json(info),
            players: &info.players,
            nodes: s.nodes,
            terminals: s.terminals,
            chance_nodes: s.chance_nodes,
            decision_nodes: &s.decision_nodes,
            infosets: &s.infosets,
            sequences: &s.sequences,
            depth: s.max_depth,
            bytes: s.bytes,
            build_bytes: held,
            seconds: timing.best(),
            build_seconds: &timing.builds,
            matrix,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Timing;

    #[test]
    fn timing_reports_the_fastest_build_and_the_median() {
        let odd = Timing { builds: vec![0.9, 0.2, 0.5] };
        assert_eq!((odd.best(), odd.median()), (0.2, 0.5));
        let even = Timing { builds: vec![0.9, 0.2, 0.5, 0.3] };
        assert_eq!((even.best(), even.median()), (0.2, 0.4));
    }
}
