#!/usr/bin/env python3
"""OpenSpiel side of the galac tree-generation comparison.

For each game, times the construction of `pyspiel.CFRSolver(game)`: the C++
constructor walks the whole game tree once (applying every action, asking
every decision node for its information-state string and legal actions) and
builds the tabular info-state table. The best of N runs is kept.

Nodes are counted with a Python walk over the full tree (decision, chance and
terminal nodes, as galac's `tree` counts them). The walk is slow (every step
crosses the Python/C++ boundary), so it has a time budget; past it the count is
abandoned and the known count of the tree is used, marked "(known)".

Output: one line per game, then a `RESULT` line per game that
run_side_by_side.sh parses:
    RESULT <name> <nodes> <best seconds> <nodes/s>

Usage:
    python3 bench/openspiel_tree.py                 # every game
    python3 bench/openspiel_tree.py --games leduc   # one game
    python3 bench/openspiel_tree.py --count-budget 0  # skip the Python walks
"""

import argparse
import gc
import importlib.metadata
import sys
import time

import pyspiel

LEDUC13 = (
    "universal_poker(betting=limit,blind=1 1,firstPlayer=1 1,maxRaises=2 2,"
    "numBoardCards=0 1,numHoleCards=1,numPlayers=2,numRanks=13,numRounds=2,"
    "numSuits=2,raiseSize=2 4)"
)

# name -> (game string, runs, known node count, count by Python walk by default)
GAMES = {
    "leduc": ("leduc_poker", 5, 9457, True),
    "leduc13": (LEDUC13, 3, 1179777, True),
    "liars_dice": ("liars_dice", 3, 294883, True),
}


class Budget(Exception):
    pass


def count_nodes(game, budget_s):
    """Counts every node of the tree (iterative DFS). Raises Budget when the
    walk takes longer than budget_s seconds."""
    start = time.perf_counter()
    deadline = start + budget_s
    stack = [game.new_initial_state()]
    nodes = 0
    while stack:
        state = stack.pop()
        nodes += 1
        if (nodes & 0xFFFF) == 0 and time.perf_counter() > deadline:
            raise Budget(nodes)
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        for a in actions:
            stack.append(state.child(a))
    return nodes, time.perf_counter() - start


def time_cfr_solver(game, runs):
    times = []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        solver = pyspiel.CFRSolver(game)
        t1 = time.perf_counter()
        del solver
        times.append(t1 - t0)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    ap.add_argument("--runs", type=int, default=None,
                    help="runs per game (default: 5 for leduc, 3 for the others)")
    ap.add_argument("--count-budget", type=float, default=120.0,
                    help="seconds allowed for each Python node-count walk "
                         "(0 skips the walks; default 120)")
    args = ap.parse_args()

    print(f"open_spiel {importlib.metadata.version('open_spiel')}, "
          f"Python {sys.version.split()[0]}")
    for name in args.games:
        game_string, runs, known, walk = GAMES[name]
        runs = args.runs or runs
        game = pyspiel.load_game(game_string)
        print(f"\n== {name}: {game}")

        counted = None
        if walk and args.count_budget > 0:
            try:
                counted, walk_s = count_nodes(game, args.count_budget)
                ok = "matches" if counted == known else f"DIFFERS from {known}"
                print(f"python walk: {counted} nodes in {walk_s:.2f} s "
                      f"({counted / walk_s:,.0f} nodes/s), {ok} the expected count")
            except Budget as b:
                print(f"python walk: stopped after {args.count_budget:.0f} s "
                      f"({b.args[0]} nodes so far); using the known count")
        nodes = counted if counted is not None else known
        tag = "" if counted is not None else " (known)"

        times = time_cfr_solver(game, runs)
        best = min(times)
        print("CFRSolver(game) runs: " + ", ".join(f"{t:.4f}" for t in times) + " s")
        print(f"nodes: {nodes}{tag}  seconds (best of {runs}): {best:.6f}  "
              f"nodes/s: {nodes / best:,.0f}")
        print(f"RESULT {name} {nodes} {best:.6f} {nodes / best:.0f}")
        del game
        gc.collect()


if __name__ == "__main__":
    main()
