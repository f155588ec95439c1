//! max^n searched over the game's own states, without building the tree,
//! optionally with a transposition table: two nodes whose positions
//! ([`Game::position_key`]: where the flow is, the variables, the live
//! locals and the payoffs so far) are equal have the same subtree, so it is
//! searched once. The table is keyed by a hash of the position's words and
//! every hit is confirmed by comparing the words in full.
//!
//! The backed-up vectors and the root choice are those of [`super::full`]
//! on the tree (the same sums in the same order); the counts say how much
//! of the tree the search expanded.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use galac_runtime::game::{Game, Node};
use galac_runtime::info::InfoInterner;
use galac_runtime::memory::MemoryLimit;
use galac_runtime::rational::Ratio;

use super::search::{tied, Ties};
use crate::solver::SolveError;

/// Counts of one search over states.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateStats {
    /// Nodes expanded (advanced to): decisions, chance nodes and leaves.
    pub nodes: u64,
    /// Nodes whose position was found in the table (their subtree skipped).
    pub transpositions: u64,
    /// Positions stored in the table.
    pub stored: u64,
    /// Words of the stored positions (the table's keys).
    pub key_words: u64,
    /// Expanded decision nodes whose best children tie.
    pub ties: u64,
    /// Nodes at the depth limit valued by the game's `evaluate`.
    pub evaluated: u64,
}

/// How to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateOptions {
    /// Search each position once (a transposition table).
    pub transpositions: bool,
    /// Look-ahead: nodes this many moves (decisions and chance outcomes)
    /// below the root that are not leaves are valued by the game's
    /// heuristic ([`Game::evaluate`]) instead of searched.
    pub depth: Option<u32>,
    /// Bytes the search may hold (the information states it interns, the
    /// table, its stacks): beyond them it stops with
    /// [`SolveError::TooMuchMemory`] instead of running out of memory
    /// (`None`: no limit; see [`StateOptions::memory`]).
    pub memory: MemoryLimit,
}

impl StateOptions {}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct StateResult {
    /// The root's max^n vector.
    pub value: Vec<f64>,
    /// The root's first best action (`None` if the root is not a decision).
    pub choice: Option<u32>,
    /// The principal variation: the first best action of each decision on
    /// the chosen path from the root, until a leaf, a chance node or the
    /// depth limit.
    pub principal_variation: Vec<u32>,
    /// The principal variation ends at a chance node.
    pub pv_ends_at_chance: bool,
    pub stats: StateStats,
}

/// Nodes searched between two checks of the memory held.
const MEMORY_CHECK_EVERY: u64 = 1024;

/// Marks a principal variation that ends at a chance node.
const CHANCE: u32 = u32::MAX;

/// Searches `game` from its root with max^n under `ties`, as `options` say.
/// Refuses a game whose searched nodes share an information set (imperfect
/// information), a game that cannot give positions (with transpositions)
/// or has no heuristic (with a depth), and a play that comes back to a
/// position it is still searching.
pub fn search<G: Game>(game: &G, ties: Ties, options: StateOptions) -> Result<StateResult, SolveError> {
    let n = game.info().players.len();
    let mut s = StateSearch {
        game,
        ties,
        n,
        options,
        info: InfoInterner::new(),
        states: Vec::new(),
        kids: Vec::new(),
        probs: Vec::new(),
        ratios: Vec::new(),
        pay: Vec::new(),
        key: Vec::new(),
        table: Table::default(),
        n_infosets: 0,
        root_choice: None,
        pv: Vec::new(),
        stats: StateStats::default(),
    };
    let root = game.root()?;
    s.states.push(root);
    s.node(0, 0)?;
    s.check_memory()?;
    let value = s.kids[..n].to_vec();
    let mut principal_variation = if options.transpositions { s.table_pv()? } else { s.pv[0].clone() };
    let pv_ends_at_chance = principal_variation.last() == Some(&CHANCE);
    if pv_ends_at_chance {
        principal_variation.pop();
    }
    Ok(StateResult { value, choice: s.root_choice, principal_variation, pv_ends_at_chance, stats: s.stats })
}

/// A hasher for keys that are already hashes.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The transposition table: positions' words and vectors in flat arenas,
/// found through a hash of the words and chained on collisions.
#[derive(Default)]
struct Table {
    /// The newest entry of each hash.
    first: HashMap<u64, u32, BuildHasherDefault<Identity>>,
    /// Per entry: start of its words, their number, the next entry with the
    /// same hash (`u32::MAX`: none).
    entries: Vec<(usize, u32, u32)>,
    words: Vec<u64>,
    /// `n` entries per stored position (NaN while it is being searched).
    values: Vec<f64>,
    /// Per stored position: its first best action, or [`CHANCE`] at a
    /// chance node, `u32::MAX - 1` where the search stopped (a leaf, the
    /// depth limit).
    best: Vec<u32>,
}

impl Table {
    /// The entry holding exactly `key`.
    fn find(&self, hash: u64, key: &[u64]) -> Option<u32> {
        let mut e = *self.first.get(&hash)?;
        while e != u32::MAX {
            let (start, len, next) = self.entries[e as usize];
            if &self.words[start..start + len as usize] == key {
                return Some(e);
            }
            e = next;
        }
        None
    }

    /// Stores `key` with an unknown vector; returns its entry.
    fn insert(&mut self, hash: u64, key: &[u64], n: usize) -> u32 {
        let e = self.entries.len() as u32;
        let next = self.first.insert(hash, e).unwrap_or(u32::MAX);
        self.entries.push((self.words.len(), key.len() as u32, next));
        self.words.extend_from_slice(key);
        self.values.extend(std::iter::repeat_n(f64::NAN, n));
        self.best.push(u32::MAX - 1);
        e
    }

    /// Bytes held (capacities; the hash map's slots counted at a key, a
    /// value and a control byte each).
    fn bytes(&self) -> u64 {
        (self.first.capacity() * 13
            + self.entries.capacity() * std::mem::size_of::<(usize, u32, u32)>()
            + self.words.capacity() * 8
            + self.values.capacity() * 8
            + self.best.capacity() * 4) as u64
    }
}

/// FxHash-style mixing of the words.
fn hash_words(words: &[u64]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for w in words {
        h.write_u64(*w);
    }
    h.finish()
}

/// One search: the game, its buffers (stacks shared by the whole path, so
/// that no node allocates), the table and the counts.
struct StateSearch<'g, G: Game> {
    game: &'g G,
    ties: Ties,
    n: usize,
    options: StateOptions,
    info: InfoInterner,
    /// States waiting to be searched: each node's children, pushed together
    /// (a compiled game's `apply` reads candidates of the last `advance`).
    states: Vec<G::State>,
    /// Vectors of searched children, `n` each, popped by their parent.
    kids: Vec<f64>,
    /// Chance probabilities of the nodes on the path.
    probs: Vec<f64>,
    ratios: Vec<Ratio>,
    pay: Vec<i64>,
    key: Vec<u64>,
    table: Table,
    /// Information sets met so far (the interner numbers them densely).
    n_infosets: u32,
    root_choice: Option<u32>,
    /// Per depth: the principal variation below the node searched last at
    /// that depth (rows reused, so no node allocates once they have grown).
    pv: Vec<Vec<u32>>,
    stats: StateStats,
}

impl<G: Game> StateSearch<'_, G> {
    /// Searches the state at `self.states[at]` (after `apply`, before
    /// `advance`), `depth` moves below the root, and pushes its vector onto
    /// `kids`.
    fn node(&mut self, at: usize, depth: u32) -> Result<(), SolveError> {
        if depth > super::search::MAX_SEARCH_DEPTH {
            return Err(SolveError::Unsupported {
                solver: "max^n",
                reason: format!("a play is more than {} moves long", super::search::MAX_SEARCH_DEPTH),
            });
        }
        if self.pv.len() <= depth as usize {
            self.pv.push(Vec::new());
        }
        self.pv[depth as usize].clear();
        let entry = if self.options.transpositions {
            if !self.game.position_key(&self.states[at], &mut self.key) {
                return Err(SolveError::Unsupported {
                    solver: "max^n with transpositions",
                    reason: "the game does not give its positions".into(),
                });
            }
            if let Some(limit) = self.options.depth {
                // A position's value depends on the moves left to search.
                self.key.push(u64::from(limit - depth));
            }
            let hash = hash_words(&self.key);
            if let Some(e) = self.table.find(hash, &self.key) {
                let v = &self.table.values[e as usize * self.n..(e as usize + 1) * self.n];
                if v[0].is_nan() {
                    return Err(SolveError::Unsupported {
                        solver: "max^n",
                        reason: "a play comes back to a position it went through: the game may never end".into(),
                    });
                }
                self.kids.extend_from_slice(v);
                self.stats.transpositions += 1;
                return Ok(());
            }
            self.stats.stored += 1;
            self.stats.key_words += self.key.len() as u64;
            Some(self.table.insert(hash, &self.key, self.n) as usize)
        } else {
            None
        };
        self.stats.nodes += 1;
        if self.stats.nodes.is_multiple_of(MEMORY_CHECK_EVERY) {
            self.check_memory()?;
        }
        let node = self.game.advance(&mut self.states[at], &mut self.info)?;
        let at_limit = self.options.depth == Some(depth) && node != Node::Terminal;
        match node {
            _ if at_limit => {
                let unsupported =
                    |reason: String| SolveError::Unsupported { solver: "max^n with a depth limit", reason };
                let Some(den) = self.game.evaluate(&self.states[at], &mut self.pay)? else {
                    return Err(unsupported(
                        "the game has no `evaluate` fn to value the positions where the search stops".into(),
                    ));
                };
                if den <= 0 || self.pay.len() != self.n {
                    return Err(unsupported(format!(
                        "`evaluate` gave {} values over {den} for {} players (a positive denominator is needed)",
                        self.pay.len(),
                        self.n
                    )));
                }
                self.stats.evaluated += 1;
                self.kids.extend(self.pay.iter().map(|x| *x as f64 / den as f64));
            }
            Node::Terminal => {
                let pay = self.game.payoffs(&self.states[at], &mut self.pay);
                self.kids.extend(pay.iter().map(|x| *x as f64));
            }
            Node::Chance { n_outcomes } => {
                self.game.chance_probs(&self.states[at], &mut self.ratios);
                let base = self.probs.len();
                self.probs.extend(self.ratios.iter().map(|r| r.to_f64()));
                self.children(at, n_outcomes, depth, None)?;
                self.pv[depth as usize].push(CHANCE);
                if let Some(e) = entry {
                    self.table.best[e] = CHANCE;
                }
                // The sum is written after the children's vectors, then moved
                // over them (no allocation per node).
                let (n, m) = (self.n, n_outcomes as usize);
                let kids = self.kids.len() - m * n;
                let out = self.kids.len();
                self.kids.extend(std::iter::repeat_n(0.0, n));
                for k in 0..m {
                    for p in 0..n {
                        self.kids[out + p] += self.probs[base + k] * self.kids[kids + k * n + p];
                    }
                }
                self.probs.truncate(base);
                self.kids.copy_within(out.., kids);
                self.kids.truncate(kids + n);
            }
            Node::Decision { player, infoset, n_actions } => {
                if infoset < self.n_infosets {
                    let label = self.game.infoset_label(&self.info, infoset);
                    return Err(SolveError::Unsupported {
                        solver: "max^n",
                        reason: format!(
                            "the game is not of perfect information: information set \"{label}\" holds two nodes"
                        ),
                    });
                }
                self.n_infosets = infoset + 1;
                self.children(at, n_actions, depth, Some(player as usize))?;
                let best = self.back_up(player as usize, n_actions as usize);
                if at == 0 {
                    self.root_choice = Some(best);
                }
                if let Some(e) = entry {
                    self.table.best[e] = best;
                }
            }
        }
        if let Some(e) = entry {
            let v = &self.kids[self.kids.len() - self.n..];
            self.table.values[e * self.n..(e + 1) * self.n].copy_from_slice(v);
        }
        Ok(())
    }

    /// Applies each of `m` actions to a copy of the state at `at`, then
    /// searches the copies in order; their vectors end `kids`. At a node of
    /// `player`, the principal variation at `depth` follows the first best
    /// child so far (the rule of [`Self::back_up`]).
    fn children(&mut self, at: usize, m: u32, depth: u32, player: Option<usize>) -> Result<(), SolveError> {
        let base = self.states.len();
        for a in 0..m {
            let mut child = self.states[at].clone();
            self.game.apply(&mut child, a, &mut self.info)?;
            self.states.push(child);
        }
        let (n, d) = (self.n, depth as usize);
        let first_kid = self.kids.len();
        let mut top = f64::NAN;
        for k in 0..m as usize {
            self.node(base + k, depth + 1)?;
            let Some(p) = player else { continue };
            let v = self.kids[first_kid + k * n + p];
            if k == 0 || (v > top && !tied(v, top)) {
                top = v;
                let (rows, below) = self.pv.split_at_mut(d + 1);
                rows[d].clear();
                rows[d].push(k as u32);
                rows[d].extend_from_slice(&below[0]);
            }
        }
        self.states.truncate(base);
        Ok(())
    }

    /// Fails when the information states, the table and the stacks hold
    /// more than the options allow.
    fn check_memory(&self) -> Result<(), SolveError> {
        let needed = self.info.bytes() as u64
            + self.table.bytes()
            + (self.states.capacity() * std::mem::size_of::<G::State>()) as u64
            + (self.kids.capacity() * 8 + self.key.capacity() * 8) as u64;
        self.options.memory.check(needed)?;
        Ok(())
    }

    /// The principal variation read from the table: from the root, the
    /// stored first best action of each position, until a position where
    /// the search stopped or a chance node ([`CHANCE`] ends the path).
    fn table_pv(&mut self) -> Result<Vec<u32>, SolveError> {
        let mut state = self.game.root()?;
        let mut path = Vec::new();
        let mut depth = 0u32;
        loop {
            self.game.position_key(&state, &mut self.key);
            if let Some(limit) = self.options.depth {
                self.key.push(u64::from(limit - depth));
            }
            let Some(e) = self.table.find(hash_words(&self.key), &self.key) else { break };
            let best = self.table.best[e as usize];
            if best == u32::MAX - 1 {
                break;
            }
            path.push(best);
            if best == CHANCE {
                break;
            }
            self.game.advance(&mut state, &mut self.info)?;
            self.game.apply(&mut state, best, &mut self.info)?;
            depth += 1;
        }
        Ok(path)
    }

    /// Replaces the `m` child vectors ending `kids` by the vector a node of
    /// `player` backs up (as [`super::full::backward`] does); returns the
    /// first best child.
    fn back_up(&mut self, player: usize, m: usize) -> u32 {
        let n = self.n;
        let base = self.kids.len() - m * n;
        let at = |k: usize| base + k * n;
        let mut first = 0;
        for k in 0..m {
            let (v, top) = (self.kids[at(k) + player], self.kids[at(first) + player]);
            if v > top && !tied(v, top) {
                first = k;
            }
        }
        let top = self.kids[at(first) + player];
        let count = (0..m).filter(|&k| tied(self.kids[at(k) + player], top)).count();
        if count > 1 {
            self.stats.ties += 1;
        }
        match self.ties {
            Ties::First => {
                self.kids.copy_within(at(first)..at(first) + n, base);
            }
            Ties::Average => {
                // Summed after the children's vectors, then moved over them.
                let out = self.kids.len();
                self.kids.extend(std::iter::repeat_n(0.0, n));
                for k in 0..m {
                    if !tied(self.kids[at(k) + player], top) {
                        continue;
                    }
                    for p in 0..n {
                        self.kids[out + p] += self.kids[at(k) + p] / count as f64;
                    }
                }
                self.kids.copy_within(out.., base);
            }
        }
        self.kids.truncate(base + n);
        first as u32
    }
}
