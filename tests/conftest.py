"""Fixtures shared by every test folder."""

from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from games import appendonly
from tests.accounts.factories import UserFactory


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
