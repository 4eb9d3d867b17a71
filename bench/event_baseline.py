"""The yardstick of ``bench/event.py``: a server that does a leaderboard update's
necessary work and nothing else. Served by uvicorn as Atu is
(``bench.event_baseline:app``), with no Django and no Channels.

For each deal a client POSTs to ``/api/games/<table>/deals/`` (``{"hand", "bids",
"tricks"}``), the process that takes it writes the deal and its table's standings in
one committed transaction (one INSERT into the log, one UPDATE of the table's four
players' rows), reads the event's standings rows back (one query), and publishes
the leaderboard built from them on one Redis channel: each player's points and rank,
each table's deals scored, padded to ``BASELINE_MESSAGE_BYTES`` (the size of Atu's
picture of the event, measured in the same run). A confirmation,
``/api/games/<table>/deals/confirm/``, is one INSERT committed.

Every process subscribes to the channel once and sends each leaderboard, as one text
encoded once, to each of its sockets on ``/ws/events/<code>/``; a socket gets the
current leaderboard when it connects (one query). A leaderboard published while the
last is still being sent replaces any that waits: each socket gets the newest, as
Atu's sockets read the newest picture, and none falls further behind.

The tables ``baseline_deal``, ``baseline_confirmation`` and ``baseline_standing`` are
made and filled by the bench (:func:`create_tables`) before the servers start.
Environment: ``BASELINE_DATABASE_URL``, ``REDIS_URL``, ``BASELINE_MESSAGE_BYTES``,
and ``ATU_LOOP_LAG_LOG`` (where the loop's holds are recorded, as Atu's servers do).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.baseline import open_pool, padded
from runtime import looplag

CHANNEL = "baseline-event"
TABLES = """
CREATE TABLE baseline_deal (
    tbl text NOT NULL,
    hand integer NOT NULL,
    payload jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tbl, hand)
);
CREATE TABLE baseline_confirmation (
    tbl text NOT NULL,
    hand integer NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tbl, hand)
);
CREATE TABLE baseline_standing (
    player integer PRIMARY KEY,
    tbl text NOT NULL,
    seat integer NOT NULL,
    points integer NOT NULL DEFAULT 0,
    hands integer NOT NULL DEFAULT 0
);
CREATE INDEX baseline_standing_tbl ON baseline_standing (tbl)
"""
INSERT_DEAL = "INSERT INTO baseline_deal (tbl, hand, payload) VALUES (%s, %s, %s)"
INSERT_CONFIRMATION = "INSERT INTO baseline_confirmation (tbl, hand) VALUES (%s, %s)"
SCORE = """
UPDATE baseline_standing SET points = points + (%s::integer[])[seat + 1], hands = %s
WHERE tbl = %s
"""
STANDINGS = "SELECT player, tbl, points, hands FROM baseline_standing ORDER BY points DESC, player"


def create_tables(database_url: str, tables: Sequence[tuple[str, Sequence[int]]]) -> None:
    """The baseline's tables, with a standings row for each player of ``tables``
    (each a table's name and its players, by seat)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as connection:
        for statement in TABLES.split(";"):
            connection.execute(statement)
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO baseline_standing (player, tbl, seat) VALUES (%s, %s, %s)",
                [
                    (player, name, seat)
                    for name, players in tables
                    for seat, player in enumerate(players)
                ],
            )


def deal_points(bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """Each seat's points for a deal: 5 and the bid if made exactly, else the miss."""
    return [
        5 + bid if bid == won else -abs(bid - won) for bid, won in zip(bids, tricks, strict=True)
    ]


def leaderboard(rows: Sequence[tuple[int, str, int, int]], version: int) -> str:
    """The standings rows as the sockets get them: ranked players, each table's deals
    scored, padded to Atu's picture's size."""
    tables: dict[str, int] = {}
    for _, name, _, hands in rows:
        tables[name] = hands
    message = {
        "type": "event",
        "version": version,
        "event": {
            "leaderboard": [
                {"rank": rank, "player_id": player, "points": points}
                for rank, (player, _, points, _) in enumerate(rows, 1)
            ],
            "tables": [{"game_id": name, "hands_scored": hands} for name, hands in tables.items()],
        },
    }
    return padded(message)


@dataclass
class Process:
    pool: Any = None
    redis: Any = None
    pubsub: Any = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    sockets: set[Any] = field(default_factory=set)
    # The newest leaderboard not yet sent, and the news of it.
    waiting: str | None = None
    news: asyncio.Event = field(default_factory=asyncio.Event)
    published: int = 0


PROCESS = Process()


async def startup() -> None:
    import redis.asyncio as redis

    PROCESS.pool = await open_pool()
    PROCESS.redis = redis.Redis.from_url(os.environ["REDIS_URL"])
    PROCESS.pubsub = PROCESS.redis.pubsub(ignore_subscribe_messages=True)
    await PROCESS.pubsub.subscribe(CHANNEL)
    lag_log = os.environ.get("ATU_LOOP_LAG_LOG")
    PROCESS.tasks = [
        asyncio.ensure_future(read_published()),
        asyncio.ensure_future(send_leaderboards()),
        asyncio.ensure_future(looplag.watch(record_to=Path(lag_log) if lag_log else None)),
    ]


async def shutdown() -> None:
    for task in PROCESS.tasks:
        task.cancel()
    await PROCESS.pubsub.aclose()
    await PROCESS.redis.aclose()
    await PROCESS.pool.close()


async def read_published() -> None:
    async for published in PROCESS.pubsub.listen():
        PROCESS.waiting = published["data"].decode()
        PROCESS.news.set()


async def send_leaderboards() -> None:
    """Send the newest leaderboard to every socket of this process, one after another."""
    while True:
        await PROCESS.news.wait()
        PROCESS.news.clear()
        text, PROCESS.waiting = PROCESS.waiting, None
        if text is None:
            continue
        for send in list(PROCESS.sockets):
            try:
                await send({"type": "websocket.send", "text": text})
            except Exception:  # Closed meanwhile: its handler forgets it.
                PROCESS.sockets.discard(send)


async def standings(connection: Any) -> list[tuple[int, str, int, int]]:
    cursor = await connection.execute(STANDINGS)
    return list(await cursor.fetchall())


async def record(name: str, command: str, data: dict[str, Any]) -> dict[str, Any]:
    """Write the deal or the confirmation; a deal's leaderboard is published."""
    hand = int(data["hand"])
    async with PROCESS.pool.connection() as connection:
        if command == "confirm":
            await connection.execute(INSERT_CONFIRMATION, (name, hand))
            return {"version": hand}
        async with connection.transaction():
            await connection.execute(INSERT_DEAL, (name, hand, json.dumps(data)))
            points = deal_points(data["bids"], data["tricks"])
            await connection.execute(SCORE, (points, hand + 1, name))
        rows = await standings(connection)
    PROCESS.published += 1
    await PROCESS.redis.publish(CHANNEL, leaderboard(rows, PROCESS.published))
    return {"version": hand}


async def http(scope: dict[str, Any], receive: Any, send: Any) -> None:
    parts = scope["path"].strip("/").split("/")
    command = {4: "deal", 5: "confirm"}.get(len(parts))
    if scope["method"] != "POST" or parts[:2] != ["api", "games"] or command is None:
        status, answer = 404, {"code": "not_found"}
    else:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, answer = 200, await record(parts[2], command, json.loads(body))
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": json.dumps(answer).encode()})


async def websocket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    parts = scope["path"].strip("/").split("/")
    if len(parts) != 3 or parts[:2] != ["ws", "events"]:
        await send({"type": "websocket.close", "code": 4404})
        return
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                async with PROCESS.pool.connection() as connection:
                    rows = await standings(connection)
                await send({"type": "websocket.send", "text": leaderboard(rows, 0)})
                PROCESS.sockets.add(send)
            elif message["type"] == "websocket.disconnect":
                return
    finally:
        PROCESS.sockets.discard(send)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await websocket(scope, receive, send)
    elif scope["type"] == "http":
        await http(scope, receive, send)
    elif scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await startup()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return
