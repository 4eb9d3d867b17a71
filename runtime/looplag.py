"""How long a server process's event loop is held: the gap between when a short sleep
was due to end and when the loop woke it, and what held it.

Every socket of a process waits while its loop is held (a garbage collection, a
synchronous call made on the loop, a burst of callbacks), so the largest gap is what
delays every table of the process at once. :func:`watch` wakes every ``tick`` seconds
and, for each ``period``, notes the largest gap: it logs a warning (one a period at
most) when that is over ``warn_seconds``, and with ``record_to`` appends one line per
period to that file (``<unix time> <largest gap in ms>``), which ``bench/live.py``
reads per window.

A gap says how long, not why, and a hold of a loaded server cannot be reproduced at
will: so a watchdog thread looks at the loop's thread while it is held (decision 3103).
Once the loop is ``warn_seconds`` late it takes the loop thread's stack every
``sample_every`` seconds (a few a hold at most) and its scheduler statistics (Linux's
schedstat: how long it ran on a core, and waited for one, since last seen on time), and
the collector's callbacks say how long each garbage collection took and what it freed.
The warning then says what held the loop: the longest collection, if it was long; the
time on a core against the time waiting for one (a loop ready to run whose turn of a
core came late is held by the machine, not by its own code; so is one sampled waiting in
``select``); and the stacks sampled, the most frequent two, at most once every
``stacks_every`` seconds. No stack sampled means one call held the interpreter
throughout without letting go of it, as a collection does. Cheap enough for
production: while the loop is on time the thread only reads a clock and a small file
every ``sample_every`` seconds.
"""

import asyncio
import gc
import logging
import sys
import sysconfig
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

logger = logging.getLogger("atu.looplag")

TICK = 0.02
PERIOD = 1.0
WARN_SECONDS = 0.1
SAMPLE_EVERY = 0.05
SAMPLES = 6
DEPTH = 8
STACKS_EVERY = 10.0

_ROOT = str(Path(__file__).resolve().parents[1]) + "/"
_STDLIB = sysconfig.get_paths()["stdlib"] + "/"
# From these down, every callback's stack is the loop's own (uvloop runs its handles
# from C, straight under the runner).
_LOOPS_OWN = (asyncio.Handle._run.__code__, asyncio.Runner.run.__code__)


async def watch(
    *,
    tick: float = TICK,
    period: float = PERIOD,
    warn_seconds: float = WARN_SECONDS,
    record_to: Path | None = None,
    sample_every: float = SAMPLE_EVERY,
    stacks_every: float = STACKS_EVERY,
) -> None:
    """Measure until cancelled."""
    loop = asyncio.get_running_loop()
    record = record_to.open("a", buffering=1) if record_to is not None else None
    holds = _Holds(threading.get_ident(), threading.get_native_id(), warn_seconds, sample_every)
    holds.start()
    try:
        largest, what = 0.0, ""
        stacks_after = 0.0
        ends = loop.time() + period
        while True:
            due = holds.due = loop.time() + tick
            await asyncio.sleep(tick)
            woke = loop.time()
            held, told_stacks = holds.taken(stacks=woke >= stacks_after)
            if told_stacks:
                stacks_after = woke + stacks_every
            if woke - due > largest:
                largest, what = woke - due, held
            if woke >= ends:
                if largest > warn_seconds:
                    logger.warning(
                        "event loop held %.0f ms%s", largest * 1000, f"; {what}" if what else ""
                    )
                if record is not None:
                    record.write(f"{time.time():.3f} {largest * 1000:.1f}\n")
                largest, what = 0.0, ""
                ends = woke + period
    finally:
        holds.stop()
        if record is not None:
            record.close()


class _Holds:
    """The watchdog thread: what the loop's thread ran while the loop was late."""

    def __init__(
        self, loop_thread: int, native_id: int, late_seconds: float, sample_every: float
    ) -> None:
        self.loop_thread = loop_thread
        self.late_seconds = late_seconds
        self.sample_every = sample_every
        # When the loop's current tick is due (its clock, time.monotonic()), set by it.
        self.due = time.monotonic() + late_seconds
        self._lock = threading.Lock()
        self._samples: list[tuple[str, ...]] = []
        self._collection_started = 0.0
        # The longest collection since the loop last woke: seconds, generation, freed.
        self._longest_collection = (0.0, 0, 0)
        # The loop thread's schedstat (on a core, waiting for one, in ns) when last seen
        # on time, and since then while late.
        self._schedstat = f"/proc/self/task/{native_id}/schedstat"
        self._on_time: tuple[int, int] | None = None
        self._while_late: tuple[int, int] | None = None
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="looplag-watchdog", daemon=True)

    def start(self) -> None:
        gc.callbacks.append(self._on_collection)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        gc.callbacks.remove(self._on_collection)

    def taken(self, *, stacks: bool) -> tuple[str, bool]:
        """What was seen since the loop last woke, said in a few words ("" if the loop
        was on time), and forgotten; the stacks sampled only if ``stacks``, and whether
        they were."""
        with self._lock:
            samples, self._samples = self._samples, []
            used, self._while_late = self._while_late, None
            longest, self._longest_collection = self._longest_collection, (0.0, 0, 0)
        collecting, generation, freed = longest
        if not samples and collecting < self.late_seconds:
            return "", False
        said = []
        if collecting >= self.late_seconds / 2:
            said.append(
                f"a generation-{generation} collection {collecting * 1000:.0f} ms "
                f"({freed} objects freed)"
            )
        if used is not None:
            on_core, waiting = used
            said.append(
                f"since last seen on time on a core {on_core / 1e6:.0f} ms, "
                f"waiting for one {waiting / 1e6:.0f} ms"
            )
        if not samples:
            said.append("no stack sampled: the interpreter was held throughout")
        elif stacks:
            counted = Counter(samples).most_common(2)
            said.extend(
                f"{count}/{len(samples)} samples {_said(stack)}" for stack, count in counted
            )
        return "; ".join(said), stacks and bool(samples)

    def _run(self) -> None:
        while not self._stopped.wait(self.sample_every):
            if time.monotonic() - self.due < self.late_seconds:
                self._on_time = self._read_schedstat()
                continue
            frame = sys._current_frames().get(self.loop_thread)
            now = self._read_schedstat()
            with self._lock:
                if len(self._samples) < SAMPLES:
                    self._samples.append(_stack(frame))
                if now is not None and self._on_time is not None:
                    self._while_late = (now[0] - self._on_time[0], now[1] - self._on_time[1])

    def _read_schedstat(self) -> tuple[int, int] | None:
        # Linux's per-thread scheduler statistics; None elsewhere.
        try:
            with open(self._schedstat, "rb") as read:
                on_core, waiting, _ = read.read().split()
        except (OSError, ValueError):
            return None
        return int(on_core), int(waiting)

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            self._collection_started = now
            return
        took = now - self._collection_started
        with self._lock:
            if took > self._longest_collection[0]:
                self._longest_collection = (took, info["generation"], info["collected"])


def _stack(frame: FrameType | None) -> tuple[str, ...]:
    """The innermost ``DEPTH`` frames, innermost first, as ``file:line function``, up
    to the loop's own (those of the callback or task it ran)."""
    where: list[str] = []
    while frame is not None and len(where) < DEPTH:
        code = frame.f_code
        if code in _LOOPS_OWN:
            break
        where.append(f"{_short(code.co_filename)}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return tuple(where)


def _said(stack: tuple[str, ...]) -> str:
    if stack and stack[0].startswith("selectors.py:"):
        return "waiting in select (the loop's turn of a core came late)"
    return "running " + " < ".join(stack) if stack else "with no frame"


def _short(filename: str) -> str:
    if "/site-packages/" in filename:
        return filename.split("/site-packages/", 1)[1]
    for prefix in (_ROOT, _STDLIB):
        if filename.startswith(prefix):
            return filename[len(prefix) :]
    return filename
