import asyncio
import gc
import itertools
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from config import collector


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


@pytest.mark.parametrize(
    ("interval", "woke_late", "following"),
    [
        (0.05, 0.0, 0.05),
        (0.05, 0.01, 0.05),
        (0.05, 0.011, 0.1),
        (0.4, 0.03, 0.8),
        (4.0, 0.5, 5.0),
        (4.0, 0.002, 2.0),
        (0.08, 0.0, 0.05),
    ],
)
def test_the_interval_doubles_while_the_loop_is_behind_and_halves_once_it_is_on_time(
    interval: float, woke_late: float, following: float
) -> None:
    # Given a young collection `interval` after the one before, whose tick woke
    # `woke_late` seconds after it was due
    # When the pace asks when to collect next (behind: a tick over 10 ms late)
    # Then it waits twice as long while behind, half as long on time, within 50 ms-5 s
    assert collector.next_interval(
        interval, woke_late, seconds=0.05, longest=5.0, late=0.01
    ) == pytest.approx(following)


async def test_the_younger_generations_are_collected_on_the_clock_and_the_whole_heap_in_its_time(
    pacing: Callable[..., Any], generations: list[int]
) -> None:
    # Given a pace of a young collection every 10 ms (whatever it costs), and of the
    # whole heap once 300 ms have passed
    await pacing(seconds=0.01, late=1.0, full_seconds=0.3)

    # When the whole heap has been collected, and one more collection has come
    while 2 not in generations:
        await asyncio.sleep(0.01)
    first_full = generations.index(2)
    while len(generations) == first_full + 1:
        await asyncio.sleep(0.01)

    # Then the younger generations were collected several times before, the whole heap
    # was not collected again at once, and no collection started on its own
    assert first_full >= 5
    assert set(generations[:first_full]) == {1}
    assert generations[first_full + 1] == 1
    assert not gc.isenabled()


async def test_while_the_loop_is_behind_the_collections_come_less_often_up_to_the_longest(
    pacing: Callable[..., Any],
) -> None:
    # Given the start time of each collection, and a pace that counts any tick woken
    # late as behind, with intervals from 10 ms to 80 ms
    starts: list[float] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            starts.append(time.monotonic())

    gc.callbacks.append(note)
    try:
        await pacing(seconds=0.01, longest=0.08, late=-1.0)
        starts.clear()

        # When six collections have come
        while len(starts) < 6:
            await asyncio.sleep(0.005)
    finally:
        gc.callbacks.remove(note)

    # Then the intervals doubled, 20, 40 and 80 ms, and stayed at the longest
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    least = [0.019, 0.039, 0.079, 0.079, 0.079]
    assert [gap >= floor for gap, floor in zip(gaps[:5], least, strict=True)] == [True] * 5


async def test_cyclic_garbage_is_freed_at_the_next_tick_and_everything_is_as_before_once_stopped(
    pacing: Callable[..., Any],
) -> None:
    # Given a running pace, and a reference cycle dropped at once
    task = await pacing(seconds=0.01, late=1.0)
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
    # Given a pace whose full collection comes every 100 ms, and a cycle kept alive
    # through a collection of the younger generations (so into the old one)
    await pacing(seconds=0.01, late=1.0, full_seconds=0.1)
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
