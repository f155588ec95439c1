//! `plot`: charts as SVG files, or PNG (`-o FILE.png`, rendered by
//! [`png`]). `strategy`: the probability of each action
//! at a player's sets, one stacked bar per set (by private card, as the
//! strategy charts of the Gala paper); `curve`: the convergence curves that
//! `solve --curve` writes (CFR's NashConv, the double oracle's gap), on log
//! axes; `tree`: the game tree of a small game.

pub mod charts;
pub mod png;
pub mod svg;
pub mod tree;

use std::path::PathBuf;

use galac_runtime::game::Game;

use crate::cards::CardStyle;
use crate::LimitArgs;

/// The charts `plot` draws.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Chart {
    /// Action probabilities per information set (by private card).
    Strategy,
    /// Convergence curves from `solve --curve` CSV files.
    Curve,
    /// The game tree (small games).
    Tree,
    /// The 13x13 grid of two-card hands: each cell's action frequencies.
    Hands,
}

#[derive(clap::Args, Debug, Clone)]
pub struct PlotArgs {
    /// The chart.
    #[arg(value_enum)]
    pub chart: Chart,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Write the SVG here (`-`: standard output); a name ending in `.png`
    /// gets a PNG image instead (galac only, not compiled solvers).
    #[arg(short, long, value_name = "OUT.svg|OUT.png")]
    pub out: PathBuf,
    /// The profile, sets (plot strategy; by default the player's first
    /// decisions, the labels of fewest facts) and card ranks.
    #[command(flatten)]
    pub select: crate::explain::Selection,
    /// curve: a CSV file written by `solve --curve` (repeatable, one curve each).
    #[arg(long, value_name = "FILE")]
    pub curve: Vec<PathBuf>,
    /// tree: draw at most this many nodes.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_drawn: usize,
}

/// Runs `plot`; returns the exit status.
pub fn run<G: Game>(game: &G, args: &PlotArgs, make: crate::Maker<G>) -> i32 {
    let style = CardStyle { symbols: !args.select.cards.ascii, ..args.select.cards.style(false) };
    let svg = match args.chart {
        Chart::Curve => charts::curves(&crate::title(game.info()), &args.curve),
        Chart::Hands if crate::play_public::beyond_tree(game, &args.limits).is_some() => {
            charts::hands_without_tree(game, &args.select, &args.limits)
        }
        Chart::Strategy | Chart::Tree => {
            if let Some(msg) = crate::play_public::refused_without_tree(game, &args.limits, "plot") {
                eprintln!("error: {msg}");
                return 2;
            }
            let Some((tree, _)) = crate::build_tree(game, make, &args.limits, true) else { return 1 };
            match args.chart {
                Chart::Tree => tree::draw(&tree, &crate::title(game.info()), args.max_drawn, &style),
                _ => charts::strategy(game.info(), &tree, &args.select, &args.limits, &style),
            }
        }
        Chart::Hands => {
            let Some((tree, _)) = crate::build_tree(game, make, &args.limits, true) else { return 1 };
            charts::hands(game.info(), &tree, &args.select, &args.limits, &style)
        }
    };
    write(args, svg)
}

/// Runs `plot` without a game (galac's `plot curve --curve FILE` reads only
/// its CSV files, so it needs no .gala file): `None` for a chart that
/// needs the game.
pub fn run_without_game(args: &PlotArgs) -> Option<i32> {
    match args.chart {
        Chart::Curve => Some(write(args, charts::curves("convergence", &args.curve))),
        Chart::Strategy | Chart::Tree | Chart::Hands => None,
    }
}

/// Writes the chart (or says why there is none) as `--out` asks: SVG,
/// PNG, or standard output; returns the exit status.
fn write(args: &PlotArgs, svg: Result<String, String>) -> i32 {
    let svg = match svg {
        Ok(svg) => svg,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    if args.out.as_os_str() == "-" {
        crate::emit(&svg);
        return 0;
    }
    let bytes = if args.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        match png::render(&svg) {
            Ok(png) => png,
            Err(msg) => {
                eprintln!("error: {msg}");
                return 1;
            }
        }
    } else {
        svg.into_bytes()
    };
    match crate::write_atomically(&args.out, |mut f| std::io::Write::write_all(&mut f, &bytes)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", args.out.display());
            1
        }
    }
}
