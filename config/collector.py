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
generations on the clock, and the whole heap every ``full_seconds``, so that a cycle of
garbage that grew old (such as a closed socket's) is freed within minutes. Reference
counting frees everything else at once, as before.

A young collection costs what it scans: the objects made since the last one that are
still alive. A server makes almost no cyclic garbage between sockets opening and
closing, so those scans mostly find live objects, each scanned once whatever the
interval, unless it dies before the next tick. A paced server has few of them and
collects every ``seconds``, a pause well under a millisecond. A saturated one keeps each
game's last steps and its moves in flight alive for longer than any short interval: at
50 ms its young collections took 12-14% of its CPU (decision 0003). So while the loop is
behind (a tick wakes over ``late`` seconds after it was due), each interval doubles, up
to ``longest``, by when most of what the server made has been freed by reference
counting, unscanned; once a tick wakes on time, each halves back. A pause of the longest
interval's collection (tens of milliseconds) is then one among the loop's holds, which
are already longer; paced, the intervals stay short.
"""

import asyncio
import gc

SECONDS = 0.05
LONGEST = 5.0
LATE = 0.01
FULL_SECONDS = 300.0


def next_interval(
    interval: float, woke_late: float, *, seconds: float, longest: float, late: float
) -> float:
    """Seconds until the next young collection, after one ``interval`` after the one
    before, whose tick woke ``woke_late`` seconds after it was due."""
    if woke_late > late:
        return min(longest, interval * 2)
    return max(seconds, interval / 2)


async def pace(
    *,
    seconds: float = SECONDS,
    longest: float = LONGEST,
    late: float = LATE,
    full_seconds: float = FULL_SECONDS,
) -> None:
    """Collect on the clock until cancelled; then the automatic collections resume."""
    gc.freeze()
    gc.disable()
    try:
        loop = asyncio.get_running_loop()
        interval = seconds
        last_full = loop.time()
        while True:
            due = loop.time() + interval
            await asyncio.sleep(interval)
            woke_late = loop.time() - due
            if loop.time() - last_full >= full_seconds:
                gc.collect(2)
                last_full = loop.time()
            else:
                gc.collect(1)
            interval = next_interval(
                interval, woke_late, seconds=seconds, longest=longest, late=late
            )
    finally:
        gc.enable()
        gc.unfreeze()
