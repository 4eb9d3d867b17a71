"""The site spread over machines, rehearsed on one: network namespaces for three
application nodes, one for PostgreSQL and Redis, one for the front and one for the
load generator, joined by a bridge; and the loss of a node during live play.

Run (as root, which ``ip netns`` needs; PostgreSQL 15's binaries, redis-server and
nginx installed; about 12 minutes, the fault 1 to 3)::

    .venv/bin/python -m bench.nodes --tables 500 --seconds 20
    .venv/bin/python -m bench.nodes --fault node-kill --tables 30

Everything it makes is named ``atu-<pid>-...`` and taken down at the end, whatever
happens (``ip netns list`` and ``ip link`` show nothing of it afterwards):

- a bridge in this namespace (``10.A.B.1/24``, A and B from the pid) and, on it, the
  namespaces ``db`` (``.10``), ``n1``-``n3`` (``.11``-``.13``), ``front`` (``.20``)
  and ``load`` (``.30``), each with its own address and ``lo``;
- in ``db``, a PostgreSQL cluster of its own (initdb into a temporary directory; the
  roles made by ``runtime/database_roles.sql``, migrated as the owner as ``make
  serve`` does) and a redis-server of its own, and Celery beat (one per site);
- on each node, the Procfile's two uvicorn processes (``:8001``, ``:8002``) and a
  Celery worker (named for its node, as on its own machine);
- in ``front``, ``python -m config.front`` (nginx, routing a game's sockets by a
  consistent hash of its path over every node's processes, and leaving out those
  whose ``/readyz`` fails);
- the load generator is this process, its sockets opened from ``load``.

Measured (default): for 1, 2 and 3 nodes (``--nodes``), each on ``--tables`` fresh
tables of 5 sockets through the front (bench.live's tables and players: no bot,
every move from a socket), paced at one move per ``--interval`` seconds per table:
plays per second carried, delivery p99 (median and worst of ``--repeat`` windows) and
the servers' CPU per play (the nodes' uvicorn processes). The machine's cores are
shared by every node, so spreading cannot add throughput here: what is measured is
its overhead, the CPU per play with 3 nodes over 1 node's (target at most 1.2x) and
p99 under 100 ms at 500 tables with 1 and 3 nodes.

``--fault node-kill``: three nodes, ``--tables`` tables of two players and two
bots (a spectator's socket too), the players moving ``--think`` seconds after their
turn comes, bots after ``ATU_BOT_DELAY_SECONDS`` (``--bot-delay``). After
``--before`` seconds every process of the node holding the most sockets is killed
(SIGKILL); the sockets it held
reconnect through the front, resuming from the last version they had (``?after=N``);
once every table has moved on after the kill (its bots' moves made by the other
nodes' workers), the node is started again and play goes on ``--after`` seconds.
Passes when: every acknowledged move is in the log, at the version acknowledged;
every move in the log was sent once (none applied twice: each seat's move is
unique in its stream); every socket's versions ran on without a gap or a fresh state
(an exact resume), up to the log's end; every table of the dead node moved on, bots
included, after the kill.

``--fault redis-restart``: the same tables on three nodes; after ``--before`` seconds
redis-server is stopped (SIGTERM) and started again, empty (it keeps nothing on
disk: the broker's queues and held tasks, the channel layer's groups and the clients'
budgets are gone). Passes on the same checks, no socket lost, and every table moving
on after the restart (a bot's turn whose task was lost, at beat's next
``resume_automatic_moves``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import orjson

from bench.automatic import MOVES, start_worker, stop_worker
from bench.live import (
    P99_TARGET_MS,
    P99_TARGET_TABLES,
    PRESET,
    SEATS,
    Figures,
    Server,
    chosen_command,
    close_load,
    open_load,
    paced,
    paced_collector,
    raise_open_files_limit,
    run_async,
    seed_tables,
    setup_django,
    signed_in_users,
    start_server,
    stop_servers,
    verdict,
    wait_until_listening,
)

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
NODES = 3
# The Procfile's two server processes on each node, and the front's port.
SERVER_PORTS = (8001, 8002)
FRONT_PORT = 8000
PG_PORT = 5432
REDIS_PORT = 6379
DATABASE = "atu_nodes"
# Each namespace's host number on the bridge's /24.
HOSTS = {"db": 10, "n1": 11, "n2": 12, "n3": 13, "front": 20, "load": 30}
CPU_RATIO_TARGET = 1.2
CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def sh(*words: str) -> str:
    """Run a command; its output, or SystemExit with what it said."""
    done = subprocess.run(words, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(words)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


# --- The network ---------------------------------------------------------------------


def _setns(path: str) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        if _libc.setns(descriptor, CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns {path}: {os.strerror(error)}")
    finally:
        os.close(descriptor)


class Network:
    """A bridge and a namespace per role on it, named for this process."""

    def __init__(self) -> None:
        pid = os.getpid()
        self.tag = f"atu-{pid}"
        self.bridge = f"{self.tag}-br"
        taken = sh("ip", "-o", "-4", "addr")
        a, b = 100 + pid % 100, pid // 100 % 256
        while f" 10.{a}.{b}." in taken:
            b = (b + 1) % 256
        self.subnet = f"10.{a}.{b}"
        self.names = {role: f"{self.tag}-{role}" for role in HOSTS}
        self.made: list[str] = []

    def address(self, role: str) -> str:
        return f"{self.subnet}.{HOSTS[role]}"

    def prefix(self, role: str) -> list[str]:
        """A command's prefix that runs it in ``role``'s namespace."""
        return ["nsenter", f"--net=/run/netns/{self.names[role]}", "--"]

    def up(self) -> None:
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        self.made.append(self.bridge)
        sh("ip", "addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")
        for role, name in self.names.items():
            sh("ip", "netns", "add", name)
            self.made.append(name)
            outside, inside = f"{self.tag}-{HOSTS[role]}", f"{self.tag}-{HOSTS[role]}i"
            sh("ip", "link", "add", outside, "type", "veth", "peer", "name", inside, "netns", name)
            self.made.append(outside)
            sh("ip", "link", "set", outside, "master", self.bridge, "up")
            sh("ip", "-n", name, "addr", "add", f"{self.address(role)}/24", "dev", inside)
            sh("ip", "-n", name, "link", "set", inside, "up")
            sh("ip", "-n", name, "link", "set", "lo", "up")

    def down(self) -> None:
        """Take down what ``up`` made: each veth pair at once (its namespace's end
        would go only when the kernel gets round to the namespace), each namespace,
        the bridge."""
        for name in reversed(self.made):
            if name in self.names.values():
                subprocess.run(["ip", "netns", "del", name], capture_output=True)
            else:
                subprocess.run(["ip", "link", "del", name], capture_output=True)
        self.made = []

    @contextlib.contextmanager
    def inside(self, role: str) -> Iterator[None]:
        """This thread (and the threads it starts meanwhile) in ``role``'s namespace."""
        keep = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            _setns(f"/run/netns/{self.names[role]}")
            try:
                yield
            finally:
                if _libc.setns(keep, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns back")
        finally:
            os.close(keep)


# --- The site ------------------------------------------------------------------------


@dataclass
class Node:
    number: int
    servers: list[Server]
    worker: subprocess.Popen[bytes]


@dataclass
class Site:
    """The services of the rehearsal, each in its namespace."""

    network: Network
    directory: Path
    bot_delay: float
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    nodes: dict[int, Node] = field(default_factory=dict)
    front: subprocess.Popen[bytes] | None = None
    front_log: Path | None = None
    redis: subprocess.Popen[bytes] | None = None

    @property
    def database_host(self) -> str:
        return self.network.address("db")

    def environ(self) -> dict[str, str]:
        db = self.database_host
        return {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://atu_app@{db}:{PG_PORT}/{DATABASE}",
            "DATABASE_OWNER_URL": f"postgres://atu@{db}:{PG_PORT}/{DATABASE}",
            "REDIS_URL": f"redis://{db}:{REDIS_PORT}/0",
            "SECRET_KEY": "bench-nodes-secret-key-not-for-production-0123456789",
            "DEBUG": "false",
            # The front's address is the site's; the probes name it too.
            "ALLOWED_HOSTS": f"{self.network.address('front')},localhost",
            # Every table's sockets come from the load generator's one address.
            "ATU_SOCKETS_PER_ADDRESS": "off",
            "ATU_BOT_DELAY_SECONDS": str(self.bot_delay),
        }

    def _start(self, role: str, words: Sequence[str], log: str) -> subprocess.Popen[bytes]:
        with (self.directory / log).open("wb") as output:
            process = subprocess.Popen(
                [*self.network.prefix(role), *words],
                cwd=ROOT,
                env={**os.environ, **self.environ()},
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(process)
        return process

    def start_services(self) -> None:
        """PostgreSQL and Redis in ``db``, the roles and the migrated database."""
        data = self.directory / "postgres"
        data.mkdir()
        shutil.chown(self.directory, "postgres")
        shutil.chown(data, "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
        sh(
            *as_postgres,
            str(PG_BIN / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-instructions",
        )
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {self.network.subnet}.0/24 trust\n")
        db = self.database_host
        self._start(
            "db",
            [
                *as_postgres,
                str(PG_BIN / "postgres"),
                "-D",
                str(data),
                "-c",
                f"listen_addresses={db}",
                "-c",
                f"port={PG_PORT}",
                "-c",
                f"unix_socket_directories={data}",
                "-c",
                "max_connections=400",
            ],
            "postgres.log",
        )
        self.start_redis()
        deadline = time.monotonic() + 60
        while subprocess.run(
            [str(PG_BIN / "pg_isready"), "-q", "-h", db, "-p", str(PG_PORT)]
        ).returncode:
            if time.monotonic() > deadline:
                raise SystemExit(f"PostgreSQL did not start:\n{self._log('postgres.log')}")
            time.sleep(0.2)
        sh(
            "psql",
            "-q",
            "-h",
            db,
            "-U",
            "postgres",
            "-v",
            "owner=atu",
            "-v",
            "app=atu_app",
            "-v",
            f"database={DATABASE}",
            "-f",
            str(ROOT / "runtime" / "database_roles.sql"),
        )
        setup_django(self.environ(), migrate="migrate_as_owner")

    def start_redis(self) -> None:
        """redis-server in ``db``, keeping nothing on disk: restarted, it is empty (its
        queues, its held tasks and the clients' budgets gone), the harder case."""
        db = self.database_host
        words = ["--bind", db, "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"]
        self.redis = self._start(
            "db",
            ["redis-server", *words, "--protected-mode", "no"],
            f"redis-{len(self.processes)}.log",
        )
        deadline = time.monotonic() + 30
        while subprocess.run(
            ["redis-cli", "-h", db, "-p", str(REDIS_PORT), "ping"], capture_output=True
        ).returncode:
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.1)

    def restart_redis(self) -> None:
        """Stop Redis (as a restart does: SIGTERM) and start it again on its address."""
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(timeout=20)
        self.start_redis()

    def _log(self, name: str) -> str:
        return (self.directory / name).read_text(errors="replace")[-3000:]

    def start_beat(self) -> None:
        """Celery beat, one per site: beside the database, on no application node."""
        self._start(
            "db",
            [
                str(ROOT / ".venv" / "bin" / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(self.directory / "celerybeat-schedule"),
            ],
            "beat.log",
        )

    def start_node(self, number: int) -> Node:
        role = f"n{number}"
        address = self.network.address(role)
        prefix = self.network.prefix(role)
        environ = self.environ()
        servers = [
            start_server(
                "config.asgi:application",
                environ,
                "on",
                "off",
                self.directory,
                host=address,
                port=port,
                prefix=prefix,
            )
            for port in SERVER_PORTS
        ]
        worker = start_worker(
            environ,
            self.directory / f"worker-{role}.log",
            loglevel="INFO",
            # As on its own machine, where %h would differ.
            options=["--hostname", f"worker@{role}"],
            prefix=prefix,
        )
        node = Node(number, servers, worker)
        self.nodes[number] = node
        wait_until_listening(servers)
        return node

    def upstreams(self, numbers: Sequence[int]) -> list[str]:
        return [f"{self.network.address(f'n{n}')}:{port}" for n in numbers for port in SERVER_PORTS]

    def start_front(self, numbers: Sequence[int]) -> None:
        """``python -m config.front`` in ``front``, over the nodes ``numbers``' processes;
        back once it and every one of them is ready."""
        directory = self.directory / f"front-{len(self.processes)}"
        front = self.network.address("front")
        self.front_log = self.directory / f"{directory.name}.log"
        self.front = self._start(
            "front",
            [
                sys.executable,
                "-m",
                "config.front",
                "--directory",
                str(directory),
                f"{front}:{FRONT_PORT}",
                *self.upstreams(numbers),
            ],
            self.front_log.name,
        )
        self.wait_ready([f"{front}:{FRONT_PORT}", *self.upstreams(numbers)])

    def wait_ready(self, addresses: Sequence[str], timeout: float = 90.0) -> None:
        from config.front import ready

        host = self.network.address("front")
        deadline = time.monotonic() + timeout
        for address in addresses:
            while not ready(address, host):
                if self.front is not None and self.front.poll() is not None:
                    raise SystemExit(f"the front exited:\n{self.front_log_text()}")
                if time.monotonic() > deadline:
                    raise SystemExit(f"{address} not ready in {timeout:g} s")
                time.sleep(0.2)

    def front_log_text(self) -> str:
        return "" if self.front_log is None else self.front_log.read_text(errors="replace")

    def stop_front(self) -> None:
        if self.front is not None and self.front.poll() is None:
            self.front.terminate()
            self.front.wait(timeout=20)
        self.front = None

    def busiest_node(self) -> int:
        """The node holding the most connections from the front (its sockets)."""
        ports = " or ".join(f"sport = :{port}" for port in SERVER_PORTS)

        def held(number: int) -> int:
            listed = sh(
                *self.network.prefix(f"n{number}"),
                "ss",
                "-Htn",
                "state",
                "established",
                f"( {ports} )",
            )
            return len(listed.splitlines())

        return max(self.nodes, key=held)

    def kill_node(self, number: int) -> None:
        """Every process of the node, at once, as a machine lost."""
        node = self.nodes.pop(number)
        for server in node.servers:
            server.process.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(node.worker.pid, signal.SIGKILL)
        for process in [*(s.process for s in node.servers), node.worker]:
            process.wait()

    def stop_node(self, number: int) -> None:
        node = self.nodes.pop(number)
        stop_servers(node.servers)
        stop_worker(node.worker)

    def stop(self) -> None:
        """Stop everything started, the nodes first, PostgreSQL last."""
        for number in list(self.nodes):
            with contextlib.suppress(Exception):
                self.kill_node(number)
        self.stop_front()
        for process in reversed(self.processes):
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def servers(self) -> list[Server]:
        return [server for node in self.nodes.values() for server in node.servers]


@contextlib.contextmanager
def rehearsal(bot_delay: float) -> Iterator[Site]:
    """The network and the site's services, taken down whatever happens (SIGTERM and
    SIGHUP too)."""

    def leave(number: int, frame: FrameType | None) -> None:
        raise SystemExit(f"stopped by signal {number}")

    previous = {number: signal.signal(number, leave) for number in (signal.SIGTERM, signal.SIGHUP)}
    network = Network()
    directory = Path(tempfile.mkdtemp(prefix=f"{network.tag}-"))
    site = Site(network, directory, bot_delay)
    try:
        network.up()
        print(
            f"Network {network.subnet}.0/24 on bridge {network.bridge}: "
            + ", ".join(f"{role} {network.address(role)}" for role in HOSTS),
            flush=True,
        )
        site.start_services()
        site.start_beat()
        yield site
    finally:
        site.stop()
        network.down()
        for number, handler in previous.items():
            signal.signal(number, handler)
        shutil.rmtree(directory, ignore_errors=True)


# --- Spreading's cost ----------------------------------------------------------------


def load_args(args: argparse.Namespace, site: Site) -> argparse.Namespace:
    """bench.live's load settings: the table page's sockets (deflate offered, changes)."""
    return argparse.Namespace(
        **vars(args),
        placement="table",
        deflate="on",
        with_state="changes",
        database_url=site.environ()["DATABASE_URL"],
        load_lag_log=site.directory / "loop-lag-load-generator.log",
    )


def measure_spread(args: argparse.Namespace) -> int:
    results: dict[int, Figures] = {}
    with rehearsal(args.bot_delay) as site:
        started = time.perf_counter()
        seeded = seed_tables(args.tables * len(args.nodes))
        print(f"Seeded {len(seeded)} tables in {time.perf_counter() - started:.1f} s", flush=True)
        live_args = load_args(args, site)
        front = site.network.address("front")
        for turn, count in enumerate(args.nodes):
            numbers = list(range(1, count + 1))
            for number in numbers:
                site.start_node(number)
            site.start_front(numbers)
            tables = seeded[turn * args.tables : (turn + 1) * args.tables]
            print(f"{count} node(s), {count * len(SERVER_PORTS)} server processes:", flush=True)

            async def measured(tables: Sequence[Any] = tables, count: int = count) -> Figures:
                load = await open_load(
                    tables,
                    site.servers(),
                    [FRONT_PORT],
                    live_args,
                    f"{count} node(s)",
                    host=front,
                )
                figures = await paced(load, args.interval, "Paced")
                await close_load(load)
                return figures

            with site.network.inside("load"):
                results[count] = run_async(
                    lambda: paced_collector(measured(), live_args.load_lag_log)
                )
            site.stop_front()
            for number in numbers:
                site.stop_node(number)
    print("Results (medians of the windows):")
    for count, figures in results.items():
        print(f"  {count} node(s): {figures.text()}")
    if 1 in results and NODES in results:
        one, three = results[1], results[NODES]
        # inf where either carried no play: a failed setting meets no target.
        ratio = (
            three.server_ms_per_play / one.server_ms_per_play
            if one.server_ms_per_play < float("inf")
            else float("inf")
        )
        print(
            f"  servers' CPU per play, {NODES} nodes over 1: {ratio:.2f}x; target at most "
            f"{CPU_RATIO_TARGET:g}x -> {verdict(ratio <= CPU_RATIO_TARGET)}"
        )
        if args.tables >= P99_TARGET_TABLES:
            worst = max(one.worst_p99_ms, three.worst_p99_ms)
            print(
                f"  p99 under {P99_TARGET_MS:g} ms with 1 and {NODES} nodes -> "
                f"{verdict(worst < P99_TARGET_MS)} (worst window {worst:.1f} ms)"
            )
    return 0


# --- The node killed -----------------------------------------------------------------


@dataclass(frozen=True)
class FaultTable:
    game_id: str
    # The two players' (user id, session key), seats 0 and 1; bots play 2 and 3.
    players: tuple[tuple[int, str], ...]


def seed_fault_tables(count: int) -> list[FaultTable]:
    from games.commands import actions

    users = signed_in_users(count * 2, "nodes")
    tables = []
    for number in range(count):
        seated = users[number * 2 : number * 2 + 2]
        game = actions.game_create(creator=seated[0][0], player_count=SEATS, preset=PRESET)
        for seat, (user, _) in enumerate(seated):
            actions.game_join(game_id=game.id, user=user, alias=f"P{seat}")
        actions.game_fill_with_bots(game_id=game.id, actor=seated[0][0], level="easy")
        tables.append(FaultTable(str(game.id), tuple((u.pk, key) for u, key in seated)))
    return tables


@dataclass
class Sent:
    game_id: str
    actor: int
    expected: int
    command: dict[str, Any]
    # The version its ack brought the game to; or the error's code.
    acked: int | None = None
    refused: str | None = None


@dataclass
class Watcher:
    """One socket of a table, reconnecting through the front whenever it is lost, from
    the last version it had."""

    table: FaultTable
    # The player's (user id, session key); None: the spectator.
    player: tuple[int, str] | None
    sent: list[Sent]
    think: float
    version: int = -1
    reconnects: int = 0
    # Messages whose first event was not the one after the version held, and fresh
    # states after the first (a resume that was not exact).
    gaps: list[tuple[int, int]] = field(default_factory=list)
    fresh_states: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    lost_at: float | None = None
    resumed_after: list[float] = field(default_factory=list)
    in_flight: Sent | None = None
    acted: int = -1
    ws: Any = None
    # Sends under way (the loop keeps only weak references to its tasks).
    sending: set[asyncio.Future[None]] = field(default_factory=set)

    async def run(self, host: str, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        rng = random.Random(f"{self.table.game_id}-{self.player}")
        while not stop.is_set():
            after = "" if self.version < 0 else f"&after={self.version}"
            uri = f"ws://{host}:{FRONT_PORT}/ws/games/{self.table.game_id}/?with_state=1{after}"
            headers = {} if self.player is None else {"Cookie": f"sessionid={self.player[1]}"}
            try:
                async with connect(
                    uri,
                    origin=f"http://{host}:{FRONT_PORT}",  # type: ignore[arg-type]
                    additional_headers=headers,
                    ping_interval=None,
                    open_timeout=10,
                ) as ws:
                    self.ws = ws
                    async for raw in ws:
                        self.take(orjson.loads(raw), rng)
            except Exception as error:  # Lost with its node: reconnect.
                self.errors[f"socket: {type(error).__name__}"] += 1
            self.ws = None
            # A command lost with the socket, or a move it had no socket left to send:
            # the state after the reconnect says whether it is still this seat's turn
            # (a command sent again names the same version: it cannot apply twice).
            self.in_flight = None
            self.acted = -1
            if stop.is_set():
                return
            if self.lost_at is None:
                self.lost_at = time.perf_counter()
            self.reconnects += 1
            await asyncio.sleep(0.1)

    def take(self, message: dict[str, Any], rng: random.Random) -> None:
        kind = message.get("type")
        state = None
        if kind == "state":
            if self.version >= 0:
                self.fresh_states += 1
            state = message["state"]
            self.version = state["version"]
        elif kind == "events":
            sequences = [event["sequence"] for event in message["events"]]
            expected = list(range(self.version + 1, self.version + 1 + len(sequences)))
            if sequences != expected:
                self.gaps.append((self.version, sequences[0] if sequences else -1))
            if sequences:
                self.version = sequences[-1]
            state = message.get("state")
        elif kind == "ack" and self.in_flight is not None:
            self.in_flight.acked = message["version"]
            self.in_flight = None
        elif kind == "error":
            self.errors[message.get("code", "?")] += 1
            if message.get("command") is not None and self.in_flight is not None:
                self.in_flight.refused = message.get("code", "?")
                self.in_flight = None
        if self.lost_at is not None and kind in {"events", "state"}:
            self.resumed_after.append(time.perf_counter() - self.lost_at)
            self.lost_at = None
        if state is not None and self.player is not None:
            self.offer(state, rng)

    def offer(self, state: dict[str, Any], rng: random.Random) -> None:
        hand = state.get("hand")
        if hand is None or state.get("you") != hand.get("turn"):
            return
        if state["version"] <= self.acted or self.in_flight is not None:
            return
        self.acted = state["version"]
        asyncio.get_running_loop().call_later(self.think, self.move, state, rng)

    def move(self, state: dict[str, Any], rng: random.Random) -> None:
        if self.ws is None or self.version != state["version"] or self.player is None:
            return
        command = chosen_command(rng, state)
        if command is None:
            return
        sent = Sent(self.table.game_id, self.player[0], state["version"], command)
        self.sent.append(sent)
        self.in_flight = sent
        sending = asyncio.ensure_future(self.ws.send(orjson.dumps(command).decode()))
        self.sending.add(sending)
        sending.add_done_callback(self.sending.discard)


def log_of(game_id: str) -> list[Any]:
    from eventlog import store
    from games.table import stream_of

    return store.read(stream_of(uuid.UUID(game_id)))


def move_key(record: Any) -> tuple[str, str]:
    """A seat's move as the rules allow it once in a game: the hand, seat and card or
    bid are in its payload."""
    return record.type, orjson.dumps(record.payload, option=orjson.OPT_SORT_KEYS).decode()


def check_logs(tables: Sequence[FaultTable], sent: Sequence[Sent]) -> list[str]:
    """What the logs disagree with: acknowledged moves missing, moves not sent or
    made twice."""
    problems = []
    by_version = {(s.game_id, s.expected, s.actor): s for s in sent}
    for table in tables:
        records = log_of(table.game_id)
        if [r.sequence for r in records] != list(range(1, len(records) + 1)):
            problems.append(f"{table.game_id}: the log's sequences have a gap")
        humans = {user for user, _ in table.players}
        moves = [r for r in records if r.type in MOVES]
        repeated = [k for k, n in Counter(move_key(r) for r in moves).items() if n > 1]
        if repeated:
            problems.append(f"{table.game_id}: moves applied twice: {repeated[:3]}")
        for record in moves:
            if (
                record.actor_id in humans
                and (table.game_id, record.sequence - 1, record.actor_id) not in by_version
            ):
                problems.append(f"{table.game_id}: move {record.sequence} was never sent")
        for s in sent:
            if s.game_id != table.game_id or s.acked is None:
                continue
            first = records[s.expected] if len(records) > s.expected else None
            if first is None or first.type not in MOVES or first.actor_id != s.actor:
                problems.append(f"{table.game_id}: acknowledged move at {s.expected} lost")
            elif len(records) < s.acked:
                problems.append(f"{table.game_id}: log short of acknowledged version {s.acked}")
    return problems


@dataclass(frozen=True)
class Since:
    """A table's log after a time: when its first bot move came (seconds after), and
    whether the game has finished (no move is due then)."""

    bot_move: float | None
    finished: bool

    @property
    def going(self) -> bool:
        return self.bot_move is not None or self.finished


def since(tables: Sequence[FaultTable], when: float) -> dict[str, Since]:
    """Each table's log after ``when`` (a time.time())."""
    found = {}
    for table in tables:
        humans = {user for user, _ in table.players}
        records = log_of(table.game_id)
        bots = [
            r.recorded_at.timestamp() - when
            for r in records
            if r.type in MOVES and r.actor_id not in humans and r.recorded_at.timestamp() > when
        ]
        finished = any(r.type == "GameFinished" for r in records)
        found[table.game_id] = Since(min(bots, default=None), finished)
    return found


async def rehearse_fault(site: Site, tables: Sequence[FaultTable], args: argparse.Namespace) -> int:
    """Play, break the site as ``args.fault`` says, check that nothing was lost."""
    front = site.network.address("front")
    sent: list[Sent] = []
    stop = asyncio.Event()
    watchers = [
        Watcher(table, player, sent, args.think)
        for table in tables
        for player in (*table.players, None)
    ]
    tasks = [asyncio.create_task(w.run(front, stop)) for w in watchers]
    await asyncio.sleep(args.before)
    killed = await asyncio.to_thread(site.busiest_node)
    broken = f"killing node {killed}" if args.fault == "node-kill" else "restarting Redis"
    print(f"Playing: {len(sent)} moves sent in {args.before:g} s; {broken}", flush=True)
    killed_at = time.time()
    if args.fault == "node-kill":
        await asyncio.to_thread(site.kill_node, killed)
        # The tables the dead node served: those whose sockets it held.
        await asyncio.sleep(1.0)
        dead = {w.table.game_id for w in watchers if w.reconnects}
    else:
        await asyncio.to_thread(site.restart_redis)
        print(f"  Redis back after {time.time() - killed_at:.1f} s", flush=True)
        # Every table's news and tasks went through it.
        dead = {table.game_id for table in tables}
    deadline = time.perf_counter() + args.recover
    moved: dict[str, Since] = {}
    while time.perf_counter() < deadline:
        moved = await asyncio.to_thread(since, tables, killed_at)
        if all(moved[g].going for g in dead) and all(w.ws is not None for w in watchers):
            break
        await asyncio.sleep(1.0)
    firsts = sorted(moved[g].bot_move or 0.0 for g in dead if moved[g].bot_move is not None)
    first = statistics.median(firsts or [0])
    print(
        f"  {sum(1 for w in watchers if w.reconnects)} sockets lost, {len(dead)} tables "
        f"to move on; their bots' first moves after it: median {first:.1f} s, last "
        f"{max(firsts, default=0):.1f} s",
        flush=True,
    )
    if args.fault == "node-kill":
        await asyncio.to_thread(site.start_node, killed)
        await asyncio.to_thread(site.wait_ready, site.upstreams([killed]))
        print(f"Node {killed} back; playing on {args.after:g} s", flush=True)
    await asyncio.sleep(args.after)
    stop.set()
    # Let the last answers in, then the last broadcasts of the logs' ends.
    await asyncio.sleep(args.think + 1.0)
    ends = await asyncio.to_thread(lambda: {t.game_id: len(log_of(t.game_id)) for t in tables})
    await asyncio.sleep(2.0)
    for w in watchers:
        if w.ws is not None:
            await w.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)

    problems = await asyncio.to_thread(check_logs, tables, sent)
    for w in watchers:
        who = "spectator" if w.player is None else f"player {w.player[0]}"
        if w.gaps:
            problems.append(f"{w.table.game_id} {who}: gaps {w.gaps[:3]}")
        if w.fresh_states:
            problems.append(f"{w.table.game_id} {who}: {w.fresh_states} fresh states, not resumes")
        # The log's end read after the players stopped: every socket must have reached it.
        if w.version < ends[w.table.game_id]:
            problems.append(
                f"{w.table.game_id} {who}: at version {w.version}, the log at "
                f"{ends[w.table.game_id]}"
            )
    stalled = [g for g in dead if g not in moved or not moved[g].going]
    if stalled:
        problems.append(
            f"{len(stalled)} tables of the dead node had no bot move after it: {stalled[:3]}"
        )
    if not dead:
        problems.append(f"node {killed} held no socket: nothing was tested")
    if args.fault == "redis-restart" and any(w.reconnects for w in watchers):
        # The sockets' server processes lived: a socket lost is the fault's doing.
        problems.append(f"{sum(w.reconnects for w in watchers)} sockets lost with Redis")
    acked = sum(1 for s in sent if s.acked is not None)
    unanswered = sum(1 for s in sent if s.acked is None and s.refused is None)
    refused = Counter(s.refused for s in sent if s.refused is not None)
    waits = sorted(t for w in watchers for t in w.resumed_after)
    print(
        f"  {len(sent)} moves sent, {acked} acknowledged, {unanswered} unanswered (lost with "
        f"their socket), refused: {dict(refused)}; {sum(w.reconnects for w in watchers)} "
        f"reconnects, resumed after median {statistics.median(waits) if waits else 0:.2f} s, "
        f"worst {max(waits, default=0):.2f} s"
    )
    # What the front decided, then what went wrong (nginx's own lines are many).
    for line in site.front_log_text().splitlines():
        if line.startswith("front:"):
            print(f"  {line}")
    for problem in problems[:20]:
        print(f"  PROBLEM: {problem}")
    outcome = "passed" if not problems else f"FAILED ({len(problems)} problems)"
    print(f"{args.fault} fault: {outcome}")
    return 1 if problems else 0


def fault(args: argparse.Namespace) -> int:
    with rehearsal(args.bot_delay) as site:
        tables = seed_fault_tables(args.tables)
        for number in range(1, NODES + 1):
            site.start_node(number)
        site.start_front(list(range(1, NODES + 1)))
        print(
            f"{args.fault}: {len(tables)} tables (2 players, 2 bots, a spectator) on {NODES} nodes",
            flush=True,
        )
        with site.network.inside("load"):
            code = run_async(lambda: rehearse_fault(site, tables, args))
        return code


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3], choices=[1, 2, 3])
    parser.add_argument("--interval", type=float, default=2.0, help="paced: seconds per move")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per window")
    parser.add_argument("--repeat", type=int, default=3, help="windows per measurement")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--fault", choices=("node-kill", "redis-restart"), help="rehearse a fault instead"
    )
    parser.add_argument("--think", type=float, default=0.3, help="fault: a player's delay")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="ATU_BOT_DELAY_SECONDS")
    parser.add_argument("--before", type=float, default=5.0, help="fault: play before the kill")
    parser.add_argument("--after", type=float, default=5.0, help="fault: play once node is back")
    parser.add_argument(
        "--recover",
        type=float,
        default=80.0,
        help="fault: longest wait for the dead node's tables to move again (a task the dead "
        "worker held comes back after the broker's visibility timeout, 30 s; a move the dead "
        "server committed and had not yet scheduled the next of, at beat's next "
        "resume_automatic_moves, within 60 s)",
    )
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.error("network namespaces need root")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    raise_open_files_limit()
    return fault(args) if args.fault else measure_spread(args)


if __name__ == "__main__":
    raise SystemExit(main())
