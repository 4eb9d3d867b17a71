"""Request rates: DRF throttles for the API, and the same sign-in budget for the pages.

Three rates (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from ``ATU_THROTTLE_ANON``,
``ATU_THROTTLE_USER`` and ``ATU_THROTTLE_LOGIN``): every API request of an anonymous
client, counted by its address; every API request of a signed-in user, counted by
account; and signing in, registering and getting a token, by address, on the API and
on the pages alike (one budget: switching between them gains nothing). Over a rate,
the API answers 429 ``{"code": "throttled", ...}`` and the page 429, both with
``Retry-After``.

Counts are kept in the ``throttle`` cache's store: Redis in production (under the
cache's key prefix), so that every server process counts together; each process's
memory embedded. A client's window opens at its first request and closes a period
later (``Retry-After`` says when); each request is one atomic increment, so concurrent
requests are all counted (DRF's own throttles read and rewrite a list of timestamps,
and requests at once each see the count before the others). A client may spend up to
twice a rate across the end of one window and the start of the next. While Redis does
not answer, requests are not counted (logged as a warning): the API stays up.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config.limits import parse_rate

logger = logging.getLogger("atu.throttling")

THROTTLE_CACHE = "throttle"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"

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
        script = _count_script(config["LOCATION"])
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
    return count, store.get(f"{key}:opened", now) + period - now


@functools.cache
def _count_script(url: str) -> Any:
    # A store that hangs must not hold every request up for long.
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    return client.register_script(COUNT_SCRIPT)


class AnonThrottle(RateThrottle):
    scope = "anon"

    def ident(self, request: Any) -> str | None:
        return None if request.user.is_authenticated else self.get_ident(request)


class UserThrottle(RateThrottle):
    scope = "user"

    def ident(self, request: Any) -> str | None:
        return str(request.user.pk) if request.user.is_authenticated else None


class LoginThrottle(RateThrottle):
    """Signing in, registering, getting a token: by address, whoever is signed in."""

    scope = "login"

    def ident(self, request: Any) -> str | None:
        return str(self.get_ident(request))


def login_wait(request: HttpRequest) -> int | None:
    """Count a page's sign-in (or register) attempt: None if it may go on, else the
    seconds to wait."""
    throttle = LoginThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait()
