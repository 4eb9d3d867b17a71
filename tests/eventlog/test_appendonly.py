"""The event log and the deal-secret vault are only ever appended to: the database
refuses to change, remove or empty their rows, whoever asks, even the tables' owner
(the guards' triggers; what the application's own role may not even try is in
tests/runtime/test_database_roles.py)."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from eventlog.models import StoredEvent
from eventlog.store import append, read
from games.models import DealSecret
from games.table import PlayerSeated
from runtime.database_roles import owner_configured
from tests.database import owner_connection

STREAM = "test:stream"
EVENTS = [PlayerSeated(0, 1, "Ana"), PlayerSeated(1, 2, "Bob")]
SECRET = bytes(range(32))


def raw(sql: str, params: list[object] | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


@contextmanager
def owner() -> Iterator[BaseDatabaseWrapper]:
    """A connection with every privilege on the tables: their owner's, where the
    application connects as a role of its own, or else the application's."""
    if owner_configured():
        with owner_connection() as own:
            yield own
    else:
        yield connection


def as_owner(sql: str, params: list[object] | None = None) -> None:
    with owner() as own, own.cursor() as cursor:
        cursor.execute(sql, params or [])


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_storedevent SET type = 'Forged' WHERE stream = %s",
        "UPDATE games_storedevent SET sequence = sequence + 10 WHERE stream = %s",
        "DELETE FROM games_storedevent WHERE stream = %s",
    ],
)
def test_the_database_refuses_to_change_or_remove_an_event(sql: str) -> None:
    append(STREAM, 0, EVENTS, None)

    with pytest.raises(DatabaseError):
        raw(sql, [STREAM])

    assert [(r.sequence, r.type) for r in read(STREAM)] == [
        (1, "PlayerSeated"),
        (2, "PlayerSeated"),
    ]


# Committed rows, as in production, and changed by the tables' owner: inside the
# insert's own transaction PostgreSQL would refuse a TRUNCATE for its pending
# foreign-key checks before asking the trigger.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_storedevent SET type = 'Forged' WHERE stream = %s",
        "DELETE FROM games_storedevent WHERE stream = %s",
        # SQLite has no TRUNCATE; DELETE without WHERE is how it empties a table.
        "TRUNCATE games_storedevent"
        if connection.vendor == "postgresql"
        else "DELETE FROM games_storedevent",
    ],
)
def test_not_even_the_tables_owner_may_change_remove_or_empty_events(sql: str) -> None:
    append(STREAM, 0, EVENTS, None)

    with pytest.raises(DatabaseError, match="the event log is append-only"):
        as_owner(sql, [STREAM] if "%s" in sql else [])

    assert StoredEvent.objects.filter(stream=STREAM).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_dealsecret SET secret = %s WHERE stream = %s",
        "DELETE FROM games_dealsecret WHERE stream = %s",
        "TRUNCATE games_dealsecret"
        if connection.vendor == "postgresql"
        else "DELETE FROM games_dealsecret",
    ],
)
def test_not_even_the_tables_owner_may_change_remove_or_empty_deal_secrets(sql: str) -> None:
    DealSecret.objects.create(stream=STREAM, hand=0, secret=SECRET)
    params: list[object] = {2: [bytes(32), STREAM], 1: [STREAM], 0: []}[sql.count("%s")]

    with pytest.raises(DatabaseError, match="the deal-secret vault is append-only"):
        as_owner(sql, params)

    assert [bytes(s) for s in DealSecret.objects.values_list("secret", flat=True)] == [SECRET]


@pytest.mark.django_db
def test_the_orm_cannot_edit_or_delete_events_or_secrets_either() -> None:
    append(STREAM, 0, EVENTS, None)
    stored = StoredEvent.objects.get(stream=STREAM, sequence=1)
    secret = DealSecret.objects.create(stream=STREAM, hand=0, secret=SECRET)

    for change in (
        lambda: StoredEvent.objects.filter(pk=stored.pk).update(type="Forged"),
        stored.delete,
        lambda: DealSecret.objects.filter(pk=secret.pk).update(secret=bytes(32)),
        secret.delete,
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()

    assert StoredEvent.objects.get(pk=stored.pk).type == "PlayerSeated"
    assert bytes(DealSecret.objects.get(pk=secret.pk).secret) == SECRET
