"""Throttle counts, forgotten between tests (and between the rows of a test that asks
many times from one address)."""

import redis
from django.conf import settings
from django.core.cache import caches

from runtime.throttling import SOCKET_COUNTS, THROTTLE_CACHE


def forget_throttle_counts() -> None:
    """Counts outlive a test (in this process's memory, or in Redis for the servers
    too). Only the throttle cache's keys are deleted: the Redis database also holds
    the broker's queues and the channel layer."""
    SOCKET_COUNTS.held.clear()
    SOCKET_COUNTS.full_at.clear()
    SOCKET_COUNTS.renewed.clear()
    throttle = settings.CACHES[THROTTLE_CACHE]
    if "KEY_PREFIX" not in throttle:
        caches[THROTTLE_CACHE].clear()
        return
    with redis.Redis.from_url(throttle["LOCATION"]) as client:
        keys = list(client.scan_iter(match=f"{throttle['KEY_PREFIX']}:*", count=1000))
        if keys:
            client.delete(*keys)
