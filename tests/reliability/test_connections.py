"""A served process holds at most its pools' database connections, however many
requests and socket commands it serves, and gives back what it took beyond the
pool's minimum once the load is over (production mode only). Its requests and
commands use its threads' pool; live moves written from its event loop, the loop's
own, of the same size and a minimum of none (decision 0101).

The server is a uvicorn process as production runs it, on this test's database,
with a small pool (``POOL``) so that the bound is reached: at most
``DATABASE_POOL_MAX_SIZE`` connections under load, and exactly
``DATABASE_POOL_MIN_SIZE`` once the load is over and each connection above it has
been unused for ``DATABASE_POOL_MAX_IDLE`` seconds (a second here, a minute by
default). Its connections are told apart from this test's by their
``application_name`` (``PGAPPNAME``), and counted in ``pg_stat_activity`` every
few milliseconds while the load runs. The sequential requests stop at the first
count above the bound, so that a leak fails the first test before it exhausts a
PostgreSQL that others share (the concurrent ones are in flight at once).
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.services import user_token
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.games.live.test_two_processes import (
    TIMEOUT,
    production_only,
    servers,
    session_cookie,
    this_tests_database_url,
)

pytestmark = [pytest.mark.django_db(transaction=True), production_only]

MIN_SIZE = 1
MAX_SIZE = 4
MAX_IDLE_SECONDS = 1.0
POOL = {
    "DATABASE_POOL_MIN_SIZE": str(MIN_SIZE),
    "DATABASE_POOL_MAX_SIZE": str(MAX_SIZE),
    "DATABASE_POOL_MAX_IDLE": str(MAX_IDLE_SECONDS),
}
SERVED = "atu-served-process"
# The pool closes one connection above its minimum per idle period.
SETTLE_SECONDS = (MAX_SIZE - MIN_SIZE + 2) * MAX_IDLE_SECONDS + 5
# What a throttled request is answered, if the API throttles a user this busy: it
# was authenticated from the database all the same.
SERVED_STATUSES = {200, 429}


class ServedConnections:
    """The served process's connections to this test's database, sampled from a
    thread of its own; ``exceeded`` is set at the first count above ``bound``."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.peak = 0
        self.exceeded = threading.Event()
        self._stop = threading.Event()
        self._database = psycopg.connect(
            this_tests_database_url(), autocommit=True, application_name="atu-connection-counter"
        )
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> ServedConnections:
        self._sampler.start()
        return self

    def __exit__(self, *raised: object) -> None:
        self._stop.set()
        self._sampler.join(timeout=TIMEOUT)
        self._database.close()

    def count(self) -> int:
        row = self._database.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [SERVED],
        ).fetchone()
        assert row is not None
        count: int = row[0]
        self.peak = max(self.peak, count)
        if count > self.bound:
            self.exceeded.set()
        return count

    def settled(self) -> int:
        """The count once no connection above the minimum is left, or at the deadline."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while (count := self.count()) != MIN_SIZE and time.monotonic() < deadline:
            time.sleep(0.1)
        return count

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.count()
            self._stop.wait(0.01)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """One production server with a pool of ``POOL``'s size; its host:port."""
    for name, value in POOL.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PGAPPNAME", SERVED)
    with servers(1, tmp_path) as (address,):
        # Only the server's connections carry the name, not this process's.
        monkeypatch.delenv("PGAPPNAME")
        yield address


def get(url: str, token: str | None = None) -> int:
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers), timeout=TIMEOUT
        ) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def requests(address: str, token: str, count: int) -> list[Callable[[], int]]:
    """``count`` requests as a signed-in client makes them: its account over the API,
    and the health check a load balancer makes."""
    made: list[Callable[[], int]] = []
    for number in range(count):
        if number % 2:
            made.append(lambda: get(f"http://{address}/healthz"))
        else:
            made.append(lambda: get(f"http://{address}/api/auth/me/", token))
    return made


def test_a_thousand_sequential_requests_hold_at_most_the_pool_and_leave_its_minimum(
    served: str,
) -> None:
    # Given a served process and a signed-in API client
    token = user_token(user=UserFactory.create())

    # When it makes 1,000 requests one after the other
    with ServedConnections(MAX_SIZE) as connections:
        statuses = []
        for request in requests(served, token, 1000):
            if connections.exceeded.is_set():
                break
            statuses.append(request())
        peak = connections.peak
        settled = connections.settled()

    # Then the process never held more than its pool, and kept only the pool's minimum
    assert peak <= MAX_SIZE, f"{peak} connections after {len(statuses)} requests"
    assert len(statuses) == 1000
    assert set(statuses) <= SERVED_STATUSES
    assert settled == MIN_SIZE


def test_two_hundred_concurrent_requests_hold_at_most_the_pool_and_leave_its_minimum(
    served: str,
) -> None:
    # Given a served process and a signed-in API client
    token = user_token(user=UserFactory.create())
    start = threading.Barrier(200)

    def at_once(request: Callable[[], int]) -> int:
        start.wait(timeout=TIMEOUT)
        return request()

    # When it makes 200 requests at once
    with ServedConnections(MAX_SIZE) as connections:
        with ThreadPoolExecutor(max_workers=200) as pool:
            statuses = list(pool.map(at_once, requests(served, token, 200)))
        peak = connections.peak
        settled = connections.settled()

    # Then the requests waited for the pool's connections instead of opening more,
    # and the process kept only the pool's minimum afterwards
    assert peak <= MAX_SIZE
    assert len(statuses) == 200
    assert set(statuses) <= SERVED_STATUSES
    assert settled == MIN_SIZE


class Player:
    """A seated player's socket that follows its whole view (``?with_state=1``)."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.state: dict[str, Any] = self.receive()["state"]

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=TIMEOUT))
        assert message["type"] in {"state", "events", "ack"}, message
        return message

    def follow_to(self, version: int) -> None:
        while self.state["version"] < version:
            message = self.receive()
            if "state" in message:
                self.state = message["state"]

    def to_act(self) -> bool:
        hand = self.state.get("hand")
        return hand is not None and self.state["you"] == hand["turn"]

    def move(self, rng: random.Random) -> dict[str, Any]:
        legal = self.state["legal"]
        if legal["cards"]:
            move = {"type": "play", "card": rng.choice(legal["cards"])}
        elif legal["hidden_card"]:
            move = {"type": "play", "card": None}
        elif legal["bids"]:
            move = {"type": "bid", "bid": rng.choice(legal["bids"])}
        else:
            move = {"type": "one_card_mode", "mode": rng.choice(legal["modes"])}
        return move | {"expected_version": self.state["version"]}


def play_over_sockets(address: str, game_id: object, cookies: list[str], moves: int) -> int:
    """Make ``moves`` moves of a game through its players' sockets, each move
    followed by all four; how many were acknowledged."""
    rng = random.Random(str(game_id))
    acknowledged = 0
    with ExitStack() as sockets:
        players = [
            Player(
                sockets.enter_context(
                    connect(
                        f"ws://{address}/ws/games/{game_id}/?with_state=1",
                        origin=Origin(f"http://{address}"),
                        additional_headers={"Cookie": cookie},
                        open_timeout=TIMEOUT,
                    )
                )
            )
            for cookie in cookies
        ]
        for _ in range(moves):
            actor = next(player for player in players if player.to_act())
            actor.socket.send(json.dumps(actor.move(rng)))
            ack = actor.receive()
            while ack["type"] != "ack":
                ack = actor.receive()
            acknowledged += 1
            for player in players:
                player.follow_to(ack["version"])
    return acknowledged


def test_socket_commands_on_many_tables_hold_at_most_the_pool_and_leave_its_minimum(
    served: str,
) -> None:
    # Given eight started tables whose players are signed in on the served process
    tables = [seated_game(4, "championship") for _ in range(8)]
    cookies = {game_id: [session_cookie(user) for user in users] for game_id, users in tables}

    # When each table makes 40 moves over its players' sockets, the tables at once
    with ServedConnections(2 * MAX_SIZE) as connections:
        with ThreadPoolExecutor(max_workers=len(tables)) as pool:
            acknowledged = list(
                pool.map(
                    lambda game_id: play_over_sockets(served, game_id, cookies[game_id], 40),
                    cookies,
                )
            )
        peak = connections.peak
        settled = connections.settled()

    # Then the moves shared the loop's pool and the other commands the threads' (each of
    # the pool's size), and only the threads' minimum was kept
    assert acknowledged == [40] * 8
    assert peak <= 2 * MAX_SIZE
    assert settled == MIN_SIZE
