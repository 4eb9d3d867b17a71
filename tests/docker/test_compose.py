"""docker/compose.yaml runs the site `make serve` runs: each Procfile line as a service,
word for word, after the same preparation. (No Docker daemon here: the files are read.)"""

from __future__ import annotations

import re
from typing import Any

import yaml
from honcho.environ import parse_procfile

from config.settings.environment import BASE_DIR

PROCFILE = parse_procfile((BASE_DIR / "Procfile").read_text()).processes
COMPOSE: dict[str, Any] = yaml.safe_load((BASE_DIR / "docker" / "compose.yaml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
DOCKERFILE = (BASE_DIR / "docker" / "Dockerfile").read_text()


def serve_recipe() -> list[str]:
    """The commands of the Makefile's serve target, continuation lines joined."""
    makefile = (BASE_DIR / "Makefile").read_text().replace("\\\n", " ")
    recipe = re.search(r"^serve:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe is not None
    return [" ".join(line.split()) for line in recipe[1].splitlines()]


def in_the_image(make_command: str) -> str:
    """A Makefile command as the image runs it: its virtualenv's programs are on the PATH."""
    return make_command.replace("$(PYTHON) ", "python ").replace("$(BIN)/", "")


def test_each_procfile_line_is_a_compose_service_running_it_word_for_word() -> None:
    # Compose would expand $VAR itself: $$ hands a $ to the service's shell, as honcho's.
    commands = {name: SERVICES[name]["command"] for name in PROCFILE}

    assert commands == {
        name: ["sh", "-c", line.replace("$", "$$")] for name, line in PROCFILE.items()
    }
    assert set(PROCFILE) == {"web1", "web2", "worker", "analyst", "beat", "front"}
    assert set(SERVICES) == {*PROCFILE, "postgres", "redis", "migrate"}


def test_compose_prepares_the_site_as_make_serve_does_before_starting_it() -> None:
    migrate, collectstatic, honcho = serve_recipe()

    assert migrate == "$(PYTHON) manage.py migrate_as_owner"
    assert SERVICES["migrate"]["command"] == ["sh", "-c", in_the_image(migrate)]
    assert collectstatic == "$(PYTHON) manage.py collectstatic --noinput"
    assert in_the_image(collectstatic) in DOCKERFILE
    assert "honcho start --procfile Procfile" in honcho
    # Every server process waits for the migrations to have finished.
    for name in ("web1", "web2", "worker", "beat"):
        assert SERVICES[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def test_the_variables_of_the_procfile_are_set_by_make_serve_and_by_compose() -> None:
    used = {name for line in PROCFILE.values() for name in re.findall(r"\$(\w+)", line)}
    honcho = serve_recipe()[-1]

    assert used == {"ATU_BIND", "ATU_WEB1_PORT", "ATU_WEB2_PORT", "ATU_FRONT", "ATU_UPSTREAMS"}
    assert {name for name in used if f"{name}=" in honcho} == used
    for name in PROCFILE:
        assert used <= set(SERVICES[name]["environment"]), name


def test_the_site_runs_in_production_mode_on_composes_database_and_redis() -> None:
    for name in [*PROCFILE, "migrate"]:
        environment = SERVICES[name]["environment"]
        assert environment["DATABASE_URL"] == (
            "postgres://atu_app:${ATU_APP_PASSWORD:?set ATU_APP_PASSWORD}@postgres:5432/atu"
        ), name
        assert environment["DATABASE_OWNER_URL"] == (
            "postgres://atu:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/atu"
        ), name
        assert environment["REDIS_URL"] == "redis://redis:6379/0", name
        assert environment["SECRET_KEY"] == "${SECRET_KEY:?set SECRET_KEY}", name
    assert SERVICES["front"]["ports"] == ["${PORT:-8000}:8000"]
    assert SERVICES["front"]["environment"]["ATU_FRONT"] == "0.0.0.0:8000"
