"""The one writer and reader of the event log, for every kind of stream.

Appends are numbered per stream from 1; a writer states the version it decided
against, and the unique (stream, sequence) pair turns a lost race into a conflict
(its stream kind's error) rather than a duplicate or a gap.

A stream's kind is its name up to its first colon (``game:``, ``event:``). The log
knows no kind's events: the app that owns a kind registers its :class:`Codec`
(:func:`register`, from its ``AppConfig.ready``), which turns events into stored type
names and payloads and back, and brings a record written with an older payload
schema up to the current one on read (decision 1501).

A person's data an event names (an alias, an entrant's name) is kept beside the log,
in :class:`eventlog.models.PersonalDatum`, not in the stored payload: a codec names
those fields (:class:`Personal`), an append writes them there, a read puts them back,
and :func:`erase` deletes a person's, which then read as a neutral placeholder. The
log itself is never changed (decision 3503).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

import psycopg
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, connections, transaction
from django.db.models import Count, Max
from django.utils import timezone

from eventlog import loopdb
from eventlog.models import PersonalDatum, StoredEvent
from runtime.columns import column_name, db_row

# A record's stored type name and payload at schema version n, made those of n + 1.
Upcaster = Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Personal:
    """A field of an event type that holds a person's datum: kept beside the log
    (:class:`eventlog.models.PersonalDatum`), owned by the user whose id the payload's
    field ``subject`` holds, and read as ``erased`` once that user is erased (or when
    there was none to keep)."""

    field: str
    subject: str
    erased: str = ""


def personal_fields(
    fields: Mapping[str, Sequence[tuple[str, str, str]]],
) -> dict[str, tuple[Personal, ...]]:
    """A codec's ``personal`` from (field, subject, erased) triples by type name."""
    return {name: tuple(Personal(*spec) for spec in specs) for name, specs in fields.items()}


@dataclass(frozen=True)
class Codec:
    """How a kind of stream's events are stored.

    ``encode`` gives an event's type name and JSON payload, ``decode`` the event
    back; ``version`` is the payload schema the kind writes now, stamped on every
    record; ``upcasters[n]`` turns a record written at version n into one of
    version n + 1. ``conflict(expected_version)`` is the error a writer that lost a
    race gets: the kind's callers' own."""

    encode: Callable[[Any], tuple[str, dict[str, Any]]]
    decode: Callable[[str, dict[str, Any]], Any]
    conflict: Callable[[int], Exception]
    version: int = 1
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)
    # The personal fields of each stored type name (of the current version's payloads).
    personal: Mapping[str, tuple[Personal, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # From the oldest version still stored, one step at a time, to the current one.
        steps = range(min(self.upcasters, default=self.version), self.version)
        if sorted(self.upcasters) != list(steps):
            raise ValueError(
                f"upcasters must lead one version at a time up to version {self.version}, "
                f"not from {sorted(self.upcasters)}"
            )

    def upcast(
        self, version: int, type_name: str, payload: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """A record written at ``version`` as the current version reads it."""
        for step in range(version, self.version):
            upcaster = self.upcasters.get(step)
            if upcaster is None:
                raise LookupError(f"no upcaster from schema version {step} of {type_name}")
            type_name, payload = upcaster(type_name, payload)
        return type_name, payload

    def kept(self, type_name: str, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload as the log stores it: without its personal fields."""
        personal = self.personal.get(type_name)
        if not personal:
            return payload
        left_out = {datum.field for datum in personal}
        return {key: value for key, value in payload.items() if key not in left_out}

    def data(self, record: Recorded) -> list[tuple[str, int | None, str]]:
        """The personal data ``record`` names, as (field, subject, value): those to
        keep beside the log (a value that reads as erased needs no keeping)."""
        return [
            (datum.field, record.payload.get(datum.subject), str(value))
            for datum in self.personal.get(record.type, ())
            if (value := record.payload.get(datum.field)) is not None and value != datum.erased
        ]


_CODECS: dict[str, Codec] = {}


def register(prefix: str, codec: Codec) -> None:
    """Store and read the streams whose names start with ``prefix`` (a kind's name
    and its colon, ``"game:"``) with ``codec``."""
    if not prefix.endswith(":") or ":" in prefix[:-1]:
        raise ValueError(f"a stream kind's prefix is its name and one colon, not {prefix!r}")
    if _CODECS.setdefault(prefix, codec) != codec:
        raise ValueError(f"the streams {prefix!r} have a codec already")


def codec_of(stream: str) -> Codec:
    kind, colon, _ = stream.partition(":")
    try:
        return _CODECS[kind + colon]
    except KeyError:
        raise LookupError(f"no codec is registered for the stream {stream!r}") from None


@dataclass(frozen=True)
class Recorded:
    """A record as the current schema of its stream kind reads it."""

    sequence: int
    type: str
    payload: dict[str, Any]
    actor_id: int | None
    recorded_at: datetime
    # Its stream kind's, which decodes it; not part of what was recorded.
    codec: Codec = field(compare=False, repr=False)

    @property
    def event(self) -> Any:
        return self.codec.decode(self.type, self.payload)


def record_to_message(record: Recorded) -> list[Any]:
    """A record as plain values a channel layer carries (msgpack knows no datetime)."""
    return [
        record.sequence,
        record.type,
        record.payload,
        record.actor_id,
        record.recorded_at.isoformat(),
    ]


def record_from_message(stream: str, values: list[Any]) -> Recorded:
    """A record of ``stream`` from what :func:`record_to_message` made of it."""
    sequence, type_name, payload, actor_id, recorded_at = values
    return Recorded(
        sequence,
        type_name,
        payload,
        actor_id,
        datetime.fromisoformat(recorded_at),
        codec_of(stream),
    )


# What a read takes of a stored event, in the order _record takes it.
_READ = ("sequence", "type", "schema_version", "payload", "actor_id", "recorded_at")


def _record(
    codec: Codec,
    sequence: int,
    type_name: str,
    schema_version: int,
    payload: dict[str, Any],
    actor_id: int | None,
    recorded_at: datetime,
) -> Recorded:
    if schema_version < codec.version:
        type_name, payload = codec.upcast(schema_version, type_name, payload)
    return Recorded(sequence, type_name, payload, actor_id, recorded_at, codec)


def read(stream: str, after: int = 0, *, types: Sequence[str] | None = None) -> list[Recorded]:
    """The records of ``stream`` after the sequence number ``after``, in order; only
    those of ``types`` (their stored type names) if given."""
    codec = codec_of(stream)
    rows = StoredEvent.objects.filter(stream=stream, sequence__gt=after)
    if types is not None:
        rows = rows.filter(type__in=list(types))
    records = [_record(codec, *row) for row in rows.order_by("sequence").values_list(*_READ)]
    _restore_personal([(stream, record) for record in records])
    return records


def read_streams(
    streams: Sequence[str], *, types: Sequence[str], until: datetime | None = None
) -> list[tuple[str, Recorded]]:
    """The records of ``types`` in ``streams`` (recorded by ``until``, if given), each
    with its stream, by stream and sequence, in one query."""
    rows = StoredEvent.objects.filter(stream__in=list(streams), type__in=list(types))
    if until is not None:
        rows = rows.filter(recorded_at__lte=until)
    values = rows.order_by("stream", "sequence").values_list("stream", *_READ)
    codecs = {stream: codec_of(stream) for stream in streams}
    records = [(stream, _record(codecs[stream], *rest)) for stream, *rest in values]
    _restore_personal(records)
    return records


def _restore_personal(records: Sequence[tuple[str, Recorded]]) -> None:
    """Put back into the payloads of ``records`` the personal data kept beside the
    log, in one query, and only when some record has a personal field (a game's
    seating, a championship's entries: never a card): an erased datum (or one never
    kept) reads as its field's placeholder."""
    named = [(stream, r) for stream, r in records if r.type in r.codec.personal]
    if not named:
        return
    kept = PersonalDatum.objects.filter(
        stream__in={stream for stream, _ in named},
        sequence__in={record.sequence for _, record in named},
    ).values_list("stream", "sequence", "field", "value")
    values = {(stream, sequence, name): value for stream, sequence, name, value in kept}
    for stream, record in named:
        for datum in record.codec.personal[record.type]:
            value = values.get((stream, record.sequence, datum.field))
            if value is not None:
                record.payload[datum.field] = value
            elif datum.field not in record.payload:
                # (A payload stored with the datum in it, before decision 3503, keeps it:
                # the migration that brought the data out leaves none such.)
                record.payload[datum.field] = datum.erased


def personal_streams(subject_id: int, prefix: str) -> list[str]:
    """The streams whose names start with ``prefix`` that name a datum of the user
    ``subject_id`` (a seat's alias, an entry's name), in name order: where that
    person appears in the log."""
    return list(
        PersonalDatum.objects.filter(subject_id=subject_id, stream__startswith=prefix)
        .order_by("stream")
        .values_list("stream", flat=True)
        .distinct()
    )


def erase(subject_id: int, prefix: str) -> list[str]:
    """Erase the personal data of the user ``subject_id`` that the streams whose names
    start with ``prefix`` name: from now on they read as their fields' placeholders.
    The log is not touched; the read models projected from it must be projected again
    (by the caller, the owner of the kind). Returns the streams concerned."""
    concerned = personal_streams(subject_id, prefix)
    PersonalDatum.objects.filter(subject_id=subject_id, stream__startswith=prefix).delete()
    return concerned


def erased_values(subject_id: int, prefix: str) -> set[str]:
    """The personal data of ``subject_id`` in the streams of ``prefix``, as kept: what
    a caller must also scrub from what it kept of its own (before :func:`erase`)."""
    return set(
        PersonalDatum.objects.filter(subject_id=subject_id, stream__startswith=prefix).values_list(
            "value", flat=True
        )
    )


def version(stream: str) -> int:
    last = (
        StoredEvent.objects.filter(stream=stream)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return last or 0


def tally(stream: str, *, types: Sequence[str]) -> tuple[int, int]:
    """How many records of ``types`` ``stream`` holds, and the last one's sequence
    number (0 for none): a marker that changes whenever they do, in one cheap query."""
    counted = StoredEvent.objects.filter(stream=stream, type__in=list(types)).aggregate(
        count=Count("sequence"), last=Max("sequence")
    )
    return counted["count"], counted["last"] or 0


def streams(prefix: str) -> list[str]:
    """Every stream whose name starts with ``prefix``, in name order."""
    return list(
        StoredEvent.objects.filter(stream__startswith=prefix)
        .order_by("stream")
        .values_list("stream", flat=True)
        .distinct()
    )


def stream_with(type_name: str, **payload: Any) -> str | None:
    """The first stream holding a record of ``type_name`` whose stored payload has
    the given values, if any."""
    lookups = {f"payload__{key}": value for key, value in payload.items()}
    return (
        StoredEvent.objects.filter(type=type_name, **lookups)
        .values_list("stream", flat=True)
        .first()
    )


def append(
    stream: str,
    expected_version: int,
    events: Sequence[Any],
    actor: AbstractBaseUser | None,
    *,
    savepoint: bool = True,
) -> list[Recorded]:
    """Append ``events`` after ``expected_version``; must run inside a transaction.

    A conflict rolls back to a savepoint, so the caller's transaction may go on; a
    caller that lets the conflict end its transaction anyway may do without one
    (``savepoint=False``: one round trip less each way)."""
    codec = codec_of(stream)
    recorded = _records(codec, expected_version, events, actor)
    statement, params = _insert(stream, codec.version, recorded)
    try:
        with transaction.atomic(savepoint=savepoint), _cursor() as cursor:
            cursor.execute(statement, params)
    except IntegrityError as error:
        raise codec.conflict(expected_version) from error
    _keep_personal(stream, recorded)
    return recorded


def names_personal_data(records: Sequence[Recorded]) -> bool:
    """Whether ``records`` hold personal data, which only :func:`append` writes (beside
    the log, in the same transaction): never :func:`append_with`'s one statement."""
    return any(record.codec.data(record) for record in records)


def _keep_personal(stream: str, records: Sequence[Recorded]) -> None:
    data = [
        PersonalDatum(
            stream=stream, sequence=record.sequence, field=name, subject_id=subject, value=value
        )
        for record in records
        for name, subject, value in record.codec.data(record)
    ]
    if data:
        PersonalDatum.objects.bulk_create(data)


def records_of(
    stream: str, expected_version: int, events: Sequence[Any], actor: AbstractBaseUser | None
) -> list[Recorded]:
    """The records an append of ``events`` after ``expected_version`` writes, as they
    will read back: for a caller that writes something of its own with them
    (:func:`append_with`), built from them before the statement is."""
    return _records(codec_of(stream), expected_version, events, actor)


def append_with(stream: str, records: Sequence[Recorded], update: tuple[str, list[Any]]) -> int:
    """Append ``records`` (:func:`records_of`) and run ``update`` (an UPDATE of a read
    model ending in its WHERE clause, and its parameters) as one SQL statement
    (:meth:`loopdb.Append.alone`): in autocommit, its own transaction in one round trip
    to the server, where BEGIN, INSERT, UPDATE and COMMIT take four. Both land or
    neither does. Returns how many rows the UPDATE changed."""
    append = _append_of(stream, records, update)
    sql, params = append.alone()
    try:
        with _cursor() as cursor:
            cursor.execute(sql, params)
            return int(cursor.rowcount)
    except IntegrityError as error:
        raise _conflict(records) from error


def writes_on_loop() -> bool:
    """Whether :func:`append_with_on_loop` may be awaited here: on a server's loop
    whose connections are open (:mod:`eventlog.loopdb`)."""
    return loopdb.available()


async def append_with_on_loop(
    stream: str, records: Sequence[Recorded], update: tuple[str, list[Any]]
) -> int:
    """:func:`append_with` from the event loop, through its own connections
    (:mod:`eventlog.loopdb`, which must be open): no worker thread, no Django
    connection; written together with the other streams' appends that wait
    meanwhile (:func:`loopdb.append`)."""
    append = _append_of(stream, records, update)
    try:
        return await loopdb.append(append)
    except psycopg.IntegrityError as error:
        raise _conflict(records) from error


def _append_of(
    stream: str, records: Sequence[Recorded], update: tuple[str, list[Any]]
) -> loopdb.Append:
    if names_personal_data(records):
        raise ValueError("an append naming personal data is written by store.append")
    # The records carry their stream kind's codec (records_of): no second lookup.
    insert, insert_params = _insert(stream, records[0].codec.version, list(records))
    return loopdb.Append(stream, insert, insert_params, *update)


def _conflict(records: Sequence[Recorded]) -> Exception:
    return records[0].codec.conflict(records[0].sequence - 1)


def _records(
    codec: Codec,
    expected_version: int,
    events: Sequence[Any],
    actor: AbstractBaseUser | None,
) -> list[Recorded]:
    now = timezone.now()
    actor_id = actor.pk if actor is not None else None
    recorded = []
    for offset, event in enumerate(events, 1):
        type_name, payload = codec.encode(event)
        recorded.append(
            Recorded(expected_version + offset, type_name, payload, actor_id, now, codec)
        )
    return recorded


# The stored columns of an event, in the order _insert writes them.
_COLUMNS = ("stream", "sequence", "type", "schema_version", "payload", "actor", "recorded_at")


def _cursor() -> Any:
    """A cursor for the log's writes. On PostgreSQL, one that binds its parameters on
    the server (psycopg's own Cursor): Django's default ClientCursor quotes each
    parameter into the SQL text in Python, a large share of a server's CPU under live
    play (decision 0004); and the server prepares a statement once it has seen it
    often enough (psycopg's prepare_threshold), instead of parsing and planning it
    every move."""
    connection = connections[StoredEvent.objects.db]
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # Wrapped as Django wraps its own (errors translated, queries logged in tests).
        return connection._prepare_cursor(psycopg.Cursor(connection.connection))  # type: ignore[attr-defined]  # Django's own wrapping, absent from the stubs


def _insert(stream: str, schema_version: int, records: Sequence[Recorded]) -> tuple[str, list[Any]]:
    """One INSERT of ``records``, in plain SQL, and its parameters: the ORM's
    bulk_create builds model instances and compiles the statement anew each time,
    several times the cost of the write itself on the hot path of every move."""
    connection = connections[StoredEvent.objects.db]
    saved = db_row(StoredEvent, _COLUMNS, connection)
    params: list[Any] = []
    for record in records:
        params += saved(
            (
                stream,
                record.sequence,
                record.type,
                schema_version,
                record.codec.kept(record.type, record.payload),
                record.actor_id,
                record.recorded_at,
            )
        )
    return _insert_sql(connection.vendor, len(records)), params


@lru_cache(maxsize=64)
def _insert_sql(vendor: str, rows: int) -> str:
    connection = connections[StoredEvent.objects.db]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column_name(StoredEvent, name)) for name in _COLUMNS)
    row = "(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"
    values = ", ".join([row] * rows)
    return f"INSERT INTO {quote(StoredEvent._meta.db_table)} ({columns}) VALUES {values}"
