"""Benchmark of an event's leaderboard under play: how soon a scored deal reaches every
socket on the event's page and screen, against the production setup (uvicorn server
processes, a Celery worker, the Redis pub/sub channel layer and PostgreSQL).

Run (PostgreSQL and Redis on 127.0.0.1, as in the README's production mode; one run
at a time, as it drops its database)::

    .venv/bin/python -m bench.event --tables 100 --sockets 2000 --seconds 20
    .venv/bin/python -m bench.event --tables 4 --sockets 40 --seconds 10 --repeat 2 \\
        --warmup 10 --interval 2 --grace 5                       # a smoke run

It drops and recreates its own database (``atu_bench_event``; ``--database-url`` may
name another whose name contains "bench"), migrates it, empties its Redis database
(db 5, ``--redis-url``), and seeds through the services a championship played both
in the room and online (``place="both"``, the Championship preset's 32 deals, 3
rounds): ``--tables`` tables of 4, half in the room (people registered and checked
in ``in_room``, each signed in with a session) and half online (bots,
``event_add_bots``), and starts round 1 (``event_start_round``). Then it starts
``--servers`` uvicorn processes served as ``make run`` serves them (as
``bench/live.py`` does) and opens ``--sockets`` sockets on ``/ws/events/<code>/``
from this one asyncio process, spread over the servers one at a time, anonymous, as
the event page and the room's screen connect (the same socket: half are counted as
each); each waits for its first picture.

Then the event is played:

- Online tables by their bots, played by one Celery worker started as production
  runs it (``celery -A config worker``: its pool as many processes as cores), with
  the bot delay of production (``--bot-delay``, 1 s): the servers do for these
  tables what they do in production (nothing but the leaderboard), and the worker
  does both the bots' moves and the standings updates, as in production.
- Room tables by this process: each table writes its next deal down every
  ``--interval`` seconds (the tables evenly staggered), by ``POST
  /api/games/<id>/deals/`` as one of its seated players (the ``sessionid`` cookie
  and a CSRF token, as the scorer page sends it), and another seat confirms it at
  once (``/deals/confirm/``). The bids and tricks are random and lawful.

A scored deal (a ``HandScored`` in a table's log) goes to the leaderboard as it does
in production: the standings task (at once, or ``ATU_STANDINGS_SPACING_SECONDS`` after
the update on its way) updates the standings and publishes
``event.changed``, and each socket reads and sends its picture of the event.

Printed for each window of ``--seconds`` (``--repeat`` of them, after
``--warmup``), then as medians and the worst window:

- deals scored per second (room and online), by their log's ``recorded_at``;
- per deal scored in the window, from its ``recorded_at`` (its commit) to the
  arrival, at the last of the sockets (and at the first), of the first picture whose
  table shows that many deals scored (``hands_scored``): p50 and p99, a deal not at
  every socket ``--grace`` seconds after the window counting as infinitely late;
  and the share of the (deal, socket) pairs reached within the target's 1 s.
  Target (issue 33), at 100 tables and 2,000 sockets: p99 under 1 s in every window;
- leaderboard updates per second (the pictures that brought a socket a new scored
  deal, per socket), pictures sent per second (all sockets) and bytes per picture;
- the servers' CPU per leaderboard update (CPU seconds over the window / updates),
  and the worker's (which also plays the bots' moves);
- the round trips of the room's REST requests, the largest hold of a server's event
  loop and of this process's, and the CPU of the servers, the worker, this process,
  PostgreSQL, Redis and "other", as in ``bench/live.py``.

Then, in the same run, the baseline (``bench/event_baseline.py``) on as many
uvicorn processes, started once Atu's have stopped: the same sockets, the room
tables writing the same deals at the same pace (and confirming them), the online
tables' deals written by this process at the rate Atu's bots scored them; for each
deal, one committed write, one query of the standings rows, one Redis publish, and a
message of the size of Atu's picture to every socket (a leaderboard published while
the last is being sent replaces any waiting). Printed: Atu's latency and servers'
CPU per update as ratios of the baseline's; Atu's servers' and worker's together
too, though the worker's CPU holds the bots' play, which the baseline does not do.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import http.client
import os
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from bench.automatic import start_worker, stop_worker
from bench.live import (
    CpuMeter,
    CpuSample,
    Server,
    cpu_text,
    lag_text,
    largest_loop_lag,
    paced_collector,
    prepare_database,
    prepare_redis,
    process_cpu_seconds,
    process_tree,
    raise_open_files_limit,
    report_server_errors,
    run_async,
    setup_django,
    signed_in_users,
    start_server,
    stop_servers,
    verdict,
    wait_until_listening,
)
from bench.timing import percentile
from games.rules.bidding import allowed_bids
from tournaments.patches import patched

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/atu_bench_event"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
SEATS = 4
ROUNDS = 3
P99_TARGET_S = 1.0
TARGET_TABLES = 100
TARGET_SOCKETS = 2000
# Django's CSRF check compares the cookie's secret with the header's: any 32 letters.
CSRF_TOKEN = "benchEventCsrfToken0123456789abc"
SECRET_KEY = "bench-event-secret-key-not-for-production-0123456789"
WORKER_LOG = "worker.log"


# --- Deals written down in the room ---------------------------------------------------


def room_deal(rng: random.Random, cards: int, dealer: int) -> tuple[list[int], list[int]]:
    """A lawful deal of ``cards`` cards dealt by ``dealer``: each seat's bid and the
    tricks it made, by seat. The tricks are shared at random; a seat makes its bid
    half the time; the dealer's bid never makes the bids add up to the cards."""
    tricks = [0] * SEATS
    for _ in range(cards):
        tricks[rng.randrange(SEATS)] += 1
    bids = [won if rng.random() < 0.5 else rng.randint(0, cards) for won in tricks]
    others = sum(bids) - bids[dealer]
    allowed = allowed_bids(cards, others, True)
    if bids[dealer] not in allowed:
        bids[dealer] = rng.choice(allowed)
    return bids, tricks


# --- Seeding ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredTable:
    """A table whose deals this process writes down."""

    game_id: str
    # Its players' session keys, seat by seat (none: the baseline asks for none).
    sessions: tuple[str, ...]
    first_dealer: int
    # The cards of each deal of its schedule.
    cards: tuple[int, ...]

    def session(self, seat: int) -> str | None:
        return self.sessions[seat] if self.sessions else None


@dataclass(frozen=True)
class SeededEvent:
    event_id: uuid.UUID
    code: str
    room: list[ScoredTable]
    # The online tables' game ids.
    online: list[str]
    # Each table's players, seat by seat.
    players: dict[str, tuple[int, ...]]

    def place(self, game_id: str) -> str:
        return "online" if game_id in self.online else "room"


def seed_event(tables: int) -> SeededEvent:
    """The championship, its round 1 started: ``tables // 2`` tables in the room, the
    rest online with bots."""
    from accounts.models import User
    from games.models import Game
    from games.table import ROOM
    from games.write.tables import load_table
    from tournaments import services

    in_room = tables // 2
    organizer = User.objects.create(username="bench-organizer", can_organize=True)
    event = services.event_create(
        organizer=organizer, name="Bench Cup", rounds=ROUNDS, place="both"
    )
    people = signed_in_users(in_room * SEATS, "room")
    for user, _ in people:
        services.event_register(event_id=event.id, actor=user)
        services.event_check_in(event_id=event.id, actor=user, in_room=True)
    services.event_add_bots(event_id=event.id, actor=organizer, count=(tables - in_room) * SEATS)
    services.event_start_round(event_id=event.id, actor=organizer)
    played = services.load_championship(event.id).rounds[0]
    sessions = {user.pk: key for user, key in people}
    games = Game.objects.in_bulk([uuid.UUID(game_id) for game_id in played.games])
    room, online, players = [], [], {}
    for index, game_id in enumerate(played.games):
        game = games[uuid.UUID(game_id)]
        seated = {seat["seat"]: seat["user_id"] for seat in game.seats}
        players[game_id] = tuple(seated[seat] for seat in range(SEATS))
        if played.place_of(index) != ROOM:
            online.append(game_id)
            continue
        state = load_table(game.id).romanian_game
        room.append(
            ScoredTable(
                game_id,
                tuple(sessions[player] for player in players[game_id]),
                state.first_dealer,
                tuple(spec.cards for spec in state.schedule),
            )
        )
    return SeededEvent(event.id, event.code, room, online, players)


# --- The event's sockets ---------------------------------------------------------------


class Board:
    """What the event's sockets received, and when each scored deal reached them."""

    def __init__(self) -> None:
        self.opened = 0
        # Sockets that have their first picture, and sockets lost.
        self.started = 0
        self.lost = 0
        self.closing = False
        # (table, deals scored) -> when the sockets' first pictures showing it came, in
        # their order.
        self.reached: dict[tuple[str, int], list[float]] = {}
        self.pictures = 0
        self.picture_bytes = 0
        # Pictures that brought a socket a new scored deal, summed over the sockets.
        self.updates = 0
        self.errors: Counter[str] = Counter()
        # (from digest, digest) -> the picture the patch makes.
        self.applied: dict[tuple[str, str], dict[str, Any]] = {}

    @property
    def alive(self) -> int:
        return self.opened - self.lost

    def patched(self, live: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
        """``live`` with the patch ``message`` applied, as each socket's page applies
        it; applied once for all the sockets sent the same patch (each page would on its
        own device, not on this one process's)."""
        key = (message["from"], message["digest"])
        after = self.applied.get(key)
        if after is None:
            after = self.applied[key] = patched(live, message["patch"])
            while len(self.applied) > 64:
                del self.applied[next(iter(self.applied))]
        return after

    def arrived(self, table: str, scored: int, now: float) -> None:
        self.reached.setdefault((table, scored), []).append(now)

    def took(self, seen: dict[str, int], tables: list[dict[str, Any]], now: float) -> None:
        """A socket's picture: the deals it shows scored that the socket had not seen."""
        grew = False
        for table in tables:
            name, scored = table["game_id"], table["hands_scored"]
            before = seen.get(name, 0)
            if scored > before:
                seen[name] = scored
                grew = True
                for count in range(before + 1, scored + 1):
                    self.arrived(name, count, now)
        self.updates += grew


async def read_socket(ws: Any, board: Board) -> None:
    # The deals scored that this socket's pictures showed, by table (None: no picture yet).
    seen: dict[str, int] | None = None
    # The picture this socket holds and its digest, as the event page holds them.
    live: dict[str, Any] = {}
    digest = None
    try:
        while True:
            raw = await ws.recv(decode=False)
            now = time.time()
            # orjson: this process decodes every picture of every socket.
            message = orjson.loads(raw)
            kind = message.get("type")
            if kind == "event":
                # The baseline's messages have no digest: it sends no patches.
                live, digest = message["event"], message.get("digest")
            elif kind == "event.patch" and message["from"] == digest:
                live, digest = board.patched(live, message), message["digest"]
            elif kind == "event.patch":
                board.errors["a patch of another picture"] += 1
                await ws.send('{"type": "refresh"}')
                continue
            else:
                board.errors[str(message.get("code", kind))] += 1
                continue
            board.pictures += 1
            board.picture_bytes += len(raw)
            tables = live["tables"]
            if seen is None:
                seen = {table["game_id"]: table["hands_scored"] for table in tables}
                board.started += 1
            else:
                board.took(seen, tables, now)
    except Exception as error:  # A socket lost mid-run is counted, not fatal.
        if not board.closing:
            board.lost += 1
            board.errors[f"socket lost: {type(error).__name__}"] += 1


async def open_sockets(
    code: str, ports: Sequence[int], count: int, board: Board, concurrency: int = 50
) -> tuple[list[Any], list[asyncio.Task[None]]]:
    """``count`` sockets on the event, one server after another, each with its first
    picture."""
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(concurrency)
    sockets: list[Any] = []
    tasks: list[asyncio.Task[None]] = []

    async def open_one(number: int) -> None:
        port = ports[number % len(ports)]
        async with gate:
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws/events/{code}/",
                origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                # Browsers do not ping; pings every 20 s per socket would be noise.
                ping_interval=None,
                open_timeout=300,
                max_size=2**25,
            )
        board.opened += 1
        sockets.append(ws)
        tasks.append(asyncio.create_task(read_socket(ws, board)))

    started = time.perf_counter()
    await asyncio.gather(*(open_one(number) for number in range(count)))
    deadline = time.perf_counter() + 600
    while board.started < count:
        if time.perf_counter() > deadline or board.errors:
            raise SystemExit(f"{board.started} sockets got a picture; errors: {dict(board.errors)}")
        await asyncio.sleep(0.05)
    print(
        f"Connected {count:,} sockets (half as the event page, half as the screen), each "
        f"with its first picture, in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return sockets, tasks


async def close_sockets(board: Board, sockets: Sequence[Any], tasks: Sequence[Any]) -> None:
    board.closing = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    if board.errors:
        print(f"  sockets' errors: {dict(board.errors)}")


# --- Deals written down through the REST API --------------------------------------------


def post(port: int, path: str, body: dict[str, Any], session: str | None) -> tuple[int, Any]:
    """One POST, on a connection of its own (uvicorn closes an idle one after 5 s,
    sooner than a table's next deal); the status and the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if session is not None:
        headers["Cookie"] = f"sessionid={session}; csrftoken={CSRF_TOKEN}"
        headers["X-CSRFToken"] = CSRF_TOKEN
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("POST", path, body=orjson.dumps(body), headers=headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    try:
        return response.status, orjson.loads(data)
    except orjson.JSONDecodeError:
        return response.status, {"code": f"HTTP {response.status}"}


@dataclass
class Scoring:
    """The deals this process writes down: the round trips of its requests (sent at,
    seconds), what was refused, and the tables that wrote their last deal."""

    answers: list[tuple[float, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    done: int = 0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    executor: ThreadPoolExecutor | None = None

    async def send(self, port: int, path: str, body: dict[str, Any], session: str | None) -> bool:
        assert self.executor is not None
        sent = time.time()
        status, answer = await asyncio.get_running_loop().run_in_executor(
            self.executor, post, port, path, body, session
        )
        self.answers.append((sent, time.time() - sent))
        if status != 200:
            code = answer.get("code", status) if isinstance(answer, dict) else status
            self.errors[f"{path.rsplit('/', 2)[-2]}: {code}"] += 1
        return status == 200

    async def table(
        self, table: ScoredTable, port: int, interval: float, first_at: float, confirm: bool
    ) -> None:
        """Write the table's deals down, one every ``interval`` seconds from
        ``first_at``; each confirmed by the next seat if ``confirm``. A refusal stops
        the table (its next deal would be out of schedule)."""
        rng = random.Random(table.game_id)
        due = first_at
        path = f"/api/games/{table.game_id}/deals/"
        for hand, cards in enumerate(table.cards):
            await asyncio.sleep(max(0.0, due - time.time()))
            bids, tricks = room_deal(rng, cards, (table.first_dealer + hand) % SEATS)
            writer = hand % SEATS
            deal = {"hand": hand, "bids": bids, "tricks": tricks}
            if not await self.send(port, path, deal, table.session(writer)):
                return
            if confirm and not await self.send(
                port, f"{path}confirm/", {"hand": hand}, table.session((writer + 1) % SEATS)
            ):
                return
            # Keep the pace: a deal a little late does not push back the next.
            due = max(due + interval, time.time() - interval)
        self.done += 1

    def start(
        self,
        tables: Sequence[ScoredTable],
        ports: Sequence[int],
        interval: float,
        *,
        confirm: bool,
    ) -> None:
        """Each table's first deal ``n / N`` of an interval from now, so the load is even."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(max_workers=64, thread_name_prefix="scorer")
        now = time.time()
        for number, table in enumerate(tables):
            first_at = now + interval * number / len(tables)
            port = ports[number % len(ports)]
            self.tasks.append(
                asyncio.create_task(self.table(table, port, interval, first_at, confirm))
            )

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.executor is not None:
            # The requests on their way are let finish.
            await asyncio.to_thread(self.executor.shutdown, wait=True)
        if self.errors:
            print(f"  REST requests refused: {dict(self.errors)}")


# --- Measuring --------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """A deal scored: its table, how many deals the table had scored with it, its
    commit (a unix time) and where the table plays."""

    table: str
    count: int
    at: float
    place: str


class EventMeter(CpuMeter):
    """:class:`bench.live.CpuMeter`, with the Celery worker's processes as "worker"."""

    def __init__(self, servers: Sequence[Server], database: str, worker: int | None) -> None:
        super().__init__(servers, database)
        self.worker = worker

    def _sample(self) -> CpuSample:
        sample = super()._sample()
        if self.worker is not None:
            for pid in process_tree([self.worker]):
                sample.services[pid] = ("worker", process_cpu_seconds(pid))
        return sample


@dataclass
class Window:
    start: float
    end: float
    deals: Counter[str] = field(default_factory=Counter)
    # Per deal scored in the window: to the last socket (a deal not at every socket
    # in time: infinity), and to the first.
    latencies: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)
    lost: int = 0
    # (deal, socket) pairs: all, and those reached within the target.
    pairs: int = 0
    on_time: int = 0
    pictures: int = 0
    picture_bytes: int = 0
    # Leaderboard updates each socket got (on average).
    updates: float = 0.0
    answers: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    loop_lag_ms: float | None = None
    load_lag_ms: float | None = None

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def count(self, deal: Scored, arrivals: Sequence[float], sockets: int) -> None:
        """A deal scored in the window, and when it reached each of the ``sockets``
        that reached it (in order)."""
        self.deals[deal.place] += 1
        if arrivals:
            self.firsts.append(arrivals[0] - deal.at)
        if len(arrivals) < sockets:
            self.lost += 1
            self.latencies.append(float("inf"))
        else:
            self.latencies.append(arrivals[-1] - deal.at)
        self.pairs += sockets
        self.on_time += sum(1 for arrival in arrivals if arrival - deal.at < P99_TARGET_S)

    def on_time_share(self) -> float | None:
        return self.on_time / self.pairs if self.pairs else None

    def per_second(self, count: float) -> float:
        return count / self.seconds

    def ms_per_update(self, *processes: str) -> float | None:
        """The CPU (ms) the ``processes`` spent per leaderboard update (None: no update,
        or no such process)."""
        if not self.updates or not any(name in self.cpu for name in processes):
            return None
        share = sum(self.cpu.get(name, 0.0) for name in processes)
        return share * self.seconds * 10 / self.updates

    def bytes_per_picture(self) -> float:
        return self.picture_bytes / max(1, self.pictures)


def ms(seconds: float) -> str:
    return "n/a" if seconds != seconds else f"{seconds * 1000:,.0f} ms"  # nan: no deal


def cpu_ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.1f} ms"


@dataclass
class Phase:
    """What one side of the run measures with."""

    label: str
    board: Board
    scoring: Scoring
    meter: CpuMeter
    servers: Sequence[Server]
    # The deals scored between two unix times, read from the side's log.
    scored: Callable[[float, float], list[Scored]]
    args: argparse.Namespace


async def measure_windows(phase: Phase) -> list[Window]:
    board, args = phase.board, phase.args
    windows = []
    for number in range(args.repeat):
        window = Window(time.time(), 0.0)
        pictures, picture_bytes, updates = board.pictures, board.picture_bytes, board.updates
        phase.meter.start()
        await asyncio.sleep(args.seconds)
        window.end = time.time()
        window.cpu = phase.meter.stop()
        window.pictures = board.pictures - pictures
        window.picture_bytes = board.picture_bytes - picture_bytes
        window.updates = (board.updates - updates) / max(1, board.alive)
        window.loop_lag_ms = largest_loop_lag(
            [server.lag_log for server in phase.servers], window.start, window.end
        )
        window.load_lag_ms = largest_loop_lag([args.load_lag_log], window.start, window.end)
        # A deal recorded just before the end may commit just after it.
        await asyncio.sleep(0.5)
        scored = await asyncio.to_thread(phase.scored, window.start, window.end)
        deadline = window.end + args.grace
        while time.time() < deadline and any(
            len(board.reached.get((deal.table, deal.count), ())) < board.alive for deal in scored
        ):
            await asyncio.sleep(0.1)
        for deal in scored:
            window.count(deal, board.reached.get((deal.table, deal.count), []), board.alive)
        window.answers = [
            seconds for sent, seconds in phase.scoring.answers if window.start <= sent < window.end
        ]
        print(f"  {phase.label} window {number + 1}: {window_text(window, args)}", flush=True)
        windows.append(window)
    return windows


def window_text(window: Window, args: argparse.Namespace) -> str:
    deals = sum(window.deals.values())
    return (
        f"{window.per_second(deals):.1f} deals/s scored (room "
        f"{window.per_second(window.deals['room']):.1f}, online "
        f"{window.per_second(window.deals['online']):.1f}); at every socket p50 "
        f"{ms(percentile(window.latencies, 0.5))}, p99 {ms(percentile(window.latencies, 0.99))} "
        f"(at the first socket p50 {ms(percentile(window.firsts, 0.5))}; {window.lost} of "
        f"{deals} not at every socket {args.grace:g} s after the window; "
        f"{share_text(window.on_time_share())} of the (deal, socket) pairs within "
        f"{P99_TARGET_S:g} s); {window.per_second(window.updates):.2f} leaderboard updates/s, "
        f"{window.per_second(window.pictures):,.0f} pictures/s of "
        f"{window.bytes_per_picture() / 1000:,.1f} kB; CPU per update: servers "
        f"{cpu_ms(window.ms_per_update('servers'))}, worker "
        f"{cpu_ms(window.ms_per_update('worker'))}; REST answers p50 "
        f"{ms(percentile(window.answers, 0.5))}, p99 {ms(percentile(window.answers, 0.99))}; "
        f"largest loop hold {lag_text(window.loop_lag_ms)} (the load generator's "
        f"{lag_text(window.load_lag_ms)}); {cpu_text(window.cpu)}"
    )


def share_text(share: float | None) -> str:
    return "n/a" if share is None else f"{share:.1%}"


def median_of(values: Sequence[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return statistics.median(known) if known else None


@dataclass(frozen=True)
class Figures:
    """Medians over a side's windows, and the worst window's p99."""

    deals: float
    room: float
    online: float
    p50: float
    p99: float
    worst_p99: float
    first_p50: float
    on_time: float | None
    updates: float
    pictures: float
    bytes_per_picture: float
    servers_ms: float | None
    worker_ms: float | None
    answer_p99: float
    loop_lag_ms: float | None

    @classmethod
    def of(cls, windows: Sequence[Window]) -> Figures:
        def median(value: Callable[[Window], float]) -> float:
            return statistics.median(value(window) for window in windows)

        p99s = [percentile(window.latencies, 0.99) for window in windows]
        lags = [window.loop_lag_ms for window in windows if window.loop_lag_ms is not None]
        return cls(
            median(lambda w: w.per_second(sum(w.deals.values()))),
            median(lambda w: w.per_second(w.deals["room"])),
            median(lambda w: w.per_second(w.deals["online"])),
            median(lambda w: percentile(w.latencies, 0.5)),
            statistics.median(p99s),
            max(p99s),
            median(lambda w: percentile(w.firsts, 0.5)),
            median_of([window.on_time_share() for window in windows]),
            median(lambda w: w.per_second(w.updates)),
            median(lambda w: w.per_second(w.pictures)),
            median_of([w.bytes_per_picture() if w.pictures else None for w in windows]) or 0.0,
            median_of([window.ms_per_update("servers") for window in windows]),
            median_of([window.ms_per_update("worker") for window in windows]),
            median(lambda w: percentile(w.answers, 0.99)),
            max(lags) if lags else None,
        )

    def text(self) -> str:
        return (
            f"{self.deals:.1f} deals/s scored (room {self.room:.1f}, online {self.online:.1f}); "
            f"at every socket p50 {ms(self.p50)}, p99 {ms(self.p99)} (worst window "
            f"{ms(self.worst_p99)}; at the first socket p50 {ms(self.first_p50)}; "
            f"{share_text(self.on_time)} of the (deal, socket) pairs within {P99_TARGET_S:g} s); "
            f"{self.updates:.2f} leaderboard updates/s, {self.pictures:,.0f} pictures/s of "
            f"{self.bytes_per_picture / 1000:,.1f} kB; CPU per update: servers "
            f"{cpu_ms(self.servers_ms)}, worker {cpu_ms(self.worker_ms)}; REST answers p99 "
            f"{ms(self.answer_p99)}; largest loop hold {lag_text(self.loop_lag_ms)}"
        )


def ratio(atu: float | None, baseline: float | None) -> str:
    if atu is None or baseline is None or baseline <= 0 or baseline != baseline:
        return "n/a"
    if atu == float("inf"):
        return "infinitely (deals late at some socket)"
    return f"{atu / baseline:.2f}x"


# --- The two sides ----------------------------------------------------------------------


def atu_scored(seeded: SeededEvent) -> Callable[[float, float], list[Scored]]:
    from eventlog.models import StoredEvent
    from games.table import stream_of

    games = {stream_of(uuid.UUID(game_id)): game_id for game_id in seeded.players}

    def scored(start: float, end: float) -> list[Scored]:
        rows = StoredEvent.objects.filter(
            stream__in=list(games),
            type="HandScored",
            recorded_at__gte=datetime.fromtimestamp(start, UTC),
            recorded_at__lt=datetime.fromtimestamp(end, UTC),
        ).values_list("stream", "payload", "recorded_at")
        return [
            Scored(
                games[stream],
                payload["hand"] + 1,
                recorded_at.timestamp(),
                seeded.place(games[stream]),
            )
            for stream, payload, recorded_at in rows
        ]

    return scored


def baseline_scored(
    seeded: SeededEvent, database_url: str
) -> Callable[[float, float], list[Scored]]:
    def scored(start: float, end: float) -> list[Scored]:
        import psycopg

        with psycopg.connect(database_url) as connection:
            rows = connection.execute(
                "SELECT tbl, hand, recorded_at FROM baseline_deal "
                "WHERE recorded_at >= %s AND recorded_at < %s",
                (datetime.fromtimestamp(start, UTC), datetime.fromtimestamp(end, UTC)),
            ).fetchall()
        return [
            Scored(table, hand + 1, recorded_at.timestamp(), seeded.place(table))
            for table, hand, recorded_at in rows
        ]

    return scored


@dataclass(frozen=True)
class Side:
    figures: Figures
    # The mean size of a message the sockets received in the windows (a picture or a
    # patch; not the pictures each had on connecting).
    picture_bytes: int

    @classmethod
    def of(cls, windows: Sequence[Window], board: Board) -> Side:
        count = sum(window.pictures for window in windows)
        if not count:
            return cls(Figures.of(windows), board.picture_bytes // max(1, board.pictures))
        return cls(Figures.of(windows), sum(window.picture_bytes for window in windows) // count)


async def play_atu(
    seeded: SeededEvent,
    servers: Sequence[Server],
    environ: dict[str, str],
    logs: Path,
    args: argparse.Namespace,
) -> Side:
    """Atu's side: the sockets, then the worker and the room's scorers; the windows."""
    ports = [server.port for server in servers]
    board = Board()
    sockets, tasks = await open_sockets(seeded.code, ports, args.sockets, board)
    process = start_worker(
        {**environ, "ATU_BOT_DELAY_SECONDS": str(args.bot_delay)},
        logs / WORKER_LOG,
        loglevel="WARNING",
    )
    print(f"  worker: {command_line(process)} (pid {process.pid})", flush=True)
    scoring = Scoring()
    try:
        scoring.start(seeded.room, ports, args.interval, confirm=True)
        print(
            f"Atu: {len(seeded.room)} room tables, a deal every {args.interval:g} s each; "
            f"{len(seeded.online)} online tables of bots (bot delay {args.bot_delay:g} s); "
            f"warming up {args.warmup:g} s",
            flush=True,
        )
        await asyncio.sleep(args.warmup)
        phase = Phase(
            "Atu",
            board,
            scoring,
            EventMeter(servers, database_name(args), process.pid),
            servers,
            atu_scored(seeded),
            args,
        )
        windows = await measure_windows(phase)
    finally:
        await scoring.stop()
        # In a thread: its warm shutdown would hold this loop, and the sockets' reading.
        await asyncio.to_thread(stop_worker, process)
        await close_sockets(board, sockets, tasks)
    return Side.of(windows, board)


async def play_baseline(
    seeded: SeededEvent, servers: Sequence[Server], online_rate: float, args: argparse.Namespace
) -> Side:
    """The baseline's side: the same sockets and deals, the online tables' deals
    written by this process at the rate Atu's bots scored them."""
    ports = [server.port for server in servers]
    board = Board()
    sockets, tasks = await open_sockets(seeded.code, ports, args.sockets, board)
    schedule = seeded.room[0].cards if seeded.room else ()
    online = [ScoredTable(game_id, (), 0, schedule) for game_id in seeded.online]
    scoring = Scoring()
    try:
        # Anyone may write the baseline's deals down: it asks for no session.
        room = [dataclasses.replace(table, sessions=()) for table in seeded.room]
        scoring.start(room, ports, args.interval, confirm=True)
        if online and online_rate > 0:
            online_interval = len(online) / online_rate
            scoring.start(online, ports, online_interval, confirm=False)
            paced = f"one every {online_interval:.3g} s each ({online_rate:.1f} deals/s, Atu's)"
        else:
            paced = "none (Atu's bots scored none)"
        print(
            f"Baseline: {len(seeded.room)} room tables, a deal every {args.interval:g} s "
            f"each; {len(online)} online tables' deals: {paced}; warming up {args.warmup:g} s",
            flush=True,
        )
        await asyncio.sleep(args.warmup)
        phase = Phase(
            "baseline",
            board,
            scoring,
            EventMeter(servers, database_name(args), None),
            servers,
            baseline_scored(seeded, args.database_url),
            args,
        )
        windows = await measure_windows(phase)
    finally:
        await scoring.stop()
        await close_sockets(board, sockets, tasks)
    return Side.of(windows, board)


def command_line(process: subprocess.Popen[bytes]) -> str:
    arguments = process.args
    return " ".join(map(str, arguments)) if isinstance(arguments, list) else str(arguments)


def database_name(args: argparse.Namespace) -> str:
    return urlsplit(args.database_url).path.lstrip("/")


# --- Main ---------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--tables", type=int, default=TARGET_TABLES, help="tables of 4, half in the room"
    )
    parser.add_argument(
        "--sockets", type=int, default=TARGET_SOCKETS, help="sockets on the event's page"
    )
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes")
    parser.add_argument(
        "--interval", type=float, default=30.0, help="seconds between a room table's deals"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=1.0, help="seconds a bot waits before its move"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per window")
    parser.add_argument("--repeat", type=int, default=5, help="windows per side")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before the windows")
    parser.add_argument(
        "--grace",
        type=float,
        default=10.0,
        help="seconds after a window for its deals to reach every socket",
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    if args.tables < 2 or args.sockets < 1 or args.servers < 1 or args.repeat < 1:
        parser.error("--tables must be at least 2, --sockets, --servers and --repeat 1")
    if args.interval <= 0 or args.seconds <= 0 or args.bot_delay < 0:
        parser.error("--interval and --seconds must be over 0, --bot-delay 0 or more")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    raise_open_files_limit()
    environ = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        # Servers, worker and this process sign sessions with the same key.
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "false",
        # Every socket comes from this one address (runtime/throttling.py).
        "ATU_SOCKETS_PER_ADDRESS": "off",
        # This process's seeding schedules the bots' first moves.
        "ATU_BOT_DELAY_SECONDS": str(args.bot_delay),
    }
    print(
        f"Event leaderboard benchmark: {args.tables} tables ({args.tables // 2} in the room, "
        f"{args.tables - args.tables // 2} online), {args.sockets:,} sockets on the event, "
        f"{args.servers} uvicorn process(es) and a Celery worker, {os.cpu_count()} CPUs; "
        f"windows of {args.seconds:g} s x {args.repeat}",
        flush=True,
    )
    started = time.perf_counter()
    prepare_database(args.database_url)
    prepare_redis(args.redis_url)
    setup_django(environ)
    seeded = seed_event(args.tables)
    deals = len(seeded.room[0].cards) if seeded.room else 0
    print(
        f"Seeded event {seeded.code}: {len(seeded.room)} room tables, {len(seeded.online)} "
        f"online, {deals} deals a game, in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    needed = args.warmup + args.repeat * (args.seconds + args.grace + 0.5)
    if deals and deals * args.interval < needed:
        print(
            f"  note: the room tables write their {deals} deals in {deals * args.interval:g} s, "
            f"less than the {needed:g} s measured: the last windows will lack them"
        )

    logs = Path(tempfile.mkdtemp(prefix="atu-event-"))
    args.load_lag_log = logs / "loop-lag-load-generator.log"
    servers = [
        start_server("config.asgi:application", environ, "on", "off", logs)
        for _ in range(args.servers)
    ]
    started_servers: list[Server] = list(servers)
    try:
        wait_until_listening(servers)
        for server in servers:
            print(f"  server: {command_line(server.process)}", flush=True)
        atu = run_async(
            lambda: paced_collector(
                play_atu(seeded, servers, environ, logs, args), args.load_lag_log
            )
        )
        stop_servers(servers)

        from bench.event_baseline import create_tables

        create_tables(args.database_url, list(seeded.players.items()))
        baseline_environ = {
            "BASELINE_DATABASE_URL": args.database_url,
            "REDIS_URL": args.redis_url,
            "BASELINE_MESSAGE_BYTES": str(atu.picture_bytes),
        }
        baseline_servers = [
            start_server("bench.event_baseline:app", baseline_environ, "on", "off", logs)
            for _ in range(args.servers)
        ]
        started_servers.extend(baseline_servers)
        wait_until_listening(baseline_servers)
        print(
            f"Baseline (bench/event_baseline.py, {len(baseline_servers)} uvicorn process(es), "
            f"{atu.picture_bytes:,} B per message as Atu's pictures)",
            flush=True,
        )
        baseline = run_async(
            lambda: paced_collector(
                play_baseline(seeded, baseline_servers, atu.figures.online, args),
                args.load_lag_log,
            )
        )
        report(atu.figures, baseline.figures, args)
    finally:
        stop_servers(started_servers)
        report_worker_errors(logs / WORKER_LOG)
        report_server_errors(started_servers, logs)
    return 0


def report_worker_errors(log: Path) -> None:
    """Say what the worker logged worse than a warning (its banner and the message its
    warm shutdown hands back are no news)."""
    if not log.exists():
        return
    errors = [
        line
        for line in log.read_text(errors="replace").splitlines()
        if line.startswith("Traceback")
        or '"level": "ERROR"' in line
        or '"level": "CRITICAL"' in line
    ]
    if errors:
        print(f"  the worker logged {len(errors)} errors; the first: {errors[0][:300]}")


def report(atu: Figures, baseline: Figures, args: argparse.Namespace) -> None:
    print("Results (medians of the windows):")
    print(f"  Atu: {atu.text()}")
    print(f"  baseline: {baseline.text()}")
    target = f"p99 under {P99_TARGET_S:g} s in every window"
    if args.tables >= TARGET_TABLES and args.sockets >= TARGET_SOCKETS:
        print(
            f"    target: {target} at {args.tables} tables and {args.sockets:,} sockets -> "
            f"{verdict(atu.worst_p99 < P99_TARGET_S)} (worst window {ms(atu.worst_p99)})"
        )
    else:
        print(
            f"    target: {target} at {TARGET_TABLES} tables and {TARGET_SOCKETS:,} sockets "
            f"-> not judged (this run: {args.tables} tables, {args.sockets:,} sockets)"
        )
    print(
        f"    latency to every socket: Atu p50 {ratio(atu.p50, baseline.p50)}, "
        f"p99 {ratio(atu.p99, baseline.p99)} the baseline's"
    )
    both = (
        None if atu.servers_ms is None or atu.worker_ms is None else atu.servers_ms + atu.worker_ms
    )
    print(
        f"    CPU per leaderboard update: Atu's servers "
        f"{ratio(atu.servers_ms, baseline.servers_ms)} the baseline's servers; Atu's servers "
        f"and worker (its bots' moves too) "
        f"{ratio(both, baseline.servers_ms)}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
