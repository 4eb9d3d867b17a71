"""The import contracts of pyproject.toml ([tool.importlinter]) hold, and bite."""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("coded", "config", "runtime", "accounts", "eventlog", "games", "tournaments", "bench")
CONTRACTS = len(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
)


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    # The tree's own packages, not the installed ones.
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def copy_of_the_project(into: Path) -> Path:
    shutil.copy(ROOT / "pyproject.toml", into)
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, into / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return into


def test_the_project_keeps_its_import_contracts(tmp_path: Path) -> None:
    result = lint_imports(copy_of_the_project(tmp_path))

    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {CONTRACTS} kept, 0 broken." in result.stdout


def test_a_rules_module_that_imports_django_breaks_the_rules_contract(tmp_path: Path) -> None:
    # Given a copy of the project whose rules import Django
    tree = copy_of_the_project(tmp_path)
    cards = tree / "games" / "rules" / "cards.py"
    cards.write_text(cards.read_text() + "\nimport django  # noqa: E402\n")

    # When its imports are linted
    result = lint_imports(tree)

    # Then the rules' contract is broken, naming the import
    assert result.returncode == 1, result.stdout + result.stderr
    # (the deciders, built on the rules, break with them)
    assert "nothing of the project \nabove them BROKEN" in result.stdout
    assert f"Contracts: {CONTRACTS - 2} kept, 2 broken." in result.stdout
    assert "games.rules.cards -> django" in result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert "The rules and the bots are a pure library" in broken


def test_an_import_circle_breaks_the_acyclic_contract(tmp_path: Path) -> None:
    # Given a copy of the project whose reads import one another
    tree = copy_of_the_project(tmp_path)
    selectors = tree / "games" / "read" / "selectors.py"
    selectors.write_text(
        selectors.read_text() + "\nfrom games.read import download  # noqa: E402, F401\n"
    )
    download = tree / "games" / "read" / "download.py"
    download.write_text(
        download.read_text() + "\nfrom games.read import selectors  # noqa: E402, F401\n"
    )

    # When its imports are linted
    result = lint_imports(tree)

    # Then the circle is named
    assert result.returncode == 1, result.stdout + result.stderr
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert "No cycles are allowed in games.read." in broken


def test_a_standings_module_reading_the_event_model_breaks_the_store_contract(
    tmp_path: Path,
) -> None:
    # Given a copy of the project whose standings query the stored events themselves
    tree = copy_of_the_project(tmp_path)
    standings = tree / "tournaments" / "projections" / "standings.py"
    standings.write_text(
        standings.read_text() + "\nfrom eventlog.models import StoredEvent  # noqa: E402, F401\n"
    )

    # When its imports are linted
    result = lint_imports(tree)

    # Then only the event log's contract is broken, naming the import
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"Contracts: {CONTRACTS - 1} kept, 1 broken." in result.stdout
    assert "tournaments.projections.standings -> eventlog.models" in result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert "The apps use the event log only through its store" in broken


def test_an_event_log_that_imports_the_games_breaks_the_layers(tmp_path: Path) -> None:
    # Given a copy of the project whose store decodes with the games' own table events
    tree = copy_of_the_project(tmp_path)
    store = tree / "eventlog" / "store.py"
    store.write_text(store.read_text() + "\nfrom games import table  # noqa: E402, F401\n")

    # When its imports are linted
    result = lint_imports(tree)

    # Then the layers are broken, naming the import
    assert result.returncode == 1, result.stdout + result.stderr
    assert "eventlog.store -> games.table" in result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert "eventlog is not allowed to import games" in broken


# The contracts issue 32 added, each broken by one import: the module, the line added to
# it, the import lint-imports then names, and words of the contract it breaks.
BREAKS = {
    "runtime-imports-an-app": (
        "runtime/api_errors.py",
        "from games.rules import RuleError",
        "runtime.api_errors -> games.rules",
        "The runtime machinery imports no app",
    ),
    "runtime-imports-config": (
        "runtime/health.py",
        "from config.celery import app",
        "runtime.health -> config.celery",
        "The runtime machinery imports no app, and not config",
    ),
    "error-base-imports-django": (
        "coded/__init__.py",
        "from django.utils.translation import gettext_noop as _",
        "coded -> django",
        "The error family's base imports nothing",
    ),
    "an-app-imports-config": (
        "games/tasks.py",
        "from config.celery import app",
        "games.tasks -> config.celery",
        "config is the roof",
    ),
    "write-path-imports-a-page": (
        "games/write/path.py",
        "from games.web import serializers",
        "games.write.path -> games.web.serializers",
        "A move walks the games' rooms downwards",
    ),
    "table-reads-the-database": (
        "games/table/deciders.py",
        "from games.models import Game",
        "games.table.deciders -> games.models",
        "A table, its events and its deciders know no Django",
    ),
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_an_import_against_a_contract_breaks_it_naming_the_import(
    case: str, tmp_path: Path
) -> None:
    # Given a copy of the project with one import its contracts forbid
    module, line, named, contract = BREAKS[case]
    tree = copy_of_the_project(tmp_path)
    source = tree / module
    source.write_text(source.read_text() + f"\n{line}  # noqa: E402, F401\n")

    # When its imports are linted
    result = lint_imports(tree)

    # Then that contract is broken, naming the import
    assert result.returncode == 1, result.stdout + result.stderr
    assert named in result.stdout
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert contract in broken


def test_an_error_base_that_imports_django_breaks_the_pure_rules_with_it(tmp_path: Path) -> None:
    # Given a copy of the project whose error base imports Django
    module, line, _, _ = BREAKS["error-base-imports-django"]
    tree = copy_of_the_project(tmp_path)
    source = tree / module
    source.write_text(source.read_text() + f"\n{line}  # noqa: E402, F401\n")

    # When its imports are linted
    result = lint_imports(tree)

    # Then the rules, which build on the base, are no longer pure either
    broken = result.stdout.split("Broken contracts", 1)[1]
    assert "The rules and the bots are a pure library" in broken
