"""PostgreSQL clusters of a test's own: a primary, a streaming standby of it, each
started, stopped and restarted by the test, in a temporary directory on a free port,
and the site's database on them (its roles, migrated as production's is).

The machine's shared cluster is never touched: what a test does to these (a
restart, a paused replay) happens to no one else. Run as root, the clusters run as
the ``postgres`` user, as PostgreSQL requires.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.settings.environment import BASE_DIR
from tests.games.live.test_two_processes import free_port, serve, wait_until_healthy
from tests.reliability.conftest import stop

SUPERUSER = "postgres"
OWNER = "atu"
APP = "atu_app"
DATABASE = "atu"
START_SECONDS = 30
# A test database need not survive a crash of the machine: no fsync.
SETTINGS = (
    "listen_addresses = '127.0.0.1'\n"
    "wal_level = replica\n"
    "max_wal_senders = 4\n"
    "hot_standby = on\n"
    "fsync = off\n"
    "synchronous_commit = off\n"
    "full_page_writes = off\n"
    "shared_buffers = 16MB\n"
    "max_connections = 60\n"
)


def _binaries() -> Path | None:
    """The newest PostgreSQL's programs on this machine (initdb, pg_ctl, …), if any."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parts[-3])
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


BIN = _binaries()

needs_postgresql = pytest.mark.skipif(
    BIN is None or shutil.which("psql") is None,
    reason="starts PostgreSQL clusters of its own: needs PostgreSQL's server programs "
    "(initdb, pg_ctl, pg_basebackup) and psql",
)


def _as_postgres(command: list[str]) -> list[str]:
    """``command`` as the ``postgres`` user when run as root (PostgreSQL refuses root)."""
    return ["runuser", "-u", SUPERUSER, "--", *command] if os.geteuid() == 0 else command


def _run(command: list[str]) -> str:
    done = subprocess.run(
        _as_postgres(command), capture_output=True, text=True, check=False, timeout=120
    )
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@dataclass
class Cluster:
    """One PostgreSQL server of the test's: its data directory and port."""

    data: Path
    port: int

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.data.name}.log"

    def start(self) -> None:
        assert BIN is not None
        _run(
            [
                str(BIN / "pg_ctl"),
                *("-D", str(self.data), "-l", str(self.log), "-w", "-t", str(START_SECONDS)),
                *("-o", f"-p {self.port} -k {self.data.parent}"),
                "start",
            ]
        )

    def stop(self) -> None:
        """A fast shutdown: sessions ended, what was committed kept."""
        assert BIN is not None
        _run([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def running(self) -> bool:
        assert BIN is not None
        command = _as_postgres([str(BIN / "pg_ctl"), "-D", str(self.data), "status"])
        return subprocess.run(command, capture_output=True, check=False).returncode == 0

    def sql(self, statement: str, *, database: str = "postgres") -> str:
        """``statement``'s output as the superuser, unaligned, without headers."""
        return _run(
            [
                "psql",
                *("-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", database),
                *("-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", statement),
            ]
        ).strip()

    def url(self, role: str = APP, database: str = DATABASE) -> str:
        return f"postgres://{role}@127.0.0.1:{self.port}/{database}"


class Clusters:
    """The clusters of one test, in one temporary directory the ``postgres`` user owns."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="atu-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, SUPERUSER, SUPERUSER)
        self.started: list[Cluster] = []

    def primary(self) -> Cluster:
        """A new cluster (trusting local connections), started, with the site's roles
        and database migrated as production's is."""
        assert BIN is not None
        cluster = Cluster(self.root / "primary", free_port())
        _run(
            [
                str(BIN / "initdb"),
                *("-D", str(cluster.data), "-U", SUPERUSER, "-A", "trust"),
                *("-E", "UTF8", "--no-locale", "--no-sync"),
            ]
        )
        with (cluster.data / "postgresql.conf").open("a") as conf:
            conf.write(SETTINGS)
        self._start(cluster)
        _run(
            [
                "psql",
                *("-h", "127.0.0.1", "-p", str(cluster.port), "-U", SUPERUSER, "-q", "-X"),
                *("-v", f"owner={OWNER}", "-v", f"app={APP}", "-v", f"database={DATABASE}"),
                *("-f", str(BASE_DIR / "runtime" / "database_roles.sql")),
            ]
        )
        migrate(cluster)
        return cluster

    def standby(self, primary: Cluster) -> Cluster:
        """A hot standby streaming from ``primary``, started, and caught up with it."""
        assert BIN is not None
        cluster = Cluster(self.root / f"standby-{len(self.started)}", free_port())
        _run(
            [
                str(BIN / "pg_basebackup"),
                *("-h", "127.0.0.1", "-p", str(primary.port), "-U", SUPERUSER),
                *("-D", str(cluster.data), "-R", "-X", "stream", "-c", "fast", "--no-sync"),
            ]
        )
        self._start(cluster)
        caught_up(primary, cluster)
        return cluster

    def _start(self, cluster: Cluster) -> None:
        try:
            cluster.start()
        except AssertionError as error:
            log = cluster.log.read_text() if cluster.log.exists() else ""
            raise AssertionError(f"{error}\n{log}") from None
        self.started.append(cluster)

    def remove(self) -> None:
        for cluster in reversed(self.started):
            if cluster.running():
                cluster.stop()
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def clusters() -> Iterator[Clusters]:
    made = Clusters()
    try:
        yield made
    finally:
        made.remove()


def migrate(cluster: Cluster) -> None:
    """The site's tables on ``cluster``, as ``manage.py migrate_as_owner`` makes them."""
    _manage(["migrate_as_owner", "--verbosity", "0"], production_env(cluster))


def _manage(arguments: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if done.returncode != 0:
        raise AssertionError(f"manage.py {arguments[0]} failed:\n{done.stdout}\n{done.stderr}")


def collect_static(env: dict[str, str]) -> None:
    """The static files as production serves them (by hashed names, from the
    manifest), collected once: an embedded test run has not collected them."""
    if (BASE_DIR / "var" / "static" / "staticfiles.json").exists():
        return
    _manage(["collectstatic", "--noinput", "--verbosity", "0"], env)


def production_env(primary: Cluster, **extra: str) -> dict[str, str]:
    """The production settings' environment on ``primary``'s database, without Redis
    unless ``extra`` names one."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DATABASE_REPLICA_URL", "PGAPPNAME"}
    }
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-secret-key-for-pgcluster-0123456789abcdef",
        "DATABASE_URL": primary.url(),
        "DATABASE_OWNER_URL": primary.url(OWNER),
        **extra,
    }


def caught_up(primary: Cluster, standby: Cluster, seconds: float = 30) -> None:
    """Wait until ``standby`` has replayed everything ``primary`` has written so far."""
    target = primary.sql("SELECT pg_current_wal_lsn()")
    deadline = time.monotonic() + seconds
    while True:
        behind = standby.sql(
            f"SELECT pg_wal_lsn_diff('{target}', coalesce(pg_last_wal_replay_lsn(), '0/0')) > 0"
        )
        if behind == "f":
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the standby did not replay up to {target} in {seconds} s")
        time.sleep(0.05)


@contextmanager
def replay_paused(standby: Cluster) -> Iterator[None]:
    """The standby receives the primary's changes and replays none of them until the
    block ends: it lags, as a replica behind a busy primary does."""
    standby.sql("SELECT pg_wal_replay_pause()")
    deadline = time.monotonic() + START_SECONDS
    while standby.sql("SELECT pg_get_wal_replay_pause_state()") != "paused":
        assert time.monotonic() < deadline, "the standby's replay did not pause"
        time.sleep(0.02)
    try:
        yield
    finally:
        standby.sql("SELECT pg_wal_replay_resume()")


@contextmanager
def site(env: dict[str, str], log: Path) -> Iterator[str]:
    """A uvicorn process of the site, as production runs it, with ``env``; its
    host:port."""
    collect_static(env)
    port = free_port()
    process = serve(env, port, log, session=True)
    try:
        wait_until_healthy(process, f"127.0.0.1:{port}", log)
        yield f"127.0.0.1:{port}"
    finally:
        stop(process)


@dataclass
class Answer:
    status: int
    # JSON, or the page's text.
    body: Any
    headers: dict[str, str]


def call(
    address: str, method: str, path: str, body: Any = None, token: str = "", timeout: float = 10
) -> Answer:
    """An HTTP request to a served site, answered whatever its status."""
    request = urllib.request.Request(
        f"http://{address}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Token {token}"} if token else {}),
        },
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, raw, headers = error.code, error.read(), error.headers
    if not raw:
        content = None
    elif headers.get_content_type() == "application/json":
        content = json.loads(raw)
    else:
        content = raw.decode()
    return Answer(status, content, {name.lower(): value for name, value in headers.items()})
