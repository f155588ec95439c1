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

    /// Adds iteration `t`'s instantaneous regrets `inst` of one set into its
    /// accumulated regrets, then writes its next current strategy. `pred`
    /// is the set's prediction (used by the predictive variant only). Plain
    /// loops over the slab: a set has a handful of actions, too few for a
    /// library copy to pay.
    #[inline(always)]
    pub fn update(&self, t: u64, regrets: &mut [f64], inst: &[f64], pred: &mut [f64], current: &mut [f64]) {
        match *self {
            Variant::Cfr => add(regrets, inst),
            Variant::CfrPlus => add_clipped(regrets, inst),
            Variant::Dcfr { alpha, beta, .. } => discount(t, alpha, beta, regrets, inst),
            Variant::Lcfr => discount(t, 1.0, 1.0, regrets, inst),
            Variant::PcfrPlus { .. } => {
                add_clipped(regrets, inst);
                // Regret matching on R + m, with the new prediction m = r.
                for (((c, r), m), x) in current.iter_mut().zip(regrets.iter()).zip(pred.iter_mut()).zip(inst) {
                    *m = *x;
                    *c = r + x;
                }
                normalize_positive(current);
                return;
            }
        }
        regret_matching(regrets, current);
    }
}

/// R += r.
fn add(regrets: &mut [f64], inst: &[f64]) {
    regrets.iter_mut().zip(inst).for_each(|(r, x)| *r += x);
}

/// R = max(R + r, 0): regret matching+ (OpenSpiel adds, then resets the
/// negative sums to 0 once the traversal is done: the same).
fn add_clipped(regrets: &mut [f64], inst: &[f64]) {
    regrets.iter_mut().zip(inst).for_each(|(r, x)| *r = (*r + x).max(0.0));
}

/// DCFR's rule as OpenSpiel's `discounted_cfr.py` applies it: add, then
/// multiply a non-negative sum by t^α/(t^α+1) and a negative one by
/// t^β/(t^β+1).
fn discount(t: u64, alpha: f64, beta: f64, regrets: &mut [f64], inst: &[f64]) {
    let t = t as f64;
    let (ta, tb) = (t.powf(alpha), t.powf(beta));
    let (pos, neg) = (ta / (ta + 1.0), tb / (tb + 1.0));
    for (r, x) in regrets.iter_mut().zip(inst) {
        *r += x;
        *r *= if *r >= 0.0 { pos } else { neg };
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

    /// Predictive regret matching+ on one set, by hand: R = [R + r]^+, the
    /// prediction is r, the strategy is proportional to [R + r]^+.
    #[test]
    fn predictive_regret_matching_plus_by_hand() {
        let (mut regrets, mut pred, mut current) = (vec![1.0, 0.0, 2.0], vec![0.0; 3], vec![0.0; 3]);
        Variant::PCFR_PLUS.update(1, &mut regrets, &[1.0, -3.0, -1.0], &mut pred, &mut current);
        assert_eq!(regrets, [2.0, 0.0, 1.0]);
        assert_eq!(pred, [1.0, -3.0, -1.0]);
        // R + m = [3, -3, 0]: all weight on the first action.
        assert_eq!(current, [1.0, 0.0, 0.0]);
        Variant::PCFR_PLUS.update(2, &mut regrets, &[-4.0, -1.0, -2.0], &mut pred, &mut current);
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
        Variant::DCFR.update(1, &mut regrets, &[2.0, -3.0], &mut [], &mut current);
        assert_eq!(regrets, [1.5, -1.0]);
        assert_eq!(current, [1.0, 0.0]);
        Variant::DCFR.update(4, &mut regrets, &[0.5, 0.0], &mut [], &mut current);
        // t^1.5 = 8: 8/9 for the positive sum; t^0 = 1: 1/2 for the negative.
        assert_eq!(regrets, [2.0 * 8.0 / 9.0, -0.5]);
    }
}
