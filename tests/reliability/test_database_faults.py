"""Faults of the database under the production site (production mode only: real
uvicorn processes and Celery workers on PostgreSQL and Redis).

- The worker's database connections terminated mid-round, again and again: every
  table finishes, though no beat runs to make up a lost move.
- A database that accepts connections and never answers: an API request is
  answered, within a bounded time, with 503 ``database_unavailable`` and
  ``Retry-After``, a page with a 503 page and ``Retry-After``, an event's socket with
  ``database_unavailable`` and a close (1013), and ``/readyz`` with 503 in JSON.
"""

from __future__ import annotations

import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from eventlog import store
from games.models import Game
from games.table import stream_of
from runtime.sockets import CLOSE_TRY_AGAIN
from tests.games.live.test_two_processes import (
    free_port,
    production_only,
    serve,
    wait_until_healthy,
)
from tests.reliability.conftest import stop, worker
from tests.reliability.test_faults import check_log, where_the_round_stands
from tests.tournaments.drivers import bot_event, round_games, wait_until
from tournaments import services as tournaments
from tournaments.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), production_only]

# Beat's production period: a round that needed it would take at least this long.
BEAT_PERIOD_SECONDS = 60
TERMINATIONS = 5


WORKER_APPLICATION = "atu-test-worker"


def terminate_workers_backends() -> int:
    """End the worker's sessions on this test's database: each one's statement in
    flight fails, and its next use finds it closed. How many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [WORKER_APPLICATION],
        )
        (count,) = cursor.fetchone()
    return int(count)


def test_a_round_finishes_without_beat_while_the_workers_connections_are_terminated(
    tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a round of three bot tables under way, played by a worker (its sessions
    # named by libpq's variable), and no beat
    settings.ATU_BOT_DELAY_SECONDS = 0
    event, creator = bot_event(players=12, rounds=1)
    monkeypatch.setenv("PGAPPNAME", WORKER_APPLICATION)
    with worker(tmp_path / "worker.log"):
        monkeypatch.delenv("PGAPPNAME")
        started = time.monotonic()
        tournaments.event_start_round(event_id=event.id, actor=creator)
        games = [game.id for game in round_games(event.id, 1)]

        # When the worker's connections are terminated again and again mid-round
        terminated = 0
        for step in range(1, TERMINATIONS + 1):
            wait_until(
                lambda step=step: sum(store.version(stream_of(g)) for g in games) > 60 * step,
                60,
                f"the round under way ({step})",
            )
            terminated += terminate_workers_backends()
        left = Game.objects.filter(pk__in=games).exclude(status=Game.Status.FINISHED).count()
        assert left > 0, "the round ended before the last termination"
        assert terminated >= TERMINATIONS, terminated

        # Then every table finishes and the standings are written, sooner than beat's
        # next check could have made up a lost move
        try:
            wait_until(
                lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
                BEAT_PERIOD_SECONDS,
                "the round finished and its standings written",
            )
        except AssertionError as error:
            raise AssertionError(f"{error}; {where_the_round_stands(event.id, games)}") from None
    assert time.monotonic() - started < BEAT_PERIOD_SECONDS

    # And every game's log holds each bid and card once; the terminations did reach
    # tasks, which retried
    for game_id in games:
        check_log(game_id)
    log = (tmp_path / "worker.log").read_text()
    assert "OperationalError('terminating connection due to administrator command" in log


# --- A database that never answers ----------------------------------------------------------

POOL_TIMEOUT_SECONDS = 2
# What a request may take: the pool's wait, and the process's own slack on a busy machine.
ANSWER_SECONDS = POOL_TIMEOUT_SECONDS + 6


@contextmanager
def silent_database() -> Iterator[str]:
    """A "database" that takes connections and never says a word; its URL."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        yield f"postgres://atu@127.0.0.1:{silent.getsockname()[1]}/atu"


def request(url: str) -> tuple[int, dict[str, str], Any]:
    """Status, headers (by lower-case name) and JSON body of a GET, whatever the status."""
    status, headers, body = request_page(url)
    return status, headers, json.loads(body)


def request_page(url: str) -> tuple[int, dict[str, str], str]:
    """Status, headers (by lower-case name) and text of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    return status, {name.lower(): value for name, value in headers.items()}, body.decode()


def test_a_database_that_never_answers_gets_api_requests_a_503_in_bounded_time(
    tmp_path: Path,
) -> None:
    # Given a server process whose database accepts connections and never answers
    log = tmp_path / "server.log"
    port = free_port()
    address = f"127.0.0.1:{port}"
    with silent_database() as database:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database,
            "REDIS_URL": settings.ENV.redis_url,
            "SECRET_KEY": "x" * 50,
            "DATABASE_POOL_TIMEOUT": str(POOL_TIMEOUT_SECONDS),
            "DATABASE_CONNECT_TIMEOUT": "1",
        }
        server = serve(env, port, log, session=True)
        try:
            wait_until_healthy(server, address, log)

            # When a client asks the API for the games
            start = time.monotonic()
            status, headers, body = request(f"http://{address}/api/games/")
            took = time.monotonic() - start

            # Then it is told, in bounded time, that the database is unavailable
            assert (status, body["code"]) == (503, "database_unavailable"), log.read_text()
            assert headers["retry-after"] == "5"
            assert took < ANSWER_SECONDS, took

            # And a page (the lobby, the events) says to come back, with Retry-After,
            # rather than that something went wrong
            for page in ("/", "/events/"):
                status, headers, text = request_page(f"http://{address}{page}")
                assert (status, headers["retry-after"]) == (503, "5"), (page, text)
                assert "<h1>Back in a moment</h1>" in text

            # And an event's socket, and a table's desk, are told so as they open, and
            # closed with "try again later"
            for path in ("/ws/events/ABC123/", "/ws/events/ABC123/tables/DEF456/"):
                with connect(
                    f"ws://{address}{path}",
                    origin=Origin(f"http://{address}"),
                    open_timeout=ANSWER_SECONDS,
                ) as socket_:
                    told = json.loads(socket_.recv(timeout=ANSWER_SECONDS))
                    with pytest.raises(ConnectionClosed):
                        socket_.recv(timeout=ANSWER_SECONDS)
                assert (told["type"], told["code"]) == ("error", "database_unavailable"), path
                assert socket_.close_code == CLOSE_TRY_AGAIN, path

            # And readiness says so in JSON
            status, headers, body = request(f"http://{address}/readyz")
            assert status == 503
            assert headers["content-type"] == "application/json"
            assert body["status"] == "unavailable"
            assert body["checks"]["database"] in {"timeout", "unavailable"}
        finally:
            stop(server)
