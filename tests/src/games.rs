//! What the compiled-game tests (`compiled.rs`) and the
//! `compiled_vs_interpreter` benchmark share: the generated games as modules,
//! loading the same game into the interpreter and instantiating its compiled
//! code with the same params, and a digest that says whether two trees are
//! identical.

use galac_runtime::game::Family;
use galac_runtime::tree::Tree;

use crate::repo_root;

/// Includes the Rust that `build.rs` generated for each named game (from
/// `OUT_DIR`) as a module of that name: `compiled_games!(leduc, poker);`
/// then `leduc::Family`. Expands in the calling crate, so any target of this
/// package (tests, benches) can include just the games it needs.
#[macro_export]
macro_rules! compiled_games {
    ($($name:ident),* $(,)?) => {
        $(
            #[allow(clippy::all, unused, non_snake_case, non_camel_case_types, unused_parens, unused_braces)]
            pub(crate) mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*
    };
}

/// FNV-1a over everything that defines the tree (node order, kinds,
/// information sets, children, chance probabilities, payoffs; not the
/// labels).
pub fn digest(t: &Tree) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for n in t.nodes() {
        eat(u64::from(t.kind(n)));
        eat(u64::from(t.infoset(n).map_or(u32::MAX, |s| s.0)));
        let c = t.children(n);
        eat(u64::from(c.start.0));
        eat(u64::from(c.end.0));
        for p in t.chance_probs(n) {
            eat(p.num);
            eat(p.den);
        }
        for x in t.payoffs(n) {
            eat(*x as u64);
        }
    }
    h
}

/// Loads a game into the interpreter as `galac tree` does (check, params,
/// lower), with `name=value` param overrides. `file` is relative to the
/// repository root when it has a `/`, else to `examples/`.
pub fn load_interp(file: &str, params: &[&str]) -> Result<galac_compiler::interp::Interp, String> {
    let path = if file.contains('/') { repo_root().join(file) } else { repo_root().join("examples").join(file) };
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    galac_compiler::driver::load_interp(&name, &bytes, &params)
}

/// Instantiates a compiled game with `name=value` param overrides and the
/// default step limit, as its solver binary does.
pub fn instantiate<F: Family>(family: &F, params: &[&str]) -> Result<F::Game, String> {
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    family.instantiate(&params, galac_runtime::game::DEFAULT_STEP_LIMIT)
}

/// FNV-1a over the position key (`Game::position_key`) of every node, in
/// depth-first order, up to `max_nodes` nodes: equal in both executions when
/// they give the same positions (with [`digest`], the keys' whole test).
pub fn position_digest<G: galac_runtime::game::Game>(game: &G, max_nodes: u64) -> Result<u64, String> {
    use galac_runtime::game::Node;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut info = galac_runtime::info::InfoInterner::new();
    let mut key = Vec::new();
    let mut stack = vec![game.root().map_err(|e| e.to_string())?];
    let mut nodes = 0u64;
    while let Some(mut state) = stack.pop() {
        nodes += 1;
        if nodes > max_nodes {
            return Err(format!("more than {max_nodes} nodes"));
        }
        if !game.position_key(&state, &mut key) {
            return Err("no position key".into());
        }
        for w in std::iter::once(key.len() as u64).chain(key.iter().copied()) {
            for b in w.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        let m = match game.advance(&mut state, &mut info).map_err(|e| e.to_string())? {
            Node::Terminal => 0,
            Node::Chance { n_outcomes } => n_outcomes,
            Node::Decision { n_actions, .. } => n_actions,
        };
        // Every child is made before the next `advance` (a compiled game's
        // `apply` reads the candidates of the last one).
        let base = stack.len();
        for a in 0..m {
            let mut child = state.clone();
            game.apply(&mut child, a, &mut info).map_err(|e| e.to_string())?;
            stack.push(child);
        }
        stack[base..].reverse();
    }
    Ok(h)
}

/// The params a game is compared with: its defaults, except for the
/// hold'em examples, whose default spots (millions of nodes and more) would
/// make the suite slow: they play a few hands from their own ranges.
pub fn cut_down(file: &str) -> &'static [&'static str] {
    match file {
        "examples/holdem_river.gala" => &["oop_range=AsAh,KsKh:0.5,9s8s", "ip_range=AhKd:0.25,JsJh,7s8h"],
        "examples/holdem_turn.gala" => &["oop_range=AsAh,9s8s", "ip_range=JsJh,7s8h"],
        _ => &[],
    }
}
