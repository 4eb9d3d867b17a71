"""The ASGI lifespan of a server process: on startup it notes the event loop that
serves the sockets, starts in the background what the apps asked to run at startup
(the games resume their automatic moves, :func:`games.write.automatic.resume_at_startup`),
watches how long that loop is held (:mod:`runtime.looplag`), and hands the garbage
collector to that loop's clock (:mod:`runtime.collector`). On shutdown it waits, a
while, for what the loop runs in the background (:func:`in_background`).

Nothing started holds up the startup: a database that is down or does not answer
would otherwise keep the process from serving at all (its health checks included)."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings

from runtime import collector, looplag

logger = logging.getLogger("atu.lifespan")

_server_loop: asyncio.AbstractEventLoop | None = None
_startup_hooks: list[Callable[[], Awaitable[None]]] = []
_tasks: set[asyncio.Future[Any]] = set()
# How long a shutdown waits for what runs in the background.
SETTLE_SECONDS = 10.0


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The loop that serves this process's sockets (None: not a server process, or
    not serving yet)."""
    loop = _server_loop
    return loop if loop is not None and loop.is_running() else None


def off_the_thread(call: Callable[..., Any], *args: Any) -> None:
    """Run ``call(*args)`` in a thread of the server loop's executor, not waiting for
    it, in a server process; elsewhere (a Celery worker, a command) in place. For what
    may wait on another service, Redis as the broker or the cache: a paused Redis holds
    a call for its socket timeout, and the thread that serves every socket's database
    work must not wait that long."""
    loop = server_loop()
    if loop is None:
        call(*args)
    elif on_server_loop():
        loop.run_in_executor(None, _logged, call, args)
    else:
        loop.call_soon_threadsafe(loop.run_in_executor, None, _logged, call, args)


def _logged(call: Callable[..., Any], args: tuple[Any, ...]) -> None:
    # Nobody waits for it: an error is logged here, or never.
    try:
        call(*args)
    except Exception:
        logger.exception("%s failed in the background", getattr(call, "__qualname__", call))


def on_server_loop() -> bool:
    """Whether this runs on the loop that serves this process's sockets."""
    return _server_loop is not None and _running_loop() is _server_loop


def run_on_server_loop(make: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """Run ``make()`` on the loop that serves this process's sockets, if there is one.

    The in-memory channel layer's queues belong to that loop: a timer thread that
    published through a loop of its own would wake consumers from the wrong thread.
    Called on a loop already (a move written there, see games.write.path), it runs
    next on that loop, in a task held until it is done (a loop holds its tasks only
    weakly). Elsewhere (a Celery worker, a management command, a test) it runs in
    place.
    """
    loop, running = _server_loop, _running_loop()
    if running is not None and (loop is None or running is loop):
        in_background(make())
    elif loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(make(), loop)
    else:
        async_to_sync(make)()


def in_background(awaitable: Awaitable[Any]) -> None:
    """Run ``awaitable`` on the running loop without waiting for it: held until done
    (a loop holds its tasks only weakly), and waited for, a while, by the shutdown."""
    task = asyncio.ensure_future(awaitable)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def settled() -> None:
    """Wait until nothing this loop runs in the background (:func:`in_background`)
    is left, including what those started meanwhile."""
    loop = asyncio.get_running_loop()
    while pending := [task for task in _tasks if task.get_loop() is loop]:
        await asyncio.wait(pending)


def on_startup(hook: Callable[[], Awaitable[None]]) -> None:
    """Have every server process run ``hook()`` in the background as it starts, until
    it shuts down. Apps add theirs from their ``AppConfig.ready``: config knows no app."""
    if hook not in _startup_hooks:
        _startup_hooks.append(hook)


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    global _server_loop
    running: list[asyncio.Task[None]] = []
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _server_loop = asyncio.get_running_loop()
            running.extend(asyncio.ensure_future(hook()) for hook in _startup_hooks)
            running.append(
                asyncio.ensure_future(looplag.watch(record_to=settings.ATU_LOOP_LAG_LOG))
            )
            # Last: what starting up made stays alive, and is frozen.
            running.append(asyncio.ensure_future(collector.pace()))
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            _server_loop = None
            # What a move left to do after its commit (a bot's move to schedule, the
            # championships to tell) is not lost to a restart, unless it hangs.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(settled(), SETTLE_SECONDS)
            for task in running:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await send({"type": "lifespan.shutdown.complete"})
            return
