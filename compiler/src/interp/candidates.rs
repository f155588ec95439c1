//! A choice's candidates in the interpreter ([`Pending`]): evaluated with
//! `where` and `weight` ([`Interp::candidates`]), and kept until the
//! choice is applied. A chance over `deal_hands` keeps its candidates
//! flat, each deal's items in a row, not a tuple per deal.

use galac_runtime::game::GameError;
use galac_runtime::ops::Odds;
use galac_runtime::value::Encode;

use super::env::{bind, Budget, Env};
use super::{ir, Interp, Value};
use crate::span::Span;
use crate::typeck::tast::{self, ChooseDomain, Pattern};

/// The candidates of the choice a state waits at, and their odds.
pub(super) struct Pending {
    pub chooser: Option<u32>,
    /// The candidates; or, where `width` is not 0, each candidate's
    /// `width` items in a row (a tuple laid flat).
    pub values: Vec<Value>,
    pub width: usize,
    pub odds: Odds,
}

impl Pending {
    /// The number of candidates.
    pub fn len(&self) -> usize {
        self.values.len().checked_div(self.width).unwrap_or(self.values.len())
    }

    /// Binds candidate `k` to `pattern`'s slots.
    pub fn bind(&self, k: usize, pattern: &Pattern, slots: &mut [Value]) {
        match (self.width, pattern) {
            (0, _) => bind(pattern, self.values[k].clone(), slots),
            (w, Pattern::Tuple(ps)) => {
                for (p, x) in ps.iter().zip(&self.values[k * w..(k + 1) * w]) {
                    bind(p, x.clone(), slots);
                }
            }
            (w, _) => bind(pattern, Value::seq(self.values[k * w..(k + 1) * w].to_vec()), slots),
        }
    }

    /// Candidate `k`'s words (a tuple's: its length, then its items), if
    /// there is one.
    pub fn encode(&self, k: usize, out: &mut Vec<u64>) -> bool {
        match self.width {
            0 => self.values.get(k).map(|v| v.encode(out)).is_some(),
            w => match self.values.get(k * w..(k + 1) * w) {
                Some(items) => {
                    out.push(w as u64);
                    items.iter().for_each(|x| x.encode(out));
                    true
                }
                None => false,
            },
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
        chooser: Option<u32>,
        slots: &mut [Value],
        b: &mut Budget,
        span: Span,
    ) -> Result<Pending, GameError> {
        let (values, width, mut odds) = self.candidate_values(c, chooser, slots, b, span)?;
        odds.forget_weights();
        Ok(Pending { chooser, values, width, odds })
    }

    #[allow(clippy::type_complexity)]
    fn candidate_values(
        &self,
        c: &ir::Choose,
        chooser: Option<u32>,
        slots: &mut [Value],
        b: &mut Budget,
        span: Span,
    ) -> Result<(Vec<Value>, usize, Odds), GameError> {
        let mut values = Vec::new();
        let mut odds = Odds::default();
        let d = match &c.domain {
            ChooseDomain::Domain(d) => d,
            ChooseDomain::Table(entries) => {
                for (e, p) in entries {
                    values.push(self.eval(e, &Env { vars: slots, locals: slots }, b)?);
                    odds.table(*p);
                }
                return Ok((values, 0, odds));
            }
        };
        let tested = c.filter.is_some() || c.weight.is_some();
        // Nature's deals of `deal_hands` destructured: kept flat.
        if let (tast::DomainKind::Values(e), Pattern::Tuple(pats), None) = (&d.kind, &c.pattern, chooser) {
            let flat =
                if pats.len() == 3 { self.deal_hands_flat(e, &Env { vars: slots, locals: slots }, b) } else { None };
            if let Some(flat) = flat {
                let (mut flat, width) = (flat?, 3);
                // The candidates kept, moved to the front in order.
                let mut kept = 0;
                for k in 0..flat.len() / width {
                    if tested {
                        pats.iter().zip(&flat[k * width..]).for_each(|(p, x)| bind(p, x.clone(), slots));
                        if !self.keep(c, slots, &mut odds, b, span)? {
                            continue;
                        }
                    }
                    for i in 0..width {
                        flat.swap(kept * width + i, k * width + i);
                    }
                    kept += 1;
                }
                flat.truncate(kept * width);
                if kept > 0 {
                    odds.finish_domain(kept, self.loc(span))?;
                }
                return Ok((flat, width, odds));
            }
        }
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
                    if self.keep(c, slots, &mut odds, b, span)? {
                        values.push(Value::seq(lists.iter().zip(&odometer).map(|(l, i)| l[*i].clone()).collect()));
                    }
                    if !next_position(&mut odometer, &lists) {
                        break;
                    }
                }
            }
            _ => {
                for v in self.enumerate(d, &Env { vars: slots, locals: slots }, b)? {
                    if tested {
                        bind(&c.pattern, v.clone(), slots);
                        if !self.keep(c, slots, &mut odds, b, span)? {
                            continue;
                        }
                    }
                    values.push(v);
                }
            }
        }
        if c.chooser.is_none() && !values.is_empty() {
            odds.finish_domain(values.len(), self.loc(span))?;
        }
        Ok((values, 0, odds))
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
