"""The channel layer of production mode: channels_redis's pub/sub layer, whose
publishes do not wait for one another.

channels_redis (4.3) publishes under a lock per Redis shard, held across the round
trip, so a process sends one message at a time and waits for Redis's reply to each
before the next. The reply is only read when the server's event loop comes back to
it: while the loop is busy (the hands of hundreds of tables ending within the same
second, as a championship round's do), every publish of the process queued behind
the others for a loop turn each, and the moves' events reached the sockets 100 ms to
1.6 s after their commit (decision 1801). Here the publishes that wait go out
together, in pipelines of at most ``PUBLISHING`` (a round trip each, in the order they
were published), at most ``SENDERS`` under way at once, and none of a channel while a
pipeline holding that channel is under way, so a game's broadcasts still arrive in
order: a burst costs a round trip per batch, not per message, and redis-py's work per
command is paid once a batch (decision 1802). Subscribing keeps the lock.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

# Publishes per round trip at most, and round trips under way at once per process.
PUBLISHING = 64
SENDERS = 8

# A publish waiting: its channel, its message, and what its publisher awaits.
_Publish = tuple[str, bytes, "asyncio.Future[None]"]


class _Shard(RedisSingleShardConnection):
    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        # The publishes waiting, each with what its publisher awaits; the tasks
        # sending them, and the channels of the batches under way.
        self._waiting: deque[_Publish] = deque()
        self._senders: set[asyncio.Task[None]] = set()
        self._sending: set[str] = set()
        # Publishes sent, and the round trips they took.
        self.published = 0
        self.round_trips = 0

    async def publish(self, channel: str, message: bytes) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, message, done))
        if len(self._senders) < SENDERS:
            self._senders.add(asyncio.ensure_future(self._send_waiting()))
        await done

    def _batch(self) -> list[_Publish]:
        """The publishes sent next, in the order they came, ``PUBLISHING`` at most: none
        of a channel that a batch under way holds (they wait for it, so that a channel's
        messages go out in order)."""
        batch: list[_Publish] = []
        kept: deque[_Publish] = deque()
        while self._waiting and len(batch) < PUBLISHING:
            waiting = self._waiting.popleft()
            if waiting[0] in self._sending:
                kept.append(waiting)
            else:
                batch.append(waiting)
        self._waiting.extendleft(reversed(kept))
        return batch

    async def _send_waiting(self) -> None:
        try:
            while batch := self._batch():
                channels = {channel for channel, _, _ in batch}
                self._sending |= channels
                try:
                    outcome = await self._send(batch)
                finally:
                    self._sending -= channels
                for _, _, done in batch:
                    if done.done():
                        continue  # Its publisher was cancelled.
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            # In the same step as the last look: a publish after it starts a sender;
            # one held back by a batch under way is taken by that batch's sender.
            sender = asyncio.current_task()
            assert sender is not None
            self._senders.discard(sender)

    async def _send(self, batch: list[_Publish]) -> Exception | None:
        try:
            self._ensure_redis()
            if len(batch) == 1:
                await self._redis.publish(batch[0][0], batch[0][1])
            else:
                pipe = self._redis.pipeline(transaction=False)
                for channel, message, _ in batch:
                    pipe.publish(channel, message)
                await pipe.execute()
        except Exception as error:
            return error
        self.published += len(batch)
        self.round_trips += 1
        return None


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
