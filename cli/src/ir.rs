//! `galac ir FILE`: print the control-flow graph a game lowers to; with
//! `--format json`, the same program as one JSON object (players, params,
//! slots and each block's instructions and terminator as text lines).
//! Both end with the public-course proof (`galac_compiler::public`): the
//! private values and that they steer only the payoff, or where they may
//! steer more.

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
            let public = public(&loaded.compiled);
            match args.format {
                Format::Text => {
                    let line = match &public {
                        PublicJson { proved: true, .. } => format!("proved: {}", public.detail),
                        PublicJson { at, .. } => {
                            format!("not proved: {}{}", at.as_deref().unwrap_or(""), public.detail)
                        }
                    };
                    galac_app::emit(&format!("{ir}public course: {line}\n"))
                }
                Format::Json => return galac_app::emit_json(&json(ir, public)),
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
    public: PublicJson,
}
galac_app::json_answers!(IrJson<'_>);

/// Whether the game's course outside its payoff's code is proved the same
/// for every deal (`galac_compiler::public`).
#[derive(serde::Serialize)]
struct PublicJson {
    proved: bool,
    /// The private values' slots (`s2`), when proved.
    private: Vec<String>,
    /// The chance choices whose outcomes depend on the deal (blocks), when proved.
    removal: Vec<String>,
    /// When the payoff's code is a showdown: the slots it compares, the
    /// first player's then the second's (`["s24", "s25"]`).
    strengths: Option<[String; 2]>,
    /// The proof in words, or why it fails.
    detail: String,
    /// Where a private value may steer the course (`file:line:column: `).
    at: Option<String>,
}

/// The public-course proof of a compiled game.
fn public(compiled: &galac_compiler::Compiled) -> PublicJson {
    let ir = &compiled.ir;
    match galac_compiler::public::public_course(ir) {
        Ok(course) => PublicJson {
            proved: true,
            private: course.private.iter().map(|s| format!("s{s}")).collect(),
            removal: course.removal.iter().map(|b| format!("b{}", b.0)).collect(),
            strengths: course.strengths.map(|pair| pair.map(|s| format!("s{s}"))),
            detail: course.describe(ir),
            at: None,
        },
        Err(e) => PublicJson {
            proved: false,
            private: Vec::new(),
            removal: Vec::new(),
            strengths: None,
            detail: e.message,
            at: Some(compiled.source.at(e.span)),
        },
    }
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
fn json(ir: &galac_compiler::ir::Program, public: PublicJson) -> IrJson<'_> {
    IrJson {
        public,
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
