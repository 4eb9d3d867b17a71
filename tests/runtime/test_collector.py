import asyncio
import gc
import logging
import re
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


async def test_the_collector_runs_on_the_clock_the_younger_generations_only(
    pacing: Callable[..., Any], generations: list[int]
) -> None:
    # Given a pace of a tick every 10 ms, counting the frozen heap every 4th
    await pacing(seconds=0.01, check_every=4)

    # When 8 ticks have passed, the frozen heap not grown
    while len(generations) < 8:
        await asyncio.sleep(0.01)

    # Then only the younger generations were collected, and none on its own
    assert generations[:8] == [1] * 8
    assert not gc.isenabled()


def in_a_generation(kept: object) -> bool:
    """Whether a collection of the old generation would scan ``kept`` (frozen: no)."""
    return any(found is kept for found in gc.get_objects())


async def test_what_survives_a_tick_is_frozen_so_no_collection_scans_it_again(
    pacing: Callable[..., Any], generations: list[int]
) -> None:
    # Given a running pace, and a long-lived object made once it runs
    await pacing(seconds=0.01)
    kept = Node()
    assert gc.is_tracked(kept) and in_a_generation(kept)

    # When a tick passes
    while not generations:
        await asyncio.sleep(0.005)

    # Then it is in no generation: frozen, out of every collection's scan
    assert gc.is_tracked(kept) and not in_a_generation(kept)
    # And the old generation was left empty
    assert gc.get_objects(generation=2) == []


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


async def test_a_cycle_frozen_before_it_was_dropped_is_freed_once_the_frozen_heap_has_grown(
    pacing: Callable[..., Any], generations: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="atu.collector")
    # Given a pace counting the frozen heap every 4th tick, collecting the whole heap
    # once it has grown by a tenth, and a cycle kept alive through a tick (so frozen)
    await pacing(seconds=0.01, check_every=4, thaw_at=1.1)
    kept: Node | None = Node()
    old = weakref.ref(kept)
    while len(generations) < 4:  # the first count
        await asyncio.sleep(0.005)

    # When it is dropped, the count after a tick finds the frozen heap as it was
    kept = None
    seen = len(generations)
    while len(generations) < seen + 4:
        await asyncio.sleep(0.005)

    # Then nothing collected it: only a collection of the whole heap would
    assert 2 not in generations
    assert old() is not None

    # When the frozen heap grows by a fifth, the next count thaws it and collects it whole
    grown = [[] for _ in range(gc.get_freeze_count() // 5)]
    while 2 not in generations:
        await asyncio.sleep(0.005)

    # Then the cycle is freed, and what is alive is frozen again
    assert old() is None
    assert grown and not in_a_generation(grown)
    # And each count was logged, and then the whole collection with what it freed
    said = [r.getMessage() for r in caplog.records if r.name == "atu.collector"]
    assert re.fullmatch(r"\d+ objects frozen, \d+ after the last whole collection", said[0])
    whole = re.fullmatch(
        r"collected the whole heap: \d+ objects frozen, (\d+) freed, in \d+ ms", said[-1]
    )
    assert whole is not None and int(whole[1]) >= 1
