#!/usr/bin/env python3
"""Solve a two-player constant-sum galac-exported .efg with Gambit's
sequence-form LP in rational arithmetic (`pygambit.nash.lp_solve`,
rational=True) and print the equilibrium found, exactly.

Usage: gambit_exact.py GAME.efg

Prints, one per line:
    payoffs P1 P2               (fractions, as `-1/18`)
    infoset PLAYER K PROB...    (player 0 or 1, K-th information set of the
                                 player in Gambit's order = galac's order;
                                 fractions)
Exit status 2 when the file cannot be solved.
"""

import sys


def main():
    import pygambit as gbt

    game = gbt.read_efg(sys.argv[1])
    result = gbt.nash.lp_solve(game, rational=True, use_strategic=False)
    eq = result.equilibrium if hasattr(result, "equilibrium") else result.equilibria[0]
    if eq is None:
        print("no equilibrium", file=sys.stderr)
        return 2
    print("payoffs", *(str(eq.payoffs[p]) for p in list(game.players)))
    for i, player in enumerate(game.players):
        for k, (_history, probs) in enumerate(eq[player]):
            print("infoset", i, k, *(str(x) for _, x in probs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
