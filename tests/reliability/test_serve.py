"""`make serve` as a deployment runs it (production mode): the site comes up behind its
nginx front, a whole game is played through the front over HTTP and a WebSocket (one
seat by a bot in the Celery worker), static files come hashed, compressed and cached
for good, and an interrupt stops every process it started."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from accounts.models import User
from accounts.services import user_token
from config.front import NGINX
from config.settings.environment import BASE_DIR
from games.bots import BOTS
from games.rules import Phase, Visibility, legal_bids, legal_plays
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import user_to_act
from tests.games.live.test_two_processes import (
    TIMEOUT,
    free_port,
    game_socket,
    post_json,
    production_only,
    receive,
    session_cookie,
    this_tests_database_url,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    production_only,
    pytest.mark.skipif(
        not Path(NGINX).exists(), reason="needs Debian's nginx (make test installs it)"
    ),
]

# Migrations, collectstatic and five processes on two cores.
STARTUP_SECONDS = 90
GAME_SECONDS = 180
# What honcho gives its processes to stop before it kills them, and some.
STOP_SECONDS = 30
# Three players, deals of 1, 3, 5, 7, 8, 7, 5, 3 and 1 cards: about 150 moves.
SHORT_RULES = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}
# whitenoise's answer for a file whose name carries its hash: keep it for ten years.
FOREVER = "max-age=315360000, public, immutable"


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def descendants(root: int) -> dict[int, str]:
    """Every process under ``root`` (by parent pid, through new sessions), with its
    command line."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        # The command name may hold spaces and brackets: the fields come after the last ")".
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        commands[int(entry.name)] = command.strip()
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found[child] = commands[child]
                todo.append(child)
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextmanager
def make_serve(log: Path) -> Iterator[tuple[list[str], subprocess.Popen[bytes]]]:
    """`make serve` on free ports and this test's database; the host:port of its front,
    then of its two servers."""
    port, web1, web2 = free_port(), free_port(), free_port()
    venv = Path(sys.executable).parent.parent
    env = {**os.environ, "DATABASE_URL": this_tests_database_url(), "ATU_BOT_DELAY_SECONDS": "0"}
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                "make",
                # The virtualenv running this test is installed already.
                *("-o", f"{venv}/.installed"),
                "serve",
                f"VENV={venv}",
                f"PORT={port}",
                f"WEB1_PORT={web1}",
                f"WEB2_PORT={web2}",
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            # Its own process group, to be interrupted as a terminal's Ctrl-C would.
            start_new_session=True,
        )
    try:
        yield [f"127.0.0.1:{number}" for number in (port, web1, web2)], process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def wait_until_ready(process: subprocess.Popen[bytes], address: str, log: Path) -> Any:
    """``address``'s /readyz once it is 200."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"make serve exited:\n{log.read_text()[-5000:]}")
        try:
            status, _, body = get(f"http://{address}/readyz")
        except OSError:
            status = 0
        if status == 200:
            return json.loads(body)
        time.sleep(0.5)
    pytest.fail(f"{address} was not ready in {STARTUP_SECONDS} s:\n{log.read_text()[-5000:]}")


def drain(socket: ClientConnection) -> int | None:
    """Read what the socket has so far; the last version it was sent."""
    version = None
    while True:
        try:
            message = receive_now(socket)
        except TimeoutError:
            return version
        version = message.get("version", version)


def receive_now(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=0.01))
    return message


def play_through_the_front(
    front: str, game_id: uuid.UUID, users: list[User], socket_user: User
) -> int:
    """Every human move of the game, over the front: ``socket_user``'s over its socket,
    the others' through the API; the bot's seat is played by the worker. The last
    version the socket was sent."""
    rng = random.Random(0)
    tokens = {user.pk: user_token(user=user) for user in users}
    last_seen = 0
    with game_socket(front, game_id, session_cookie(socket_user)) as socket:
        last_seen = receive(socket)["version"]
        deadline = time.monotonic() + GAME_SECONDS
        while (table := load_table(game_id)).status != "finished":
            assert time.monotonic() < deadline, f"the game stalled at version {table.version}"
            last_seen = drain(socket) or last_seen
            if table.bots[table.game.turn] is not None:
                time.sleep(0.02)
                continue
            command, body = move(table, rng)
            actor = user_to_act(table, users)
            if actor == socket_user:
                socket.send(json.dumps({"type": command, **body}))
                while (answer := receive(socket))["type"] == "events":
                    last_seen = answer["version"]
                assert answer["type"] == "ack", answer
            else:
                path = command.replace("_", "-")
                status, answer = post_json(
                    f"http://{front}/api/games/{game_id}/{path}/", body, tokens[actor.pk]
                )
                assert status == 200, answer
        # Every event reaches the socket, up to the last.
        while last_seen < table.version:
            last_seen = receive(socket).get("version", last_seen)
    return last_seen


def move(table: Any, rng: random.Random) -> tuple[str, dict[str, Any]]:
    game = table.game
    body: dict[str, Any] = {"expected_version": table.version}
    if game.phase is Phase.BIDDING:
        return "bid", {**body, "bid": rng.choice(legal_bids(game))}
    if game.phase is Phase.CHOOSING_MODE:
        return "one_card_mode", {**body, "mode": rng.choice(list(Visibility)).value}
    assert game.phase is Phase.PLAYING, game.phase
    return "play", {**body, "card": str(rng.choice(legal_plays(game)))}


def test_make_serve_plays_a_game_through_the_front_and_stops_every_process(
    tmp_path: Path,
) -> None:
    users = UserFactory.create_batch(3)
    creator, other, botted = users
    log = tmp_path / "serve.log"
    with make_serve(log) as ([front, *servers], process):
        # Given the site, both servers ready (the front's answer comes from either)
        ready = [wait_until_ready(process, address, log) for address in [*servers, front]]
        started = descendants(process.pid)

        # When three players join a short game through the front, one seat played by a bot
        status, game = post_json(
            f"http://{front}/api/games/",
            {"player_count": 3, "preset": "championship", "options": SHORT_RULES},
            user_token(user=creator),
        )
        assert status == 201, game
        game_id = uuid.UUID(game["id"])
        for number, user in enumerate(users):
            status, answer = post_json(
                f"http://{front}/api/games/{game_id}/join/",
                {"alias": f"Player {number + 1}"},
                user_token(user=user),
            )
            assert status == 200, answer
        seat = load_table(game_id).seat_of(botted.pk)
        status, answer = post_json(
            f"http://{front}/api/games/{game_id}/seat-bot/",
            {"seat": seat, "bot": sorted(BOTS)[0]},
            user_token(user=creator),
        )
        assert status == 200, answer
        # And the others play it out, one through the API, one over its socket
        last_seen = play_through_the_front(front, game_id, users, other)
        _, _, record = get(f"http://{front}/api/games/{game_id}/")

        # And a page's stylesheet is fetched as a browser would
        _, _, page = get(f"http://{front}/")
        stylesheet = re.search(r'href="(/static/atu/site\.[0-9a-f]{12}\.css)"', page.decode())
        assert stylesheet is not None, page.decode()[:2000]
        css_status, css_headers, css = get(
            f"http://{front}{stylesheet[1]}", {"Accept-Encoding": "gzip"}
        )

        # And a client names its own request id
        _, id_headers, _ = get(f"http://{front}/healthz", {"X-Request-ID": "client-chosen"})

        # And the site is interrupted
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=STOP_SECONDS)

    # Then it was ready with every check answering
    checks = {"database": "ok", "redis": "ok", "celery": "ok"}
    assert ready == [{"status": "ok", "checks": checks}] * 3
    # And the game was played to its end, every move reaching the socket
    table = load_table(game_id)
    assert table.status == "finished"
    assert json.loads(record)["status"] == "finished"
    assert last_seen == table.version
    # And the stylesheet came by its hashed name, compressed, to be kept for good
    assert css_status == 200
    assert css_headers["Content-Encoding"] == "gzip"
    assert css_headers["Cache-Control"] == FOREVER
    assert css[:2] == b"\x1f\x8b"
    # And the front gave the request an id of its own
    assert re.fullmatch(r"[0-9a-f]{32}", id_headers["X-Request-ID"])
    # And the processes were those of the Procfile, and none of them outlived the stop
    commands = list(started.values())
    assert sum("bin/uvicorn config.asgi:application" in command for command in commands) == 2
    assert any("celery -A config worker" in command for command in commands)
    assert any("celery -A config beat" in command for command in commands)
    assert any(command.startswith("nginx: master process") for command in commands)
    assert [command for pid, command in started.items() if running(pid)] == []
