//! Which values of a game are private, and the proof that they steer
//! nothing of the play but its payoff (issue 45: the public tree of a
//! hand game walked once, not once per deal).
//!
//! A value is *private* when chance binds it and it is not shown to every
//! player right after (a dealt hand; a die under a cup), or when the deal
//! copies one into another slot. [`public_course`] reads the lowered
//! graph and proves, for every two deals, that the play outside the
//! payoff's code runs the same blocks and evaluates every expression alike
//! except the private values themselves. That holds when private values
//! are read only:
//!
//! - in the deal: the blocks before the first player's choice that no
//!   choice leads back to (every deal is enumerated there anyway); a
//!   branch there only when both its ways stay in the deal, end no play
//!   and meet again at one player's choice, everything they set then
//!   being private too;
//! - by a later chance choice's outcomes, `where` or weights (card
//!   removal: which outcomes a deal allows; such choices are listed, and
//!   the derivation works out their outcomes per deal and checks that
//!   each public outcome has the same odds for every deal it allows);
//! - in the payoff's code: the blocks from which no choice can be reached,
//!   so whatever they branch on, compute or end, no move, choice set, bet
//!   size, chance or turn order follows.
//!
//! Anything else (a branch or a loop's test, a choice set, a chooser, a
//! bet size, a value shown to a player after the first
//! move or to everyone, an assignment or a payoff before the last choice)
//! is refused with the place and the value's name, as is chance dealing a
//! private value after the first move. The analysis is conservative: a
//! slot is private everywhere once it is, and every block from which a
//! choice can be reached in the graph is before the last choice (whatever
//! the values), so it may refuse a game whose course does not in fact
//! depend on the value (poker.gala: a meet copies the private
//! `betterhand` before the loop's test that then ends the betting); it
//! never accepts one whose course does. Whether every move is seen by the other player is not its
//! business: the derivation's draft checks that from the information sets.
//! Steps and run-time errors between the deal and the payoff's code are
//! the same for every deal too, as that code reads no private value but in
//! the listed chance choices (whose outcomes the derivation works out per
//! deal).

mod flow;
mod strengths;

use crate::ir::{BlockId, Program, Term};
use crate::span::Span;
use crate::typeck::tast::Expr;
use flow::{
    domain_exprs, first_private, inst_flow, pattern_slots, payoff_code, player_choice, reachable, reads_private,
    shown_after, slots_named,
};

/// A proof that the game's public course does not depend on its private
/// values (see the module comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicCourse {
    /// The slots holding private values, in order.
    pub private: Vec<u32>,
    /// Per block: whether it is the payoff's code (no choice reachable).
    pub payoff_code: Vec<bool>,
    /// The chance choices after the deal whose outcomes depend on the deal
    /// (their domain, `where` or weight reads a private value): card
    /// removal, to be checked per deal where the game is walked.
    pub removal: Vec<BlockId>,
    /// Per block, for a block of the payoff's code and for a chance
    /// choice (else empty): the public slots whose values, with the
    /// private ones, decide what is done from there (the payoff's code:
    /// every slot the code reachable from the block names; a chance: the
    /// slots its domain, `where` and weight read, its pattern's aside;
    /// either only if live at the block, since a slot written before it is
    /// read holds there whatever it held, in the interpreter its own last
    /// value and in generated code maybe another slot's). Two
    /// states at such a block with equal values there (and equal payoffs
    /// so far) do the same for every deal: a derivation works such a block
    /// out per deal once per key ([`PublicCourse::reads_private`] says when
    /// once in all is enough).
    pub keys: Vec<Vec<u32>>,
    /// Per block of `keys`: whether that code reads a private slot.
    pub reads_private: Vec<bool>,
    /// When the payoff's code is a showdown (`public/strengths.rs`): the
    /// two int locals it compares, player 0's then player 1's. What the
    /// play pays then follows from the public values and how the first
    /// compares with the second, and both hold their compared values when
    /// the play ends.
    pub strengths: Option<[u32; 2]>,
}

/// Why a game's course may depend on a private value: the message and the
/// place that reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPublic {
    pub message: String,
    pub span: Span,
}

impl PublicCourse {
    /// One line for messages: the private values by name and what reads them.
    pub fn describe(&self, ir: &Program) -> String {
        let names: Vec<String> = self.private.iter().map(|&s| format!("`{}`", slot_name(ir, s))).collect();
        let blocks = self.payoff_code.iter().filter(|&&t| t).count();
        let showdown = match self.strengths {
            Some([a, b]) => format!(
                "; the payoff is a showdown of `{}` ({}) against `{}` ({})",
                slot_name(ir, a),
                ir.players[0],
                slot_name(ir, b),
                ir.players[1]
            ),
            None => String::new(),
        };
        format!(
            "private values {} steer only the payoff ({blocks} blocks) and the outcomes of {} later chance choices \
             (card removal){showdown}",
            if names.is_empty() { "(none)".to_string() } else { names.join(", ") },
            self.removal.len()
        )
    }
}

/// A slot's name as the source spells it (`main.h1` is `h1`).
fn slot_name(ir: &Program, slot: u32) -> &str {
    let name = &ir.slots[slot as usize].0;
    name.rsplit('.').next().unwrap_or(name)
}

/// Proves that the game's course outside its payoff's code is the same
/// for every deal (see the module comment), or says where it may not be.
pub fn public_course(ir: &Program) -> Result<PublicCourse, NotPublic> {
    let n = ir.blocks.len();
    let payoff_code = payoff_code(ir);
    // The deal: reachable from the entry without a player's choice, and
    // from no player's choice.
    let after_move = reachable(ir, ir.blocks.iter().filter_map(|b| player_choice(&b.term)).collect(), false);
    let before_move = reachable(ir, vec![ir.entry], true);
    let deal: Vec<bool> = (0..n).map(|b| before_move[b] && !after_move[b]).collect();
    let mut private = vec![false; ir.slots.len()];
    // Sources: what chance binds and does not show to all right after.
    for b in &ir.blocks {
        if let Term::Choose(c) = &b.term {
            if c.chooser.is_none() {
                let mut bound = Vec::new();
                pattern_slots(&c.pattern, &mut bound);
                let shown = shown_after(ir, c.next);
                for s in bound {
                    if !shown.iter().any(|&(to, shown)| to.is_none() && shown == s) {
                        private[s as usize] = true;
                    }
                }
            }
        }
    }
    // Copies made in the deal are private too, and so is whatever the deal
    // sets after a branch on a private value whose ways meet again at the
    // first move (`rejoins`).
    let mut joined = vec![false; n];
    loop {
        let mut changed = false;
        for (b, block) in ir.blocks.iter().enumerate() {
            if !deal[b] {
                continue;
            }
            let mut set = Vec::new();
            for inst in &block.insts {
                let (targets, from) = inst_flow(inst);
                if from.iter().any(|e| reads_private(e, &private)) {
                    set.extend(targets);
                }
            }
            if let Term::Branch { cond, then_to, else_to } = &block.term {
                if !joined[b] && reads_private(cond, &private) {
                    if let Some(slots) = rejoins(ir, &deal, [*then_to, *else_to]) {
                        joined[b] = true;
                        set.extend(slots);
                    }
                }
            }
            for t in set {
                changed |= !std::mem::replace(&mut private[t as usize], true);
            }
        }
        if !changed {
            break;
        }
    }
    let check = Check { ir, private: &private };
    let mut removal = Vec::new();
    for (b, block) in ir.blocks.iter().enumerate() {
        if payoff_code[b] {
            continue;
        }
        if !deal[b] {
            check.assignments(b)?;
        }
        match &block.term {
            Term::Jump(_) | Term::Outcome(_) | Term::End => {}
            Term::Branch { .. } if joined[b] => {}
            Term::Branch { cond, .. } => check.none(&[cond], "which way the play goes here depends on")?,
            Term::Choose(c) if c.chooser.is_some() => {
                let mut read: Vec<&Expr> = c.chooser.iter().chain(&c.filter).chain(&c.weight).collect();
                domain_exprs(&c.domain, &mut read);
                check.none(&read, "the moves offered here (or who chooses) depend on")?;
            }
            Term::Choose(c) => {
                if !deal[b] {
                    let mut bound = Vec::new();
                    pattern_slots(&c.pattern, &mut bound);
                    if let Some(&s) = bound.iter().find(|&&s| private[s as usize]) {
                        return Err(NotPublic {
                            message: format!(
                                "chance deals the private value `{}` after the first move (not shown to every player \
                                 right after); vector CFR needs private information dealt before the first move",
                                slot_name(ir, s)
                            ),
                            span: ir.block_spans[b],
                        });
                    }
                }
                let mut read: Vec<&Expr> = c.filter.iter().chain(&c.weight).collect();
                domain_exprs(&c.domain, &mut read);
                if !deal[b] && read.iter().any(|e| reads_private(e, &private)) {
                    removal.push(BlockId(b as u32));
                }
            }
            Term::Reveal { to, args, .. } => {
                check.none(&to.iter().collect::<Vec<_>>(), "who is shown this depends on")?;
                if to.is_none() {
                    check.none(&args.iter().collect::<Vec<_>>(), "this shows every player")?;
                } else if !deal[b] {
                    check.none(&args.iter().collect::<Vec<_>>(), "a player learns after the first move")?;
                }
            }
            Term::Payoff { player, amount, .. } => {
                check.none(&[player, amount], "a payoff before the last choice reads")?;
            }
        }
    }
    let (keys, reads_private) = keys(ir, &payoff_code, &private);
    let strengths = strengths::strengths(ir, &deal, &payoff_code, &private);
    let private = (0..ir.slots.len() as u32).filter(|&s| private[s as usize]).collect();
    Ok(PublicCourse { private, payoff_code, removal, keys, reads_private, strengths })
}

/// [`public_course`], a refusal as one line located in `locator` (the
/// file `ir` was compiled from): what the interpreter and the generated
/// code's `Game::representative` say.
pub fn public_course_at(ir: &Program, locator: &crate::source::SourceFile) -> Result<PublicCourse, String> {
    public_course(ir).map_err(|e| format!("{} ({})", e.message, locator.at(e.span)))
}

/// [`PublicCourse::keys`] and [`PublicCourse::reads_private`].
fn keys(ir: &Program, payoff_code: &[bool], private: &[bool]) -> (Vec<Vec<u32>>, Vec<bool>) {
    let n = ir.blocks.len();
    let live = crate::codegen::layout::live_locals(ir);
    let (mut keys, mut reads) = (vec![Vec::new(); n], vec![false; n]);
    for b in 0..n {
        let mut named = Vec::new();
        if payoff_code[b] {
            let after = reachable(ir, vec![BlockId(b as u32)], false);
            for block in ir.blocks.iter().enumerate().filter(|&(c, _)| after[c]).map(|(_, block)| block) {
                for inst in &block.insts {
                    let (targets, from) = inst_flow(inst);
                    named.extend(targets);
                    from.iter().for_each(|e| slots_named(e, &mut named));
                }
                match &block.term {
                    Term::Branch { cond, .. } => slots_named(cond, &mut named),
                    Term::Reveal { to, args, .. } => to.iter().chain(args).for_each(|e| slots_named(e, &mut named)),
                    Term::Payoff { player, amount, .. } => {
                        [player, amount].iter().for_each(|e| slots_named(e, &mut named))
                    }
                    Term::Outcome(e) => slots_named(e, &mut named),
                    Term::Jump(_) | Term::End | Term::Choose(_) => {}
                }
            }
        } else if let Term::Choose(c) = &ir.blocks[b].term {
            if c.chooser.is_some() {
                continue;
            }
            let mut read: Vec<&Expr> = c.filter.iter().chain(&c.weight).collect();
            domain_exprs(&c.domain, &mut read);
            read.iter().for_each(|e| slots_named(e, &mut named));
            let mut bound = Vec::new();
            pattern_slots(&c.pattern, &mut bound);
            named.retain(|s| !bound.contains(s));
        } else {
            continue;
        }
        named.sort_unstable();
        named.dedup();
        reads[b] = named.iter().any(|&s| private[s as usize]);
        named.retain(|&s| !private[s as usize] && (s < ir.n_vars || live[b].contains(&s)));
        keys[b] = named;
    }
    (keys, reads)
}

/// For a branch of the deal on a private value, going to `ways`: the slots
/// its ways may set, when both stay in the deal, end no play and meet
/// again at one player's choice (the first move, the same for every deal);
/// `None` otherwise.
fn rejoins(ir: &Program, deal: &[bool], ways: [BlockId; 2]) -> Option<Vec<u32>> {
    let after = reachable(ir, ways.to_vec(), true);
    let mut first_move = None;
    let mut slots = Vec::new();
    for (b, block) in ir.blocks.iter().enumerate().filter(|&(b, _)| after[b]) {
        if !deal[b] {
            return None;
        }
        for inst in &block.insts {
            slots.extend(inst_flow(inst).0);
        }
        match &block.term {
            Term::Outcome(_) | Term::End => return None,
            Term::Choose(c) if c.chooser.is_none() => pattern_slots(&c.pattern, &mut slots),
            Term::Choose(_) if first_move.is_some() => return None,
            Term::Choose(_) => first_move = Some(b),
            _ => {}
        }
    }
    first_move.map(|_| slots)
}

/// What the checks read: the graph and the private slots.
struct Check<'a> {
    ir: &'a Program,
    private: &'a [bool],
}

impl Check<'_> {
    /// Refuses an assignment of block `b` (after the first move, before
    /// the payoff's code) that reads a private value or sets one (a
    /// derivation copies the deal's private values into one representative
    /// state, so they must hold the deal's values until the payoff's code).
    fn assignments(&self, b: usize) -> Result<(), NotPublic> {
        for inst in &self.ir.blocks[b].insts {
            let (targets, from) = inst_flow(inst);
            self.none(&from, "an assignment before the last choice reads")?;
            if let Some(&s) = targets.iter().find(|&&s| self.private[s as usize]) {
                return Err(NotPublic {
                    message: format!(
                        "an assignment after the first move and before the last choice sets the private value `{}` \
                         (a derivation copies the deal's private values into one representative state)",
                        slot_name(self.ir, s)
                    ),
                    span: self.ir.block_spans[b],
                });
            }
        }
        Ok(())
    }

    /// Refuses when one of `exprs` reads a private value: `what` and the
    /// value's name, at the expression.
    fn none(&self, exprs: &[&Expr], what: &str) -> Result<(), NotPublic> {
        for e in exprs {
            let span = e.span;
            if let Some(slot) = first_private(e, self.private) {
                return Err(NotPublic {
                    message: format!(
                        "{what} the private value `{}` (dealt by chance and not shown to every player)",
                        slot_name(self.ir, slot)
                    ),
                    span,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "public_tests.rs"]
mod tests;
