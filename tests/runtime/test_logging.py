"""A served process logs JSON lines on stdout: each with the request's id and the game
it names, and errors with their tracebacks; SENTRY_DSN turns Sentry on."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from config.settings.environment import BASE_DIR
from tests.games.live.test_two_processes import TIMEOUT
from tests.runtime.test_health import production_refusing_env, served


def get(url: str, request_id: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"X-Request-ID": request_id})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.headers["X-Request-ID"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["X-Request-ID"]


def json_lines(log: Path) -> list[dict[str, Any]]:
    """Every line of the log, each of which must be a JSON object."""
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_served_process_logs_json_with_request_ids_games_and_tracebacks(
    tmp_path: Path,
) -> None:
    # Given a server whose database refuses
    log = tmp_path / "server.log"
    with served(production_refusing_env(), log) as address:
        # When a request is answered, one about a game fails, and a page fails (both
        # told the database is unavailable)
        answered = get(f"http://{address}/healthz", "req-ok")
        game_failed = get(f"http://{address}/api/games/ab12cd/", "req-game")
        page_failed = get(f"http://{address}/", "req-page")
    lines = json_lines(log)

    # Then each answer returns its request id
    assert answered == (200, "req-ok")
    assert game_failed == (503, "req-game")
    assert page_failed == (503, "req-page")
    # And the API's error is logged with the request id, the game and the traceback
    [api_error] = [line for line in lines if line["logger"] == "atu.api"]
    assert api_error["level"] == "ERROR"
    assert api_error["request_id"] == "req-game"
    assert api_error["game"] == "ab12cd"
    assert api_error["traceback"].startswith("Traceback (most recent call last):")
    assert "OperationalError" in api_error["traceback"]
    # And the page's error likewise, with no game
    [page_error] = [line for line in lines if line["logger"] == "atu.pages"]
    assert page_error["level"] == "ERROR"
    assert page_error["request_id"] == "req-page"
    assert page_error["message"] == "database unavailable for /"
    assert "OperationalError" in page_error["traceback"]
    assert "game" not in page_error
    # And the server's access lines carry the request id too
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    ids = [line.get("request_id") for line in access]
    assert None not in ids
    assert {"req-ok", "req-game", "req-page"} <= set(ids)
    # And the startup's failure to resume automatic moves, in the background and
    # outside any request
    resume = [line for line in lines if line["logger"] == "atu.lifespan"]
    assert (resume[0]["level"], resume[0]["message"]) == (
        "INFO",
        "resuming automatic moves",
    )
    [startup] = [line for line in resume if line["level"] == "ERROR"]
    assert "request_id" not in startup
    assert "OperationalError" in startup["traceback"]


@pytest.mark.parametrize("given", [None, "", "two words", "x" * 101, "id\nforged line"])
def test_a_request_without_a_usable_id_is_given_a_new_one(
    client: Client, given: str | None
) -> None:
    headers = {} if given is None else {"X-Request-ID": given}

    first = client.get("/healthz", headers=headers)["X-Request-ID"]
    second = client.get("/healthz", headers=headers)["X-Request-ID"]

    assert re.fullmatch(r"[0-9a-f]{32}", first)
    assert re.fullmatch(r"[0-9a-f]{32}", second)
    assert first != second


def test_a_front_request_id_is_kept(client: Client) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "5f0c2b9e.front-1_a"})

    assert response["X-Request-ID"] == "5f0c2b9e.front-1_a"


@pytest.mark.parametrize(("dsn", "active"), [("https://key@127.0.0.1:1/1", True), ("", False)])
def test_sentry_reports_only_when_sentry_dsn_is_set(dsn: str, active: bool) -> None:
    script = (
        "import django, sentry_sdk; django.setup(); "
        "print(sentry_sdk.get_client().is_active(), sentry_sdk.get_client().dsn)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SENTRY_DSN": dsn},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{active} {dsn or None}\n"


def test_a_body_over_the_limit_is_logged_as_a_clients_fault_not_a_server_error(
    logged_in_client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a signed-in user, when they post a form larger than the site accepts
    body = {"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)}
    with caplog.at_level(logging.INFO):
        response = logged_in_client.post("/games/new/", body)

    # Then it is refused with a 413, and logged as a warning: nothing went wrong here
    assert response.status_code == 413
    too_big = [r for r in caplog.records if r.name == "django.security.RequestDataTooBig"]
    assert [r.levelname for r in too_big] == ["WARNING"]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
