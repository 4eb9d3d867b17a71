"""This process's fan-out of a game's broadcasts to its sockets.

A process's sockets on one game share one channel in the game's group (and in its
words' group, :mod:`games.commands.chat`), and each
broadcast it receives is handed to each of them in turn (:class:`_Followed`); the
sockets at the same version share the step it brings them to
(:class:`games.live.cursor.Step`).

The channel layer's broadcasts are not all a socket relies on: a broadcast lost to a
Redis that was down, or given up by a worker (:mod:`runtime.outbox`), is made up by
:func:`watch_over`. Every ``ATU_WATCHDOG_SECONDS`` it reads, in one query of the read
model, the versions of the games followed here that heard no broadcast meanwhile; a
newer version still not heard of at its next look (a broadcast lost, not late) is handed
to their sockets that lack it, which catch up from the log: the seat to act is told
within seconds even while Redis is down (decision 3101).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from games.commands.chat import chat_group_name
from games.live.cursor import Step, Watch
from games.models import Game
from games.table import Table
from games.visibility import Viewer
from games.write.path import group_name
from runtime import outbox

logger = logging.getLogger(__name__)


class Socket(Protocol):
    """A socket that follows a game here (:class:`games.live.consumer.GameConsumer`)."""

    watch: Watch | None

    def deliver(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class _Followed:
    """A game this process's sockets follow: the sockets, the one channel on the layer
    they share, and its latest steps.

    The channel is in the game's group for as long as a socket here watches the game,
    and one task hands each broadcast it receives to each socket: a broadcast reaches
    this process once whatever its number of sockets, and is decoded once, without
    Channels' dispatch (a wait on two tasks and a new task) per socket and message.
    Two steps are kept: a socket a broadcast behind the others still finds its own."""

    sockets: set[Socket] = field(default_factory=set)
    # Done once the channel is in the group; its result is the channel.
    subscribed: asyncio.Future[str] | None = None
    reader: asyncio.Task[None] | None = None
    steps: list[Step] = field(default_factory=list)
    # The newest version heard of (a broadcast, or the watchdog's read), and when the
    # last broadcast came (time.monotonic()).
    heard: int = 0
    heard_at: float = field(default_factory=time.monotonic)
    # The version the watchdog's last look found in the read model and not heard of
    # here (0: none).
    missing: int = 0


# The games this process's sockets follow.
_FOLLOWED: dict[uuid.UUID, _Followed] = {}
STEPS_PER_GAME = 2


async def follow(game_id: uuid.UUID, socket: Socket) -> None:
    """Hand ``socket`` every broadcast of the game from now on (once this returns)."""
    followed = _FOLLOWED.get(game_id)
    if followed is None:
        followed = _FOLLOWED[game_id] = _Followed()
        followed.subscribed = asyncio.ensure_future(_subscribe(game_id, followed))
    # Added at once: the socket's disconnect takes it out (and, if last, the channel).
    followed.sockets.add(socket)
    assert followed.subscribed is not None
    # Shielded: the subscription serves every socket that waits for it.
    await asyncio.shield(followed.subscribed)


async def _subscribe(game_id: uuid.UUID, followed: _Followed) -> str:
    layer = _layer()
    try:
        channel = await layer.new_channel()
        await layer.group_add(group_name(game_id), channel)
        # The words said at the table come on the same channel (games.commands.chat).
        await layer.group_add(chat_group_name(game_id), channel)
    except BaseException:
        # The next socket tries again.
        if _FOLLOWED.get(game_id) is followed:
            del _FOLLOWED[game_id]
        raise
    followed.reader = asyncio.ensure_future(_hand_on(layer, channel, followed))
    return channel


async def _hand_on(layer: Any, channel: str, followed: _Followed) -> None:
    while True:
        message = await layer.receive(channel)
        version = message.get("version")
        if isinstance(version, int):
            # A version heard (words said tell the watchdog nothing of the game).
            followed.heard_at = time.monotonic()
            followed.heard = max(followed.heard, version)
        for socket in followed.sockets:
            socket.deliver(message)


async def unfollow(game_id: uuid.UUID, socket: Socket) -> None:
    """``socket`` is closed: the last one of a game here takes the channel out."""
    followed = _FOLLOWED.get(game_id)
    if followed is None or socket not in followed.sockets:
        return
    followed.sockets.discard(socket)
    if followed.sockets:
        return
    del _FOLLOWED[game_id]
    assert followed.subscribed is not None
    try:
        channel = await asyncio.shield(followed.subscribed)
    except Exception:
        return  # Never subscribed: nothing to take out.
    assert followed.reader is not None
    followed.reader.cancel()
    await _layer().group_discard(group_name(game_id), channel)
    await _layer().group_discard(chat_group_name(game_id), channel)


async def watch_over() -> None:
    """Every ``ATU_WATCHDOG_SECONDS`` (0: never), tell the sockets of the games that
    heard nothing meanwhile what their read model says (:func:`look_in`)."""
    await outbox.watch_over(look_in, "the games' versions")


async def look_in(*, quiet_since: float, at_once: bool = False) -> int:
    """Read the versions of the games followed here that heard no broadcast since
    ``quiet_since`` (time.monotonic()), in one query; hand the newest one to the game's
    sockets that lack it if the version missing at the look before is still not heard
    of (``at_once``: whatever the look before found). How many sockets were handed one.

    A broadcast is only taken for lost at the second look: under a load that makes
    broadcasts seconds late, the first look finds most games behind, and their sockets
    reading the log each would make the broadcasts later still."""
    quiet = [game_id for game_id, followed in _FOLLOWED.items() if followed.heard_at <= quiet_since]
    if not quiet:
        return 0
    # Not thread-sensitive: a database that does not answer must not hold the thread
    # that serves every request's synchronous code.
    versions = await database_sync_to_async(_versions, thread_sensitive=False)(quiet)
    told = games = 0
    for game_id, version in versions:
        followed = _FOLLOWED.get(game_id)
        if followed is None or version <= followed.heard:
            continue
        if not at_once and followed.heard >= followed.missing:
            followed.missing = version
            continue
        followed.heard = version
        games += 1
        for socket in list(followed.sockets):
            if socket.watch is not None and socket.watch.version < version:
                socket.deliver({"version": version})
                told += 1
    if games:
        logger.warning("%d followed games heard no broadcast of their newest version", games)
    return told


async def look_again() -> int:
    """After the subscriptions came back (``runtime.channel_layer.on_resubscribed``):
    :func:`look_in` for every game followed here, whatever it heard, since what was
    published while they were away never came."""
    return await look_in(quiet_since=math.inf, at_once=True)


def _versions(game_ids: list[uuid.UUID]) -> list[tuple[uuid.UUID, int]]:
    return list(Game.objects.filter(id__in=game_ids).values_list("id", "version"))


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("the games' sockets need a channel layer (CHANNEL_LAYERS)")
    return layer


def next_message(watch: Watch, rows: list[Any]) -> str | None:
    """The ``events`` message a broadcast's ``rows`` make for the socket of ``watch``,
    from the step this process's sockets share, when they are what comes next for it
    (:meth:`Watch.follows`); None otherwise."""
    if not watch.follows(rows):
        return None
    return watch.take(_shared_step(watch.game_id, watch.table, rows, watch.viewer))


def _shared_step(game_id: uuid.UUID, before: Table, rows: list[Any], viewer: Viewer) -> Step:
    """The step from ``before`` by the broadcast ``rows`` (what comes right after it)."""
    version = rows[-1][0]
    followed = _FOLLOWED[game_id]
    prior = None
    for step in followed.steps:
        if step.before.version == before.version and step.table.version == version:
            return step
        if step.table.version == before.version and step.shared_view is not None:
            prior = (step.table, step.shared_view)
    # Every viewer here that will want it: the sockets at the same version.
    viewers = [viewer]
    for socket in followed.sockets:
        watch = socket.watch
        if (
            watch is not None
            and watch.version == before.version
            and not watch.lag
            and watch.viewer not in viewers
        ):
            viewers.append(watch.viewer)
    step = Step.fold(game_id, before, rows, viewers, prior)
    followed.steps.append(step)
    del followed.steps[:-STEPS_PER_GAME]
    return step
