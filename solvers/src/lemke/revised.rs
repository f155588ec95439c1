//! Lemke's complementary pivoting in the revised form: the system
//! `w - M z - d z0 = q` is never held as a tableau; the basis is kept as a
//! sparse LU factorization ([`super::lu`]) followed by the eta vectors of
//! the pivots since (product form), refactorized every [`REFACTOR`] pivots.
//! A pivot then costs one solve with the basis (the entering column) and
//! `O(n)` vector work, instead of a sweep over a dense `n x 2n` tableau
//! (BENCHMARKS.md, Lemke; the comparison in docs/perf/lemke.md).
//!
//! The complement of the leaving variable enters, so no pricing is needed;
//! the ratio test reads the right-hand side `B^{-1} q`, kept up to date and
//! recomputed at each refactorization. Without the dense tableau's basis
//! inverse there is no lexicographic rule: the caller's perturbed `q`
//! makes ties improbable, and a near tie goes to the larger pivot.

use super::lu::Lu;

/// Why the pivoting stopped without a solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LemkeError {
    #[error("Lemke's algorithm ended on a ray after {0} pivots (no entry of the entering column is positive)")]
    Ray(u64),
    #[error("Lemke's algorithm did not finish within {0} pivots")]
    TooManyPivots(u64),
    #[error("the basis became singular after {0} pivots (rounding)")]
    Singular(u64),
    #[error("stopped")]
    Stopped,
}

/// Pivots between two factorizations.
const REFACTOR: u64 = 100;

/// Entries of the entering column at most this (relative to its largest)
/// are not pivots.
const PIVOT_TOLERANCE: f64 = 1e-9;

/// Ratios this close (relative to 1 + their size) are a tie.
const RATIO_TOLERANCE: f64 = 1e-12;

/// Lemke's algorithm on a factored basis.
pub struct Revised {
    /// Rows: the LCP's size.
    n: usize,
    /// Column of every variable in `w - M z - d z0`: `w_i` (`e_i`), `z_j`
    /// (`-M_j`), `z0` (`-d`); sparse (row, value).
    cols: Vec<Vec<(u32, f64)>>,
    /// The variable basic at each position.
    basis: Vec<u32>,
    /// The right-hand side `q` the run follows (perturbed).
    q: Vec<f64>,
    /// `B^{-1} q`: the values of the basic variables.
    rhs: Vec<f64>,
    lu: Lu,
    /// Pivots since the factorization, flat: position and pivot of each,
    /// and its column `B^{-1} a` without the pivot (`eta[eta_start[k]..]`).
    eta_at: Vec<(u32, f64)>,
    eta_start: Vec<u32>,
    eta: Vec<(u32, f64)>,
    /// Work space of the solves.
    scratch: Vec<f64>,
    /// Pivots made, the first (`z0` entering) included.
    pub pivots: u64,
}

impl Revised {
    /// The system of `q + M z` with `M` given by its nonzero entries and
    /// covering vector `d`.
    pub fn new(q: &[f64], m: &[(u32, u32, f64)], d: &[f64]) -> Revised {
        let n = q.len();
        let mut cols: Vec<Vec<(u32, f64)>> = (0..n as u32).map(|i| vec![(i, 1.0)]).collect();
        cols.extend((0..n).map(|_| Vec::new()));
        for &(i, j, x) in m {
            cols[n + j as usize].push((i, -x));
        }
        for c in &mut cols[n..] {
            c.sort_by_key(|e| e.0);
            c.dedup_by(|b, a| {
                let same = a.0 == b.0;
                if same {
                    a.1 += b.1;
                }
                same
            });
            c.retain(|e| e.1 != 0.0);
        }
        cols.push(d.iter().enumerate().filter(|e| *e.1 != 0.0).map(|(i, &x)| (i as u32, -x)).collect());
        let basis: Vec<u32> = (0..n as u32).collect();
        let lu = Lu::new(n, |k| &cols[k]).expect("the identity is regular");
        Revised {
            n,
            cols,
            basis,
            q: q.to_vec(),
            rhs: q.to_vec(),
            lu,
            eta_at: Vec::new(),
            eta_start: vec![0],
            eta: Vec::new(),
            scratch: vec![0.0; n],
            pivots: 0,
        }
    }

    /// Solves `B x = a` for the current basis, `a` dense by row.
    fn ftran(&mut self, a: &mut [f64]) {
        self.lu.solve(a, &mut self.scratch);
        for (k, &(r, p)) in self.eta_at.iter().enumerate() {
            let x = a[r as usize] / p;
            if x != 0.0 {
                for &(i, v) in &self.eta[self.eta_start[k] as usize..self.eta_start[k + 1] as usize] {
                    a[i as usize] -= v * x;
                }
            }
            a[r as usize] = x;
        }
    }

    /// Factors the current basis again and recomputes the right-hand side.
    fn refactor(&mut self) -> Result<(), LemkeError> {
        let cols = &self.cols;
        let basis = &self.basis;
        self.lu = Lu::new(self.n, |k| &cols[basis[k] as usize]).map_err(|_| LemkeError::Singular(self.pivots))?;
        self.eta_at.clear();
        self.eta_start.truncate(1);
        self.eta.clear();
        let mut rhs = self.q.clone();
        self.ftran(&mut rhs);
        self.rhs = rhs;
        Ok(())
    }

    /// `B^{-1}` times the column of variable `v`.
    fn column(&mut self, v: usize, out: &mut Vec<f64>) {
        out.clear();
        out.resize(self.n, 0.0);
        for &(i, x) in &self.cols[v] {
            out[i as usize] = x;
        }
        self.ftran(out);
    }

    /// Makes variable `v`, whose column through the basis is `alpha`, basic
    /// at position `r`.
    fn pivot(&mut self, r: usize, v: usize, alpha: &[f64]) -> Result<(), LemkeError> {
        let p = alpha[r];
        let theta = self.rhs[r] / p;
        for (i, &a) in alpha.iter().enumerate() {
            if i != r && a != 0.0 {
                self.eta.push((i as u32, a));
                self.rhs[i] -= a * theta;
            }
        }
        self.rhs[r] = theta;
        self.eta_at.push((r as u32, p));
        self.eta_start.push(self.eta.len() as u32);
        self.basis[r] = v as u32;
        self.pivots += 1;
        if self.pivots.is_multiple_of(REFACTOR) {
            self.refactor()?;
        }
        Ok(())
    }

    /// The leaving position for an entering column `alpha`: least ratio of
    /// value to positive entry; a tie goes to `z0` (which ends the run),
    /// else to the larger entry.
    fn ratio_test(&self, alpha: &[f64]) -> Option<usize> {
        let z0 = 2 * self.n as u32;
        let biggest = alpha.iter().fold(0.0f64, |m, a| m.max(*a));
        let tol = PIVOT_TOLERANCE * biggest.max(1.0);
        let ratio = |i: usize| self.rhs[i].max(0.0) / alpha[i];
        let least = (0..self.n).filter(|&i| alpha[i] > tol).map(ratio).fold(f64::INFINITY, f64::min);
        if least == f64::INFINITY {
            return None;
        }
        let tie = least + RATIO_TOLERANCE * (1.0 + least.abs());
        (0..self.n)
            .filter(|&i| alpha[i] > tol && ratio(i) <= tie)
            .max_by(|&a, &b| (self.basis[a] == z0).cmp(&(self.basis[b] == z0)).then(alpha[a].total_cmp(&alpha[b])))
    }

    /// Runs Lemke's algorithm: `z0` enters at position `first` (of least
    /// `q_i / d_i`), then complementary pivots until `z0` leaves.
    /// `keep_going` is asked every 64 pivots.
    pub fn solve(
        &mut self,
        first: usize,
        max_pivots: u64,
        keep_going: &mut dyn FnMut(u64) -> bool,
    ) -> Result<(), LemkeError> {
        let n = self.n;
        let z0 = 2 * n;
        let mut alpha = Vec::new();
        self.column(z0, &mut alpha);
        let mut leaving = self.basis[first] as usize;
        self.pivot(first, z0, &alpha)?;
        loop {
            let entering = if leaving < n { leaving + n } else { leaving - n };
            self.column(entering, &mut alpha);
            let Some(r) = self.ratio_test(&alpha) else {
                return Err(LemkeError::Ray(self.pivots));
            };
            leaving = self.basis[r] as usize;
            self.pivot(r, entering, &alpha)?;
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

    /// The value of `z_i` in the final basis for the right-hand side `q`
    /// (the unperturbed problem after a perturbed run), from a fresh
    /// factorization.
    pub fn z_for(&mut self, q: &[f64]) -> Result<Vec<f64>, LemkeError> {
        self.refactor()?;
        let mut x = q.to_vec();
        self.ftran(&mut x);
        let n = self.n;
        let mut z = vec![0.0; n];
        for (k, &v) in self.basis.iter().enumerate() {
            let v = v as usize;
            if (n..2 * n).contains(&v) {
                z[v - n] = x[k];
            }
        }
        Ok(z)
    }
}
