//! A choice's candidates in the interpreter ([`Pending`]'s): evaluated with
//! `where` and `weight` ([`Interp::candidates`]), and kept until the
//! choice is applied. A chance over `deal_hands` keeps its candidates as
//! rows of interned values, not a tuple per deal. A player's choice
//! remembers its candidates and key by the values of the slots its domain
//! and `where` read ([`super::recent::ChoiceMemo`]).

use std::rc::Rc;

use galac_runtime::game::GameError;
use galac_runtime::ops::{self, Odds};
use galac_runtime::value::{Encode, Rows};

use super::env::{bind, Budget, Env};
use super::eval::hand;
use super::recent::{listed_domain, ConjunctMemo};
use super::{ir, Interp, Pending, Value};
use crate::span::Span;
use crate::typeck::tast::{self, ChooseDomain, Pattern};

impl Pending {
    /// The number of candidates.
    pub fn len(&self) -> usize {
        self.rows.as_ref().map_or(self.values.len(), Rows::len)
    }

    /// Binds candidate `k` to `pattern`'s slots.
    pub fn bind(&self, k: usize, pattern: &Pattern, slots: &mut [Value]) {
        match (&self.rows, pattern) {
            (None, _) => bind(pattern, self.values[k].clone(), slots),
            (Some(rows), Pattern::Tuple(ps)) => {
                for (p, x) in ps.iter().zip(rows.row(k)) {
                    bind(p, x.clone(), slots);
                }
            }
            (Some(rows), _) => bind(pattern, Value::seq(rows.row(k).cloned().collect()), slots),
        }
    }

    /// Candidate `k`'s words (a tuple's: its length, then its items), if
    /// there is one.
    pub fn encode(&self, k: usize, out: &mut Vec<u64>) -> bool {
        match &self.rows {
            None => self.values.get(k).map(|v| v.encode(out)).is_some(),
            Some(rows) if k < rows.len() => {
                out.push(rows.width() as u64);
                rows.row(k).for_each(|x| x.encode(out));
                true
            }
            Some(_) => false,
        }
    }
}

impl Interp {
    /// Evaluates the candidates of a choice, with `where` and `weight`
    /// (their odds through the runtime's [`Odds`], as compiled games do),
    /// for `chooser` (`None`: nature).
    pub(super) fn candidates(
        &self,
        c: &ir::Choose,
        block: u32,
        chooser: Option<u32>,
        slots: &mut [Value],
        b: &mut Budget,
        span: Span,
    ) -> Result<Pending, GameError> {
        let mut odds = Odds::default();
        let mut rows = None;
        let values = match self.deal_rows(c, chooser, slots, &mut odds, b, span)? {
            Some(deals) => {
                rows = Some(deals);
                Vec::new()
            }
            None => self.candidate_values(c, block, slots, &mut odds, b, span)?,
        };
        // A table's odds are its own; a domain's follow from the weights.
        let n = rows.as_ref().map_or(values.len(), Rows::len);
        // Kept with the state: the probabilities made when they are read.
        if matches!(c.domain, ChooseDomain::Domain(_)) && c.chooser.is_none() && n > 0 {
            odds.finish_domain_kept(n, self.loc(span))?;
        } else {
            odds.forget_weights();
        }
        Ok(Pending { chooser, values, rows, odds, key: None })
    }

    /// A player's choice's candidates and, into `key`, their choice key.
    /// Where they are remembered ([`super::recent::memo_reads`]), the same
    /// player and the same values in the slots the choice reads as before
    /// give its candidates and key, take the steps its evaluation took
    /// and leave the pattern's slots as it did (it is evaluated where the
    /// steps do not fit). The candidates are not empty.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn player_candidates(
        &self,
        c: &ir::Choose,
        block: u32,
        chooser: u32,
        slots: &mut [Value],
        b: &mut Budget,
        span: Span,
        key: &mut Vec<u64>,
    ) -> Result<Rc<Pending>, GameError> {
        let reads = self.memo_reads[block as usize].as_ref();
        let mut inputs = None;
        if let Some(reads) = reads {
            let mut memo = self.choice_memo.borrow_mut();
            match memo[block as usize].recall(slots, reads, chooser, key, &mut b.left) {
                Ok(pending) => {
                    key.clear();
                    key.extend_from_slice(pending.key.as_deref().unwrap_or_default());
                    return Ok(pending);
                }
                Err(made_from) => inputs = Some(made_from),
            }
        }
        let left = b.left;
        let mut pending = match listed_domain(c) {
            Some(e) => {
                let list = self.seq(e, &Env { vars: slots, locals: slots }, b)?;
                let mut odds = Odds::default();
                odds.forget_weights();
                Pending { chooser: Some(chooser), values: (*list).clone(), rows: None, odds, key: None }
            }
            None => self.candidates(c, block, Some(chooser), slots, b, span)?,
        };
        let steps = left - b.left;
        if pending.len() == 0 {
            let who = self.ir.players.get(chooser as usize);
            return Err(galac_runtime::ops::no_choices(who.map(String::as_str), self.loc(span)));
        }
        key.clear();
        galac_runtime::info::append_choice_key(c.choice_ty, &pending.values, key);
        let (Some(reads), Some(inputs)) = (reads, inputs) else { return Ok(Rc::new(pending)) };
        pending.key = Some(key.clone());
        let pending = Rc::new(pending);
        let size = pending.len() * size_of::<Value>();
        self.choice_memo.borrow_mut()[block as usize].remember(inputs, reads, slots, steps, &pending, size);
        Ok(pending)
    }

    /// Where the choice is nature's over `deal_hands` destructured: its
    /// deals kept (with `where` and `weight`), each as a row of its two
    /// hands and weight (the ranges' hands interned once, not per deal).
    fn deal_rows(
        &self,
        c: &ir::Choose,
        chooser: Option<u32>,
        slots: &mut [Value],
        odds: &mut Odds,
        b: &mut Budget,
        span: Span,
    ) -> Result<Option<Rows>, GameError> {
        let (ChooseDomain::Domain(d), Pattern::Tuple(pats), None) = (&c.domain, &c.pattern, chooser) else {
            return Ok(None);
        };
        let tast::DomainKind::Values(e) = &d.kind else { return Ok(None) };
        if pats.len() != 3 {
            return Ok(None);
        }
        let Some(dealt) = self.deal_hands(e, &Env { vars: slots, locals: slots }, b) else { return Ok(None) };
        let dealt = dealt?;
        let pairs = dealt.pairs(&mut b.left, b.limit, self.loc(e.span))?;
        let [first, second] = &dealt.ranges;
        let mut rows = Rows::new(3, pairs.len());
        let hands =
            |rows: &mut Rows, range: &[Value]| -> Vec<u32> { range.iter().map(|h| rows.intern(&hand(h))).collect() };
        let (firsts, seconds) = (hands(&mut rows, first), hands(&mut rows, second));
        let tested = c.filter.is_some() || c.weight.is_some();
        if c.weight.is_some() {
            odds.reserve_weights(pairs.len());
        }
        // The last weight interned and its id: the ranges' weights repeat
        // (equal weights give one), so most deals need no lookup.
        let mut last_weight: Option<(i64, u32)> = None;
        for (i, j, weight) in pairs.iter() {
            let w = Value::Int(weight);
            if tested {
                let deal = [hand(&first[i]), hand(&second[j]), w.clone()];
                pats.iter().zip(deal).for_each(|(p, x)| bind(p, x, slots));
                if !self.keep(c, slots, odds, b, span)? {
                    continue;
                }
            }
            let w = match last_weight {
                Some((last, id)) if last == weight => id,
                _ => last_weight.insert((weight, rows.intern(&w))).1,
            };
            rows.push_cells(&[firsts[i], seconds[j], w]);
        }
        rows.shrink_to_fit();
        Ok(Some(rows))
    }

    /// The candidates of a choice other than [`Interp::deal_rows`]'.
    fn candidate_values(
        &self,
        c: &ir::Choose,
        block: u32,
        slots: &mut [Value],
        odds: &mut Odds,
        b: &mut Budget,
        span: Span,
    ) -> Result<Vec<Value>, GameError> {
        let mut values = Vec::new();
        let d = match &c.domain {
            ChooseDomain::Domain(d) => d,
            ChooseDomain::Table(entries) => {
                for (e, p) in entries {
                    values.push(self.eval(e, &Env { vars: slots, locals: slots }, b)?);
                    odds.table(*p);
                }
                return Ok(values);
            }
        };
        let tested = c.filter.is_some() || c.weight.is_some();
        match (&d.kind, &c.pattern) {
            // A product domain destructured by a tuple pattern is walked
            // component by component: a tuple value is built only for the
            // candidates that pass the filter.
            (tast::DomainKind::Product(parts), tast::Pattern::Tuple(pats)) if tested && parts.len() == pats.len() => {
                let lists = parts
                    .iter()
                    .map(|p| self.enumerate(p, &Env { vars: slots, locals: slots }, b))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut odometer = vec![0usize; lists.len()];
                while lists.iter().all(|l| !l.is_empty()) {
                    for ((pat, list), i) in pats.iter().zip(&lists).zip(&odometer) {
                        bind(pat, list[*i].clone(), slots);
                    }
                    if self.keep(c, slots, odds, b, span)? {
                        values.push(Value::seq(lists.iter().zip(&odometer).map(|(l, i)| l[*i].clone()).collect()));
                    }
                    if !next_position(&mut odometer, &lists) {
                        break;
                    }
                }
            }
            _ => {
                let items = self.enumerate(d, &Env { vars: slots, locals: slots }, b)?;
                if let Some(kept) = self.kept_by_conjuncts(c, block, &items, slots, b) {
                    return Ok(kept);
                }
                for v in items {
                    if tested {
                        bind(&c.pattern, v.clone(), slots);
                        if !self.keep(c, slots, odds, b, span)? {
                            continue;
                        }
                    }
                    values.push(v);
                }
            }
        }
        Ok(values)
    }

    /// The items of a `where` remembered conjunct by conjunct
    /// ([`super::recent::ConjunctMemo`]) that pass it, with the steps the
    /// test takes (a step per item, and each conjunct's where the ones
    /// before it held) taken at once, and the pattern bound to the last
    /// item as the test leaves it; `None` where a conjunct is left out or
    /// the steps do not fit (the items are then tested one by one, and
    /// stop where they would).
    fn kept_by_conjuncts(
        &self,
        c: &ir::Choose,
        block: u32,
        items: &[Value],
        slots: &mut [Value],
        b: &mut Budget,
    ) -> Option<Vec<Value>> {
        let (reads, f) = (self.conjunct_reads[block as usize].as_ref()?, c.filter.as_ref()?);
        let mut memo = self.conjunct_memo.borrow_mut();
        let memo = &mut memo[block as usize];
        let mut words = Vec::new();
        let mut parts = Vec::with_capacity(reads.len());
        let mut all = true;
        super::recent::for_each_conjunct(f, &mut |e| {
            let k = parts.len();
            if !all || memo.off(k) {
                all = false;
                return;
            }
            ConjunctMemo::key(k, reads, slots, &mut words);
            let test = |i: usize| {
                bind(&c.pattern, items[i].clone(), slots);
                let mut scratch = Budget::new(b.limit);
                let passes = self.int(e, &Env { vars: slots, locals: slots }, &mut scratch).ok()? != 0;
                Some((passes, u32::try_from(b.limit - scratch.left).ok()?))
            };
            match memo.results(k, reads.len(), &words, items.len(), test) {
                Some(r) => parts.push(r),
                None => all = false,
            }
        });
        if !all {
            return None;
        }
        // Each item's steps: one, then each conjunct's while they hold.
        let mut steps = 0u64;
        let mut kept = Vec::new();
        for (i, v) in items.iter().enumerate() {
            steps += ops::STEP;
            let mut passes = true;
            for part in &parts {
                let (holds, taken) = part[i];
                steps += u64::from(taken);
                if !holds {
                    passes = false;
                    break;
                }
            }
            if passes {
                kept.push(v.clone());
            }
        }
        if !ops::steps_fit(&mut b.left, steps) {
            return None;
        }
        if let Some(last) = items.last() {
            bind(&c.pattern, last.clone(), slots);
        }
        Some(kept)
    }

    /// Whether the candidate bound in `slots` passes the choice's `where`
    /// (a step, as in compiled games), and its `weight`.
    fn keep(
        &self,
        c: &ir::Choose,
        slots: &[Value],
        odds: &mut Odds,
        b: &mut Budget,
        span: Span,
    ) -> Result<bool, GameError> {
        if let Some(f) = &c.filter {
            b.step(self.loc(span))?;
            if self.int(f, &Env { vars: slots, locals: slots }, b)? == 0 {
                return Ok(false);
            }
        }
        if let Some(w) = &c.weight {
            odds.weigh(self.int(w, &Env { vars: slots, locals: slots }, b)?, self.loc(span))?;
        }
        Ok(true)
    }
}

/// Moves a row-major position over `lists` to the next (the last component
/// fastest); false after the last one.
fn next_position(odometer: &mut [usize], lists: &[Vec<Value>]) -> bool {
    for k in (0..lists.len()).rev() {
        odometer[k] += 1;
        if odometer[k] < lists[k].len() {
            return true;
        }
        odometer[k] = 0;
    }
    false
}
