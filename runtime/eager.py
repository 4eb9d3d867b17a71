"""Coroutines started at once, in their caller's turn of the event loop, that become
tasks only if they have to wait.

A task costs its creation, a copy of the context, a turn of the loop before it starts
and a step of its own. Handing a broadcast to each socket as a task would make one per
socket and move, though the send nearly always runs to its end without waiting: the
socket's message is built in memory and written to its transport (decision 1801).
Python 3.12 starts tasks eagerly (``asyncio.eager_task_factory``); this is the same for
one coroutine, on 3.11 too.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine, Generator
from typing import Any


def start(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coroutine`` now, up to the first thing it waits for: None if it finished
    without waiting, or else the task that carries it on from there. What it raises
    before it waits is raised here.

    It runs in a copy of the caller's context, as a task would: what it sets there
    (asgiref marks its thread as taken before it waits, and unmarks it after) stays
    its own."""
    context = contextvars.copy_context()
    try:
        waited = context.run(coroutine.send, None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_CarriedOn(coroutine, waited), context=context)


_HANDED = object()


class _CarriedOn(Coroutine[Any, Any, None]):
    """``coroutine`` as its own task would carry it on from the first thing it waits
    for (``waited``): the task's first step is handed that, and every later step,
    a cancellation among them, goes to the coroutine where it waits."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waited: Any) -> None:
        self._coroutine = coroutine
        self._waited = waited

    def send(self, value: Any) -> Any:
        waited, self._waited = self._waited, _HANDED
        if waited is not _HANDED:
            return waited
        return self._coroutine.send(value)

    def throw(self, *error: Any) -> Any:
        self._waited = _HANDED
        return self._coroutine.throw(*error)

    def close(self) -> None:
        self._coroutine.close()

    def __await__(self) -> Generator[Any, Any, None]:
        return self  # An iterator of its own, as a generator is.

    def __iter__(self) -> _CarriedOn:
        return self

    def __next__(self) -> Any:
        return self.send(None)
