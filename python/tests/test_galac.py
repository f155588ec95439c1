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
    with pytest.raises(galac.ParamError, match="does not read `iterations`"):
        game.solve("do", iterations=10)


@pytest.mark.parametrize("path, value", [(KUHN, -1 / 18), (LEDUC, -0.085606424078)])
def test_the_double_oracle_finds_the_known_value(path, value):
    # Kuhn's value is -1/18; Leduc's is OpenSpiel's. The oracle stops when
    # its bounds are within `tolerance` (1e-9 of the payoff range).
    game = galac.load(path)
    sol = game.solve("do")
    assert sol.solver.startswith("double oracle (do-b")
    oracle = sol.json["double_oracle"]
    tolerance = oracle["tolerance"]
    assert 0 < tolerance < 1e-7 and oracle["gap"] <= tolerance and not oracle["stopped"]
    assert oracle["lower"] - tolerance <= value <= oracle["upper"] + tolerance
    assert sol.value["first"] == pytest.approx(value, abs=tolerance)
    # Its exploitability, computed again by the independent best response
    # from the answer's strategy dict (not from the solver's own check).
    br = game.best_response(dict(sol.strategy))
    assert br["nash_conv"] == pytest.approx(sol.exploitability, abs=1e-12)
    assert br["nash_conv"] <= 2 * tolerance
    assert list(sol.strategy) == game.tree().infoset_labels and sol.probs.shape[0] == game.tree().n_infosets


def test_the_double_oracle_without_a_tree_gives_bounds_and_its_restricted_strategy():
    game = galac.load(KUHN)
    sol = game.solve("do", no_tree=True, variant="sa", do_epsilon=1e-6)
    assert sol.solver.startswith("double oracle (do-sa") and sol.value is None
    lower, upper = sol.json["value_bounds"]
    assert lower - 4e-6 <= -1 / 18 <= upper + 4e-6 and sol.exploitability == pytest.approx(upper - lower)
    assert repr(sol).startswith("<galac.Solution double oracle (do-sa") and "value in [" in repr(sol)
    # The sets the restricted game defines, by the labels `solve` prints.
    labels = set(game.tree().infoset_labels)
    assert sol.strategy and set(sol.strategy) <= labels
    with pytest.raises(galac.ParamError, match="unknown variant"):
        game.solve("do", variant="x")


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


def default_sigint():
    """In a child about to run Python: SIGINT's default disposition. A
    shell runs a background job with SIGINT ignored, which its children
    inherit, and Python then installs no handler: Ctrl-C would never
    reach the script (pytest run under `nohup ... &`)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, preexec_fn=default_sigint
    )
    assert proc.stdout.readline().strip() == "solving"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("interrupted after") and float(lines[0].split()[-1]) < 10
    assert lines[1] == "solves again"


def run_script(body: str, timeout: float = 120) -> list[str]:
    """Runs `body` in a fresh interpreter (a signal or a memory limit
    there cannot hurt pytest's); its printed lines, after it exits with 0."""
    script = textwrap.dedent(body)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout, preexec_fn=default_sigint
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


# Stops the call after `delay` seconds with SIGINT, as Ctrl-C does, then
# measures the process's CPU time over the next second: work left running
# on galac's threads would add about a second of it per busy thread.
INTERRUPT = """
import json, os, signal, threading, time, galac

def interrupted(call, delay):
    threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT)).start()
    start = time.perf_counter()
    try:
        call()
    except KeyboardInterrupt:
        raised = time.perf_counter() - start
        cpu = time.process_time()
        time.sleep(1.0)
        return {"raised": raised, "cpu": time.process_time() - cpu}
    return {"finished": time.perf_counter() - start}
"""


def test_ctrl_c_stops_a_tree_build_and_the_lps_for_real():
    # 30-rank Leduc: a tree of about 15M nodes (several seconds to build);
    # 13-rank Leduc's LP takes clarabel and HiGHS tens of seconds
    # (BENCHMARKS.md, LP and exact values).
    lines = run_script(INTERRUPT + f"""
big = galac.load({str(LEDUC)!r}, params={{"ranks": 30}})
print(json.dumps(interrupted(lambda: big.tree(threads=1), 1.0)))
game = galac.load({str(LEDUC)!r}, params={{"ranks": 13}})
game.tree()
for backend in ["clarabel", "highs"]:
    print(json.dumps(interrupted(lambda: game.solve("lp", lp_backend=backend), 1.5)))
print(json.dumps(interrupted(lambda: game.solve("lemke"), 1.5)))
print(json.dumps({{"value": galac.load({str(KUHN)!r}).solve("do").value["first"]}}))
""", timeout=300)
    import json
    results = [json.loads(line) for line in lines]
    *calls, after = results
    for what, r in zip(["build", "clarabel", "highs", "lemke"], calls):
        assert "raised" in r, f"{what} finished before Ctrl-C: {r}"
        assert r["raised"] < 5, (what, r)
        # The work's thread has ended: no CPU is spent after the exception.
        assert r["cpu"] < 0.25, (what, r)
    # And the process goes on solving.
    assert after["value"] == pytest.approx(-1 / 18, abs=1e-8)


def test_the_memory_limit_raises_and_the_process_lives_on():
    # The LP's watch holds the whole process to `max_memory` (MiB): set
    # just above what the process holds once the tree is built, clarabel's
    # factorization on 13-rank Leduc passes it.
    lines = run_script(f"""
import resource, time, galac
game = galac.load({str(LEDUC)!r}, params={{"ranks": 13}})
game.tree()
with open("/proc/self/statm") as f:
    resident = int(f.read().split()[1]) * resource.getpagesize() >> 20
try:
    game.solve("lp", lp_backend="clarabel", max_memory=resident + 40)
    print("solved")
except galac.MemoryLimitError as e:
    cpu = time.process_time()
    time.sleep(1.0)
    print("raised", isinstance(e, galac.GalacError), time.process_time() - cpu)
    print(str(e).splitlines()[0])
print(galac.load({str(KUHN)!r}).solve("lp").value["first"])
""")
    raised, message, value = lines
    assert raised.startswith("raised True "), lines
    assert float(raised.split()[-1]) < 0.25, lines
    assert message.startswith("the sequence-form LP passed the memory limit: ") and "(--max-memory)" in message
    assert float(value) == pytest.approx(-1 / 18, abs=1e-9)
