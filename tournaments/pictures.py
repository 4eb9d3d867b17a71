"""An event's picture, read once for every socket of a process that asks at the same
moment, and encoded once: the room's screen and a thousand phones on the event page
hear of a change together (decision 3303). What the event's tables hear of it (their
desk: the announcements and the calls to the director) is read so too (decision 3402).

A read in flight is shared only by whoever asked before it began; whoever asks while
it runs shares the next, begun once it ends, so that nobody is given a picture read
before the change they were told of.

Each picture is also encoded as patches from the few this process read before it
(:mod:`tournaments.patches`, decision 3304): a socket that holds one of those is sent
its patch, a few kilobytes, rather than the whole picture, a hundred or more.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson
from channels.db import database_sync_to_async

from tournaments import patches, selectors
from tournaments.models import Event

# Both messages end with their viewer's seat, null until a viewer's is added.
_WHOLE_END = b'"me":null}}'
_PATCH_END = b'"me":null}'
_NO_ONE = b'"me":null'


@dataclass(frozen=True)
class Picture:
    live: dict[str, Any]
    # {"type": "event", "version": N, "digest": D, "event": live}, as JSON.
    text: bytes
    digest: str
    # The patches to this picture from the last few this process read before it, by
    # their digests, each as {"type": "event.patch", "version": N, "from": that digest,
    # "digest": D, "patch": ..., "me": null}: a socket that missed one (it asked while
    # that one was being read) still holds one of them.
    patches_from: dict[str, bytes] = field(default_factory=dict)

    @property
    def delay(self) -> int:
        delay: int = self.live["delay"]
        return delay

    @property
    def version(self) -> int:
        version: int = self.live["version"]
        return version

    def seen_by(self, viewer_id: int | None, *, holding: str | None = None) -> str:
        """The message for the viewer ``viewer_id``, who holds the picture whose digest
        is ``holding`` (None: none): a patch from it when there is one, else the whole
        picture; either with where they sit."""
        if holding == self.digest:
            text, end = self._patch({}, holding), _PATCH_END
        elif holding is not None and holding in self.patches_from:
            text, end = self.patches_from[holding], _PATCH_END
        else:
            text, end = self.text, _WHOLE_END
        if viewer_id is None:
            return text.decode()
        me = orjson.dumps(selectors.seen_by(self.live, viewer_id)["me"])
        return (text[: -len(end)] + b'"me":' + me + end[len(_NO_ONE) :]).decode()

    def _patch(self, patch: patches.Patch, since: str) -> bytes:
        return orjson.dumps(
            {
                "type": "event.patch",
                "version": self.version,
                "from": since,
                "digest": self.digest,
                "patch": patch,
                "me": None,
            }
        )


# What is read: the picture as who directs the event sees it, as anyone else does, or
# what its tables hear of it.
DIRECTS, OTHERS, DESK = "directs", "others", "desk"


def _read(event_id: uuid.UUID, kind: str) -> Picture | dict[str, Any]:
    if kind == DESK:
        return selectors.desk_source(event_id)
    live = selectors.event_picture(Event.objects.get(pk=event_id), directs=kind == DIRECTS)
    body = orjson.dumps(live)
    assert body.endswith(_NO_ONE + b"}"), "the picture's last member is its viewer's seat"
    digest = hashlib.blake2b(body, digest_size=9).hexdigest()
    text = b'{"type":"event","version":%d,"digest":"%s","event":%s}' % (
        live["version"],
        digest.encode(),
        body,
    )
    key = (event_id, kind)
    earlier = _earlier.pop(key, ())
    picture = Picture(live, text, digest)
    for before in earlier:
        patch = patches.changes(before.live, live)
        if patch is not None and before.digest != digest:
            picture.patches_from[before.digest] = picture._patch(patch, before.digest)
    _earlier[key] = (picture, *earlier)[:_BASES]
    while len(_earlier) > _REMEMBERED:
        del _earlier[next(iter(_earlier))]
    return picture


Key = tuple[uuid.UUID, str]
_reading: dict[Key, asyncio.Future[Any]] = {}
_next: dict[Key, asyncio.Future[Any]] = {}
# The last pictures read of each of the events most recently read, newest first: the
# bases of the next one's patches.
_earlier: dict[Key, tuple[Picture, ...]] = {}
_BASES = 3
_REMEMBERED = 256


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
