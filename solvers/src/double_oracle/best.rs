//! The best strategy each player has had so far.
//!
//! The paper keeps as its bounds the best of all past best-response values
//! (its description of the double oracle: the least of a player's
//! best-response values bounds the game's value from above, the greatest
//! of the opponent's from below),
//! not the last iteration's. The strategies those responses answered make
//! the answer, so its NashConv is the gap between the two bounds: the gap
//! never grows from one iteration to the next, and a run stopped early
//! returns the best profile it met, not the last one.
//!
//! A value from a pruned search may be too low (see `bnb`), so each best
//! remembers whether its value is exact; a run certifies both before it
//! stops, searching unpruned against a best strategy that is no longer the
//! current one.

use super::restricted::Extended;

/// One player's best strategy and its opponent's best-response value.
#[derive(Clone, Debug)]
struct Best {
    response: f64,
    strategy: Extended,
    /// `response` came from an unpruned search.
    exact: bool,
}

/// Both players' bests.
#[derive(Default)]
pub(super) struct Bests {
    best: [Option<Best>; 2],
    /// Whether `best[p]` is player `p`'s current strategy.
    current: [bool; 2],
}

impl Bests {
    /// Player `p`'s current strategy was replaced.
    pub(super) fn replaced(&mut self, p: usize) {
        self.current[p] = false;
    }

    /// The opponent's best response to `strategy`, player `p`'s current
    /// one, is worth `response` (`exact` if unpruned). An exact value of
    /// the same strategy replaces a pruned one; else the strategy becomes
    /// the best if it is answered by less.
    pub(super) fn answered(&mut self, p: usize, response: f64, exact: bool, strategy: &Extended) {
        match &mut self.best[p] {
            Some(b) if self.current[p] => {
                if exact {
                    (b.response, b.exact) = (response, true);
                }
            }
            Some(b) if response >= b.response => {}
            _ => {
                self.best[p] = Some(Best { response, strategy: strategy.clone(), exact });
                self.current[p] = true;
            }
        }
    }

    /// Player `p`'s best strategy when it still needs an unpruned search
    /// of its own: not the current one, and its value from a pruned search.
    pub(super) fn unchecked(&self, p: usize) -> Option<&Extended> {
        self.best[p].as_ref().filter(|b| !self.current[p] && !b.exact).map(|b| &b.strategy)
    }

    /// The unpruned search against [`Self::unchecked`]`(p)` found `response`.
    pub(super) fn checked(&mut self, p: usize, response: f64) {
        if let Some(b) = &mut self.best[p] {
            (b.response, b.exact) = (response, true);
        }
    }

    /// Both bests' responses are worth `responses` (per player `p`: the
    /// opponent's response to `p`'s best), found unpruned.
    pub(super) fn certified(&mut self, responses: [f64; 2]) {
        for (b, r) in self.best.iter_mut().zip(responses) {
            if let Some(b) = b {
                (b.response, b.exact) = (r, true);
            }
        }
    }

    /// The answer's strategies, as [`Self::into_strategies`] would give them.
    pub(super) fn answer<'a>(&'a self, current: &'a [Extended; 2]) -> [&'a Extended; 2] {
        [0, 1].map(|p| self.best[p].as_ref().map_or(&current[p], |b| &b.strategy))
    }

    /// Whether both players have a best and both values are exact.
    pub(super) fn exact(&self) -> bool {
        self.best.iter().all(|b| b.as_ref().is_some_and(|b| b.exact))
    }

    /// (lower, upper) on the first player's value, for payoffs summing to
    /// `constant`.
    pub(super) fn bounds(&self, constant: f64) -> (Option<f64>, Option<f64>) {
        (self.best[0].as_ref().map(|b| constant - b.response), self.best[1].as_ref().map(|b| b.response))
    }

    /// The answer's strategies: each player's best, or `current` for a
    /// player never answered.
    pub(super) fn into_strategies(self, current: [Extended; 2]) -> [Extended; 2] {
        let [b0, b1] = self.best;
        let [c0, c1] = current;
        [b0.map_or(c0, |b| b.strategy), b1.map_or(c1, |b| b.strategy)]
    }
}
