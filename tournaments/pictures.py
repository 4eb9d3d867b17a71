"""An event's picture, read once for every socket of a process that asks at the same
moment, and encoded once: the room's screen and a thousand phones on the event page
hear of a change together (decision 3303). What the event's tables hear of it (their
desk: the announcements and the calls to the director) is read so too (decision 3402).

A read in flight is shared only by whoever asked before it began; whoever asks while
it runs shares the next, begun once it ends, so that nobody is given a picture read
before the change they were told of.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
from channels.db import database_sync_to_async

from tournaments import selectors
from tournaments.models import Event

# The picture's message ends with its viewer's seat, null until a viewer's is added.
_NO_ONE = b'"me":null}}'


@dataclass(frozen=True)
class Picture:
    live: dict[str, Any]
    # {"type": "event", "version": N, "event": live}, as JSON.
    text: bytes

    @property
    def delay(self) -> int:
        delay: int = self.live["delay"]
        return delay

    @property
    def version(self) -> int:
        version: int = self.live["version"]
        return version

    def seen_by(self, viewer_id: int | None) -> str:
        """The message for the viewer ``viewer_id``: the picture, with where they sit."""
        if viewer_id is None:
            return self.text.decode()
        me = selectors.seen_by(self.live, viewer_id)["me"]
        return (self.text[: -len(_NO_ONE)] + b'"me":' + orjson.dumps(me) + b"}}").decode()


# What is read: the picture as who directs the event sees it, as anyone else does, or
# what its tables hear of it.
DIRECTS, OTHERS, DESK = "directs", "others", "desk"


def _read(event_id: uuid.UUID, kind: str) -> Picture | dict[str, Any]:
    if kind == DESK:
        return selectors.desk_source(event_id)
    live = selectors.event_picture(Event.objects.get(pk=event_id), directs=kind == DIRECTS)
    text = orjson.dumps({"type": "event", "version": live["version"], "event": live})
    assert text.endswith(_NO_ONE), "the picture's last member is its viewer's seat"
    return Picture(live, text)


Key = tuple[uuid.UUID, str]
_reading: dict[Key, asyncio.Future[Any]] = {}
_next: dict[Key, asyncio.Future[Any]] = {}


async def picture(event_id: uuid.UUID, *, directs: bool) -> Picture:
    """The event's picture as who directs it (``directs``), or anyone else, sees it
    now: read after this call began."""
    shown: Picture = await _shared((event_id, DIRECTS if directs else OTHERS))
    return shown


async def desk(event_id: uuid.UUID) -> dict[str, Any]:
    """What the event's tables hear of it now (:func:`tournaments.selectors.desk_source`):
    read after this call began."""
    source: dict[str, Any] = await _shared((event_id, DESK))
    return source


async def _shared(key: Key) -> Any:
    queued = _next.get(key)
    if queued is not None:
        return await asyncio.shield(queued)
    current = _reading.get(key)
    if current is None:
        return await asyncio.shield(_start(key))
    following = asyncio.ensure_future(_after(current, key))
    _next[key] = following
    return await asyncio.shield(following)


def _start(key: Key) -> asyncio.Future[Any]:
    read = asyncio.ensure_future(database_sync_to_async(_read)(*key))
    _reading[key] = read
    read.add_done_callback(lambda done: _forget(_reading, key, done))
    return read


async def _after(current: asyncio.Future[Any], key: Key) -> Any:
    await asyncio.wait([current])
    _forget(_next, key, asyncio.current_task())
    return await _start(key)


def _forget(futures: dict[Key, Any], key: Key, future: object) -> None:
    if futures.get(key) is future:
        del futures[key]
