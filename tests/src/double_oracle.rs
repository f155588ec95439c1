//! The double oracle against the full sequence-form LP: on every shipped
//! two-player zero-sum example and on random programs, each variant's value
//! equals the LP's, its answer's exploitability computed on the full tree by
//! `best_response::evaluate` (independent of the oracle's own searches) is
//! at most 1e-9 of the payoff range, and its own bounds agree with those
//! best responses.

use std::cell::Cell;
use std::rc::Rc;

use galac_runtime::game::{Game, Node};
use galac_runtime::ids::{IdVec, InfosetId, NodeId, PlayerId};
use galac_runtime::info::InfoInterner;
use galac_runtime::tree::{build, build_own, BuildOptions, NodeView, Tree};
use galac_solvers::best_response::evaluate;
use galac_solvers::double_oracle::{
    solve_game, solve_game_certified, Candidate, DefaultStrategy, DoOptions, DoSolution, Variant,
};
use galac_solvers::lp::{self, Backend};
use galac_solvers::sequence_form::SequenceForm;
use galac_solvers::solver::{RunToEnd, SolveError};
use galac_solvers::Profile;

use crate::repo_root;

use crate::progen;
use crate::solve::payoff_range;
use galac_runtime::memory::MemoryLimit;

/// What a check found, for the callers that report sizes.
#[derive(Debug, PartialEq)]
pub(crate) struct Checked {
    pub(crate) sequences: [usize; 2],
    pub(crate) full_sequences: [usize; 2],
}

/// Solves `game` by the LP and by every variant of the double oracle and
/// checks the oracle's answers; `None` when the game is not two-player
/// constant-sum (the LP refuses it).
pub(crate) fn check_game<G: Game>(game: &G, what: &str) -> Option<Vec<Checked>> {
    // The game's own build: the run asks `game` for sets in its interner.
    let (tree, mut interner, _) = build_own(game, &BuildOptions::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sf = SequenceForm::new(&tree).ok()?;
    let lp_value = lp::solve(&sf, Backend::Clarabel, None).unwrap_or_else(|e| panic!("{what}: {e}")).value;
    let mut out = Vec::new();
    for &variant in Variant::ALL {
        // The run interns into the build's interner, so that set ids agree
        // with the tree's.
        let options = DoOptions { variant, ..DoOptions::default() };
        let sol = solve_game(game, &mut interner, &options, &mut RunToEnd)
            .unwrap_or_else(|e| panic!("{what} (do-{}): {e}", variant.name()));
        check_answer(&tree, &sol, lp_value, &format!("{what} (do-{})", variant.name()));
        // Certified on the tree instead, the run answers as exactly.
        let mut certify = certifier(&tree);
        let certified = solve_game_certified(game, &mut interner, &options, &mut RunToEnd, Some(&mut certify))
            .unwrap_or_else(|e| panic!("{what} (do-{}, certified on the tree): {e}", variant.name()));
        check_answer(&tree, &certified, lp_value, &format!("{what} (do-{}, certified on the tree)", variant.name()));
        let last = sol.iterations.last().expect("an iteration");
        out.push(Checked {
            sequences: last.sequences,
            full_sequences: [sf.treeplex.n_seqs(PlayerId(0)), sf.treeplex.n_seqs(PlayerId(1))],
        });
    }
    Some(out)
}

/// Checks a run's answer on the full tree: finished, value `lp_value`,
/// NashConv at most 1e-9 of the range, bounds equal to the tree's best
/// responses.
pub(crate) fn check_answer(tree: &Tree, sol: &DoSolution, lp_value: f64, what: &str) {
    let range = payoff_range(tree);
    let tol = 1e-9 * range;
    assert!(!sol.stalled && !sol.stopped, "{what}: gap {:e} left", sol.gap());
    let profile = sol.profile(tree).expect("same interner");
    let eval = evaluate(tree, &profile);
    let c = (tree.payoffs(first_leaf(tree))[0] + tree.payoffs(first_leaf(tree))[1]) as f64;
    assert!(eval.nash_conv <= tol, "{what}: NashConv {:e} > {tol:e}", eval.nash_conv);
    assert!((eval.values[0] - lp_value).abs() <= tol.max(1e-9), "{what}: value {} != LP {lp_value}", eval.values[0]);
    assert!((sol.upper - eval.best_response[0]).abs() <= tol, "{what}: upper bound");
    assert!((sol.lower - (c - eval.best_response[1])).abs() <= tol, "{what}: lower bound");
}

/// A certifier on `tree` ([`galac_solvers::double_oracle::Certifier`]):
/// each player's best-response value to the candidate's profile, by the
/// tree's evaluator.
fn certifier(tree: &Tree) -> impl FnMut(&Candidate<'_>) -> Result<[f64; 2], SolveError> + '_ {
    |candidate| {
        let eval = evaluate(tree, &candidate.profile(tree)?);
        Ok([eval.best_response[0], eval.best_response[1]])
    }
}

fn first_leaf(tree: &Tree) -> NodeId {
    tree.nodes().find(|&n| tree.children(n).is_empty()).expect("a leaf")
}

pub(crate) fn check_example(file: &str, params: &[&str]) -> Vec<Checked> {
    // An example's name, or a path from the repository's root.
    let path = if file.contains('/') { repo_root().join(file) } else { repo_root().join("examples").join(file) };
    let src = std::fs::read_to_string(path).expect("example");
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let game = galac_compiler::driver::load_interp(file, src.as_bytes(), &params).unwrap_or_else(|e| panic!("{e}"));
    check_game(&game, &format!("{file} {params:?}")).unwrap_or_else(|| panic!("{file} is two-player zero-sum"))
}

/// Hidden choices `x`, `y`, `z`, `w` from `0..n` in turn (a, b, a, b)
/// paying `x - y` to `a`: worth 0 (each player's best is `n - 1`; the LP
/// agrees). Its first pruned search met no payoff above 0, so it valued
/// the first player's answer to `b`'s first-action default at 0 (truly
/// `n - 1`); the certifying iteration found the current strategy's exact
/// value 0, compared it with that too-low 0 (no better), then corrected the
/// old best to `n - 1`, and the run stalled with a gap of `n - 1` (NashConv
/// 1 on the 31-node game). The current strategy is now compared again once
/// the best's value is exact.
#[test]
fn certifying_a_pruned_best_keeps_a_better_current_strategy() {
    for n in [2, 3, 5] {
        let src = format!(
            "game g {{ players a, b; flow {{ choose a x in 0..{n}; choose b y in 0..{n}; choose a _z in 0..{n}; \
             choose b _w in 0..{n}; outcome [x - y, y - x]; }} }}"
        );
        check_game(&crate::trees::load(&src, &[]), &format!("n = {n}")).expect("zero-sum");
    }
}

/// The explored part of the game counts against a memory limit as it
/// grows, as the tree builder's does.
#[test]
fn the_explored_game_obeys_the_memory_limit() {
    let src = std::fs::read_to_string(repo_root().join("examples/leduc.gala")).expect("example");
    let params = ["ranks=13".to_string()];
    let game =
        galac_compiler::driver::load_interp("leduc.gala", src.as_bytes(), &params).unwrap_or_else(|e| panic!("{e}"));
    let options = DoOptions { memory: MemoryLimit::from_bytes(1 << 20), ..DoOptions::default() };
    let mut interner = InfoInterner::new();
    let err = solve_game(&game, &mut interner, &options, &mut RunToEnd).err().map(|e| e.to_string());
    assert!(err.as_deref().is_some_and(|e| e.contains("MiB, the memory limit")), "{err:?}");
}

/// A game whose states count how many of them are alive, to bound what
/// the oracle holds while it explores.
struct Counted<G> {
    inner: G,
    live: Rc<Cell<usize>>,
    peak: Rc<Cell<usize>>,
}

/// A state of [`Counted`]: counted from creation to drop.
struct CountedState<S> {
    inner: S,
    live: Rc<Cell<usize>>,
    peak: Rc<Cell<usize>>,
}

impl<S> CountedState<S> {
    fn new(inner: S, live: &Rc<Cell<usize>>, peak: &Rc<Cell<usize>>) -> Self {
        live.set(live.get() + 1);
        peak.set(peak.get().max(live.get()));
        CountedState { inner, live: live.clone(), peak: peak.clone() }
    }
}

impl<S: Clone> Clone for CountedState<S> {
    fn clone(&self) -> Self {
        CountedState::new(self.inner.clone(), &self.live, &self.peak)
    }
}

impl<S> Drop for CountedState<S> {
    fn drop(&mut self) {
        self.live.set(self.live.get() - 1);
    }
}

impl<G: Game> Game for Counted<G> {
    type State = CountedState<G::State>;
    type Specialised = Self;
    fn info(&self) -> &galac_runtime::game::GameInfo {
        self.inner.info()
    }
    fn root(&self) -> Result<Self::State, galac_runtime::game::GameError> {
        Ok(CountedState::new(self.inner.root()?, &self.live, &self.peak))
    }
    fn advance(&self, s: &mut Self::State, info: &mut InfoInterner) -> Result<Node, galac_runtime::game::GameError> {
        self.inner.advance(&mut s.inner, info)
    }
    fn apply(
        &self,
        s: &mut Self::State,
        a: u32,
        info: &mut InfoInterner,
    ) -> Result<(), galac_runtime::game::GameError> {
        self.inner.apply(&mut s.inner, a, info)
    }
    fn chance_probs(&self, s: &Self::State, out: &mut Vec<galac_runtime::rational::Ratio>) {
        self.inner.chance_probs(&s.inner, out)
    }
    fn payoffs<'a>(&self, s: &'a Self::State, buf: &'a mut Vec<i64>) -> &'a [i64] {
        self.inner.payoffs(&s.inner, buf)
    }
    fn action_label(&self, s: &Self::State, a: u32) -> String {
        self.inner.action_label(&s.inner, a)
    }
    fn infoset_label(&self, info: &InfoInterner, set: u32) -> String {
        self.inner.infoset_label(info, set)
    }
}

/// Exploring a chance node with thousands of outcomes holds only the
/// states on the current path (holding every outcome's state, each with a
/// deck, at once would exhaust memory on a wide deal), and the run still
/// stops at the memory limit.
#[test]
fn wide_chance_nodes_hold_few_states() {
    let src = std::fs::read_to_string(repo_root().join("examples/leduc.gala")).expect("example");
    let params = ["ranks=1000".to_string()];
    let inner =
        galac_compiler::driver::load_interp("leduc.gala", src.as_bytes(), &params).unwrap_or_else(|e| panic!("{e}"));
    let game = Counted { inner, live: Rc::default(), peak: Rc::default() };
    let options = DoOptions { memory: MemoryLimit::from_bytes(1 << 20), ..DoOptions::default() };
    let mut interner = InfoInterner::new();
    let err = solve_game(&game, &mut interner, &options, &mut RunToEnd).err().map(|e| e.to_string());
    assert!(err.as_deref().is_some_and(|e| e.contains("MiB, the memory limit")), "{err:?}");
    // The root's chance node alone has 2,000 outcomes.
    assert!(game.peak.get() <= 64, "{} states alive at once", game.peak.get());
}

/// The paper's favourable domain: on the search game the final restricted
/// game holds a small share of the sequences (at most a tenth is required;
/// BENCHMARKS.md, Double oracle), and the answers are exact as everywhere.
#[test]
fn search_game_needs_few_sequences() {
    for params in [&["graph=0", "depth=3"][..], &["graph=2", "depth=3"], &["graph=1", "depth=4"]] {
        for checked in check_example("search_game.gala", params) {
            let (small, full) =
                (checked.sequences[0] + checked.sequences[1], checked.full_sequences[0] + checked.full_sequences[1]);
            let share = small as f64 / full as f64;
            eprintln!("search_game {params:?}: {small} of {full} sequences ({:.1}%)", 100.0 * share);
            assert!(share <= 0.1, "search_game {params:?}: {small} of {full} sequences");
        }
    }
}

#[test]
fn kuhn() {
    check_example("kuhn.gala", &[]);
}

#[test]
fn leduc() {
    for checked in check_example("leduc.gala", &[]) {
        // The restricted game never holds more sequences than the game.
        for p in 0..2 {
            assert!(checked.sequences[p] <= checked.full_sequences[p]);
        }
    }
}

#[test]
fn inspection() {
    for (stages, inspections) in [(2, 1), (3, 1), (4, 2), (5, 2)] {
        let params = [format!("stages={stages}"), format!("inspections={inspections}")];
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        check_example("inspection.gala", &params);
    }
}

#[test]
fn poker() {
    check_example("poker.gala", &[]);
    check_example("poker.gala", &["ranks=4", "cash=2"]);
}

#[test]
fn three_player_games_are_refused() {
    // nim222 has three players: the oracle refuses it with an error, not a panic.
    let src = std::fs::read_to_string(repo_root().join("examples/nim222.gala")).expect("nim");
    let game = galac_compiler::driver::load_interp("nim222.gala", src.as_bytes(), &[]).expect("valid");
    let mut interner = InfoInterner::new();
    let err = solve_game(&game, &mut interner, &DoOptions::default(), &mut RunToEnd).expect_err("three players");
    assert!(err.to_string().contains("2 players"), "{err}");
}

/// The generator's programs of seeds `0..n` that load, have two players
/// and build within 20,000 nodes, each with its seed and source (to name
/// it in a failure).
fn two_player_programs(n: u64) -> impl Iterator<Item = (String, galac_compiler::interp::Interp)> {
    (0..n).filter_map(|seed| {
        let generated = progen::program(seed);
        let name = format!("g{seed}.gala");
        let game = galac_compiler::driver::load_interp(&name, generated.source.as_bytes(), &generated.params).ok()?;
        let opts = BuildOptions { max_nodes: 20_000, ..BuildOptions::default() };
        let fits = game.info().players.len() == 2 && build(&game, &opts).is_ok();
        fits.then(|| (format!("seed {seed}:\n{}", generated.source), game))
    })
}

/// Random programs of the generator that are two-player constant-sum.
#[test]
fn random_programs() {
    let n: u64 = std::env::var("GALAC_DO_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let checked = two_player_programs(n).filter(|(what, game)| check_game(game, what).is_some()).count() as u64;
    assert!(checked >= n / 10, "only {checked} of {n} programs were two-player zero-sum");
}

/// The double-oracle paper's generic poker (copied from the `ex` branch);
/// its defaults are Leduc.
#[test]
fn generic_poker() {
    check_example("generic_poker.gala", &["types=2", "bet_sizes=2"]);
    // One of the suite's longest runs; the game above takes the same code.
    if crate::slow_part("double_oracle::generic_poker: the default game") {
        check_example("generic_poker.gala", &[]);
    }
}

#[test]
fn goofspiel() {
    check_example("goofspiel.gala", &["cards=3"]);
    check_example("goofspiel.gala", &[]);
}

/// The pruned best responses bound a subtree by the largest payoff met so
/// far; here the first searches meet only the payoff 1 and cut the branch
/// holding 5. The unpruned search that certifies a closing gap finds it,
/// and the run goes on to the true value 5.
#[test]
fn pruning_with_the_payoffs_met_is_certified() {
    let src = "game hidden_prize {
        players a, b;
        flow {
            choose a x in 0..2;
            if x == 0 { outcome [1, -1]; }
            choose a y in 0..2;
            if y == 0 { outcome [0, 0]; }
            choose b z in 0..2;
            outcome [5, -5];
        }
    }";
    let game = galac_compiler::driver::load_interp("hidden_prize.gala", src.as_bytes(), &[]).expect("valid");
    check_game(&game, "hidden_prize").expect("two-player zero-sum");
    let mut interner = InfoInterner::new();
    let sol = solve_game(&game, &mut interner, &DoOptions::default(), &mut RunToEnd).expect("solves");
    assert_eq!((sol.lower, sol.upper), (5.0, 5.0));
    let caught = sol.iterations.iter().any(|it| it.certified && it.added[0] > 0);
    assert!(caught, "a certifying search added the pruned sequence: {:?}", sol.iterations);
    // Certified on the tree, the pruned bounds are found open there: the
    // run's own unpruned searches then certify (the certifier is not
    // asked again), find the sequence and go on to the same answer.
    let (tree, mut interner, _) = build_own(&game, &BuildOptions::default()).expect("builds");
    let (mut asked, mut certify) = (0, certifier(&tree));
    let mut counted = |c: &Candidate<'_>| {
        asked += 1;
        certify(c)
    };
    let on_tree = solve_game_certified(&game, &mut interner, &DoOptions::default(), &mut RunToEnd, Some(&mut counted))
        .expect("solves");
    assert_eq!(asked, 1, "asked once, and found the gap open");
    assert!(!on_tree.tree_certified);
    assert_eq!(curve(&on_tree), curve(&sol));
}

/// Each iteration's bounds, sizes, additions and kind, without timings.
#[allow(clippy::type_complexity)]
fn curve(sol: &DoSolution) -> Vec<(Option<f64>, Option<f64>, [usize; 2], [usize; 2], bool)> {
    sol.iterations.iter().map(|it| (it.lower, it.upper, it.sequences, it.added, it.certified)).collect()
}

/// On Leduc (seeded as `solve` seeds it, and from the paper's start) the
/// run's pruned bounds are certified by the tree's evaluation: it ends
/// there, after as many iterations as its own unpruned searches would
/// take, with the same bounds, having explored no more of the game.
#[test]
fn a_certifier_on_the_tree_ends_the_run() {
    let game = crate::trees::example("leduc.gala", &[]);
    for seeded in [false, true] {
        let (tree, mut interner, _) = build_own(&game, &BuildOptions::default()).expect("builds");
        let mut options = DoOptions::default();
        if seeded {
            options.seed = galac_app::registry::double_oracle::cfr_support(&tree, 100).expect("runs");
        }
        let own = solve_game(&game, &mut interner, &options, &mut RunToEnd).expect("solves");
        let mut certify = certifier(&tree);
        let on_tree =
            solve_game_certified(&game, &mut interner, &options, &mut RunToEnd, Some(&mut certify)).expect("solves");
        assert!(on_tree.tree_certified && !own.tree_certified, "seeded: {seeded}");
        assert_eq!(on_tree.iterations.len(), own.iterations.len(), "seeded: {seeded}");
        assert!((on_tree.lower - own.lower).abs() < 1e-12 && (on_tree.upper - own.upper).abs() < 1e-12);
        assert!(on_tree.explored <= own.explored);
        // Leduc's value (OpenSpiel's, docs/language.md): -0.0856064.
        assert!((on_tree.lower + 0.0856064).abs() < 1e-6, "value {}", on_tree.lower);
        check_answer(&tree, &on_tree, on_tree.lower, &format!("leduc, seeded: {seeded}"));
    }
}

/// Seeded starts (`DoOptions::seed`). With every action seeded the first
/// restricted game is the whole game: its first iteration holds every
/// sequence and its first bounds are already exact. With the support of a
/// short CFR+ run (`solve --warm-start-cfr`) the answer is as exact as
/// the paper's start, on examples and random programs.
#[test]
fn seeded_starts_are_exact() {
    let mut games: Vec<(String, galac_compiler::interp::Interp)> = Vec::new();
    for file in ["kuhn.gala", "leduc.gala", "goofspiel.gala"] {
        let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example");
        games.push((file.into(), galac_compiler::driver::load_interp(file, src.as_bytes(), &[]).expect("loads")));
    }
    games.extend(two_player_programs(60));
    let mut checked = 0;
    for (what, game) in &games {
        let (tree, mut interner, _) = build_own(game, &BuildOptions::default()).expect("builds");
        let Ok(sf) = SequenceForm::new(&tree) else { continue };
        let lp_value = lp::solve(&sf, Backend::Clarabel, None).expect("LP").value;
        let all: IdVec<InfosetId, Vec<u32>> = tree.infosets.iter().map(|i| (0..i.n_actions).collect()).collect();
        // The seed `--warm-start-cfr 20` starts from.
        let support = galac_app::registry::double_oracle::cfr_support(&tree, 20).expect("CFR+");
        for (name, seed) in [("every action", all), ("CFR+ support", support)] {
            let options = DoOptions { seed, ..DoOptions::default() };
            let sol = solve_game(game, &mut interner, &options, &mut RunToEnd).expect("solves");
            check_answer(&tree, &sol, lp_value, &format!("{what} ({name})"));
            if name == "every action" {
                let first = &sol.iterations[0];
                assert_eq!(
                    first.sequences,
                    [sf.treeplex.n_seqs(PlayerId(0)), sf.treeplex.n_seqs(PlayerId(1))],
                    "{what}"
                );
                let gap = first.upper.zip(first.lower).map(|(u, l)| u - l);
                assert!(gap.is_some_and(|g| g <= 1e-9 * payoff_range(&tree)), "{what}: first gap {gap:?}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} two-player zero-sum games");
}

/// The bounds are the best of all iterations' best responses (as the
/// paper keeps them), so they never loosen, and a run stopped after any
/// number of iterations returns the strategies they answered: on the full
/// tree its NashConv is exactly its gap, and its bounds are the tree's
/// best responses to it. Unpruned, every iteration's bounds are exact, so
/// they are monotone; pruned, the stopped run certifies them.
#[test]
fn stopped_runs_return_the_best_strategies_met() {
    let src = std::fs::read_to_string(repo_root().join("examples/leduc.gala")).expect("example");
    let game = galac_compiler::driver::load_interp("leduc.gala", src.as_bytes(), &[]).expect("valid");
    let (tree, mut interner, _) = build_own(&game, &BuildOptions::default()).expect("builds");
    for prune in [false, true] {
        for &variant in Variant::ALL {
            for max_iterations in [2, 5, 9, 14] {
                let options = DoOptions { variant, prune, max_iterations, ..DoOptions::default() };
                let sol = solve_game(&game, &mut interner, &options, &mut RunToEnd).expect("solves");
                let what = format!("do-{} prune {prune}, {max_iterations} iterations", variant.name());
                assert!(!sol.stalled, "{what}: a stopped run is not a stalled one");
                let eval = evaluate(&tree, &sol.profile(&tree).expect("same interner"));
                assert!(
                    (eval.nash_conv - sol.gap()).abs() <= 1e-9,
                    "{what}: NashConv {} != gap {}",
                    eval.nash_conv,
                    sol.gap()
                );
                assert!((sol.upper - eval.best_response[0]).abs() <= 1e-9, "{what}: upper bound");
                assert!((sol.lower + eval.best_response[1]).abs() <= 1e-9, "{what}: lower bound");
                let known: Vec<(f64, f64)> = sol.iterations.iter().filter_map(|i| i.lower.zip(i.upper)).collect();
                if !prune {
                    for w in known.windows(2) {
                        assert!(w[1].0 >= w[0].0 && w[1].1 <= w[0].1, "{what}: the bounds loosened: {w:?}");
                    }
                }
                let last = known.last().expect("bounds");
                assert_eq!(*last, (sol.lower, sol.upper), "{what}: the answer's bounds are the last iteration's");
            }
        }
    }
}

/// A CFR+ warm start's average on its support, as a default strategy
/// (`solve --warm-start-cfr N --do-default cfr`), with the support as seed.
pub(crate) fn cfr_default(tree: &Tree, iterations: u64) -> (DefaultStrategy, IdVec<InfosetId, Vec<u32>>) {
    let average = galac_app::registry::double_oracle::cfr_average(tree, iterations, 1).expect("CFR+");
    let seed = average.iter().map(|set| set.iter().map(|&(a, _)| a).collect()).collect();
    (DefaultStrategy::from_weights(&average), seed)
}

/// Examples and random programs with their trees, for the mixed-default tests.
fn small_games() -> Vec<(String, galac_compiler::interp::Interp)> {
    let mut games: Vec<(String, galac_compiler::interp::Interp)> = Vec::new();
    for (file, params) in
        [("kuhn.gala", &[][..]), ("leduc.gala", &[]), ("goofspiel.gala", &[]), ("phantom_ttt.gala", &["marks=4"])]
    {
        let src = std::fs::read_to_string(repo_root().join("examples").join(file)).expect("example");
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let game = galac_compiler::driver::load_interp(file, src.as_bytes(), &params).expect("loads");
        games.push((format!("{file} {params:?}"), game));
    }
    games.extend(two_player_programs(60));
    games
}

/// With a mixed default strategy (a short CFR+ run's average on its
/// support) the answer is as exact as with the paper's first action: the
/// LP's value, NashConv at most 1e-9 of the range on the full tree, from
/// the paper's start and from the warm start's seed, every variant.
#[test]
fn mixed_defaults_are_exact() {
    let mut checked = 0;
    for (what, game) in &small_games() {
        let (tree, mut interner, _) = build_own(game, &BuildOptions::default()).expect("builds");
        let Ok(sf) = SequenceForm::new(&tree) else { continue };
        let lp_value = lp::solve(&sf, Backend::Clarabel, None).expect("LP").value;
        let (default, support) = cfr_default(&tree, 20);
        for (start, seed) in [("paper's start", IdVec::new()), ("CFR+ support", support)] {
            for &variant in Variant::ALL {
                let options =
                    DoOptions { variant, seed: seed.clone(), default: default.clone(), ..DoOptions::default() };
                let sol = solve_game(game, &mut interner, &options, &mut RunToEnd).expect("solves");
                check_answer(&tree, &sol, lp_value, &format!("{what} ({start}, do-{}, CFR+ default)", variant.name()));
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} two-player zero-sum games");
}

/// The first player's payoff below `node` when `mover` plays `default` and
/// the other player best-responds seeing everything: a temporary leaf's
/// value, computed on the tree.
fn leaf_value(tree: &Tree, node: NodeId, mover: PlayerId, default: &DefaultStrategy) -> f64 {
    let mut below = tree.children(node).map(|c| leaf_value(tree, c, mover, default));
    match tree.node(node) {
        NodeView::Terminal => tree.payoffs(node)[0] as f64,
        NodeView::Chance => below.zip(tree.chance_probs(node)).map(|(v, p)| p.to_f64() * v).sum(),
        NodeView::Decision { player, infoset } if player == mover => {
            below.enumerate().map(|(a, v)| default.prob(infoset, a as u32) * v).sum()
        }
        NodeView::Decision { player: PlayerId(0), .. } => below.fold(f64::NEG_INFINITY, f64::max),
        NodeView::Decision { .. } => below.next().map_or(0.0, |v| below.fold(v, f64::min)),
    }
}

/// The value of the first restricted game, where nothing is allowed: the
/// first decision nodes below chance are its temporary leaves.
fn empty_restricted_value(tree: &Tree, node: NodeId, default: &DefaultStrategy) -> f64 {
    match tree.node(node) {
        NodeView::Terminal => tree.payoffs(node)[0] as f64,
        NodeView::Chance => tree
            .children(node)
            .zip(tree.chance_probs(node))
            .map(|(c, p)| p.to_f64() * empty_restricted_value(tree, c, default))
            .sum(),
        NodeView::Decision { player, .. } => leaf_value(tree, node, player, default),
    }
}

/// The default strategy as a profile of the tree.
fn default_profile(tree: &Tree, default: &DefaultStrategy) -> Profile {
    let mut profile = Profile::uniform(tree);
    for set in tree.infosets.keys() {
        for (a, x) in profile.probs_mut(set).iter_mut().enumerate() {
            *x = default.prob(set, a as u32);
        }
    }
    profile
}

/// The default strategy is used where the restricted game is silent: in
/// the first iteration (nothing allowed) the restricted game's value is
/// the temporary leaves' values computed on the tree with the mixed
/// default, and the unpruned bounds are the tree's best responses to the
/// default itself; on Leduc these differ from the first action's.
#[test]
fn the_first_iteration_plays_the_default_strategy() {
    let mut differ = false;
    for (what, game) in &small_games() {
        let (tree, mut interner, _) = build_own(game, &BuildOptions::default()).expect("builds");
        if SequenceForm::new(&tree).is_err() {
            continue;
        }
        let c = (tree.payoffs(first_leaf(&tree))[0] + tree.payoffs(first_leaf(&tree))[1]) as f64;
        let (mixed, _) = cfr_default(&tree, 20);
        for default in [DefaultStrategy::default(), mixed] {
            let options =
                DoOptions { default: default.clone(), prune: false, max_iterations: 1, ..DoOptions::default() };
            let sol = solve_game(game, &mut interner, &options, &mut RunToEnd).expect("solves");
            let first = &sol.iterations[0];
            let value = empty_restricted_value(&tree, NodeId::ROOT, &default);
            assert!((first.lp_value - value).abs() <= 1e-9, "{what}: LP {} != leaves {value}", first.lp_value);
            let eval = evaluate(&tree, &default_profile(&tree, &default));
            let expected = (c - eval.best_response[1], eval.best_response[0]);
            let (lo, hi) = (first.lower.expect("lower"), first.upper.expect("upper"));
            assert!((lo - expected.0).abs() <= 1e-9 && (hi - expected.1).abs() <= 1e-9, "{what}: {lo}, {hi}");
            if what.starts_with("leduc") && !default.is_first_action() {
                let first_action = evaluate(&tree, &default_profile(&tree, &DefaultStrategy::default()));
                differ = (first_action.best_response[0] - expected.1).abs() > 1e-3;
            }
        }
    }
    assert!(differ, "on Leduc the mixed default's bounds are the first action's");
}
