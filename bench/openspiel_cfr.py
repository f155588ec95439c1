#!/usr/bin/env python3
"""OpenSpiel side of bench/cfr_side_by_side.sh: iterations per second of the
C++ `pyspiel.CFRPlusSolver` (the solver is constructed before the clock
starts; only `evaluate_and_update_policy` is timed).

Output: one `RESULT <name> <iterations> <seconds> <it/s>` line per game.

Usage:
    python3 bench/openspiel_cfr.py leduc 200
    python3 bench/openspiel_cfr.py leduc13 3
    python3 bench/openspiel_cfr.py liars_dice 20
"""

import sys
import time

import pyspiel

GAMES = {
    "leduc": "leduc_poker",
    "leduc13": (
        "universal_poker(betting=limit,blind=1 1,firstPlayer=1 1,maxRaises=2 2,"
        "numBoardCards=0 1,numHoleCards=1,numPlayers=2,numRanks=13,numRounds=2,"
        "numSuits=2,raiseSize=2 4)"
    ),
    "liars_dice": "liars_dice",
}


def main():
    name, iterations = sys.argv[1], int(sys.argv[2])
    game = pyspiel.load_game(GAMES[name])
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - start
    print(f"RESULT {name} {iterations} {seconds:.4f} {iterations / seconds:.3f}")


if __name__ == "__main__":
    main()
