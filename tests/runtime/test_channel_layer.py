from __future__ import annotations

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from runtime.channel_layer import PUBLISHING, RedisPubSubLayer

pytestmark = pytest.mark.skipif(
    settings.ENV.redis_url is None,
    reason="needs Redis (production mode); embedded mode's in-memory layer publishes nothing",
)
GROUPS = 30
EACH = 3


async def test_a_burst_to_many_groups_goes_out_in_a_few_round_trips_each_group_in_order() -> None:
    # Given the production layer, and a channel in many groups
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubLayer)
    groups = [f"test-burst-{uuid.uuid4().hex}" for _ in range(GROUPS)]
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    shard = layer._get_layer()._shards[0]
    before = shard.published, shard.round_trips
    try:
        # When a burst of messages is published at once, a few to each group
        await asyncio.gather(
            *(
                layer.group_send(group, {"type": "test", "group": g, "n": n})
                for n in range(EACH)
                for g, group in enumerate(groups)
            )
        )
        received = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(GROUPS * EACH)]
    finally:
        for group in groups:
            await layer.group_discard(group, channel)

    # Then each arrives once, each group's in the order published, and, published in
    # one turn of the loop, they went out together, in pipelines of at most PUBLISHING
    # (a round trip each; one per message, each waiting for the one before, it was)
    for g in range(GROUPS):
        assert [m["n"] for m in received if m["group"] == g] == list(range(EACH))
    published, round_trips = shard.published - before[0], shard.round_trips - before[1]
    assert published == GROUPS * EACH
    assert GROUPS * EACH > PUBLISHING
    assert round_trips == -(-GROUPS * EACH // PUBLISHING)
