//! A state as what differs from another at the same point of the play
//! ([`Game::delta`](galac_runtime::game::Game::delta)): a derivation keeps
//! one per deal before the first moves instead of a whole state.

use super::{State, Value};

/// The `block` of a state made by [`State::delta_from`] (no block has it).
const DELTA: u32 = u32::MAX;

impl State {
    /// The slots where `self` differs from `base`, as (index, value) pairs
    /// in `slots` and `block` set to [`DELTA`] (a hold'em deal differs
    /// from another in its hands and information states, a few of 31
    /// slots); the whole state where the flow or a pending choice differ.
    pub(super) fn delta_from(&self, base: &State) -> State {
        if base.block != self.block || base.pending.is_some() || self.pending.is_some() {
            return self.clone();
        }
        let mut slots = Vec::new();
        for (i, (b, v)) in base.slots.iter().zip(&self.slots).enumerate() {
            if b != v {
                slots.extend([Value::Int(i as i64), v.clone()]);
            }
        }
        slots.shrink_to_fit();
        State { slots, block: DELTA, pending: None }
    }

    /// Makes `self`, a copy of the base `delta` was taken against, the
    /// state it was taken of.
    pub(super) fn apply_delta(&mut self, delta: &State) {
        if delta.block != DELTA {
            return self.clone_from(delta);
        }
        for pair in delta.slots.chunks_exact(2) {
            if let [Value::Int(i), v] = pair {
                self.slots[*i as usize] = v.clone();
            }
        }
    }
}
