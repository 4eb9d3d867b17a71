import asyncio
import gc
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from runtime import collector


class Node:
    """A reference cycle of one: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def garbage_cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


@pytest.fixture
def generations() -> Iterator[list[int]]:
    """The generation of each collection from now on."""
    collected: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(note)
    yield collected
    gc.callbacks.remove(note)


@pytest.fixture
async def pacing(generations: list[int]) -> AsyncIterator[Callable[..., Any]]:
    """Start a pace; once it runs, ``generations`` holds only its own collections."""
    tasks: list[asyncio.Task[None]] = []

    async def start(**kwargs: Any) -> asyncio.Task[None]:
        task = asyncio.ensure_future(collector.pace(**kwargs))
        tasks.append(task)
        await asyncio.sleep(0)
        generations.clear()
        return task

    yield start
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_the_collector_runs_on_the_clock_the_younger_generations_then_the_whole_heap(
    pacing: Callable[..., Any], generations: list[int]
) -> None:
    # Given a pace of a tick every 10 ms, the whole heap every 4th
    await pacing(seconds=0.01, full_every=4)

    # When 8 ticks have passed
    while len(generations) < 8:
        await asyncio.sleep(0.01)

    # Then the collections were of these generations, and none started on its own
    assert generations[:8] == [1, 1, 1, 2, 1, 1, 1, 2]
    assert not gc.isenabled()


async def test_cyclic_garbage_is_freed_at_the_next_tick_and_everything_is_as_before_once_stopped(
    pacing: Callable[..., Any],
) -> None:
    # Given a running pace, and a reference cycle dropped at once
    task = await pacing(seconds=0.01)
    dropped = garbage_cycle()
    assert dropped() is not None

    # When a tick passes
    await asyncio.sleep(0.05)

    # Then the cycle is freed, although automatic collections are off
    assert dropped() is None
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0

    # And once the pace is cancelled, the collector is automatic again, nothing frozen
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


async def test_a_cycle_that_grew_old_before_it_was_dropped_waits_for_the_full_collection(
    pacing: Callable[..., Any], generations: list[int]
) -> None:
    # Given a pace whose full collection comes every 8th tick, and a cycle kept alive
    # through a collection of the younger generations (so into the old one)
    await pacing(seconds=0.01, full_every=8)
    kept: Node | None = Node()
    old = weakref.ref(kept)
    while not generations:
        await asyncio.sleep(0.005)

    # When it is dropped, it outlives the collections of the younger generations
    kept = None
    seen = len(generations)
    while 2 not in generations[seen:]:
        assert old() is not None
        await asyncio.sleep(0.005)

    # Then the full collection frees it
    assert old() is None
