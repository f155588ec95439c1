//! Values of both executions and their one word encoding.
//!
//! Compiled games hold typed values: scalars are plain Rust values (`i64`,
//! `bool`, `u8` for players, `u8` or `u32` for enum values); lists and arrays
//! whose length is a param are [`List`]s, shared and copied on write, so
//! cloning a state never allocates. The interpreter holds [`Dyn`] values.
//! [`Encode`] (and [`Fixed`], its stack-array form) writes every value as the
//! exact words that facts and choice lists are interned from; it is defined
//! here only, for both, so equal values get equal words in either execution.

/// Cards are `rank << SUIT_BITS | suit`: they order by rank, then suit.
pub const SUIT_BITS: u32 = 16;

mod dynamic;
mod encode;
mod fixed;
mod list;
mod rows;

pub use dynamic::{Dyn, Items, ItemsMut, Scalar};
pub use encode::{fold_seq, Encode};
pub use fixed::Fixed;
pub use list::{Bytes, Elem, List};
pub use rows::Rows;
