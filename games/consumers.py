"""A table's WebSocket: its state and events as the viewer may see them, and the
player's commands.

``/ws/games/<id or share code>/`` sends, on connecting, the game as a ``state``
message; a client that comes back asks for what it missed instead, with
``?after=N`` or a first message ``{"type": "resume", "version": N}``, and gets an
``events`` message. From then on every event arrives once, in order, in ``events``
messages: the services publish only the new version of a game on its group, and
each socket reads what came after the last event it sent from the log (the channel
layer keeps nothing), as its own viewer. Every message carries the version of the
game it brings the client to (an ``error``, the version the socket has sent; an
``ack``, the version the command brought the game to, whose events follow), so a
client can spot a gap; ``{"type": "resync"}`` answers with a fresh ``state``.
A client that renders the game rather than folding events itself connects with
``?with_state=1``: each ``events`` message then also carries, under ``state``, the
whole view the events bring it to, so no rule is needed in the browser. With
``?with_state=changes`` (the table page) ``state`` holds only the members of the view
that changed since the version before (always ``version``; the viewer's own members
always): the client merges them into the view it holds, and a message after a gap is
never merged (the client resyncs). Most members (the scoreboard, the deals, the
options) change only once a hand, so a move's messages are a fraction of the view.

A process's sockets on one game share one channel in the game's group, and each
broadcast it receives is handed to each of them in turn (:class:`_Followed`). A
broadcast carries its new records, and the sockets of one process that are at the
version they follow share the work of showing them (:class:`Step`): the records are
folded once, each viewer's message is built and encoded once (a seat's sockets and
all the spectators get the same), and the state's members that every viewer shares
are encoded once; what each viewer may see is still decided by
:mod:`games.visibility`, viewer by viewer.

Commands (``bid``, ``play``, ``zero_play``, ``one_card_mode``, and ``seat_bot`` to
let a bot play a seat or hand it back) run the one service
each and are answered with an ``ack`` or an ``error``; their events come through
the group like everyone else's. Bad input is answered with ``invalid_input`` (JSON
nested too deep, ``too_deep``); the socket stays open. A message over the size
budget or faster than the rate budget is answered with an error and the socket is
closed (1009 ``message_too_large``, 4429 ``too_many_messages``; see
:mod:`config.limits`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone
from rest_framework import serializers

from config import logging as log_context
from config.errors import DomainError
from config.limits import BudgetedJsonConsumer, Refusal
from eventlog import store
from games import services
from games.domain import Table, fold, fold_records, stream_of
from games.errors import GameNotFound
from games.rules import RuleError
from games.selectors import find_game, load_table, offer_table
from games.serializers import (
    MAX_VERSION,
    BidSerializer,
    OneCardModeSerializer,
    PlaySerializer,
    SeatBotSerializer,
    ZeroPlaySerializer,
)
from games.visibility import (
    Viewer,
    event_views,
    event_views_for,
    event_views_from,
    released,
    seen_table,
    shared_state_view,
    spectator_lag,
    state_view,
    viewer_of,
    viewer_state_view,
)

logger = logging.getLogger("atu.websocket")

# Sent before closing the socket of a game that does not exist.
CLOSE_NOT_FOUND = 4404
INVALID_INPUT = "invalid_input"

# Each command: how its message is parsed, and the service it runs.
COMMANDS: dict[str, tuple[type[serializers.Serializer], Callable[..., services.CommandResult]]] = {
    "bid": (BidSerializer, services.game_place_bid),
    "play": (PlaySerializer, services.game_play_card),
    "zero_play": (ZeroPlaySerializer, services.game_announce_zero_play),
    "one_card_mode": (OneCardModeSerializer, services.game_choose_one_card_mode),
    "seat_bot": (SeatBotSerializer, services.game_set_seat_bot),
}


class SocketError(Exception):
    """An error of the socket itself, answered like a service's."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidMessage(SocketError):
    code = INVALID_INPUT


class NotAuthenticated(SocketError):
    code = "not_authenticated"


class ServerError(SocketError):
    code = "server_error"


def _version(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VERSION:
        raise InvalidMessage(f"{name} is a version: a whole number from 0 to {MAX_VERSION}")
    return value


def _query(query_string: bytes) -> dict[str, list[str]]:
    return parse_qs(query_string.decode("latin-1"))


def _after(query: dict[str, list[str]]) -> int | None:
    values = query.get("after")
    if not values:
        return None
    try:
        after = int(values[-1])
    except ValueError:
        raise InvalidMessage("after is a version: a whole number") from None
    return _version(after, "after")


# One serializer per command, reused: building a DRF serializer (it deep-copies its
# fields) costs several times the validation itself. Validation keeps no state in
# the serializer and runs on the event loop, one message at a time.
_VALIDATORS: dict[str, serializers.Serializer] = {}


def _validated(kind: str, content: dict[str, Any]) -> dict[str, Any]:
    """``content`` as the command's serializer validates it (is_valid's checks)."""
    validator = _VALIDATORS.get(kind)
    if validator is None:
        validator = _VALIDATORS[kind] = COMMANDS[kind][0]()
    try:
        return dict(validator.run_validation(content))
    except serializers.ValidationError as error:
        raise InvalidMessage(_first_error(error.detail)) from None


def _json(value: Any) -> str:
    # orjson: it encodes a move's messages several times faster than the standard
    # library, faster even than telling which members of a view are unchanged and
    # reusing their JSON (bench/live.py, decision 1801).
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _members(view: dict[str, Any]) -> str:
    """The members of ``view`` as JSON, without the braces."""
    return _json(view)[1:-1]


def _same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON: of one type too (``0 == False``)."""
    return type(a) is type(b) and a == b


def _first_error(errors: Any) -> str:
    """The first problem a serializer found, prefixed with its field (``bid: ...``)."""
    for name, problems in errors.items():
        problem = problems[0] if isinstance(problems, list) and problems else problems
        return str(problem) if name == "non_field_errors" else f"{name}: {problem}"
    return "the input is not valid"


def _state_mode(query: dict[str, list[str]]) -> str:
    """What ``events`` messages carry of the state: "" nothing, "full" the whole
    view, "changes" the members changed since the version before."""
    value = query.get("with_state", ["0"])[-1]
    if value == "changes":
        return "changes"
    return "full" if value in ("1", "true") else ""


def _changed(view: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """The members of ``view`` that ``before`` lacks or holds otherwise."""
    missing = object()
    return {key: value for key, value in view.items() if not _same(before.get(key, missing), value)}


@dataclass
class Step:
    """What one broadcast brings a game to in this process, for all its sockets
    here: the records read once, the table they bring the game to folded once (and
    offered to the write path, see ``games.selectors``), the members of the state
    that every viewer shares encoded once, and each viewer's ``events`` message
    built once (every spectator, every socket of one player, get the same).

    ``before`` and ``table`` are never changed: sockets share them."""

    game_id: uuid.UUID
    before: Table
    records: list[store.Recorded]
    table: Table
    # Each viewer's events, as event_views_from shows them.
    views: dict[Viewer, list[dict[str, Any]]]
    # The members of the state that every viewer shares at ``before``, when the step
    # before this one built them (so that a message may carry only the changes).
    prior: dict[str, Any] | None = None
    # Each viewer's message, by viewer and what it carries of the state (_state_mode).
    messages: dict[tuple[Viewer, str], str] = field(default_factory=dict)
    # The members of the state that every viewer shares: as they are, as JSON (no
    # braces), and those that changed since ``prior``, as JSON.
    shared_view: dict[str, Any] | None = None
    shared: str | None = None
    changes: str | None = None

    @classmethod
    def fold(
        cls,
        game_id: uuid.UUID,
        before: Table,
        rows: list[Any],
        viewers: list[Viewer],
        prior: dict[str, Any] | None,
    ) -> Step:
        """Fold the broadcast ``rows`` once, showing them to each of ``viewers`` on
        the way (others are shown them on demand, folding them again)."""
        records = [store.record_from_message(stream_of(game_id), row) for row in rows]
        table = before.clone()
        shown = event_views_for(table, records, viewers)
        offer_table(game_id, table, records[-1])
        views = dict(zip(viewers, shown, strict=True))
        return cls(game_id, before, records, table, views, prior)

    def message(self, viewer: Viewer, with_state: str) -> str:
        """The ``events`` message ``viewer`` gets (as Watch._events builds it, or
        with only the state's changes), JSON."""
        key = (viewer, with_state)
        text = self.messages.get(key)
        if text is None:
            views = self.views.get(viewer)
            if views is None:
                views = self.views[viewer] = event_views_from(
                    self.before.clone(), self.records, viewer
                )
            events = _members({"events": views})
            text = f'{{"type":"events","version":{self.table.version},{events}'
            if with_state:
                mine = _members(viewer_state_view(self.table, viewer))
                text += f',"state":{{{self._shared(with_state)},{mine}}}'
            text = self.messages[key] = text + "}"
        return text

    def _shared(self, with_state: str) -> str:
        """The shared members a message carries, as JSON: all of them, or (when the
        step before built them) those that changed since."""
        if self.shared_view is None:
            self.shared_view = shared_state_view(self.game_id, self.table)
        if with_state == "changes" and self.prior is not None:
            if self.changes is None:
                # Never empty: the version changes.
                self.changes = _members(_changed(self.shared_view, self.prior))
            return self.changes
        if self.shared is None:
            self.shared = _members(self.shared_view)
        return self.shared


@dataclass(eq=False)
class _Followed:
    """A game this process's sockets follow: the sockets, the one channel on the layer
    they share, and its latest steps.

    The channel is in the game's group for as long as a socket here watches the game,
    and one task hands each broadcast it receives to each socket: a broadcast reaches
    this process once whatever its number of sockets, and is decoded once, without
    Channels' dispatch (a wait on two tasks and a new task) per socket and message.
    Two steps are kept: a socket a broadcast behind the others still finds its own."""

    sockets: set[GameConsumer] = field(default_factory=set)
    # Done once the channel is in the group; its result is the channel.
    subscribed: asyncio.Future[str] | None = None
    reader: asyncio.Task[None] | None = None
    steps: list[Step] = field(default_factory=list)


# The games this process's sockets follow.
_FOLLOWED: dict[uuid.UUID, _Followed] = {}
STEPS_PER_GAME = 2


async def _follow(game_id: uuid.UUID, socket: GameConsumer) -> None:
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
    layer = get_channel_layer()
    try:
        channel = await layer.new_channel()
        await layer.group_add(services.group_name(game_id), channel)
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
        for socket in followed.sockets:
            socket.deliver(message)


async def _unfollow(game_id: uuid.UUID, socket: GameConsumer) -> None:
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
    await get_channel_layer().group_discard(services.group_name(game_id), channel)


def _step(game_id: uuid.UUID, before: Table, rows: list[Any], viewer: Viewer) -> Step:
    """The step from ``before`` by the broadcast ``rows`` (what comes right after it)."""
    version = rows[-1][0]
    followed = _FOLLOWED[game_id]
    prior = None
    for step in followed.steps:
        if step.before.version == before.version and step.table.version == version:
            return step
        if step.table.version == before.version:
            prior = step.shared_view
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


@dataclass(eq=False)
class Watch:
    """What one socket has sent of one game: the table folded up to the last event
    it sent (its cursor), and who watches. Runs in a worker thread: it reads the log.

    The table may be shared with other sockets (see :class:`Step`): it is replaced,
    never changed in place."""

    game_id: uuid.UUID
    user_id: int | None
    table: Table
    # What each events message carries of the view it brings the client to: "" none,
    # "full" all of it, "changes" what changed (_state_mode).
    with_state: str = ""
    viewer: Viewer = field(init=False)
    # Seconds this watcher lags behind the play (a delayed table's spectator), and
    # when the next event held back from them becomes visible.
    lag: int = field(init=False)
    due: datetime | None = None

    def __post_init__(self) -> None:
        self.viewer = viewer_of(self.table, self.user_id)
        self.lag = spectator_lag(self.table, self.viewer)

    @classmethod
    def open(cls, reference: str, user_id: int | None, *, with_state: str = "") -> Watch:
        game_id = find_game(reference, viewer_id=user_id).id
        watch = cls(game_id, user_id, load_table(game_id), with_state)
        # A delayed spectator starts where the delay puts them, not at the end.
        watch.table, watch.due = seen_table(game_id, watch.table, watch.viewer, timezone.now())
        return watch

    def _released(self, records: Sequence[store.Recorded]) -> list[store.Recorded]:
        shown, self.due = released(records, self.lag, timezone.now())
        return shown

    def _refresh_viewer(self) -> None:
        # The viewer as the table now makes them: a duplicate table's spectator is
        # unscreened once the whole deal set is over.
        self.viewer = viewer_of(self.table, self.user_id)

    @property
    def stream(self) -> str:
        return stream_of(self.game_id)

    @property
    def version(self) -> int:
        return self.table.version

    def state(self) -> dict[str, Any]:
        return {
            "type": "state",
            "version": self.version,
            "state": state_view(self.game_id, self.table, self.viewer),
        }

    def _events(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        message = {"type": "events", "version": self.version, "events": events}
        if self.with_state:
            message["state"] = state_view(self.game_id, self.table, self.viewer)
        return message

    def _seat_new(self, records: Sequence[store.Recorded]) -> None:
        # Seats are taken only while the table is open: a user watching it may sit
        # down, and then sees the game as that player from the first deal on.
        if records and self.user_id is not None and self.table.status == "open":
            after = fold(self.table.clone(), [record.event for record in records])
            self.viewer = viewer_of(after, self.user_id)

    def catch_up(self) -> dict[str, Any] | None:
        """The events after the cursor, as an ``events`` message; None if there are none."""
        records = self._released(store.read(self.stream, after=self.version))
        if not records:
            return None
        self._seat_new(records)
        self.table = self.table.clone()
        views = event_views_from(self.table, records, self.viewer)
        self._refresh_viewer()
        return self._events(views)

    def follow(self, rows: list[Any]) -> str | None:
        """The records a broadcast carried, as this socket's ``events`` message (JSON
        text) from the step this process's sockets share, when they are exactly
        what comes next and nothing in them may change who this socket's viewer
        is; None otherwise (:meth:`catch_up_from`, or :meth:`catch_up`). It runs on
        the event loop."""
        if self.lag or self.table.deal_set or self.table.status == "open":
            return None
        if not rows or rows[0][0] != self.version + 1:
            return None
        step = _step(self.game_id, self.table, rows, self.viewer)
        self.table = step.table
        return step.message(self.viewer, self.with_state)

    def catch_up_from(self, rows: list[Any]) -> dict[str, Any] | None:
        """The records a broadcast carried, as an ``events`` message, when they are
        exactly what comes next and showing them needs no database (no delay, no deal
        set); None otherwise, and :meth:`catch_up` reads the log. It may run on the
        event loop."""
        if self.lag or self.table.deal_set:
            return None
        records = [store.record_from_message(self.stream, row) for row in rows]
        if not records or records[0].sequence != self.version + 1:
            return None
        self._seat_new(records)
        self.table = self.table.clone()
        return self._events(event_views_from(self.table, records, self.viewer))

    def resync(self) -> dict[str, Any]:
        """The whole state as the log has it now (a lost broadcast is caught up too)."""
        records = self._released(store.read(self.stream, after=self.version))
        self._seat_new(records)
        self.table = fold_records(self.table.clone(), records)
        self._refresh_viewer()
        return self.state()

    def resume(self, after: int) -> dict[str, Any]:
        """The events after ``after`` as one ``events`` message, up to the log's end;
        a fresh ``state`` if the client claims a version the log has not reached."""
        records = self._released(store.read(self.stream))
        # A stream is numbered from 1 without gaps: what the socket has not sent yet.
        new = records[self.version :]
        self._seat_new(new)
        self.table = fold_records(self.table.clone(), new)
        self._refresh_viewer()
        if after > self.version:
            return self.state()
        return self._events(event_views(records, self.viewer, after=after))


class GameConsumer(BudgetedJsonConsumer):
    """One socket on one game; see the module docstring for the protocol."""

    # No channel of its own: the game's broadcasts come through the one its
    # process's sockets share (see _Followed), handed over with deliver.
    channel_layer_alias = None
    watch: Watch | None = None
    wake: asyncio.TimerHandle | None = None
    # The broadcasts handed over and not yet sent on, and the task sending them on.
    inbox: deque[dict[str, Any]]
    pump: asyncio.Task[None] | None = None
    # Held while a broadcast or a client's message is handled: one at a time, as
    # Channels' dispatch would (a command's ack comes before its events).
    turn: asyncio.Lock

    async def connect(self) -> None:
        self.inbox = deque()
        self.turn = asyncio.Lock()
        await self.accept()
        user = self.scope["user"]
        user_id = user.pk if user.is_authenticated else None
        reference = self.scope["url_route"]["kwargs"]["ref"]
        # This socket's task, and the threads it hands work to, log with its game.
        log_context.game.set(reference)
        query = _query(self.scope.get("query_string", b""))
        with_state = _state_mode(query)
        async with self.turn:
            try:
                watch = await database_sync_to_async(Watch.open)(
                    reference, user_id, with_state=with_state
                )
            except GameNotFound as error:
                await self._error(error, None)
                await self.close(code=CLOSE_NOT_FOUND)
                return
            # Follow before reading anything: a broadcast handed over from here on
            # waits for the turn, and one for events already sent is ignored.
            self.watch = watch
            await _follow(watch.game_id, self)
            try:
                after = _after(query)
            except InvalidMessage as error:
                await self._error(error, None)
                after = None
            if after is None:
                await self.send_json(await database_sync_to_async(watch.resync)())
            else:
                await self.send_json(await database_sync_to_async(watch.resume)(after))
            self._wake_when_due()

    async def disconnect(self, code: int) -> None:
        if self.wake is not None:
            self.wake.cancel()
        if self.pump is not None:
            self.pump.cancel()
        if self.watch is not None:
            await _unfollow(self.watch.game_id, self)

    def deliver(self, message: dict[str, Any]) -> None:
        """Send on the broadcast ``message`` in its turn, after those before it."""
        self.inbox.append(message)
        if self.pump is None:
            self.pump = asyncio.ensure_future(self._send_on())

    async def _send_on(self) -> None:
        try:
            while self.inbox:
                async with self.turn:
                    await self.game_events(self.inbox.popleft())
        except Exception:  # As a command's: logged, and the socket carries on.
            logger.exception("websocket broadcast failed")
        finally:
            self.pump = None

    def _wake_when_due(self) -> None:
        """A delayed spectator is sent the events held back as each comes due."""
        if self.watch is None or self.watch.due is None or self.wake is not None:
            return
        seconds = max(0.0, (self.watch.due - timezone.now()).total_seconds())
        self.wake = asyncio.get_running_loop().call_later(seconds, self._catch_up_due)

    def _catch_up_due(self) -> None:
        self.wake = None
        self.deliver({"version": MAX_VERSION})

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return _json(content)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, a hop to
        # the database thread per message. Every read and write here goes through
        # database_sync_to_async, which does it itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def refuse(self, refusal: Refusal) -> None:
        await self._error(refusal, None)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        async with self.turn:
            await self._handle(content)

    async def _handle(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        command = kind if isinstance(kind, str) else None
        try:
            if self.watch is None:
                raise InvalidMessage("this socket watches no game")
            if not isinstance(content, dict):
                raise InvalidMessage('a message is a JSON object with a "type"')
            if kind == "resync":
                await self.send_json(await database_sync_to_async(self.watch.resync)())
                self._wake_when_due()
            elif kind == "resume":
                after = _version(content.get("version"), "version")
                await self.send_json(await database_sync_to_async(self.watch.resume)(after))
                self._wake_when_due()
            elif kind in COMMANDS:
                await self._command(kind, content)
            else:
                known = ", ".join(["resync", "resume", *COMMANDS])
                raise InvalidMessage(f"unknown message type {kind!r}; the types are {known}")
        except (DomainError, RuleError, SocketError) as error:
            await self._error(error, command)
        except Exception:  # A bug must not cost the player their socket.
            logger.exception("websocket message %r failed", command)
            await self._error(ServerError("something went wrong on our side"), command)

    async def _command(self, kind: str, content: dict[str, Any]) -> None:
        assert self.watch is not None
        user = self.scope["user"]
        if not user.is_authenticated:
            raise NotAuthenticated("sign in to play")
        service = COMMANDS[kind][1]
        validated = _validated(kind, content)
        result = await database_sync_to_async(service)(
            game_id=self.watch.game_id, actor=user, **validated
        )
        ack: dict[str, Any] = {"type": "ack", "version": result.version, "command": kind}
        if result.replayed:
            ack["replayed"] = True
        await self.send_json(ack)

    async def game_events(self, message: dict[str, Any]) -> None:
        """The group's news that the log grew to ``version`` (a broadcast handed
        over): send what this socket has not sent yet."""
        version = message.get("version")
        if self.watch is None or not isinstance(version, int) or version <= self.watch.version:
            return
        records = message.get("records")
        # The broadcast's own records when they are what comes next: no read of the
        # log, no hop to the database thread; the log answers for anything else.
        if isinstance(records, list):
            text = self.watch.follow(records)
            if text is not None:
                await self.send(text_data=text)
                return
            reply = self.watch.catch_up_from(records)
        else:
            reply = None
        if reply is None:
            reply = await database_sync_to_async(self.watch.catch_up)()
        if reply is not None:
            await self.send_json(reply)
        self._wake_when_due()

    async def _error(
        self, error: DomainError | RuleError | SocketError | Refusal, command: Any
    ) -> None:
        await self.send_json(
            {
                "type": "error",
                "code": error.code,
                "message": error.message,
                "command": command,
                # What this socket has sent so far (None: it watches no game).
                "version": None if self.watch is None else self.watch.version,
            }
        )
