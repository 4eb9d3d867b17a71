"""docker/nginx.conf in front of two real server processes: every socket of one game
reaches one process, and everything else is spread over both (production mode)."""

from __future__ import annotations

import subprocess
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from websockets.sync.client import connect
from websockets.typing import Origin

from config.front import NGINX, nginx_command, nginx_config
from tests.games.drivers import seated_game
from tests.games.test_two_processes import (
    STARTUP_SECONDS,
    TIMEOUT,
    free_port,
    get_json,
    production_only,
    receive,
    servers,
)

pytestmark = [pytest.mark.django_db(transaction=True), production_only]


@contextmanager
def front(upstreams: list[str], directory: Path) -> Iterator[str]:
    """nginx with the shipped configuration in front of ``upstreams``; its host:port."""
    port = free_port()
    config = directory / "nginx.conf"
    config.write_text(nginx_config(f"127.0.0.1:{port}", upstreams))
    log = directory / "nginx.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            nginx_command(config),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(f"nginx exited:\n{log.read_text()}")
            try:
                get_json(f"http://{address}/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"nginx did not answer in {STARTUP_SECONDS} s:\n{log.read_text()}")
                time.sleep(0.1)
        yield address
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)


def served_by(logs: list[Path], path: str) -> list[int]:
    """Which servers' access logs hold requests for ``path``, by number."""
    return [number for number, log in enumerate(logs) if path in log.read_text()]


@pytest.mark.skipif(not Path(NGINX).exists(), reason="needs Debian's nginx (make test installs it)")
def test_the_front_routes_every_socket_of_a_game_to_one_process_and_spreads_the_rest(
    tmp_path: Path,
) -> None:
    # Given 16 games, and the shipped front before two server processes
    games: list[uuid.UUID] = [seated_game(4, "championship")[0] for _ in range(16)]
    with servers(2, tmp_path) as upstreams, front(upstreams, tmp_path) as address:
        # When each game is opened by three sockets through the front, one of them a
        # client coming back with its last version
        for game_id in games:
            for query in ("", "", "?with_state=changes&after=1"):
                with connect(
                    f"ws://{address}/ws/games/{game_id}/{query}",
                    origin=Origin(f"http://{address}"),
                    open_timeout=TIMEOUT,
                ) as socket:
                    # The whole state, or what came after the client's version
                    assert receive(socket)["type"] == ("events" if query else "state")
        # And other requests come through it too
        for _ in range(24):
            with urllib.request.urlopen(f"http://{address}/healthz", timeout=TIMEOUT) as answer:
                assert answer.status == 200

    # Then every socket of a game reached one and the same process
    logs = [tmp_path / "server-0.log", tmp_path / "server-1.log"]
    placed = [served_by(logs, f"/ws/games/{game_id}/") for game_id in games]
    assert all(len(servers_of_game) == 1 for servers_of_game in placed), placed
    # And the games, and the other requests, were spread over both processes
    assert {servers_of_game[0] for servers_of_game in placed} == {0, 1}
    assert served_by(logs, "GET /healthz") == [0, 1]
