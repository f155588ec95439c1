//! A generator of random, well-typed Gala programs for differential testing
//! (interpreter against generated Rust). Pure std, so that both `build.rs`
//! and the tests can include it with `#[path]`: the same seed gives the same
//! text everywhere.
//!
//! Programs are well-typed by construction (a program the checker rejects is
//! a generator bug) and small: every `choose` spends part of a budget on the
//! number of leaves, loops spend it once per iteration, so trees stay well
//! under ~20,000 nodes. Some programs are "risky": they may overflow, divide
//! by zero, index out of bounds or choose from an empty domain at run time,
//! so that both executions must also fail alike.

mod decls;
mod expr;
mod rng;
mod stmt;
mod types;

pub use rng::Rng;
use types::Ty;

/// A generated program and the param overrides to run it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub source: String,
    /// `name=value` overrides, as given to `--param`.
    pub params: Vec<String>,
}

/// Switches for features that trigger known interpreter/codegen
/// divergences, so a fix can be verified by turning one on alone. All are
/// on by default: the test must not hide bugs.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// Enums of 250-300 variants (more than a `u8` holds: codegen must pick a
    /// wider type).
    pub large_enums: bool,
    /// Occasionally 33-40 players (codegen packed player sets into 32 bits).
    pub many_players: bool,
    /// Occasionally an arithmetic chain nested up to the checker's bound.
    pub deep_exprs: bool,
    /// Occasionally a condition (`!`, `&&`, `if` chain) nested a few
    /// hundred levels deep (up to the checker's bound).
    pub deep_bool_exprs: bool,
    /// Per-player fills `[e; players]` anywhere, not only where a literal
    /// `[a, b]` would do (generated Rust once could not infer the array
    /// length of a fill in `outcome`, comparisons, builtin arguments: E0284).
    pub player_fills: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features { large_enums: true, many_players: true, deep_exprs: true, deep_bool_exprs: true, player_fills: true }
    }
}

impl Features {
    /// The switches by name, for `GALAC_DIFF_FEATURES`.
    pub const NAMES: &'static [&'static str] =
        &["large_enums", "many_players", "deep_exprs", "deep_bool_exprs", "player_fills"];

    /// The defaults changed by a spec such as `-many_players,-deep_exprs`
    /// (`-name` turns a switch off, `name` or `+name` on).
    pub fn parse(spec: &str) -> Result<Features, String> {
        let mut f = Features::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (on, name) = match item.strip_prefix('-') {
                Some(name) => (false, name),
                None => (true, item.trim_start_matches('+')),
            };
            let switch = match name {
                "large_enums" => &mut f.large_enums,
                "many_players" => &mut f.many_players,
                "deep_exprs" => &mut f.deep_exprs,
                "deep_bool_exprs" => &mut f.deep_bool_exprs,
                "player_fills" => &mut f.player_fills,
                _ => return Err(format!("unknown feature `{name}`; the features are {}", Self::NAMES.join(", "))),
            };
            *switch = on;
        }
        Ok(f)
    }
}

/// The program of `seed` with every feature on.
pub fn program(seed: u64) -> Generated {
    program_with(seed, Features::default())
}

/// The program of `seed` with the given features.
pub fn program_with(seed: u64, features: Features) -> Generated {
    let mut g = Gen::new(seed, features);
    let source = g.program(seed);
    Generated { source, params: g.overrides }
}

/// A local or global name in scope with its type.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    mutable: bool,
}

/// A fn's signature; `rec` marks the self-recursive ones.
#[derive(Clone, Debug)]
struct FnSig {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
}

/// A defined flow: its params and the leaf multiplier one call may spend.
#[derive(Clone, Debug)]
struct FlowSig {
    name: String,
    params: Vec<Ty>,
    cost: f64,
}

/// The generator's state: declarations so far and the current body.
struct Gen {
    rng: Rng,
    feat: Features,
    players: Vec<String>,
    /// Int params: name and whether it is a (small, positive) array size.
    int_params: Vec<(String, bool)>,
    bool_params: Vec<String>,
    /// Variant names of each enum `E{i}`.
    enums: Vec<Vec<String>>,
    fns: Vec<FnSig>,
    flows: Vec<FlowSig>,
    facts: Vec<(String, Vec<Ty>)>,
    /// State vars (visible in flows only).
    vars: Vec<Var>,
    /// Locals of the body being generated, innermost last.
    locals: Vec<Var>,
    overrides: Vec<String>,
    /// Percent chance of a construct that may fail at run time.
    risk: u32,
    /// The body is a fn: no state vars, no events.
    in_fn: bool,
    /// The result type of the fn being generated.
    ret: Option<Ty>,
    /// Fns callable from here: indices below this.
    fn_limit: usize,
    /// Nesting of `take_turns` (`player`, `opponent` are bound when > 0).
    turns: u32,
    /// Remaining leaf multiplier of the tree.
    budget: f64,
    fresh: usize,
    hostile_left: Vec<&'static str>,
}

impl Gen {
    fn new(seed: u64, feat: Features) -> Gen {
        let mut rng = Rng::new(seed);
        let risk = if rng.coin(50) { 0 } else { rng.range(2, 8) as u32 };
        Gen {
            rng,
            feat,
            players: Vec::new(),
            int_params: Vec::new(),
            bool_params: Vec::new(),
            enums: Vec::new(),
            fns: Vec::new(),
            flows: Vec::new(),
            facts: Vec::new(),
            vars: Vec::new(),
            locals: Vec::new(),
            overrides: Vec::new(),
            risk,
            in_fn: false,
            ret: None,
            fn_limit: 0,
            turns: 0,
            budget: 1.0,
            fresh: 0,
            hostile_left: vec![
                "yield", "impl", "self", "Self", "crate", "super", "loop", "move", "ref", "mut", "struct", "trait",
                "type", "use", "dyn", "async", "await", "static", "unsafe", "pub", "mod", "extern", "as", "break",
                "continue", "Some", "None", "Ok", "Err", "Vec", "String", "std", "core", "sc", "state", "__n", "__w",
                "Box", "Option",
            ],
        }
    }

    /// A fresh local name; now and then a Rust keyword or a name the
    /// generated code may use itself.
    fn fresh_local(&mut self) -> String {
        self.fresh += 1;
        if !self.hostile_left.is_empty() && self.rng.coin(6) {
            let i = self.rng.below(self.hostile_left.len());
            return self.hostile_left.swap_remove(i).to_string();
        }
        format!("l{}", self.fresh)
    }

    /// Whether a risky construct (one that may fail at run time) is wanted.
    fn risky(&mut self) -> bool {
        self.risk > 0 && self.rng.coin(self.risk)
    }

    fn n_players(&self) -> usize {
        self.players.len()
    }
}
