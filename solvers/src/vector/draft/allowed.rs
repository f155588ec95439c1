//! [`Allowed`]: the deals a public outcome of the draft allows, with
//! their probability (a leaf of `draft`).

use std::rc::Rc;

use super::Deals;

/// The deals a public outcome allows with their probability: each its
/// own, or one for every deal of a shared list (a representative walk's:
/// the turn's 48 river outcomes were 26 MB as pairs).
pub enum Allowed {
    Each(Vec<(u32, f64)>),
    Same(f64, Rc<Deals>),
}

impl Allowed {
    /// The deals, in order.
    pub fn deals(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Allowed::Each(each) => Box::new(each.iter().map(|&(d, _)| d)),
            Allowed::Same(_, deals) => Box::new(deals.iter()),
        }
    }
}
