"""The OpenSpiel bridge against OpenSpiel's own games: CFR's
exploitability curve on galac's Kuhn and Leduc equals its curve on
kuhn_poker and leduc_poker (same chance order, action order and
information sets), OpenSpiel's NashConv of galac's answer is galac's,
its C++ algorithms run on the bridged game, and a 3-player game works."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

import galac  # noqa: E402
import galac.openspiel as gos  # noqa: E402
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from helpers import EXAMPLES, KUHN3  # noqa: E402


def cfr_curve(game, iterations):
    solver = cfr.CFRSolver(game)
    curve = []
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        curve.append(exploitability.nash_conv(game, solver.average_policy()))
    return curve


@pytest.mark.parametrize("file, native, params, iterations", [
    ("kuhn.gala", "kuhn_poker", {}, 30),
    ("leduc.gala", "leduc_poker", {}, 4),
    (str(KUHN3), "kuhn_poker", {"players": 3}, 10),
])
def test_cfr_curves_equal_openspiels(file, native, params, iterations):
    bridged = gos.load_game(EXAMPLES / file)
    ours = cfr_curve(bridged, iterations)
    theirs = cfr_curve(pyspiel.load_game(native, params), iterations)
    assert ours == pytest.approx(theirs, abs=1e-9, rel=0)
    assert ours[-1] < ours[0]


def galac_policy(bridged, solution):
    """galac's answer as OpenSpiel's tabular policy, by set label."""
    policy = os_policy.TabularPolicy(bridged)
    tree = bridged.galac_tree
    assert len(policy.state_lookup) == tree.n_infosets
    for label, actions in zip(tree.infoset_labels, tree.action_labels):
        row = policy.state_lookup[label]
        policy.action_probability_array[row, :len(actions)] = [solution.strategy[label][a] for a in actions]
    return policy


@pytest.mark.parametrize("file", ["kuhn.gala", "leduc.gala"])
def test_openspiels_nash_conv_of_galacs_answer_is_galacs(file):
    bridged = gos.load_game(EXAMPLES / file)
    solution = bridged.galac_game.solve()
    theirs = exploitability.nash_conv(bridged, galac_policy(bridged, solution))
    assert theirs == pytest.approx(solution.exploitability, abs=1e-9)
    # And against a worse profile, far from 0.
    worse = bridged.galac_game.solve("cfr", iterations=5)
    theirs = exploitability.nash_conv(bridged, galac_policy(bridged, worse))
    assert theirs == pytest.approx(worse.exploitability, abs=1e-9) and theirs > 1e-2


@pytest.mark.parametrize("file, value", [("kuhn.gala", -1 / 18), ("leduc.gala", -0.085606424078)])
def test_openspiels_nash_conv_of_the_double_oracles_answer(file, value):
    bridged = gos.load_game(EXAMPLES / file)
    solution = bridged.galac_game.solve("do")
    tolerance = solution.json["double_oracle"]["tolerance"]
    assert solution.value["first"] == pytest.approx(value, abs=tolerance)
    theirs = exploitability.nash_conv(bridged, galac_policy(bridged, solution))
    assert theirs == pytest.approx(solution.exploitability, abs=1e-9) and theirs <= 2 * tolerance


def test_information_states_are_galacs_sets():
    bridged = gos.load_game(EXAMPLES / "leduc.gala")
    tree = bridged.galac_tree
    seen = set()
    stack = [bridged.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            assert sum(probs) == pytest.approx(1.0)
        else:
            label = tree.infoset_labels[tree.infoset[state.galac_node]]
            player = state.current_player()
            assert state.information_state_string(player) == label == state.observation_string(player)
            tensor = state.information_state_tensor(player)
            assert sum(tensor) == 1.0
            seen.add(label)
            with pytest.raises(ValueError, match="own decisions"):
                state.information_state_string(1 - player)
        stack.extend(state.child(a) for a in state.legal_actions())
    assert len(seen) == tree.n_infosets == 936


def test_cpp_algorithms_accept_the_bridged_game():
    bridged = gos.load_game(EXAMPLES / "kuhn.gala")
    native = pyspiel.load_game("kuhn_poker")
    curves = []
    for game in (bridged, native):
        solver = pyspiel.CFRSolver(game)
        curve = []
        for _ in range(10):
            solver.evaluate_and_update_policy()
            curve.append(pyspiel.nash_conv(game, solver.average_policy()))
        curves.append(curve)
    assert curves[0] == pytest.approx(curves[1], abs=1e-9, rel=0)


def test_load_game_by_name_and_the_game_type():
    game = pyspiel.load_game("python_galac", {"file": str(EXAMPLES / "kuhn.gala"), "params": '{"cards": 4}'})
    assert game.galac_game.params == {"cards": "4"}
    kind = game.get_type()
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 2, 4)
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (-2.0, 2.0, 3)
    root = game.new_initial_state()
    assert root.action_to_string(pyspiel.PlayerId.CHANCE, 3) == str(root.child(3)) == "4"
    with pytest.raises(galac.GameError):
        gos.load_game("game g { players a; flow { foo; } }")
