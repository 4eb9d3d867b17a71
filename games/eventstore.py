"""The one writer and reader of the event log.

Appends are numbered per stream from 1; a writer states the version it decided
against, and the unique (stream, sequence) pair turns a lost race into a
:class:`VersionConflict` rather than a duplicate or a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import psycopg
from django.db import IntegrityError, connections, transaction
from django.utils import timezone

from accounts.models import User
from games.domain import SCHEMA_VERSION, AnyEvent, Table, decode, encode, fold
from games.errors import VersionConflict
from games.models import StoredEvent


@dataclass(frozen=True)
class Recorded:
    sequence: int
    type: str
    payload: dict[str, Any]
    actor_id: int | None
    recorded_at: datetime

    @property
    def event(self) -> AnyEvent:
        return decode(self.type, self.payload)


def record_to_message(record: Recorded) -> list[Any]:
    """A record as plain values a channel layer carries (msgpack knows no datetime)."""
    return [
        record.sequence,
        record.type,
        record.payload,
        record.actor_id,
        record.recorded_at.isoformat(),
    ]


def record_from_message(values: list[Any]) -> Recorded:
    sequence, type_name, payload, actor_id, recorded_at = values
    return Recorded(sequence, type_name, payload, actor_id, datetime.fromisoformat(recorded_at))


def fold_records(table: Table, records: Sequence[Recorded]) -> Table:
    """``table`` after ``records``, changed in place, stamped with when the last was
    recorded."""
    fold(table, [record.event for record in records])
    if records:
        table.moved_at = records[-1].recorded_at
    return table


def read(stream: str, after: int = 0) -> list[Recorded]:
    rows = (
        StoredEvent.objects.filter(stream=stream, sequence__gt=after)
        .order_by("sequence")
        .values_list("sequence", "type", "payload", "actor_id", "recorded_at")
    )
    return [Recorded(*row) for row in rows]


def read_streams(
    streams: Sequence[str], *, types: Sequence[str], until: datetime | None = None
) -> list[tuple[str, Recorded]]:
    """The records of ``types`` in ``streams`` (recorded by ``until``, if given), each
    with its stream, by stream and sequence, in one query."""
    rows = StoredEvent.objects.filter(stream__in=list(streams), type__in=list(types))
    if until is not None:
        rows = rows.filter(recorded_at__lte=until)
    values = rows.order_by("stream", "sequence").values_list(
        "stream", "sequence", "type", "payload", "actor_id", "recorded_at"
    )
    return [(stream, Recorded(*rest)) for stream, *rest in values]


def version(stream: str) -> int:
    last = (
        StoredEvent.objects.filter(stream=stream)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return last or 0


def append(
    stream: str,
    expected_version: int,
    events: Sequence[Any],
    actor: User | None,
    *,
    encoder: Callable[[Any], tuple[str, dict[str, Any]]] = encode,
    savepoint: bool = True,
) -> list[Recorded]:
    """Append ``events`` after ``expected_version``; must run inside a transaction.

    ``encoder`` gives each event's stored type name and payload: a game's by default,
    another stream's (a championship's) by its own. A conflict rolls back to a
    savepoint, so the caller's transaction may go on; a caller that lets the
    :class:`VersionConflict` end its transaction anyway may do without one
    (``savepoint=False``: one round trip less each way)."""
    recorded = _records(expected_version, events, actor, encoder)
    statement, params = _insert(stream, recorded)
    try:
        with transaction.atomic(savepoint=savepoint), _cursor() as cursor:
            cursor.execute(statement, params)
    except IntegrityError as error:
        raise VersionConflict(expected_version) from error
    return recorded


def append_with(
    stream: str,
    expected_version: int,
    events: Sequence[AnyEvent],
    actor: User | None,
    statement: Callable[[list[Recorded]], tuple[str, list[Any]]],
) -> tuple[list[Recorded], int]:
    """Append ``events`` after ``expected_version`` and run ``statement(records)``
    (an UPDATE of a read model ending in its WHERE clause, and its parameters) as
    one SQL statement, PostgreSQL's data-modifying WITH: in autocommit, its own
    transaction in one round trip to the server, where BEGIN, INSERT, UPDATE and
    COMMIT take four. Both land or neither does. Also how many rows the UPDATE
    changed.

    The UPDATE waits for the INSERT (its one-time filter reads the inserted rows):
    an unreferenced WITH runs after the main statement, which would lock the read
    model's row before the log's key, the reverse of :func:`append` and then the
    projection in a transaction, and two writers racing for one version deadlocked."""
    recorded = _records(expected_version, events, actor, encode)
    insert, insert_params = _insert(stream, recorded)
    update, update_params = statement(recorded)
    try:
        with _cursor() as cursor:
            cursor.execute(
                f"WITH appended AS ({insert} RETURNING 1) "
                f"{update} AND EXISTS (SELECT 1 FROM appended)",
                [*insert_params, *update_params],
            )
            return recorded, int(cursor.rowcount)
    except IntegrityError as error:
        raise VersionConflict(expected_version) from error


def _records(
    expected_version: int,
    events: Sequence[Any],
    actor: User | None,
    encoder: Callable[[Any], tuple[str, dict[str, Any]]],
) -> list[Recorded]:
    now = timezone.now()
    actor_id = actor.pk if actor is not None else None
    recorded = []
    for offset, event in enumerate(events, 1):
        type_name, payload = encoder(event)
        recorded.append(Recorded(expected_version + offset, type_name, payload, actor_id, now))
    return recorded


# The stored columns of an event, in the order _insert writes them.
_COLUMNS = ("stream", "sequence", "type", "schema_version", "payload", "actor", "recorded_at")


def _cursor() -> Any:
    """A cursor for the log's writes. On PostgreSQL, one that binds its parameters on
    the server (psycopg's own Cursor): Django's default ClientCursor quotes each
    parameter into the SQL text in Python, which cost a sixth of a server's CPU under
    live play; and the server prepares a statement once it has seen it five times
    (psycopg's prepare_threshold), instead of parsing and planning it every move."""
    connection = connections[StoredEvent.objects.db]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # Wrapped as Django wraps its own (errors translated, queries logged in tests).
        return connection._prepare_cursor(psycopg.Cursor(connection.connection))


def _insert(stream: str, records: Sequence[Recorded]) -> tuple[str, list[Any]]:
    """One INSERT of ``records``, in plain SQL, and its parameters: the ORM's
    bulk_create builds model instances and compiles the statement anew each time,
    several times the cost of the write itself on the hot path of every move."""
    connection = connections[StoredEvent.objects.db]
    fields = [StoredEvent._meta.get_field(name) for name in _COLUMNS]
    stream_field, sequence_field, type_field, schema_field, payload, actor, at = fields
    params: list[Any] = []
    for record in records:
        params += [
            stream_field.get_db_prep_save(stream, connection),
            sequence_field.get_db_prep_save(record.sequence, connection),
            type_field.get_db_prep_save(record.type, connection),
            schema_field.get_db_prep_save(SCHEMA_VERSION, connection),
            payload.get_db_prep_save(record.payload, connection),
            actor.get_db_prep_save(record.actor_id, connection),
            at.get_db_prep_save(record.recorded_at, connection),
        ]
    return _insert_sql(connection.vendor, len(records)), params


@lru_cache(maxsize=64)
def _insert_sql(vendor: str, rows: int) -> str:
    connection = connections[StoredEvent.objects.db]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(StoredEvent._meta.get_field(name).column) for name in _COLUMNS)
    row = "(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"
    values = ", ".join([row] * rows)
    return f"INSERT INTO {quote(StoredEvent._meta.db_table)} ({columns}) VALUES {values}"
