//! [`Rows`]: many rows of the interpreter's values ([`Dyn`]), each distinct
//! value kept once and a row as a `u32` per value: a derivation's million
//! deals (a chance's candidates, each deal's private values) are a few
//! distinct hands and weights, shared: a `u16` per value while fewer
//! than 65,536 are distinct, else a `u32`; and a column whose value is the
//! same in every row (the deals' one weight) not per row at all.

use rustc_hash::FxHashMap;

use super::Dyn;

/// Rows of `width` values, each value interned.
pub struct Rows {
    width: usize,
    /// The distinct values met, each once.
    values: Vec<Dyn>,
    /// Each distinct value's index in `values`.
    index: FxHashMap<Dyn, u32>,
    /// Per column, its one index while every row has it there (then the
    /// column is not in `cells`), else `NONE`.
    same: Vec<u32>,
    /// Per row, the indices of its columns not in `same`, in order.
    cells: Cells,
    /// The number of rows.
    len: usize,
    /// The room asked for, in rows (for the cells, once a column differs).
    room: usize,
    /// A row's indices as [`Rows::push`] interns them (reused).
    row: Vec<u32>,
}

/// A column not kept once ([`Rows::same`]).
const NONE: u32 = u32::MAX;

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

    fn truncate(&mut self, len: usize) {
        match self {
            Cells::Narrow(c) => c.truncate(len),
            Cells::Wide(c) => c.truncate(len),
        }
    }
}

impl Rows {
    /// No rows of `width` values yet, with room for `rows` rows.
    pub fn new(width: usize, rows: usize) -> Rows {
        Rows {
            width,
            values: Vec::new(),
            index: FxHashMap::default(),
            same: Vec::new(),
            cells: Cells::Narrow(Vec::new()),
            len: 0,
            room: rows,
            row: Vec::new(),
        }
    }

    /// Values per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        let mut cells = std::mem::take(&mut self.row);
        cells.clear();
        for v in row {
            cells.push(self.intern(v));
        }
        self.push_cells(&cells);
        self.row = cells;
    }

    /// A row of `width` values given by their [`Rows::intern`] indices.
    #[inline]
    pub fn push_cells(&mut self, row: &[u32]) {
        debug_assert_eq!(row.len(), self.width);
        if self.len == 0 {
            // Every column the same so far: the first row's.
            self.same = row.to_vec();
            self.len = 1;
            return;
        }
        // One pass: a column kept once must have its value, the others
        // are written (and taken back if a column kept once differs).
        let start = self.cells.len();
        for (&same, &i) in self.same.iter().zip(row) {
            if same == NONE {
                self.cells.push(i);
            } else if same != i {
                self.cells.truncate(start);
                self.differs(row);
                return;
            }
        }
        self.len += 1;
    }

    /// `row` differs from the rows before in a column kept once (or
    /// several): those columns are written out for every row before it,
    /// then `row` is pushed.
    #[cold]
    #[inline(never)]
    fn differs(&mut self, row: &[u32]) {
        let differ: Vec<bool> = self.same.iter().zip(row).map(|(&same, &i)| same != NONE && same != i).collect();
        let old_stored = self.same.iter().filter(|&&i| i == NONE).count();
        let mut cells = Cells::Narrow(Vec::new());
        let stored = old_stored + differ.iter().filter(|&&d| d).count();
        if let Cells::Narrow(narrow) = &mut cells {
            narrow.reserve_exact(stored * self.room.max(self.len + 1));
        }
        for r in 0..self.len {
            let mut at = r * old_stored;
            for (&i, &d) in self.same.iter().zip(&differ) {
                if i == NONE {
                    cells.push(self.cells.get(at));
                    at += 1;
                } else if d {
                    cells.push(i);
                }
            }
        }
        for (k, &d) in differ.iter().enumerate() {
            if d {
                self.same[k] = NONE;
            }
        }
        self.cells = cells;
        self.push_cells(row);
    }

    /// Row `k`'s values.
    ///
    /// # Panics
    /// If there is no row `k` (a caller's bug).
    pub fn row(&self, k: usize) -> impl ExactSizeIterator<Item = &Dyn> {
        assert!(k < self.len, "no row {k}");
        let stored = self.cells.len() / self.len;
        let mut at = k * stored;
        self.same.iter().map(move |&i| {
            let i = match i {
                NONE => {
                    at += 1;
                    self.cells.get(at - 1)
                }
                i => i,
            };
            &self.values[i as usize]
        })
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

    /// A column with one value in every row is not kept per row; once a
    /// row differs there (here two columns at once, late), it is written
    /// out for the rows before, and every row gives back its values.
    #[test]
    fn a_column_of_one_value_is_kept_once_until_a_row_differs() {
        let want = |k: i64| [Dyn::Int(k), Dyn::Int(if k < 100 { 7 } else { 8 }), Dyn::Int(if k < 100 { 5 } else { k })];
        let mut rows = Rows::new(4, 200);
        let check = |rows: &Rows, n: i64| {
            for k in 0..n {
                let got: Vec<Dyn> = rows.row(k as usize).cloned().collect();
                assert_eq!(got, [want(k).to_vec(), vec![Dyn::Int(3)]].concat(), "row {k} of {n}");
            }
        };
        for k in 0..200 {
            rows.push(want(k).iter().chain([Dyn::Int(3)].iter()));
            if k == 99 {
                assert_eq!(rows.cells.len(), 100, "one column kept per row");
                check(&rows, 100);
            }
        }
        assert_eq!((rows.len(), rows.cells.len()), (200, 600));
        check(&rows, 200);
        let mut same = Rows::new(2, 3);
        (0..3).for_each(|_| same.push([Dyn::Int(1), Dyn::Int(2)].iter()));
        assert_eq!((same.len(), same.cells.len()), (3, 0));
        assert!(same.row(2).cloned().eq([Dyn::Int(1), Dyn::Int(2)]));
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
