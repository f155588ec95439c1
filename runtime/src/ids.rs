//! Typed ids of the game tree and its solvers, and vectors indexed by them.
//!
//! Each id is a `#[repr(transparent)]` `u32`, so a table of ids takes the
//! same memory as one of raw numbers and indexing costs the same; what the
//! types add is that a node cannot be passed where an information set, an
//! action slot, a sequence or a player is expected, and that a table says
//! what it is indexed by (`IdVec<InfosetId, SlotId>`: each set's first
//! slot). Hot loops may still turn an id into a plain index
//! ([`NodeId::index`]) locally; signatures and fields hold the types.
//!
//! The vectors are `typed-index-collections`' `TiVec` and `TiSlice`: they
//! mirror `Vec` and slices (iteration, `iter_enumerated`, `keys`,
//! `push_and_get_key`) with the key type in place of `usize`, keep the raw
//! vector public for the code that needs one (`raw`), and cost nothing over
//! a `Vec`. (`index_vec` offers the same; `typed-index-collections` is the
//! one kept up to date and needs no macro to define an id.)
//!
//! The ids:
//! - [`NodeId`]: a node of a `Tree` (0 is the root).
//! - [`InfosetId`]: an information set of a `Tree`, numbered over all
//!   players by first visit.
//! - [`PlayerId`]: a player, 0-based in the game's order.
//! - [`SlotId`]: an action slot, one (information set, action) pair,
//!   numbered over all players (the solvers' treeplex layout).
//! - [`SeqId`]: one player's sequence; 0 is the empty sequence, and slot
//!   `s` of player `p` is sequence `s - first slot of p + 1`.

use std::fmt;
use std::ops::Range;

pub use typed_index_collections::{TiSlice as IdSlice, TiVec as IdVec};

/// Defines an id type: a transparent `u32` with the conversions that
/// `IdVec` needs (`From<usize>`, `Into<usize>`).
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[repr(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as an index into a plain slice.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of index `i` (which fits a `u32`: tables are bounded
            /// by their builders).
            #[inline]
            pub fn from_index(i: usize) -> Self {
                debug_assert!(u32::try_from(i).is_ok(), "internal error, please report: {} {i} out of range", $prefix);
                Self(i as u32)
            }
        }

        impl From<usize> for $name {
            #[inline]
            fn from(i: usize) -> Self {
                Self::from_index(i)
            }
        }

        impl From<$name> for usize {
            #[inline]
            fn from(id: $name) -> usize {
                id.index()
            }
        }

        /// The id `n` places further (the `n`-th slot of a set, the `n`-th
        /// sequence after a first one).
        impl std::ops::Add<u32> for $name {
            type Output = $name;
            #[inline]
            fn add(self, n: u32) -> $name {
                $name(self.0 + n)
            }
        }

        /// How many ids lie from `earlier` to this one.
        impl std::ops::Sub for $name {
            type Output = u32;
            #[inline]
            fn sub(self, earlier: $name) -> u32 {
                self.0 - earlier.0
            }
        }

        impl IdRangeStep for $name {
            #[inline]
            fn raw(self) -> u32 {
                self.0
            }
            #[inline]
            fn from_raw(raw: u32) -> Self {
                Self(raw)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

id_type!(
    /// A node of a tree; 0 is the root.
    NodeId,
    "node"
);
id_type!(
    /// An information set of a tree, numbered over all players by first visit.
    InfosetId,
    "set"
);
id_type!(
    /// A player, 0-based in the game's order.
    PlayerId,
    "player"
);
id_type!(
    /// An action slot: one (information set, action) pair, numbered over all
    /// players in the treeplex's layout.
    SlotId,
    "slot"
);
id_type!(
    /// A sequence of one player: 0 is the empty sequence.
    SeqId,
    "seq"
);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);
}

impl SeqId {
    /// The empty sequence, which every player's plan plays with weight 1.
    pub const EMPTY: SeqId = SeqId(0);
}

impl PlayerId {
    /// Players `0 .. n`.
    pub fn all(n: u32) -> IdRange<PlayerId> {
        IdRange::new(PlayerId(0), PlayerId(n))
    }
}

/// What [`IdRange`] needs of an id: its raw number and back.
pub trait IdRangeStep: Copy {
    fn raw(self) -> u32;
    fn from_raw(raw: u32) -> Self;
}

/// A half-open range of ids (a node's children, a set's slots), iterated
/// like `Range<u32>` (`std::ops::Range<I>` iterates only over built-in
/// integer types).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct IdRange<I> {
    pub start: I,
    pub end: I,
}

impl<I: IdRangeStep> IdRange<I> {
    #[inline]
    pub fn new(start: I, end: I) -> Self {
        IdRange { start, end }
    }

    /// The range as plain indices, for slicing a plain array.
    #[inline]
    pub fn indices(self) -> Range<usize> {
        self.start.raw() as usize..self.end.raw() as usize
    }

    /// The `i`-th id of the range.
    #[inline]
    pub fn nth_id(self, i: usize) -> I {
        debug_assert!(i < self.count_ids(), "internal error, please report: id range index out of range");
        I::from_raw(self.start.raw() + i as u32)
    }

    /// No id in the range (a leaf's children).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.start.raw() >= self.end.raw()
    }

    #[inline]
    fn count_ids(self) -> usize {
        self.end.raw().saturating_sub(self.start.raw()) as usize
    }
}

impl<I: IdRangeStep + fmt::Debug> fmt::Debug for IdRange<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}..{:?}", self.start, self.end)
    }
}

impl<I: IdRangeStep> Iterator for IdRange<I> {
    type Item = I;

    #[inline]
    fn next(&mut self) -> Option<I> {
        let s = self.start.raw();
        if s < self.end.raw() {
            self.start = I::from_raw(s + 1);
            Some(I::from_raw(s))
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count_ids();
        (n, Some(n))
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<I> {
        let s = (self.start.raw() as u64 + n as u64).min(self.end.raw() as u64) as u32;
        self.start = I::from_raw(s);
        self.next()
    }
}

impl<I: IdRangeStep> DoubleEndedIterator for IdRange<I> {
    #[inline]
    fn next_back(&mut self) -> Option<I> {
        let e = self.end.raw();
        if self.start.raw() < e {
            self.end = I::from_raw(e - 1);
            Some(I::from_raw(e - 1))
        } else {
            None
        }
    }
}

impl<I: IdRangeStep> ExactSizeIterator for IdRange<I> {}

impl<I: IdRangeStep> std::iter::FusedIterator for IdRange<I> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_transparent_u32s_and_index_their_vectors_only() {
        assert_eq!(std::mem::size_of::<NodeId>(), 4);
        assert_eq!(std::mem::size_of::<Option<InfosetId>>(), 8);
        let mut firsts: IdVec<InfosetId, SlotId> = IdVec::new();
        let a = firsts.push_and_get_key(SlotId(0));
        let b = firsts.push_and_get_key(SlotId(3));
        assert_eq!((a, b), (InfosetId(0), InfosetId(1)));
        assert_eq!(firsts[b], SlotId(3));
        assert_eq!(format!("{:?} {}", b, b), "set1 1");
    }

    #[test]
    fn a_range_iterates_both_ways_and_counts() {
        let r = IdRange::new(NodeId(3), NodeId(6));
        assert_eq!(r.collect::<Vec<_>>(), [NodeId(3), NodeId(4), NodeId(5)]);
        assert_eq!(r.rev().collect::<Vec<_>>(), [NodeId(5), NodeId(4), NodeId(3)]);
        assert_eq!((r.len(), r.indices(), r.nth_id(2)), (3, 3..6, NodeId(5)));
        assert_eq!(r.clone().nth(1), Some(NodeId(4)));
        assert_eq!(r.clone().nth(7), None);
        assert_eq!(IdRange::new(NodeId(4), NodeId(4)).next(), None);
        assert_eq!(PlayerId::all(2).collect::<Vec<_>>(), [PlayerId(0), PlayerId(1)]);
    }
}
