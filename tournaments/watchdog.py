"""The event sockets of this process, and what makes up for an ``event.changed`` that
never came (a Redis that was down, a worker that gave up; :mod:`runtime.outbox`).

Every ``ATU_WATCHDOG_SECONDS`` (0: never), :func:`watch_over` reads in one query the
stamp of every event followed here that heard nothing meanwhile: its version and the
sum of its tables' result versions (a standings update keeps the event's version but
reads its tables again). A stamp that moved since the last look is a change the
sockets may have missed: each sends its viewer's picture again. An event's first look
only notes its stamp; a change heard by broadcast since the last look is sent once
more when the event falls quiet (decision 3101).
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Protocol

from channels.db import database_sync_to_async
from django.db.models import OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce

from runtime import outbox
from tournaments.models import Event, TableResult

Stamp = tuple[int, int]


class Listener(Protocol):
    """A socket on an event (:class:`tournaments.consumers.EventConsumer`)."""

    def changed(self, version: int) -> None: ...


@dataclass(eq=False)
class _Watched:
    sockets: set[Listener] = field(default_factory=set)
    stamp: Stamp | None = None
    # When the last broadcast came (time.monotonic()).
    heard_at: float = field(default_factory=time.monotonic)


_WATCHED: dict[uuid.UUID, _Watched] = {}


def watch(event_id: uuid.UUID, socket: Listener) -> None:
    _WATCHED.setdefault(event_id, _Watched()).sockets.add(socket)


def unwatch(event_id: uuid.UUID, socket: Listener) -> None:
    watched = _WATCHED.get(event_id)
    if watched is None:
        return
    watched.sockets.discard(socket)
    if not watched.sockets:
        del _WATCHED[event_id]


def heard(event_id: uuid.UUID) -> None:
    """A broadcast of the event came."""
    watched = _WATCHED.get(event_id)
    if watched is not None:
        watched.heard_at = time.monotonic()


async def watch_over() -> None:
    """Look in (:func:`look_in`) every ``ATU_WATCHDOG_SECONDS``, until cancelled."""
    await outbox.watch_over(look_in, "the events' stamps")


async def look_in(*, quiet_since: float) -> int:
    """Read the stamps of the events followed here that heard no broadcast since
    ``quiet_since`` (time.monotonic()), in one query; tell the sockets of those whose
    stamp moved. How many sockets were told."""
    quiet = [event_id for event_id, watched in _WATCHED.items() if watched.heard_at <= quiet_since]
    if not quiet:
        return 0
    # Not thread-sensitive: a database that does not answer must not hold the thread
    # that serves every request's synchronous code.
    stamps = await database_sync_to_async(_stamps, thread_sensitive=False)(quiet)
    told = 0
    for event_id, version, results in stamps:
        watched = _WATCHED.get(event_id)
        if watched is None:
            continue
        known, watched.stamp = watched.stamp, (version, results)
        if known is not None and known != watched.stamp:
            for socket in list(watched.sockets):
                socket.changed(version)
                told += 1
    return told


async def look_again() -> int:
    """After the subscriptions came back (``runtime.channel_layer.on_resubscribed``):
    every socket here sends its picture again, since an ``event.changed`` published
    while they were away never came. How many sockets were told."""
    told = 0
    for watched in list(_WATCHED.values()):
        for socket in list(watched.sockets):
            socket.changed(0)
            told += 1
    return told


def _stamps(event_ids: list[uuid.UUID]) -> list[tuple[uuid.UUID, int, int]]:
    results = (
        TableResult.objects.filter(event_id=OuterRef("id"))
        .values("event_id")
        .annotate(total=Sum("version"))
        .values("total")
    )
    return list(
        Event.objects.filter(id__in=event_ids)
        .annotate(results=Coalesce(Subquery(results), 0))
        .values_list("id", "version", "results")
    )
