"""Fixtures shared by every test folder."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from config import celery_app
from games import appendonly
from tests.accounts.factories import UserFactory


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """The test databases, with no connection left to them when they are dropped.

    Django's connections belong to threads, and the pool that Django closes before
    the drop closes only the connections given back to it. Besides this thread, one
    may still hold a connection: asgiref's thread for the synchronous calls of code
    on an event loop outside a request (a server's startup run by a test, say, whose
    ``sync_to_async`` call does not give its connection back as
    ``database_sync_to_async`` does).
    """
    yield
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture
def user(db: None) -> User:
    return UserFactory.create()


@pytest.fixture
def logged_in_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


_DB_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}
_guard = {"suspended": False}


@pytest.fixture(autouse=True)
def _wipeable_event_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let a transactional test's database be wiped afterwards.

    The event log refuses DELETE and TRUNCATE, which is how Django empties the
    database after a transactional test; the guard is lifted for that wipe only
    and put back before the next test that uses the database.
    """
    marker = request.node.get_closest_marker("django_db")
    uses_db = marker is not None or bool(_DB_FIXTURES & set(request.fixturenames))
    transactional = bool(
        {"transactional_db", "live_server"} & set(request.fixturenames)
        or (marker is not None and marker.kwargs.get("transaction"))
    )
    if uses_db and _guard["suspended"]:
        appendonly.resume(connection)
        _guard["suspended"] = False
    yield
    if transactional:
        appendonly.suspend(connection)
        _guard["suspended"] = True


@pytest.fixture
def celery_worker() -> Iterator[subprocess.Popen[bytes]]:
    """A real worker process on the test database and the Redis broker."""
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
        f"{connection.settings_dict['NAME']}",
        # Bots play at once: a test waits for whole games.
        "ATU_BOT_DELAY_SECONDS": "0",
    }
    # Tasks left in the broker by earlier runs name games of databases long gone.
    celery_app.control.purge()
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
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
        while not celery_app.control.ping(timeout=0.5):
            assert time.monotonic() < deadline, "the Celery worker did not start"
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
