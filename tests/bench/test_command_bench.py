"""Smoke test of the command benchmark's rounds (the script itself makes its own test
database): speed is measured only by running the benchmark, never asserted."""

import pytest
import redis.asyncio
from channels.db import database_sync_to_async

from bench.baseline import CREATE_TABLE
from bench.command import (
    atu_round,
    baseline_round,
    redis_address,
    started_games,
)
from eventlog import loopdb, store
from games.table import stream_of
from tests.games.write.test_path import loop_writes_only

pytestmark = [pytest.mark.django_db(transaction=True), loop_writes_only]


async def test_a_round_makes_each_move_once_on_its_game_and_the_baseline_writes_as_many_rows() -> (
    None
):
    async with loopdb.serving(), loopdb.connection() as conn:
        # Given two started games
        games = await database_sync_to_async(started_games)(2, 0)
        versions = [
            len(await database_sync_to_async(store.read)(stream_of(game_id)))
            for game_id, _ in games
        ]

        # When a round makes 30 moves round-robin, and the baseline as many
        seconds, sent = await atu_round(games, 30)
        # The application's role may not create tables (CI's production mode): a
        # temporary one, on the connection the baseline writes with, takes the name.
        await conn.execute(CREATE_TABLE.replace("CREATE TABLE", "CREATE TEMPORARY TABLE"))
        client = redis.asyncio.Redis.from_url(redis_address())
        try:
            await baseline_round(conn, client, 30, 2, sent // 30)
        finally:
            await client.aclose()
        rows = await (await conn.execute("SELECT count(*) FROM baseline_move")).fetchone()

    # Then each game's log grew by its 15 moves (and the hands they ended), numbered
    # without a gap, and the baseline wrote one row per move
    for (game_id, _), version in zip(games, versions, strict=True):
        log = await database_sync_to_async(store.read)(stream_of(game_id))
        moves = [r for r in log[version:] if r.type in ("BidPlaced", "CardPlayed")]
        assert len(moves) == 15
        assert [r.sequence for r in log] == list(range(1, len(log) + 1))
    assert rows == (30,)
    assert seconds > 0 and sent > 0
