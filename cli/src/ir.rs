//! `galac ir FILE`: print the control-flow graph a game lowers to; with
//! `--format json`, the same program as one JSON object (players, params,
//! slots and each block's instructions and terminator as text lines).

use crate::game_args::GameArgs;
use galac_app::Format;

/// The `schema` key of `ir --format json`.
const SCHEMA: &str = "galac.ir/1";

#[derive(clap::Args, Debug)]
pub struct IrArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: &IrArgs, color: bool) -> i32 {
    match crate::game_args::check(&args.game, color) {
        Ok(loaded) => {
            let ir = &loaded.compiled.ir;
            match args.format {
                Format::Text => galac_app::emit(&ir.to_string()),
                Format::Json => galac_app::emit(&format!("{}\n", json(ir))),
            }
            0
        }
        Err(code) => code,
    }
}

/// The program as JSON; keys stay stable across versions of `galac.ir/1`.
fn json(ir: &galac_compiler::ir::Program) -> serde_json::Value {
    let params: Vec<_> = ir
        .params
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "type": p.ty.to_string(), "default": ir.show(&p.default)}))
        .collect();
    let slots: Vec<_> = ir
        .slots
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let init = ir.var_inits.get(i).map(|e| ir.show(e));
            serde_json::json!({"name": name, "type": ty.to_string(), "init": init})
        })
        .collect();
    let blocks: Vec<_> = ir
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let insts: Vec<String> = b.insts.iter().map(|inst| ir.inst_text(inst)).collect();
            serde_json::json!({"id": format!("b{i}"), "insts": insts, "term": ir.term_text(&b.term)})
        })
        .collect();
    serde_json::json!({
        "schema": SCHEMA,
        "game": ir.name,
        "players": ir.players,
        "params": params,
        "slots": slots,
        "entry": format!("b{}", ir.entry.0),
        "blocks": blocks,
    })
}
