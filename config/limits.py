"""Bounds on what one client may send, so that crafted input is answered, never crashes.

- Request bodies: at most ``ATU_MAX_REQUEST_BYTES`` (Django's
  ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a larger one is answered 413
  ``request_too_large`` (:mod:`config.api_errors`), for the API and for pages.
- JSON, over HTTP and WebSocket alike, is read by :func:`decode_json`: UTF-8 only,
  nested at most ``ATU_MAX_JSON_DEPTH`` deep (``too_deep``), each key at most once in
  an object (``duplicate_key``: Python's parser keeps the last, another reader the
  first, so ``{"bid": 0, "bid": 1}`` means two things). Python's parser recurses once
  per level, and a few thousand levels raise ``RecursionError``.
- Each socket (:class:`BudgetedJsonConsumer`) takes text frames of at most
  ``ATU_SOCKET_MAX_BYTES`` and messages at ``ATU_SOCKET_RATE`` (a burst of N, then N
  per period). Beyond either it answers ``{"type": "error", "code": ...}`` and
  closes the socket:

  ====  ======================  ==========================================
  code  error code              why
  ====  ======================  ==========================================
  1009  ``message_too_large``   a frame over the size budget ("too big")
  4429  ``too_many_messages``   messages faster than the rate budget
  ====  ======================  ==========================================
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from itertools import accumulate
from typing import Any, ClassVar

from asgiref.typing import WebSocketReceiveEvent
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext_noop
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

CLOSE_TOO_BIG = 1009
CLOSE_TOO_MANY = 4429
MESSAGE_TOO_LARGE = "message_too_large"
TOO_MANY_MESSAGES = "too_many_messages"
TOO_DEEP = "too_deep"
DUPLICATE_KEY = "duplicate_key"
INVALID_INPUT = "invalid_input"

PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

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
    """An object, unless a key comes twice in it. (Each object of a socket's message
    costs about 0.3 µs more than the parser's own dict: decision 0203.)"""
    made = dict(pairs)
    if len(made) != len(pairs):
        twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise JsonDuplicateKey(f"the key {json.dumps(twice)} comes more than once in an object")
    return made


# JSON as the standard says: NaN and Infinity are not numbers in it; and as RFC 8259
# advises, no key twice in one object.
_DECODER = json.JSONDecoder(parse_constant=strict_constant, object_pairs_hook=_object)


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"20/min"`` as (20, 60): how many per how many seconds; None stays None."""
    if rate is None:
        return None
    count, period = rate.split("/")
    return int(count), PERIOD_SECONDS[period[0]]


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
    """A token bucket: ``burst`` messages at once, refilled at ``burst`` per ``period``."""

    def __init__(self, burst: int, period: float) -> None:
        self.burst = burst
        self.per_second = burst / period
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Refusal(Exception):
    """A message a socket will not take: answered with ``code`` (its ``text`` is what
    a page says of it), then closed with ``close_code`` (None: the socket stays open)."""

    code = INVALID_INPUT
    text: ClassVar[str] = gettext_noop("That input is not valid.")
    close_code: ClassVar[int | None] = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MessageTooLarge(Refusal):
    code = MESSAGE_TOO_LARGE
    text = gettext_noop("That message is too large: the connection was closed.")
    close_code = CLOSE_TOO_BIG


class TooManyMessages(Refusal):
    code = TOO_MANY_MESSAGES
    text = gettext_noop("Too many messages at once: the connection was closed.")
    close_code = CLOSE_TOO_MANY


class NestedTooDeep(Refusal):
    code = TOO_DEEP
    text = gettext_noop("That message is nested too deeply.")


class KeyTwice(Refusal):
    code = DUPLICATE_KEY
    text = gettext_noop("That message names one thing twice.")


class BudgetedJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON socket that holds its client to the size and rate budgets (see the
    module docstring) and decodes with :func:`decode_json`.

    A message that is not JSON is answered by :meth:`refuse` with ``invalid_input``
    (or ``too_deep``) and the socket stays open; consumers that answer in their own
    shape override :meth:`refuse`."""

    budget: Budget | None = None
    # Set once a budget is exceeded: frames already on their way are dropped.
    refused: bool = False

    async def websocket_receive(self, message: WebSocketReceiveEvent) -> None:
        if self.refused:
            return
        try:
            self._check(message)
        except Refusal as refusal:
            self.refused = True
            await self.refuse(refusal)
            await self.close(code=refusal.close_code)
            return
        await super().websocket_receive(message)

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
            self.budget = Budget(*rate)
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
