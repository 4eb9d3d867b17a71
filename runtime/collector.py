"""The cyclic garbage collector of a server process, run by its event loop on a clock
rather than by CPython's allocation counts.

CPython (3.11) starts a young collection once allocations outnumber deallocations by
700. A server that keeps replacing long-lived state (every move replaces its game's
folded table, and the messages built from it) frees old objects about as fast as it
makes new ones, so that count hardly grows while the young generation does. In
``bench/live.py`` (500 tables, 1,250 sockets per server process) young and middle
collections held a server's event loop up to 80 ms (one in the load generator found
77k young objects), and full collections of the whole heap (300k-430k objects) held
the servers and the load generator 160-380 ms, every few seconds. Every socket of the
process waits through such a pause: they made most of the moves that took over 100 ms.

:func:`pace` freezes what is alive when it starts (Django, the URL conf, the settings:
never scanned again), turns the automatic collections off, collects the two younger
generations every ``seconds`` (a pause of a few milliseconds: what 50 ms left behind;
collecting the middle one only every second instead held the loop 40-80 ms), and the
whole heap every ``full_every`` of those, so that a cycle of garbage that grew old
(such as a closed socket's) is freed within minutes. Reference counting frees
everything else at once, as before.
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
