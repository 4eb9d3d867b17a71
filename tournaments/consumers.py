"""An event's WebSocket: the live picture of a championship event.

``/ws/events/<code>/`` (session login, origin checked; a private event only for its
organizer and entrants) sends on connecting, and again whenever the event changes,

    {"type": "event", "version": <the event's version>, "digest": D, "event": {...}}

or, once it holds a picture, the patch from that one to the next (decision 3304):

    {"type": "event.patch", "version": N, "from": <the digest it patches>,
     "digest": D, "patch": {...}, "me": {...}}

where ``event`` is :func:`tournaments.selectors.event_live` as this viewer sees it:
status, round, the leaderboard, entries, the director's announcements, every round's
tables with their progress and, for a signed-in viewer, their seat (``me``). The
services and the standings task send ``{"type": "event.changed", "version": N}`` to
the event's group (:func:`tournaments.services.event_group`) when entries, rounds,
announcements or standings change;
a standings update keeps the event's version, so every ``event.changed`` is answered
with a fresh picture. A viewer held back by the event's spectator delay gets the
picture again when the delay has passed since a change, as that change comes into
their view. A client may send ``{"type": "refresh"}`` for the whole picture (a
patch that does not fit what it holds), and
``{"type": "ping"}``, answered with ``{"type": "pong", "version": N}`` (N the
version of the last picture sent): the event page pings when it heard nothing for a
while and reconnects when no pong comes. A lost ``event.changed`` (Redis down) is made
up within seconds by :mod:`tournaments.watchdog`, which sends the picture again when
the event's stamp moved (decision 3101).
A missing or hidden event is answered with an ``error`` and closed with 4404; a
message that is not JSON, with ``invalid_input``; one over the socket's budgets, with
an error and a close (:mod:`runtime.limits`). While the database is down (decision
3702) a socket opening is told ``database_unavailable`` and closed with 1013 (the page
connects again after a pause); an open one is told so, and stays: the next change, or
the watchdog, sends the picture again.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import orjson
from channels.db import database_sync_to_async
from django.utils import timezone

from coded import CodedError
from runtime.lifespan import in_background
from runtime.limits import INVALID_INPUT, BudgetedJsonConsumer, Refusal
from runtime.outage import DATABASE_DOWN
from runtime.sockets import CLOSE_TRY_AGAIN, database_down_message
from tournaments import pictures, selectors, services, watchdog
from tournaments.errors import EventNotFound
from tournaments.models import Event

logger = logging.getLogger("atu.websocket")

CLOSE_NOT_FOUND = 4404
REFRESH_ONLY = 'the messages are {"type": "refresh"} and {"type": "ping"}'


class _EventSocket(BudgetedJsonConsumer):
    """A socket that follows an event: joins its group and its watchdog, and sends what
    it shows again (:meth:`_changed`) on the group's news or the watchdog's."""

    event_id: uuid.UUID | None = None
    viewer_id: int | None = None

    async def _follow(self, event_id: uuid.UUID) -> None:
        # Join before reading: a change from here on is announced to this socket.
        group = services.event_group(event_id)
        self.groups.append(group)
        await self.channel_layer.group_add(group, self.channel_name)
        self.event_id = event_id
        watchdog.watch(event_id, self)

    async def refuse(self, refusal: Refusal) -> None:
        # Whatever is not JSON is answered with the one message this socket takes.
        await self._error(
            refusal.code, REFRESH_ONLY if refusal.code == INVALID_INPUT else refusal.message
        )

    async def disconnect(self, code: int) -> None:
        if self.event_id is not None:
            watchdog.unwatch(self.event_id, self)
        await super().disconnect(code)

    def changed(self, version: int) -> None:
        """The watchdog's news that the event changed with no broadcast heard."""
        in_background(self._changed_unheard())

    async def _changed_unheard(self) -> None:
        try:
            await self._changed()
        except Exception:  # The socket closed meanwhile: no one left to tell.
            logger.warning("event %s: the watchdog's news was not sent", self.event_id)

    async def event_changed(self, message: dict[str, Any]) -> None:
        """The group's news that the event changed (``directors``: who directs it too)."""
        if self.event_id is None:
            return
        watchdog.heard(self.event_id)
        await self._changed(directors=bool(message.get("directors")))

    async def _changed(self, *, directors: bool = True) -> None:
        """Send what changed; ``directors``: who directs the event may have changed
        (the watchdog's news, which does not say, assumes it may)."""
        raise NotImplementedError

    async def _error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def connect(self) -> None:
        await self.accept()
        user = self.scope["user"]
        self.viewer_id = user.pk if user is not None and user.is_authenticated else None
        try:
            await self._open()
        except DATABASE_DOWN:
            logger.exception("event socket: database unavailable")
            await self.send(text_data=database_down_message())
            await self.close(code=CLOSE_TRY_AGAIN)

    async def _open(self) -> None:
        """Follow the event the URL names, and send what this socket shows of it."""
        raise NotImplementedError

    async def _send_failed(self, error: Exception, what: str) -> None:
        """What this socket shows could not be read: the viewer is told, and keeps the
        socket (a bug must not cost them it); the next change sends it again."""
        if isinstance(error, DATABASE_DOWN):
            logger.exception("event %s: %s: database unavailable", self.event_id, what)
            await self.send(text_data=database_down_message())
        else:
            logger.exception("event %s: %s could not be read", self.event_id, what)
            await self._error("server_error", "something went wrong on our side")


class EventConsumer(_EventSocket):
    # Whether the viewer directs the event: sees it live, and whose turn it is.
    directs: bool = False
    event: Event | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The pictures due when a change comes out from behind the spectator delay.
        self._due: set[asyncio.Task[int]] = set()
        # One picture read and sent at a time: a broadcast's and the watchdog's go out
        # in the order they were read.
        self._sending = asyncio.Lock()
        # The version of the last picture sent, and its digest: the base of a patch.
        self.version = 0
        self.digest: str | None = None

    async def _open(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            event = await database_sync_to_async(selectors.viewable_event)(code, self.viewer_id)
        except EventNotFound as error:
            await self._error(error.code, error.message)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self._follow(event.id)
        self.event = event
        # Asked again when a deputy is named or removed (decision 3407).
        self.directs = await database_sync_to_async(selectors.directs_event)(event, self.viewer_id)
        await self._send_event()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong", "version": self.version})
        elif kind != "refresh":
            await self._error(INVALID_INPUT, REFRESH_ONLY)
        elif self.event_id is not None:
            # The page asks when a patch does not fit what it holds: the whole picture.
            self.digest = None
            await self._send_event()

    async def disconnect(self, code: int) -> None:
        for due in self._due:
            due.cancel()
        await super().disconnect(code)

    async def _changed(self, *, directors: bool = True) -> None:
        """Send the picture again, and once more when the change has come out from
        behind this viewer's delay; first, if who directs the event may have changed,
        whether this viewer does: a deputy named sees the event as its directors do,
        one removed as everyone else, without connecting again."""
        if directors and self.event is not None and self.viewer_id is not None:
            self.directs = await database_sync_to_async(selectors.directs_event)(
                self.event, self.viewer_id
            )
        delay = await self._send_event()
        if delay:
            due = asyncio.ensure_future(self._send_event(after=delay))
            self._due.add(due)
            due.add_done_callback(self._due.discard)

    async def _send_event(self, *, after: float = 0) -> int:
        """Send this viewer's picture of the event (``after`` seconds from now); the
        seconds it is held back."""
        assert self.event_id is not None
        await asyncio.sleep(after)
        async with self._sending:
            try:
                shown = await pictures.picture(self.event_id, directs=self.directs)
                text = shown.seen_by(self.viewer_id, holding=self.digest)
            except Exception as error:
                await self._send_failed(error, "the picture")
                return 0
            self.version = shown.version
            self.digest = shown.digest
            await self.send(text_data=text)
        return shown.delay


class TableDeskConsumer(_EventSocket):
    """What a table of an event hears of it: ``/ws/events/<code>/tables/<game code>/``
    sends on connecting, and again whenever that changes,

        {"type": "desk", "announcements": [...], "may_call": bool, "call": {...} | null,
         "ends_at": "<ISO>" | null, "time_called": bool, "now": "<the server's time, ISO>"}

    (:func:`tournaments.selectors.desk_seen_by`): the event's announcements, newest
    first, and, for a player seated there, their last call to the director and its
    state; and the round's deadline while the table's round is in play, and whether
    time was called (``ends_at``, ``time_called``: a round extended or time called by
    the director, decision 3407). Nothing else of the event reaches the table, and a
    change elsewhere (a hand scored at another table) sends nothing: only a message
    that differs from the last one sent goes out. It follows the event's group and its watchdog, as
    :class:`EventConsumer` does, and answers ``{"type": "ping"}`` with a ``pong``. An
    event, or a table of it, the viewer may not see is closed with 4404
    (decision 3402)."""

    game_id: uuid.UUID | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sending = asyncio.Lock()
        self._players: list[int] = []
        self._last = ""

    async def _open(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        try:
            event, self.game_id, self._players = await database_sync_to_async(_desk_of)(
                kwargs["code"], kwargs["game_code"], self.viewer_id
            )
        except CodedError as error:
            await self._error(error.code, error.message)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self._follow(event.id)
        await self._send_desk()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind != "refresh":
            await self._error(INVALID_INPUT, REFRESH_ONLY)
        elif self.event_id is not None:
            self._last = ""
            await self._send_desk()

    async def _changed(self, *, directors: bool = True) -> None:
        await self._send_desk()

    async def _send_desk(self) -> None:
        assert self.event_id is not None and self.game_id is not None
        async with self._sending:
            try:
                source = await pictures.desk(self.event_id)
            except Exception as error:
                await self._send_failed(error, "the desk")
                return
            seen = selectors.desk_seen_by(source, self.game_id, self._players, self.viewer_id)
            text = orjson.dumps(seen).decode()
            if text != self._last:
                self._last = text
                # The server's time, so the page counts a call's wait on its clock.
                now = timezone.now().isoformat()
                await self.send(text_data=orjson.dumps({**seen, "now": now}).decode())


def _desk_of(code: str, game_code: str, viewer_id: int | None) -> tuple[Any, uuid.UUID, list[int]]:
    event = selectors.viewable_event(code, viewer_id)
    game_id, players = selectors.table_players(event, game_code)
    return event, game_id, players
