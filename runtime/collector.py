"""The cyclic garbage collector of a server process, run by its event loop on a clock
rather than by CPython's allocation counts.

CPython starts a young collection once allocations outnumber deallocations by a
threshold. A server that keeps replacing long-lived state (every move replaces its
game's folded table, and the messages built from it) frees old objects about as fast as
it makes new ones, so that count hardly grows while the young generation does, and the
collections that do come scan large generations and the whole heap at unpredictable
moments. Every socket of the process waits through such a pause (decision 0003).

:func:`pace` freezes what is alive when it starts (Django, the URL conf, the settings),
turns the automatic collections off, collects the two younger generations every
``seconds`` (a short pause, since little is left behind in that time; collecting the
middle one more rarely makes its pauses longer), and freezes what survived each of
those collections: the old generation stays empty, and no collection scans the
long-lived heap (each game's table, its sockets and their tasks) again. A collection of
that heap held a server's loop for hundreds of milliseconds however little it found
(decision 3103); reference counting frees the frozen objects as it frees any other.
A cycle that turns to garbage once frozen (a socket's, closed after it was opened) is
freed only by a collection of the whole heap: every ``check_every`` ticks (5 minutes),
:func:`pace` counts the frozen objects, and if they have grown to ``thaw_at`` times
what they were after the last such collection (or the first count), it thaws and
collects the whole heap. That costs the long pause once per heap's worth of objects
grown old (as CPython waits for its oldest generation to grow by a quarter), not on a
clock, and keeps such garbage under the heap's own size. Each count is logged
(``atu.collector``, INFO), and each whole collection with what it freed.
"""

import asyncio
import gc
import logging
import time

logger = logging.getLogger("atu.collector")

SECONDS = 0.05
CHECK_EVERY = 6000  # 5 minutes
THAW_AT = 2.0


async def pace(
    *, seconds: float = SECONDS, check_every: int = CHECK_EVERY, thaw_at: float = THAW_AT
) -> None:
    """Collect on the clock until cancelled; then the automatic collections resume."""
    gc.freeze()
    gc.disable()
    try:
        ticks = 0
        # The frozen objects after the heap was last collected whole, or first counted.
        whole: int | None = None
        while True:
            await asyncio.sleep(seconds)
            ticks += 1
            gc.collect(1)
            gc.freeze()
            if ticks % check_every:
                continue
            frozen = gc.get_freeze_count()
            if whole is None:
                whole = frozen
            elif frozen > thaw_at * whole:
                began = time.perf_counter()
                gc.unfreeze()
                freed = gc.collect(2)
                gc.freeze()
                whole = gc.get_freeze_count()
                logger.info(
                    "collected the whole heap: %d objects frozen, %d freed, in %.0f ms",
                    frozen,
                    freed,
                    (time.perf_counter() - began) * 1000,
                )
                continue
            # How fast what is frozen grows tells when the next whole collection comes.
            logger.info("%d objects frozen, %d after the last whole collection", frozen, whole)
    finally:
        gc.enable()
        gc.unfreeze()
