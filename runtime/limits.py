"""Bounds on what one client may send, so that crafted input is answered, never crashes.

- Request bodies: at most ``ATU_MAX_REQUEST_BYTES`` (Django's
  ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a larger one is answered 413
  ``request_too_large`` (:mod:`runtime.api_errors`), for the API and for pages.
- JSON, over HTTP and WebSocket alike, is read by :func:`decode_json`: UTF-8 only,
  nested at most ``ATU_MAX_JSON_DEPTH`` deep (``too_deep``), each key at most once in
  an object (``duplicate_key``: Python's parser keeps the last, another reader the
  first, so ``{"bid": 0, "bid": 1}`` means two things). Python's parser recurses once
  per level, and a few thousand levels raise ``RecursionError``.
- Each socket (:class:`BudgetedJsonConsumer`) is one of at most
  ``ATU_SOCKETS_PER_SESSION`` of its session and ``ATU_SOCKETS_PER_ADDRESS`` of its
  address, takes text frames of at most ``ATU_SOCKET_MAX_BYTES`` and messages at
  ``ATU_SOCKET_RATE`` (a burst of N, then N per period, starting where its client's
  last socket left off: :mod:`runtime.throttling`). Beyond any it answers
  ``{"type": "error", "code": ...}`` and closes the socket:

  ====  ======================  ==========================================
  code  error code              why
  ====  ======================  ==========================================
  1009  ``message_too_large``   a frame over the size budget ("too big")
  4429  ``too_many_messages``   messages faster than the rate budget
  4430  ``too_many_sockets``    one socket more than its session's or
                                address's cap (answered once accepted)
  ====  ======================  ==========================================

The rate is counted on the socket's own token bucket, in memory: a message costs no
round trip. The store is read when a socket opens (its places and its client's
budget, one round trip), written when it closes, when it is refused for its rate
(before the close, so that a client coming back at once finds it), and each time its
bucket falls below half of where it last stood (a flood's progress is kept as it goes).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections import Counter
from itertools import accumulate
from typing import Any, ClassVar

from asgiref.typing import WebSocketConnectEvent, WebSocketDisconnectEvent, WebSocketReceiveEvent
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

from coded import CodedError, gettext_noop
from runtime.throttling import SOCKET_COUNTS, SocketClient, parse_rate

CLOSE_TOO_BIG = 1009
CLOSE_TOO_MANY = 4429
CLOSE_TOO_MANY_SOCKETS = 4430
MESSAGE_TOO_LARGE = "message_too_large"
TOO_MANY_MESSAGES = "too_many_messages"
TOO_MANY_SOCKETS = "too_many_sockets"
TOO_DEEP = "too_deep"
DUPLICATE_KEY = "duplicate_key"
INVALID_INPUT = "invalid_input"

# What the nesting scan drops before counting brackets: escapes (an escaped quote
# does not end a string), then whole strings (brackets in them do not nest).
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonTooDeep(ValueError):
    code = TOO_DEEP


class JsonDuplicateKey(ValueError):
    code = DUPLICATE_KEY


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, unless a key comes twice in it (its cost beside the parser's own
    dict: decision 0203)."""
    made = dict(pairs)
    if len(made) != len(pairs):
        twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise JsonDuplicateKey(f"the key {json.dumps(twice)} comes more than once in an object")
    return made


# JSON as the standard says: NaN and Infinity are not numbers in it; and as RFC 8259
# advises, no key twice in one object.
_DECODER = json.JSONDecoder(parse_constant=strict_constant, object_pairs_hook=_object)


def decode_json(data: str | bytes, *, max_depth: int | None = None) -> Any:
    """Strict JSON (no NaN, no key twice in an object) from UTF-8 text, nested at most
    ``max_depth`` deep (the setting by default). Raises ``ValueError``:
    :class:`JsonTooDeep`, :class:`JsonDuplicateKey`, a ``UnicodeDecodeError``, or the
    parser's error."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    limit = settings.ATU_MAX_JSON_DEPTH if max_depth is None else max_depth
    # No deeper than it has brackets: most messages need no closer look.
    if text.count("[") + text.count("{") > limit and _nesting(text) > limit:
        raise JsonTooDeep(f"JSON nested deeper than {limit} levels")
    return _DECODER.decode(text)


def _nesting(text: str) -> int:
    """How deep the parser would nest in ``text`` before its first error, or more."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class TooDeep(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = TOO_DEEP


class DuplicateKey(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = DUPLICATE_KEY


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser on :func:`decode_json`. DRF hands it ``request.body``, which
    Django has already held to ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return decode_json(stream.read())
        except JsonTooDeep as error:
            raise TooDeep(str(error)) from None
        except JsonDuplicateKey as error:
            raise DuplicateKey(str(error)) from None
        except UnicodeDecodeError:
            raise ParseError("JSON parse error - the body is not UTF-8") from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None


class Budget:
    """A token bucket: ``burst`` messages at once, refilled at ``burst`` per ``period``;
    ``refill_seconds`` from full at first."""

    def __init__(self, burst: int, period: float, *, refill_seconds: float = 0.0) -> None:
        self.burst = burst
        self.per_second = burst / period
        self.tokens = max(0.0, burst - refill_seconds * self.per_second)
        self.stamp = time.monotonic()
        # Below this the bucket is worth keeping in the store (then half as low again).
        self.low = self.tokens / 2

    def refill_seconds(self) -> float:
        """How long the bucket takes to be full again, from now."""
        tokens = self.tokens + (time.monotonic() - self.stamp) * self.per_second
        return max(0.0, self.burst - tokens) / self.per_second

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Refusal(CodedError):
    """A message a socket will not take: answered with ``code`` (its ``text`` is what
    a page says of it), then closed with ``close_code`` (None: the socket stays open)."""

    code = INVALID_INPUT
    text = gettext_noop("That input is not valid.")
    close_code: ClassVar[int | None] = None


class MessageTooLarge(Refusal):
    code = MESSAGE_TOO_LARGE
    text = gettext_noop("That message is too large: the connection was closed.")
    close_code = CLOSE_TOO_BIG


class TooManyMessages(Refusal):
    code = TOO_MANY_MESSAGES
    text = gettext_noop("Too many messages at once: the connection was closed.")
    close_code = CLOSE_TOO_MANY


class TooManySockets(Refusal):
    code = TOO_MANY_SOCKETS
    text = gettext_noop("Too many connections at once: close another tab of the site, then reload.")
    close_code = CLOSE_TOO_MANY_SOCKETS


class NestedTooDeep(Refusal):
    code = TOO_DEEP
    text = gettext_noop("That message is nested too deeply.")


class KeyTwice(Refusal):
    code = DUPLICATE_KEY
    text = gettext_noop("That message names one thing twice.")


class BudgetedJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON socket that holds its client to the socket caps and to the size and rate
    budgets (see the module docstring) and decodes with :func:`decode_json`.

    A message that is not JSON is answered by :meth:`refuse` with ``invalid_input``
    (or ``too_deep``, ``duplicate_key``) and the socket stays open; consumers that
    answer in their own shape override :meth:`refuse`."""

    budget: Budget | None = None
    # Set once a budget is exceeded: frames already on their way are dropped.
    refused: bool = False
    client: SocketClient | None = None
    # Whether the socket holds places in the counts, and when its budget, as its
    # client left it, is full again (monotonic).
    counted: bool = False
    full_at: float = 0.0

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        self.client = SocketClient.of(self.scope)
        self.socket_id = uuid.uuid4().hex
        opened = await SOCKET_COUNTS.open(self.socket_id, self.client)
        if opened.refused_by is not None:
            self.refused = True
            kind, cap = opened.refused_by
            # Accepted to be told why: a socket refused before is only a failed handshake.
            await self.accept()
            await self.refuse(TooManySockets(f"this {kind} has {cap} sockets open already"))
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        self.counted = True
        self.full_at = time.monotonic() + opened.refill_seconds
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        if self.counted and self.client is not None:
            refill = self.budget.refill_seconds() if self.budget is not None else 0.0
            await SOCKET_COUNTS.close(self.socket_id, self.client, refill)
            self.counted = False
        await super().websocket_disconnect(message)

    async def websocket_receive(self, message: WebSocketReceiveEvent) -> None:
        if self.refused:
            return
        try:
            self._check(message)
        except Refusal as refusal:
            self.refused = True
            if isinstance(refusal, TooManyMessages):
                await self._keep_budget()
            await self.refuse(refusal)
            await self.close(code=refusal.close_code)
            return
        budget = self.budget
        if budget is not None and budget.tokens < budget.low:
            await self._keep_budget()
        await super().websocket_receive(message)

    async def _keep_budget(self) -> None:
        """Keep where this socket's budget stands for its client's next sockets."""
        if self.budget is None or self.client is None:
            return
        self.budget.low = self.budget.tokens / 2
        await SOCKET_COUNTS.keep_budget(self.client, self.budget.refill_seconds())

    def _check(self, message: WebSocketReceiveEvent) -> None:
        text, data = message.get("text"), message.get("bytes")
        limit = settings.ATU_SOCKET_MAX_BYTES
        # A character is at most 4 bytes in UTF-8: most frames need no encoding.
        size = len(data or b"") if text is None else len(text)
        if text is not None and size * 4 > limit:
            size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise MessageTooLarge(f"a message is at most {limit} bytes")
        if self.budget is None:
            rate = parse_rate(settings.ATU_SOCKET_RATE)
            if rate is None:
                return
            refill = max(0.0, self.full_at - time.monotonic())
            self.budget = Budget(*rate, refill_seconds=refill)
        if not self.budget.take():
            raise TooManyMessages(f"more than {self.budget.burst} messages in a burst; slow down")

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        return decode_json(text_data)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data is None:
            await self.refuse(Refusal("messages are JSON text, not binary"))
            return
        try:
            content = await self.decode_json(text_data)
        except JsonTooDeep as error:
            await self.refuse(NestedTooDeep(str(error)))
            return
        except JsonDuplicateKey as error:
            await self.refuse(KeyTwice(str(error)))
            return
        except ValueError:
            await self.refuse(Refusal("a message is a JSON object"))
            return
        await self.receive_json(content, **kwargs)

    async def refuse(self, refusal: Refusal) -> None:
        await self.send_json({"type": "error", "code": refusal.code, "message": refusal.message})
