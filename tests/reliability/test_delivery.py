"""Every acknowledged move reaches every socket, whatever Redis does (issue 31,
decision 3101).

Against a Redis started for the test (a private ``redis-server`` on a free port, no
persistence: never the shared one), two uvicorn servers, a Celery worker and Celery
beat, all as production runs them and all on that Redis (channel layer, broker,
cache): an event's table of four players, each on a socket, with a spectator on a
socket and one on the event's socket. During an outage of Redis a card is played by
REST, one by a socket command and one more by REST, and the bot's seat is next, so
the bot plays during the outage too; within :data:`CAUGHT_UP_SECONDS` of Redis
answering again every socket holds the newest version, with no action of its client.
Each socket's ``events`` follow one another with no gap, and together they are the
log, once each; the event's socket shows the leaderboard of the hand the bot's card
ended within as long of Redis answering.

The worker's broker is the private Redis too, as in production (one ``REDIS_URL``):
the worker lives through the outage but cannot play during it. The server that wrote
the move before the bot's turn finds that the broker does not take the bot's move,
and makes it itself (``games.write.automatic``, decision 3101), and the standings that card's
hand end asks for (``tournaments.tasks``). A worker's own publish is given
up after a few seconds (:mod:`runtime.outbox`); the servers' watchdogs cover it.

One test per kind of outage, games and event together (the pause takes about 45 s):
the pause with the servers' watchdogs on, which tell the sockets while Redis is
still paused; the restart with them off, where the outbox's retries and the
subscriptions redis-py makes again on reconnecting deliver once Redis answers.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import User
from accounts.services import user_token
from eventlog import store
from games.commands import actions as games
from games.models import Game
from games.rules import Phase, legal_plays
from games.table import stream_of
from games.write.tables import load_table
from tests.games.drivers import next_move
from tests.games.live.test_two_processes import (
    free_port,
    post_json,
    production_only,
    serve,
    session_cookie,
    wait_until_healthy,
)
from tests.reliability.conftest import _celery, site_env, stop
from tests.tournaments.drivers import Pictures, event_round, wait_until
from tournaments.models import Event, Standing

pytestmark = [pytest.mark.django_db(transaction=True), production_only]

# Within this after Redis answers again, every socket holds the newest version.
CAUGHT_UP_SECONDS = 5.0
PAUSE_SECONDS = 30
# How long a bot seat waits before it plays: the bot's move is due inside the outage.
BOT_DELAY_SECONDS = 4
TIMEOUT = 10


# --- Redis, servers and workers of the test's own ---------------------------------------


@dataclass
class PrivateRedis:
    """A ``redis-server`` of this test's own, without persistence."""

    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.directory / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [
                "redis-server",
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.directory)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + TIMEOUT
        while not self.answers():
            assert time.monotonic() < deadline, "the private redis-server did not start"
            time.sleep(0.05)

    def answers(self) -> bool:
        client = redis.Redis.from_url(self.url, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: every key, every message and every subscription gone."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def pause(self, seconds: int) -> None:
        client = redis.Redis.from_url(self.url)
        try:
            client.execute_command("CLIENT", "PAUSE", str(seconds * 1000), "ALL")
        finally:
            client.close()


@contextmanager
def private_redis(directory: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(directory, free_port())
    server.start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


@contextmanager
def site(directory: Path, env: dict[str, str]) -> Iterator[list[str]]:
    """Two uvicorn servers, a Celery worker and Celery beat, on ``env``; the servers'
    host:port."""
    with ExitStack() as stack:
        addresses = []
        for number in range(2):
            port, log = free_port(), directory / f"server-{number}.log"
            process = serve(env, port, log, session=True)
            stack.callback(stop, process)
            addresses.append((process, f"127.0.0.1:{port}", log))
        for process, address, log in addresses:
            wait_until_healthy(process, address, log)
        worker_log = directory / "worker.log"
        worker = _celery(
            [
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
            ],
            worker_log,
            **env,
        )
        stack.callback(stop, worker)
        wait_until(lambda: " ready." in worker_log.read_text(), 60, "the worker started")
        beat_log = directory / "beat.log"
        beat = _celery(
            [
                *("-A", "tests.reliability.fast_beat", "beat", "--loglevel=INFO"),
                *("--schedule", str(directory / "beat.schedule")),
            ],
            beat_log,
            **env,
            ATU_FAST_BEAT_SECONDS="2",
        )
        stack.callback(stop, beat)
        yield [address for _, address, _ in addresses]


# --- Sockets that only listen ---------------------------------------------------------


@dataclass
class Listener:
    """A socket and what it received, read by a thread of its own; it never asks for
    anything (no resync, no resume): what it holds came by itself."""

    name: str
    connection: ClientConnection
    messages: list[dict[str, Any]] = field(default_factory=list)
    thread: threading.Thread | None = None
    # An event socket's patches, kept as the whole pictures they make.
    pictures: Pictures = field(default_factory=Pictures)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.connection:
                self.messages.append(self.pictures.take(json.loads(text)))
        except Exception:  # Closed by the test.
            return

    def version(self) -> int:
        """The version the messages so far brought this socket to."""
        versions = [m["version"] for m in self.messages if m["type"] in ("state", "events")]
        return versions[-1] if versions else -1

    def acks(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "ack"]


def listen(
    name: str, address: str, path: str, cookie: str | None = None, query: str = ""
) -> Listener:
    connection = connect(
        f"ws://{address}{path}{query}",
        origin=Origin(f"http://{address}"),
        additional_headers={"Cookie": cookie} if cookie else None,
        open_timeout=TIMEOUT,
    )
    listener = Listener(name, connection)
    listener.start()
    return listener


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    """Wait until ``condition`` holds; the seconds it took."""
    started = time.monotonic()
    wait_until(condition, seconds, what)
    return time.monotonic() - started


# --- The game and the event -----------------------------------------------------------


@dataclass
class Table:
    event: Event
    game_id: uuid.UUID
    users: list[User]
    # By turn order from the first card on: who plays it (the bot's seat last).
    order: list[User]
    bot_seat: int


def a_table_in_play() -> Table:
    """An event's table of four, bid through to its first card; the seat that plays
    the last card of the trick handed to a bot."""
    event, _, users, [game] = event_round(4, public=True)
    rng = random.Random(31)
    while load_table(game.id).game.phase is not Phase.PLAYING:
        assert next_move(game.id, users, rng)
    table = load_table(game.id)
    players = table.game.player_count
    seats = [(table.game.turn + step) % players for step in range(players)]
    order = [next(u for u in users if u.pk == table.seats[seat].user_id) for seat in seats]  # type: ignore[union-attr]
    bot_seat = seats[3]
    games.game_set_seat_bot(game_id=game.id, actor=order[3], seat=bot_seat, bot="medium")
    return Table(event, game.id, users, order, bot_seat)


def play_by_rest(table: Table, address: str, player: User) -> int:
    """``player`` plays a card through the REST API of ``address``; the new version."""
    card, version = a_card(table.game_id)
    status, answer = post_json(
        f"http://{address}/api/games/{table.game_id}/play/",
        {"card": card, "expected_version": version},
        user_token(user=player),
    )
    assert status == 200, answer
    played: int = answer["version"]
    return played


def a_card(game_id: uuid.UUID) -> tuple[str, int]:
    table = load_table(game_id)
    return str(legal_plays(table.game)[0]), table.version  # type: ignore[arg-type]


def log_of(game_id: uuid.UUID) -> list[tuple[int, str]]:
    return [(r.sequence, r.type) for r in store.read(stream_of(game_id))]


def game_version(game_id: uuid.UUID) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def leaderboard(event_id: uuid.UUID) -> list[tuple[int, int]]:
    return sorted(Standing.objects.filter(event_id=event_id).values_list("player_id", "points"))


def picture_leaderboard(picture: dict[str, Any]) -> list[tuple[int, int]]:
    return sorted((line["player_id"], line["points"]) for line in picture["event"]["leaderboard"])


# --- The outage -----------------------------------------------------------------------


def moves_survive(tmp_path: Path, outage: str, watchdog_seconds: float) -> None:
    """Play a table through an outage of Redis (``"pause"`` or ``"restart"``) and
    check every socket afterwards."""
    with private_redis(tmp_path) as server:
        env = site_env(
            REDIS_URL=server.url,
            ATU_BOT_DELAY_SECONDS=str(BOT_DELAY_SECONDS),
            ATU_WATCHDOG_SECONDS=str(watchdog_seconds),
        )
        table = a_table_in_play()
        with site(tmp_path, env) as (a, b):
            sockets = [
                listen(
                    f"player {i}",
                    (a, b)[i % 2],
                    f"/ws/games/{table.game_id}/",
                    session_cookie(user),
                )
                for i, user in enumerate(table.order)
            ]
            spectator = listen("spectator", b, f"/ws/games/{table.game_id}/")
            watchers = [*sockets, spectator]
            event_socket = listen("event", a, f"/ws/events/{table.event.code}/")
            try:
                check_through_the_outage(
                    server, table, (a, b), watchers, event_socket, outage, watchdog_seconds
                )
            finally:
                for listener in [*watchers, event_socket]:
                    listener.connection.close()
        # A Redis gone was logged as a warning, once, not as an error each second (a
        # paused one keeps its connections).
        for number in range(2):
            log = (tmp_path / f"server-{number}.log").read_text()
            assert '"logger": "channels_redis.pubsub"' not in log
            gone = log.count("channel layer subscriptions cannot be read")
            assert gone == (1 if outage == "restart" else 0)


def check_through_the_outage(
    server: PrivateRedis,
    table: Table,
    addresses: tuple[str, str],
    watchers: list[Listener],
    event_socket: Listener,
    outage: str,
    watchdog_seconds: float,
) -> None:
    a, b = addresses
    start = game_version(table.game_id)
    wait_for(lambda: all(w.version() == start for w in watchers), TIMEOUT, "every first state")

    began = time.monotonic()
    if outage == "pause":
        server.pause(PAUSE_SECONDS)
    else:
        server.kill()

    # During the outage: a card by REST through A, one by a socket on B, one by REST
    # through B; the bot's seat is next.
    play_by_rest(table, a, table.order[0])
    card, _ = a_card(table.game_id)
    mover = watchers[1]
    mover.connection.send(json.dumps({"type": "play", "card": card}))
    wait_until(lambda: bool(mover.acks()), 20, "the socket move's ack")
    before_bot = play_by_rest(table, b, table.order[2])
    assert mover.acks()[-1]["version"] == before_bot - 1
    # The bot's card, still during the outage: the broker does not take the bot's
    # move, so the server that wrote the card before it makes it.
    wait_until(lambda: game_version(table.game_id) > before_bot, 20, "the bot's move")
    during = game_version(table.game_id)
    assert time.monotonic() - began < PAUSE_SECONDS, "the moves took longer than the outage"
    assert log_of(table.game_id)[before_bot][1] == "CardPlayed"

    def at_least(version: int) -> Callable[[], bool]:
        return lambda: all(w.version() >= version for w in watchers)

    if watchdog_seconds:
        # The servers' watchdogs read the new version: every socket has it, Redis down
        # (a look once the game is quiet notes it missing, the next one tells it).
        wait_for(at_least(during), 3 * watchdog_seconds + 2, "the moves, Redis down")
        assert time.monotonic() - began < PAUSE_SECONDS, "the watchdog was too late"

    # Redis answers again: by itself after the pause; restarted, empty, after a kill.
    if outage == "pause":
        time.sleep(max(0.0, began + PAUSE_SECONDS - time.monotonic()))
    else:
        time.sleep(5)
        server.start()
    wait_until(server.answers, PAUSE_SECONDS, "Redis answers again")
    answered = time.monotonic()

    caught_up = wait_for(
        at_least(during),
        CAUGHT_UP_SECONDS,
        f"every socket at v{during}: {[(w.name, w.version()) for w in watchers]}",
    )
    print(f"{outage}: every socket at v{during} {caught_up:.2f} s after Redis answered")

    # The event's socket: the leaderboard of the hand the bot's card ended, within as
    # long of Redis answering (the standings were brought up to date during the outage
    # by the server that could not ask the worker for them).
    wait_for(
        lambda: (
            bool(leaderboard(table.event.id))
            and any(
                m["type"] == "event" and picture_leaderboard(m) == leaderboard(table.event.id)
                for m in event_socket.messages[-3:]
            )
        ),
        max(0.0, answered + CAUGHT_UP_SECONDS - time.monotonic()),
        "the event socket's leaderboard",
    )
    versions = [m["version"] for m in event_socket.messages if m["type"] == "event"]
    assert versions == sorted(versions)
    assert versions[-1] == Event.objects.get(pk=table.event.id).version

    # Settled (the bot may play on), each socket's events are the log's, once each.
    def settled() -> bool:
        newest = game_version(table.game_id)
        return all(w.version() == newest for w in watchers)

    wait_until(settled, 30, "every socket at the newest version")
    time.sleep(1)
    wait_until(settled, 30, "every socket at the newest version, once more")
    log = log_of(table.game_id)
    for watcher in watchers:
        received: list[tuple[int, str]] = []
        version = None
        for message in watcher.messages:
            if message["type"] == "state":
                version = message["version"]
                received = [entry for entry in log if entry[0] <= version]
            elif message["type"] == "events":
                assert version is not None
                sequences = [e["sequence"] for e in message["events"]]
                assert sequences[0] == version + 1, (watcher.name, version, sequences)
                assert sequences[-1] == message["version"], (watcher.name, sequences)
                received += [(e["sequence"], e["type"]) for e in message["events"]]
                version = message["version"]
        assert received == log, watcher.name
        assert [m for m in watcher.messages if m["type"] == "error"] == [], watcher.name


def test_moves_made_while_redis_is_paused_reach_every_socket_even_before_it_answers(
    tmp_path: Path,
) -> None:
    """The watchdogs on (production's default): the sockets are told while Redis is
    paused, and the bot's move made as it answers reaches them through it."""
    moves_survive(tmp_path, "pause", watchdog_seconds=3)


def test_moves_made_while_redis_is_down_reach_every_socket_once_it_restarts_empty(
    tmp_path: Path,
) -> None:
    """The watchdogs off: the outbox's retries and the subscriptions redis-py makes
    again on reconnecting are enough once Redis answers."""
    moves_survive(tmp_path, "restart", watchdog_seconds=0)
