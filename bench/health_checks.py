"""Benchmark of the pool's health check (decision 3702): what checking each connection
as the pool lends it costs a request, against the same request without the check.

A request of the site borrows one connection from its process's pool and runs its
queries on it. Here each "request" borrows a connection, runs one ``SELECT 1`` and
gives it back, through two psycopg pools on ``DATABASE_URL``'s database, the one with
Django's check (``CONN_HEALTH_CHECKS``: an empty query's round trip at each borrow),
the baseline without; their rounds alternate. Printed: the wall time and the process's
CPU per request (medians of the rounds), the difference and the ratio.

Run: ``.venv/bin/python -m bench.health_checks [--requests 2000] [--rounds 7]`` with
``DATABASE_URL`` set.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

import django
from psycopg_pool import ConnectionPool


def _pool(params: dict[str, Any], *, checked: bool) -> ConnectionPool:
    return ConnectionPool(
        kwargs=params,
        min_size=1,
        max_size=1,
        check=ConnectionPool.check_connection if checked else None,
        open=True,
    )


def _requests(pool: ConnectionPool, count: int) -> tuple[float, float]:
    """Microseconds of wall time and of CPU per request."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        with pool.connection() as connection:
            connection.execute("SELECT 1").fetchone()
    return (
        (time.perf_counter() - wall) / count * 1e6,
        (time.process_time() - cpu) / count * 1e6,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):
        sys.exit("DATABASE_URL must name a PostgreSQL database.")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connection

    params = connection.get_connection_params()
    params["autocommit"] = True
    pools = {"checked": _pool(params, checked=True), "baseline": _pool(params, checked=False)}
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in pools}
    try:
        for pool in pools.values():
            _requests(pool, args.requests // 10)  # warm up
        for _ in range(args.rounds):
            for name, pool in pools.items():
                results[name].append(_requests(pool, args.requests))
    finally:
        for pool in pools.values():
            pool.close()
    medians = {
        name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        for name, runs in results.items()
    }
    print(f"{args.rounds} rounds of {args.requests} requests (a borrow, SELECT 1, a return):")
    for name, (wall, cpu) in medians.items():
        print(f"  {name}: median {wall:.1f} µs of wall time, {cpu:.1f} µs of CPU per request")
    (check_wall, check_cpu), (base_wall, base_cpu) = medians["checked"], medians["baseline"]
    print(
        f"  the check adds {check_wall - base_wall:.1f} µs of wall time "
        f"({check_wall / base_wall:.2f}x) and {check_cpu - base_cpu:.1f} µs of CPU "
        f"({check_cpu / base_cpu:.2f}x) per request"
    )


if __name__ == "__main__":
    main()
