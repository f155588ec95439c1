//! [`Rows`]: many rows of the interpreter's values ([`Dyn`]), each distinct
//! value kept once and a row as a `u32` per value: a derivation's million
//! deals (a chance's candidates, each deal's private values) are a few
//! distinct hands and weights, shared: a `u16` per value while fewer
//! than 65,536 are distinct, else a `u32`.

use rustc_hash::FxHashMap;

use super::Dyn;

/// Rows of `width` values, each value interned.
pub struct Rows {
    width: usize,
    /// The distinct values met, each once.
    values: Vec<Dyn>,
    /// Each distinct value's index in `values`.
    index: FxHashMap<Dyn, u32>,
    /// Per row, its `width` values' indices in `values`.
    cells: Cells,
}

/// The rows' indices into the distinct values: a `u16` each while every
/// index fits (a derivation's rows: a few thousand distinct hands and
/// weights), made `u32`s when one does not.
enum Cells {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Cells {
    fn len(&self) -> usize {
        match self {
            Cells::Narrow(c) => c.len(),
            Cells::Wide(c) => c.len(),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> u32 {
        match self {
            Cells::Narrow(c) => u32::from(c[i]),
            Cells::Wide(c) => c[i],
        }
    }

    /// Adds index `i`, widened first if it does not fit a `u16`.
    #[inline]
    fn push(&mut self, i: u32) {
        match self {
            Cells::Narrow(narrow) if i <= u32::from(u16::MAX) => narrow.push(i as u16),
            Cells::Narrow(_) => {
                self.widen();
                self.push(i);
            }
            Cells::Wide(wide) => wide.push(i),
        }
    }

    /// Adds `row`'s indices, widened first if one does not fit a `u16`.
    #[inline]
    fn extend(&mut self, row: &[u32]) {
        match self {
            Cells::Narrow(narrow) if row.iter().all(|&i| i <= u32::from(u16::MAX)) => {
                narrow.extend(row.iter().map(|&i| i as u16))
            }
            Cells::Narrow(_) => {
                self.widen();
                self.extend(row);
            }
            Cells::Wide(wide) => wide.extend_from_slice(row),
        }
    }

    /// The indices as `u32`s, with the room reserved.
    #[cold]
    #[inline(never)]
    fn widen(&mut self) {
        if let Cells::Narrow(narrow) = self {
            let mut wide = Vec::new();
            wide.reserve_exact(narrow.capacity());
            wide.extend(narrow.iter().map(|&i| u32::from(i)));
            *self = Cells::Wide(wide);
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            Cells::Narrow(c) => c.shrink_to_fit(),
            Cells::Wide(c) => c.shrink_to_fit(),
        }
    }
}

impl Rows {
    /// No rows of `width` values yet, with room for `rows` rows.
    pub fn new(width: usize, rows: usize) -> Rows {
        let mut cells = Vec::new();
        cells.reserve_exact(width * rows);
        Rows { width, values: Vec::new(), index: FxHashMap::default(), cells: Cells::Narrow(cells) }
    }

    /// Values per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.cells.len() == 0
    }

    /// `v`'s index among the distinct values (added if new), for [`Rows::push_cells`].
    pub fn intern(&mut self, v: &Dyn) -> u32 {
        if let Some(&i) = self.index.get(v) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(v.clone());
        self.index.insert(v.clone(), i);
        i
    }

    /// A row of `width` values.
    pub fn push<'v>(&mut self, row: impl Iterator<Item = &'v Dyn>) {
        for v in row {
            let i = self.intern(v);
            self.cells.push(i);
        }
    }

    /// A row of `width` values given by their [`Rows::intern`] indices.
    pub fn push_cells(&mut self, row: &[u32]) {
        debug_assert_eq!(row.len(), self.width);
        self.cells.extend(row);
    }

    /// Row `k`'s values.
    ///
    /// # Panics
    /// If there is no row `k` (a caller's bug).
    pub fn row(&self, k: usize) -> impl ExactSizeIterator<Item = &Dyn> {
        assert!((k + 1) * self.width <= self.cells.len(), "no row {k}");
        (k * self.width..(k + 1) * self.width).map(|c| &self.values[self.cells.get(c) as usize])
    }

    /// Gives back the room reserved and not used.
    pub fn shrink_to_fit(&mut self) {
        self.cells.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows give back the values pushed, each distinct value kept once.
    #[test]
    fn rows_keep_each_distinct_value_once() {
        let hand = |a: i64, b: i64| Dyn::seq(vec![Dyn::Int(a), Dyn::Int(b)]);
        let mut rows = Rows::new(3, 2);
        rows.push([hand(1, 2), hand(3, 4), Dyn::Int(1)].iter());
        let (h, w) = (rows.intern(&hand(1, 2)), rows.intern(&Dyn::Int(1)));
        let other = rows.intern(&hand(5, 6));
        rows.push_cells(&[h, other, w]);
        assert_eq!((rows.len(), rows.values.len()), (2, 4));
        let second: Vec<Dyn> = rows.row(1).cloned().collect();
        assert_eq!(second, vec![hand(1, 2), hand(5, 6), Dyn::Int(1)]);
        let first: Vec<Dyn> = rows.row(0).cloned().collect();
        assert_eq!(first, vec![hand(1, 2), hand(3, 4), Dyn::Int(1)]);
    }

    /// Past 65,536 distinct values the rows' indices are widened, and
    /// every row, before and after, gives back its values.
    #[test]
    fn rows_past_a_u16_of_values_keep_their_values() {
        let n = (1 << 16) + 10;
        let mut rows = Rows::new(2, 4);
        for k in 0..n {
            rows.push([Dyn::Int(k), Dyn::Int(k % 3)].iter());
            if k == 5 {
                assert!(matches!(rows.cells, Cells::Narrow(_)));
            }
        }
        assert!(matches!(rows.cells, Cells::Wide(_)));
        assert_eq!(rows.len(), n as usize);
        for k in [0, 1, 5, (1 << 16) - 3, (1 << 16) - 2, 1 << 16, n - 1] {
            let row: Vec<Dyn> = rows.row(k as usize).cloned().collect();
            assert_eq!(row, vec![Dyn::Int(k), Dyn::Int(k % 3)], "row {k}");
        }
    }
}
