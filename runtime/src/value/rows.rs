//! [`Rows`]: many rows of the interpreter's values ([`Dyn`]), each distinct
//! value kept once and a row as a `u32` per value: a derivation's million
//! deals (a chance's candidates, each deal's private values) are a few
//! distinct hands and weights, shared.

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
    cells: Vec<u32>,
}

impl Rows {
    /// No rows of `width` values yet, with room for `rows` rows.
    pub fn new(width: usize, rows: usize) -> Rows {
        let mut cells = Vec::new();
        cells.reserve_exact(width * rows);
        Rows { width, values: Vec::new(), index: FxHashMap::default(), cells }
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
        self.cells.is_empty()
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
        self.cells.extend_from_slice(row);
    }

    /// Row `k`'s values.
    ///
    /// # Panics
    /// If there is no row `k` (a caller's bug).
    pub fn row(&self, k: usize) -> impl ExactSizeIterator<Item = &Dyn> {
        self.cells[k * self.width..(k + 1) * self.width].iter().map(|&i| &self.values[i as usize])
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
}
