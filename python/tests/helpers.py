"""What the tests share: where the repository's games are, and that the
galac imported is the installed wheel, not the source tree."""

import pathlib

import galac

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
KUHN3 = REPO / "cli" / "tests" / "games" / "kuhn3.gala"


def installed() -> bool:
    """Whether `galac` comes from an installed wheel (its compiled module
    beside it), not from python/galac in the repository."""
    return not pathlib.Path(galac.__file__).resolve().is_relative_to(REPO / "python" / "galac")
