#!/usr/bin/env python3
"""Load a galac-exported .efg file with pygambit and compare it with galac.

Usage:
    gambit_check.py GAME.efg [--nodes N] [--terminals N] [--chance N]
                    [--decisions A,B,...] [--infosets A,B,...]
                    [--solve] [--solver gambit|sequence-lp] [--value V] [--tol T]

Reads the file with Gambit's own parser, counts nodes, leaves, chance nodes,
decision nodes and information sets per player, and compares each count that
was given. With --solve (implied by --value), on a two-player constant-sum
game (other games are only counted), computes the first player's
equilibrium payoff and prints it; with --value, it must be within --tol of V.
The solver is `pygambit.nash.lp_solve` (floating point) by default; it takes
more than 20 minutes on Leduc poker, so `--solver sequence-lp` instead builds
the sequence-form LP from the tree as Gambit read it and solves it with SciPy
(a pygambit dependency) in about a second.

Works with pygambit 17, which names players, nodes (by the action labels
from the root) and outcomes by label, and with pygambit 16's objects.

Prints one JSON object with everything found on stdout. Exit status: 0 when
every given expectation holds, 1 on a mismatch, 2 when the file cannot be
loaded or the call is wrong.
"""

import argparse
import json
import sys
import time


def load(path):
    import pygambit as gbt

    if hasattr(gbt, "read_efg"):  # pygambit >= 16.1
        return gbt.read_efg(path)
    return gbt.Game.read_game(path)  # older releases


CHANCE = object()  # `Info.player` at a chance node


class Info:
    """What the checks need to know about one node: `player` (None at a leaf,
    CHANCE at a chance node, else the player's label), `infoset` (a key equal
    for exactly the nodes of one information set of that player), `children`,
    `probs` (the chance probabilities, in the order of `children`) and
    `payoffs` (player label -> payoff of the outcome at the node, {} if none)."""

    __slots__ = ("player", "infoset", "children", "probs", "payoffs")

    def __init__(self, player, infoset, children, probs, payoffs):
        self.player, self.infoset, self.children = player, infoset, children
        self.probs, self.payoffs = probs, payoffs


class Tree:
    """The game tree through pygambit >= 17, which names everything by label:
    players are labels, and a node is the tuple of action labels leading to it
    from the root (`H.path(*labels)`); outcomes are found by label, which the
    reader makes unique (`_1`, `_2`, ... for unlabelled ones)."""

    def __init__(self, game):
        import pygambit as gbt

        self.game, self.H = game, gbt.H
        self.players = list(game.players)
        outcomes = game.get_outcomes()
        if len(set(outcomes)) != len(outcomes):
            raise ValueError("outcome labels are not unique, so pygambit cannot tell the outcomes apart")
        self.outcome_count = len(outcomes)
        self.outcome_payoffs = {}  # outcome label -> {player label: payoff}
        # Each decision node's information set, as (player label, its place in
        # get_infosets): asking get_members at every node costs seconds on Leduc.
        self.infoset_of = {}
        self.infosets = []
        for p in self.players:
            infosets = game.get_infosets(p)
            self.infosets.append(len(infosets))
            for i, canonical in enumerate(infosets):
                for member in game.get_members(self.H.path(*canonical.actions)):
                    self.infoset_of[member.actions] = (p, i)

    def infoset_counts(self):
        return list(self.infosets)

    def root(self):
        return ()

    def info(self, node):
        game, at = self.game, self.H.path(*node)
        payoffs = {}
        outcome = game.get_outcome(at)
        if outcome is not None:
            if outcome not in self.outcome_payoffs:
                vector = game.get_outcome_payoffs(outcome)
                self.outcome_payoffs[outcome] = {p: float(vector[p]) for p in self.players}
            payoffs = self.outcome_payoffs[outcome]
        actions = game.get_actions(at)
        if not actions:
            return Info(None, None, [], [], payoffs)
        if len(set(actions)) != len(actions):
            raise ValueError(f"node {node}: repeated action labels {actions}")
        children = [node + (a,) for a in actions]
        probs = game.get_action_probs(at)
        if probs:
            return Info(CHANCE, None, children, [float(probs[a]) for a in actions], payoffs)
        player, infoset = game.get_player(at), self.infoset_of.get(node)
        if infoset is None or infoset[0] != player:
            raise ValueError(f"node {node} of player {player} is in no information set of that player")
        return Info(player, infoset, children, [], payoffs)


class TreeV16:
    """The same through pygambit 16's node, player and outcome objects."""

    def __init__(self, game):
        self.game = game
        self.player_objects = list(game.players)
        self.players = [p.label for p in self.player_objects]
        self.outcome_count = len(list(game.outcomes))

    def infoset_counts(self):
        return [len(list(p.infosets)) for p in self.player_objects]

    def root(self):
        return self.game.root

    def info(self, node):
        payoffs = {}
        outcome = node.outcome
        if outcome is not None:  # None with no outcome before 16.7
            try:
                payoffs = {p.label: float(outcome[p]) for p in self.player_objects}
            except KeyError:  # pygambit 16.7: "node has no outcome attached"
                payoffs = {}
        if node.is_terminal:
            return Info(None, None, [], [], payoffs)
        children = list(node.children)
        if node.player.is_chance:
            return Info(CHANCE, None, children, [float(a.prob) for a in node.infoset.actions], payoffs)
        return Info(node.player.label, node.infoset.number, children, [], payoffs)


def tree(game):
    return Tree(game) if hasattr(game, "get_histories") else TreeV16(game)


def counts(game, t):
    """Walks the tree `t` of `game` from the root (without recursion) and counts."""
    index = {p: i for i, p in enumerate(t.players)}
    found = {
        "players": list(t.players),
        "nodes": 0,
        "terminals": 0,
        "chance": 0,
        "decisions": [0] * len(t.players),
        "infosets": t.infoset_counts(),
        "outcomes": t.outcome_count,
        "perfect_recall": bool(game.is_perfect_recall),
        "constant_sum": bool(game.is_const_sum),
    }
    stack = [t.root()]
    while stack:
        node = t.info(stack.pop())
        found["nodes"] += 1
        if node.player is None:
            found["terminals"] += 1
        elif node.player is CHANCE:
            found["chance"] += 1
        else:
            found["decisions"][index[node.player]] += 1
        stack.extend(node.children)
    return found


def solve(game, t, solver):
    """The first player's payoff in an equilibrium, and the seconds taken."""
    start = time.monotonic()
    if solver == "gambit":
        value = gambit_lp_value(game)
    else:
        value = sequence_form_value(t)
    return value, time.monotonic() - start


def gambit_lp_value(game):
    """Gambit's own sequence-form LP (`pygambit.nash.lp_solve`, floating point)."""
    import pygambit as gbt

    result = gbt.nash.lp_solve(game, rational=False, use_strategic=False)
    if hasattr(result, "equilibrium"):  # pygambit >= 17: exactly one, or None
        profile = result.equilibrium
    else:
        profile = result.equilibria[0] if result.equilibria else None
    if profile is None:
        raise RuntimeError("lp_solve found no equilibrium")
    first = list(game.players)[0]
    if hasattr(profile, "payoffs"):  # pygambit >= 17: a vector indexed by player label
        return float(profile.payoffs[first])
    return float(profile.payoff(first))


def sequence_form_value(t):
    """The game value for the first player from the sequence-form LP of the
    tree as Gambit read it (von Stengel 1996), solved with SciPy's HiGHS:
    max f'q  s.t.  F'q - A'x <= 0,  Ex = e,  x >= 0.
    For trees too big for Gambit's own LP code (Leduc)."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix, hstack

    p1, _ = t.players
    n_seq = [1, 1]  # sequence 0 is the empty sequence
    first_seq = [{}, {}]  # infoset key -> (its first action's sequence, n actions)
    parent = [{}, {}]  # infoset key -> the sequence leading to it
    payoff = {}  # (seq1, seq2) -> chance-weighted payoff to the first player
    stack = [(t.root(), 0, 0, 1.0, 0.0)]
    while stack:
        handle, s1, s2, prob, acc = stack.pop()
        node = t.info(handle)
        acc += node.payoffs.get(p1, 0.0)
        if node.player is None:
            payoff[(s1, s2)] = payoff.get((s1, s2), 0.0) + prob * acc
            continue
        if node.player is CHANCE:
            for p, c in zip(node.probs, node.children):
                stack.append((c, s1, s2, prob * p, acc))
            continue
        i = 0 if node.player == p1 else 1
        key = node.infoset
        if key not in parent[i]:
            parent[i][key] = s1 if i == 0 else s2
            first_seq[i][key] = (n_seq[i], len(node.children))
            n_seq[i] += len(node.children)
        for k, c in enumerate(node.children):
            s = first_seq[i][key][0] + k
            stack.append((c, s, s2, prob, acc) if i == 0 else (c, s1, s, prob, acc))

    def constraints(i):
        """E (or F): the root row x_0 = 1, then per infoset sum = parent."""
        rows, cols, vals = [0], [0], [1.0]
        for r, key in enumerate(sorted(parent[i]), start=1):
            rows.append(r)
            cols.append(parent[i][key])
            vals.append(-1.0)
            start, n_actions = first_seq[i][key]
            for s in range(start, start + n_actions):
                rows.append(r)
                cols.append(s)
                vals.append(1.0)
        return coo_matrix((vals, (rows, cols)), shape=(len(parent[i]) + 1, n_seq[i]))

    E, F = constraints(0), constraints(1)
    keys = list(payoff)
    A = coo_matrix(
        ([payoff[k] for k in keys], ([k[0] for k in keys], [k[1] for k in keys])), shape=(n_seq[0], n_seq[1])
    )
    n_x, n_q = n_seq[0], F.shape[0]
    # Variables z = (x, q); minimise -q_0.
    cost = [0.0] * n_x + [-1.0] + [0.0] * (n_q - 1)
    a_ub = hstack([-A.T, F.T]).tocsr()
    a_eq = hstack([E, coo_matrix((E.shape[0], n_q))]).tocsr()
    b_eq = [1.0] + [0.0] * (E.shape[0] - 1)
    bounds = [(0, None)] * n_x + [(None, None)] * n_q
    res = linprog(cost, A_ub=a_ub, b_ub=[0.0] * n_seq[1], A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"the sequence-form LP failed: {res.message}")
    return -float(res.fun)


def int_list(text):
    return [int(x) for x in text.split(",") if x != ""]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("efg")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--terminals", type=int)
    ap.add_argument("--chance", type=int)
    ap.add_argument("--decisions", type=int_list, help="decision nodes per player, comma-separated")
    ap.add_argument("--infosets", type=int_list, help="information sets per player, comma-separated")
    ap.add_argument("--solve", action="store_true", help="solve the game with lp_solve if two-player constant-sum")
    ap.add_argument("--value", type=float, help="expected equilibrium payoff of the first player")
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument(
        "--solver",
        choices=["gambit", "sequence-lp"],
        default="gambit",
        help="gambit: pygambit.nash.lp_solve (default); sequence-lp: the sequence-form LP of "
        "the tree Gambit read, solved by SciPy (fast where lp_solve is too slow, e.g. Leduc)",
    )
    args = ap.parse_args()

    try:
        import pygambit as gbt
    except ImportError as e:
        print(f"error: cannot import pygambit: {e}", file=sys.stderr)
        return 2
    try:
        game = load(args.efg)
    except Exception as e:  # Gambit raises ValueError/IOError on bad files
        print(f"error: pygambit cannot read {args.efg}: {e}", file=sys.stderr)
        return 2

    try:
        t = tree(game)
    except ValueError as e:
        print(f"error: pygambit cannot address {args.efg}: {e}", file=sys.stderr)
        return 2
    found = counts(game, t)
    found["pygambit"] = getattr(gbt, "__version__", "unknown")
    found["title"] = game.title
    mismatches = []
    for key in ("nodes", "terminals", "chance", "decisions", "infosets"):
        want = getattr(args, key)
        if want is not None and want != found[key]:
            mismatches.append(f"{key}: galac says {want}, Gambit says {found[key]}")
    if found["outcomes"] != found["terminals"]:
        mismatches.append(f"{found['outcomes']} outcomes for {found['terminals']} leaves")

    solvable = len(found["players"]) == 2 and found["constant_sum"]
    if args.value is not None and not solvable:
        print("error: --value needs a two-player constant-sum game", file=sys.stderr)
        return 2
    if (args.solve or args.value is not None) and solvable:
        value, seconds = solve(game, t, args.solver)
        found["solver"] = args.solver
        found["value"] = value
        found["solve_seconds"] = round(seconds, 3)
        if args.value is not None and abs(value - args.value) > args.tol:
            mismatches.append(f"value: expected {args.value}, lp_solve gives {value}")

    print(json.dumps(found))
    for m in mismatches:
        print(f"mismatch: {m}", file=sys.stderr)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
