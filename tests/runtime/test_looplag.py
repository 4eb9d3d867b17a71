import asyncio
import gc
import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest

from runtime import looplag


async def watch_while(
    blocking_seconds: float, tmp_path: Path, *, holds: int = 1
) -> list[tuple[float, float]]:
    """Given a watch recording every 0.1 s, when the loop is held ``blocking_seconds``
    by a synchronous call (``holds`` times, in periods apart), then the recorded (time,
    largest gap ms) lines."""
    record = tmp_path / "lag.log"
    watching = asyncio.ensure_future(looplag.watch(tick=0.01, period=0.1, record_to=record))
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


def parts(what: str) -> dict[str, str]:
    """The parts of what held the loop, by their first words."""
    found = {}
    for part in what.split("; "):
        if part.startswith("a generation-"):
            found["collection"] = part
        elif part.startswith("since last seen on time"):
            found["core"] = part
        else:
            found.setdefault("samples", part)
    return found


async def test_a_hold_is_logged_with_the_loop_threads_stack_sampled_during_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a watch, when a synchronous call holds its loop 0.3 s
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.3, tmp_path)

    # Then sampled every 50 ms from 100 ms late, the innermost frame is the call that
    # held it, every time
    [(_, what)] = held_messages(caplog)
    samples = re.fullmatch(r"(\d)/(\d) samples running (.*)", parts(what)["samples"])
    assert samples is not None, what
    assert samples[1] == samples[2] and 2 <= int(samples[1]) <= 4
    frames = samples[3].split(" < ")
    assert re.fullmatch(r"tests/runtime/test_looplag\.py:\d+ hold_the_loop", frames[0])
    assert re.fullmatch(r"tests/runtime/test_looplag\.py:\d+ watch_while", frames[1])
    # Up to the loop's own frames, which every callback shares.
    assert not any(frame.startswith("asyncio/") for frame in frames)


async def test_a_hold_by_a_call_that_waits_says_the_loop_thread_used_no_core(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a watch, when the loop's thread sleeps 0.3 s in a call made on the loop
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.3, tmp_path)

    # Then the thread's scheduler statistics say it neither ran nor waited for a core
    [(_, what)] = held_messages(caplog)
    core = re.fullmatch(
        r"since last seen on time on a core (\d+) ms, waiting for one (\d+) ms", parts(what)["core"]
    )
    assert core is not None, what
    assert int(core[1]) < 50 and int(core[2]) < 50


async def test_the_stacks_of_holds_are_told_at_most_once_in_stacks_every(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a watch telling stacks at most every 10 s, when the loop is held twice
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        await watch_while(0.2, tmp_path, holds=2)

    # Then both holds are logged, the stacks with the first only
    [(_, first), (_, second)] = held_messages(caplog)
    assert "hold_the_loop" in parts(first)["samples"]
    assert "samples" not in parts(second)


def slow_collection(phase: str, info: dict[str, Any]) -> None:
    # Called inside the collection, after the watch's own callback: 0.3 s of it, as a
    # collection of a large heap would take.
    if phase == "start":
        time.sleep(0.3)


async def test_a_hold_by_a_garbage_collection_says_its_generation_and_length(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a watch
    record = tmp_path / "lag.log"
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        watching = asyncio.ensure_future(looplag.watch(tick=0.01, period=0.1, record_to=record))
        await asyncio.sleep(0.25)
        # When a full collection that takes 0.3 s runs on the loop
        gc.callbacks.append(slow_collection)
        try:
            gc.collect(2)
        finally:
            gc.callbacks.remove(slow_collection)
        await asyncio.sleep(0.25)
        watching.cancel()
        with pytest.raises(asyncio.CancelledError):
            await watching

    # Then the hold names it, with how long it took and what it freed
    [(ms, what)] = held_messages(caplog)
    found = re.fullmatch(
        r"a generation-2 collection (\d+) ms \((\d+) objects freed\)", parts(what)["collection"]
    )
    assert found is not None, what
    assert int(found[1]) >= 280 and ms >= 280
