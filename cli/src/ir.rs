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
    match crate::game_args::check(&args.game, galac_app::building::DEFAULT_MAX_MEMORY_MIB, color) {
        Ok(loaded) => {
            let ir = &loaded.compiled.ir;
            match args.format {
                Format::Text => galac_app::emit(&ir.to_string()),
                Format::Json => return galac_app::emit_json(&json(ir)),
            }
            0
        }
        Err(code) => code,
    }
}

/// The `ir --format json` answer; keys stay stable across versions of
/// `galac.ir/1`.
#[derive(serde::Serialize)]
struct IrJson<'a> {
    schema: &'static str,
    game: &'a str,
    players: &'a [String],
    params: Vec<ParamJson<'a>>,
    slots: Vec<SlotJson<'a>>,
    entry: String,
    blocks: Vec<BlockJson>,
}

#[derive(serde::Serialize)]
struct ParamJson<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    ty: String,
    default: String,
}

#[derive(serde::Serialize)]
struct SlotJson<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    ty: String,
    /// A state variable's initial value (`None` for locals).
    init: Option<String>,
}

#[derive(serde::Serialize)]
struct BlockJson {
    id: String,
    insts: Vec<String>,
    term: String,
}

/// The program as JSON.
fn json(ir: &galac_compiler::ir::Program) -> IrJson<'_> {
    IrJson {
        schema: SCHEMA,
        game: &ir.name,
        players: &ir.players,
        params: ir
            .params
            .iter()
            .map(|p| ParamJson { name: &p.name, ty: p.ty.to_string(), default: ir.show(&p.default) })
            .collect(),
        slots: ir
            .slots
            .iter()
            .enumerate()
            .map(|(i, (name, ty))| SlotJson { name, ty: ty.to_string(), init: ir.var_inits.get(i).map(|e| ir.show(e)) })
            .collect(),
        entry: format!("b{}", ir.entry.0),
        blocks: ir
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| BlockJson {
                id: format!("b{i}"),
                insts: b.insts.iter().map(|inst| ir.inst_text(inst)).collect(),
                term: ir.term_text(&b.term),
            })
            .collect(),
    }
}
