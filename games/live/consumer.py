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
client can spot a gap; ``{"type": "resync"}`` answers with a fresh ``state``, and
``{"type": "ping"}`` with ``{"type": "pong", "version": N}``, N the version the
socket has sent: a client that heard nothing for a while pings, and one that hears
no pong either reconnects (the table page does both). A socket never depends on one
broadcast: the game's group is published to until Redis takes it
(:mod:`runtime.outbox`), and every few seconds the process reads the versions of the
games whose sockets heard nothing and brings those behind up to date from the log
(:func:`games.live.fanout.watch_over`; decision 3101).
A client that renders the game rather than folding events itself connects with
``?with_state=1``: each ``events`` message then also carries, under ``state``, the
whole view the events bring it to, so no rule is needed in the browser. With
``?with_state=changes`` (the table page) ``state`` holds only the members of the view
that changed since the version before (always ``version``; the viewer's own members
always): the client merges them into the view it holds, and a message after a gap is
never merged (the client resyncs). Most members (the scoreboard, the deals, the
options) change only once a hand, so a move's messages are a fraction of the view.

A process's sockets on one game share one channel in the game's group, and each
broadcast it receives is handed to each of them in turn (:mod:`games.live.fanout`); what
a socket has sent, and the messages that bring it up to date, are its
:class:`games.live.cursor.Watch`'s.

Commands (``bid``, ``play``, ``zero_play``, ``one_card_mode``, and ``seat_bot`` to
let a bot play a seat or hand it back) run the one service
each and are answered with an ``ack`` or an ``error``; their events come through
the group like everyone else's. A bid or a card is written from the event loop
itself where it can be, the others in a worker thread
(:func:`games.write.path.execute_on_loop`).

Words at the table (decision 3506): a player says ``{"type": "chat", "phrase":
"good_luck"}`` (or ``"text": "..."`` at a casual table) and any signed-in reader reports
one with ``{"type": "chat_report", "message": N}``, each answered with an ``ack`` (the
version the socket has sent: no word changes the game) or an ``error``; every socket on
the table is sent ``{"type": "chat", "version": N, "words": [...]}`` as words are said,
to a delayed spectator as late as the play (:mod:`games.visibility`).

Bad input is answered with
``invalid_input`` (JSON nested too deep, ``too_deep``); the socket stays open. A
message over the size budget or faster than the rate budget is answered with an
error and the socket is closed (1009 ``message_too_large``, 4429 ``too_many_messages``); one
socket more than its client's cap is answered ``too_many_sockets`` and closed with 4430 (see
:mod:`runtime.limits`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from datetime import datetime
from typing import Any, cast
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework import serializers

from accounts.models import User
from coded import CodedError
from games.commands.catalog import COMMANDS
from games.commands.chat import CHAT_BROADCAST, game_report_message, game_say
from games.commands.inputs import MAX_VERSION, ReportSerializer, SaySerializer
from games.errors import GameNotFound, InvalidMessage, NotAuthenticated, ServerError
from games.live import fanout
from games.live.cursor import Watch, json_text
from games.visibility import word_due
from games.write.path import execute_on_loop
from runtime import eager
from runtime import logging as log_context
from runtime.errors import DatabaseUnavailable
from runtime.limits import BudgetedJsonConsumer, Refusal
from runtime.outage import DATABASE_DOWN
from runtime.sockets import CLOSE_TRY_AGAIN

logger = logging.getLogger("atu.websocket")

# Sent before closing the socket of a game that does not exist.
CLOSE_NOT_FOUND = 4404

# The messages that are no command: a fresh state, what came after a version, and a
# check that the link is alive.
CONTROLS = ("resync", "resume", "ping")
# Words at the table, and their report: no command of the game (games.commands.chat).
SAY, REPORT = "chat", "chat_report"
WORDS = (SAY, REPORT)


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


# What the messages that are no command of the game take.
_INPUTS: dict[str, type[serializers.Serializer]] = {SAY: SaySerializer, REPORT: ReportSerializer}


def _validated(kind: str, content: dict[str, Any]) -> dict[str, Any]:
    """``content`` as the command's serializer validates it (is_valid's checks)."""
    validator = _VALIDATORS.get(kind)
    if validator is None:
        inputs = _INPUTS[kind] if kind in _INPUTS else COMMANDS[kind].inputs
        validator = _VALIDATORS[kind] = inputs()
    try:
        return dict(validator.run_validation(content))
    except serializers.ValidationError as error:
        raise InvalidMessage(_first_error(error.detail)) from None


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


class GameConsumer(BudgetedJsonConsumer):
    """One socket on one game; see the module docstring for the protocol."""

    # No channel of its own: the game's broadcasts come through the one its
    # process's sockets share (see games.live.fanout), handed over with deliver.
    channel_layer_alias = None  # type: ignore[assignment]  # Channels reads None as no layer
    watch: Watch | None = None
    wake: asyncio.TimerHandle | None = None
    # The broadcasts handed over and not yet sent on, and the task sending them on.
    inbox: deque[dict[str, Any]]
    pump: asyncio.Task[None] | None = None
    # Held while a broadcast or a client's message is handled: one at a time, as
    # Channels' dispatch would (a command's ack comes before its events).
    turn: asyncio.Lock
    # Words said that a delayed spectator may not read yet, each sent when due.
    held_words: set[asyncio.TimerHandle] | None = None

    async def connect(self) -> None:
        self.inbox = deque()
        self.turn = asyncio.Lock()
        await self.accept()
        user = self.scope["user"]
        user_id = user.pk if user is not None and user.is_authenticated else None
        reference = self.scope["url_route"]["kwargs"]["ref"]
        # This socket's task, and the threads it hands work to, log with its game.
        log_context.game.set(reference)
        query = _query(self.scope.get("query_string", b""))
        async with self.turn:
            try:
                await self._open(reference, user_id, query)
            except GameNotFound as error:
                await self._error(error, None)
                await self.close(code=CLOSE_NOT_FOUND)
            except DATABASE_DOWN:
                # Said, then closed: the page connects again after a pause.
                logger.exception("websocket of game %s: database unavailable", reference)
                await self._error(DatabaseUnavailable(), None)
                await self.close(code=CLOSE_TRY_AGAIN)

    async def _open(self, reference: str, user_id: int | None, query: dict[str, list[str]]) -> None:
        """Follow the game, and send the state (or what came after ``?after=``)."""
        watch = await database_sync_to_async(Watch.open)(
            reference, user_id, with_state=_state_mode(query), session=self.scope.get("session")
        )
        # Follow before reading anything: a broadcast handed over from here on
        # waits for the turn, and one for events already sent is ignored.
        self.watch = watch
        await fanout.follow(watch.game_id, self)
        try:
            after = _after(query)
        except InvalidMessage as error:
            await self._error(error, None)
            after = None
        if after is None:
            await self.send(text_data=await database_sync_to_async(watch.resync)())
        else:
            await self.send(text_data=await database_sync_to_async(watch.resume)(after))
        self._wake_when_due()

    async def disconnect(self, code: int) -> None:
        if self.wake is not None:
            self.wake.cancel()
        if self.pump is not None:
            self.pump.cancel()
        for held in self.held_words or ():
            held.cancel()
        if self.watch is not None:
            await fanout.unfollow(self.watch.game_id, self)

    def deliver(self, message: dict[str, Any]) -> None:
        """Send on the broadcast ``message`` in its turn, after those before it: at
        once, unless the socket is busy or its transport full (then in a task)."""
        self.inbox.append(message)
        if self.pump is None:
            self.pump = eager.start(self._send_on())

    async def _send_on(self) -> None:
        try:
            while self.inbox:
                async with self.turn:
                    message = self.inbox.popleft()
                    if message.get("type") == CHAT_BROADCAST:
                        await self.game_chat(message)
                    else:
                        await self.game_events(message)
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
        return json_text(content)

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
                await self.send(text_data=await database_sync_to_async(self.watch.resync)())
                self._wake_when_due()
            elif kind == "resume":
                after = _version(content.get("version"), "version")
                await self.send(text_data=await database_sync_to_async(self.watch.resume)(after))
                self._wake_when_due()
            elif kind == "ping":
                await self.send_json({"type": "pong", "version": self.watch.version})
            elif kind in COMMANDS:
                await self._command(kind, content)
            elif kind in WORDS:
                await self._words(kind, content)
            else:
                known = ", ".join([*CONTROLS, *COMMANDS, *WORDS])
                raise InvalidMessage(f"unknown message type {kind!r}; the types are {known}")
        except CodedError as error:
            await self._error(error, command)
        except DATABASE_DOWN:
            # As the API answers 503: nothing was written, the client may send it again.
            logger.exception("websocket message %r: database unavailable", command)
            await self._error(DatabaseUnavailable(), command)
        except Exception:  # A bug must not cost the player their socket.
            logger.exception("websocket message %r failed", command)
            await self._error(ServerError("something went wrong on our side"), command)

    async def _command(self, kind: str, content: dict[str, Any]) -> None:
        assert self.watch is not None
        user = self.scope["user"]
        if user is None or not user.is_authenticated:
            raise NotAuthenticated("sign in to play")
        validated = _validated(kind, content)
        command = COMMANDS[kind]
        if command.move is not None:
            result = await execute_on_loop(
                command.move(game_id=self.watch.game_id, actor=user, **validated)
            )
        else:
            result = await database_sync_to_async(command.run)(
                game_id=self.watch.game_id, actor=user, **validated
            )
        ack: dict[str, Any] = {"type": "ack", "version": result.version, "command": kind}
        if result.replayed:
            ack["replayed"] = True
        await self.send_json(ack)

    async def _words(self, kind: str, content: dict[str, Any]) -> None:
        """A word said, or reported: answered with the version this socket has sent
        (the game does not change); the word comes to every socket on the table,
        this one too, as a ``chat`` message."""
        assert self.watch is not None
        user = self.scope["user"]
        if user is None or not user.is_authenticated:
            raise NotAuthenticated("sign in to talk at a table")
        # Signed in: the account itself, behind Channels' lazy object.
        account = cast(User, user)
        validated = _validated(kind, content)
        game_id = self.watch.game_id
        if kind == SAY:
            said = await database_sync_to_async(game_say)(
                game_id=game_id, actor=account, **validated
            )
            number = said.id
        else:
            report = await database_sync_to_async(game_report_message)(
                game_id=game_id, reporter=account, **validated
            )
            number = report.message_id
        await self.send_json(
            {"type": "ack", "version": self.watch.version, "command": kind, "message": number}
        )

    async def game_chat(self, message: dict[str, Any]) -> None:
        """Words said at the table (a broadcast handed over): sent on at once, or to a
        delayed spectator each when the delay lets them read it."""
        words = message.get("words")
        if self.watch is None or not isinstance(words, list):
            return
        now, lag = timezone.now(), self.watch.lag
        loop = asyncio.get_running_loop()
        if self.held_words is None:
            self.held_words = set()
        readable = []
        for word in words:
            due = word_due(datetime.fromisoformat(word["at"]), lag)
            if due is None or due <= now:
                readable.append(word)
                continue
            held = {"type": CHAT_BROADCAST, "words": [word]}
            seconds = (due - now).total_seconds()
            self.held_words.add(loop.call_later(seconds, self._deliver_held, held))
        if readable:
            await self.send_json({"type": "chat", "version": self.watch.version, "words": readable})

    def _deliver_held(self, message: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        self.held_words = {held for held in self.held_words or () if held.when() > now}
        self.deliver(message)

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
            text = fanout.next_message(self.watch, records)
            if text is not None:
                await self.send(text_data=text)
                return
            reply = self.watch.catch_up_from(records)
        else:
            reply = None
        if reply is None:
            reply = await database_sync_to_async(self.watch.catch_up)()
        if reply is not None:
            await self.send(text_data=reply)
        self._wake_when_due()

    async def _error(self, error: CodedError, command: Any) -> None:
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
