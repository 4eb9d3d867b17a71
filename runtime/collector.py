"""The cyclic garbage collector of a server process, run by its event loop on a clock
rather than by CPython's allocation counts.

CPython starts a young collection once allocations outnumber deallocations by a
threshold. A server that keeps replacing long-lived state (every move replaces its
game's folded table, and the messages built from it) frees old objects about as fast as
it makes new ones, so that count hardly grows while the young generation does, and the
collections that do come scan large generations and the whole heap at unpredictable
moments. Every socket of the process waits through such a pause (decision 0003).

:func:`pace` freezes what is alive when it starts (Django, the URL conf, the settings:
never scanned again), turns the automatic collections off, collects the two younger
generations every ``seconds`` (a short pause, since little is left behind in that
time; collecting the middle one more rarely makes its pauses longer), and the whole
heap every ``full_every`` of those, so that a cycle of garbage that grew old (such as
a closed socket's) is freed within minutes. Reference counting frees everything else
at once.
"""

import asyncio
import gc

SECONDS = 0.05
FULL_EVERY = 6000  # 5 minutes


async def pace(*, seconds: float = SECONDS, full_every: int = FULL_EVERY) -> None:
    """Collect on the clock until cancelled; then the automatic collections resume."""
    gc.freeze()
    gc.disable()
    try:
        ticks = 0
        while True:
            await asyncio.sleep(seconds)
            ticks += 1
            gc.collect(2 if ticks % full_every == 0 else 1)
    finally:
        gc.enable()
        gc.unfreeze()
