"""Publishes to the channel layer that are delivered, not attempted (decision 3101).

The event log is the outbox: a stream's message only says that the stream grew to a
version, and a socket that sees a version it lacks reads the rest from the log. So
per group only the newest message needs sending, and a publish that fails or does
not answer in time is simply sent again. :func:`publish` keeps, on the loop that
serves this process's sockets, at most one message waiting per group (a newer one
replaces it) and one task per group sending them in turn; a send that fails is
retried after a pause that doubles from :data:`RETRY_FIRST` up to
:data:`RETRY_MOST`, until the layer answers: a Redis that is paused, killed or
restarted gets, within about a second of answering again, the newest version of every
stream written while it was away. Every failure is caught and logged (once an
outage, with its end): none is left unretrieved.

A process without such a loop (a Celery worker, a management command; see
:func:`runtime.lifespan.run_on_server_loop`) tries for :data:`IN_PLACE_SECONDS` at
most and gives up with a warning: a worker must not hang on a dead Redis. The
sockets' watchdogs (:func:`watch_over`: ``games.live.fanout``, ``tournaments.watchdog``) then
find the new version in the read models within ``ATU_WATCHDOG_SECONDS``.

Redis down when a server process shuts down, its senders hold the shutdown for the
while it waits for what runs in the background (``runtime.lifespan.SETTLE_SECONDS``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings

from runtime.lifespan import in_background, on_server_loop, run_on_server_loop

logger = logging.getLogger("atu.outbox")

# The pause after a failed send, doubled after each failure up to the most: the
# most bounds how long after the layer answers again the waiting messages go out.
RETRY_FIRST = 0.05
RETRY_MOST = 1.0
# How long one send may take before it counts as failed (redis-py's own socket
# timeout, 5 s in production, usually says so first).
SEND_SECONDS = 6.0
# How long a process with no server loop tries before giving up.
IN_PLACE_SECONDS = 3.0

Send = Callable[[str, dict[str, Any]], Awaitable[None]]
# What replaces a group's waiting message: ``merge(waiting, newer)``.
Merge = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


@dataclass(eq=False)
class Outbox:
    """One loop's waiting messages, sent by ``send(group, message)``."""

    send: Send
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)
    senders: dict[str, asyncio.Future[Any]] = field(default_factory=dict)
    # When the current outage began (loop time); None while sends go through.
    failing_since: float | None = None
    # Messages delivered since the process started; sends failed in this outage.
    delivered: int = 0
    failed: int = 0

    def put(self, group: str, message: dict[str, Any], merge: Merge | None = None) -> None:
        """Deliver ``message`` to ``group``, unless a newer one replaces it first
        (``merge(waiting, message)`` replaces a waiting one, if given)."""
        waiting = self.waiting.get(group)
        self.waiting[group] = (
            message if waiting is None or merge is None else merge(waiting, message)
        )
        if group not in self.senders:
            sender = asyncio.ensure_future(self._deliver(group))
            self.senders[group] = sender
            in_background(sender)

    async def _deliver(self, group: str) -> None:
        pause = RETRY_FIRST
        try:
            while (message := self.waiting.pop(group, None)) is not None:
                try:
                    # A timeout, not wait_for: no task of its own per publish.
                    async with asyncio.timeout(SEND_SECONDS):
                        await self.send(group, message)
                except Exception as error:
                    # Unless a newer one came meanwhile, this one is still the newest.
                    self.waiting.setdefault(group, message)
                    self._failed(error)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MOST)
                else:
                    self._delivered()
                    pause = RETRY_FIRST
        finally:
            del self.senders[group]

    def _failed(self, error: Exception) -> None:
        self.failed += 1
        if self.failing_since is None:
            self.failing_since = asyncio.get_running_loop().time()
            logger.warning(
                "channel layer publish failed (%s: %s); retrying until it answers",
                type(error).__name__,
                error,
            )

    def _delivered(self) -> None:
        self.delivered += 1
        if self.failing_since is not None:
            down = asyncio.get_running_loop().time() - self.failing_since
            logger.warning(
                "channel layer answers again after %.1f s and %d failed sends; "
                "%d groups still waiting",
                down,
                self.failed,
                len(self.waiting),
            )
            self.failing_since = None
            self.failed = 0


# The server loop's outbox (one loop serves a process's sockets).
_outbox: Outbox | None = None


async def _layer_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(group, message)


async def send_in_place(send: Send, group: str, message: dict[str, Any]) -> bool:
    """Send ``message`` with retries for :data:`IN_PLACE_SECONDS` at most; whether
    it went."""
    deadline = time.monotonic() + IN_PLACE_SECONDS
    pause = RETRY_FIRST
    while True:
        left = deadline - time.monotonic()
        try:
            async with asyncio.timeout(max(left, 0.01)):
                await send(group, message)
        except Exception as error:
            if time.monotonic() + pause >= deadline:
                logger.warning(
                    "channel layer publish to %s failed (%s: %s); given up, the sockets' "
                    "watchdog finds the new version",
                    group,
                    type(error).__name__,
                    error,
                )
                return False
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MOST)
        else:
            return True


def _server_outbox() -> Outbox:
    global _outbox
    if _outbox is None:
        _outbox = Outbox(_layer_send)
    return _outbox


def publish(group: str, message: dict[str, Any], merge: Merge | None = None) -> None:
    """Deliver ``message`` to the channel layer's ``group``: from the server loop,
    until the layer takes it or a newer message to the group replaces it (with
    ``merge``, what it makes of the two); elsewhere, for a few seconds at most (see
    the module docstring). Returns at once on the server loop; a thread of a server
    process hands it to that loop."""
    if get_channel_layer() is None:
        return
    if on_server_loop():
        # No task to hop through: the move's own turn of the loop queues it.
        _server_outbox().put(group, message, merge)
        return

    async def publish_here() -> None:
        if on_server_loop():
            _server_outbox().put(group, message, merge)
        else:
            await send_in_place(_layer_send, group, message)

    run_on_server_loop(publish_here)


async def watch_over(look_in: Callable[..., Awaitable[int]], what: str) -> None:
    """Every ``ATU_WATCHDOG_SECONDS`` (0: never), ``look_in(quiet_since=...)`` for the
    streams that heard no broadcast since the last look (time.monotonic()): a
    receiving side's watchdog (``games.live.fanout``, ``tournaments.watchdog``). ``what``
    names what it reads, for the log."""
    seconds = settings.ATU_WATCHDOG_SECONDS
    if not seconds:
        return
    while True:
        await asyncio.sleep(seconds)
        try:
            await look_in(quiet_since=time.monotonic() - seconds)
        except Exception:  # A database that does not answer: the next look may.
            logger.exception("the sockets' watchdog could not read %s", what)
