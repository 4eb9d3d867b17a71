"""Benchmark of live tables over real WebSockets, against the production setup:
uvicorn server processes, the Redis pub/sub channel layer and PostgreSQL.

Run (PostgreSQL and Redis on 127.0.0.1, as in the README's production mode; about
8 minutes at 500 tables, 2 or 3 more with ``--analysts``; one run at a time, as it
drops its database)::

    .venv/bin/python -m bench.live --tables 500 [--analysts 1]

It drops and recreates its own database (``atu_bench``; ``--database-url`` may
name another whose name contains "bench"), migrates it, empties its Redis database
(db 5, ``--redis-url``), starts ``--servers``
uvicorn processes on free ports (default 2, one per core: on these 2-core
machines 1 carried less, 3 or 4 no clearly more) served as ``make run`` serves
(``--lifespan on``, no permessage-deflate: ``--lifespan`` and ``--server-deflate``
change that) with Redis db 5 as the layer, and seeds
``--tables`` 4-player Championship tables through the ORM (users, sessions,
``game_create`` and ``game_join``; no bot seats, so every move comes from a
socket). Each table then gets 5 sockets from this one asyncio process: its 4
players (``sessionid`` cookie) and an anonymous spectator, all with
``?with_state=changes`` as the table page connects (``--with-state 1``: the whole
view in every message), spread over the servers one socket
at a time as a load balancer would (``--placement table`` keeps a table on one, as
``docker/nginx.conf`` routes them).
A player moves when its state says it is its turn, at random from ``state.legal``.

Printed, for each window of ``--seconds`` (``--repeat`` of them, 5 by default), then
as medians and the worst window:

1. Round trips while the servers are idle: the bare WebSocket echo through uvicorn
   (a Channels-free ASGI echo app, ``bench.live:echo_app``, served by one more
   uvicorn process with the same flags), and the ``/ws/health/`` ping through a
   Django server (Channels, then a ``group_send`` over Redis answered by ``pong``).
2. Paced: each table moves once every ``--interval`` seconds, the tables evenly
   staggered. Plays per second, and p50/p99 latency from a move's send to the
   receipt, by the last of the table's 5 sockets, of the ``events`` message that
   holds the move's first sequence (a move not delivered within 5 s of its window
   counts as infinitely late), and the largest hold of any server's event loop in
   the window (``runtime/looplag.py``, recorded by each server once a second), and
   the load generator's own, and the share of the window a server's loop spent ready
   to run while others had the cores (its kernel's schedstat: a hold that is the
   machine's, not the server's own work).
   Target at 500 tables: p99 under 100 ms in every window.
3. With ``--analysts N`` (0 by default: left out), paced again with analyses running
   beside the tables, as an event's finished games are analysed during its next
   round (decision 3602). Before the servers start, ``--analysed-games`` (40)
   Championship games are seeded finished: started as the tables are, then played
   out by the heuristic bot in one command each through the write path, whose finish
   asks for each game's analysis as production's does (the task, routed to the
   ``analysis`` queue, waits there). Here N analyst processes start, each the
   Procfile's ``analyst`` line (``nice -n 10``, one process; the others named apart,
   as on other machines) on this database and Redis db 5; once each has taken an
   analysis (its log says so), the paced windows are measured again, with the
   analysts' CPU (their pool's processes included) and the analyses they kept
   (GameAnalysis rows) in each window. They stop then (a cold shutdown: an analysis
   cut short is lost, as a worker's would be). Printed: the paced p99 with analyses
   beside over the paced p99 without (median windows). Target at 500 tables: paced
   p99 under 100 ms in every window with analyses beside (issue 36: analyses run
   in the background without slowing live play).
4. Saturation: each player moves as soon as its state says it is its turn. The
   median window's plays/s is Atu's own saturation rate, printed.
5. Paced at ``--of-saturation`` (half, by default; 0 leaves it out) of that rate:
   on as many other tables, seeded with the first (their games at the start, as the
   first tables' were before saturation took them far into their hands), each
   moving once every ``tables / (rate x share)`` seconds, measured as the paced load
   is. Target: p99 under 100 ms in every window, whatever the machine's speed (a
   slower machine saturates at a lower rate, and is paced at a lower one).
6. Measurements 2, 4 and 5, on the same tables' count and sockets, against the
   baseline (``bench/baseline.py``): as many uvicorn processes doing only a move's
   necessary work (a check against an in-memory table, one INSERT committed to
   PostgreSQL, one Redis publish, and a message per socket of the size of Atu's,
   received through a Redis subscription), started once Atu's servers have
   stopped, paced at Atu's pace in 5. Targets: Atu's saturation plays/s at least 0.5x
   the baseline's, its servers' CPU per play at most 2x the baseline's.

This process paces its garbage collector as the servers do (``runtime.collector``):
a collection that stalled it would delay the receipts of every table at once.

With each window: the CPU (100% = one core) of the servers, this process,
PostgreSQL (this database's backends), Redis, the analysts (while they run) and
"other" (anything else, such as other people's test runs on the machine), and the
servers' CPU per play, which
such neighbours disturb less than plays per second. Moves never delivered to all
5 sockets, errors answered and sockets lost are reported, and so is anything the
servers logged (their logs are then kept).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import orjson

from bench.timing import percentile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/atu_bench"
# Redis db 5: the tests use db 0.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"
PRESET = "championship"
SEATS = 4
# Sockets per table: the 4 players and 1 spectator.
SOCKETS = SEATS + 1
P99_TARGET_MS = 100.0
P99_TARGET_TABLES = 500
# Atu's saturation plays/s against the baseline's, and its servers' CPU per play.
RATE_TARGET = 0.5
CPU_TARGET = 2.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# A PostgreSQL backend's process title names its client: "127.0.0.1(52044)".
BACKEND = re.compile(r"\(\d+\)|\[local\]")
# How long after a window closes its last moves may still arrive.
GRACE_SECONDS = 5.0
# The bot playing the games seeded for the analysts: a fast one (a game's analysis
# costs about the same whoever played it; the strong bot would take a minute a game).
ANALYSED_BOT = "heuristic"
# How long analysts just started may take to be each analysing a game.
ANALYSTS_START_SECONDS = 120.0
# What an analyst logs (at INFO, as the Procfile runs it) as it takes an analysis.
ANALYSIS_RECEIVED = re.compile(r"Task games\.tasks\.analyse_game\[[^\]]+\] received")
# An error in an analyst's log: the project's JSON lines, or a traceback printed.
ANALYST_ERROR = re.compile(r'^Traceback|"level": "(ERROR|CRITICAL)"')
Result = TypeVar("Result")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


# --- The bare echo app ---------------------------------------------------------------


async def echo_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A WebSocket echo with nothing behind it: uvicorn's own round trip."""
    if scope["type"] == "websocket":
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
            elif message["type"] == "websocket.receive":
                await send(
                    {
                        "type": "websocket.send",
                        "text": message.get("text"),
                        "bytes": message.get("bytes"),
                    }
                )
            else:
                return
    elif scope["type"] == "http":
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})


# --- Database, Redis, seeding --------------------------------------------------------


def prepare_database(url: str) -> None:
    """Drop and recreate the bench database; refuse any name without "bench"."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        raise SystemExit(f"refusing to drop database {name!r}: its name must contain 'bench'")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def prepare_redis(url: str) -> None:
    """Empty the bench's Redis database: what a run before this one left there (its
    clients' socket budgets, runtime.throttling) would count against this run's."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def setup_django(environ: dict[str, str], migrate: str = "migrate") -> None:
    """Django on ``environ``'s database, migrated by the ``migrate`` command (as the
    owner: ``migrate_as_owner``)."""
    os.environ.update(environ)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # migrate_as_owner asks nothing; migrate must not either.
    call_command(migrate, verbosity=0, **({"interactive": False} if migrate == "migrate" else {}))
    # Seeding publishes each join; no socket listens yet, so an in-memory layer
    # saves a Redis connection (and an event loop) per service call.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@dataclass(frozen=True)
class SeededTable:
    game_id: str
    # The players' session keys, seat by seat.
    sessions: tuple[str, ...]


def signed_in_users(count: int, prefix: str) -> list[tuple[Any, str]]:
    """``count`` new users, each with a session signed in: (user, session key), the key
    a client sends as its ``sessionid`` cookie."""
    from datetime import timedelta

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from accounts.models import User

    password = make_password(None)
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{number}", password=password) for number in range(count)
    )
    store = SessionStore()
    expires = timezone.now() + timedelta(days=1)
    sessions = [
        Session(
            session_key=get_random_string(32),
            session_data=store.encode(
                {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                }
            ),
            expire_date=expires,
        )
        for user in users
    ]
    Session.objects.bulk_create(sessions)
    return [(user, session.session_key) for user, session in zip(users, sessions, strict=True)]


def seed_tables(count: int) -> list[SeededTable]:
    """``count`` Championship tables whose 4 seats are taken (the game has started)."""
    from games.commands import actions

    users = signed_in_users(count * SEATS, "live")
    tables = []
    for number in range(count):
        seated = users[number * SEATS : (number + 1) * SEATS]
        players = [user for user, _ in seated]
        game = actions.game_create(creator=players[0], player_count=SEATS, preset=PRESET)
        for seat, player in enumerate(players):
            actions.game_join(game_id=game.id, user=player, alias=f"P{seat}")
        tables.append(SeededTable(str(game.id), tuple(key for _, key in seated)))
    return tables


def played_out(game_id: uuid.UUID, table: Any) -> list[Any]:
    """A decider (games.write.path.Move) making every move left of the game at
    ``table``, each seat's by ``ANALYSED_BOT``, with the server's deals and reveals
    between them: the whole game in one command."""
    from games.bots import choose_command
    from games.table.deciders import ruled
    from games.write.path import server_moves_of

    rng = random.Random(str(game_id))
    events: list[Any] = []
    while table.status == "playing":
        game = table.romanian_game
        command = choose_command(game, game.turn, rng, bot=ANALYSED_BOT, played=table.played)
        events += ruled(table, command) + server_moves_of(game_id, table)
    return events


def seed_finished_games(count: int) -> list[str]:
    """``count`` Championship games played to their end, for the analysts: started as
    the live tables are, then played out through the one write path in one command
    each (seconds for 40, where a command per move would take minutes), so that
    each log is a finished game's, table events and all. Each finish asks for its
    analysis as production's does (games.read.analysis.analysis_due: the task sent,
    routed to the analysis queue), where it waits for the analysts."""
    from bench.write_path import started_game
    from games.write.path import Move, execute

    finished = []
    for number in range(count):
        game, _ = started_game(f"analysed-{number}")
        execute(Move(game.id, None, None, None, {}, partial(played_out, game.id)))
        finished.append(str(game.id))
    return finished


def queued_analyses() -> int:
    """The messages waiting in the analysis workers' queue (CELERY_TASK_ROUTES)."""
    from celery import current_app
    from django.conf import settings
    from kombu import Queue

    from games.read.analysis import ANALYSE_TASK

    queue = Queue(settings.CELERY_TASK_ROUTES[ANALYSE_TASK]["queue"])
    with current_app.connection_for_read() as connection:
        # (name, messages, consumers), whatever kombu's stubs say (str | None).
        declared: Any = queue.bind(connection.default_channel).queue_declare(passive=True)
        return int(declared.message_count)


# --- Server processes ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    app: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    # Where an Atu server records its event loop's largest hold each second.
    lag_log: Path | None = None
    host: str = "127.0.0.1"


def start_server(
    app: str,
    environ: dict[str, str],
    lifespan: str,
    deflate: str,
    logs: Path,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    prefix: Sequence[str] = (),
) -> Server:
    """A uvicorn process serving ``app`` on ``host`` and ``port`` (a free one by
    default), its command after ``prefix`` (``ip netns exec``: on another node);
    ``deflate``: whether it accepts permessage-deflate (``make run`` does not)."""
    port = free_port() if port is None else port
    log = logs / f"uvicorn-{host}-{port}.log"
    lag_log = logs / f"loop-lag-{host}-{port}.log"
    command = [
        *prefix,
        str(ROOT / ".venv" / "bin" / "uvicorn"),
        app,
        "--host",
        host,
        "--port",
        str(port),
        "--lifespan",
        lifespan,
        "--ws-per-message-deflate",
        "true" if deflate == "on" else "false",
        # Logging every connection would be part of what we measure.
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **environ, "ATU_LOOP_LAG_LOG": str(lag_log)},
            stdout=output,
            stderr=output,
        )
    return Server(app, port, process, log, lag_log, host)


def start_front(servers: Sequence[Server], logs: Path) -> Server:
    """nginx with docker/nginx.conf in front of ``servers``."""
    # Imported here: config.front reads the limits from config.settings, whose first
    # import is Django's settings, made from the environment as it then is (before
    # setup_django gives it this run's database, it is the embedded SQLite's).
    from config.front import nginx_command, nginx_config

    port = free_port()
    config = logs / "nginx.conf"
    upstreams = [f"127.0.0.1:{server.port}" for server in servers]
    config.write_text(nginx_config(f"127.0.0.1:{port}", upstreams))
    log = logs / "nginx.log"
    with log.open("wb") as output:
        process = subprocess.Popen(nginx_command(config), stdout=output, stderr=output)
    return Server("nginx", port, process, log)


def wait_until_listening(servers: Sequence[Server], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    for server in servers:
        while True:
            if server.process.poll() is not None:
                raise SystemExit(f"{server.app} on {server.port} exited:\n{server.log.read_text()}")
            with socket.socket() as probe:
                if probe.connect_ex((server.host, server.port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise SystemExit(f"{server.app} on {server.port} did not start in {timeout:g} s")
            time.sleep(0.1)


def stop_servers(servers: Sequence[Server]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.terminate()
    for server in servers:
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (not its children's: PostgreSQL's
    postmaster reaps the backends of every database); 0 if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_tree(roots: Sequence[int]) -> list[int]:
    """``roots`` and every process descended from them (a Celery worker's pool)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def services_cpu(database: str) -> dict[int, tuple[str, float]]:
    """CPU seconds so far of Redis, nginx (the front) and PostgreSQL's processes, by pid; the
    backends serving other databases (other people's test runs) count as "other"."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if name == "redis-server":
            found[int(entry.name)] = ("Redis", process_cpu_seconds(int(entry.name)))
        elif name == "nginx":
            found[int(entry.name)] = ("nginx", process_cpu_seconds(int(entry.name)))
        elif name == "postgres" and (f" {database} " in title or not BACKEND.search(title)):
            # A backend's title is "postgres: 15/main: user database host(port) state";
            # the server's own processes (checkpointer, WAL writer...) have no client.
            found[int(entry.name)] = ("PostgreSQL", process_cpu_seconds(int(entry.name)))
    return found


def waiting_seconds(pid: int) -> float:
    """Seconds the main thread of process ``pid`` (a server's event loop) has spent
    runnable but waiting for a core (the kernel's schedstat); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/schedstat").read_text().split()
    except OSError:
        return 0.0
    return int(fields[1]) / 1e9


@dataclass
class CpuSample:
    wall: float
    servers: float
    # The servers' loops' waits for a core, summed.
    waited: float
    own: float
    services: dict[int, tuple[str, float]]
    busy: int
    total: int
    # The analyses kept so far, while analysts run.
    analysed: int | None = None


class CpuMeter:
    """Where the CPU went between ``start`` and ``stop``: the uvicorn servers, this
    process, PostgreSQL, Redis, the analysts while they run, and everything else (other
    people's runs share the machine), in % of one core; the machine has
    ``os.cpu_count()`` of them."""

    def __init__(
        self, servers: Sequence[Server], database: str, analysts: Analysts | None = None
    ) -> None:
        self.servers = servers
        self.database = database
        self.analysts = analysts
        self.begin: CpuSample | None = None
        # Of the time between start and stop, the share a server's loop spent ready to
        # run while others had the cores (%, the servers' mean): a loop hold of the
        # machine, not of the server's own work.
        self.waited = 0.0
        # The analyses kept between start and stop (None: no analysts ran).
        self.analysed: int | None = None

    def _sample(self) -> CpuSample:
        own = os.times()
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + values[4]
        services = services_cpu(self.database)
        analysts = self.analysts if self.analysts is not None and self.analysts.processes else None
        if analysts is not None:
            # Counted by pid as the services are: a pool child that came or went between
            # two samples counts for what it used in between.
            services.update(
                (pid, ("analysts", process_cpu_seconds(pid))) for pid in analysts.pids()
            )
        return CpuSample(
            time.perf_counter(),
            sum(process_cpu_seconds(server.process.pid) for server in self.servers),
            sum(waiting_seconds(server.process.pid) for server in self.servers),
            own.user + own.system,
            services,
            sum(values) - idle,
            sum(values),
            None if analysts is None else analysts.kept(),
        )

    def start(self) -> None:
        self.begin = self._sample()

    def stop(self) -> dict[str, float]:
        """% of one core used since ``start``, by "servers", "load generator",
        "PostgreSQL", "Redis", "analysts" (while they run) and "other"."""
        assert self.begin is not None
        begin, end = self.begin, self._sample()
        wall = end.wall - begin.wall
        cores = os.cpu_count() or 1
        machine = (end.busy - begin.busy) / max(1, end.total - begin.total) * 100 * cores
        self.waited = (end.waited - begin.waited) / wall / max(1, len(self.servers)) * 100
        self.analysed = (
            None
            if begin.analysed is None or end.analysed is None
            else end.analysed - begin.analysed
        )
        used = {"servers": end.servers - begin.servers, "load generator": end.own - begin.own}
        for pid, (name, seconds) in end.services.items():
            before = begin.services.get(pid, (name, 0.0))[1]
            used[name] = used.get(name, 0.0) + seconds - before
        shares = {name: seconds / wall * 100 for name, seconds in used.items()}
        shares["other"] = max(0.0, machine - sum(shares.values()))
        return shares


def cpu_text(shares: dict[str, float]) -> str:
    parts = ", ".join(f"{name} {share:.0f}%" for name, share in shares.items())
    return f"cpu (100% = 1 core of {os.cpu_count()}): {parts}"


# --- Analysts ------------------------------------------------------------------------


def analyst_command(number: int) -> list[str]:
    """The Procfile's ``analyst`` line, word for word, for the first analyst; the others
    are named apart (``analyst-2@%h``...), as analysts on other machines would be."""
    from honcho.environ import parse_procfile

    line = parse_procfile((ROOT / "Procfile").read_text()).processes["analyst"]
    words = shlex.split(line)
    if number:
        at = words.index("--hostname") + 1
        name, host = words[at].split("@", 1)
        words[at] = f"{name}-{number + 1}@{host}"
    return words


class Analysts:
    """``count`` analyst processes as ``make serve`` runs its one (the Procfile's line,
    niced), on the bench's database and Redis: started, stopped, and what they cost
    (their processes' CPU, Celery's pool children included) and did (the analyses kept,
    GameAnalysis rows)."""

    def __init__(self, count: int, environ: dict[str, str], database_url: str, logs: Path):
        self.count = count
        self.environ = environ
        self.database_url = database_url
        self.logs = [logs / f"analyst-{number + 1}.log" for number in range(count)]
        self.processes: list[subprocess.Popen[bytes]] = []
        self._connection: Any = None

    def start(self) -> None:
        # The Procfile's "celery" is the virtualenv's, as `make serve` finds it.
        path = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        for number, log in enumerate(self.logs):
            with log.open("wb") as output:
                self.processes.append(
                    subprocess.Popen(
                        analyst_command(number),
                        cwd=ROOT,
                        env={**os.environ, **self.environ, "PATH": path},
                        stdout=output,
                        stderr=output,
                        # Its own group: stopped with its pool's children, whatever they do.
                        start_new_session=True,
                    )
                )

    def pids(self) -> list[int]:
        """The running analysts' processes: each worker and its pool's children."""
        return process_tree([process.pid for process in self.processes if process.poll() is None])

    async def busy(self) -> None:
        """Wait until every analyst has taken an analysis (its log says it received
        one: with one process and nothing else to do, it starts at once)."""
        deadline = time.perf_counter() + ANALYSTS_START_SECONDS
        while not all(
            ANALYSIS_RECEIVED.search(log.read_text(errors="replace")) for log in self.logs
        ):
            for process, log in zip(self.processes, self.logs, strict=True):
                if process.poll() is not None:
                    raise SystemExit(f"analyst {log.stem} exited:\n{log.read_text()}")
            if time.perf_counter() > deadline:
                raise SystemExit(
                    f"the analysts took no analysis in {ANALYSTS_START_SECONDS:g} s "
                    f"(logs in {self.logs[0].parent})"
                )
            await asyncio.sleep(0.2)

    def kept(self) -> int:
        """The analyses kept so far (a count on a table of a few dozen rows: it holds
        this process's loop for well under a millisecond)."""
        import psycopg
        from psycopg import sql

        from games.models import GameAnalysis

        if self._connection is None:
            self._connection = psycopg.connect(self.database_url, autocommit=True)
        count = sql.SQL("SELECT count(*) FROM {}").format(
            sql.Identifier(GameAnalysis._meta.db_table)
        )
        row = self._connection.execute(count).fetchone()
        return int(row[0])

    def errors(self) -> dict[Path, list[str]]:
        """The logs in which an analyst logged an error: their error lines. (Their INFO
        lines, a task taken or done, are the Procfile's --loglevel.)"""
        found = {}
        for log in self.logs:
            lines = log.read_text(errors="replace").splitlines() if log.exists() else []
            errors = [line for line in lines if ANALYST_ERROR.search(line)]
            if errors:
                found[log] = errors
        return found

    def stop(self) -> None:
        """Stop them at once: a warm shutdown (SIGTERM) would wait for the analysis
        under way, for as long as a game's analysis takes; SIGQUIT is Celery's cold
        one. A game's analysis is derived only: one cut short is asked for again."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGQUIT)
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            # Whatever of its group is left (a pool child its worker did not end).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self.processes = []
        if self._connection is not None:
            self._connection.close()
            self._connection = None


# --- Clients -------------------------------------------------------------------------


@dataclass
class Pending:
    sent: float
    # The table's sockets (0-3 its players, 4 its spectator) still to receive the move.
    missing: set[int]


@dataclass
class Window:
    start: float
    end: float
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    completed: int = 0
    # Moves sent in the window and never delivered to all 5 sockets.
    lost: int = 0
    # What the sockets received in the window (messages' text, without framing).
    received_bytes: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    # The largest hold of any server's event loop in the window (ms; None: not recorded).
    loop_lag_ms: float | None = None
    # The load generator's own: a move it took in late is counted late too.
    load_lag_ms: float | None = None
    # The share of the window a server's loop waited for a core (%, CpuMeter.waited).
    waited: float = 0.0
    # The analyses kept in the window (None: no analysts ran).
    analysed: int | None = None

    def rate(self) -> float:
        return self.completed / (self.end - self.start)

    def server_ms_per_play(self) -> float:
        """CPU the servers spent per play (ms): a figure that other processes
        competing for the cores change less than plays/s."""
        # No play carried: no cost per play (inf, never a target met).
        rate = self.rate()
        return self.cpu.get("servers", 0.0) * 10 / rate if rate > 0 else float("inf")

    def all_latencies(self) -> list[float]:
        return self.latencies + [float("inf")] * self.lost


class Run:
    """What the tables do now: wait, move at a pace, or move at once; and the
    measurement window moves are counted in."""

    def __init__(self) -> None:
        self.active = asyncio.Event()
        self.interval = 0.0
        self.window: Window | None = None
        self.errors: Counter[str] = Counter()
        # Commands sent and not answered yet (an ack or an error).
        self.in_flight = 0
        # Set when the bench closes the sockets itself.
        self.closing = False
        self.finished: set[int] = set()
        # Sockets that have received their first state: a server accepts a socket
        # before it sends the state, and a move made in between would come inside
        # the state rather than as an event, and be counted as never delivered.
        self.started = 0
        # The events messages received, and their size: the baseline sends its own
        # at the size Atu's were.
        self.events_messages = 0
        self.events_bytes = 0
        # Commands acknowledged: moves made (bench.costs counts its costs per move).
        self.acked = 0

    def completed(self, pending: Pending, now: float) -> None:
        window = self.window
        if window is None:
            return
        if window.start <= pending.sent < window.end:
            window.latencies.append(now - pending.sent)
        if window.start <= now < window.end:
            window.completed += 1


def chosen_command(rng: random.Random, state: dict[str, Any]) -> dict[str, Any] | None:
    """A player's move at random from ``state.legal``, at ``state``'s version (None:
    nothing to do)."""
    legal = state["legal"]
    version = state["version"]
    if legal["cards"]:
        return {"type": "play", "card": rng.choice(legal["cards"]), "expected_version": version}
    if legal["hidden_card"]:
        return {"type": "play", "card": None, "expected_version": version}
    if legal["bids"]:
        return {"type": "bid", "bid": rng.choice(legal["bids"]), "expected_version": version}
    if legal["modes"]:
        mode = rng.choice(legal["modes"])
        return {"type": "one_card_mode", "mode": mode, "expected_version": version}
    return None


class Table:
    def __init__(self, number: int, seeded: SeededTable, run: Run, rng: random.Random) -> None:
        self.number = number
        self.seeded = seeded
        self.run = run
        self.rng = rng
        self.pending: dict[int, Pending] = {}
        self.turn: tuple[Any, dict[str, Any]] | None = None
        self.ready = asyncio.Event()
        # Cleared: the table makes no move (it sits out the saturation run).
        self.enabled = asyncio.Event()
        self.enabled.set()
        self.acted_version = 0
        self.next_at = 0.0
        self.sockets: list[Any] = []

    def received(self, index: int, sequences: list[int], now: float) -> None:
        for sequence in sequences:
            pending = self.pending.get(sequence)
            if pending is None:
                continue
            pending.missing.discard(index)
            if not pending.missing:
                del self.pending[sequence]
                self.run.completed(pending, now)

    def offer(self, ws: Any, state: dict[str, Any]) -> None:
        """A player's latest state: if it is its turn, the table's driver moves."""
        hand = state.get("hand")
        if state.get("status") == "finished":
            self.run.finished.add(self.number)
        if hand is None or state.get("you") != hand.get("turn"):
            return
        if state["version"] <= self.acted_version:
            return
        self.turn = (ws, state)
        self.ready.set()

    def choose(self, state: dict[str, Any]) -> dict[str, Any] | None:
        return chosen_command(self.rng, state)

    async def drive(self) -> None:
        """Make the table's moves, one at a time, as the run says."""
        run = self.run
        while True:
            await self.ready.wait()
            self.ready.clear()
            if self.turn is None:
                continue
            ws, state = self.turn
            self.turn = None
            await run.active.wait()
            await self.enabled.wait()
            if run.interval:
                delay = self.next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            command = self.choose(state)
            if command is None:
                continue
            now = time.perf_counter()
            if run.interval:
                # Keep the pace: a move a little late does not push back the next.
                late = now - self.next_at
                self.next_at = (self.next_at if late < run.interval else now) + run.interval
            self.acted_version = state["version"]
            self.pending[state["version"] + 1] = Pending(now, set(range(SOCKETS)))
            window = run.window
            if window is not None and window.start <= now < window.end:
                window.sent += 1
            run.in_flight += 1
            await ws.send(orjson.dumps(command).decode())


async def read_socket(ws: Any, table: Table, index: int) -> None:
    """Take in what the server sends socket ``index`` of ``table``; a player's state
    may make its move."""
    run = table.run
    player = index < SEATS
    # The view as the socket's messages build it: a whole state, then the changes.
    view: dict[str, Any] = {}
    try:
        async for raw in ws:
            now = time.perf_counter()
            if run.window is not None:
                run.window.received_bytes += len(raw)
            # orjson: this process shares the cores with the servers it measures, and
            # decodes every message of every socket.
            message = orjson.loads(raw)
            kind = message.get("type")
            state = None
            if kind == "events":
                run.events_messages += 1
                run.events_bytes += len(raw)
                table.received(index, [event["sequence"] for event in message["events"]], now)
                if "state" in message:
                    state = view = {**view, **message["state"]}
            elif kind == "state":
                if not view:
                    run.started += 1
                state = view = message["state"]
            elif kind == "ack":
                run.in_flight -= 1
                run.acked += 1
            elif kind == "error":
                run.errors[message.get("code", "?")] += 1
                if message.get("command") is not None:
                    run.in_flight -= 1
            if player and state is not None:
                table.offer(ws, state)
    except Exception as error:  # A socket lost mid-run is counted, not fatal.
        run.errors[f"socket lost: {type(error).__name__}"] += 1
    else:
        if not run.closing:
            run.errors[f"socket closed by the server ({ws.close_code})"] += 1


async def connect_tables(
    seeded: Sequence[SeededTable],
    ports: Sequence[int],
    run: Run,
    placement: str,
    deflate: bool,
    with_state: str,
    concurrency: int = 50,
    host: str = "127.0.0.1",
) -> tuple[list[Table], list[asyncio.Task[None]]]:
    """Open every table's 5 sockets to ``host``, ``concurrency`` handshakes at a time."""
    from websockets.asyncio.client import connect

    tables = [Table(n, s, run, random.Random(n)) for n, s in enumerate(seeded)]
    gate = asyncio.Semaphore(concurrency)
    tasks: list[asyncio.Task[None]] = []

    async def open_socket(table: Table, index: int) -> None:
        if placement == "table":
            port = ports[table.number % len(ports)]
        else:
            port = ports[(table.number * SOCKETS + index) % len(ports)]
        player = index < SEATS
        headers = {"Cookie": f"sessionid={table.seeded.sessions[index]}"} if player else {}
        uri = f"ws://{host}:{port}/ws/games/{table.seeded.game_id}/?with_state={with_state}"
        async with gate:
            ws = await connect(
                uri,
                origin=f"http://{host}:{port}",  # type: ignore[arg-type]
                additional_headers=headers,
                # Browsers offer permessage-deflate; the servers accept it with --server-deflate on.
                compression="deflate" if deflate else None,
                # Browsers do not ping; pings every 20 s per socket would be noise.
                ping_interval=None,
                open_timeout=120,
                max_size=2**22,
            )
        table.sockets.append(ws)
        tasks.append(asyncio.create_task(read_socket(ws, table, index)))

    await asyncio.gather(
        *(open_socket(table, index) for table in tables for index in range(SOCKETS))
    )
    tasks.extend(asyncio.create_task(table.drive()) for table in tables)
    return tables, tasks


# --- Baselines -----------------------------------------------------------------------


async def round_trips(
    uri: str, origin: str, message: str, answer: str, count: int, skip_first: bool
) -> list[float]:
    """Seconds per round trip of ``count`` messages sent one after another."""
    from websockets.asyncio.client import connect

    async with connect(uri, origin=origin, ping_interval=None) as ws:  # type: ignore[arg-type]
        if skip_first:
            await ws.recv()
        timings = []
        for number in range(count + count // 10):
            start = time.perf_counter()
            await ws.send(message)
            reply = await ws.recv()
            if answer not in str(reply):
                raise RuntimeError(f"unexpected reply {reply!r}")
            if number >= count // 10:  # the first tenth warms up
                timings.append(time.perf_counter() - start)
        return timings


@dataclass
class RoundTrips:
    echo: list[float]
    health: list[float]


async def measure_baselines(echo_port: int, server_port: int) -> RoundTrips:
    echo = await round_trips(
        f"ws://127.0.0.1:{echo_port}/", f"http://127.0.0.1:{echo_port}", "ping", "ping", 2000, False
    )
    health = await round_trips(
        f"ws://127.0.0.1:{server_port}/ws/health/",
        f"http://127.0.0.1:{server_port}",
        '{"type": "ping"}',
        "pong",
        # Within one socket's burst budget (ATU_SOCKET_RATE, 300 by default).
        250,
        True,
    )
    return RoundTrips(echo, health)


# --- The load ------------------------------------------------------------------------


def largest_loop_lag(logs: Sequence[Path | None], start: float, end: float) -> float | None:
    """The largest hold (ms) of the event loops whose holds ``logs`` record, for the
    seconds that ended between the unix times ``start`` and ``end`` (runtime/looplag.py)."""
    gaps = []
    for log in logs:
        if log is None or not log.exists():
            continue
        for line in log.read_text().splitlines():
            stamp, gap = line.split()
            if start <= float(stamp) <= end:
                gaps.append(float(gap))
    return max(gaps) if gaps else None


async def measure_windows(
    run: Run, meter: CpuMeter, tables: Sequence[Table], args: argparse.Namespace, label: str
) -> list[Window]:
    windows = []
    for number in range(args.repeat):
        meter.start()
        start = time.perf_counter()
        wall = time.time()
        window = Window(start, start + args.seconds)
        run.window = window
        await asyncio.sleep(args.seconds)
        window.cpu = meter.stop()
        window.waited = meter.waited
        window.analysed = meter.analysed
        window.loop_lag_ms = largest_loop_lag([s.lag_log for s in meter.servers], wall, time.time())
        window.load_lag_ms = largest_loop_lag([args.load_lag_log], wall, time.time())
        # Let the window's last moves arrive before reading its latencies.
        deadline = time.perf_counter() + GRACE_SECONDS
        while time.perf_counter() < deadline and any(
            p.sent < window.end for t in tables for p in t.pending.values()
        ):
            await asyncio.sleep(0.05)
        lost = sum(1 for t in tables for p in t.pending.values() if p.sent < window.end)
        window.lost = lost
        latencies = window.all_latencies()
        analysed = "" if window.analysed is None else f"{window.analysed} analyses kept, "
        print(
            f"  {label} window {number + 1}: {window.rate():,.1f} plays/s, "
            f"latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms "
            f"({len(window.latencies)} moves, {lost} not delivered in {GRACE_SECONDS:g} s), "
            f"servers {window.server_ms_per_play():.2f} ms CPU per play, "
            f"{window.received_bytes / max(window.completed, 1) / 1000:.1f} kB sent per play, "
            f"largest loop hold {lag_text(window.loop_lag_ms)} (the load generator's "
            f"{lag_text(window.load_lag_ms)}), servers' loops waited for a core "
            f"{window.waited:.1f}% of the time; {analysed}{cpu_text(window.cpu)}",
            flush=True,
        )
        windows.append(window)
    run.window = None
    return windows


def lag_text(lag_ms: float | None) -> str:
    return "not recorded" if lag_ms is None else f"{lag_ms:.0f} ms"


@dataclass(frozen=True)
class Figures:
    """Medians over a mode's windows, and the worst window's p99 and loop hold; with
    analysts beside, their CPU (cores, the median window's) and the analyses they kept
    in all the windows."""

    rate: float
    p50_ms: float
    p99_ms: float
    server_ms_per_play: float
    worst_p99_ms: float
    loop_lag_ms: float | None
    waited: float
    analysts_cores: float | None = None
    analysed: int | None = None

    @classmethod
    def of(cls, windows: Sequence[Window]) -> Figures:
        p99s = [percentile(w.all_latencies(), 0.99) * 1000 for w in windows]
        lags = [w.loop_lag_ms for w in windows if w.loop_lag_ms is not None]
        analysts = [w.cpu["analysts"] / 100 for w in windows if "analysts" in w.cpu]
        analysed = [w.analysed for w in windows if w.analysed is not None]
        return cls(
            statistics.median(w.rate() for w in windows),
            statistics.median(percentile(w.all_latencies(), 0.5) * 1000 for w in windows),
            statistics.median(p99s),
            statistics.median(w.server_ms_per_play() for w in windows),
            max(p99s),
            max(lags) if lags else None,
            statistics.median(w.waited for w in windows),
            statistics.median(analysts) if analysts else None,
            sum(analysed) if analysed else None,
        )

    def text(self) -> str:
        return (
            f"{self.rate:,.1f} plays/s, latency p50 {self.p50_ms:.1f} ms, "
            f"p99 {self.p99_ms:.1f} ms (worst window {self.worst_p99_ms:.1f} ms, largest "
            f"loop hold {lag_text(self.loop_lag_ms)}, loops waiting for a core "
            f"{self.waited:.1f}% of the time); servers {self.server_ms_per_play:.2f} ms CPU "
            "per play"
        )


def pacing_interval(tables: int, saturation_rate: float, fraction: float) -> float:
    """Seconds between a table's moves for ``tables`` tables to offer ``fraction`` of
    ``saturation_rate`` plays per second between them."""
    if tables < 1 or saturation_rate <= 0 or fraction <= 0:
        raise ValueError(
            f"no pace for {tables} tables at {fraction:g} of {saturation_rate:g} plays/s"
        )
    return tables / (saturation_rate * fraction)


@dataclass
class Load:
    """Tables whose sockets are open, and what measures them."""

    run: Run
    meter: CpuMeter
    tables: list[Table]
    tasks: list[asyncio.Task[None]]
    args: argparse.Namespace
    label: str


async def open_load(
    seeded: Sequence[SeededTable],
    servers: Sequence[Server],
    ports: Sequence[int],
    args: argparse.Namespace,
    label: str,
    analysts: Analysts | None = None,
    host: str = "127.0.0.1",
) -> Load:
    """Connect every socket of ``seeded``'s tables to ``ports`` of ``host`` (the
    servers', or the front's) and wait for each to have its state; the meter counts
    ``analysts`` in while they run."""
    run = Run()
    meter = CpuMeter(servers, urlsplit(args.database_url).path.lstrip("/"), analysts)
    started = time.perf_counter()
    tables, tasks = await connect_tables(
        seeded, ports, run, args.placement, args.deflate == "on", args.with_state, host=host
    )
    deadline = time.perf_counter() + 120
    while run.started < len(tables) * SOCKETS:
        if time.perf_counter() > deadline or run.errors:
            raise SystemExit(f"{run.started} sockets got their state; errors: {dict(run.errors)}")
        await asyncio.sleep(0.05)
    print(
        f"Connected {len(tables) * SOCKETS:,} sockets ({len(tables)} tables), each with "
        f"its state, in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return Load(run, meter, tables, tasks, args, label)


async def paced(load: Load, interval: float, name: str) -> Figures:
    """Every table moves once per ``interval`` seconds."""
    run, tables = load.run, load.tables
    # Table n's first move comes n/N of an interval in, so the load is even.
    now = time.perf_counter()
    for table in tables:
        table.next_at = now + interval * table.number / len(tables)
    run.interval = interval
    run.active.set()
    print(
        f"{name}: {len(tables)} tables, one move per {interval:.3g} s per table "
        f"(offered {len(tables) / interval:,.0f} plays/s)",
        flush=True,
    )
    await asyncio.sleep(load.args.warmup)
    windows = await measure_windows(run, load.meter, tables, load.args, f"{load.label} {name}")
    return Figures.of(windows)


async def paced_beside(load: Load, analysts: Analysts) -> Figures:
    """Paced as ``paced``, with the analysts working beside the servers: started as the
    tables go on moving (unmeasured), measured once each is analysing a game, stopped
    after the last window."""
    analysts.start()
    try:
        await analysts.busy()
        print(
            f"{analysts.count} analyst(s) started (the Procfile's line), each analysing a game",
            flush=True,
        )
        figures = await paced(load, load.args.interval, "Paced, analyses beside")
        kept = analysts.kept()
    finally:
        # In a thread: a worker may take seconds to stop, while the sockets go on.
        await asyncio.to_thread(analysts.stop)
    left = load.args.analysed_games - kept
    print(f"  analysts stopped: {kept} analyses kept in all, {left} not made", flush=True)
    if not left:
        print("  (the analysts ran out of games: more --analysed-games keeps them busy)")
    return figures


async def saturated(load: Load) -> Figures:
    """Each player of ``--saturation-tables`` (0: all) moves as soon as it is its turn."""
    run, tables, args = load.run, load.tables, load.args
    chosen = tables[: args.saturation_tables] if args.saturation_tables else tables
    for table in tables[len(chosen) :]:
        table.enabled.clear()
    run.interval = 0.0
    run.active.set()
    print(f"Saturation: {len(chosen)} tables, each move as soon as it is a turn", flush=True)
    await asyncio.sleep(args.warmup)
    windows = await measure_windows(run, load.meter, chosen, args, f"{load.label} saturation")
    return Figures.of(windows)


async def drained(load: Load) -> float:
    """Stop the moves and wait (``GRACE_SECONDS`` at most) until every answer and
    broadcast has arrived; the seconds waited."""
    run, tables = load.run, load.tables
    run.active.clear()
    started = time.perf_counter()
    deadline = started + GRACE_SECONDS
    while time.perf_counter() < deadline and (
        run.in_flight > 0 or any(table.pending for table in tables)
    ):
        await asyncio.sleep(0.05)
    return time.perf_counter() - started


async def close_load(load: Load) -> tuple[int, int]:
    """Stop the moves, let the last ones arrive, close the sockets; the games finished
    and the mean size of an events message the sockets received."""
    run, tables = load.run, load.tables
    # Closing a socket whose command is still running makes the server log a
    # traceback for its ack: let every answer and broadcast arrive first.
    await drained(load)
    never = [(t, seq, p) for t in tables for seq, p in t.pending.items()]
    if never:
        table, sequence, pending = never[0]
        print(
            f"  {len(never)} moves never reached all {SOCKETS} sockets; first: game "
            f"{table.seeded.game_id} sequence {sequence}, sockets {sorted(pending.missing)}"
        )
    run.closing = True
    for task in load.tasks:
        task.cancel()
    await asyncio.gather(*load.tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for t in tables for ws in t.sockets), return_exceptions=True)
    if run.errors:
        print(f"  errors: {dict(run.errors)}")
    return len(run.finished), run.events_bytes // max(1, run.events_messages)


@dataclass(frozen=True)
class Measured:
    paced: Figures
    saturation: Figures
    # Paced again with analysts beside (None: not run).
    beside: Figures | None
    # Paced at ``--of-saturation`` of Atu's saturation rate, and that pace (None: not run).
    part: Figures | None
    half_interval: float | None
    finished: int
    # The mean size of an events message the sockets received.
    message_bytes: int


async def run_modes(
    seeded: Sequence[SeededTable],
    fresh: Sequence[SeededTable],
    servers: Sequence[Server],
    ports: Sequence[int],
    args: argparse.Namespace,
    label: str,
    part_interval: float | None,
    analysts: Analysts | None = None,
) -> Measured:
    """Paced at ``--interval`` (and again with ``analysts`` beside, if any) and at
    saturation on ``seeded``'s tables; then on ``fresh``'s (their games at the start,
    as ``seeded``'s were: the first tables' games are far into their hands after
    saturation, some finished) paced at ``part_interval``, or, for Atu (None), at
    ``--of-saturation`` of the saturation rate just measured."""
    load = await open_load(seeded, servers, ports, args, label, analysts)
    at_interval = await paced(load, args.interval, "Paced")
    beside = None if analysts is None else await paced_beside(load, analysts)
    # A pace over the machine's saturation leaves a backlog: saturation is measured
    # from a standstill, as on fresh servers.
    waited = await drained(load)
    print(f"  (moves stopped; every answer and broadcast in after {waited:.1f} s)", flush=True)
    saturation = await saturated(load)
    finished, message_bytes = await close_load(load)
    part = None
    if fresh and part_interval is None and saturation.rate <= 0:
        print(f"{label} made no play at saturation: no pace at a share of it", flush=True)
    elif fresh:
        if part_interval is None:
            part_interval = pacing_interval(len(fresh), saturation.rate, args.of_saturation)
            print(
                f"{label}'s own saturation rate: {saturation.rate:,.1f} plays/s (the median "
                f"window); paced next at {args.of_saturation:g} of it",
                flush=True,
            )
        load = await open_load(fresh, servers, ports, args, label)
        part = await paced(load, part_interval, f"Paced at {args.of_saturation:g} of saturation")
        more, _ = await close_load(load)
        finished += more
    return Measured(at_interval, saturation, beside, part, part_interval, finished, message_bytes)


def baseline_tables(count: int, prefix: str) -> list[SeededTable]:
    return [
        SeededTable(f"{prefix}-{number}", tuple(f"seat-{seat}" for seat in range(SEATS)))
        for number in range(count)
    ]


# --- Main ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500, help="tables (5 sockets each)")
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes")
    parser.add_argument(
        "--placement",
        choices=("socket", "table"),
        default="socket",
        help="spread sockets over the servers one by one (as a load balancer would), "
        "or keep a table's 5 sockets on one server (as docker/nginx.conf routes them)",
    )
    parser.add_argument(
        "--front",
        choices=("none", "nginx"),
        default="none",
        help="connect the sockets straight to the servers (placed by --placement), or "
        "through nginx running docker/nginx.conf, which keeps each table on one server",
    )
    parser.add_argument("--interval", type=float, default=2.0, help="paced: seconds per move")
    parser.add_argument(
        "--of-saturation",
        type=float,
        default=0.5,
        help="then paced, on as many fresh tables, at this share of Atu's saturation rate "
        "just measured, the baseline at the same pace (0: not run)",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per window")
    parser.add_argument("--repeat", type=int, default=5, help="windows per measurement")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before each mode")
    parser.add_argument(
        "--saturation-tables", type=int, default=0, help="tables moving at saturation (0: all)"
    )
    parser.add_argument(
        "--lifespan",
        choices=("on", "off"),
        default="on",
        help="uvicorn's --lifespan, on as `make run` serves (publishes are handed to the "
        "server's loop; off: the worker thread runs each publish and waits for it)",
    )
    parser.add_argument(
        "--deflate",
        choices=("on", "off"),
        default="on",
        help="offer permessage-deflate as browsers do (off: as if the server refused it)",
    )
    parser.add_argument(
        "--server-deflate",
        choices=("on", "off"),
        default="off",
        help="let the servers accept permessage-deflate (off, as `make run` serves: each "
        "message compressed per socket costs more CPU than the rest of its sending)",
    )
    parser.add_argument(
        "--with-state",
        choices=("changes", "1"),
        default="changes",
        help="what each events message carries of the view: the members changed, as the "
        "table page asks (changes), or the whole view (1)",
    )
    parser.add_argument(
        "--analysts",
        type=int,
        default=0,
        help="after the paced measurement, pace again with this many analyst processes "
        "(the Procfile's line) analysing finished games beside the servers (0: not run)",
    )
    parser.add_argument(
        "--analysed-games",
        type=int,
        default=40,
        help="with --analysts: finished games seeded for them to analyse",
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.servers < 1 or args.repeat < 1:
        parser.error("--tables, --servers and --repeat must be at least 1")
    if args.of_saturation < 0:
        parser.error("--of-saturation must be 0 (not run) or more")
    if args.analysts < 0:
        parser.error("--analysts must be 0 (not run) or more")
    if args.analysts and args.analysed_games < args.analysts:
        parser.error("--analysed-games must give each of the --analysts a game")
    return args


def seed_analysed_games(count: int) -> None:
    """Seed the analysts' games, and check their analyses wait in the analysts' queue."""
    started = time.perf_counter()
    seed_finished_games(count)
    queued = queued_analyses()
    print(
        f"Seeded {count} finished games in {time.perf_counter() - started:.1f} s; "
        f"{queued} analyses wait in the analysis queue",
        flush=True,
    )
    if queued != count:
        raise SystemExit(f"{count} finished games asked for {queued} analyses, not {count}")


def raise_open_files_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run_async(main: Callable[[], Coroutine[Any, Any, Result]]) -> Result:
    """Run on uvloop when it is there, as uvicorn does."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main())
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main())


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    raise_open_files_limit()
    environ = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        # Servers and this process sign sessions with the same key.
        "SECRET_KEY": "bench-live-secret-key-not-for-production-0123456789",
        "DEBUG": "false",
        # Every table's sockets come from this one address (runtime/throttling.py).
        "ATU_SOCKETS_PER_ADDRESS": "off",
    }
    placed = (
        "sockets through nginx (docker/nginx.conf)"
        if args.front == "nginx"
        else f"sockets placed by {args.placement}"
    )
    print(
        f"Live tables benchmark: {args.tables} tables x {SOCKETS} sockets, {args.servers} "
        f"uvicorn process(es) (lifespan {args.lifespan}), {placed}, "
        f"permessage-deflate offered {args.deflate}, accepted {args.server_deflate}, "
        f"with_state={args.with_state}, "
        f"{os.cpu_count()} CPUs; windows of {args.seconds:g} s x {args.repeat}",
        flush=True,
    )
    started = time.perf_counter()
    prepare_database(args.database_url)
    prepare_redis(args.redis_url)
    setup_django(environ)
    # A second set of tables for the pace at a share of saturation, when asked for.
    seeded = seed_tables(args.tables * (2 if args.of_saturation else 1))
    seeded, fresh = seeded[: args.tables], seeded[args.tables :]
    print(
        f"Seeded {len(seeded) + len(fresh)} tables in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    if args.analysts:
        seed_analysed_games(args.analysed_games)

    logs = Path(tempfile.mkdtemp(prefix="atu-live-"))
    analysts = Analysts(args.analysts, environ, args.database_url, logs) if args.analysts else None
    args.load_lag_log = logs / "loop-lag-load-generator.log"
    servers = [
        start_server("config.asgi:application", environ, args.lifespan, args.server_deflate, logs)
        for _ in range(args.servers)
    ]
    echo = start_server("bench.live:echo_app", environ, "off", args.server_deflate, logs)
    front = [start_front(servers, logs)] if args.front == "nginx" else []
    # The sockets connect to the front, or straight to the servers.
    ports = [server.port for server in front or servers]
    started_servers = [*servers, echo, *front]
    try:
        wait_until_listening(started_servers)

        def start_baseline(message_bytes: int) -> list[Server]:
            # Atu's servers stop first: the baseline has the machine to itself, as they had.
            stop_servers(started_servers)
            baseline_environ = {
                "BASELINE_DATABASE_URL": args.database_url,
                "REDIS_URL": args.redis_url,
                "BASELINE_MESSAGE_BYTES": str(message_bytes),
                "BASELINE_SEATS": str(SEATS),
            }
            baseline = [
                start_server("bench.baseline:app", baseline_environ, "on", "off", logs)
                for _ in range(args.servers)
            ]
            started_servers.extend(baseline)
            wait_until_listening(baseline)
            return baseline

        return run_async(
            lambda: paced_collector(
                measure(seeded, fresh, servers, ports, echo, start_baseline, analysts, args),
                args.load_lag_log,
            )
        )
    finally:
        if analysts is not None:
            analysts.stop()
        stop_servers(started_servers)
        report_server_errors(
            [server for server in started_servers if server is not echo], logs, analysts
        )


def report_server_errors(
    servers: Sequence[Server], logs: Path, analysts: Analysts | None = None
) -> None:
    """Say what the servers logged, and the analysts' errors (kept in ``logs`` if
    anything); else drop the logs."""
    logged = False
    found = analysts.errors() if analysts is not None else {}
    for log, errors in found.items():
        logged = True
        print(f"  {log.stem} logged {len(errors)} errors; last: {errors[-1][:200]}")
    for server in servers:
        # The project's JSON logging passes uvicorn's INFO lines ("connection open", one
        # per socket) whatever --log-level says: only what is worse is worth keeping.
        lines = [
            line
            for line in server.log.read_text(errors="replace").splitlines()
            if '"level": "INFO"' not in line
        ]
        tracebacks = sum(1 for line in lines if line.startswith("Traceback"))
        if lines:
            logged = True
            last = next((line for line in reversed(lines) if line and line[0] != " "), "")
            print(f"  server {server.port} logged {len(lines)} lines, {tracebacks} tracebacks")
            print(f"    last: {last[:200]}")
    if logged:
        print(f"  server logs kept in {logs}")
    else:
        shutil.rmtree(logs, ignore_errors=True)


async def paced_collector(work: Coroutine[Any, Any, Result], lag_log: Path) -> Result:
    """Run ``work`` with this process's collector paced as the servers' is: this one
    process holds the clients of all the tables, and a pause of its collector would
    delay all their receipts at once. Its own loop's holds are recorded to
    ``lag_log`` as the servers' are: a move it takes in late is counted late too."""
    from runtime import collector, looplag

    helpers = [
        asyncio.ensure_future(collector.pace()),
        asyncio.ensure_future(looplag.watch(record_to=lag_log)),
    ]
    try:
        return await work
    finally:
        for helper in helpers:
            helper.cancel()


def report_beside(alone: Figures, beside: Figures, args: argparse.Namespace) -> None:
    """The paced figures with analyses beside, against those without."""
    cores = beside.analysts_cores or 0.0
    print(
        f"  Atu paced, {args.analysts} analyst(s) beside: {beside.text()}; analysts "
        f"{cores:.2f} cores (median window), {beside.analysed or 0} analyses kept in the "
        "windows"
    )
    print(
        f"    paced p99 with analyses beside: {beside.p99_ms / alone.p99_ms:.2f}x the paced "
        f"p99 without ({beside.p99_ms:.1f} ms against {alone.p99_ms:.1f} ms, median windows)"
    )
    target = f"paced p99 under {P99_TARGET_MS:g} ms in every window with analyses beside"
    if args.tables >= P99_TARGET_TABLES:
        met = verdict(beside.worst_p99_ms < P99_TARGET_MS)
        print(
            f"    target: {target} at {args.tables} tables -> {met} "
            f"(worst window {beside.worst_p99_ms:.1f} ms)"
        )
    else:
        print(
            f"    target: {target} at {P99_TARGET_TABLES} tables -> not measured "
            f"(only {args.tables} tables)"
        )


async def measure(
    seeded: Sequence[SeededTable],
    fresh: Sequence[SeededTable],
    servers: Sequence[Server],
    ports: Sequence[int],
    echo: Server,
    start_baseline: Callable[[int], list[Server]],
    analysts: Analysts | None,
    args: argparse.Namespace,
) -> int:
    base = await measure_baselines(echo.port, servers[0].port)
    print("Round trips (servers idle):")
    print(
        f"  bare WebSocket echo (uvicorn, ASGI echo app): "
        f"p50 {percentile(base.echo, 0.5) * 1000:.3f} ms, "
        f"p99 {percentile(base.echo, 0.99) * 1000:.3f} ms"
    )
    print(
        f"  /ws/health/ ping (Channels + pub/sub group send): "
        f"p50 {percentile(base.health, 0.5) * 1000:.3f} ms, "
        f"p99 {percentile(base.health, 0.99) * 1000:.3f} ms",
        flush=True,
    )
    atu = await run_modes(seeded, fresh, servers, ports, args, "Atu", None, analysts)
    print(
        f"Baseline (bench/baseline.py, {len(servers)} uvicorn process(es), "
        f"{atu.message_bytes} B per message as Atu's)",
        flush=True,
    )
    baseline_servers = start_baseline(atu.message_bytes)
    baseline_ports = [server.port for server in baseline_servers]
    baseline = await run_modes(
        baseline_tables(len(seeded), "baseline"),
        baseline_tables(len(fresh), "baseline-fresh"),
        baseline_servers,
        baseline_ports,
        args,
        "baseline",
        atu.half_interval,
    )

    print("Results (medians of the windows):")
    print(f"  Atu paced, {args.tables} tables: {atu.paced.text()}")
    print(f"  baseline paced: {baseline.paced.text()}")
    target = f"p99 under {P99_TARGET_MS:g} ms in every window"
    if args.tables >= P99_TARGET_TABLES:
        # Judged at 500 tables, and at any larger count the run was asked for.
        met = verdict(atu.paced.worst_p99_ms < P99_TARGET_MS)
        print(
            f"    target: {target} at {args.tables} tables -> {met} "
            f"(worst window {atu.paced.worst_p99_ms:.1f} ms)"
        )
    else:
        print(
            f"    target: {target} at {P99_TARGET_TABLES} tables -> not measured "
            f"(only {args.tables} tables)"
        )
    if atu.beside is not None:
        report_beside(atu.paced, atu.beside, args)
    print(f"  Atu saturation: {atu.saturation.text()}")
    print(f"  baseline saturation: {baseline.saturation.text()}")
    rate_ratio = atu.saturation.rate / baseline.saturation.rate
    cpu_ratio = atu.saturation.server_ms_per_play / baseline.saturation.server_ms_per_play
    print(
        f"    plays/s: Atu {rate_ratio:.2f}x the baseline; target at least "
        f"{RATE_TARGET:g}x -> {verdict(rate_ratio >= RATE_TARGET)}"
    )
    print(
        f"    servers' CPU per play: Atu {cpu_ratio:.2f}x the baseline; target at most "
        f"{CPU_TARGET:g}x -> {verdict(cpu_ratio <= CPU_TARGET)}"
    )
    if atu.part is not None and baseline.part is not None and atu.half_interval is not None:
        offered = len(fresh) / atu.half_interval
        print(
            f"  Atu's own saturation rate {atu.saturation.rate:,.1f} plays/s; paced at "
            f"{args.of_saturation:g} of it ({offered:,.0f} plays/s offered: {len(fresh)} "
            f"fresh tables, one move per {atu.half_interval:.3g} s each):"
        )
        print(f"  Atu: {atu.part.text()}")
        print(f"  baseline at the same pace: {baseline.part.text()}")
        met = verdict(atu.part.worst_p99_ms < P99_TARGET_MS)
        print(
            f"    target: {target} at {args.of_saturation:g} of Atu's saturation -> {met} "
            f"(worst window {atu.part.worst_p99_ms:.1f} ms)"
        )
        part_ratio = atu.part.server_ms_per_play / baseline.part.server_ms_per_play
        over_saturation = atu.part.server_ms_per_play / atu.saturation.server_ms_per_play
        print(
            f"    servers' CPU per play at that pace: Atu {part_ratio:.2f}x the baseline; "
            f"Atu's {over_saturation:.2f}x its own at saturation"
        )
    if atu.finished:
        print(f"  ({atu.finished} games finished during the run)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
