//! Sparse linear systems over the rationals, solved exactly by Gaussian
//! elimination. The exact equilibrium of [`crate::support`] is such a
//! system: a few thousand unknowns with a handful of nonzeros per row, so
//! rows are kept sparse and the pivot is chosen to keep them so (the row
//! with the fewest nonzeros, in it the column in the fewest rows: the
//! Markowitz rule, approximately).

use num_traits::Zero;

use crate::rounding::Q;

/// One equation: `sum coef * x[col] = rhs`, columns increasing.
#[derive(Clone, Debug, Default)]
struct Row {
    coefs: Vec<(u32, Q)>,
    rhs: Q,
}

impl Row {
    /// `self - factor * other`, dropping the entries that cancel.
    fn subtract(&self, factor: &Q, other: &Row) -> Row {
        let mut coefs = Vec::with_capacity(self.coefs.len() + other.coefs.len());
        let (mut i, mut j) = (0, 0);
        while i < self.coefs.len() || j < other.coefs.len() {
            let a = self.coefs.get(i).map_or(u32::MAX, |e| e.0);
            let b = other.coefs.get(j).map_or(u32::MAX, |e| e.0);
            if a < b {
                coefs.push(self.coefs[i].clone());
                i += 1;
            } else if b < a {
                coefs.push((b, -(factor * &other.coefs[j].1)));
                j += 1;
            } else {
                let x = &self.coefs[i].1 - factor * &other.coefs[j].1;
                if !x.is_zero() {
                    coefs.push((a, x));
                }
                i += 1;
                j += 1;
            }
        }
        Row { coefs, rhs: &self.rhs - factor * &other.rhs }
    }

    fn coef(&self, col: u32) -> Option<&Q> {
        self.coefs.binary_search_by_key(&col, |e| e.0).ok().map(|k| &self.coefs[k].1)
    }
}

/// A system of equations being written.
#[derive(Clone, Debug)]
pub struct System {
    n_cols: usize,
    rows: Vec<Row>,
}

/// The system after elimination: each pivot row solves for its pivot
/// column in terms of later pivots and the free columns.
#[derive(Clone, Debug)]
pub struct Echelon {
    n_cols: usize,
    /// In elimination order: (pivot column, its row).
    pivots: Vec<(u32, Row)>,
    /// Columns no row determines: any value solves the system.
    pub free: Vec<u32>,
}

impl System {
    pub fn new(n_cols: usize) -> System {
        System { n_cols, rows: Vec::new() }
    }

    /// Adds `sum coef * x[col] = rhs` (repeated columns are summed).
    pub fn add(&mut self, mut coefs: Vec<(u32, Q)>, rhs: Q) {
        coefs.sort_by_key(|e| e.0);
        let mut merged: Vec<(u32, Q)> = Vec::with_capacity(coefs.len());
        for (c, x) in coefs {
            match merged.last_mut() {
                Some((last, sum)) if *last == c => *sum += x,
                _ => merged.push((c, x)),
            }
        }
        merged.retain(|e| !e.1.is_zero());
        self.rows.push(Row { coefs: merged, rhs });
    }

    /// Gaussian elimination; `None` when the equations contradict each
    /// other. Columns for which `prefer` holds are taken as pivots first
    /// (so that the free columns are the others, whose values the caller
    /// knows approximately).
    pub fn eliminate(self, prefer: impl Fn(u32) -> bool) -> Option<Echelon> {
        let n_cols = self.n_cols;
        let mut rows: Vec<Option<Row>> = self.rows.into_iter().map(Some).collect();
        // Per column: the active rows holding it (a superset: entries that
        // cancelled are removed lazily).
        let mut in_rows: Vec<Vec<u32>> = vec![Vec::new(); n_cols];
        for (r, row) in rows.iter().enumerate() {
            for (c, _) in &row.as_ref()?.coefs {
                in_rows[*c as usize].push(r as u32);
            }
        }
        let mut pivots = Vec::new();
        let mut pivoted = vec![false; n_cols];
        loop {
            // The active row with the fewest nonzeros; empty rows must say 0 = 0.
            let mut best: Option<(usize, usize)> = None;
            for (r, row) in rows.iter().enumerate() {
                let Some(row) = row else { continue };
                if row.coefs.is_empty() {
                    if !row.rhs.is_zero() {
                        return None;
                    }
                    continue;
                }
                if best.is_none_or(|(_, n)| row.coefs.len() < n) {
                    best = Some((r, row.coefs.len()));
                }
            }
            let Some((r, _)) = best else { break };
            let row = rows[r].take()?;
            let col = row
                .coefs
                .iter()
                .map(|e| e.0)
                .min_by_key(|&c| (!prefer(c), in_rows[c as usize].len()))
                .expect("the row is not empty");
            let pivot = row.coef(col).expect("the pivot is in its row").clone();
            for other in std::mem::take(&mut in_rows[col as usize]) {
                let Some(target) = rows[other as usize].as_ref() else { continue };
                let Some(x) = target.coef(col) else { continue };
                let updated = target.subtract(&(x / &pivot), &row);
                for (c, _) in &updated.coefs {
                    if target.coef(*c).is_none() {
                        in_rows[*c as usize].push(other);
                    }
                }
                rows[other as usize] = Some(updated);
            }
            pivoted[col as usize] = true;
            pivots.push((col, row));
        }
        let free = (0..n_cols as u32).filter(|&c| !pivoted[c as usize]).collect();
        Some(Echelon { n_cols, pivots, free })
    }
}

impl Echelon {
    /// The solution with each free column set by `free_value`, found by
    /// back substitution (a pivot row holds only later pivots and free
    /// columns).
    pub fn solve(&self, free_value: impl Fn(u32) -> Q) -> Vec<Q> {
        let mut x = vec![Q::zero(); self.n_cols];
        for &c in &self.free {
            x[c as usize] = free_value(c);
        }
        for (col, row) in self.pivots.iter().rev() {
            let mut rest = row.rhs.clone();
            let mut pivot = Q::zero();
            for (c, a) in &row.coefs {
                if c == col {
                    pivot = a.clone();
                } else if !x[*c as usize].is_zero() {
                    rest -= a * &x[*c as usize];
                }
            }
            x[*col as usize] = rest / pivot;
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    #[test]
    fn a_square_system_has_its_one_solution() {
        // 2x + y = 3, x - 3y = -2, checked by substitution below.
        let mut s = System::new(2);
        s.add(vec![(0, q(2, 1)), (1, q(1, 1))], q(3, 1));
        s.add(vec![(0, q(1, 1)), (1, q(-3, 1))], q(-2, 1));
        let e = s.eliminate(|_| false).expect("consistent");
        assert!(e.free.is_empty());
        let x = e.solve(|_| unreachable!("no free column"));
        assert_eq!(&x[0] * q(2, 1) + &x[1], q(3, 1));
        assert_eq!(&x[0] - &x[1] * q(3, 1), q(-2, 1));
        assert_eq!(x, vec![q(1, 1), q(1, 1)]);
    }

    #[test]
    fn contradictions_are_refused_and_free_columns_are_reported() {
        let mut s = System::new(2);
        s.add(vec![(0, q(1, 1)), (1, q(1, 1))], q(1, 1));
        s.add(vec![(0, q(2, 1)), (1, q(2, 1))], q(3, 1));
        assert!(s.eliminate(|_| false).is_none());
        // x + y = 1 with y preferred as the pivot: x is free.
        let mut s = System::new(2);
        s.add(vec![(0, q(1, 1)), (1, q(1, 1))], q(1, 1));
        let e = s.eliminate(|c| c == 1).expect("consistent");
        assert_eq!(e.free, vec![0]);
        assert_eq!(e.solve(|_| q(1, 3)), vec![q(1, 3), q(2, 3)]);
    }
}
