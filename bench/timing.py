"""What the benchmarks share: timing a function over inputs, pinning to one core,
percentiles and the PASS/FAIL verdict."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any


def time_each(run: Callable[[Any], object], inputs: Sequence[Any]) -> list[float]:
    """Seconds taken by ``run`` on each input, one after another."""
    timings = []
    clock = time.perf_counter
    for item in inputs:
        start = clock()
        run(item)
        timings.append(clock() - start)
    return timings


@contextmanager
def on_one_core() -> Iterator[int | None]:
    """Pin the process to one CPU while measuring (where the OS allows it)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    previous = os.sched_getaffinity(0)
    cpu = min(previous)
    os.sched_setaffinity(0, {cpu})
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, previous)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def print_cpu_ratio(per: str, atu: tuple[str, list[float]], base: tuple[str, list[float]]) -> None:
    """Atu's and the baseline's CPU (µs ``per`` what) over the rounds, and the ratio."""
    for name, times in (atu, base):
        print(
            f"  {name}: median {statistics.median(times):.1f} µs of CPU per {per} "
            f"(fastest {min(times):.1f})"
        )
    (_, a), (_, b) = atu, base
    print(
        f"  ratio Atu / baseline: {statistics.median(a) / statistics.median(b):.2f}x "
        f"(medians), {min(a) / min(b):.2f}x (fastest)"
    )
