//! The commands galac and every compiled solver share, listed once with
//! one help text each. Each program gives the game its own way (galac: the
//! .gala file and its params; a compiled solver: the params), the `G` of
//! [`SharedCommand`], and adds its own commands beside these.

use galac_runtime::game::Game;

use crate::building::LimitArgs;
use crate::{explain, export, play, play_public, plot, shell, simulate, solve, tree, Maker};

/// A command on a game, or a description of the program.
#[derive(clap::Subcommand, Debug)]
pub enum SharedCommand<G: clap::Args> {
    /// Generate the game tree and report its size: nodes, information sets,
    /// sequences, memory and generation time.
    Tree {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: tree::TreeArgs,
    },
    /// Solve the game (two-player zero-sum: sequence-form LP; two-player
    /// general-sum: Lemke; perfect information: max^n; otherwise CFR+; or
    /// the solver `--solver` names), report the value, the exploitability
    /// of the answer and the strategies in the game's terms.
    Solve {
        #[command(flatten)]
        game: G,
        // Boxed: the solvers' flags make it much larger than the others.
        #[command(flatten)]
        args: Box<solve::SolveArgs>,
    },
    /// Write the game tree for other tools: a Gambit extensive-form file
    /// (--efg) and/or a Graphviz drawing (--dot).
    Export {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: export::ExportArgs,
    },
    /// Play the game at the terminal against a strategy (solved on the
    /// fly, a strategy file, uniform random) or other people; moves can be
    /// piped in on standard input.
    Play {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: play::PlayArgs,
    },
    /// Play many seeded games between one strategy per seat and report
    /// each player's mean payoff with its 95% confidence interval.
    Simulate {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: simulate::SimulateArgs,
    },
    /// Write a shell completion script for this program to standard output.
    ///
    /// For the program NAME in bash:
    /// `NAME completions bash > ~/.local/share/bash-completion/completions/NAME`.
    Completions {
        #[arg(value_enum)]
        shell: shell::Shell,
    },
    /// Write this program's man page (roff) to standard output.
    ///
    /// For the program NAME: `NAME man | man -l -` shows it.
    Man,
    /// Explain a strategy profile (a `solve --out` file, or the game solved
    /// on the fly) set by set: action probabilities and values, beliefs.
    Explain {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: Box<explain::ExplainArgs>,
    },
    /// Draw a chart as SVG: strategy (action probabilities per set), curve
    /// (convergence from `solve --curve` files) or tree (a small game's tree).
    Plot {
        #[command(flatten)]
        game: G,
        #[command(flatten)]
        args: Box<plot::PlotArgs>,
    },
}

impl<G: clap::Args> SharedCommand<G> {
    /// The game's arguments and the limits, for a command on a game;
    /// `None` for `completions` and `man`.
    fn game(&self) -> Option<(&G, &LimitArgs)> {
        let (game, limits) = match self {
            SharedCommand::Tree { game, args } => (game, &args.limits),
            SharedCommand::Solve { game, args } => (game, &args.limits),
            SharedCommand::Export { game, args } => (game, &args.limits),
            SharedCommand::Play { game, args } => (game, &args.limits),
            SharedCommand::Simulate { game, args } => (game, &args.limits),
            SharedCommand::Explain { game, args } => (game, &args.limits),
            SharedCommand::Plot { game, args } => (game, &args.limits),
            SharedCommand::Completions { .. } | SharedCommand::Man => return None,
        };
        Some((game, limits))
    }

    /// The game's arguments; `None` for `completions` and `man`.
    pub fn game_args(&self) -> Option<&G> {
        self.game().map(|(game, _)| game)
    }

    /// `plot`'s arguments, for a program that may run a chart without a
    /// game ([`plot::run_without_game`]).
    pub fn plot_args(&self) -> Option<&plot::PlotArgs> {
        match self {
            SharedCommand::Plot { args, .. } => Some(args),
            _ => None,
        }
    }

    /// Runs the command: `completions` and `man` describe `program` (the
    /// whole command line); the others get their game from `load`, which
    /// makes it of the game's arguments and limits (the step limit, the
    /// memory limit that bounds compiling it) and calls `run`
    /// with it, a maker of more instances for other threads and how
    /// exported files name the game (or returns the exit status of its
    /// failure).
    pub fn run<Gm: Game>(
        &self,
        program: impl FnOnce() -> clap::Command,
        load: impl FnOnce(&G, &LimitArgs, &dyn Fn(&Gm, Maker<Gm>, &str) -> i32) -> i32,
    ) -> i32 {
        let Some((game, limits)) = self.game() else {
            return match self {
                SharedCommand::Completions { shell } => shell::completions(program(), *shell),
                _ => shell::man(program()),
            };
        };
        load(game, limits, &|g, make, source| match self {
            SharedCommand::Tree { args, .. } => tree::run(g, args, make),
            SharedCommand::Solve { args, .. } => solve::run(g, args, make),
            SharedCommand::Export { args, .. } => export::run(g, args, source, make),
            SharedCommand::Play { args, .. } if play_public::beyond_tree(g, &args.limits).is_some() => {
                play_public::run(g, args)
            }
            SharedCommand::Play { args, .. } => play::run(g, args, make),
            SharedCommand::Simulate { args, .. } => simulate::run(g, args, make),
            SharedCommand::Explain { args, .. } => explain::run(g, args, make),
            SharedCommand::Plot { args, .. } => plot::run(g, args, make),
            SharedCommand::Completions { .. } | SharedCommand::Man => 0,
        })
    }
}
