"""Request rates: DRF throttles for the API, and the same sign-in budget for the pages.

Three rates (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from ``ATU_THROTTLE_ANON``,
``ATU_THROTTLE_USER`` and ``ATU_THROTTLE_LOGIN``): every API request of an anonymous
client, counted by its address; every API request of a signed-in user, counted by
account; and signing in, registering and getting a token, by address, on the API and
on the pages alike (one budget: switching between them gains nothing). Over a rate,
the API answers 429 ``{"code": "throttled", ...}`` and the page 429, both with
``Retry-After``.

Counts are kept in the ``throttle`` cache: Redis in production, so that every server
process counts together; each process's memory embedded. A client's window opens at
its first request and closes a period later (``Retry-After`` says when); each request
is one atomic increment, so concurrent requests are all counted (DRF's own throttles
read and rewrite a list of timestamps, and requests at once each see the count before
the others). A client may spend up to twice a rate across the end of one window and
the start of the next.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest
from django.utils.connection import ConnectionProxy
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config.limits import parse_rate

THROTTLE_CACHE = "throttle"
cache: Any = ConnectionProxy(caches, THROTTLE_CACHE)


class RateThrottle(BaseThrottle):
    """Allow ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope]`` requests per client
    (:meth:`ident`; None: not counted here) and window."""

    scope: str
    wait_seconds: float | None = None

    def ident(self, request: Any) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        rate = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))
        ident = self.ident(request)
        if rate is None or ident is None:
            return True
        limit, period = rate
        now = time.time()
        key = f"{self.scope}:{ident}"
        # A client's window opens at its first request and lasts a period: add is a
        # no-op while it is open, and incr is atomic (Redis INCRBY keeps the expiry).
        if cache.add(key, 0, timeout=period):
            cache.set(f"{key}:opened", now, timeout=period)
        try:
            count = cache.incr(key)
        except ValueError:  # The window closed in between: this request opens the next.
            cache.set(key, 1, timeout=period)
            count = 1
        if count <= limit:
            return True
        opened = cache.get(f"{key}:opened", now)
        self.wait_seconds = max(1.0, opened + period - now)
        return False

    def wait(self) -> int | None:
        return None if self.wait_seconds is None else math.ceil(self.wait_seconds)


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
