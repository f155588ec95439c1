//! `galac ir FILE`: print the control-flow graph a game lowers to.

use crate::game_args::GameArgs;

#[derive(clap::Args, Debug)]
pub struct IrArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

pub fn run(args: &IrArgs, color: bool) -> i32 {
    match crate::game_args::load(&args.game, color) {
        Ok(interp) => {
            crate::emit(&interp.ir().to_string());
            0
        }
        Err(code) => code,
    }
}
