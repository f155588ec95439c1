"""galac games inside OpenSpiel.

    import galac.openspiel
    game = galac.openspiel.load_game("examples/leduc.gala")
    solver = open_spiel.python.algorithms.cfr.CFRSolver(game)

``load_game`` returns a ``pyspiel.Game`` (registered as ``python_galac``,
so ``pyspiel.load_game("python_galac", {"file": ..., "params": ...})``
works too) whose states are backed by galac's built tree: a state is a
node of it. Legal actions are ``0 .. n - 1`` in the game's order of
actions, chance outcomes ``0 .. n - 1`` with galac's exact probabilities
(as floats), returns are galac's payoffs. ``information_state_string``
and ``observation_string`` are the unique label ``galac solve`` prints
for the player's information set, so they identify galac's sets
exactly; the tensors are the set's one-hot index among the player's sets
(given when a player has at most ``MAX_TENSOR_SETS`` sets). galac defines
information sets at a player's own decisions only: asking for the
information state string of a player not to move raises ``ValueError``
(the tensor is all zeros there).
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

import numpy as np
import pyspiel

import galac

SHORT_NAME = "python_galac"
# Information-state tensors are one-hot over a player's sets: given up to
# this many sets per player.
MAX_TENSOR_SETS = 1 << 14

_PARAMS = {"file": "", "source": "", "params": "{}"}


def _game_type(**given: Any) -> pyspiel.GameType:
    """The game type: the registered one, or one game's own (its utility,
    chance, information and tensors)."""
    fields = dict(
        short_name=SHORT_NAME,
        long_name="A Gala game built by galac",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )
    fields.update(given)
    return pyspiel.GameType(**fields)


def load_game(path_or_source: Union[str, os.PathLike], params: Optional[Mapping[str, Any]] = None) -> "GalacGame":
    """The Gala game (a path, or source text as for ``galac.load``) with
    its param overrides, as an OpenSpiel game."""
    text_given = isinstance(path_or_source, str) and ("\n" in path_or_source or "{" in path_or_source)
    spec = {"params": json.dumps(dict(params or {}))}
    if text_given:
        spec["source"] = path_or_source
    else:
        spec["file"] = os.fspath(path_or_source)
    return pyspiel.load_game(SHORT_NAME, spec)


class _Tables:
    """The tree as plain Python lists, indexed by node: what a state reads
    at each step (list indexing, no call into Rust)."""

    def __init__(self, tree: galac.Tree):
        kind = tree.kind
        self.kind = kind.tolist()
        player = tree.player.tolist()
        # OpenSpiel's player ids: chance and terminal states get theirs.
        self.to_move = [
            pyspiel.PlayerId.TERMINAL if k == 0 else pyspiel.PlayerId.CHANCE if k == 1 else p
            for k, p in zip(self.kind, player)
        ]
        self.first = tree.first_child.tolist()
        n_children = tree.n_children.tolist()
        self.actions = [list(range(n)) for n in range(max(n_children, default=0) + 1)]
        self.n_children = n_children
        self.infoset = tree.infoset.tolist()
        prob = tree.chance_prob.tolist()
        self.outcomes = [
            [(a, prob[f + a]) for a in range(n)] if k == 1 else None
            for k, f, n in zip(self.kind, self.first, n_children)
        ]
        n_players = len(tree.players)
        payoffs = tree.payoffs.astype(np.float64).tolist()
        zeros = [0.0] * n_players
        self.returns = [row if k == 0 else zeros for k, row in zip(self.kind, payoffs)]
        self.parent = tree.parent.tolist()
        self.labels = tree.infoset_labels
        set_player = tree.infoset_player.tolist()
        # Each set's index among its player's sets, and each player's count.
        counts = [0] * n_players
        self.index_in_player = []
        for p in set_player:
            self.index_in_player.append(counts[p])
            counts[p] += 1
        self.sets_per_player = counts
        self.tree = tree
        # Decisions on the longest play (OpenSpiel's max_game_length);
        # a child's index is always above its parent's.
        decisions = [0] * len(self.kind)
        for node in range(1, len(self.kind)):
            up = self.parent[node]
            decisions[node] = decisions[up] + (1 if self.kind[up] == 2 else 0)
        self.max_game_length = max(decisions, default=0)
        self.shared = any(c > 1 for c in np.bincount(tree.infoset[tree.infoset >= 0]).tolist())
        self.has_chance = 1 in self.kind


def _game_info_and_type(tables: _Tables, n_players: int) -> tuple[pyspiel.GameInfo, pyspiel.GameType]:
    """OpenSpiel's GameInfo and GameType of one galac game."""
    leaves = np.asarray([r for k, r in zip(tables.kind, tables.returns) if k == 0], dtype=np.float64)
    sums = leaves.sum(axis=1) if len(leaves) else np.zeros(1)
    constant = bool(np.all(sums == sums[0]))
    utility = pyspiel.GameType.Utility
    if constant and sums[0] == 0:
        kind = utility.ZERO_SUM
    elif constant:
        kind = utility.CONSTANT_SUM
    else:
        kind = utility.GENERAL_SUM
    decision_children = [n for k, n in zip(tables.kind, tables.n_children) if k == 2]
    chance_children = [n for k, n in zip(tables.kind, tables.n_children) if k == 1]
    tensors = max(tables.sets_per_player, default=0) <= MAX_TENSOR_SETS
    info = pyspiel.GameInfo(
        num_distinct_actions=max(decision_children, default=1),
        max_chance_outcomes=max(chance_children, default=0),
        num_players=n_players,
        min_utility=float(leaves.min()) if len(leaves) else 0.0,
        max_utility=float(leaves.max()) if len(leaves) else 0.0,
        utility_sum=float(sums[0]) if constant else None,
        max_game_length=max(tables.max_game_length, 1),
    )
    game_type = _game_type(
        utility=kind,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if tables.has_chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if tables.shared
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        provides_information_state_tensor=tensors,
        provides_observation_tensor=tensors,
    )
    return info, game_type


class GalacGame(pyspiel.Game):
    """A galac game as a ``pyspiel.Game`` (made by ``load_game`` or
    ``pyspiel.load_game("python_galac", ...)``). ``galac_game`` is the
    ``galac.Game``, ``galac_tree`` its tree."""

    def __init__(self, params: Optional[Mapping[str, Any]] = None):
        params = dict(params or {})
        file, source = params.get("file", ""), params.get("source", "")
        if bool(file) == bool(source):
            raise ValueError("python_galac needs exactly one of the params `file` and `source`")
        overrides = json.loads(params.get("params", "{}") or "{}")
        self.galac_game = galac.load(source if source else file, overrides)
        self.galac_tree = self.galac_game.tree()
        tables = _Tables(self.galac_tree)
        self._tables = tables
        info, game_type = _game_info_and_type(tables, len(self.galac_game.players))
        super().__init__(game_type, info, params)
        # The states of this game: a class of their own holds the tables,
        # so copying a state (OpenSpiel clones by deepcopy) copies one int.
        self._state_class = type("GalacState", (GalacState,), {"_t": tables})

    def new_initial_state(self) -> "GalacState":
        return self._state_class(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "GalacObserver":
        return GalacObserver(self._tables, self.get_type().provides_information_state_tensor, params)


class GalacState(pyspiel.State):
    """A node of galac's tree."""

    _t: _Tables

    def __init__(self, game: GalacGame):
        super().__init__(game)
        self._node = 0

    def current_player(self) -> int:
        return self._t.to_move[self._node]

    def _legal_actions(self, player: int) -> list[int]:
        return self._t.actions[self._t.n_children[self._node]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._t.outcomes[self._node]

    def _apply_action(self, action: int) -> None:
        self._node = self._t.first[self._node] + action

    def _action_to_string(self, player: int, action: int) -> str:
        return self._t.tree.move_labels(self._node)[action]

    def is_terminal(self) -> bool:
        return self._t.kind[self._node] == 0

    def returns(self) -> list[float]:
        return self._t.returns[self._node]

    @property
    def galac_node(self) -> int:
        """The node of galac's tree (``GalacGame.galac_tree``) this state is."""
        return self._node

    def __str__(self) -> str:
        moves = []
        node = self._node
        while node > 0:
            up = self._t.parent[node]
            moves.append(self._t.tree.move_labels(up)[node - self._t.first[up]])
            node = up
        return " ".join(reversed(moves))


class GalacObserver:
    """Information states and observations: the label of galac's set (the
    same for both: galac's sets are what a player knows), and its one-hot
    index among the player's sets as the tensor."""

    def __init__(self, tables: _Tables, tensors: bool, params):
        if params:
            raise ValueError(f"observation params are not supported; passed {params}")
        self._t = tables
        size = max(tables.sets_per_player, default=0) if tensors else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"infoset": self.tensor} if tensors else {}

    def _set(self, state: GalacState, player: int) -> int:
        node = state._node
        if self._t.kind[node] != 2 or self._t.to_move[node] != player:
            raise ValueError(
                f"galac defines information sets at a player's own decisions only: player {player} is not to "
                f"move at `{state}`")
        return self._t.infoset[node]

    def set_from(self, state: GalacState, player: int) -> None:
        # All zeros where the player is not to move (OpenSpiel sizes the
        # tensor on the initial state).
        self.tensor.fill(0)
        node = state._node
        if len(self.tensor) and self._t.kind[node] == 2 and self._t.to_move[node] == player:
            self.tensor[self._t.index_in_player[self._t.infoset[node]]] = 1

    def string_from(self, state: GalacState, player: int) -> str:
        return self._t.labels[self._set(state, player)]


pyspiel.register_game(_game_type(), GalacGame)
