"""PostgreSQL restarted during live play (decision 3702).

A site of its own, as production runs it (a uvicorn process and a Celery worker on a
PostgreSQL cluster and a Redis of the test's, tests.pgcluster), a player at a table of
bots playing over the REST API and a WebSocket. The database stops mid-game: each
move sent meanwhile is refused, ``503 database_unavailable`` with ``Retry-After`` on
the API and an ``error`` of that code on the socket, never a 500 and never half
written. It starts again: without any process restarted, the same moves are
accepted, the bots play on, the socket is sent what happens, and the log holds every
acknowledged move once.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from config.settings.environment import BASE_DIR
from tests.games.live.test_two_processes import free_port
from tests.pgcluster import Answer, call, clusters, needs_postgresql, production_env, site
from tests.reliability.conftest import stop

pytestmark = [
    needs_postgresql,
    pytest.mark.skipif(
        shutil.which("redis-server") is None,
        reason="starts a Redis of its own (broker and channel layer): needs redis-server",
    ),
]

TIMEOUT = 10
# How long the site may take to play on once the database is back: a worker's task
# that failed meanwhile retries after 1, 2, 4 … seconds.
RESUME_SECONDS = 30
# Moves made before the restarts, and after them.
MOVES_BEFORE = 4
MOVES_AFTER = 6
# A bot's move is due this long after the turn comes to it: within the outage that
# follows a move of the player's, which lasts longer than the worker waits for a
# connection (DATABASE_POOL_TIMEOUT), so that its task fails and retries.
BOT_DELAY_SECONDS = 1.0
POOL_TIMEOUT_SECONDS = 2
OUTAGE_SECONDS = 6.0


@contextmanager
def redis_server(root: Path) -> Iterator[str]:
    """A Redis of the test's own, keeping nothing on disk; its URL."""
    port = free_port()
    process = subprocess.Popen(
        [
            *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--dir", str(root)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while (
            subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, check=False
            ).stdout.strip()
            != b"PONG"
        ):
            assert process.poll() is None and time.monotonic() < deadline, "no Redis"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


@contextmanager
def worker(env: dict[str, str], log: Path) -> Iterator[None]:
    """A Celery worker as production runs it, on ``env``'s database and broker."""
    with log.open("ab") as output:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo"),
                *("--without-gossip", "--without-mingle", "--loglevel=INFO"),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while "ready." not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield
    finally:
        stop(process)


@dataclass
class Player:
    """The one person at a table of bots: their token, session, socket and moves."""

    address: str
    token: str
    cookie: str
    code: str = ""
    socket: ClientConnection | None = None
    # Each acknowledged move: the version it was decided at, and what it was.
    acknowledged: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    # The highest version the socket was sent.
    seen: int = 0

    @classmethod
    def sign_up(cls, address: str, name: str) -> Player:
        password = "a long enough password 1"
        registered = call(
            address, "POST", "/api/auth/register/", {"username": name, "password": password}
        )
        assert registered.status == 201, registered.body
        request = urllib.request.Request(
            f"http://{address}/api/auth/login/",
            data=json.dumps({"username": name, "password": password}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            cookies = [value.split(";")[0] for value in response.headers.get_all("Set-Cookie")]
        cookie = "; ".join(cookies)
        return cls(address, registered.body["token"], cookie)

    def another_socket(self, *, signed_in: bool = True) -> ClientConnection:
        """One more socket on the table: this player's, or an anonymous spectator's."""
        return connect(
            f"ws://{self.address}/ws/games/{self.code}/",
            origin=Origin(f"http://{self.address}"),
            additional_headers={"Cookie": self.cookie} if signed_in else None,
            open_timeout=TIMEOUT,
        )

    @contextmanager
    def at_a_table_of_bots(self) -> Iterator[None]:
        """Sit down with bots, and follow the table on a socket."""
        answer = call(
            self.address,
            "POST",
            "/api/games/play-now/",
            {"player_count": 3, "level": "easy"},
            self.token,
        )
        assert answer.status == 201, answer.body
        self.code = answer.body["code"]
        with self.another_socket() as self.socket:
            state = self.receive()
            assert state["type"] == "state", state
            yield

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        assert self.socket is not None
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        if message["type"] in ("state", "events"):
            self.seen = max(self.seen, message["version"])
        return message

    def state(self) -> dict[str, Any]:
        answer = call(self.address, "GET", f"/api/games/{self.code}/", token=self.token)
        assert answer.status == 200, (answer.status, answer.body)
        return dict(answer.body)

    def my_turn(
        self, seconds: float = RESUME_SECONDS
    ) -> tuple[dict[str, Any], str, dict[str, Any]]:
        """Wait until the bots have played up to this player's turn; the game, and the
        move to make (its command and content)."""
        deadline = time.monotonic() + seconds
        while True:
            state = self.state()
            legal = state["legal"]
            if legal["bids"]:
                return state, "bid", {"bid": legal["bids"][0]}
            if legal["cards"] or legal["hidden_card"]:
                return state, "play", {"card": legal["cards"][0] if legal["cards"] else None}
            if legal["modes"]:
                return state, "one_card_mode", {"mode": legal["modes"][0]}
            assert state["status"] == "playing", state["status"]
            assert time.monotonic() < deadline, f"the bots did not play on: {state}"
            time.sleep(0.1)

    def move_by_api(self, command: str, content: dict[str, Any], version: int) -> Answer:
        path = {"bid": "bid", "play": "play", "one_card_mode": "one-card-mode"}[command]
        body = {**content, "expected_version": version}
        return call(self.address, "POST", f"/api/games/{self.code}/{path}/", body, self.token)

    def move_by_socket(self, command: str, content: dict[str, Any], version: int) -> dict[str, Any]:
        """Send a move on the socket; its ack or error (events sent meanwhile noted)."""
        assert self.socket is not None
        self.socket.send(json.dumps({"type": command, **content, "expected_version": version}))
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error"):
                return message

    def caught_up(self) -> None:
        """Wait until the socket has been sent the game as it stands."""
        version = self.state()["version"]
        while self.seen < version:
            self.receive()

    def play(self, moves: int) -> None:
        """Make ``moves`` moves, by the API and the socket in turn."""
        for number in range(moves):
            state, command, content = self.my_turn()
            version = state["version"]
            if number % 2 == 0:
                answer = self.move_by_api(command, content, version)
                assert answer.status == 200, (answer.status, answer.body)
            else:
                ack = self.move_by_socket(command, content, version)
                assert ack["type"] == "ack", ack
            self.acknowledged.append((version, command, content))


def check_log(player: Player) -> None:
    """The game's log numbered 1, 2, … without a gap; no seat bid twice nor played a
    card twice in a deal; each acknowledged move once, where it was decided."""
    answer = call(
        player.address, "GET", f"/api/games/{player.code}/events/?after=0", token=player.token
    )
    assert answer.status == 200, answer.body
    events = answer.body["events"]
    assert [event["sequence"] for event in events] == list(range(1, len(events) + 1))
    moves = Counter(
        (event["type"], event["payload"]["hand"], event["payload"]["seat"])
        for event in events
        if event["type"] == "BidPlaced"
    ) + Counter(
        (event["type"], event["payload"]["hand"], event["payload"]["card"])
        for event in events
        if event["type"] == "CardPlayed"
    )
    assert max(moves.values()) == 1, moves.most_common(3)
    seat = player.state()["you"]
    kinds = {"bid": "BidPlaced", "play": "CardPlayed", "one_card_mode": "OneCardModeChosen"}
    for version, command, content in player.acknowledged:
        event = events[version]
        assert (event["type"], event["payload"]["seat"]) == (kinds[command], seat), event
        for name, value in content.items():
            if value is not None:
                assert event["payload"][name] == value, (event, content)


def test_a_database_restarted_mid_game_refuses_moves_with_503_then_play_resumes_by_itself(
    tmp_path: Path,
) -> None:
    with clusters() as made, redis_server(tmp_path) as redis:
        # Given a site on a database of its own, a worker playing the bots, and a player
        # at a table of bots who has moved by the API and the socket
        primary = made.primary()
        env = production_env(
            primary,
            REDIS_URL=redis,
            ATU_BOT_DELAY_SECONDS=str(BOT_DELAY_SECONDS),
            DATABASE_CONNECT_TIMEOUT="2",
            DATABASE_POOL_TIMEOUT=str(POOL_TIMEOUT_SECONDS),
        )
        with site(env, tmp_path / "server.log") as address, worker(env, tmp_path / "worker.log"):
            player = Player.sign_up(address, "ana")
            with player.at_a_table_of_bots():
                player.play(MOVES_BEFORE)

                # When the database stops
                state, command, content = player.my_turn()
                primary.stop()

                # Then a move by the API is refused with 503 and Retry-After, and one on
                # the socket with an error of the same code; the socket stays open
                refused = player.move_by_api(command, content, state["version"])
                assert refused.status == 503, (refused.status, refused.body)
                assert refused.body["code"] == "database_unavailable"
                assert refused.headers["retry-after"] == "5"
                error = player.move_by_socket(command, content, state["version"])
                assert (error["type"], error["code"], error["command"]) == (
                    "error",
                    "database_unavailable",
                    command,
                )

                # And a socket opened meanwhile, the player's or a spectator's, is told
                # so, then closed to be opened again later
                for signed_in in (True, False):
                    with player.another_socket(signed_in=signed_in) as late:
                        said = json.loads(late.recv(timeout=TIMEOUT))
                        assert (said["type"], said["code"]) == ("error", "database_unavailable")
                        with pytest.raises(ConnectionClosed) as closed:
                            late.recv(timeout=TIMEOUT)
                        assert closed.value.rcvd is not None
                        assert closed.value.rcvd.code == 1013

                # When it starts again, no process of the site restarted
                primary.start()

                # Then the same move is accepted at once, by the API
                accepted = player.move_by_api(command, content, state["version"])
                assert accepted.status == 200, (accepted.status, accepted.body)
                player.acknowledged.append((state["version"], command, content))

                # When the database is down again while the bots are to play
                primary.stop()
                time.sleep(OUTAGE_SECONDS)
                primary.start()

                # Then the bots play on by themselves (the worker's moves that failed
                # meanwhile retried), the socket is sent what they do, and the player
                # plays on by the API and the socket
                player.play(MOVES_AFTER)
                player.caught_up()
                assert "Retry in" in (tmp_path / "worker.log").read_text()

                # And the log holds every acknowledged move once, where it was decided
                check_log(player)
