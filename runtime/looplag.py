"""How long a server process's event loop is held: the gap between when a short sleep
was due to end and when the loop woke it.

Every socket of a process waits while its loop is held (a garbage collection, a
synchronous call made on the loop, a burst of callbacks), so the largest gap is what
delays every table of the process at once. :func:`watch` wakes every ``tick`` seconds
and, for each ``period``, notes the largest gap: it logs a warning (one a period at
most) when that is over ``warn_seconds``, and with ``record_to`` appends one line per
period to that file (``<unix time> <largest gap in ms>``), which ``bench/live.py``
reads per window.
"""

import asyncio
import logging
import time
from pathlib import Path

logger = logging.getLogger("atu.looplag")

TICK = 0.02
PERIOD = 1.0
WARN_SECONDS = 0.1


async def watch(
    *,
    tick: float = TICK,
    period: float = PERIOD,
    warn_seconds: float = WARN_SECONDS,
    record_to: Path | None = None,
) -> None:
    """Measure until cancelled."""
    loop = asyncio.get_running_loop()
    record = record_to.open("a", buffering=1) if record_to is not None else None
    try:
        largest = 0.0
        ends = loop.time() + period
        while True:
            due = loop.time() + tick
            await asyncio.sleep(tick)
            woke = loop.time()
            largest = max(largest, woke - due)
            if woke >= ends:
                if largest > warn_seconds:
                    logger.warning("event loop held %.0f ms", largest * 1000)
                if record is not None:
                    record.write(f"{time.time():.3f} {largest * 1000:.1f}\n")
                largest = 0.0
                ends = woke + period
    finally:
        if record is not None:
            record.close()
