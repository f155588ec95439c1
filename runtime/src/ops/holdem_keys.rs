//! The hold'em evaluator's constants, shared by the crate (`ops::holdem`)
//! and its build script, which makes the evaluator's tables from them (a
//! module of both).

/// The classes of hands, `hand_class` of a `hand_rank` value (`ops::holdem`).
pub mod class {
    pub const HIGH_CARD: u32 = 1;
    pub const PAIR: u32 = 2;
    pub const TWO_PAIR: u32 = 3;
    pub const TRIPS: u32 = 4;
    pub const STRAIGHT: u32 = 5;
    pub const FLUSH: u32 = 6;
    pub const FULL_HOUSE: u32 = 7;
    pub const QUADS: u32 = 8;
    pub const STRAIGHT_FLUSH: u32 = 9;
}

/// Where the class starts in a `hand_rank` value.
pub const CLASS_SHIFT: u32 = 12;

/// Each rank's part of a key (OMPEval's constants, Zekyll, MIT, as rs_poker
/// uses them): sums of 5 to 7 of them, no rank more than four times, differ,
/// which the build script's `tables` checks.
pub const RANK_KEYS: [u32; 13] = [
    0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068, 0x48c0e4, 0x48f211,
    0x494493,
];
/// The perfect hash of rank keys: a key's row (its bits from `ROW_SHIFT`)
/// has an offset that puts the row's keys in distinct slots of `LOOKUP_LEN`.
pub const ROW_SHIFT: u32 = 12;
pub const LOOKUP_LEN: usize = 1 << 17;
/// Rows of rank keys: above the largest key of seven cards (which
/// the build script's `tables` checks).
pub const ROWS: usize = 1 << 13;
