#!/usr/bin/env python3
"""Solve a two-player galac-exported .efg with Gambit's sequence-form LCP
(`pygambit.nash.lcp_solve`, floating point) and print the equilibrium found.

Usage: gambit_lcp.py GAME.efg

Prints, one per line:
    payoffs P1 P2
    regret R            (Gambit's own max_regret of the profile)
    seconds S
    infoset PLAYER K PROB...   (player 0 or 1, K-th information set of the
                                player in Gambit's order = galac's order)
Exit status 2 when the file cannot be solved.
"""

import sys
import time


def main():
    import pygambit as gbt

    game = gbt.read_efg(sys.argv[1])
    start = time.time()
    result = gbt.nash.lcp_solve(game, rational=False, use_strategic=False)
    seconds = time.time() - start
    eq = result.equilibrium if hasattr(result, "equilibrium") else result.equilibria[0]
    if eq is None:
        print("no equilibrium", file=sys.stderr)
        return 2
    print("payoffs", *(float(eq.payoffs[p]) for p in list(game.players)))
    print("regret", float(eq.max_regret()))
    print("seconds", seconds)
    # pygambit 17 names players by label; eq[player] lists the player's
    # sets in the file's numbering, each as (a history in the set,
    # (action label, probability) pairs in the order of the actions).
    for i, player in enumerate(game.players):
        for k, (_history, probs) in enumerate(eq[player]):
            print("infoset", i, k, *(repr(float(x)) for _, x in probs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
