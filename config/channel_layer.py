"""The channel layer of production mode: channels_redis's pub/sub layer, whose
publishes do not wait for one another.

channels_redis (4.3) publishes under a lock per Redis shard, held across the round
trip, so a process sends one message at a time and waits for Redis's reply to each
before the next. The reply is only read when the server's event loop comes back to
it: while the loop is busy (the hands of hundreds of tables ending within the same
second, as a championship round's do), every publish of the process queued behind
the others for a loop turn each, and the moves' events reached the sockets 100 ms to
1.6 s after their commit (decision 1801). Here each publish takes a connection of the
client's pool for itself, at most ``PUBLISHING`` at once, and only the publishes of one
channel wait for one another; subscribing keeps the lock.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

# Publishes in flight at once per process and shard: each holds a connection.
PUBLISHING = 16


class _Shard(RedisSingleShardConnection):
    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._publishing = asyncio.Semaphore(PUBLISHING)
        # The publishes of each channel (a game's group) not done yet, and the lock
        # that keeps them in order: a channel's messages still go out one after the
        # other, in the order they were published (asyncio's locks are fair), so its
        # sockets get a game's broadcasts in order rather than reading the log for
        # one that overtook another.
        self._channels: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def publish(self, channel: str, message: bytes) -> None:
        lock, waiting = self._channels.setdefault(channel, (asyncio.Lock(), [0]))
        waiting[0] += 1
        try:
            async with lock, self._publishing:
                self._ensure_redis()
                await self._redis.publish(channel, message)
        finally:
            waiting[0] -= 1
            if not waiting[0]:
                del self._channels[channel]


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        # Replaces the stock shards, which hold no connection until first used.
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]


class RedisPubSubLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` with :class:`_Shard`'s publishes; configured as it is."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        # As channels_redis's own, with the loop layer above: one per event loop.
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
