"""The ASGI lifespan of a server process: on startup it resumes the automatic moves
(bot seats, turn timers) that a restart would otherwise leave waiting, notes the
event loop that serves the sockets, and hands the garbage collector to that loop's
clock (:mod:`config.collector`)."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async

from config import collector

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


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    from games.turns import resume_automatic_moves

    global _server_loop
    collecting: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _server_loop = asyncio.get_running_loop()
            try:
                resumed = await sync_to_async(resume_automatic_moves)()
                logger.info("resumed automatic moves in %d games", resumed)
            except Exception:
                # A server that cannot resume bots (say, before migrating) still serves.
                logger.exception("could not resume automatic moves")
            # Last: what starting up made stays alive, and is frozen.
            collecting = asyncio.ensure_future(collector.pace())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            _server_loop = None
            if collecting is not None:
                collecting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await collecting
            await send({"type": "lifespan.shutdown.complete"})
            return
