import pytest
from django.db import DatabaseError, connection, transaction

from games.domain import PlayerSeated
from games.eventstore import append, read
from games.models import StoredEvent

STREAM = "test:stream"
EVENTS = [PlayerSeated(0, 1, "Ana"), PlayerSeated(1, 2, "Bob")]


def raw(sql: str, params: list[object] | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
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

    with pytest.raises(DatabaseError, match="append-only"):
        raw(sql, [STREAM])

    assert [(r.sequence, r.type) for r in read(STREAM)] == [
        (1, "PlayerSeated"),
        (2, "PlayerSeated"),
    ]


# Committed events, as in production: inside the insert's own transaction PostgreSQL
# would refuse the TRUNCATE for its pending foreign-key checks before asking the trigger.
@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_empty_the_event_log() -> None:
    append(STREAM, 0, EVENTS, None)
    # SQLite has no TRUNCATE; DELETE without WHERE is how it empties a table.
    wipe = (
        "TRUNCATE games_storedevent"
        if connection.vendor == "postgresql"
        else ("DELETE FROM games_storedevent")
    )

    with pytest.raises(DatabaseError, match="append-only"):
        raw(wipe)

    assert StoredEvent.objects.filter(stream=STREAM).count() == 2


@pytest.mark.django_db
def test_the_orm_cannot_edit_or_delete_events_either() -> None:
    append(STREAM, 0, EVENTS, None)
    stored = StoredEvent.objects.get(stream=STREAM, sequence=1)

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        StoredEvent.objects.filter(pk=stored.pk).update(type="Forged")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        stored.delete()

    assert StoredEvent.objects.get(pk=stored.pk).type == "PlayerSeated"
