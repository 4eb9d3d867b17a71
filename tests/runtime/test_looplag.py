import asyncio
import logging
import time
from pathlib import Path

import pytest

from runtime import looplag


async def watch_while(blocking_seconds: float, tmp_path: Path) -> list[tuple[float, float]]:
    """Given a watch recording every 0.1 s, when the loop is held ``blocking_seconds``
    by a synchronous call, then the recorded (time, largest gap ms) lines."""
    record = tmp_path / "lag.log"
    watching = asyncio.ensure_future(looplag.watch(tick=0.01, period=0.1, record_to=record))
    await asyncio.sleep(0.25)
    time.sleep(blocking_seconds)  # a synchronous call made on the loop
    await asyncio.sleep(0.25)
    watching.cancel()
    with pytest.raises(asyncio.CancelledError):
        await watching
    return [
        (float(stamp), float(gap))
        for stamp, gap in (line.split() for line in record.read_text().splitlines())
    ]


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

    held = [r.getMessage() for r in caplog.records if r.name == "atu.looplag"]
    assert len(held) == 1
    words = held[0].split()
    assert words[:3] == ["event", "loop", "held"] and words[4] == "ms"
    assert 280 <= int(words[3]) < 400


async def test_a_loop_that_is_never_held_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="atu.looplag"):
        lines = await watch_while(0.0, tmp_path)

    assert [r for r in caplog.records if r.name == "atu.looplag"] == []
    assert max(gap for _, gap in lines) < 100
