"""BENCHMARKS.md, Python: OpenSpiel's CFR on Leduc through the bridge
against OpenSpiel's native leduc_poker (seconds an iteration, and the
bridge's cost per state transition), and `game.solve` from Python against
`galac solve` on the same game.

    .venv/bin/python bench/openspiel_bridge.py [path/to/galac]

Run with the installed wheel (README, "Python"), from the repository."""

import subprocess
import sys
import time

import pyspiel
from open_spiel.python.algorithms import cfr

import galac
import galac.openspiel as gos

LEDUC = "examples/leduc.gala"
ITERATIONS = 5


def per_iteration(make_solver, iterations):
    solver = make_solver()
    solver.evaluate_and_update_policy()  # the first builds its tables
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return (time.perf_counter() - start) / iterations


def transitions_per_iteration(bridged, make_solver):
    """States applied by one iteration of a CFR solver (counted on the
    bridge's states; the native game walks the same tree)."""
    count = [0]
    state_class = bridged._state_class
    apply = state_class._apply_action

    def counting(self, action):
        count[0] += 1
        apply(self, action)

    state_class._apply_action = counting
    solver = make_solver(bridged)
    solver.evaluate_and_update_policy()
    count[0] = 0
    solver.evaluate_and_update_policy()
    state_class._apply_action = apply
    return count[0]


def main():
    native = pyspiel.load_game("leduc_poker")
    bridged = gos.load_game(LEDUC)
    for name, make in [("python CFRSolver", cfr.CFRSolver), ("C++ pyspiel.CFRSolver", pyspiel.CFRSolver)]:
        n = transitions_per_iteration(gos.load_game(LEDUC), make)
        t_native = per_iteration(lambda: make(native), ITERATIONS)
        t_bridged = per_iteration(lambda: make(bridged), ITERATIONS)
        print(f"{name}: native {t_native:.3f} s/iteration, bridged {t_bridged:.3f} s/iteration, "
              f"ratio {t_bridged / t_native:.2f}; {n} transitions/iteration: "
              f"{(t_bridged - t_native) / n * 1e6:.1f} us more per transition")
    galac_bin = sys.argv[1] if len(sys.argv) > 1 else "galac"
    runs = [("lp", {}, []), ("cfr+", {"iterations": 1000}, ["--iterations", "1000"]), ("do", {}, [])]
    for solver, flags, cli in runs:
        start = time.perf_counter()
        sol = galac.load(LEDUC).solve(solver, **flags)
        t_py = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([galac_bin, "solve", LEDUC, "--solver", solver, "--format", "json", "-q", *cli],
                       check=True, stdout=subprocess.DEVNULL)
        t_cli = time.perf_counter() - start
        print(f"solve {solver} {flags}: Python load+tree+solve {t_py:.3f} s (its phases {sol.json['seconds']}), "
              f"galac solve {t_cli:.3f} s (a process)")


if __name__ == "__main__":
    main()
