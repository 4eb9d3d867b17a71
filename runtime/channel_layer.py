"""The channel layer of production mode: channels_redis's pub/sub layer, whose
publishes do not wait for one another.

channels_redis publishes under a lock per Redis shard, held across the round trip,
so a process sends one message at a time and waits for Redis's reply to each before
the next. The reply is only read when the server's event loop comes back to it: while
the loop is busy (the hands of many tables ending within the same second, as a
championship round's do), every publish of the process would queue behind the others
for a loop turn each, and the moves' events would reach the sockets late (decisions
0002 and 1801). Here the publishes that wait go out together (:mod:`runtime.batching`),
in pipelines of at most ``PUBLISHING`` (a round trip each, in the order they were
published), at most ``SENDERS`` under way at once, and none of a channel while a
pipeline holding that channel is under way, so a game's broadcasts still arrive in
order: a burst costs a round trip per batch, not per message, and redis-py's work per
command is paid once a batch (decision 1802).
Subscribing keeps the lock.

A Redis that cannot be reached is logged once, as a warning, when the subscriptions'
reader first fails and once when it reads again (channels_redis logs an error with
its traceback every second meanwhile); redis-py subscribes again to every channel as
it reconnects (decision 3101). What was published while the subscriptions were away
is lost to them, so each hook given to :func:`on_resubscribed` (the apps' sockets'
watchdogs) then looks in the log's read models for what those broadcasts said.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError

from runtime.batching import Batcher
from runtime.lifespan import in_background

# Publishes per round trip at most, and round trips under way at once per process.
PUBLISHING = 64
SENDERS = 8
# How long the subscriptions' reader waits before it tries an unreachable Redis again.
RECONNECT_SECONDS = 1.0

logger = logging.getLogger("atu.outbox")

_resubscribed: list[Callable[[], Awaitable[Any]]] = []


def on_resubscribed(hook: Callable[[], Awaitable[Any]]) -> None:
    """Have every server process run ``hook()`` each time its subscriptions are read
    again after Redis could not be reached. Apps add theirs from their
    ``AppConfig.ready``: config knows no app."""
    if hook not in _resubscribed:
        _resubscribed.append(hook)


async def _run_logged(hook: Callable[[], Awaitable[Any]]) -> None:
    try:
        await hook()
    except Exception:  # A database that does not answer: the periodic watchdog may.
        logger.exception("after the subscriptions came back, %r failed", hook)


class _Shard(RedisSingleShardConnection):
    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._publishes: Batcher[tuple[str, bytes], None] = Batcher(
            self._send, key=lambda publish: publish[0], limit=PUBLISHING, senders=SENDERS
        )
        # Publishes sent, and the round trips they took.
        self.published = 0
        self.round_trips = 0

    async def publish(self, channel: str, message: bytes) -> None:
        await self._publishes.submit((channel, message))

    async def _send(self, batch: list[tuple[str, bytes]]) -> list[None]:
        self._ensure_redis()
        if len(batch) == 1:
            await self._redis.publish(*batch[0])
        else:
            pipe = self._redis.pipeline(transaction=False)
            for channel, message in batch:
                pipe.publish(channel, message)
            await pipe.execute()
        self.published += len(batch)
        self.round_trips += 1
        return [None] * len(batch)

    async def _do_receiving(self) -> None:
        # As channels_redis's own reader, but for how an unreachable Redis is logged.
        unreachable = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if unreachable:
                        unreachable = False
                        logger.warning("channel layer subscriptions read again")
                        for hook in _resubscribed:
                            in_background(_run_logged(hook))
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except (RedisConnectionError, OSError) as error:
                if not unreachable:
                    unreachable = True
                    logger.warning(
                        "channel layer subscriptions cannot be read (%s); trying again", error
                    )
                await asyncio.sleep(RECONNECT_SECONDS)
            except BaseException:
                logger.exception("Unexpected exception in receive task")
                await asyncio.sleep(RECONNECT_SECONDS)


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
