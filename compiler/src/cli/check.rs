//! `galac check FILE`: report every problem in a game description, or a
//! one-line summary of a valid one.

use crate::driver;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: super::game_args::GameArgs,
}

pub fn run(args: &CheckArgs, color: bool) -> i32 {
    match super::game_args::check(&args.game, color) {
        Ok(loaded) => {
            super::emit(&format!("{}\n", summary(&loaded.program, &loaded.values)));
            0
        }
        Err(code) => code,
    }
}

/// `kuhn: ok; 2 players (first, second); 1 param (ante=1); 3 flows (deal, bet, main)`
pub fn summary(program: &crate::typeck::tast::Program, values: &[driver::ParamValue]) -> String {
    let plural = |items: &[String], word: &str| match items.len() {
        0 => format!("no {word}s"),
        1 => format!("1 {word} ({})", items[0]),
        n => format!("{n} {word}s ({})", items.join(", ")),
    };
    let params: Vec<String> = program.params.iter().zip(values).map(|(p, v)| format!("{}={v}", p.name)).collect();
    let flows: Vec<String> = program.flows.iter().map(|f| f.name.clone().unwrap_or_else(|| "main".into())).collect();
    format!(
        "{}: ok; {}; {}; {}",
        program.name,
        plural(&program.players, "player"),
        plural(&params, "param"),
        plural(&flows, "flow")
    )
}
