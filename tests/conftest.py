"""Fixtures shared by every test folder."""

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test import Client
from django.utils import translation

from accounts.models import User
from config import celery_app
from eventlog import store
from games.appendonly import GUARDS
from games.read.analysis import wait_for_embedded_analyses
from games.table import STREAM_PREFIX
from runtime.database_roles import (
    app_role,
    grant_app_role,
    owner_configured,
    switch_role,
)
from tests.accounts.factories import UserFactory
from tests.database import owner_connection, resume_guards, suspend_guards
from tests.throttles import forget_throttle_counts


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create()


@pytest.fixture
def logged_in_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


# Tests that need game events in a stream that is not a game's (the log's own tests, a
# tampered copy of a game) write them to streams of a kind of their own, "test:".
store.register("test:", store.codec_of(STREAM_PREFIX))

_DB_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}
_guard = {"suspended": False}
# The application's role, while pytest-django creates the test database as the owner.
_app_credentials: dict[str, Any] = {}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings: None) -> None:
    """With the two roles of production (``DATABASE_OWNER_URL``), the test database
    is created and migrated as the tables' owner, as a deployment's is; the tests
    then connect as the application's role (see ``django_db_setup``)."""
    owner = settings.ENV.database_owner
    if owner is not None:
        _app_credentials.update(switch_role(connections[DEFAULT_DB_ALIAS], owner))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, granted to the application's role as
    ``manage.py migrate_as_owner`` grants it; every test connects as that role (and
    so do the servers and workers they start); the owner drops the database."""
    if not _app_credentials:
        yield
        _close_every_connection()
        return
    default = connections[DEFAULT_DB_ALIAS]
    with django_db_blocker.unblock():
        grant_app_role(default, _app_credentials["USER"], append_only=GUARDS)
    owner = switch_role(default, _app_credentials)
    yield
    _close_every_connection()
    switch_role(default, owner)


def _close_every_connection() -> None:
    """No connection may be left to the test database when it is dropped.

    Django's connections belong to threads, and the pool that Django closes before
    the drop closes only the connections given back to it. Besides this thread, one
    may still hold a connection: asgiref's thread for the synchronous calls of code
    on an event loop outside a request (a server's startup run by a test, say, whose
    ``sync_to_async`` call does not give its connection back as
    ``database_sync_to_async`` does).
    """
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def _suspend_guards() -> None:
    """Let Django empty the test database: the guards off, and with two roles the
    application's allowed TRUNCATE (Django's flush) until :func:`_resume_guards`."""
    if not owner_configured():
        suspend_guards(connection, GUARDS.values())
        return
    with owner_connection() as owner, owner.cursor() as cursor:
        suspend_guards(owner, GUARDS.values())
        cursor.execute(f"GRANT TRUNCATE ON ALL TABLES IN SCHEMA public TO {_app_role()}")


def _resume_guards() -> None:
    if not owner_configured():
        resume_guards(connection, GUARDS.values())
        return
    with owner_connection() as owner, owner.cursor() as cursor:
        resume_guards(owner, GUARDS.values())
        cursor.execute(f"REVOKE TRUNCATE ON ALL TABLES IN SCHEMA public FROM {_app_role()}")


def _app_role() -> str:
    return connection.ops.quote_name(app_role(connection))


@pytest.fixture(autouse=True)
def _wipeable_event_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let a transactional test's database be wiped afterwards.

    The event log and the vault refuse DELETE and TRUNCATE, which is how Django
    empties the database after a transactional test; the guard is lifted for that
    wipe only and put back before the next test that uses the database. With two
    roles, the owner lifts it, through a connection of its own (outside the test's
    transaction), and lets the application's role truncate for that wipe.
    """
    marker = request.node.get_closest_marker("django_db")
    uses_db = marker is not None or bool(_DB_FIXTURES & set(request.fixturenames))
    transactional = bool(
        {"transactional_db", "live_server"} & set(request.fixturenames)
        or (marker is not None and marker.kwargs.get("transaction"))
    )
    if uses_db and _guard["suspended"]:
        _resume_guards()
        _guard["suspended"] = False
    yield
    if transactional:
        _suspend_guards()
        _guard["suspended"] = True


@pytest.fixture(autouse=True)
def _embedded_analyses_done() -> Iterator[None]:
    """A test ends once the analyses it asked for embedded are done: a replay's page asks
    for its game's, computed in a thread of this process that would otherwise write into
    a database wiped, or the next test's."""
    yield
    wait_for_embedded_analyses()


@pytest.fixture(autouse=True)
def _no_language_left_over() -> Iterator[None]:
    """A request through the test client leaves its language active in the test's
    thread (a server's next request chooses its own): the next test starts with none."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    """Every test starts with no request counted against any rate."""
    forget_throttle_counts()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "worker_bot_delay(seconds): the Celery worker's bots wait that long before each "
        "move (production mode), as production's do, for a test that acts between them",
    )


@pytest.fixture
def celery_worker(request: pytest.FixtureRequest) -> Iterator[subprocess.Popen[bytes]]:
    """A real worker process on the test database and the Redis broker."""
    # Bots play at once unless the test says otherwise: a test waits for whole games.
    delay = request.node.get_closest_marker("worker_bot_delay")
    with _worker("celery", [], bot_delay=str(delay.args[0]) if delay else "0") as worker:
        yield worker


@pytest.fixture
def analyst_worker() -> Iterator[subprocess.Popen[bytes]]:
    """A real analyst (the Procfile's: the analysis queue alone) on the test database and
    the Redis broker."""
    with _worker("analyst", ["-Q", "analysis"], bot_delay="0") as worker:
        yield worker


@contextlib.contextmanager
def _worker(name: str, queues: list[str], *, bot_delay: str) -> Iterator[subprocess.Popen[bytes]]:
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
        f"{connection.settings_dict['NAME']}",
        "ATU_BOT_DELAY_SECONDS": bot_delay,
    }
    # Tasks left in the broker by earlier runs name games of databases long gone.
    celery_app.control.purge()
    hostname = f"{name}@{socket.gethostname()}"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            *queues,
            f"--hostname={hostname}",
            "--pool=solo",
            "--purge",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not celery_app.control.ping(destination=[hostname], timeout=0.5):
            assert time.monotonic() < deadline, f"the Celery {name} did not start"
        yield worker
    finally:
        worker.terminate()
        worker.wait(timeout=20)


@pytest.fixture
def bots_play(request: pytest.FixtureRequest, settings: Any) -> Iterator[None]:
    """Bots play at once: on timer threads of this process when embedded, in a real
    Celery worker in production mode."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        settings.ATU_BOT_DELAY_SECONDS = 0
        yield
    else:
        request.getfixturevalue("celery_worker")
        yield


@pytest.fixture
def tasks_run(request: pytest.FixtureRequest, settings: Any) -> None:
    """The tasks sent run: in place when embedded, in a real Celery worker in
    production mode (which plays its bots at once)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        request.getfixturevalue("celery_worker")
