"""Solves an LP written by `lpsolve --write-lp` (the first player's
sequence-form LP, exactly as galac passes it to HiGHS) with scipy's HiGHS
(`scipy.optimize.linprog`, method "highs", sparse matrices), and prints
one line: file, columns, rows, nonzeros, wall and CPU seconds of linprog,
and the value (the objective divided by the payoff scale).

Usage: python3 bench/lp_scipy.py FILE.lp.txt [METHOD]  (default highs)
"""

import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog


def read(path):
    with open(path) as f:
        n_cols, n_rows, nnz, scale = f.readline().split()
        n_cols, n_rows, nnz, scale = int(n_cols), int(n_rows), int(nnz), float(scale)
        arrays = [np.array(f.readline().split(), dtype=float) for _ in range(5)]
        start = np.array(f.readline().split(), dtype=np.int64)
        index = np.array(f.readline().split(), dtype=np.int64)
        value = np.array(f.readline().split(), dtype=float)
    assert len(start) == n_cols + 1 and len(index) == len(value) == nnz
    cost, col_lo, col_hi, row_lo, row_hi = arrays
    a = sp.csc_matrix((value, index, start), shape=(n_rows, n_cols)).tocsr()
    return cost, col_lo, col_hi, row_lo, row_hi, a, scale


def main():
    path = sys.argv[1]
    method = sys.argv[2] if len(sys.argv) > 2 else "highs"
    cost, col_lo, col_hi, row_lo, row_hi, a, scale = read(path)
    eq = row_lo == row_hi
    ub = ~eq
    # Every inequality row of galac's LP is `-inf <= a x <= upper`.
    assert np.all(np.isneginf(row_lo[ub]))
    bounds = np.column_stack([np.where(np.isinf(col_lo), None, col_lo), np.where(np.isinf(col_hi), None, col_hi)])
    wall, cpu = time.perf_counter(), time.process_time()
    # galac maximises; linprog minimises.
    res = linprog(
        -cost, A_ub=a[ub], b_ub=row_hi[ub], A_eq=a[eq], b_eq=row_hi[eq], bounds=bounds, method=method
    )
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    value = -res.fun / scale if res.status == 0 else float("nan")
    print(f"{path} {a.shape[1]} {a.shape[0]} {a.nnz} {method} wall {wall:.3f} cpu {cpu:.3f} value {value:.12f} status {res.status}")


if __name__ == "__main__":
    main()
