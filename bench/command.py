"""Benchmark of a live move's command on a server's event loop, in one process and
without sockets: the part of a move's CPU that ``bench/live.py`` resolves only to about
5% on a 2-core machine shared with its load generator.

Production mode only (``DATABASE_URL`` and ``REDIS_URL``): a server's loop writes
through PostgreSQL's async driver. On a throwaway test database, each round starts
``--games`` 4-player Championship games, each game's vault read as a player's watch
reads it, and makes ``--moves`` moves round-robin across them, the first legal bid or
card of whoever is to act, through ``games.write.path.execute_on_loop``, the way a
socket's bid or card goes: decided on the cached table, written in one statement,
published on the channel layer, and what follows the commit run (hand ends included).

The baseline, in the same run and on the same loop, does for as many moves what any
server must: check the move against a tiny in-memory table (whose turn, which
version), INSERT one row committed on one psycopg async connection, and publish on
Redis a message of the bytes of Atu's broadcasts. Printed: the process's CPU per move
(all its threads: the median and the fastest of the rounds, Atu's and the baseline's
alternated), and the ratio Atu / baseline.

Run: ``.venv/bin/python -m bench.command [--games 20] [--moves 1000] [--rounds 5]``
with ``DATABASE_URL`` and ``REDIS_URL`` set (and ``SECRET_KEY``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import django
import orjson

from bench.baseline import CREATE_TABLE, INSERT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# A throwaway database: production mode wants a key, and no session outlives the run.
os.environ.setdefault("SECRET_KEY", "bench-throwaway-database-key-not-for-production")

SEATS = 4


def started_games(count: int, round_number: int) -> list[tuple[uuid.UUID, dict[int, Any]]]:
    """``count`` started games, each with its players by id, its vault read and its
    table cached (committed, so trusted), as a server holds a table its players watch."""
    from bench.write_path import started_game
    from games.write.tables import load_table
    from games.write.vault import keep_vault

    games = []
    for number in range(count):
        game, users = started_game(f"bench-{round_number}-{number}")
        keep_vault(game.id, load_table(game.id))
        games.append((game.id, {user.pk: user for user in users}))
    return games


def next_move(game_id: uuid.UUID, table: Any, players: dict[int, Any]) -> Any:
    """The first legal move of whoever is to act."""
    from games.commands import actions
    from games.rules import Phase, legal_bids, legal_plays

    state = table.romanian_game
    seat = table.seats[state.turn]
    common = {
        "game_id": game_id,
        "actor": players[seat.user_id],
        "expected_version": table.version,
    }
    if state.phase is Phase.BIDDING:
        return actions.move_place_bid(bid=legal_bids(state)[0], **common)
    return actions.move_play_card(card=str(legal_plays(state)[0]), **common)


async def atu_round(games: list[tuple[uuid.UUID, dict[int, Any]]], moves: int) -> tuple[float, int]:
    """CPU seconds for ``moves`` moves through the loop's write path, and the bytes of
    the broadcasts' records."""
    from eventlog import store
    from games.write.path import execute_on_loop
    from games.write.tables import cached_table
    from runtime.lifespan import settled

    tables = {game_id: cached_table(game_id) for game_id, _ in games}
    sent = 0
    start = time.process_time()
    for game_id, players in itertools.islice(itertools.cycle(games), moves):
        result = await execute_on_loop(next_move(game_id, tables[game_id], players))
        tables[game_id] = result.table
        sent += len(orjson.dumps([store.record_to_message(r) for r in result.records]))
    await settled()
    return time.process_time() - start, sent


async def baseline_round(connection: Any, redis: Any, moves: int, games: int, size: int) -> float:
    """CPU seconds for ``moves`` moves' necessary work, round-robin on ``games`` tables."""
    versions, turns = [0] * games, [0] * games
    payload = b"x" * size
    start = time.process_time()
    for number in range(moves):
        index = number % games
        # The move as a client sends it: the seat to act, at the version it saw.
        seat, version = number // games % SEATS, number // games
        if seat != turns[index] or version != versions[index]:
            raise AssertionError("the baseline's moves are always legal")
        stream = f"bench:{index}"
        await connection.execute(INSERT, (stream, version + 1, '{"card": "AS"}'))
        versions[index], turns[index] = version + 1, (seat + 1) % SEATS
        await redis.publish(stream, payload)
    return time.process_time() - start


def redis_address() -> str:
    """The Redis the channel layer publishes to."""
    from django.conf import settings

    layer: Any = settings.CHANNEL_LAYERS["default"]
    return str(layer["CONFIG"]["hosts"][0]["address"])


async def run(games: int, moves: int, rounds: int) -> tuple[list[float], list[float], int]:
    """Per-move CPU (µs) of each of Atu's rounds and the baseline's, and the records'
    bytes per move."""
    import redis.asyncio
    from channels.db import database_sync_to_async

    from eventlog import loopdb

    atu, base = [], []
    size = 0
    client = redis.asyncio.Redis.from_url(redis_address())
    async with loopdb.serving(), loopdb.connection() as connection:
        await connection.execute(CREATE_TABLE)
        for number in range(rounds):
            started = await database_sync_to_async(started_games)(games, number)
            seconds, sent = await atu_round(started, moves)
            atu.append(seconds / moves * 1e6)
            size = sent // moves
            await connection.execute("TRUNCATE baseline_move")
            base.append(await baseline_round(connection, client, moves, games, size) / moves * 1e6)
    await client.aclose()
    return atu, base, size


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games moving round-robin")
    parser.add_argument("--moves", type=int, default=1000, help="moves per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each")
    args = parser.parse_args(argv)
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        parser.error("production mode only: set DATABASE_URL (PostgreSQL) and REDIS_URL")
    django.setup()
    from bench.timing import print_cpu_ratio
    from bench.write_path import throwaway_database

    with throwaway_database():
        atu, base, size = asyncio.run(run(args.games, args.moves, args.rounds))
    print(
        f"Command benchmark: {args.rounds} rounds of {args.moves} moves on {args.games} "
        f"4-player Championship games, {size} B of records per move"
    )
    print_cpu_ratio("move", ("Atu (execute_on_loop)", atu), ("baseline", base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
