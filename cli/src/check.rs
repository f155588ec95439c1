//! `galac check FILE`: report every problem in a game description, or a
//! one-line summary of a valid one.

use galac_compiler::driver::summary;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: crate::game_args::GameArgs,
}

pub fn run(args: &CheckArgs, color: bool) -> i32 {
    match crate::game_args::check(&args.game, color) {
        Ok(loaded) => {
            crate::emit(&format!("{}\n", summary(&loaded.program, &loaded.values)));
            0
        }
        Err(code) => code,
    }
}
