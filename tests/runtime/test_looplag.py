import asyncio
import gc
import logging
import re
import time
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

from runtime import looplag


async def watch_while(
    blocking_seconds: float, tmp_path: Path, *, holds: int = 1, stacks_every: float = 10.0
) -> list[tuple[float, float]]:
    """Given a watch recording every 0.1 s, when the loop is held ``blocking_seconds``
    by a synchronous call (``holds`` times, in periods apart), then the recorded (time,
    largest gap ms) lines."""
    record = tmp_path / "lag.log"
    watching = asyncio.ensure_future(
        looplag.watch(tick=0.01, period=0.1, record_to=record, stacks_every=stacks_every)
    )
    await asyncio.sleep(0.25)
    for _ in range(holds):
        hold_the_loop(blocking_seconds)
        await asyncio.sleep(0.25)
    watching.cancel()
    with pytest.raises(asyncio.CancelledError):
        await watching
    return [
        (float(stamp), float(gap))
        for stamp, gap in (line.split() for line in record.read_text().splitlines())
    ]


def hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # a synchronous call made on the loop


def held_messages(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    """The warnings logged, as (ms held, what held it)."""
    held = []
    for record in caplog.records:
        if record.name == "atu.looplag":
            found = re.fullmatch(r"event loop held (\d+) ms(?:; (.*))?", record.getMessage())
            assert found is not None, record.getMessage()
            held.append((int(found[1]), found[2] or ""))
    return held


async def test_a_synchronous_call_that_holds_the_loop_is_recorded_as_its_largest_gap(
    tmp_path: Path,
) -> None:
    lines = await watch_while(0.3, tmp_path)

    gaps = [gap for _, gap in lines]
    assert 280 <= max(gaps) < 400
    # The periods around it saw only the tick's own jitter.
    assert sorted(gaps)[-2] < 100
    assert len(lines) >= 4


async def test_a_hold_over_the_warning_level_is_logged_once_for_its_period(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.3, tmp_path)

    [(ms, _)] = held_messages(caplog)
    assert 280 <= ms < 400


async def test_a_hold_is_logged_with_the_loop_threads_stack_sampled_during_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.3, tmp_path)

    [(_, what)] = held_messages(caplog)
    # Sampled every 50 ms from 100 ms late: the innermost frame is the call that held it.
    samples = re.fullmatch(r"(\d)/(\d) samples running (.*)", what)
    assert samples is not None, what
    assert samples[1] == samples[2] and 2 <= int(samples[1]) <= 4
    frames = samples[3].split(" < ")
    assert re.fullmatch(r"tests/runtime/test_looplag\.py:\d+ hold_the_loop", frames[0])
    assert re.fullmatch(r"tests/runtime/test_looplag\.py:\d+ watch_while", frames[1])


async def test_the_stacks_of_holds_are_told_at_most_once_in_stacks_every(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.2, tmp_path, holds=2)

    [(_, first), (_, second)] = held_messages(caplog)
    assert "hold_the_loop" in first
    assert second == ""


async def test_a_hold_by_a_garbage_collection_says_its_generation_and_length(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    record = tmp_path / "lag.log"
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        watching = asyncio.ensure_future(looplag.watch(tick=0.01, period=0.1, record_to=record))
        await asyncio.sleep(0.25)
        gc.callbacks.append(slow := slow_collection)
        try:
            gc.collect(2)
        finally:
            gc.callbacks.remove(slow)
        await asyncio.sleep(0.25)
        watching.cancel()
        with pytest.raises(asyncio.CancelledError):
            await watching

    [(ms, what)] = held_messages(caplog)
    found = re.match(r"a generation-2 collection (\d+) ms; ", what)
    assert found is not None, what
    assert int(found[1]) >= 280 and ms >= 280


def slow_collection(phase: str, info: dict[str, Any]) -> None:
    # Called inside the collection, after the watch's own callback: 0.3 s of it, as a
    # collection of a large heap would take.
    if phase == "start":
        time.sleep(0.3)


async def test_a_loop_that_is_never_held_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        lines = await watch_while(0.0, tmp_path)

    assert [r for r in caplog.records if r.name == "atu.looplag"] == []
    assert max(gap for _, gap in lines) < 100
