//! Public-state vector CFR (`--solver vcfr|vcfr+`): its run through the
//! [`Harness`], with the CFR family's `--iterations` and `--check-every`,
//! and its own `--compress` (16-bit storage).
//! The algorithm lives in `galac_solvers::vector`; this module only drives it.
//! The answer's findings count the public game's nodes per street
//! (`public_game`: decisions and leaves), as the hold'em bench compares them.

use galac_runtime::tree::Tree;
use galac_solvers::cfr::Variant;
use galac_solvers::solver::Solver;
use galac_solvers::vector::{VcfrConfig, VcfrSolver};

use super::cfr::CfrArgs;
use super::harness::{Harness, StopArgs};
use super::solved::{fields, with_hint, Context, Solved};

/// The `solve` answer's fields of vector CFR.
#[derive(serde::Serialize)]
struct Findings {
    public_game: galac_solvers::vector::PerStreet,
}
json_answers!(Findings);

/// Runs vector CFR (`variant`: CFR+ or DCFR) on `tree`.
pub fn run(args: &CfrArgs, stop: &StopArgs, variant: Variant, tree: &Tree, cx: &Context) -> Result<Solved, String> {
    let (iterations, checks) = args.schedule(stop);
    let threads = cx.limits.threads_or_all();
    let memory = cx.limits.memory();
    let config =
        VcfrConfig { checks, threads, memory, storage: args.storage(), ..VcfrConfig::new(variant, iterations) };
    let solver = VcfrSolver { config };
    let done = std::cell::Cell::new(0u64);
    let mut harness = Harness::new("iterations", Some(iterations), stop, cx.limits.quiet);
    harness.cancel = cx.limits.cancel.clone();
    harness.each = Some(Box::new(|p| done.set(p.iteration)));
    // As the CFR family's: the arrays estimated first, then the process watched.
    let watch = cx.limits.watch("vector CFR");
    let result = solver.solve_public(tree, &mut harness);
    drop(watch);
    harness.finish();
    let (solution, streets) = result.map_err(|e| with_hint(&e))?;
    let stopped = if solution.stopped { ", stopped" } else { "" };
    let curve = std::mem::take(&mut harness.curve);
    drop(harness);
    Ok(Solved {
        name: format!("{} ({} iterations{stopped})", solver.name(), done.get()),
        solution,
        notes: vec![format!("public game: decisions {:?}, leaves {:?} per street", streets.decisions, streets.leaves)],
        curve: Some(curve),
        findings: Some(fields(&Findings { public_game: streets })?),
        distributed: None,
    })
}

/// What `solve` asks of vector CFR run on the game itself.
pub struct GameRequest<'a> {
    pub cfr: &'a CfrArgs,
    pub stop: &'a StopArgs,
    pub variant: Variant,
    pub limits: &'a crate::LimitArgs,
    pub format: crate::Format,
    /// `--out`.
    pub out: Option<&'a std::path::Path>,
    /// Why `solve` chose vector CFR, when no `--solver` named it.
    pub why: Option<String>,
}

/// Vector CFR on the public game derived from the rules, never building
/// the scalar tree (a turn spot's does not fit): the answer per public
/// decision and private state, the value and exploitability from the
/// vector best response, and each player's first decision hand by hand.
/// Returns the exit status.
pub fn run_game<G: galac_runtime::game::Game>(game: &G, req: &GameRequest) -> i32 {
    match solve_game(game, req) {
        Ok(status) => status,
        Err(msg) => {
            eprintln!("error: {msg}");
            1
        }
    }
}

/// Solves and writes the answer; its exit status.
fn solve_game<G: galac_runtime::game::Game>(game: &G, req: &GameRequest) -> Result<i32, String> {
    use galac_solvers::vector::from_game;
    let start = std::time::Instant::now();
    // What came before (the estimate of the tree, which enumerates the
    // deals too) and then the derivation's states are freed: their pages
    // are given back before the next phase, which makes its own.
    crate::memory::give_back_freed();
    let derived = from_game(game).map_err(|e| with_hint(&e))?;
    // The JSON answer names the sets above the representative walk by the
    // game's information sets: their labels are made now, so that the
    // interner, which only they read, is freed before the solve.
    let full = req.format == crate::Format::Json || req.out.is_some();
    let names = full.then(|| PublicNames::new(game, &derived));
    solve_public(game.info(), derived, names, req, start)
}

/// [`solve_game`] from the public game derived from the rules (`start`:
/// when the derivation started); `names` when the JSON answer is written.
fn solve_public(
    info: &galac_runtime::game::GameInfo,
    derived: galac_solvers::vector::FromGame,
    names: Option<PublicNames>,
    req: &GameRequest,
    start: std::time::Instant,
) -> Result<i32, String> {
    use galac_solvers::vector::FromGame;
    let FromGame { game: public, decisions, info: interner, representative, advanced } = derived;
    drop((decisions, interner));
    crate::memory::give_back_freed();
    let public = &public;
    let built = start.elapsed().as_secs_f64();
    let (iterations, checks) = req.cfr.schedule(req.stop);
    let threads = req.limits.threads_or_all();
    let (memory, storage) = (req.limits.memory(), req.cfr.storage());
    let config = VcfrConfig { checks, threads, memory, storage, ..VcfrConfig::new(req.variant, iterations) };
    let solver = VcfrSolver { config };
    let mut harness = Harness::new("iterations", Some(iterations), req.stop, req.limits.quiet);
    harness.cancel = req.limits.cancel.clone();
    let watch = req.limits.watch("vector CFR");
    let run = solver.run(public, names.as_ref().map_or(0, PublicNames::bytes) as u64, start, &mut harness);
    drop(watch);
    harness.finish();
    let mut run = run.map_err(|e| with_hint(&e))?;
    let eval = run.evaluation();
    let phases = run.phases(built, start);
    let streets = public.per_street();
    let stopped = if run.stopped { ", stopped" } else { "" };
    let name =
        format!("{} ({} iterations{stopped}), on the public game without the tree", solver.name(), run.cfr.iteration);
    let mut notes: Vec<String> = req.why.iter().map(|why| format!("chosen because: {why}")).collect();
    notes.push(match &representative {
        Ok(proof) => format!("public game walked with one representative deal ({advanced} states advanced): {proof}"),
        Err(why) => format!("public game walked deal by deal ({advanced} states advanced, slow): {why}"),
    });
    notes.push(format!("public game: decisions {:?}, leaves {:?} per street", streets.decisions, streets.leaves));
    let firsts = crate::hands_public::firsts(public);
    let grids = crate::hands_public::grids(public, &mut run.cfr, &firsts);
    let mut text = format!("game: {}\nsolver: {name}\n", crate::title(info));
    for note in &notes {
        text += &format!("note: {note}\n");
    }
    text += &format!("value: {} {:.6}\n", info.players[0], eval.values[0]);
    text += &format!("exploitability (NashConv, the vector best response): {:.3e}\n", eval.nash_conv);
    let times: Vec<String> = phases.iter().map(|(p, t)| format!("{p} {t:.4} s")).collect();
    text += &format!("time: {}\n", times.join(", "));
    for grid in &grids {
        text += "\n";
        text += &crate::hands::text(grid, &info.players);
    }
    // The JSON answer (every decision's strategy hand by hand: about a
    // million sets on the turn, 90 MB of JSON) only when it is written,
    // and each set made as it is written.
    let Some(names) = names else {
        crate::emit(&text);
        return Ok(0);
    };
    let cfr = &run.cfr;
    let sets = |w: &mut dyn std::io::Write| write_strategy(public, &names, cfr, w);
    let findings = fields(&Findings { public_game: streets })?;
    let answer = crate::report::SolveJson {
        head: crate::report::SolveHead {
            schema: crate::report::SOLVE_SCHEMA,
            game: &info.name,
            params: crate::params_json(info),
            program: crate::report::program_hex(info),
            solver: &name,
            notes: &notes,
            value: Some(crate::report::Keyed(&info.players, &eval.values)),
            value_bounds: None,
            exploitability: Some(eval.nash_conv),
            best_response: None,
            nodes: None,
            infosets: None,
            seconds: crate::report::seconds_json(None, &phases),
            unreached: None,
        },
        strategy: crate::report::Strategy::Sets(&sets),
        tail: crate::report::SolveTail {
            hands: Some(grids.iter().map(|g| crate::hands::GridJson::new(g, &info.players)).collect()),
            curve: None,
            findings: Some(&findings),
            exact: None,
            note: None,
        },
    };
    Ok(crate::report::emit_streamed(req.format, req.out, &text, &answer))
}

/// Vector CFR's default run on `public` (what `solve` runs without flags:
/// [`super::cfr::DEFAULT_ITERATIONS`] of postflop-solver's DCFR, no
/// exploitability check), for the commands that solve a game on the fly
/// without its tree (`play`, `plot hands`); its solver's name.
pub fn run_default<'g>(
    public: &'g galac_solvers::vector::PublicGame,
    limits: &crate::LimitArgs,
) -> Result<(galac_solvers::vector::Run<'g>, String), String> {
    let iterations = super::cfr::DEFAULT_ITERATIONS;
    let config = VcfrConfig {
        threads: limits.threads_or_all(),
        memory: limits.memory(),
        ..VcfrConfig::new(galac_solvers::vector::POSTFLOP_DCFR, iterations)
    };
    let solver = VcfrSolver { config };
    let mut harness = Harness::new("iterations", Some(iterations), &StopArgs::default(), limits.quiet);
    harness.cancel = limits.cancel.clone();
    let run = solver.run(public, 0, std::time::Instant::now(), &mut harness);
    harness.finish();
    let run = run.map_err(|e| with_hint(&e))?;
    let name = format!("{} ({} iterations), on the public game without the tree", solver.name(), run.cfr.iteration);
    Ok((run, name))
}

/// A set of the answer on the public game: a decision, a private state
/// of its player, and the label the strategy file keys it by.
pub struct PublicSet {
    pub node: u32,
    pub state: u32,
    pub label: String,
    /// Named by its private state and public line (below both players'
    /// first moves, where the walk follows one representative deal), so
    /// listed only when the state reaches the decision.
    pub by_line: bool,
}

/// The names of the answer's sets on a public game, kept apart from the
/// derivation's interner (which `solve` frees before the solve): per
/// decision of the public game, in [`FromGame::decisions`]' order, its
/// node and its [`Named`] sets.
///
/// [`FromGame::decisions`]: galac_solvers::vector::FromGame::decisions
pub struct PublicNames {
    decisions: Vec<(u32, Named)>,
}

/// A decision's sets named by the game's information sets, each as its
/// private state and label; `None` where a representative walk names
/// every private state of the decision by its label and the public line.
type Named = Option<Vec<(u32, String)>>;

impl PublicNames {
    pub fn new<G: galac_runtime::game::Game>(game: &G, derived: &galac_solvers::vector::FromGame) -> PublicNames {
        use galac_solvers::vector::game::PublicNode;
        let public = &derived.game;
        let by_line = derived.representative.is_ok();
        let decisions = derived
            .decisions
            .iter()
            .filter_map(|(node, sets)| {
                let PublicNode::Decision { player, .. } = &public.nodes[*node as usize] else { return None };
                let named = match sets.as_slice() {
                    // Below both players' first moves a representative walk
                    // records the representative's set only.
                    [_] if by_line && public.states[*player as usize].len() > 1 => None,
                    _ => Some(sets.iter().map(|&(id, s)| (s, game.infoset_label(&derived.info, id))).collect()),
                };
                Some((*node, named))
            })
            .collect();
        PublicNames { decisions }
    }

    /// The bytes the names hold.
    pub fn bytes(&self) -> usize {
        let label = |(_, l): &(u32, String)| size_of::<(u32, String)>() + l.capacity();
        let sets = |named: &Named| named.iter().flatten().map(label).sum::<usize>();
        self.decisions.iter().map(|(_, named)| size_of::<(u32, Named)>() + sets(named)).sum()
    }
}

/// Every set of the answer on the public game, as `solve --out` keys them
/// and `play --against FILE` reads them back.
pub fn public_sets<G: galac_runtime::game::Game>(
    game: &G,
    derived: &galac_solvers::vector::FromGame,
) -> Vec<PublicSet> {
    let mut out = Vec::new();
    each_public_set(&derived.game, &PublicNames::new(game, derived), |set| out.push(set));
    out
}

/// [`public_sets`] one at a time, in the same order (a public decision's
/// sets together), none kept.
fn each_public_set(public: &galac_solvers::vector::PublicGame, names: &PublicNames, mut emit: impl FnMut(PublicSet)) {
    use galac_solvers::vector::game::PublicNode;
    // The public line to a decision (cards written as cards, as the
    // answer writes every label), made as its sets are.
    let parent = crate::hands_public::parents(public);
    for (node, named) in &names.decisions {
        let PublicNode::Decision { player, .. } = &public.nodes[*node as usize] else { continue };
        match named {
            None => {
                let states = &public.states[*player as usize].labels;
                let line = crate::hands_public::path(public, &parent, *node).join(" ");
                (0..states.len()).for_each(|s| {
                    emit(PublicSet {
                        node: *node,
                        state: s as u32,
                        label: format!("{}, {line}", states[s]),
                        by_line: true,
                    })
                });
            }
            Some(sets) => sets.iter().for_each(|(s, label)| {
                emit(PublicSet { node: *node, state: *s, label: label.clone(), by_line: false })
            }),
        }
    }
}

/// The average strategy per public decision and private state, labelled by
/// the game's information sets (a state named by its line only where it
/// reaches the decision), written to `w` as the answer's `strategy` map
/// (as it is made, never held): the label of a set named by its line is
/// its state's label, `", "` and the line, each piece rewritten
/// ([`crate::cards::standard`]) and escaped once, not per set.
pub fn write_strategy(
    public: &galac_solvers::vector::PublicGame,
    names: &PublicNames,
    cfr: &galac_solvers::vector::VectorCfr,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use crate::cards::{standard, standard_closed};
    use crate::json_sets::{Escaped, SetWriter};
    use galac_solvers::vector::game::PublicNode;
    let parent = crate::hands_public::parents(public);
    // Each private state's piece, where its labels can be rewritten piece
    // by piece (`None`: each such label is rewritten whole).
    let piece = |l: &String| standard_closed(l).then(|| Escaped::new(&standard(l)));
    let states: Vec<Vec<Option<Escaped>>> =
        public.states.iter().map(|st| st.labels.iter().map(piece).collect()).collect();
    let comma = Escaped::new(", ");
    let mut out = SetWriter::new(w);
    let (mut sigma, mut reached, mut probs) = (Vec::new(), Vec::new(), Vec::new());
    let mut actions: Vec<Escaped> = Vec::new();
    for (node, named) in &names.decisions {
        let PublicNode::Decision { player, children } = &public.nodes[*node as usize] else { continue };
        let p = *player as usize;
        let n = public.states[p].len();
        sigma.resize(children.len() * n, 0.0);
        reached.resize(n, false);
        cfr.average(*node, p, &mut sigma, &mut reached);
        actions.clear();
        actions.extend(public.children(*node).iter().map(|&c| Escaped::new(&public.labels[c as usize])));
        let mut set = |s: usize, label: &[&Escaped]| {
            probs.clear();
            probs.extend((0..actions.len()).map(|a| sigma[a * n + s]));
            out.set(label, &actions, &probs)
        };
        match named {
            None => {
                let line = crate::hands_public::path(public, &parent, *node).join(" ");
                let at = Escaped::new(&standard(&line));
                for s in (0..n).filter(|&s| reached[s]) {
                    match &states[p][s] {
                        Some(state) => set(s, &[state, &comma, &at])?,
                        None => {
                            set(s, &[&Escaped::new(&standard(&format!("{}, {line}", public.states[p].labels[s])))])?
                        }
                    }
                }
            }
            Some(sets) => {
                for (s, label) in sets {
                    set(*s as usize, &[&Escaped::new(&standard(label))])?;
                }
            }
        }
    }
    out.finish()
}
