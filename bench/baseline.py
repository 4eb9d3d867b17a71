"""The yardstick of ``bench/live.py``: a server that does a live move's necessary work
and nothing else. Served by uvicorn as Atu is (``bench.baseline:app``), with no Django
and no Channels.

For each move a player's socket sends, the process that holds the socket checks it
against a tiny in-memory table (whose turn, which version), writes one row to
PostgreSQL (one INSERT, committed: the move is durable before anything is told),
answers the mover, and publishes one Redis message on the table's channel. Every
process subscribes to the channels of the tables it holds sockets of, as Atu's do,
and on each message sends each of its sockets of that table a message built for
that viewer: the move as an event, and the view's changes (the turn, the version,
what the viewer may play), padded to ``BASELINE_MESSAGE_BYTES``, the size of Atu's
``?with_state=changes`` message measured in the same run.

It speaks enough of Atu's protocol for ``bench/live.py``'s clients: the path
``/ws/games/<table>/``, a ``sessionid`` cookie ``seat-<n>`` for a player (none for a
spectator), a ``state`` message on connect, then ``events``, ``ack`` and ``error``.
Environment: ``BASELINE_DATABASE_URL``, ``REDIS_URL``, ``BASELINE_MESSAGE_BYTES``,
``BASELINE_SEATS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from runtime import looplag

SEATS = int(os.environ.get("BASELINE_SEATS", "4"))
MESSAGE_BYTES = int(os.environ.get("BASELINE_MESSAGE_BYTES", "0"))
CHANNEL_PREFIX = "baseline:"
CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS baseline_move (
    stream text NOT NULL,
    sequence integer NOT NULL,
    payload jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream, sequence)
)
"""
INSERT = "INSERT INTO baseline_move (stream, sequence, payload) VALUES (%s, %s, %s)"
# What a player to move may play: the clients pick among these.
LEGAL = {"cards": ["AS"], "hidden_card": False, "bids": [], "modes": []}
NOTHING = {"cards": [], "hidden_card": False, "bids": [], "modes": []}


@dataclass
class Table:
    # As a seeded Atu table, it has a history: the clients move on a version over 0.
    version: int = 1
    turn: int = 0
    # This process's sockets of the table: (send, seat or None for a spectator).
    sockets: list[tuple[Any, int | None]] = field(default_factory=list)

    def changes(self, seat: int | None) -> dict[str, Any]:
        return {
            "version": self.version,
            "hand": {"turn": self.turn},
            "legal": LEGAL if seat == self.turn else NOTHING,
        }


@dataclass
class Process:
    pool: Any = None
    redis: Any = None
    pubsub: Any = None
    reader: asyncio.Task[None] | None = None
    watcher: asyncio.Task[None] | None = None
    tables: dict[str, Table] = field(default_factory=dict)


PROCESS = Process()


def padded(message: dict[str, Any]) -> str:
    """``message`` as JSON, its ``state`` (the last member) padded to MESSAGE_BYTES:
    encoded once, as Atu encodes each message once."""
    text = json.dumps(message, separators=(",", ":"))
    missing = MESSAGE_BYTES - len(text) - len(',"pad":""')
    if missing <= 0:
        return text
    # The text ends with the state's brace, then the message's.
    return f'{text[:-2]},"pad":"{"x" * missing}"}}}}'


async def open_pool() -> Any:
    """The process's pool of connections to the baseline's database, open."""
    from psycopg_pool import AsyncConnectionPool

    pool = AsyncConnectionPool(
        os.environ["BASELINE_DATABASE_URL"],
        min_size=2,
        max_size=10,
        kwargs={"autocommit": True},
        open=False,
    )
    await pool.open(wait=True)
    return pool


async def startup() -> None:
    import psycopg
    import redis.asyncio as redis

    pool = await open_pool()
    async with pool.connection() as connection:
        # Another process may create it at the same moment: IF NOT EXISTS races.
        with contextlib.suppress(psycopg.errors.UniqueViolation):
            await connection.execute(CREATE_TABLE)
    PROCESS.pool = pool
    PROCESS.redis = redis.Redis.from_url(os.environ["REDIS_URL"])
    PROCESS.pubsub = PROCESS.redis.pubsub(ignore_subscribe_messages=True)
    # A subscription first, so that the reader has a connection to listen on.
    await PROCESS.pubsub.subscribe(f"{CHANNEL_PREFIX}-")
    PROCESS.reader = asyncio.ensure_future(read_published())
    # The loop's holds are recorded as Atu's servers record theirs.
    lag_log = os.environ.get("ATU_LOOP_LAG_LOG")
    PROCESS.watcher = asyncio.ensure_future(
        looplag.watch(record_to=Path(lag_log) if lag_log else None)
    )


async def shutdown() -> None:
    for task in (PROCESS.reader, PROCESS.watcher):
        if task is not None:
            task.cancel()
    await PROCESS.pubsub.aclose()
    await PROCESS.redis.aclose()
    await PROCESS.pool.close()


async def read_published() -> None:
    """Deliver each published move to this process's sockets of its table."""
    async for published in PROCESS.pubsub.listen():
        name = published["channel"].decode()[len(CHANNEL_PREFIX) :]
        table = PROCESS.tables.get(name)
        if table is None:
            continue
        move = json.loads(published["data"])
        if move["version"] <= table.version:
            continue
        table.version, table.turn = move["version"], move["turn"]
        event = {"sequence": move["version"], "type": "CardPlayed", **move["event"]}
        for send, seat in list(table.sockets):
            message = {
                "type": "events",
                "version": table.version,
                "events": [event],
                "state": table.changes(seat),
            }
            await send({"type": "websocket.send", "text": padded(message)})


async def move(
    name: str, table: Table, seat: int | None, command: dict[str, Any]
) -> dict[str, Any]:
    """Decide, write, publish: the move's answer to its socket."""
    version = table.version
    if seat is None or seat != table.turn or command.get("expected_version") != version:
        return {"type": "error", "code": "stale", "command": command.get("type")}
    event = {"seat": seat, "card": command.get("card")}
    async with PROCESS.pool.connection() as connection:
        try:
            await connection.execute(INSERT, (name, version + 1, json.dumps(event)))
        except Exception:  # The sequence was taken by a racer: refused, as Atu would.
            return {"type": "error", "code": "version_conflict", "command": command.get("type")}
    published = {"version": version + 1, "turn": (seat + 1) % SEATS, "event": event}
    await PROCESS.redis.publish(f"{CHANNEL_PREFIX}{name}", json.dumps(published))
    return {"type": "ack", "command": command.get("type"), "version": version + 1}


def seat_of(scope: dict[str, Any]) -> int | None:
    for header, value in scope.get("headers", []):
        if header == b"cookie":
            morsel = SimpleCookie(value.decode()).get("sessionid")
            if morsel is not None and morsel.value.startswith("seat-"):
                return int(morsel.value[len("seat-") :])
    return None


async def websocket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    parts = scope["path"].strip("/").split("/")
    if len(parts) != 3 or parts[:2] != ["ws", "games"]:
        await send({"type": "websocket.close", "code": 4404})
        return
    name = parts[2]
    seat = seat_of(scope)
    table = PROCESS.tables.get(name)
    if table is None:
        table = PROCESS.tables[name] = Table()
        await PROCESS.pubsub.subscribe(f"{CHANNEL_PREFIX}{name}")
    entry = (send, seat)
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                table.sockets.append(entry)
                state = {**table.changes(seat), "you": seat, "status": "playing"}
                text = json.dumps({"type": "state", "state": state})
                await send({"type": "websocket.send", "text": text})
            elif message["type"] == "websocket.receive":
                answer = await move(name, table, seat, json.loads(message["text"]))
                await send({"type": "websocket.send", "text": json.dumps(answer)})
            else:
                return
    finally:
        if entry in table.sockets:
            table.sockets.remove(entry)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await websocket(scope, receive, send)
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
    else:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})
