"""docs/architecture.md walks a card and a hand through the code by the names of its
modules, classes and functions: each name it gives in full (``games.write.path._derive``)
is one the code has, so the map cannot drift from the house without this failing."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAP = (ROOT / "docs" / "architecture.md").read_text()
PACKAGES = ("coded", "config", "runtime", "accounts", "eventlog", "games", "tournaments")
NAMED = sorted(
    {
        name
        for name in re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)(?:\([^`]*\))?`", MAP)
        if name.split(".")[0] in PACKAGES
    }
)


def resolved(name: str) -> object:
    """The module, or the attribute of the longest module prefix, that ``name`` names."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def test_the_map_names_the_walks_steps_in_full() -> None:
    assert len(NAMED) >= 40
    assert "games.write.path.execute_on_loop" in NAMED


@pytest.mark.parametrize("name", NAMED)
def test_every_name_the_map_gives_in_full_is_in_the_code(name: str) -> None:
    assert resolved(name) is not None
