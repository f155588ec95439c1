"""The galac package: loading, errors, the tree's arrays, solving through
the registry against known values, best responses, exports, plots, the
GIL and Ctrl-C."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import galac
from helpers import EXAMPLES, KUHN3, installed

KUHN = EXAMPLES / "kuhn.gala"
LEDUC = EXAMPLES / "leduc.gala"


def test_the_installed_wheel_is_tested():
    assert installed(), galac.__file__


def test_load_gives_players_and_params():
    game = galac.load(KUHN)
    assert game.name == "kuhn"
    assert game.players == ["first", "second"]
    assert game.params == {"cards": "3"}
    assert galac.load(str(KUHN), params={"cards": 4}).params == {"cards": "4"}


def test_a_game_given_as_text_loads():
    game = galac.load("game g { players a, b; flow { choose a x in 1..=2; outcome [x, -x]; } }")
    assert game.solve().value == {"a": 2.0, "b": -2.0}


def test_errors_are_exceptions_with_file_line_and_column(tmp_path):
    path = tmp_path / "bad.gala"
    path.write_text("game bad {\n    players a;\n    flow { choose a x in 1..=2; outcome [y]; }\n}\n")
    with pytest.raises(galac.GameError) as err:
        galac.load(path)
    e = err.value
    assert (e.file, e.line, e.column) == (str(path), 3, 42)
    assert str(e).startswith(f"{path}:3:42: unknown name `y`")
    assert e.diagnostics[0]["severity"] == "error"
    assert isinstance(e, galac.GalacError)


def test_a_wrong_param_is_a_param_error():
    with pytest.raises(galac.ParamError, match="no param"):
        galac.load(KUHN, params={"deck": 4})
    with pytest.raises(galac.ParamError):
        galac.load(KUHN, params={"cards": "many"})


def test_kuhn_tree_arrays_match_openspiels_counts():
    tree = galac.load(KUHN).tree()
    assert (tree.n_nodes, tree.n_infosets) == (58, 12)
    kind = tree.kind
    assert (kind == tree.TERMINAL).sum() == 30 and (kind == tree.CHANCE).sum() == 4
    assert (kind == tree.DECISION).sum() == 24
    # Children are contiguous and point back to their parent.
    first, n, parent = tree.first_child, tree.n_children, tree.parent
    for node in range(tree.n_nodes):
        for child in range(first[node], first[node] + n[node]):
            assert parent[child] == node
    # Chance probabilities sum to 1 at each chance node.
    for node in np.flatnonzero(kind == tree.CHANCE):
        assert tree.chance_prob[first[node]:first[node] + n[node]].sum() == pytest.approx(1.0, abs=1e-15)
    # Zero-sum payoffs at the leaves only.
    assert (tree.payoffs.sum(axis=1) == 0).all()
    assert (tree.payoffs[kind != tree.TERMINAL] == 0).all()
    assert set(np.abs(tree.payoffs[kind == tree.TERMINAL]).ravel()) == {1, 2}
    assert (tree.player[kind == tree.DECISION] >= 0).all() and (tree.infoset[kind != tree.DECISION] == -1).all()
    assert len(set(tree.infoset_labels)) == 12
    assert tree.action_labels[0] == ["Pass", "Bet"]
    assert tree.stats()["sequences"] == [13, 13]


def test_kuhn_value_is_minus_one_eighteenth():
    sol = galac.load(KUHN).solve()
    assert sol.solver.startswith("lp")
    assert sol.value["first"] == pytest.approx(-1 / 18, abs=1e-9)
    assert sol.exploitability < 1e-9
    assert "value: first -0.055555556" in str(sol)


def test_leduc_value_is_openspiels():
    game = galac.load(LEDUC)
    sol = game.solve()
    assert sol.value["first"] == pytest.approx(-0.085606424078, abs=1e-9)
    tree = game.tree()
    assert list(sol.strategy) == tree.infoset_labels
    # The array holds the dict's probabilities, row by row.
    for row, label, actions in zip(sol.probs, tree.infoset_labels, tree.action_labels):
        assert np.allclose(row[:len(actions)], [sol.strategy[label][a] for a in actions])
        assert np.isnan(row[len(actions):]).all()
        assert row[:len(actions)].sum() == pytest.approx(1.0)


def test_cfr_runs_with_the_command_lines_flags():
    sol = galac.load(KUHN).solve("cfr+", iterations=300, check_every=100)
    assert sol.solver == "cfr+ (300 iterations)"
    assert [p["iteration"] for p in sol.curve] == [100, 200, 300]
    assert sol.exploitability < 1e-2
    assert sol.value["first"] == pytest.approx(-1 / 18, abs=1e-2)


def test_flags_a_solver_does_not_read_and_unknown_solvers_are_refused():
    game = galac.load(KUHN)
    with pytest.raises(galac.ParamError, match="does not read `iterations`"):
        game.solve("lp", iterations=10)
    with pytest.raises(galac.ParamError, match="no solver `simplex`"):
        game.solve("simplex")
    with pytest.raises(galac.ParamError):
        game.solve("cfr", iterations="many")
    with pytest.raises(galac.SolveError, match="command line only"):
        game.solve("do")


def test_best_response_checks_a_solution_and_a_given_strategy():
    game = galac.load(KUHN)
    sol = game.solve()
    br = game.best_response(sol)
    assert br["nash_conv"] == pytest.approx(sol.exploitability, abs=1e-12)
    # Always betting: the opponent calls with the 3 and folds the 1.
    always_bet = {label: {"Pass": 0.0, "Bet": 1.0} for label in game.tree().infoset_labels if "first" in label}
    br = game.best_response(always_bet, partial=True)
    assert br["best_response"]["second"]["second: my_card(1), moved(Bet)"] == "Pass"
    assert br["best_response"]["second"]["second: my_card(3), moved(Bet)"] == "Bet"
    assert br["nash_conv"] > 0.1
    with pytest.raises(galac.ParamError):
        game.best_response(always_bet)


def test_three_players_are_solved_by_cfr_plus():
    sol = galac.load(KUHN3).solve(iterations=200)
    assert sol.solver.startswith("cfr+")
    assert list(sol.value) == ["first", "second", "third"]
    assert sum(sol.value.values()) == pytest.approx(0.0, abs=1e-12)


def test_efg_export_and_svg_plots():
    game = galac.load(KUHN)
    efg = game.export_efg()
    assert efg.startswith('EFG 2 R "kuhn (cards=3)" { "first" "second" }')
    assert efg.count("\nt ") == 30
    svg = game.tree()._repr_svg_()
    assert "<svg" in svg and "Pass" in svg
    assert "<svg" in game.plot_strategy("second")._repr_svg_()


def test_solving_releases_the_gil():
    game = galac.load(LEDUC)
    game.tree()
    ticks = 0
    done = threading.Event()

    def solve():
        game.solve("cfr", iterations=400)
        done.set()

    worker = threading.Thread(target=solve)
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    seconds = time.perf_counter() - start
    # With the GIL held the loop would tick only when the solve's thread
    # looks at signals (every 50 ms).
    assert ticks > 2 * seconds / 0.05, (ticks, seconds)


def test_ctrl_c_stops_a_long_solve():
    script = textwrap.dedent(f"""
        import sys, time, galac
        game = galac.load({str(LEDUC)!r})
        game.tree()
        print("solving", flush=True)
        start = time.perf_counter()
        try:
            game.solve("cfr", iterations=10**9)
        except KeyboardInterrupt:
            print("interrupted after", time.perf_counter() - start, flush=True)
            game.solve("cfr", iterations=10)
            print("solves again", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "solving"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("interrupted after") and float(lines[0].split()[-1]) < 10
    assert lines[1] == "solves again"
