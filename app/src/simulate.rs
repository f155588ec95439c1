//! `simulate`: many seeded plays of the game between one strategy per seat
//! (solved, uniform, a strategy file, or a best response to one of these),
//! with each player's mean payoff and its 95% confidence interval. The
//! plays run on the flat tree ([`galac_solvers::sample`]) on every core;
//! a seed gives the same totals whatever the thread count.

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::tree::Tree;
use galac_solvers::best_response::expected_values;
use galac_solvers::sample::{Sampler, Totals};

use crate::strategies::{Resolver, Source};
use crate::{Format, LimitArgs};

/// The `schema` key of `simulate --format json`.
pub const SCHEMA: &str = "galac.simulate/1";

#[derive(clap::Args, Debug, Clone)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// A seat's strategy: `solved` (the solver `solve` chooses), `uniform`,
    /// a file written by `solve --out`, or `br:SPEC` (the seat's best
    /// response to SPEC). Given once: every seat; given once per seat: the
    /// seats in order; `SEAT=SPEC` names the seat. Default: solved.
    #[arg(long = "strategy", short = 's', value_name = "SPEC")]
    pub strategies: Vec<String>,
    /// Number of plays.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1_000_000)]
    pub plays: u64,
    /// Seed of the random draws (chance and mixed strategies).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Each seat's source from the `--strategy` flags.
pub fn seat_sources(players: &[String], specs: &[String]) -> Result<Vec<Source>, String> {
    let mut sources = vec![Source::Solved; players.len()];
    let (named, positional): (Vec<&String>, Vec<&String>) = specs
        .iter()
        .partition(|s| s.split_once('=').is_some_and(|(seat, _)| crate::strategies::seat(players, seat).is_ok()));
    match positional.len() {
        0 => {}
        1 => sources.fill(Source::parse(positional[0])),
        n if n == players.len() => {
            for (seat, spec) in positional.iter().enumerate() {
                sources[seat] = Source::parse(spec);
            }
        }
        n => {
            return Err(format!(
                "{n} strategies for {} seats: give one for every seat, one per seat in order, or SEAT=SPEC",
                players.len()
            ))
        }
    }
    for spec in named {
        if let Some((seat, spec)) = spec.split_once('=') {
            sources[crate::strategies::seat(players, seat)? as usize] = Source::parse(spec);
        }
    }
    Ok(sources)
}

/// Runs `simulate`; returns the exit status.
pub fn run<G: Game>(game: &G, args: &SimulateArgs, make: crate::Maker<G>) -> i32 {
    let info = game.info();
    let sources = match seat_sources(&info.players, &args.strategies) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    if args.plays == 0 {
        eprintln!("error: --plays must be at least 1");
        return 2;
    }
    if let Some(msg) = crate::play_public::refused_without_tree(game, &args.limits, "simulate") {
        eprintln!("error: {msg}");
        return 2;
    }
    let Some((tree, _)) = crate::build_tree(game, make, &args.limits, true) else {
        return 1;
    };
    simulate_tree(info, &tree, &sources, args)
}

/// `simulate` on the built tree, each seat playing its source; the exit
/// status.
fn simulate_tree(info: &GameInfo, tree: &Tree, sources: &[Source], args: &SimulateArgs) -> i32 {
    let labels = crate::report::unique_labels(tree);
    let mut resolver = Resolver::new(tree, info, &labels).with_limits(&args.limits);
    let profile = match resolver.combine(sources) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let threads = args.limits.threads_or_all();
    let start = std::time::Instant::now();
    let bar = crate::progress::bar(args.plays, "plays", args.limits.quiet);
    let totals = Sampler::new(tree, &profile).run(args.seed, args.plays, threads, &|n| bar.inc(n));
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let expected = expected_values(tree, &profile, &tree.preorder());
    let report = Report { info, sources, totals: &totals, expected: &expected, seconds, threads, args };
    match args.format {
        Format::Text => crate::emit(&report.text(resolver.solver_name())),
        Format::Json => return crate::emit_json(&report.json(resolver.solver_name())),
    }
    0
}

/// What a `simulate` run found.
struct Report<'a> {
    info: &'a galac_runtime::game::GameInfo,
    sources: &'a [Source],
    totals: &'a Totals,
    /// Each player's exact expected payoff under the profile (on the tree).
    expected: &'a [f64],
    seconds: f64,
    threads: usize,
    args: &'a SimulateArgs,
}

impl Report<'_> {
    fn text(&self, solver: Option<&str>) -> String {
        let rate = self.totals.plays as f64 / self.seconds.max(1e-9);
        let mut out = format!(
            "simulate: {} plays of {}, seed {}, {} thread{} ({:.3} s, {:.2e} plays/s)\n",
            self.totals.plays,
            self.info.name,
            self.args.seed,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.seconds,
            rate
        );
        if let Some(solver) = solver {
            out += &format!("solved by: {solver}\n");
        }
        let width = self.info.players.iter().map(String::len).max().unwrap_or(0);
        for (p, name) in self.info.players.iter().enumerate() {
            let (mean, half) = self.totals.mean_and_half_width(p);
            out += &format!(
                "{name:<width$}  {}: mean {mean:.5} ± {half:.5} (95% CI [{:.5}, {:.5}]), expected {:.5}\n",
                self.sources[p].describe(),
                mean - half,
                mean + half,
                self.expected[p]
            );
        }
        out
    }

    fn json<'a>(&'a self, solver: Option<&'a str>) -> SimulateJson<'a> {
        let players = self
            .info
            .players
            .iter()
            .enumerate()
            .map(|(p, name)| {
                let (mean, half) = self.totals.mean_and_half_width(p);
                SeatJson {
                    player: name,
                    strategy: self.sources[p].describe(),
                    mean,
                    ci95: [mean - half, mean + half],
                    expected: self.expected[p],
                }
            })
            .collect();
        SimulateJson {
            schema: SCHEMA,
            game: &self.info.name,
            params: crate::params_json(self.info),
            plays: self.totals.plays,
            seed: self.args.seed,
            threads: self.threads,
            seconds: self.seconds,
            solver,
            players,
        }
    }
}

/// The `simulate` answer as JSON.
#[derive(serde::Serialize)]
struct SimulateJson<'a> {
    schema: &'static str,
    game: &'a str,
    params: serde_json::Value,
    plays: u64,
    seed: u64,
    threads: usize,
    seconds: f64,
    /// The solver of `solved` seats, if any.
    solver: Option<&'a str>,
    players: Vec<SeatJson<'a>>,
}
json_answers!(SimulateJson<'_>);

/// One seat of the `simulate` answer.
#[derive(serde::Serialize)]
struct SeatJson<'a> {
    player: &'a str,
    strategy: String,
    mean: f64,
    /// The 95% confidence interval of the mean.
    ci95: [f64; 2],
    /// The exact expected payoff of the profile.
    expected: f64,
}
