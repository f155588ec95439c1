"""galac from Python: Gala games checked, built, solved and exported by
galac's compiled engine (the same solvers, defaults and answers as the
``galac`` command line), with numpy arrays of the tree and SVG plots.

    import galac
    game = galac.load("examples/kuhn.gala")
    sol = game.solve()                 # the solver `galac solve` picks
    sol.value["first"]                 # -1/18
    sol.strategy["first: my_card(1)"]  # {"Pass": ..., "Bet": ...}

Errors are exceptions: ``GameError`` (with ``file``, ``line``, ``column``
and every diagnostic), ``ParamError``, ``BuildError``, ``SolveError``,
``MemoryLimitError`` (the work passed ``max_memory`` and was stopped), all
``GalacError``. Long calls release the GIL, and Ctrl-C stops them: the
work ends before ``KeyboardInterrupt`` is raised.
``galac.openspiel`` plays the games inside OpenSpiel.
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

import numpy as np

from . import _galac
from ._galac import BuildError, GalacError, GameError, MemoryLimitError, ParamError, SolveError

__version__ = _galac.__version__
__all__ = [
    "load", "solvers", "Game", "Tree", "Solution", "SVG",
    "GalacError", "GameError", "ParamError", "BuildError", "SolveError", "MemoryLimitError",
]


def _param_text(value: Any) -> str:
    """A param's value as galac's `name=value` syntax writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _flags(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as `galac solve` flags: `target_exploitability=1e-3`
    is `--target-exploitability 1e-3`; True is the bare flag; None and
    False leave it out."""
    flags = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            flags.append(flag)
        else:
            flags += [flag, str(value)]
    return flags


def load(path_or_source: Union[str, os.PathLike], params: Optional[Mapping[str, Any]] = None) -> "Game":
    """Checks a game and returns it.

    ``path_or_source`` is a path to a .gala file (a ``str`` without a
    newline or ``{``, or any ``os.PathLike``), or the source text itself.
    ``params`` overrides the game's params (``{"cards": 4}``). Raises
    ``GameError`` (located: ``file:line:col``) or ``ParamError``.
    """
    text_given = isinstance(path_or_source, str) and ("\n" in path_or_source or "{" in path_or_source)
    if text_given:
        name, source = "<source>", path_or_source.encode()
    else:
        name = os.fspath(path_or_source)
        with open(name, "rb") as f:
            source = f.read()
    overrides = [f"{k}={_param_text(v)}" for k, v in (params or {}).items()]
    return Game(_galac.load_source(name, source, overrides))


def solvers() -> list[tuple[str, str, bool]]:
    """The solvers `solve` takes: (name, description, whether it runs on
    the built tree; the double oracle explores the game itself)."""
    return _galac.solvers()


class SVG:
    """An SVG picture, shown inline by Jupyter."""

    def __init__(self, text: str):
        self.text = text

    def _repr_svg_(self) -> str:
        return self.text

    def save(self, path: Union[str, os.PathLike]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)

    def __str__(self) -> str:
        return self.text


class Game:
    """A checked Gala game with its param values (made by ``load``)."""

    def __init__(self, inner: "_galac.Game"):
        self._inner = inner

    name = property(lambda self: self._inner.name)
    players = property(lambda self: list(self._inner.players))
    summary = property(lambda self: self._inner.summary)
    warnings = property(lambda self: self._inner.warnings, doc="The file's warnings, as dicts.")

    @property
    def params(self) -> dict[str, str]:
        """Every param's value as galac writes it."""
        return dict(self._inner.params)

    def tree(self, **limits: Any) -> "Tree":
        """Builds the tree (once: later calls and ``solve`` reuse it).
        Limits as in ``galac tree``: ``max_nodes``, ``max_memory`` (MiB),
        ``step_limit``, ``threads``."""
        return Tree(self._inner.tree(_flags(limits)))

    def solve(self, solver: Optional[str] = None, **options: Any) -> "Solution":
        """Solves the game as ``galac solve --solver SOLVER`` with its flags
        as keywords (``iterations=1000``, ``target_exploitability=1e-4``,
        ``check_every=10``, ``time_limit=5``, ``alpha=1.5``, vcfr's
        ``compress=True`` for 16-bit storage, ...); without
        a solver, the one ``galac solve`` picks. The answer is checked by
        the independent best response. ``solve("do")`` runs the double
        oracle as ``galac solve --solver do`` does (``do_epsilon``,
        ``variant``, ``no_tree``, ...): on a tree it can check (estimated
        under 3 million nodes, without ``no_tree``) the answer is a full
        report; otherwise ``value`` is None, ``json["value_bounds"]`` holds
        the oracle's bounds, ``exploitability`` its gap and ``strategy``
        the sets its restricted game defines. ``max_memory`` (MiB) bounds
        the LP, Lemke and the double oracle as a whole process: past it
        they stop with ``MemoryLimitError``. See ``galac.solvers()``."""
        text_json, text, probs, width = self._inner.solve(solver, _flags(options))
        rows = np.asarray(probs, dtype=np.float64).reshape(-1, width) if width else np.zeros((0, 0))
        return Solution(json.loads(text_json), text, rows)

    def best_response(self, strategy: Union["Solution", Mapping[str, Any]], partial: bool = False) -> dict:
        """Each player's value and best response against ``strategy`` (a
        ``Solution``, ``solve``'s JSON, or a dict of set label -> action
        label -> probability), and the NashConv. ``partial``: sets not
        given are played uniformly (listed under ``filled``)."""
        if isinstance(strategy, Solution):
            doc = strategy.json
        elif "strategy" in strategy:
            doc = dict(strategy)
        else:
            doc = {"strategy": dict(strategy)}
        return json.loads(self._inner.best_response(json.dumps(doc), partial, []))

    def export_efg(self, path: Optional[Union[str, os.PathLike]] = None) -> str:
        """The game as Gambit's .efg (as ``galac export --efg``); also
        written to ``path`` when given."""
        text = self._inner.export_efg([])
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def plot_strategy(self, player: Optional[str] = None, filter: Optional[str] = None) -> SVG:
        """``galac plot strategy``: a player's strategy (the default
        solver's) at their first decisions, or at the sets whose label
        holds ``filter``."""
        return SVG(self._inner.plot_strategy(player, filter, []))

    def __repr__(self) -> str:
        return repr(self._inner)


class Tree:
    """The game tree: sizes, numpy arrays over nodes and information
    sets, and its drawing (shown inline by Jupyter for small trees)."""

    def __init__(self, inner: "_galac.Tree"):
        self._inner = inner
        self._cache: dict[str, Any] = {}

    def _array(self, name: str):
        if name not in self._cache:
            self._cache[name] = getattr(self._inner, name)()
        return self._cache[name]

    n_nodes = property(lambda self: self._inner.n_nodes)
    n_infosets = property(lambda self: self._inner.n_infosets)
    players = property(lambda self: list(self._inner.players))
    seconds = property(lambda self: self._inner.seconds)
    kind = property(lambda self: self._array("kind"), doc="Per node: 0 terminal, 1 chance, 2 decision.")
    player = property(lambda self: self._array("player"), doc="Per node: the player to move, else -1.")
    infoset = property(lambda self: self._array("infoset"), doc="Per node: its information set, else -1.")
    first_child = property(lambda self: self._array("first_child"), doc="Per node: its first child, -1 at a leaf.")
    n_children = property(lambda self: self._array("n_children"))
    parent = property(lambda self: self._array("parent"), doc="Per node: its parent, -1 at the root.")
    chance_prob = property(lambda self: self._array("chance_prob"),
                           doc="Per node: probability of the chance move into it, NaN if none.")
    payoffs = property(lambda self: self._array("payoffs"), doc="(nodes, players): payoffs at leaves, 0 elsewhere.")
    infoset_player = property(lambda self: self._array("infoset_player"))
    infoset_labels = property(lambda self: self._array("infoset_labels"), doc="Unique labels, as solve prints.")
    action_labels = property(lambda self: self._array("action_labels"))

    TERMINAL, CHANCE, DECISION = 0, 1, 2

    def move_labels(self, node: int) -> list[str]:
        """The labels of the moves out of ``node``."""
        return self._inner.move_labels(node)

    def stats(self) -> dict:
        """``galac tree``'s counts."""
        return self._inner.stats()

    def svg(self, max_drawn: int = 200) -> SVG:
        """The tree drawn (``galac plot tree``), at most ``max_drawn`` nodes."""
        return SVG(self._inner.svg(max_drawn))

    def _repr_svg_(self) -> Optional[str]:
        if self.n_nodes > 200:
            return None
        return self._inner.svg(200)

    def __repr__(self) -> str:
        return repr(self._inner)


class Solution:
    """A solved game: ``galac solve --format json``'s answer (``json``)
    and its text report (``str()``), with the strategies as dicts keyed by
    the labels ``solve`` prints and as an array (``probs``: one row per
    information set, NaN past its actions; rows in ``Tree.infoset_labels``
    order)."""

    def __init__(self, doc: dict, text: str, probs: np.ndarray):
        self.json = doc
        self.text = text
        self.probs = probs

    value = property(lambda self: self.json.get("value"), doc="Each player's expected payoff, by name.")
    exploitability = property(lambda self: self.json["exploitability"], doc="NashConv of the answer.")
    best_response = property(lambda self: self.json["best_response"],
                             doc="Each player's best-response value against the others.")
    solver = property(lambda self: self.json["solver"])
    notes = property(lambda self: self.json["notes"])
    strategy = property(lambda self: self.json["strategy"], doc="Set label -> action label -> probability.")
    unreached = property(lambda self: self.json.get("unreached", []))
    curve = property(lambda self: self.json.get("curve"), doc="An iterative solver's checks (CFR).")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.value is None:
            lower, upper = self.json["value_bounds"]
            values = f"value in [{lower:.9f}, {upper:.9f}]"
        else:
            values = ", ".join(f"{k} {v:.9f}" for k, v in self.value.items())
        return f"<galac.Solution {self.solver}: {values}; NashConv {self.exploitability:.3e}>"
