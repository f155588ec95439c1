//! How a vector CFR run stores its regrets and average sums per
//! (decision, action, private state of the decision's player): `f32`
//! entries ([`F32`]), or, with [`Storage::Compressed`], postflop-solver's
//! compression ([`Compressed`]): regrets as `i16` and average sums as
//! `u16`, each decision node with one `f32` scale for its regrets and one
//! for its sums (an entry is `code * scale / i16::MAX`, or `/ u16::MAX`).
//! A node's scale is common to every action of each of its states, so
//! regret matching and the average's normalisation read the codes as they
//! are ([`Cell::positive`]); only the update decodes, and it encodes the
//! node again with the new largest magnitude as its scale.
//!
//! The codes are rounded stochastically (down or up with the odds that
//! make the expected code the value: [`dither`]): rounded to the nearest,
//! an entry whose iteration's change is under half a step of its node's
//! scale never moves (a hand of low reach in the average's sums), which
//! left CFR+ on Leduc stuck far above the `f32` run's NashConv, and rising
//! with the iterations (docs/perf/vector-cfr.md).
//!
//! The layouts are type parameters of the walk ([`Layout`]), so the `f32`
//! walk is compiled as it was, with no branch on the storage.

/// How a decision's regrets and average move at the traverser's update.
#[derive(Clone, Copy, Debug)]
pub struct Update {
    /// CFR+ clips regrets at 0; DCFR multiplies them by `pos` or `neg`
    /// (after adding the iteration's regret) by their sign.
    pub clip: bool,
    pub pos: f32,
    pub neg: f32,
    /// The average strategy's sums are multiplied by this before the
    /// iteration's strategy (weighted by the traverser's own reach) is added.
    pub keep: f32,
    /// The iteration (from 1), which seeds [`Compressed`]'s rounding.
    pub iteration: u32,
}

/// The storage a run picks: `f32` entries (the default), or 16-bit codes
/// with a scale per decision node, half the bytes for a coarser answer
/// (docs/perf/vector-cfr.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    #[default]
    F32,
    Compressed,
}

impl Storage {
    /// Bytes of the run's regrets and sums for `entries` slab entries and
    /// `nodes` public nodes (a compressed run keeps two scales per node).
    pub fn bytes(self, entries: usize, nodes: usize) -> usize {
        match self {
            Storage::F32 => 2 * size_of::<f32>() * entries,
            Storage::Compressed => (size_of::<i16>() + size_of::<u16>()) * entries + size_of::<[f32; 2]>() * nodes,
        }
    }
}

/// A stored entry as regret matching reads it: its positive part, in units
/// common to every entry of its node (the node's scale cancels in regret
/// matching's normalisation, so a code is read as is).
pub trait Cell: Copy + Default + Send + Sync + 'static {
    fn positive(self) -> f32;
}

impl Cell for f32 {
    #[inline(always)]
    fn positive(self) -> f32 {
        // One SIMD max, 0 for NaN, where `f32::max` adds NaN handling.
        if self > 0.0 {
            self
        } else {
            0.0
        }
    }
}

impl Cell for i16 {
    #[inline(always)]
    fn positive(self) -> f32 {
        f32::from(self.max(0))
    }
}

impl Cell for u16 {
    #[inline(always)]
    fn positive(self) -> f32 {
        f32::from(self)
    }
}

/// The element types of a run's arrays and how a decision of the
/// traverser is updated in them.
pub trait Layout: Send + Sync + 'static {
    type Regret: Cell;
    type Sum: Cell;
    /// Whether the layout keeps two scales per node ([`Store::scales`]).
    const SCALED: bool;

    /// Updates one decision of the traverser (`n` states a row, a row per
    /// action): `regrets` and `sums` its entries, `scale` its two scales
    /// (unused by [`F32`]), `sigma` its strategy, `rows` the actions'
    /// values, `own` the traverser's reach and `out` the node's value.
    /// `sigma` and `rows` are the walk's scratch, free to overwrite.
    /// `seed` differs per node and iteration ([`dither`]).
    #[allow(clippy::too_many_arguments)]
    fn update(
        u: Update,
        seed: u32,
        regrets: &mut [Self::Regret],
        sums: &mut [Self::Sum],
        scale: &mut [f32; 2],
        n: usize,
        sigma: &mut [f32],
        rows: &mut [f32],
        own: &[f32],
        out: &[f32],
    );
}

/// `f32` entries.
pub struct F32;

/// `i16` regrets and `u16` sums with a scale each per node.
pub struct Compressed;

/// The iteration's regret of an entry given its old value `r`, its
/// action's value `v` and the node's `o`.
#[inline(always)]
fn regret(u: Update, r: f32, v: f32, o: f32) -> f32 {
    let x = r + (v - o);
    if u.clip {
        x.max(0.0)
    } else {
        x * if x >= 0.0 { u.pos } else { u.neg }
    }
}

impl Layout for F32 {
    type Regret = f32;
    type Sum = f32;
    const SCALED: bool = false;

    #[inline]
    fn update(
        u: Update,
        _: u32,
        regrets: &mut [f32],
        sums: &mut [f32],
        _: &mut [f32; 2],
        n: usize,
        sigma: &mut [f32],
        rows: &mut [f32],
        own: &[f32],
        out: &[f32],
    ) {
        // Per action, its regrets and average sums in one pass.
        for (((r_row, m_row), v_row), s_row) in regrets
            .chunks_exact_mut(n)
            .zip(sums.chunks_exact_mut(n))
            .zip(rows.chunks_exact(n))
            .zip(sigma.chunks_exact(n))
        {
            for (((r, m), (v, o)), (s, w)) in
                r_row.iter_mut().zip(m_row.iter_mut()).zip(v_row.iter().zip(out)).zip(s_row.iter().zip(own))
            {
                *r = regret(u, *r, *v, *o);
                *m = *m * u.keep + s * w;
            }
        }
    }
}

impl Layout for Compressed {
    type Regret = i16;
    type Sum = u16;
    const SCALED: bool = true;

    #[inline]
    fn update(
        u: Update,
        seed: u32,
        regrets: &mut [i16],
        sums: &mut [u16],
        scale: &mut [f32; 2],
        n: usize,
        sigma: &mut [f32],
        rows: &mut [f32],
        own: &[f32],
        out: &[f32],
    ) {
        let (r_unit, m_unit) = (scale[0] / f32::from(i16::MAX), scale[1] / f32::from(u16::MAX));
        // The new values over the scratch (each action's values into its
        // regrets, the strategy into the sums), then encoded.
        for (((r_row, m_row), v_row), s_row) in regrets
            .chunks_exact(n)
            .zip(sums.chunks_exact(n))
            .zip(rows.chunks_exact_mut(n))
            .zip(sigma.chunks_exact_mut(n))
        {
            for (((r, m), (v, o)), (s, w)) in
                r_row.iter().zip(m_row).zip(v_row.iter_mut().zip(out)).zip(s_row.iter_mut().zip(own))
            {
                *v = regret(u, f32::from(*r) * r_unit, *v, *o);
                *s = f32::from(*m) * m_unit * u.keep + *s * w;
            }
        }
        *scale = [encode_signed(rows, regrets, seed), encode_unsigned(sigma, sums, seed ^ SUMS_SEED)];
    }
}

/// The largest scale: decoding the largest code of it (`code * (scale /
/// MAX)`, rounded twice) stays finite, where `f32::MAX` itself gave
/// infinity. Entries beyond it code as the largest code.
const LARGEST_SCALE: f32 = f32::MAX / 2.0;

/// The largest of `values` by `magnitude`, 0 for none (NaN ignored, and
/// negative magnitudes), capped at [`LARGEST_SCALE`] (an infinite entry
/// leaves a finite scale).
#[inline]
fn largest(values: &[f32], magnitude: impl Fn(f32) -> f32) -> f32 {
    // Non-negative floats order as their bits do read as `i32` (a
    // negative one's bits are negative, NaN's past infinity's): an integer
    // max, which vectorizes where a float max reduction does not.
    const INFINITY: i32 = 0x7f80_0000;
    let max = values.iter().fold(0i32, |m, &x| {
        let bits = magnitude(x).to_bits() as i32;
        m.max(if bits > INFINITY { 0 } else { bits })
    });
    f32::from_bits(max as u32).min(LARGEST_SCALE)
}

/// Told to [`encode_unsigned`] instead of the regrets' seed, so that a
/// node's sums and regrets round apart.
const SUMS_SEED: u32 = 0x5bd1_e995;

/// The seed of a node's rounding at an iteration: a hash (murmur3's
/// finaliser) of the two, so that the rounding depends on the node, the
/// entry and the iteration, never on the thread that walks the node.
#[inline]
pub fn seed(node: u32, iteration: u32) -> u32 {
    let mut h = node.wrapping_mul(0x85eb_ca6b) ^ iteration.wrapping_mul(0x9e37_79b9);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// A number in [-1/2, 1/2) for entry `i` of a node encoded with `seed`:
/// the seed's fraction plus `i` times the golden ratio's, the additive
/// sequence that spreads a node's entries most evenly; the hashed seed
/// makes each entry's number as good as uniform from one iteration to the
/// next. An add and a multiply by a constant an entry, and the top 23 bits
/// made a float by their bits (a hash per entry and an integer conversion
/// cost far more instructions).
#[inline(always)]
fn dither(seed: u32, i: usize) -> f32 {
    let h = seed.wrapping_add((i as u32).wrapping_mul(0x9e37_79b9));
    f32::from_bits(0x3f80_0000 | (h >> 9)) - 1.5
}

/// `y` rounded to the nearest integer, for `|y| <= 2^22`: adding 1.5 x
/// 2^23 leaves the integer in the low bits (round to nearest, even on
/// ties). Bit operations, which vectorize, where `as` from a float
/// saturates lane by lane.
#[inline(always)]
fn nearest(y: f32) -> i32 {
    const MAGIC: f32 = 12_582_912.0;
    (y + MAGIC).to_bits() as i32 - MAGIC.to_bits() as i32
}

/// Encodes `values` into `codes` (as many) as `i16`, in steps of `scale /
/// i16::MAX`, and returns the scale: the largest magnitude, so the codes
/// span `-i16::MAX..=i16::MAX`. A value between two codes takes the upper
/// with the odds of its distance from the lower (the nearest code to `x /
/// step + u`, `u` uniform in [-1/2, 1/2) from [`dither`]), so the expected
/// code is exact and the error under a step. All zeros give the scale 0
/// and zero codes; NaN codes as 0, and an infinity or an entry past
/// [`LARGEST_SCALE`] as the largest code.
pub fn encode_signed(values: &[f32], codes: &mut [i16], seed: u32) -> f32 {
    let scale = largest(values, f32::abs);
    let per_unit = if scale > 0.0 { f32::from(i16::MAX) / scale } else { 0.0 };
    let max = f32::from(i16::MAX);
    for (i, (c, &x)) in codes.iter_mut().zip(values).enumerate() {
        // Within the codes (NaN, which fails both comparisons: 0).
        let y = x * per_unit + dither(seed, i);
        let y = if y <= max {
            y
        } else if y > max {
            max
        } else {
            0.0
        };
        let y = if y >= -max { y } else { -max };
        *c = nearest(y) as i16;
    }
    scale
}

/// [`encode_signed`] for non-negative values as `u16` codes of steps
/// `scale / u16::MAX` (a negative value codes as 0).
pub fn encode_unsigned(values: &[f32], codes: &mut [u16], seed: u32) -> f32 {
    let scale = largest(values, |x| x);
    let per_unit = if scale > 0.0 { f32::from(u16::MAX) / scale } else { 0.0 };
    let max = f32::from(u16::MAX);
    for (i, (c, &x)) in codes.iter_mut().zip(values).enumerate() {
        let y = x * per_unit + dither(seed, i);
        let y = if y >= 0.0 { y } else { 0.0 };
        *c = nearest(if y < max { y } else { max }) as u16;
    }
    scale
}

/// The value of an `i16` code of `scale` ([`encode_signed`]).
pub fn decode_signed(code: i16, scale: f32) -> f32 {
    f32::from(code) * (scale / f32::from(i16::MAX))
}

/// The value of a `u16` code of `scale` ([`encode_unsigned`]).
pub fn decode_unsigned(code: u16, scale: f32) -> f32 {
    f32::from(code) * (scale / f32::from(u16::MAX))
}

/// A part of the solver's arrays: slab entries from `base` on, and (for a
/// scaled layout; empty otherwise) the scales of the nodes from
/// `first_node` on. A subtree's slabs and nodes are contiguous, so two
/// threads walk disjoint parts.
pub struct Store<'s, L: Layout> {
    pub regrets: &'s mut [L::Regret],
    pub sums: &'s mut [L::Sum],
    /// Per node, the scales of its regrets and of its sums.
    pub scales: &'s mut [[f32; 2]],
    pub base: usize,
    pub first_node: usize,
}
