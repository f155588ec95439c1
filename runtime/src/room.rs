//! Room for the arrays that grow with a tree (its nodes, the interner's
//! states and sets, the memo's entries), which a build fills from the front.
//!
//! A build starts with room for a small game (9,457-node Leduc never grows
//! an array). An array that outgrows it jumps to [`GROWN_BYTES`] of room at
//! once instead of doubling there: reserved room is address space, and a
//! page of it costs memory only once written, while each doubling copied
//! the array into fresh pages and held both copies for a moment (on a
//! mid-sized game such copies were a large share of the page faults:
//! docs/perf/tree-build.md, "Fresh small builds"). Past that room an array
//! doubles. Memory reports count these arrays by their lengths.

/// The room, in bytes, of an array that has outgrown its first room.
const GROWN_BYTES: usize = 1 << 22;

/// Makes room in `v` for `additional` more items: at least
/// [`GROWN_BYTES`] of room once it outgrows its first, then doubling.
#[cold]
#[inline(never)]
pub(crate) fn grow<T>(v: &mut Vec<T>, additional: usize) {
    let needed = v.len() + additional;
    let item = std::mem::size_of::<T>().max(1);
    let room = if v.capacity() * item < GROWN_BYTES { GROWN_BYTES / item } else { 2 * v.capacity() };
    v.reserve_exact(room.max(needed) - v.len());
}

/// `v.push(x)`, growing as [`grow`] says.
#[inline(always)]
pub(crate) fn push<T>(v: &mut Vec<T>, x: T) {
    if v.len() == v.capacity() {
        grow(v, 1);
    }
    v.push(x);
}

/// `v.resize(len, value)`, growing as [`grow`] says.
#[inline(always)]
pub(crate) fn resize<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    if len > v.capacity() {
        grow(v, len - v.len());
    }
    v.resize(len, value);
}

#[cfg(test)]
mod tests {
    use super::{grow, push, resize, GROWN_BYTES};

    #[test]
    fn an_array_that_outgrows_its_room_jumps_then_doubles() {
        let mut v: Vec<u32> = Vec::with_capacity(4);
        for i in 0..4 {
            push(&mut v, i);
        }
        assert_eq!(v.capacity(), 4);
        push(&mut v, 4);
        assert_eq!(v.capacity(), GROWN_BYTES / 4);
        assert_eq!(v, [0, 1, 2, 3, 4]);
        resize(&mut v, GROWN_BYTES / 4 + 1, 7);
        assert_eq!(v.capacity(), GROWN_BYTES / 2);
        assert_eq!((v.len(), v[5], v[GROWN_BYTES / 4]), (GROWN_BYTES / 4 + 1, 7, 7));
        // More than a doubling asked for at once: all of it.
        grow(&mut v, GROWN_BYTES);
        assert!(v.capacity() >= GROWN_BYTES / 4 + 1 + GROWN_BYTES);
    }
}
