//! The IR interpreter: runs a lowered game and implements the runtime's
//! [`Game`] trait, so the runtime can build its tree. It is the reference
//! the compiled code is tested against.

mod candidates;
mod deal;
mod delta;
mod env;
mod eval;
mod recent;

use std::rc::Rc;
use std::sync::Arc;

use galac_runtime::game::{Donors, Game, GameError, GameInfo, Node};
use galac_runtime::info::{InfoInterner, InfoState, CHOSE_TAG};
use galac_runtime::ops::{self, At, Odds};
use galac_runtime::rational::Ratio;
use galac_runtime::value::{Encode, Rows};

use crate::ir::{self, Term};
use crate::source::SourceFile;
use crate::span::Span;
use crate::typeck::consts::ParamValue;
use crate::typeck::tast::{self, ArithOp};
use env::{bind, Budget, Env};
/// The interpreter's values: the runtime's dynamic values.
pub use galac_runtime::value::Dyn as Value;

pub use galac_runtime::game::DEFAULT_STEP_LIMIT;

/// The source file under the name the interpreter's callers know: its
/// line index locates run-time errors.
pub use crate::source::SourceFile as Locator;

/// A span to locate an operation's error, formatted only if it fails.
#[derive(Clone, Copy)]
pub(crate) struct Loc<'a> {
    locator: &'a SourceFile,
    span: Span,
}

impl At for Loc<'_> {
    fn at(self) -> String {
        self.locator.at(self.span)
    }
}

pub struct Interp {
    /// Shared by every instance of one compiled game (one per thread).
    ir: Arc<ir::Program>,
    info: GameInfo,
    params: Vec<Value>,
    fns: Vec<tast::Fn>,
    enums: Vec<tast::Enum>,
    n_players: u32,
    locator: Arc<SourceFile>,
    pub step_limit: u64,
    /// A reused buffer for fact and choice words (no allocation per node).
    words: std::cell::RefCell<Vec<u64>>,
    /// Fn call frames given back, reused by the next calls (a frame was two
    /// allocations and a reallocation a call; liar's dice calls one a leaf).
    frames: std::cell::RefCell<Vec<Vec<Value>>>,
    /// Per fn, its last calls and results ([`recent::RecentCalls`]): a
    /// decision's moves are one call with the same arguments at every deal.
    recent_calls: std::cell::RefCell<Vec<recent::RecentCalls>>,
    /// Per block, its player's choice's remembered candidates
    /// ([`recent::ChoiceMemo`]).
    choice_memo: std::cell::RefCell<Vec<recent::ChoiceMemo<Pending>>>,
    /// Per block ending in a player's choice that is remembered, what its
    /// candidates are a function of ([`recent::memo_reads`]).
    memo_reads: Vec<Option<recent::MemoReads>>,
    /// Per block ending in a choice with a `where`, its conjuncts' results
    /// remembered ([`recent::ConjunctMemo`]) and what each reads.
    conjunct_memo: std::cell::RefCell<Vec<recent::ConjunctMemo>>,
    conjunct_reads: Vec<Option<recent::Conjuncts>>,
    labeler: galac_runtime::labels::Labeler,
    /// Per block, the locals live at its start (for [`Game::position_key`]).
    live: Vec<Vec<u32>>,
    /// Per block, whether its choice's own-move record carries the offered
    /// list ([`crate::offers`]).
    remembered: Vec<bool>,
    /// Per block, whether a run from its start may stop at a chance node
    /// before any decision or the end ([`chance_ahead`]).
    chance_ahead: Vec<bool>,
    /// The `evaluate` fn and the variables it takes (for [`Game::evaluate`]).
    evaluate: Option<(tast::FnId, Vec<u32>)>,
    /// The proof that one representative deal may walk the public tree
    /// ([`crate::public::public_course`]), or why not, located.
    course: Result<crate::public::PublicCourse, String>,
}

/// A point in a play: the slots, where the flow is, the payoffs so far and
/// every player's information state.
///
/// The slot vector also holds, after the IR's slots, each player's payoff and
/// then each player's information state, so that cloning a state is one
/// allocation.
pub struct State {
    slots: Vec<Value>,
    block: u32,
    /// The candidates of the choice the state waits at.
    pending: Option<Rc<Pending>>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State { slots: self.slots.clone(), block: self.block, pending: self.pending.clone() }
    }

    /// Into `self`'s slot vector (a derivation copies one state per deal).
    fn clone_from(&mut self, from: &State) {
        self.slots.clone_from(&from.slots);
        self.block = from.block;
        self.pending.clone_from(&from.pending);
    }
}

/// The candidates of the choice a state waits at, and their odds.
struct Pending {
    chooser: Option<u32>,
    /// The candidates (empty where they are `rows`).
    values: Vec<Value>,
    /// Nature's deals of `deal_hands`: each deal's items as a row.
    rows: Option<Rows>,
    odds: Odds,
    /// A player's candidates' choice key ([`galac_runtime::info::choice_key`]),
    /// where they are remembered ([`recent::ChoiceMemo`]): made once for
    /// every state that offers them.
    key: Option<Vec<u64>>,
}

impl Interp {
    /// The interpreter of `ir` for these param values, locating run-time
    /// errors in `source`, the file `ir` was compiled from.
    pub fn new(ir: impl Into<Arc<ir::Program>>, params: &[ParamValue], source: impl Into<Arc<SourceFile>>) -> Interp {
        let ir: Arc<ir::Program> = ir.into();
        let info = GameInfo {
            name: ir.name.clone(),
            players: ir.players.clone(),
            params: ir
                .params
                .iter()
                .zip(params)
                .filter(|(p, _)| !p.constant)
                .map(|(p, v)| (p.name.clone(), v.to_string()))
                .collect(),
            program: ir.fingerprint(),
        };
        let cards = |cs: &[i64]| Value::seq(cs.iter().map(|&c| Value::Int(c)).collect());
        let params = params
            .iter()
            .map(|v| match v {
                ParamValue::Int(n) => Value::Int(*n),
                ParamValue::Bool(b) => Value::bool(*b),
                ParamValue::Cards(cs) => cards(cs),
                ParamValue::Range(hands) => {
                    Value::seq(hands.iter().map(|(h, w)| Value::seq(vec![cards(h), Value::Int(*w)])).collect())
                }
            })
            .collect();
        let labeler = ir.labeler();
        let live = crate::codegen::layout::live_locals(&ir);
        let evaluate = ir.evaluate_fn();
        let remembered = crate::offers::remembered(&ir);
        let locator: Arc<SourceFile> = source.into();
        let course = crate::public::public_course_at(&ir, &locator);
        let recent_calls = std::cell::RefCell::new(ir.fns.iter().map(|_| Default::default()).collect());
        let choice_memo = std::cell::RefCell::new(ir.blocks.iter().map(|_| Default::default()).collect());
        let chance_ahead = chance_ahead(&ir);
        let memo_reads = recent::memo_reads(&ir);
        let conjunct_reads = recent::conjunct_reads(&ir);
        let conjunct_memo = std::cell::RefCell::new(ir.blocks.iter().map(|_| Default::default()).collect());
        Interp {
            memo_reads,
            conjunct_reads,
            conjunct_memo,
            chance_ahead,
            course,
            choice_memo,
            recent_calls,
            live,
            remembered,
            evaluate,
            fns: ir.fns.clone(),
            enums: ir.enums.clone(),
            n_players: ir.players.len() as u32,
            ir,
            info,
            params,
            locator,
            step_limit: DEFAULT_STEP_LIMIT,
            words: Default::default(),
            frames: Default::default(),
            labeler,
        }
    }

    /// Index of player `p`'s payoff in the state's slots.
    fn payoff_slot(&self, p: usize) -> usize {
        self.ir.slots.len() + p
    }

    /// Index of player `p`'s information state in the state's slots.
    fn info_slot(&self, p: usize) -> usize {
        self.ir.slots.len() + self.n_players as usize + p
    }

    fn info_of(&self, s: &State, p: usize) -> InfoState {
        match s.slots[self.info_slot(p)] {
            Value::Int(n) => InfoState(n as u32),
            Value::Seq(_) => InfoState::EMPTY,
        }
    }

    fn set_info(&self, s: &mut State, p: usize, st: InfoState) {
        let i = self.info_slot(p);
        s.slots[i] = Value::Int(i64::from(st.0));
    }

    fn payoff_of(&self, s: &State, p: usize) -> i64 {
        match s.slots[self.payoff_slot(p)] {
            Value::Int(n) => n,
            Value::Seq(_) => 0,
        }
    }

    pub fn ir(&self) -> &ir::Program {
        &self.ir
    }

    /// The source file, whose line index locates run-time errors.
    pub fn locator(&self) -> &SourceFile {
        &self.locator
    }

    pub(crate) fn at(&self, span: Span) -> String {
        self.locator.at(span)
    }

    pub(crate) fn loc(&self, span: Span) -> Loc<'_> {
        Loc { locator: &self.locator, span }
    }

    fn player_index(&self, v: i64, span: Span) -> Result<u32, GameError> {
        u32::try_from(v)
            .ok()
            .filter(|p| *p < self.n_players)
            .ok_or_else(|| ops::other(format!("{v} is not a player"), self.loc(span)))
    }

    /// The players a fact is revealed to: one, or all.
    fn receivers(
        &self,
        to: Option<&tast::Expr>,
        env: &Env,
        b: &mut Budget,
        span: Span,
    ) -> Result<std::ops::Range<usize>, GameError> {
        Ok(match to {
            Some(p) => {
                let p = self.player_index(self.int(p, env, b)?, span)? as usize;
                p..p + 1
            }
            None => 0..self.n_players as usize,
        })
    }
}

impl Game for Interp {
    type State = State;
    type Specialised = Self;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn root(&self) -> Result<State, GameError> {
        // Payoffs and information states start at 0 = InfoState::EMPTY.
        let mut slots = vec![Value::Int(0); self.ir.slots.len() + 2 * self.n_players as usize];
        let mut b = Budget::new(self.step_limit);
        for (i, init) in self.ir.var_inits.iter().enumerate() {
            slots[i] = self.eval(init, &Env { vars: &slots, locals: &slots }, &mut b)?;
        }
        Ok(State { slots, block: self.ir.entry.0, pending: None })
    }

    fn advance(&self, s: &mut State, info: &mut InfoInterner) -> Result<Node, GameError> {
        self.run(s, info, None).map(|node| node.unwrap_or(Node::Terminal))
    }

    fn representative(&self) -> Result<String, String> {
        self.course.as_ref().map(|c| c.describe(&self.ir)).map_err(Clone::clone)
    }

    fn advance_public(&self, s: &mut State, info: &mut InfoInterner) -> Result<Option<Node>, GameError> {
        match &self.course {
            Ok(course) => self.run(s, info, Some(&course.payoff_code)),
            Err(_) => self.advance(s, info).map(Some),
        }
    }

    fn course_key(&self, s: &State, out: &mut Vec<u64>) -> bool {
        out.clear();
        out.push(u64::from(s.block));
        for p in 0..self.n_players as usize {
            self.payoff_of(s, p).encode(out);
        }
        let Ok(course) = &self.course else { return true };
        for &slot in &course.keys[s.block as usize] {
            s.slots[slot as usize].encode(out);
        }
        course.reads_private[s.block as usize]
    }

    /// The slots where `state` differs from `base` ([`State::delta_from`]).
    fn delta(&self, base: &State, state: &State) -> State {
        state.delta_from(base)
    }

    fn undelta(&self, into: &mut State, delta: &State) {
        into.apply_delta(delta);
    }

    /// A state's [`Pending`] holds its candidates.
    fn keeps_candidates(&self) -> bool {
        true
    }

    /// From the chance's next block, by the flow ([`chance_ahead`]).
    fn chance_may_follow(&self, s: &State) -> bool {
        match &self.ir.blocks[s.block as usize].term {
            Term::Choose(c) if c.chooser.is_none() => self.chance_ahead[c.next.0 as usize],
            _ => true,
        }
    }

    /// The private slots' values alone, in `course.private`'s order, interned.
    fn donor(&self, state: &State, donors: &mut Donors<State>) {
        let private = self.course.as_ref().map_or(&[][..], |course| &course.private[..]);
        donors.push_values(private.iter().map(|&slot| &state.slots[slot as usize]));
    }

    fn transplant(&self, into: &mut State, donors: &Donors<State>, deal: u32) {
        if let Ok(course) = &self.course {
            for (&slot, v) in course.private.iter().zip(donors.values(deal)) {
                into.slots[slot as usize].clone_from(v);
            }
        }
    }

    /// The showdown's slots (none shared in the interpreter: each holds its last value).
    fn strengths(&self, s: &State) -> Option<[i64; 2]> {
        let slots = self.course.as_ref().ok()?.strengths?;
        Some(slots.map(|slot| galac_runtime::value::Scalar::int(&s.slots[slot as usize])))
    }

    fn apply(&self, s: &mut State, action: u32, info: &mut InfoInterner) -> Result<(), GameError> {
        let Some(pending) = s.pending.take() else {
            return Err(GameError::Other { message: "apply without a pending choice".into(), at: String::new() });
        };
        let Term::Choose(c) = &self.ir.blocks[s.block as usize].term else {
            return Err(GameError::Other { message: "apply outside a choice".into(), at: String::new() });
        };
        if let Some(p) = pending.chooser {
            // A player's candidates are never flat.
            let v = &pending.values[action as usize];
            let mut bufs = self.words.borrow_mut();
            let words = &mut *bufs;
            words.clear();
            words.push(CHOSE_TAG);
            words.push(u64::from(c.choice_ty));
            v.encode(words);
            let at = self.info_of(s, p as usize);
            let st = if self.remembered[s.block as usize] {
                // The record, then the offered list's key, in one buffer.
                let record = words.len();
                match &pending.key {
                    Some(key) => words.extend_from_slice(key),
                    None => galac_runtime::info::append_choice_key(c.choice_ty, &pending.values, words),
                }
                let (chose, offered) = words.split_at(record);
                info.push_offered(at, p, chose, offered)
            } else {
                info.push(at, words)
            };
            self.set_info(s, p as usize, st);
        }
        pending.bind(action as usize, &c.pattern, &mut s.slots);
        s.block = c.next.0;
        Ok(())
    }

    fn chance_probs(&self, s: &State, out: &mut Vec<Ratio>) {
        out.clear();
        if let Some(p) = &s.pending {
            p.odds.probs_into(out);
        }
    }

    fn each_chance_prob(&self, s: &State, each: impl FnMut(Ratio)) {
        if let Some(p) = &s.pending {
            p.odds.each_prob(each);
        }
    }

    fn payoffs<'a>(&self, s: &'a State, buf: &'a mut Vec<i64>) -> &'a [i64] {
        buf.clear();
        buf.extend((0..self.n_players as usize).map(|p| self.payoff_of(s, p)));
        buf
    }

    fn action_label(&self, s: &State, action: u32) -> String {
        let (Some(p), Term::Choose(c)) = (&s.pending, &self.ir.blocks[s.block as usize].term) else {
            return action.to_string();
        };
        let mut words = Vec::new();
        if !p.encode(action as usize, &mut words) {
            return action.to_string();
        }
        self.labeler.value(&words, c.choice_ty)
    }

    fn action_key(&self, s: &State, action: u32, out: &mut Vec<u64>) -> bool {
        out.clear();
        // The label is the candidate's value shown as the block's choice's type.
        let (Some(p), Term::Choose(_)) = (&s.pending, &self.ir.blocks[s.block as usize].term) else {
            return false;
        };
        out.push(u64::from(s.block));
        p.encode(action as usize, out)
    }

    fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
        self.labeler.infoset(info, infoset)
    }

    fn position_key(&self, s: &State, out: &mut Vec<u64>) -> bool {
        out.clear();
        out.push(u64::from(s.block));
        for p in 0..self.n_players as usize {
            self.payoff_of(s, p).encode(out);
        }
        let vars = self.ir.n_vars as usize;
        for v in &s.slots[..vars] {
            v.encode(out);
        }
        for &l in &self.live[s.block as usize] {
            s.slots[l as usize].encode(out);
        }
        true
    }

    fn evaluate(&self, s: &State, out: &mut Vec<i64>) -> Result<Option<i64>, GameError> {
        let Some((f, vars)) = &self.evaluate else { return Ok(None) };
        let args = vars.iter().map(|&v| s.slots[v as usize].clone()).collect();
        let span = self.fns[f.0 as usize].span;
        let v = self.call_fn(*f, args, &mut Budget::new(self.step_limit), span)?;
        let int = |x: &Value| if let Value::Int(n) = x { *n } else { 0 };
        out.clear();
        let Value::Seq(pair) = v else { return Ok(Some(0)) };
        if let Some(Value::Seq(xs)) = pair.first() {
            out.extend(xs.iter().map(int));
        }
        Ok(Some(pair.get(1).map_or(0, int)))
    }
}

impl Interp {
    /// [`Game::advance`]; with `stop` (per block: the payoff's code), it
    /// stops on entering a block of it, before running it (`None`): see
    /// [`Game::advance_public`].
    fn run(&self, s: &mut State, info: &mut InfoInterner, stop: Option<&[bool]>) -> Result<Option<Node>, GameError> {
        let mut b = Budget::new(self.step_limit);
        let mut bufs = self.words.borrow_mut();
        let words = &mut *bufs;
        loop {
            if stop.is_some_and(|payoff| payoff[s.block as usize]) {
                return Ok(None);
            }
            let block = &self.ir.blocks[s.block as usize];
            let span = self.ir.block_spans[s.block as usize];
            // One step for the block and one per instruction, counted and
            // checked on entry (as the compiled code does).
            b.steps(block.steps(), self.loc(span))?;
            for inst in &block.insts {
                match inst {
                    ir::Inst::Assign { place, op, value } => {
                        let env = Env { vars: &s.slots, locals: &s.slots };
                        let v = self.eval(value, &env, &mut b)?;
                        let path = self.place_path(place, &env, &mut b)?;
                        self.store(path, *op, v, &mut s.slots, span)?;
                    }
                    ir::Inst::Bind { pattern, value } => {
                        let v = self.eval(value, &Env { vars: &s.slots, locals: &s.slots }, &mut b)?;
                        bind(pattern, v, &mut s.slots);
                    }
                    ir::Inst::Enumerate { slot, domain } => {
                        let items = self.enumerate(domain, &Env { vars: &s.slots, locals: &s.slots }, &mut b)?;
                        s.slots[*slot as usize] = Value::seq(items);
                    }
                }
            }
            let env = Env { vars: &s.slots, locals: &s.slots };
            match &block.term {
                Term::Jump(to) => s.block = to.0,
                Term::Branch { cond, then_to, else_to } => {
                    s.block = if self.int(cond, &env, &mut b)? != 0 { then_to.0 } else { else_to.0 };
                }
                Term::Reveal { to, fact, args, next } => {
                    words.clear();
                    words.push(u64::from(fact.0));
                    for a in args {
                        self.eval(a, &env, &mut b)?.encode(words);
                    }
                    for p in self.receivers(to.as_ref(), &env, &mut b, span)? {
                        let st = info.push(self.info_of(s, p), words);
                        self.set_info(s, p, st);
                    }
                    s.block = next.0;
                }
                Term::Payoff { player, op, amount, next } => {
                    let p = self.player_index(self.int(player, &env, &mut b)?, span)? as usize;
                    let x = self.int(amount, &env, &mut b)?;
                    let acc = self.payoff_of(s, p);
                    let at = self.loc(span);
                    let r = if *op == ArithOp::Sub { ops::sub(acc, x, at)? } else { ops::add(acc, x, at)? };
                    let slot = self.payoff_slot(p);
                    s.slots[slot] = Value::Int(r);
                    s.block = next.0;
                }
                Term::Outcome(e) => {
                    let v = self.eval(e, &env, &mut b)?;
                    if let Value::Seq(xs) = v {
                        for (p, x) in xs.iter().enumerate().take(self.n_players as usize) {
                            if let Value::Int(x) = x {
                                let sum = ops::add(self.payoff_of(s, p), *x, self.loc(span))?;
                                let slot = self.payoff_slot(p);
                                s.slots[slot] = Value::Int(sum);
                            }
                        }
                    }
                    return Ok(Some(Node::Terminal));
                }
                Term::End => return Ok(Some(Node::Terminal)),
                Term::Choose(c) => {
                    let chooser = match &c.chooser {
                        Some(e) => Some(self.player_index(self.int(e, &env, &mut b)?, span)?),
                        None => None,
                    };
                    let Some(p) = chooser else {
                        let pending = self.candidates(c, s.block, chooser, &mut s.slots, &mut b, span)?;
                        if pending.len() == 0 {
                            return Err(ops::no_choices(None, self.loc(span)));
                        }
                        let n_outcomes = pending.len() as u32;
                        s.pending = Some(Rc::new(pending));
                        return Ok(Some(Node::Chance { n_outcomes }));
                    };
                    let pending = self.player_candidates(c, s.block, p, &mut s.slots, &mut b, span, words)?;
                    let state = self.info_of(s, p as usize);
                    let (infoset, _) = info.infoset(p, state, words);
                    let n_actions = pending.len() as u32;
                    s.pending = Some(pending);
                    return Ok(Some(Node::Decision { player: p, infoset, n_actions }));
                }
            }
        }
    }
}

/// Per block, whether a run from its start may stop at a chance node
/// before any decision or the end: whether a nature's choice is reachable
/// through jumps, branches, reveals and payoffs alone (the least fixed
/// point, so a loop with no choice in it reaches none).
fn chance_ahead(ir: &ir::Program) -> Vec<bool> {
    let mut ahead = vec![false; ir.blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (b, block) in ir.blocks.iter().enumerate() {
            let next = |to: &ir::BlockId| ahead[to.0 as usize];
            let reaches = match &block.term {
                Term::Choose(c) => c.chooser.is_none(),
                Term::Jump(to) | Term::Reveal { next: to, .. } | Term::Payoff { next: to, .. } => next(to),
                Term::Branch { then_to, else_to, .. } => next(then_to) || next(else_to),
                Term::Outcome(_) | Term::End => false,
            };
            if reaches && !ahead[b] {
                ahead[b] = true;
                changed = true;
            }
        }
    }
    ahead
}
