"""An event's picture, read once for every socket of a process that asks at the same
moment, and encoded once: the room's screen and a thousand phones on the event page
hear of a change together (decision 3303).

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


def _read(event_id: uuid.UUID, directs: bool) -> Picture:
    live = selectors.event_picture(Event.objects.get(pk=event_id), directs=directs)
    text = orjson.dumps({"type": "event", "version": live["version"], "event": live})
    assert text.endswith(_NO_ONE), "the picture's last member is its viewer's seat"
    return Picture(live, text)


Key = tuple[uuid.UUID, bool]
_reading: dict[Key, asyncio.Future[Picture]] = {}
_next: dict[Key, asyncio.Future[Picture]] = {}


async def picture(event_id: uuid.UUID, *, directs: bool) -> Picture:
    """The event's picture as who directs it (``directs``), or anyone else, sees it
    now: read after this call began."""
    key = (event_id, directs)
    queued = _next.get(key)
    if queued is not None:
        return await asyncio.shield(queued)
    current = _reading.get(key)
    if current is None:
        return await asyncio.shield(_start(key))
    following = asyncio.ensure_future(_after(current, key))
    _next[key] = following
    return await asyncio.shield(following)


def _start(key: Key) -> asyncio.Future[Picture]:
    read = asyncio.ensure_future(database_sync_to_async(_read)(*key))
    _reading[key] = read
    read.add_done_callback(lambda done: _forget(_reading, key, done))
    return read


async def _after(current: asyncio.Future[Picture], key: Key) -> Picture:
    await asyncio.wait([current])
    _forget(_next, key, asyncio.current_task())
    return await _start(key)


def _forget(futures: dict[Key, Any], key: Key, future: object) -> None:
    if futures.get(key) is future:
        del futures[key]
