"""Two real server processes behind one game: a move made through one reaches a
spectator connected to the other, through Redis (production mode only).

The servers are uvicorn processes like production's, run on this test's database;
the test makes a card play through process A's REST API and another over a
WebSocket on A, and a spectator's WebSocket on process B receives both.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
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
from django.test import Client
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.services import user_token
from config.settings.environment import BASE_DIR
from games.rules import Phase, legal_plays
from games.write.tables import load_table
from tests.games.drivers import next_move, seated_game, user_to_act
from tests.games.web.test_api_leaks import Knowledge, check_events, check_state

production_only = pytest.mark.skipif(
    settings.ENV.redis_url is None
    or settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs Redis and PostgreSQL shared by two server processes (production mode)",
)
pytestmark = [pytest.mark.django_db(transaction=True), production_only]

UVICORN = Path(sys.executable).with_name("uvicorn")
STARTUP_SECONDS = 30
TIMEOUT = 10


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def this_tests_database_url() -> str:
    """The URL of this test's own database (``test_…``), which the servers must use."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return json.load(response)


def post_json(url: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def wait_until_healthy(process: subprocess.Popen[bytes], address: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server on {address} exited:\n{log.read_text()}")
        try:
            health = get_json(f"http://{address}/healthz")
        except OSError:
            time.sleep(0.2)
            continue
        assert health == {"status": "ok"}
        return
    pytest.fail(
        f"the server on {address} did not answer in {STARTUP_SECONDS} s:\n{log.read_text()}"
    )


def serve(
    env: dict[str, str], port: int, log: Path, *, session: bool = False
) -> subprocess.Popen[bytes]:
    """A uvicorn process of the site, as production serves it, on 127.0.0.1:``port``,
    its output in ``log`` (``session``: in a process group of its own)."""
    with log.open("wb") as output:
        return subprocess.Popen(
            [
                str(UVICORN),
                "config.asgi:application",
                *("--host", "127.0.0.1", "--port", str(port), "--lifespan", "on"),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=session,
        )


@contextmanager
def servers(count: int, logs: Path) -> Iterator[list[str]]:
    """``count`` uvicorn processes on this test's database; their host:port."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": this_tests_database_url(),
    }
    started: list[tuple[subprocess.Popen[bytes], str, Path]] = []
    try:
        for number in range(count):
            port = free_port()
            log = logs / f"server-{number}.log"
            process = serve(env, port, log)
            started.append((process, f"127.0.0.1:{port}", log))
        for process, address, log in started:
            wait_until_healthy(process, address, log)
        yield [address for _, address, _ in started]
    finally:
        for process, _, _ in started:
            process.terminate()
        for process, _, _ in started:
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def game_socket(address: str, ref: object, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else None
    return connect(
        f"ws://{address}/ws/games/{ref}/",
        origin=Origin(f"http://{address}"),
        additional_headers=headers,
        open_timeout=TIMEOUT,
    )


def receive(websocket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(websocket.recv(timeout=TIMEOUT))
    return message


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def test_a_spectator_on_one_process_sees_moves_made_through_the_other(tmp_path: Path) -> None:
    game_id, users = seated_game(4, "championship")
    # The first hand has one card each: bid it through, up to the first card.
    rng = random.Random(0)
    while load_table(game_id).game.phase is not Phase.PLAYING:
        assert next_move(game_id, users, rng)

    with servers(2, tmp_path) as (a, b), game_socket(b, game_id) as spectator:
        state = receive(spectator)
        assert state["type"] == "state"
        check_state(state["state"], Knowledge(game_id), None, "the spectator on B")
        version = state["version"]

        # A card played through A's REST API.
        table = load_table(game_id)
        player = user_to_act(table, users)
        card = str(legal_plays(table.game)[0])
        status, answer = post_json(
            f"http://{a}/api/games/{game_id}/play/",
            {"card": card, "expected_version": version},
            user_token(user=player),
        )
        assert status == 200, answer
        seen = receive(spectator)

        assert seen["type"] == "events"
        assert seen["version"] == answer["version"]
        assert seen["events"][0]["sequence"] == version + 1
        assert seen["events"][0]["type"] == "CardPlayed"
        assert seen["events"][0]["payload"]["card"] == card
        assert seen["events"][-1]["sequence"] == seen["version"]
        check_events(seen["events"], Knowledge(game_id), None, "the spectator on B")

        # The next card, played over a WebSocket on A.
        table = load_table(game_id)
        player = user_to_act(table, users)
        card = str(legal_plays(table.game)[0])
        with game_socket(a, game_id, session_cookie(player)) as playing:
            assert receive(playing)["version"] == seen["version"]
            playing.send(json.dumps({"type": "play", "card": card}))
            ack = receive(playing)
        seen_again = receive(spectator)

        assert ack == {"type": "ack", "version": seen_again["version"], "command": "play"}
        assert seen_again["events"][0]["sequence"] == seen["version"] + 1
        assert seen_again["events"][0]["payload"]["card"] == card
        check_events(seen_again["events"], Knowledge(game_id), None, "the spectator on B")
