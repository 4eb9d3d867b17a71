"""A server process's own connections to PostgreSQL for its event loop.

A live move writes one statement (:func:`eventlog.store.append_with_on_loop`). Run
through Django's connection it needs a worker thread: a hop there and back, the
connection's checkout and ``close_old_connections`` around it, and the two threads
handing the GIL to each other several times per move. With psycopg's async driver
the loop writes it itself (decision 1801); the moves that wait while
a write is under way are written together, in one statement (:func:`append`,
decision 1802).

The pool is open while a server process serves: :func:`serve` runs from the
lifespan's startup until its shutdown. Elsewhere (a worker, a test without a
lifespan, SQLite) :func:`available` is false and callers take the thread's way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import psycopg
from django.db import connections
from psycopg_pool import AsyncConnectionPool

from runtime.batching import Batcher
from runtime.outage import closed_by_the_server

# What the loop's pool takes when Django's settings name no pool (they name one in
# production: DATABASE_POOL_*, docs/decisions/0101).
DEFAULT_MAX_SIZE = 4
DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_IDLE = 60.0

_pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
_loop: asyncio.AbstractEventLoop | None = None


def available() -> bool:
    """Whether the running loop has its pool open."""
    if _pool is None:
        return False
    try:
        return asyncio.get_running_loop() is _loop
    except RuntimeError:
        return False


@asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """A connection of the pool, in autocommit: each statement is its own transaction."""
    if _pool is None:
        raise RuntimeError("the event loop's database pool is not open (eventlog.loopdb.serve)")
    async with _pool.connection() as borrowed:
        yield borrowed


def _connection_kwargs(alias: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The psycopg connection arguments Django's ``alias`` connects with (the same
    role, database, timeouts and adapters), and its pool's options."""
    django_connection = connections[alias]
    params = django_connection.get_connection_params()
    # Django's cursor classes are synchronous; the async driver brings its own.
    params.pop("cursor_factory", None)
    params["autocommit"] = True
    options = django_connection.settings_dict.get("OPTIONS", {}).get("pool")
    return params, options if isinstance(options, dict) else {}


async def serve(alias: str = "default") -> None:
    """Keep the pool open until cancelled (the server's shutdown); on PostgreSQL only.
    It opens with no connection: a database that is down delays no startup, and the
    first move opens one (a move waits for it as long as Django's pool would)."""
    global _pool, _loop, _writes
    if connections[alias].vendor != "postgresql":
        return
    params, options = _connection_kwargs(alias)
    # As large as the threads' pool, and as quick to give back what a burst opened;
    # none kept open while no move is made (decision 0101).
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
        kwargs=params,
        min_size=0,
        max_size=max(1, int(options.get("max_size", DEFAULT_MAX_SIZE))),
        timeout=timeout,
        max_idle=float(options.get("max_idle", DEFAULT_MAX_IDLE)),
        # A database that restarted (decision 3702): no connection it closed while
        # idle is lent, and an attempt to connect that keeps failing gives up as
        # Django's pool's does (config/settings/environment.py).
        check=closed_by_the_server,
        reconnect_timeout=float(options.get("reconnect_timeout", timeout)),
        open=False,
    )
    await pool.open(wait=False)
    # This loop's appends, from none (a loop before it, in the tests, left its own).
    _writes = Writes()
    _pool, _loop = pool, asyncio.get_running_loop()
    try:
        await asyncio.Event().wait()
    finally:
        _pool = _loop = None
        _writes.batcher.fail_waiting(RuntimeError("the event loop's database pool closed"))
        await pool.close()


@asynccontextmanager
async def serving(alias: str = "default") -> AsyncIterator[None]:
    """The pool open for the block, as a server's lifespan keeps it open (:func:`serve`):
    for what runs the loop's writes without a lifespan (a benchmark, a test)."""
    task = asyncio.ensure_future(serve(alias))
    # serve returns at once where there is no pool to open (SQLite).
    while not available() and not task.done():
        await asyncio.sleep(0.01)
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


# --- Appends written together ---------------------------------------------------------
#
# Written one by one, every live move would pay a round trip of its own: the server's
# CPU in psycopg and the pool, and a statement and a commit of PostgreSQL's. The appends
# that wait while a write is under way are written together, as one statement and one
# transaction, which costs both sides less per move (decision 1802). A move that finds
# no write under way is written alone at once.

# Writes under way at once: one under way while the next batch gathers.
WRITERS = 2
# Appends per statement at most.
BATCH = 16


@dataclass(frozen=True)
class Append:
    """An INSERT of a stream's records and the UPDATE of its read model (ending in its
    WHERE clause), with their parameters, written as one transaction."""

    stream: str
    insert: str
    insert_params: list[Any]
    update: str
    update_params: list[Any]

    def alone(self) -> tuple[str, list[Any]]:
        """The append as one statement of its own, and its parameters: PostgreSQL's
        data-modifying WITH, in autocommit its own transaction in one round trip.

        The UPDATE waits for the INSERT (its one-time filter reads the inserted rows):
        an unreferenced WITH runs after the main statement, which would lock the read
        model's row before the log's key, the reverse of an append and then its
        projection in a transaction, and two writers racing for one version
        deadlocked."""
        sql = (
            f"WITH appended AS ({self.insert} RETURNING 1) {self.update} "
            "AND EXISTS (SELECT 1 FROM appended)"
        )
        return sql, [*self.insert_params, *self.update_params]


@dataclass
class Writes:
    """This loop's appends, and how many statements and appends were written."""

    statements: int = 0
    appends: int = 0
    batcher: Batcher[Append, int] = field(init=False)

    def __post_init__(self) -> None:
        # Two moves of one game in one statement would update its row twice, in an
        # order PostgreSQL does not keep: one append per stream.
        self.batcher = Batcher(
            lambda batch: _write(batch),  # A lambda: _write is defined below.
            key=lambda append: append.stream,
            limit=BATCH,
            senders=WRITERS,
            distinct=True,
        )


_writes = Writes()


def writes() -> Writes:
    return _writes


async def append(append: Append) -> int:
    """Write ``append``, with the appends of other streams waiting meanwhile; its
    UPDATE's row count. A unique key it breaks (a version taken) raises
    ``psycopg.IntegrityError`` for it alone."""
    return await _writes.batcher.submit(append)


async def _write(batch: list[Append]) -> list[int | Exception]:
    """Write ``batch`` as one statement; where one of its appends breaks a unique key
    (or PostgreSQL gives the transaction up), each is written alone, so that only
    the appends at fault fail."""
    if len(batch) > 1:
        with suppress(psycopg.IntegrityError, psycopg.errors.TransactionRollback):
            return await _execute_together(batch)
    outcomes: list[int | Exception] = []
    for append in batch:
        try:
            sql, params = append.alone()
            async with connection() as borrowed:
                cursor = await borrowed.execute(sql, params)
            _writes.statements += 1
            _writes.appends += 1
            outcomes.append(int(cursor.rowcount))
        except Exception as error:
            outcomes.append(error)
    return outcomes


async def _execute_together(appends: list[Append]) -> list[int | Exception]:
    """Each append's UPDATE row count. No two statements share a stream (the batcher
    holds a batch's streams until it is written), so none waits for another's rows."""
    parts: list[str] = []
    params: list[Any] = []
    counts: list[str] = []
    for number, append in enumerate(appends):
        insert = numbered(append.insert, len(params))
        params += append.insert_params
        update = numbered(append.update, len(params))
        params += append.update_params
        # Each UPDATE waits for its own INSERT, as when written alone.
        parts.append(
            f"a{number} AS ({insert} RETURNING 1), u{number} AS ({update} "
            f"AND EXISTS (SELECT 1 FROM a{number}) RETURNING 1)"
        )
        counts.append(f"(SELECT count(*) FROM u{number})")
    sql = f"WITH {', '.join(parts)} SELECT {', '.join(counts)}"
    async with connection() as borrowed:
        # A raw cursor: the statement comes numbered. psycopg numbers %s itself only
        # by parsing the whole text again, and keeps what it parsed only for short
        # statements, so it would parse every batch anew and make a part object per
        # placeholder for the collector to scan (decision 1802).
        # Not prepared: a batch's statement is one of many shapes.
        cursor = psycopg.AsyncRawCursor(borrowed)
        await cursor.execute(sql, params, prepare=False)
        row = await cursor.fetchone()
    assert row is not None
    _writes.statements += 1
    _writes.appends += len(appends)
    return [int(count) for count in row]


@lru_cache(maxsize=4096)
def numbered(sql: str, after: int) -> str:
    """``sql``, whose parameters are psycopg's ``%s``, with PostgreSQL's own numbered
    placeholders instead, from ``$after+1`` on. The log's statements hold no other
    ``%`` (an INSERT and an UPDATE of quoted names and placeholders); one that did
    (psycopg's ``%%``, a named ``%(name)s``) is refused rather than misnumbered."""
    pieces = sql.split("%s")
    if any("%" in piece for piece in pieces):
        raise ValueError(f"only %s placeholders can be numbered: {sql!r}")
    text = [pieces[0]]
    for number, piece in enumerate(pieces[1:], after + 1):
        text.append(f"${number}{piece}")
    return "".join(text)
