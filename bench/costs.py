"""What one live move costs each part of the production setup, beside the baseline's,
and what 10,000 and 100,000 concurrent tables would need of each (issue 37's capacity
model, docs/scaling.md).

Run (about 6 minutes at 500 tables; as root it runs its own PostgreSQL as the
``postgres`` user)::

    .venv/bin/python -m bench.costs [--tables 500] [--interval 2] [--seconds 15]

Counts per move are exact only when nothing else uses the PostgreSQL and Redis they
are read from (WAL and Redis' statistics are server-wide), so it starts its own, on free
ports, and removes them at the end: a PostgreSQL cluster in a temporary directory
(``initdb``; the packaged defaults, as the machine's server runs them: fsync and
synchronous commit on), with ``pg_stat_statements`` preloaded; and a ``redis-server``
without persistence (as the machine's); Redis db 8 is the layer's and broker's.

On them, ``bench.live``'s machinery: the database made and migrated, ``--tables``
4-player Championship tables seeded (no bots, no timers: every move from a socket),
``--servers`` uvicorn processes as ``make run`` serves them, one Celery worker (the
Procfile's ``worker`` line), each table's 4 players and a spectator on sockets, a
table's 5 sockets on one server (``--placement table``, as ``docker/nginx.conf`` routes
them), each table moving once every ``--interval`` seconds. For each window of
``--seconds`` (``--repeat`` of them), counters read before and after, divided by the
moves acknowledged in it:

- CPU (ms): the servers, the worker (its pool included), PostgreSQL (the cluster's
  processes), Redis, and this load generator;
- PostgreSQL: statements (``pg_stat_statements``, the bench's own reads left out),
  rows inserted, updated and fetched (``pg_stat_database``), rows inserted per table
  (``pg_stat_user_tables``), WAL bytes (``pg_current_wal_lsn()``), and the WAL's
  records by kind (``pg_walinspect``), whose commit records are the transactions that
  wrote;
- Redis: commands (``INFO commandstats``, the bench's INFO left out), publishes, and
  bytes in and out (``INFO stats``);
- the sockets: ``events`` messages received and their bytes.

(A backend reports its row counts at most once a second, so those lag by up to a
second at each end of a window; at a steady pace the lags cancel out. Statements, WAL
and Redis figures are read as they stand.) CPU figures vary with what
else runs on the machine; counts do not. Printed: CPU as the median window's, counts
over all the windows' moves together (the sockets' places, renewed every 30 s, fall in
some windows only), with the statements, Redis commands and WAL records a move makes;
then the same for the baseline (``bench/baseline.py``: a check, one INSERT, one publish
and a message per socket of Atu's size) at the same pace on as many tables, and Atu
over the baseline.

Then the single-instance ceilings on this machine, with Atu's servers stopped:
``pgbench`` (``--pgbench-clients`` clients for ``--ceiling-seconds``) committing one
INSERT of an event's size per transaction, and ``redis-benchmark`` PUBLISHing a message
of the size of Atu's to a channel one client subscribes to. Last, the capacity model
(``need``): for 10,000 and 100,000 tables at one move per ``--interval`` seconds, the
rates each part must carry, the application nodes (``--node-cores`` cores at
``--utilisation`` of them), and each single instance's share of its ceiling, the first
wall first.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench import live
from bench.live import (
    ROOT,
    SOCKETS,
    CpuMeter,
    Run,
    Server,
    process_cpu_seconds,
    process_tree,
)

# The rows of pgbench's batches: the most appends the write path puts in one statement.
from eventlog.loopdb import BATCH as BATCH_ROWS

DATABASE = "atu_bench"
REDIS_DB = 8
MONITOR_ROLE = "costs_monitor"
# The tables of the capacity model.
MODELLED_TABLES = (10_000, 100_000)
# The figures per move, in the order printed; CPU in milliseconds.
CPU_PARTS = ("servers", "worker", "PostgreSQL", "Redis", "load generator")
FIGURES = (
    *(f"{part} CPU ms" for part in CPU_PARTS),
    "commits",
    "statements",
    "rows inserted",
    "rows updated",
    "rows fetched",
    "WAL bytes",
    "Redis commands",
    "Redis publishes",
    "Redis bytes in",
    "Redis bytes out",
    "socket messages",
    "socket bytes",
)
# What redis-benchmark and pgbench print of their rates.
REDIS_RATE = re.compile(r"([\d.]+) requests per second")
PGBENCH_RATE = re.compile(r"tps = ([\d.]+)")
# pg_walinspect's name for a commit's record.
COMMIT_RECORD = "Transaction/COMMIT"
# A statement's kind: its first characters, its numbers left out.
NUMBERS = re.compile(r"\d+")
KIND_LENGTH = 100


# --- The services of its own ------------------------------------------------------------


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's programs (Debian's layout), else the PATH's."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else Path(shutil.which("initdb") or "initdb").parent


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the ``postgres`` user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@dataclass
class Services:
    """The PostgreSQL cluster and the Redis server this run starts, and removes."""

    directory: Path
    postgres_port: int
    redis_port: int
    redis: subprocess.Popen[bytes]
    postmaster: int = 0

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.postgres_port}/{DATABASE}"

    @property
    def monitor_url(self) -> str:
        return f"postgres://{MONITOR_ROLE}@127.0.0.1:{self.postgres_port}/{DATABASE}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/{REDIS_DB}"

    def stop(self) -> None:
        data = self.directory / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                as_postgres(
                    [str(postgres_bin() / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]
                ),
                check=False,
                capture_output=True,
            )
        if self.redis.poll() is None:
            self.redis.terminate()
            self.redis.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


def start_services() -> Services:
    import redis

    directory = Path(tempfile.mkdtemp(prefix="atu-costs-"))
    if os.geteuid() == 0:
        import pwd

        owner = pwd.getpwnam("postgres")
        os.chown(directory, owner.pw_uid, owner.pw_gid)
    redis_port = live.free_port()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    services = Services(directory, live.free_port(), redis_port, server)
    try:
        data = directory / "data"
        programs = postgres_bin()
        subprocess.run(
            as_postgres(
                [
                    str(programs / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF8",
                    "--no-sync",
                    "--no-instructions",
                ]
            ),
            check=True,
            capture_output=True,
        )
        options = (
            f"-c port={services.postgres_port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={directory} "
            "-c shared_preload_libraries=pg_stat_statements"
        )
        subprocess.run(
            as_postgres(
                [
                    str(programs / "pg_ctl"),
                    "-D",
                    str(data),
                    "-l",
                    str(directory / "postgres.log"),
                    "-w",
                    "-o",
                    options,
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )
        services.postmaster = int((data / "postmaster.pid").read_text().split()[0])
        client = redis.Redis(port=redis_port)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(redis.ConnectionError):
                if client.ping():
                    break
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not answer in 10 s")
            time.sleep(0.1)
        client.close()
    except BaseException:
        services.stop()
        raise
    return services


def prepare_statistics(database_url: str) -> None:
    """pg_stat_statements and pg_walinspect in the database, and the role the bench
    reads them as (whose own statements it leaves out)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("CREATE EXTENSION pg_stat_statements")
        connection.execute("CREATE EXTENSION pg_walinspect")
        connection.execute(f"CREATE ROLE {MONITOR_ROLE} LOGIN IN ROLE pg_read_all_stats")
        connection.execute(
            f"GRANT EXECUTE ON FUNCTION pg_get_wal_stats(pg_lsn, pg_lsn, boolean) TO {MONITOR_ROLE}"
        )


# --- Counters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counters:
    """What the parts had done by a moment: cumulative counts, and CPU seconds by pid."""

    cpu: dict[str, dict[int, float]]
    moves: int
    socket_messages: int
    socket_bytes: int
    database: dict[str, int]
    statements: dict[str, int]
    inserted: dict[str, int]
    wal: int
    redis: dict[str, int]
    commands: dict[str, int]


class Probe:
    """Reads the counters of the servers, the worker, PostgreSQL, Redis and a run."""

    def __init__(self, services: Services, servers: Sequence[Server], worker: int | None):
        import psycopg
        import redis

        self.services = services
        self.servers = servers
        self.worker = worker
        self.database = psycopg.connect(services.monitor_url, autocommit=True)
        self.redis = redis.Redis(port=services.redis_port)

    def close(self) -> None:
        self.database.close()
        self.redis.close()

    def _cpu(self) -> dict[str, dict[int, float]]:
        parts = {
            "servers": [server.process.pid for server in self.servers],
            "worker": process_tree([self.worker]) if self.worker else [],
            "PostgreSQL": process_tree([self.services.postmaster]),
            "Redis": [self.services.redis.pid],
        }
        cpu = {
            name: {pid: process_cpu_seconds(pid) for pid in pids} for name, pids in parts.items()
        }
        own = os.times()
        cpu["load generator"] = {os.getpid(): own.user + own.system}
        return cpu

    def wal_kinds(self, begin: int, end: int) -> dict[str, tuple[int, int]]:
        """The WAL's records between two positions by kind: their count and bytes
        (pg_walinspect; its columns by position, their names changed in PostgreSQL 16)."""
        rows = self.database.execute(
            "SELECT * FROM pg_get_wal_stats("
            "'0/0'::pg_lsn + %s::numeric, '0/0'::pg_lsn + %s::numeric, true)",
            (begin, end),
        ).fetchall()
        return {row[0]: (int(row[1]), int(row[7])) for row in rows if row[1]}

    def read(self, run: Run) -> Counters:
        execute = self.database.execute
        row = execute(
            "SELECT tup_inserted, tup_updated, tup_fetched FROM pg_stat_database "
            "WHERE datname = current_database()"
        ).fetchone()
        assert row is not None
        database = dict(zip(("rows inserted", "rows updated", "rows fetched"), row, strict=True))
        statements: dict[str, int] = dict(
            execute(
                "SELECT query, calls FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid "
                "WHERE r.rolname <> %s AND s.dbid = (SELECT oid FROM pg_database "
                "WHERE datname = current_database())",
                (MONITOR_ROLE,),
            ).fetchall()
        )
        inserted: dict[str, int] = dict(
            execute("SELECT relname, n_tup_ins FROM pg_stat_user_tables").fetchall()
        )
        lsn = execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint").fetchone()
        assert lsn is not None
        stats = self.redis.info("stats")
        commands = {
            name.removeprefix("cmdstat_"): int(values["calls"])
            for name, values in self.redis.info("commandstats").items()
            if name != "cmdstat_info"
        }
        return Counters(
            self._cpu(),
            run.acked,
            run.events_messages,
            run.events_bytes,
            database,
            statements,
            inserted,
            int(lsn[0]),
            {
                "Redis bytes in": stats["total_net_input_bytes"],
                "Redis bytes out": stats["total_net_output_bytes"],
            },
            commands,
        )


def growth(before: Mapping[Any, float], after: Mapping[Any, float]) -> float:
    """How much the counts of ``after`` grew over ``before``'s (a key new since counts
    from 0: a process started, a statement first seen)."""
    return sum(value - before.get(key, 0) for key, value in after.items())


def grown(before: Mapping[str, int], after: Mapping[str, int], moves: int) -> dict[str, float]:
    """Each key's growth per move, the keys that grew only."""
    return {
        key: (value - before.get(key, 0)) / moves
        for key, value in after.items()
        if value > before.get(key, 0)
    }


def statement_kinds(statements: Mapping[str, float]) -> dict[str, float]:
    """The statements summed by their beginning, its numbers left out: the write path
    writes the moves of several tables in one statement (decision 1802), whose text
    differs by how many (``WITH a0 AS (...), a1 AS (...)``)."""
    kinds: dict[str, float] = {}
    for text, value in statements.items():
        kind = NUMBERS.sub("N", " ".join(text.split()))[:KIND_LENGTH]
        kinds[kind] = kinds.get(kind, 0.0) + value
    return kinds


@dataclass(frozen=True)
class WindowCosts:
    moves: int
    seconds: float
    figures: dict[str, float]
    statements: dict[str, float]
    commands: dict[str, float]
    inserted: dict[str, float]
    wal: dict[str, float]


def window_costs(
    begin: Counters,
    end: Counters,
    seconds: float,
    wal: Mapping[str, tuple[int, int]] | None = None,
) -> WindowCosts:
    """The window's costs per move; ``wal``: its WAL's records by kind (count, bytes),
    whose commits are the transactions that wrote (a read writes no commit record)."""
    moves = end.moves - begin.moves
    if moves <= 0:
        raise SystemExit("no move was acknowledged in a window: nothing to divide by")
    figures = {
        f"{part} CPU ms": growth(begin.cpu[part], end.cpu[part]) * 1000 / moves
        for part in CPU_PARTS
    }
    for name, value in end.database.items():
        figures[name] = (value - begin.database[name]) / moves
    figures["statements"] = growth(begin.statements, end.statements) / moves
    figures["WAL bytes"] = (end.wal - begin.wal) / moves
    figures["commits"] = (wal or {}).get(COMMIT_RECORD, (0, 0))[0] / moves
    figures["Redis commands"] = growth(begin.commands, end.commands) / moves
    figures["Redis publishes"] = (
        end.commands.get("publish", 0) - begin.commands.get("publish", 0)
    ) / moves
    for name, value in end.redis.items():
        figures[name] = (value - begin.redis[name]) / moves
    figures["socket messages"] = (end.socket_messages - begin.socket_messages) / moves
    figures["socket bytes"] = (end.socket_bytes - begin.socket_bytes) / moves
    return WindowCosts(
        moves,
        seconds,
        figures,
        statement_kinds(grown(begin.statements, end.statements, moves)),
        grown(begin.commands, end.commands, moves),
        grown(begin.inserted, end.inserted, moves),
        grown({}, {kind: size for kind, (_, size) in (wal or {}).items()}, moves),
    )


class CostMeter(CpuMeter):
    """``bench.live``'s meter (its line per window), which also reads the counters at
    each window's ends and keeps each window's costs per move."""

    def __init__(self, meter: CpuMeter, probe: Probe, run: Run) -> None:
        super().__init__(meter.servers, meter.database)
        self.probe = probe
        self.run = run
        self.first: Counters | None = None
        self.started = 0.0
        self.windows: list[WindowCosts] = []

    def start(self) -> None:
        super().start()
        self.first = self.probe.read(self.run)
        self.started = time.perf_counter()

    def stop(self) -> dict[str, float]:
        shares = super().stop()
        assert self.first is not None
        end = self.probe.read(self.run)
        seconds = time.perf_counter() - self.started
        wal = self.probe.wal_kinds(self.first.wal, end.wal)
        self.windows.append(window_costs(self.first, end, seconds, wal))
        return shares


@dataclass(frozen=True)
class Costs:
    """A move's costs over the windows: CPU the median window's (other people's work
    on the machine moves it), counts those of all the windows' moves together (a
    periodic cost, such as the sockets' places renewed every 30 s, falls in some
    windows and not others)."""

    moves_per_second: float
    figures: dict[str, float]
    statements: dict[str, float]
    commands: dict[str, float]
    inserted: dict[str, float]
    wal: dict[str, float]
    # The servers' resident memory per open socket (bytes).
    socket_memory: float = 0.0

    @classmethod
    def of(cls, windows: Sequence[WindowCosts]) -> Costs:
        moves = sum(w.moves for w in windows)

        def overall(values: Sequence[Mapping[str, float]]) -> dict[str, float]:
            keys = {key for value in values for key in value}
            found = {
                key: sum(v.get(key, 0.0) * w.moves for v, w in zip(values, windows, strict=True))
                / moves
                for key in keys
            }
            return dict(sorted(found.items(), key=lambda item: -item[1]))

        counts = overall([w.figures for w in windows])
        return cls(
            statistics.median(w.moves / w.seconds for w in windows),
            {
                name: statistics.median(w.figures[name] for w in windows)
                if name.endswith(" CPU ms")
                else counts[name]
                for name in FIGURES
            },
            overall([w.statements for w in windows]),
            overall([w.commands for w in windows]),
            overall([w.inserted for w in windows]),
            overall([w.wal for w in windows]),
        )


# --- The capacity model ------------------------------------------------------------------


def need(per_move: Mapping[str, float], tables: int, interval: float) -> dict[str, float]:
    """What ``tables`` tables each moving once every ``interval`` seconds ask per second
    of each figure of ``per_move``: CPU milliseconds become cores."""
    if tables < 1 or interval <= 0:
        raise ValueError(f"no load of {tables} tables at one move per {interval:g} s")
    moves = tables / interval
    rates = {"moves": moves}
    for name, value in per_move.items():
        if name.endswith(" CPU ms"):
            rates[f"{name.removesuffix(' CPU ms')} cores"] = value * moves / 1000
        else:
            rates[name] = value * moves
    return rates


def nodes(cores: float, node_cores: int, utilisation: float) -> int:
    """Nodes of ``node_cores`` cores to carry ``cores`` of work with each kept under
    ``utilisation`` of its cores (a node's headroom for bursts and its own loop's tail)."""
    if node_cores < 1 or not 0 < utilisation <= 1:
        raise ValueError(f"no node of {node_cores} cores at {utilisation:g}")
    return max(1, math.ceil(cores / (node_cores * utilisation)))


def walls(rates: Mapping[str, float], ceilings: Mapping[str, float]) -> list[tuple[str, float]]:
    """Each single instance's share of its ceiling (1.0: at it), the largest first:
    the first wall the load meets is the first."""
    shares = [(name, rates[name] / ceiling) for name, ceiling in ceilings.items() if ceiling > 0]
    return sorted(shares, key=lambda share: -share[1])


# --- Ceilings ------------------------------------------------------------------------


def pgbench_rate(
    services: Services, payload_bytes: int, rows: int, clients: int, seconds: float
) -> tuple[float, float]:
    """Transactions per second of ``pgbench``, each one INSERT of ``rows`` rows with a
    jsonb payload of ``payload_bytes``, committed (fsync and synchronous commit as
    Atu's); and the WAL bytes per second they wrote."""
    import psycopg

    url = services.database_url
    position = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE TABLE IF NOT EXISTS ceiling_event (id bigserial PRIMARY KEY, "
            "stream uuid NOT NULL, payload jsonb NOT NULL, "
            "recorded_at timestamptz NOT NULL DEFAULT now())"
        )
        before = connection.execute(position).fetchone()
    script = services.directory / "insert.sql"
    payload = '{"p": "' + "x" * max(0, payload_bytes - 9) + '"}'
    script.write_text(
        f"INSERT INTO ceiling_event (stream, payload) SELECT gen_random_uuid(), '{payload}' "
        f"FROM generate_series(1, {rows});\n"
    )
    started = time.perf_counter()
    result = subprocess.run(
        [
            str(postgres_bin() / "pgbench"),
            "-n",
            "-h",
            "127.0.0.1",
            "-p",
            str(services.postgres_port),
            "-U",
            "postgres",
            "-c",
            str(clients),
            "-j",
            "2",
            "-T",
            str(int(seconds)),
            "-f",
            str(script),
            DATABASE,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    with psycopg.connect(url, autocommit=True) as connection:
        after = connection.execute(position).fetchone()
    found = PGBENCH_RATE.search(result.stdout)
    if found is None or before is None or after is None:
        raise SystemExit(f"pgbench printed no rate:\n{result.stdout}{result.stderr}")
    return float(found.group(1)), (after[0] - before[0]) / elapsed


def event_row_bytes(database_url: str) -> int:
    """The mean size of a row of the event log, as stored."""
    import psycopg
    from psycopg import sql

    from eventlog.models import StoredEvent

    with psycopg.connect(database_url) as connection:
        query = sql.SQL("SELECT avg(pg_column_size(e.*))::int FROM {} e").format(
            sql.Identifier(StoredEvent._meta.db_table)
        )
        row = connection.execute(query).fetchone()
    return int(row[0]) if row and row[0] else 0


def publish_rate(services: Services, message_bytes: int, requests: int) -> float:
    """PUBLISHes per second of ``redis-benchmark`` (50 clients), each of
    ``message_bytes`` to a channel one client is subscribed to."""
    subscriber = subprocess.Popen(
        ["redis-cli", "-p", str(services.redis_port), "subscribe", "ceiling"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)
        result = subprocess.run(
            [
                "redis-benchmark",
                "-p",
                str(services.redis_port),
                "-c",
                "50",
                "-n",
                str(requests),
                "-q",
                "publish",
                "ceiling",
                "x" * max(1, message_bytes),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        subscriber.terminate()
        subscriber.wait()
    rates = REDIS_RATE.findall(result.stdout.replace("\r", "\n"))
    if not rates:
        raise SystemExit(f"redis-benchmark printed no rate:\n{result.stdout}{result.stderr}")
    return float(rates[-1])


def measure_ceilings(services: Services, atu: Costs, args: argparse.Namespace) -> dict[str, float]:
    """Each single instance's ceiling on this machine, by the figure it bounds: commits
    of one row each, rows and WAL bytes committed ``BATCH_ROWS`` rows at a time (the
    write path's largest statement, decision 1802), PUBLISHes of Atu's size, and Redis'
    one core."""
    published = atu.figures["Redis bytes in"] / max(atu.figures["Redis publishes"], 1e-9)
    row_bytes = event_row_bytes(services.database_url)
    clients, seconds = args.pgbench_clients, args.ceiling_seconds
    commits, _ = pgbench_rate(services, row_bytes, 1, clients, seconds)
    batches, wal = pgbench_rate(services, row_bytes, BATCH_ROWS, clients, seconds)
    publishes = publish_rate(services, int(published), args.publishes)
    print(
        f"Ceilings on this machine: pgbench ({clients} clients, rows of {row_bytes} B) "
        f"{commits:,.0f} commits/s of one row, {batches * BATCH_ROWS:,.0f} rows/s "
        f"{BATCH_ROWS} to a commit ({wal / 1e6:,.1f} MB/s of WAL); redis-benchmark "
        f"{publishes:,.0f} PUBLISH/s ({int(published)} B, one subscriber)",
        flush=True,
    )
    return {
        "commits": commits,
        "rows inserted": batches * BATCH_ROWS,
        "WAL bytes": wal,
        "Redis publishes": publishes,
        # Redis runs commands on one thread: one core is its wall.
        "Redis cores": 1.0,
    }


# --- Runs ----------------------------------------------------------------------------


def start_worker(environ: dict[str, str], logs: Path) -> subprocess.Popen[bytes]:
    """The Procfile's ``worker`` line, in a process group of its own (its pool)."""
    import shlex

    from honcho.environ import parse_procfile

    line = parse_procfile((ROOT / "Procfile").read_text()).processes["worker"]
    path = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    with (logs / "worker.log").open("wb") as output:
        return subprocess.Popen(
            shlex.split(line),
            cwd=ROOT,
            env={**os.environ, **environ, "PATH": path},
            stdout=output,
            stderr=output,
            start_new_session=True,
        )


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        worker.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, 9)
    worker.wait()


async def measured(
    seeded: Sequence[live.SeededTable],
    servers: Sequence[Server],
    probe: Probe,
    args: argparse.Namespace,
    label: str,
) -> Costs:
    """The paced load on ``seeded``'s tables, its costs per move, and the servers'
    memory per socket (what they grew by as the sockets opened and got their state)."""
    before = sum(resident_bytes(server.process.pid) for server in servers)
    load = await live.open_load(seeded, servers, [s.port for s in servers], args, label)
    grew = sum(resident_bytes(server.process.pid) for server in servers) - before
    meter = CostMeter(load.meter, probe, load.run)
    load.meter = meter
    await live.paced(load, args.interval, "Paced")
    await live.close_load(load)
    return replace(Costs.of(meter.windows), socket_memory=grew / (len(seeded) * SOCKETS))


def resident_bytes(pid: int) -> int:
    """A process's resident memory (0 if it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0


def text(value: float) -> str:
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def print_costs(atu: Costs, baseline: Costs) -> None:
    print(
        f"Per move (CPU: the median window's; counts: all the windows' moves; "
        f"{atu.moves_per_second:,.1f} moves/s, "
        f"the baseline {baseline.moves_per_second:,.1f}):"
    )
    print(f"  {'':24} {'Atu':>12} {'baseline':>12} {'ratio':>8}")
    for name in FIGURES:
        ours, theirs = atu.figures[name], baseline.figures[name]
        # A baseline's count of almost nothing (an autovacuum's row) makes no ratio.
        ratio = f"{ours / theirs:.2f}x" if theirs > 0.01 else "-"
        print(f"  {name:24} {text(ours):>12} {text(theirs):>12} {ratio:>8}")
    print(
        f"  {'servers memory per socket':24} {atu.socket_memory / 1000:>9,.1f} kB "
        f"{baseline.socket_memory / 1000:>9,.1f} kB"
    )
    for title, found in (
        ("statements", atu.statements),
        ("Redis commands", atu.commands),
        ("rows inserted, by table", atu.inserted),
        ("WAL bytes, by kind of record", atu.wal),
    ):
        print(f"  Atu's {title} per move:")
        for name, value in list(found.items())[:10]:
            print(f"    {value:8.3f}  {name}")


def print_model(atu: Costs, ceilings: Mapping[str, float], args: argparse.Namespace) -> None:
    """The capacity model: ``need`` at each modelled size, and its walls."""
    for tables in MODELLED_TABLES:
        rates = need(atu.figures, tables, args.interval)
        servers = nodes(rates["servers cores"], args.node_cores, args.utilisation)
        print(
            f"{tables:,} tables, one move per {args.interval:g} s, {SOCKETS} sockets each: "
            f"{rates['moves']:,.0f} moves/s; {rates['servers cores']:,.1f} server cores -> "
            f"{servers} nodes of {args.node_cores} cores at {args.utilisation:.0%}; worker "
            f"{rates['worker cores']:,.2f} cores; PostgreSQL {rates['PostgreSQL cores']:,.1f} "
            f"cores, {rates['commits']:,.0f} commits/s, {rates['statements']:,.0f} "
            f"statements/s, {rates['rows inserted']:,.0f} rows inserted/s, "
            f"{rates['WAL bytes'] / 1e6:,.1f} MB/s of WAL; Redis {rates['Redis cores']:,.2f} "
            f"cores, {rates['Redis commands']:,.0f} commands/s, {rates['Redis publishes']:,.0f} "
            f"publishes/s, {(rates['Redis bytes in'] + rates['Redis bytes out']) / 1e6:,.1f} MB/s; "
            f"sockets {rates['socket messages']:,.0f} messages/s, "
            f"{rates['socket bytes'] / 1e6:,.1f} MB/s, "
            f"{tables * SOCKETS / servers:,.0f} open on a node "
            f"({tables * SOCKETS / servers * atu.socket_memory / 1e9:,.2f} GB of its memory)"
        )
        for name, share in walls(rates, ceilings):
            print(f"    {name}: {share:.2f} of one instance's ceiling ({ceilings[name]:,.0f})")
        if "commits" in ceilings:
            # The write path writes a move alone when no write is under way (decision
            # 1802): a lighter load per process commits more often per move.
            alone = rates["moves"] / ceilings["commits"]
            print(f"    commits, were each move committed alone: {alone:.2f} of the ceiling")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500, help="tables (5 sockets each)")
    parser.add_argument("--servers", type=int, default=2, help="uvicorn processes")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds per move per table")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per window")
    parser.add_argument("--repeat", type=int, default=5, help="windows")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before the windows")
    parser.add_argument("--node-cores", type=int, default=8, help="the model's cores per node")
    parser.add_argument(
        "--utilisation", type=float, default=0.5, help="the model's share of a node's cores used"
    )
    parser.add_argument("--pgbench-clients", type=int, default=16)
    parser.add_argument("--ceiling-seconds", type=float, default=20.0)
    parser.add_argument("--publishes", type=int, default=300_000, help="redis-benchmark's")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.servers < 1 or args.repeat < 1 or args.interval <= 0:
        parser.error("--tables, --servers and --repeat must be at least 1, --interval over 0")
    # What bench.live's load reads of its arguments, as production places sockets.
    args.placement, args.deflate, args.with_state = "table", "on", "changes"
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    live.raise_open_files_limit()
    print(
        f"Costs per move: {args.tables} tables x {SOCKETS} sockets, one move per "
        f"{args.interval:g} s each, {args.servers} uvicorn process(es), {os.cpu_count()} CPUs; "
        f"windows of {args.seconds:g} s x {args.repeat}",
        flush=True,
    )
    services = start_services()
    logs = Path(tempfile.mkdtemp(prefix="atu-costs-logs-"))
    started: list[Server] = []
    worker = None
    probes: list[Probe] = []
    try:
        args.database_url = services.database_url
        live.prepare_database(services.database_url)
        prepare_statistics(services.database_url)
        environ = {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": services.database_url,
            "REDIS_URL": services.redis_url,
            "SECRET_KEY": "bench-costs-secret-key-not-for-production-0123456789",
            "DEBUG": "false",
            "ATU_SOCKETS_PER_ADDRESS": "off",
        }
        live.setup_django(environ)
        seeded = live.seed_tables(args.tables)
        # A backend reports its counts when it ends (else at most once a second, or
        # after 10 s idle): the seeding's must not fall into the first window.
        from django.db import connections

        connections.close_all()
        args.load_lag_log = logs / "loop-lag-load-generator.log"
        servers = [
            live.start_server("config.asgi:application", environ, "on", "off", logs)
            for _ in range(args.servers)
        ]
        started.extend(servers)
        worker = start_worker(environ, logs)
        live.wait_until_listening(servers)
        atu_probe = Probe(services, servers, worker.pid)
        probes.append(atu_probe)
        atu = live.run_async(
            lambda: live.paced_collector(
                measured(seeded, servers, atu_probe, args, "Atu"), args.load_lag_log
            )
        )
        stop_worker(worker)
        live.stop_servers(servers)
        baseline_environ = {
            "BASELINE_DATABASE_URL": services.database_url,
            "REDIS_URL": services.redis_url,
            # The size of Atu's messages in the windows (a game's first ones are larger).
            "BASELINE_MESSAGE_BYTES": str(
                int(atu.figures["socket bytes"] / atu.figures["socket messages"])
            ),
            "BASELINE_SEATS": str(live.SEATS),
        }
        baseline_servers = [
            live.start_server("bench.baseline:app", baseline_environ, "on", "off", logs)
            for _ in range(args.servers)
        ]
        started.extend(baseline_servers)
        live.wait_until_listening(baseline_servers)
        baseline_probe = Probe(services, baseline_servers, None)
        probes.append(baseline_probe)
        baseline = live.run_async(
            lambda: live.paced_collector(
                measured(
                    live.baseline_tables(len(seeded), "baseline"),
                    baseline_servers,
                    baseline_probe,
                    args,
                    "baseline",
                ),
                args.load_lag_log,
            )
        )
        live.stop_servers(baseline_servers)
        print_costs(atu, baseline)
        ceilings = measure_ceilings(services, atu, args)
        print_model(atu, ceilings, args)
        return 0
    finally:
        for probe in probes:
            probe.close()
        if worker is not None:
            stop_worker(worker)
        live.stop_servers(started)
        live.report_server_errors(started, logs)
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
