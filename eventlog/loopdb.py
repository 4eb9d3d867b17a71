"""A server process's own connections to PostgreSQL for its event loop.

A live move writes one statement (:func:`eventlog.store.append_with_on_loop`). Run
through Django's connection it needs a worker thread: a hop there and back, the
connection's checkout and ``close_old_connections`` around it, and the two threads
handing the GIL to each other several times per move. With psycopg's async driver
the loop writes it itself (issue 18, docs/benchmarks.md).

The pool is open while a server process serves: :func:`serve` runs from the
lifespan's startup until its shutdown. Elsewhere (a worker, a test without a
lifespan, SQLite) :func:`available` is false and callers take the thread's way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import psycopg
from django.db import connections
from psycopg_pool import AsyncConnectionPool

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
    global _pool, _loop
    if connections[alias].vendor != "postgresql":
        return
    params, options = _connection_kwargs(alias)
    # As large as the threads' pool, and as quick to give back what a burst opened;
    # none kept open while no move is made (decision 0101).
    pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
        kwargs=params,
        min_size=0,
        max_size=max(1, int(options.get("max_size", DEFAULT_MAX_SIZE))),
        timeout=float(options.get("timeout", DEFAULT_TIMEOUT)),
        max_idle=float(options.get("max_idle", DEFAULT_MAX_IDLE)),
        open=False,
    )
    await pool.open(wait=False)
    _pool, _loop = pool, asyncio.get_running_loop()
    try:
        await asyncio.Event().wait()
    finally:
        _pool = _loop = None
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
