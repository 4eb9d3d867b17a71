"""Counts per client, kept where every server process sees them: the API's request
rates (DRF throttles, and the same sign-in budget for the pages), and each client's
sockets and socket budget.

Three rates of requests (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from
``ATU_THROTTLE_ANON``, ``ATU_THROTTLE_USER`` and ``ATU_THROTTLE_LOGIN``): every API
request of an anonymous client, counted by its address; every API request of a
signed-in user, counted by account; and registering (an account made, a guest's too),
by address, on the API and on the pages alike (one budget: switching between them
gains nothing). Over a rate, the API answers 429 ``{"code": "throttled", ...}`` and the
page 429, both with ``Retry-After``.

Budgets of failed attempts (:func:`take_attempt`, decision 3301): an attempt that may
fail (a password, a table's PIN) holds a place in each of its budgets (a scope's rate,
from the same settings, and a key: the address, the account, the table) and gives it
back when it succeeds, so only failures spend them. Signing in fails into the address's
``login`` budget (the one registering spends), the account's and the account's from
that address: a room full of players on one address signs in, a guesser does not.
Past a budget, :class:`runtime.errors.TooManyAttempts` (429 ``too_many_attempts``)
before anything is checked.

Counts are kept in the ``throttle`` cache's store: Redis in production (under the
cache's key prefix), so that every server process counts together; each process's
memory embedded. A client's window opens at its first request and closes a period
later (``Retry-After`` says when); each request is one atomic increment, so concurrent
requests are all counted (DRF's own throttles read and rewrite a list of timestamps,
and requests at once each see the count before the others). A client may spend up to
twice a rate across the end of one window and the start of the next. While Redis does
not answer, requests are not counted (logged as a warning): the API stays up.

Sockets (:class:`SocketClient`, :data:`SOCKET_COUNTS`): a client may hold at most
``ATU_SOCKETS_PER_SESSION`` sockets at once per session (its account if signed in,
else its anonymous session) and ``ATU_SOCKETS_PER_ADDRESS`` per address (the address
the API's throttles count: uvicorn sets both from the front's X-Forwarded-For). A
socket holds its places for ``PLACE_SECONDS``, renewed every ``RENEW_SECONDS`` by its
process while it is open (a round trip per process for 200 places at a time): a killed
process's sockets are forgotten within ``PLACE_SECONDS``. A client's socket budget
(:class:`runtime.limits.Budget`) is kept as the time it will be full again: a socket
starts from what its client's last sockets left (the account's if signed in, else the
address's), so a closed flood is not a fresh budget. The same counts live in this
process's memory embedded. While Redis does not answer, sockets are let in
uncounted, with a warning.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import math
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio
from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from runtime.errors import TooManyAttempts

logger = logging.getLogger("atu.throttling")

THROTTLE_CACHE = "throttle"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"
PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

# Counts a request in its client's window, in one round trip and atomically: the first
# request opens the window (its expiry), and the answer says how long it has left.
# (Django's cache incr is two commands: a key expiring between them would come back
# without an expiry, and its client would stay throttled for good.)
COUNT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return {count, redis.call('PTTL', KEYS[1])}
"""


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"20/min"`` as (20, 60), ``"10/15min"`` as (10, 900): how many per how many
    seconds; None stays None."""
    if rate is None:
        return None
    count, period = rate.split("/")
    unit = period.lstrip("0123456789")
    periods = int(period[: len(period) - len(unit)] or 1)
    return int(count), periods * PERIOD_SECONDS[unit[0]]


class RateThrottle(BaseThrottle):
    """Allow ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`` requests per client
    (:meth:`ident`; None: not counted here) and window."""

    scope: str
    wait_seconds: float | None = None

    def ident(self, request: Any) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        # djangorestframework-stubs has the rates numbers; DRF's are texts ("20/min"),
        # as the stubs' own SimpleRateThrottle.THROTTLE_RATES says.
        rate = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))  # type: ignore[arg-type]
        ident = self.ident(request)
        if rate is None or ident is None:
            return True
        limit, period = rate
        count, left = _count(f"{self.scope}:{ident}", period)
        if count <= limit:
            return True
        self.wait_seconds = max(1.0, left)
        return False

    def wait(self) -> int | None:
        return None if self.wait_seconds is None else math.ceil(self.wait_seconds)


def _count(key: str, period: int) -> tuple[int, float]:
    """Count a request under ``key``: its number in the window, and the seconds the
    window has left."""
    store = caches[THROTTLE_CACHE]
    config = settings.CACHES[THROTTLE_CACHE]
    if config["BACKEND"] == REDIS_CACHE:
        script = _sync_scripts(config["LOCATION"])["count"]
        try:
            count, left_ms = script(keys=[store.make_key(key)], args=[period * 1000])
        except redis.RedisError:
            # Fail open: without Redis the sockets and the workers are down already,
            # and the API's reads may still be served.
            logger.warning("request not counted: the throttle store is unavailable")
            return 0, 0.0
        return int(count), int(left_ms) / 1000
    # One process's memory: add and incr each hold the cache's lock, and incr keeps
    # the expiry.
    now = time.time()
    if store.add(key, 0, timeout=period):
        store.set(f"{key}:opened", now, timeout=period)
    try:
        count = store.incr(key)
    except ValueError:  # The window closed in between: this request opens the next.
        store.set(key, 1, timeout=period)
        store.set(f"{key}:opened", now, timeout=period)
        count = 1
    return count, _left_here(key, period, now)


def _left_here(key: str, period: int, now: float) -> float:
    """The seconds ``key``'s window has left, in this process's memory."""
    return float(caches[THROTTLE_CACHE].get(f"{key}:opened", now)) + period - now


@functools.cache
def _sync_scripts(url: str) -> dict[str, Any]:
    # A store that hangs must not hold every request up for long.
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    return {
        "count": client.register_script(COUNT_SCRIPT),
        "take": client.register_script(TAKE_SCRIPT),
        "give_back": client.register_script(GIVE_BACK_SCRIPT),
    }


class AnonThrottle(RateThrottle):
    scope = "anon"

    def ident(self, request: Any) -> str | None:
        return None if request.user.is_authenticated else self.get_ident(request)


class UserThrottle(RateThrottle):
    scope = "user"

    def ident(self, request: Any) -> str | None:
        return str(request.user.pk) if request.user.is_authenticated else None


class LoginThrottle(RateThrottle):
    """Registering: by address, whoever is signed in. The address's failed sign-ins
    spend the same budget (:func:`take_attempt`)."""

    scope = "login"

    def ident(self, request: Any) -> str | None:
        return str(self.get_ident(request))


def login_wait(request: HttpRequest) -> int | None:
    """Count a page's register attempt (a guest made too): None if it may go on, else
    the seconds to wait."""
    throttle = LoginThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait()


def client_address(request: HttpRequest | Request) -> str | None:
    """The address the throttles count a request by: the client's as the front saw
    it (uvicorn takes it from the front's X-Forwarded-For; decision 0202)."""
    return request.META.get("REMOTE_ADDR") or None


# --- Failed attempts ------------------------------------------------------------------

# Takes a place in each budget, or none if any is spent. KEYS: the budgets' keys; ARGV:
# each one's limit and window in ms, in turn. Answers 0 (taken), else the ms until the
# spent budget that opens last opens again (at least 1).
TAKE_SCRIPT = """
local wait = 0
for i = 1, #KEYS do
    if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[2 * i - 1]) then
        local left = redis.call('PTTL', KEYS[i])
        if left < 0 then
            redis.call('PEXPIRE', KEYS[i], ARGV[2 * i])
            left = tonumber(ARGV[2 * i])
        end
        wait = math.max(wait, left, 1)
    end
end
if wait > 0 then
    return wait
end
for i = 1, #KEYS do
    redis.call('INCR', KEYS[i])
    if redis.call('PTTL', KEYS[i]) < 0 then
        redis.call('PEXPIRE', KEYS[i], ARGV[2 * i])
    end
end
return 0
"""
# Gives an attempt's places back. A window that closed meanwhile is left alone: an
# absent key stays absent (DECR would make it -1, with no expiry).
GIVE_BACK_SCRIPT = """
for i = 1, #KEYS do
    if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then
        redis.call('DECR', KEYS[i])
    end
end
"""
# Embedded, one process: the budgets' check and their increments, together.
_ATTEMPTS_HERE = threading.Lock()


@dataclass(frozen=True)
class AttemptKey:
    """One budget of failed attempts: ``scope`` names its rate in
    ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (none: not counted), ``key`` whose
    budget it is within the scope (None: not counted)."""

    scope: str
    key: str | None


@dataclass(frozen=True)
class Attempt:
    """An attempt's places in its budgets (the throttle cache's keys), held until it
    :meth:`succeeded`."""

    places: tuple[str, ...]

    def succeeded(self) -> None:
        """Give the places back: a success spends no budget."""
        if not self.places:
            return
        store = caches[THROTTLE_CACHE]
        url = _redis_location()
        if url is None:
            with _ATTEMPTS_HERE:
                for place in self.places:
                    try:
                        if store.get(place, 0) > 0:
                            store.decr(place)
                    except ValueError:  # Its window closed meanwhile: nothing to give back.
                        pass
            return
        try:
            _sync_scripts(url)["give_back"](keys=[store.make_key(place) for place in self.places])
        except redis.RedisError:
            logger.warning("attempt not given back: the throttle store is unavailable")


def take_attempt(*keys: AttemptKey) -> Attempt:
    """Count an attempt in each budget of ``keys`` as failed until it
    :meth:`Attempt.succeeded`; an attempt that raises, or returns without saying so,
    stays failed. If any budget is spent, raise :class:`TooManyAttempts`, counting
    nothing: what the attempt would check must not be checked. Atomic across
    budgets and processes: of attempts at once, no more are checked than a budget
    has places. While Redis does not answer, attempts are not counted (a warning)."""
    rates = api_settings.DEFAULT_THROTTLE_RATES
    budgets = []
    for each in keys:
        rate = parse_rate(rates.get(each.scope))  # type: ignore[arg-type]
        if rate is not None and each.key is not None:
            budgets.append((f"{each.scope}:{each.key}", *rate))
    if not budgets:
        return Attempt(())
    url = _redis_location()
    try:
        wait = _take_here(budgets) if url is None else _take_in_redis(url, budgets)
    except redis.RedisError:
        logger.warning("attempt not counted: the throttle store is unavailable")
        return Attempt(())
    if wait is not None:
        raise TooManyAttempts(max(1, math.ceil(wait)))
    return Attempt(tuple(place for place, _, _ in budgets))


def _take_here(budgets: Sequence[tuple[str, int, int]]) -> float | None:
    """Take a place in each budget, in this process's memory: None, or the seconds
    until the spent budget that opens last opens again."""
    store = caches[THROTTLE_CACHE]
    with _ATTEMPTS_HERE:
        now = time.time()
        spent = [
            _left_here(place, period, now)
            for place, limit, period in budgets
            if store.get(place, 0) >= limit
        ]
        if spent:
            return max(spent)
        for place, _, period in budgets:
            _count(place, period)
    return None


def _take_in_redis(url: str, budgets: Sequence[tuple[str, int, int]]) -> float | None:
    store = caches[THROTTLE_CACHE]
    wait_ms = _sync_scripts(url)["take"](
        keys=[store.make_key(place) for place, _, _ in budgets],
        args=[value for _, limit, period in budgets for value in (limit, period * 1000)],
    )
    return int(wait_ms) / 1000 if wait_ms else None


# --- Sockets --------------------------------------------------------------------------

# How long a socket holds its places unless its process renews them, and how often it
# does: a process killed with its sockets open frees their places within a minute and a half.
PLACE_SECONDS = 90
RENEW_SECONDS = 30
# Places renewed per script call: Redis runs a script alone, and the channel layer
# waits behind it, so a call stays short (decision 0203).
RENEW_BATCH = 200
# What one socket's open costs while Redis does not answer: at most this, then it is
# let in uncounted.
STORE_TIMEOUT_SECONDS = 1.0
# Connections to the throttle store per event loop. Thousands of sockets closing at
# once (a server restarting, a room's round ending) would each open a connection of
# their own and most would time out, leaving their places to lapse at their deadline;
# through a few connections they wait their turn, each script a fraction of a
# millisecond (decision 0203).
STORE_CONNECTIONS = 8
# How long a socket's open or close waits for one of them.
STORE_WAIT_SECONDS = 10.0

# Opens a socket: forgets the places whose deadline passed, refuses if a place key is
# at its cap (answering which, from 1), else holds a place under each key until the
# deadline; and answers how many ms its client's budget has yet to refill (0: full).
# KEYS: the budget's key, then the place keys; ARGV: the socket, PLACE ms, each cap.
OPEN_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[i + 1]) then
        return {i - 1, 0}
    end
end
for i = 2, #KEYS do
    redis.call('ZADD', KEYS[i], now + tonumber(ARGV[2]), ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
end
return {0, math.max(redis.call('PTTL', KEYS[1]), 0)}
"""
# Closes a socket (frees its places) and keeps its client's budget: as full as the
# lowest that any socket of the client left, until it has refilled (the key's expiry).
# KEYS: the budget's key, then the place keys; ARGV: the socket, the ms to refill.
CLOSE_SCRIPT = """
for i = 2, #KEYS do
    redis.call('ZREM', KEYS[i], ARGV[1])
end
local refill = tonumber(ARGV[2])
if refill > 0 and redis.call('PTTL', KEYS[1]) < refill then
    redis.call('SET', KEYS[1], 1, 'PX', refill)
end
"""
# Renews the places of a process's open sockets. KEYS: place keys; ARGV: PLACE ms,
# then the socket holding each key's place.
RENEW_SCRIPT = """
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], deadline, ARGV[i + 1])
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
"""


@dataclass(frozen=True)
class SocketClient:
    """Whom a socket is counted as. ``session``: its account (signed in) or anonymous
    session, if any; ``address``: where it comes from, if known; ``budget``: whose
    message budget it spends (the account, else the address: an anonymous client can
    always drop its session)."""

    session: str | None
    address: str | None

    @classmethod
    def of(cls, scope: Any) -> SocketClient:
        client = scope.get("client")
        user = scope.get("user")
        if user is not None and user.is_authenticated:
            session: str | None = f"user:{user.pk}"
        else:
            # The session middleware has loaded it: an unknown key is None by now.
            key = scope["session"].session_key if "session" in scope else None
            # Kept by a digest: the store need not hold what signs a client in.
            session = f"session:{hashlib.sha256(key.encode()).hexdigest()[:32]}" if key else None
        return cls(session=session, address=client[0] if client else None)

    @property
    def budget(self) -> str | None:
        if self.session is not None and self.session.startswith("user:"):
            return self.session
        return None if self.address is None else f"address:{self.address}"

    def places(self) -> list[tuple[str, str, int]]:
        """The places a socket takes: (kind, key, cap) for each capped kind it has."""
        kinds = [
            ("session", self.session, settings.ATU_SOCKETS_PER_SESSION),
            ("address", self.address, settings.ATU_SOCKETS_PER_ADDRESS),
        ]
        return [
            (kind, f"sockets:{kind}:{value}", cap)
            for kind, value, cap in kinds
            if value is not None and cap is not None
        ]


@dataclass(frozen=True)
class Opened:
    """A socket's open: ``refused_by`` the kind of place at its cap (None: let in), and
    the seconds its client's budget has yet to refill."""

    refused_by: tuple[str, int] | None
    refill_seconds: float = 0.0


class SocketCounts:
    """Each client's open sockets and socket budget, in Redis (production) or in this
    process's memory (embedded). The throttle cache says which, and prefixes the keys."""

    def __init__(self) -> None:
        # Embedded: the sockets holding each place key; when each budget is full again.
        self.held: dict[str, set[str]] = {}
        self.full_at: dict[str, float] = {}
        # Production: the place keys of this process's open sockets, and the task
        # that renews them (one per event loop that has sockets).
        self.renewed: dict[str, list[str]] = {}
        self.renewal: asyncio.Task[None] | None = None

    async def open(self, socket_id: str, client: SocketClient) -> Opened:
        places = client.places()
        keys = [key for _, key, _ in places]
        url = _redis_location()
        if url is None:
            return self._open_here(socket_id, client, places)
        store = caches[THROTTLE_CACHE]
        made = [store.make_key(key) for key in keys]
        try:
            refused, refill_ms = await _scripts(url)["open"](
                keys=[store.make_key(f"socket-budget:{client.budget}"), *made],
                args=[socket_id, PLACE_SECONDS * 1000, *(cap for _, _, cap in places)],
            )
        except redis.RedisError:
            logger.warning("socket not counted: the throttle store is unavailable")
            return Opened(None)
        if refused:
            kind, _, cap = places[refused - 1]
            return Opened((kind, cap))
        if made:
            self.renewed[socket_id] = made
            self._renew_while_open()
        return Opened(None, int(refill_ms) / 1000)

    async def close(self, socket_id: str, client: SocketClient, refill_seconds: float) -> None:
        """Free an open socket's places, and keep its client's budget
        ``refill_seconds`` from full (unless a socket of the client left it lower)."""
        self.renewed.pop(socket_id, None)
        await self._keep(socket_id, client, [key for _, key, _ in client.places()], refill_seconds)

    async def keep_budget(self, client: SocketClient, refill_seconds: float) -> None:
        """Keep ``client``'s budget ``refill_seconds`` from full (unless lower)."""
        await self._keep("", client, [], refill_seconds)

    async def _keep(
        self, socket_id: str, client: SocketClient, keys: Sequence[str], refill_seconds: float
    ) -> None:
        url = _redis_location()
        if url is None:
            self._close_here(socket_id, client, keys, refill_seconds)
            return
        refill_ms = math.ceil(refill_seconds * 1000) if client.budget is not None else 0
        if not keys and refill_ms <= 0:
            return
        store = caches[THROTTLE_CACHE]
        try:
            await _scripts(url)["close"](
                keys=[
                    store.make_key(f"socket-budget:{client.budget}"),
                    *(store.make_key(key) for key in keys),
                ],
                args=[socket_id, refill_ms],
            )
        except redis.RedisError:
            # The places lapse by their deadline.
            logger.warning("socket not forgotten: the throttle store is unavailable")

    def _open_here(
        self, socket_id: str, client: SocketClient, places: Sequence[tuple[str, str, int]]
    ) -> Opened:
        for kind, key, cap in places:
            if len(self.held.get(key, ())) >= cap:
                return Opened((kind, cap))
        for _, key, _ in places:
            self.held.setdefault(key, set()).add(socket_id)
        full_at = self.full_at.get(client.budget or "", 0.0)
        return Opened(None, max(0.0, full_at - time.monotonic()))

    def _close_here(
        self, socket_id: str, client: SocketClient, keys: Sequence[str], refill_seconds: float
    ) -> None:
        for key in keys:
            held = self.held.get(key, set())
            held.discard(socket_id)
            if not held:
                self.held.pop(key, None)
        now = time.monotonic()
        # Budgets full again are dropped as others are kept: the memory stays bounded.
        for budget in [budget for budget, full_at in self.full_at.items() if full_at <= now]:
            del self.full_at[budget]
        if client.budget is not None and refill_seconds > 0:
            full_at = now + refill_seconds
            self.full_at[client.budget] = max(self.full_at.get(client.budget, 0.0), full_at)

    def _renew_while_open(self) -> None:
        loop = asyncio.get_running_loop()
        if self.renewal is None or self.renewal.done() or self.renewal.get_loop() is not loop:
            self.renewal = loop.create_task(self._renew())

    async def _renew(self) -> None:
        while self.renewed:
            await asyncio.sleep(RENEW_SECONDS)
            url = _redis_location()
            held = [(key, socket) for socket, keys in self.renewed.items() for key in keys]
            if url is None or not held:
                continue
            try:
                for start in range(0, len(held), RENEW_BATCH):
                    batch = held[start : start + RENEW_BATCH]
                    await _scripts(url)["renew"](
                        keys=[key for key, _ in batch],
                        args=[PLACE_SECONDS * 1000, *(socket for _, socket in batch)],
                    )
            except redis.RedisError:
                logger.warning("sockets not renewed: the throttle store is unavailable")


SOCKET_COUNTS = SocketCounts()


def _redis_location() -> str | None:
    config = settings.CACHES[THROTTLE_CACHE]
    return str(config["LOCATION"]) if config["BACKEND"] == REDIS_CACHE else None


# A client (and its scripts) per event loop: an asyncio client is bound to its loop.
_ASYNC_SCRIPTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Any]] = (
    weakref.WeakKeyDictionary()
)


def _scripts(url: str) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    by_url = _ASYNC_SCRIPTS.setdefault(loop, {})
    scripts = by_url.get(url)
    if scripts is None:
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=STORE_CONNECTIONS,
            timeout=STORE_WAIT_SECONDS,
            socket_timeout=STORE_TIMEOUT_SECONDS,
            socket_connect_timeout=STORE_TIMEOUT_SECONDS,
        )
        client = redis.asyncio.Redis(connection_pool=pool)
        scripts = by_url[url] = {
            "open": client.register_script(OPEN_SCRIPT),
            "close": client.register_script(CLOSE_SCRIPT),
            "renew": client.register_script(RENEW_SCRIPT),
        }
    return scripts
