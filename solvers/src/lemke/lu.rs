//! A sparse LU factorization of a square matrix given by its columns, for
//! the revised Lemke method ([`super::revised`]): left-looking elimination
//! (Gilbert & Peierls) with threshold partial pivoting, the sparsest
//! columns first and, among acceptable pivots, the row with the fewest
//! entries (a cheap Markowitz rule). Sequence-form bases are mostly unit
//! columns and tree-shaped blocks, so the factors stay close to the
//! basis's own sparsity.

/// A pivot below this, relative to the largest entry of its column, is
/// refused when a larger one is available.
const THRESHOLD: f64 = 0.1;

/// Entries of a computed column smaller than this are dropped.
const DROP: f64 = 1e-14;

/// `B = L U` up to row and column permutations: step `t` eliminates column
/// `col[t]` of `B` with pivot row `row[t]`.
pub struct Lu {
    /// Rows and columns.
    n: usize,
    /// Pivot row of each step.
    row: Vec<u32>,
    /// Column of `B` eliminated at each step.
    col: Vec<u32>,
    /// `L`'s multipliers of each step: (row, value), rows not yet pivoted.
    l_start: Vec<u32>,
    l: Vec<(u32, f64)>,
    /// `U`'s column of each step: (earlier step, value); and its diagonal.
    u_start: Vec<u32>,
    u: Vec<(u32, f64)>,
    diag: Vec<f64>,
}

/// The basis is singular (up to rounding): no usable pivot in a column.
#[derive(Debug)]
pub struct Singular;

impl Lu {
    /// Factors the `n x n` matrix whose column `k` is `column(k)` (sparse
    /// (row, value) entries, rows distinct).
    pub fn new<'a>(n: usize, column: impl Fn(usize) -> &'a [(u32, f64)]) -> Result<Lu, Singular> {
        let mut row_count = vec![0u32; n];
        for k in 0..n {
            column(k).iter().for_each(|&(i, _)| row_count[i as usize] += 1);
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&k| column(k as usize).len());
        let mut lu = Lu {
            n,
            row: Vec::with_capacity(n),
            col: order.clone(),
            l_start: vec![0],
            l: Vec::new(),
            u_start: vec![0],
            u: Vec::new(),
            diag: Vec::with_capacity(n),
        };
        // `step_of[i]`: the step that pivoted row `i`, or `u32::MAX`.
        let mut step_of = vec![u32::MAX; n];
        let mut work = vec![0.0f64; n];
        let mut touched: Vec<u32> = Vec::new();
        let mut mark = vec![false; n];
        let mut pending: Vec<u32> = Vec::new();
        for &k in &order {
            for &(i, v) in column(k as usize) {
                work[i as usize] = v;
                if !mark[i as usize] {
                    mark[i as usize] = true;
                    touched.push(i);
                }
            }
            // Apply the earlier steps in order; a step matters only where
            // its pivot row holds a nonzero, found by scanning the touched
            // pivoted rows in step order.
            pending.clear();
            pending.extend(touched.iter().filter(|&&i| step_of[i as usize] != u32::MAX).map(|&i| step_of[i as usize]));
            pending.sort_unstable();
            let mut next = 0;
            while next < pending.len() {
                let s = pending[next] as usize;
                next += 1;
                let x = work[lu.row[s] as usize];
                if x == 0.0 {
                    continue;
                }
                for &(i, m) in &lu.l[lu.l_start[s] as usize..lu.l_start[s + 1] as usize] {
                    let i = i as usize;
                    work[i] -= m * x;
                    if !mark[i] {
                        mark[i] = true;
                        touched.push(i as u32);
                        if step_of[i] != u32::MAX {
                            // A later pivoted row filled in: keep `pending` sorted.
                            let t = step_of[i];
                            let at = pending[next..].partition_point(|&p| p < t) + next;
                            pending.insert(at, t);
                        }
                    }
                }
            }
            let largest = touched
                .iter()
                .filter(|&&i| step_of[i as usize] == u32::MAX)
                .map(|&i| work[i as usize].abs())
                .fold(0.0, f64::max);
            if largest <= DROP {
                return Err(Singular);
            }
            let pivot = touched
                .iter()
                .copied()
                .filter(|&i| step_of[i as usize] == u32::MAX && work[i as usize].abs() >= THRESHOLD * largest)
                .min_by_key(|&i| (row_count[i as usize], i))
                .expect("the largest entry qualifies");
            let t = lu.row.len() as u32;
            let d = work[pivot as usize];
            for &i in &touched {
                let (iu, x) = (i as usize, work[i as usize]);
                if iu != pivot as usize && x.abs() > DROP {
                    if step_of[iu] != u32::MAX {
                        lu.u.push((step_of[iu], x));
                    } else {
                        lu.l.push((i, x / d));
                    }
                }
                work[iu] = 0.0;
                mark[iu] = false;
            }
            touched.clear();
            step_of[pivot as usize] = t;
            lu.row.push(pivot);
            lu.diag.push(d);
            lu.l_start.push(lu.l.len() as u32);
            lu.u_start.push(lu.u.len() as u32);
        }
        Ok(lu)
    }

    /// Solves `B x = a` in place: `a` (dense, by row) becomes `x` (by column).
    pub fn solve(&self, a: &mut [f64], scratch: &mut [f64]) {
        for s in 0..self.n {
            let x = a[self.row[s] as usize];
            if x != 0.0 {
                for &(i, m) in &self.l[self.l_start[s] as usize..self.l_start[s + 1] as usize] {
                    a[i as usize] -= m * x;
                }
            }
        }
        for t in (0..self.n).rev() {
            let x = a[self.row[t] as usize] / self.diag[t];
            scratch[self.col[t] as usize] = x;
            if x != 0.0 {
                for &(s, u) in &self.u[self.u_start[t] as usize..self.u_start[t + 1] as usize] {
                    a[self.row[s as usize] as usize] -= u * x;
                }
            }
        }
        a.copy_from_slice(scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of numbers in [0, 1).
    fn rng(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Solving with the factors gives `x` with `B x = a`, checked by
    /// multiplying out, on sparse matrices that are column-diagonally
    /// dominant after a row permutation (so regular) but need pivoting.
    #[test]
    fn solves_are_exact_up_to_rounding() {
        for seed in 0..20 {
            let mut r = rng(seed);
            let n = 5 + (r() * 80.0) as usize;
            let mut perm: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                perm.swap(i, (r() * (i + 1) as f64) as usize);
            }
            let cols: Vec<Vec<(u32, f64)>> = (0..n)
                .map(|k| {
                    let mut c = vec![(perm[k], 4.0 + r())];
                    for _ in 0..3 {
                        let i = (r() * n as f64) as u32;
                        if c.iter().all(|e| e.0 != i) {
                            c.push((i, 2.0 * r() - 1.0));
                        }
                    }
                    c
                })
                .collect();
            let lu = Lu::new(n, |k| &cols[k]).expect("regular");
            let a: Vec<f64> = (0..n).map(|_| 2.0 * r() - 1.0).collect();
            let mut x = a.clone();
            lu.solve(&mut x, &mut vec![0.0; n]);
            let mut bx = vec![0.0; n];
            for (k, c) in cols.iter().enumerate() {
                for &(i, v) in c {
                    bx[i as usize] += v * x[k];
                }
            }
            for i in 0..n {
                assert!((bx[i] - a[i]).abs() < 1e-12, "seed {seed} row {i}: {} vs {}", bx[i], a[i]);
            }
        }
    }

    #[test]
    fn a_singular_matrix_is_refused() {
        let cols = [vec![(0, 1.0), (1, 2.0)], vec![(0, 2.0), (1, 4.0)]];
        assert!(Lu::new(2, |k| &cols[k]).is_err());
    }
}
