from __future__ import annotations

import asyncio
import uuid

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from config.channel_layer import PUBLISHING, RedisPubSubLayer

pytestmark = pytest.mark.skipif(
    settings.ENV.redis_url is None,
    reason="needs Redis (production mode); embedded mode's in-memory layer publishes nothing",
)
MESSAGES = 60


async def test_a_burst_of_publishes_goes_out_on_several_connections_and_every_message_arrives() -> (
    None
):
    # Given the production layer, and a channel in a group of its own
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubLayer)
    group = f"test-burst-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    watcher = redis.Redis.from_url(settings.ENV.redis_url)
    before = {client["id"] for client in watcher.client_list() if client["cmd"] == "publish"}
    try:
        # When a burst of messages is published at once
        await asyncio.gather(
            *(layer.group_send(group, {"type": "test", "n": n}) for n in range(MESSAGES))
        )
        received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(MESSAGES)]
    finally:
        await layer.group_discard(group, channel)

    # Then each arrives once, and they went out on connections of their own, a bounded
    # number of them (one connection at a time, each waiting for the one before, it was)
    assert sorted(message["n"] for message in received) == list(range(MESSAGES))
    publishing = {
        client["id"] for client in watcher.client_list() if client["cmd"] == "publish"
    } - before
    assert 1 < len(publishing) <= PUBLISHING
