//! Lemke's complementary pivoting on a dense tableau in `f64`, with the
//! lexicographic ratio test (which cannot cycle on degenerate problems).
//!
//! The LCP is: find `z >= 0` with `w = q + M z >= 0` and `w . z = 0`. The
//! tableau holds `w - M z - d z0 = q` with `d = 1`: columns `0..n` are the
//! `w`s (their current values are the basis inverse, read by the ratio
//! test), `n..2n` the `z`s, `2n` the artificial `z0`, `2n + 1` the
//! right-hand side.

/// Why the pivoting stopped without a solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LemkeError {
    #[error("Lemke's algorithm ended on a ray after {0} pivots (no entry of the entering column is positive)")]
    Ray(u64),
    #[error("Lemke's algorithm did not finish within {0} pivots")]
    TooManyPivots(u64),
    #[error("the dense tableau would need {bytes} bytes ({rows} rows); the limit is {limit}")]
    TooLarge { rows: usize, bytes: u64, limit: u64 },
    #[error("stopped")]
    Stopped,
}

/// Entries at most this are treated as zero in the ratio test.
const EPS: f64 = 1e-11;

/// Ratios closer than this (relative to 1 + their size) are ties: entries
/// that are 0 in exact arithmetic come out around 1e-16, and a tie missed
/// breaks the lexicographic rule (the inspection game then cycled).
const RATIO_TOLERANCE: f64 = 1e-10;

/// The largest tableau built.
pub const MAX_TABLEAU_BYTES: u64 = 2 << 30;

pub struct Tableau {
    n: usize,
    width: usize,
    t: Vec<f64>,
    /// The variable basic in each row: `0..n` for `w_i`, `n..2n` for `z_i`,
    /// `2n` for `z0`.
    basis: Vec<u32>,
    pub pivots: u64,
}

impl Tableau {
    /// The tableau of `q + M z` with `M` given by its nonzero entries.
    pub fn new(q: &[f64], m: &[(u32, u32, f64)]) -> Result<Tableau, LemkeError> {
        let n = q.len();
        let width = 2 * n + 2;
        let bytes = (n as u64) * (width as u64) * 8;
        if bytes > MAX_TABLEAU_BYTES {
            return Err(LemkeError::TooLarge { rows: n, bytes, limit: MAX_TABLEAU_BYTES });
        }
        let mut t = vec![0.0; n * width];
        for i in 0..n {
            let row = &mut t[i * width..(i + 1) * width];
            row[i] = 1.0;
            row[2 * n] = -1.0;
            row[2 * n + 1] = q[i];
        }
        for &(i, j, x) in m {
            t[i as usize * width + n + j as usize] -= x;
        }
        Ok(Tableau { n, width, t, basis: (0..n as u32).collect(), pivots: 0 })
    }

    fn at(&self, row: usize, col: usize) -> f64 {
        self.t[row * self.width + col]
    }

    /// Runs Lemke's algorithm: `z0` enters in row `first` (a row of most
    /// negative `q`), then complementary pivots until `z0` leaves.
    /// `keep_going` is asked every 64 pivots.
    pub fn solve(
        &mut self,
        first: usize,
        max_pivots: u64,
        keep_going: &mut dyn FnMut(u64) -> bool,
    ) -> Result<(), LemkeError> {
        let n = self.n;
        let z0 = 2 * n;
        let mut leaving = self.basis[first] as usize;
        self.pivot(first, z0);
        loop {
            // The complement of the variable that just left enters.
            let entering = if leaving < n { leaving + n } else { leaving - n };
            let Some(row) = self.ratio_test(entering) else {
                return Err(LemkeError::Ray(self.pivots));
            };
            leaving = self.basis[row] as usize;
            self.pivot(row, entering);
            if leaving == z0 {
                return Ok(());
            }
            if self.pivots >= max_pivots {
                return Err(LemkeError::TooManyPivots(self.pivots));
            }
            if self.pivots.is_multiple_of(64) && !keep_going(self.pivots) {
                return Err(LemkeError::Stopped);
            }
        }
    }

    /// The leaving row for column `col`: least ratio of right-hand side to
    /// the column's positive entries, ties broken lexicographically by the
    /// rows of the basis inverse (and in favour of `z0`, which ends the run).
    /// The basis inverse's columns are compared last to first: after `z0`
    /// enters at row `r`, a row `i` with `q_i = q_r` reads `(0, e_i - e_r)`,
    /// lexicographically positive in that order when `i > r` (Lemke's rule
    /// needs every row positive from the start).
    fn ratio_test(&self, col: usize) -> Option<usize> {
        let n = self.n;
        let rhs = 2 * n + 1;
        let mut rows: Vec<usize> = (0..n).filter(|&i| self.at(i, col) > EPS).collect();
        if rows.is_empty() {
            return None;
        }
        let mut key = rhs;
        let mut next_w = n;
        while rows.len() > 1 {
            let ratio = |i: usize| self.at(i, key) / self.at(i, col);
            let least = rows.iter().map(|&i| ratio(i)).fold(f64::INFINITY, f64::min);
            let tol = RATIO_TOLERANCE * (1.0 + least.abs());
            rows.retain(|&i| ratio(i) <= least + tol);
            if key == rhs {
                if let Some(&r) = rows.iter().find(|&&i| self.basis[i] as usize == 2 * n) {
                    return Some(r);
                }
            }
            if next_w == 0 {
                break;
            }
            next_w -= 1;
            key = next_w;
        }
        rows.first().copied()
    }

    /// Makes the variable of column `col` basic in `row`.
    fn pivot(&mut self, row: usize, col: usize) {
        let w = self.width;
        let (before, rest) = self.t.split_at_mut(row * w);
        let (prow, after) = rest.split_at_mut(w);
        let inv = 1.0 / prow[col];
        prow.iter_mut().for_each(|x| *x *= inv);
        prow[col] = 1.0;
        let nz: Vec<usize> = (0..w).filter(|&j| prow[j] != 0.0).collect();
        for other in before.chunks_exact_mut(w).chain(after.chunks_exact_mut(w)) {
            let f = other[col];
            if f == 0.0 {
                continue;
            }
            for &j in &nz {
                other[j] -= f * prow[j];
            }
            other[col] = 0.0;
        }
        self.basis[row] = col as u32;
        self.pivots += 1;
    }

    /// The value of `z_i` in the current basis for the right-hand side `q`
    /// (`B^{-1} q`, the basis inverse read from the `w` columns): the
    /// solution of the unperturbed problem after a perturbed run.
    pub fn z_for(&self, q: &[f64]) -> Vec<f64> {
        let n = self.n;
        let mut z = vec![0.0; n];
        for (row, &v) in self.basis.iter().enumerate() {
            let v = v as usize;
            if (n..2 * n).contains(&v) {
                let inv = &self.t[row * self.width..row * self.width + n];
                z[v - n] = inv.iter().zip(q).map(|(a, b)| a * b).sum();
            }
        }
        z
    }

    /// The value of `z_i` in the current basic solution.
    pub fn z(&self) -> Vec<f64> {
        let n = self.n;
        let mut z = vec![0.0; n];
        for (row, &v) in self.basis.iter().enumerate() {
            let v = v as usize;
            if (n..2 * n).contains(&v) {
                z[v - n] = self.at(row, 2 * n + 1);
            }
        }
        z
    }
}
