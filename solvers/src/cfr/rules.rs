//! The update rules that tell the CFR variants apart: how an iteration's
//! instantaneous regrets enter the accumulated ones, how the current
//! strategy follows from them, and how much the iteration weighs in the
//! average strategy. Everything works on one information set's action slab.

/// A member of the CFR family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    /// Vanilla CFR: regret matching, uniform average.
    Cfr,
    /// CFR+: regret matching+, linear average.
    CfrPlus,
    /// Discounted CFR: accumulated positive regrets times t^α/(t^α+1),
    /// negative times t^β/(t^β+1), average weight t^γ.
    Dcfr { alpha: f64, beta: f64, gamma: f64 },
    /// Linear CFR: DCFR with α = β = γ = 1.
    Lcfr,
    /// Predictive CFR+ (Farina, Kroer & Sandholm 2021): predictive regret
    /// matching+ with the last instantaneous regret as the prediction,
    /// average weight t^`gamma` (2, quadratic, by default).
    PcfrPlus { gamma: f64 },
}

impl Variant {
    /// DCFR with Brown & Sandholm's recommended parameters.
    pub const DCFR: Variant = Variant::Dcfr { alpha: 1.5, beta: 0.0, gamma: 2.0 };
    /// Predictive CFR+ with quadratic averaging.
    pub const PCFR_PLUS: Variant = Variant::PcfrPlus { gamma: 2.0 };

    /// A short name for reports.
    pub fn name(&self) -> String {
        match *self {
            Variant::Cfr => "cfr".into(),
            Variant::CfrPlus => "cfr+".into(),
            Variant::Dcfr { alpha, beta, gamma } => format!("dcfr (alpha {alpha}, beta {beta}, gamma {gamma})"),
            Variant::Lcfr => "lcfr".into(),
            Variant::PcfrPlus { gamma } => format!("pcfr+ (average weight t^{gamma})"),
        }
    }

    /// Whether the variant keeps a prediction per slot.
    pub fn predictive(&self) -> bool {
        matches!(self, Variant::PcfrPlus { .. })
    }

    /// The weight of iteration `t` (from 1) in the average strategy.
    pub fn average_weight(&self, t: u64) -> f64 {
        let t = t as f64;
        match *self {
            Variant::Cfr => 1.0,
            Variant::CfrPlus | Variant::Lcfr => t,
            Variant::Dcfr { gamma, .. } | Variant::PcfrPlus { gamma } => t.powf(gamma),
        }
    }

    /// The per-slot half of an update at iteration `t`, its constants
    /// computed once.
    pub fn slot_rule(&self, t: u64) -> SlotRule {
        match *self {
            Variant::Cfr => SlotRule::Add,
            Variant::CfrPlus => SlotRule::AddClipped,
            Variant::Dcfr { alpha, beta, .. } => SlotRule::discount(t, alpha, beta),
            Variant::Lcfr => SlotRule::discount(t, 1.0, 1.0),
            Variant::PcfrPlus { .. } => SlotRule::Predictive,
        }
    }

    /// The per-set half of an update: one set's next current strategy from
    /// its regrets (or, predictive, from `current`, which holds R + m).
    pub fn strategy(&self, regrets: &[f64], current: &mut [f64]) {
        if self.predictive() {
            normalize_positive(current);
        } else {
            regret_matching(regrets, current);
        }
    }
}

/// How an iteration's instantaneous regret enters a slot's accumulated
/// regret: every variant's rule is per slot, so a run applies it to a
/// player's whole slab in one pass before the strategies of its sets.
#[derive(Clone, Copy, Debug)]
pub enum SlotRule {
    /// R += r.
    Add,
    /// R = max(R + r, 0): regret matching+ (OpenSpiel adds, then resets the
    /// negative sums to 0 once the traversal is done: the same).
    AddClipped,
    /// DCFR's rule as OpenSpiel's `discounted_cfr.py` applies it: add, then
    /// multiply a non-negative sum by t^α/(t^α+1) and a negative one by
    /// t^β/(t^β+1).
    Discount { pos: f64, neg: f64 },
    /// Predictive RM+: R = max(R + r, 0), the prediction m = r, and R + m
    /// into the current strategy, normalised per set afterwards.
    Predictive,
}

impl SlotRule {
    /// DCFR's factors at iteration `t`.
    fn discount(t: u64, alpha: f64, beta: f64) -> SlotRule {
        let t = t as f64;
        let (ta, tb) = (t.powf(alpha), t.powf(beta));
        SlotRule::Discount { pos: ta / (ta + 1.0), neg: tb / (tb + 1.0) }
    }

    /// Applies the rule to a slab of slots whose instantaneous regrets are
    /// `inst(i)`; `pred` is used (and `current` written) by the predictive
    /// rule only. One loop per rule, so the rule is not tested per slot.
    #[inline(always)]
    pub fn apply(self, regrets: &mut [f64], pred: &mut [f64], current: &mut [f64], inst: impl Fn(usize) -> f64) {
        match self {
            SlotRule::Add => regrets.iter_mut().enumerate().for_each(|(i, r)| *r += inst(i)),
            SlotRule::AddClipped => regrets.iter_mut().enumerate().for_each(|(i, r)| *r = (*r + inst(i)).max(0.0)),
            SlotRule::Discount { pos, neg } => {
                for (i, r) in regrets.iter_mut().enumerate() {
                    *r += inst(i);
                    *r *= if *r >= 0.0 { pos } else { neg };
                }
            }
            SlotRule::Predictive => {
                for (i, ((r, m), c)) in regrets.iter_mut().zip(pred.iter_mut()).zip(current.iter_mut()).enumerate() {
                    let x = inst(i);
                    *r = (*r + x).max(0.0);
                    *m = x;
                    *c = *r + x;
                }
            }
        }
    }
}

/// The current strategy proportional to the positive regrets, uniform when
/// none is positive (OpenSpiel's `ApplyRegretMatching`).
pub fn regret_matching(regrets: &[f64], current: &mut [f64]) {
    let total: f64 = regrets.iter().filter(|r| **r > 0.0).sum();
    if total > 0.0 {
        for (c, r) in current.iter_mut().zip(regrets) {
            *c = if *r > 0.0 { *r / total } else { 0.0 };
        }
    } else {
        current.fill(1.0 / regrets.len() as f64);
    }
}

/// Replaces `x` by its positive part divided by its sum, or by the uniform
/// distribution when no entry is positive.
fn normalize_positive(x: &mut [f64]) {
    let total: f64 = x.iter().filter(|r| **r > 0.0).sum();
    if total > 0.0 {
        x.iter_mut().for_each(|c| *c = if *c > 0.0 { *c / total } else { 0.0 });
    } else {
        let u = 1.0 / x.len() as f64;
        x.fill(u);
    }
}

#[cfg(test)]
mod tests {
    use super::Variant;

    /// One set's update as a run makes it: iteration `t`'s instantaneous
    /// regrets `inst` into the accumulated ones (the slot rule), then the
    /// set's next strategy.
    fn update(v: Variant, t: u64, regrets: &mut [f64], inst: &[f64], pred: &mut [f64], current: &mut [f64]) {
        v.slot_rule(t).apply(regrets, pred, current, |a| inst[a]);
        v.strategy(regrets, current);
    }

    /// Predictive regret matching+ on one set, by hand: R = [R + r]^+, the
    /// prediction is r, the strategy is proportional to [R + r]^+.
    #[test]
    fn predictive_regret_matching_plus_by_hand() {
        let (mut regrets, mut pred, mut current) = (vec![1.0, 0.0, 2.0], vec![0.0; 3], vec![0.0; 3]);
        update(Variant::PCFR_PLUS, 1, &mut regrets, &[1.0, -3.0, -1.0], &mut pred, &mut current);
        assert_eq!(regrets, [2.0, 0.0, 1.0]);
        assert_eq!(pred, [1.0, -3.0, -1.0]);
        // R + m = [3, -3, 0]: all weight on the first action.
        assert_eq!(current, [1.0, 0.0, 0.0]);
        update(Variant::PCFR_PLUS, 2, &mut regrets, &[-4.0, -1.0, -2.0], &mut pred, &mut current);
        // R = [0, 0, 0], R + m < 0 everywhere: uniform.
        assert_eq!(regrets, [0.0, 0.0, 0.0]);
        assert_eq!(current, [1.0 / 3.0; 3]);
    }

    /// DCFR discounts after adding, by the sign of the sum (OpenSpiel's
    /// `discounted_cfr.py`): at t = 1 with alpha 3/2, beta 0, positive sums
    /// are halved (1/(1+1)) and negative ones halved too (1/(1+1)).
    #[test]
    fn dcfr_discounts_after_adding() {
        let (mut regrets, mut current) = (vec![1.0, 1.0], vec![0.0; 2]);
        update(Variant::DCFR, 1, &mut regrets, &[2.0, -3.0], &mut [], &mut current);
        assert_eq!(regrets, [1.5, -1.0]);
        assert_eq!(current, [1.0, 0.0]);
        update(Variant::DCFR, 4, &mut regrets, &[0.5, 0.0], &mut [], &mut current);
        // t^1.5 = 8: 8/9 for the positive sum; t^0 = 1: 1/2 for the negative.
        assert_eq!(regrets, [2.0 * 8.0 / 9.0, -0.5]);
    }
}
