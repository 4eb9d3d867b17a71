"""The ASGI lifespan of a server process: on startup it notes the event loop that
serves the sockets, resumes in the background the automatic moves (bot seats, turn
timers) that a restart would otherwise leave waiting, watches how long that loop is
held (:mod:`config.looplag`), and hands the garbage collector to that loop's clock
(:mod:`config.collector`).

The resume never holds up the startup: a database that is down or does not answer
would otherwise keep the process from serving at all (its health checks included),
and Celery beat resumes the same moves every minute anyway."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connections

from config import collector, looplag

logger = logging.getLogger("atu.lifespan")

_server_loop: asyncio.AbstractEventLoop | None = None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def run_on_server_loop(make: Callable[[], Awaitable[Any]]) -> None:
    """Run ``make()`` on the loop that serves this process's sockets, if there is one.

    The in-memory channel layer's queues belong to that loop: a timer thread that
    published through a loop of its own would wake consumers from the wrong thread.
    Elsewhere (a Celery worker, a management command, a test) it runs in place.
    """
    loop = _server_loop
    if loop is not None and loop.is_running() and _running_loop() is not loop:
        asyncio.run_coroutine_threadsafe(make(), loop)
    else:
        async_to_sync(make)()


def _resume_in_thread() -> int:
    from games.turns import resume_automatic_moves

    try:
        return resume_automatic_moves()
    finally:
        # The thread ends with the loop's executor: a connection it kept would never
        # go back to the pool.
        connections.close_all()


async def _resume_automatic_moves() -> None:
    logger.info("resuming automatic moves")
    try:
        # Not thread-sensitive: a database that does not answer must not hold the
        # one thread that serves every request's synchronous code.
        resumed = await sync_to_async(_resume_in_thread, thread_sensitive=False)()
    except Exception:
        # A server that cannot resume bots (say, before migrating) still serves.
        logger.exception("could not resume automatic moves; Celery beat resumes them later")
    else:
        logger.info("resumed automatic moves in %d games", resumed)


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    global _server_loop
    running: list[asyncio.Task[None]] = []
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _server_loop = asyncio.get_running_loop()
            running.append(asyncio.ensure_future(_resume_automatic_moves()))
            running.append(
                asyncio.ensure_future(looplag.watch(record_to=settings.ATU_LOOP_LAG_LOG))
            )
            # Last: what starting up made stays alive, and is frozen.
            running.append(asyncio.ensure_future(collector.pace()))
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            _server_loop = None
            for task in running:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await send({"type": "lifespan.shutdown.complete"})
            return
