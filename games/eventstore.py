"""The one writer and reader of the event log.

Appends are numbered per stream from 1; a writer states the version it decided
against, and the unique (stream, sequence) pair turns a lost race into a
:class:`VersionConflict` rather than a duplicate or a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.domain import SCHEMA_VERSION, AnyEvent, decode, encode
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


def read(stream: str, after: int = 0) -> list[Recorded]:
    rows = (
        StoredEvent.objects.filter(stream=stream, sequence__gt=after)
        .order_by("sequence")
        .values_list("sequence", "type", "payload", "actor_id", "recorded_at")
    )
    return [Recorded(*row) for row in rows]


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
) -> list[Recorded]:
    """Append ``events`` after ``expected_version``; must run inside a transaction.

    ``encoder`` gives each event's stored type name and payload: a game's by default,
    another stream's (a championship's) by its own."""
    now = timezone.now()
    rows = []
    for offset, event in enumerate(events, 1):
        type_name, payload = encoder(event)
        rows.append(
            StoredEvent(
                stream=stream,
                sequence=expected_version + offset,
                type=type_name,
                schema_version=SCHEMA_VERSION,
                payload=payload,
                actor=actor,
                recorded_at=now,
            )
        )
    try:
        with transaction.atomic():
            StoredEvent.objects.bulk_create(rows)
    except IntegrityError as error:
        raise VersionConflict(expected_version) from error
    actor_id = actor.pk if actor is not None else None
    return [Recorded(row.sequence, row.type, row.payload, actor_id, now) for row in rows]
