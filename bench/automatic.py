"""Benchmark of automatic moves in production: tables of bots played by a real
Celery worker over Redis, against the write path's own rate for the same commands.

Run (PostgreSQL and Redis on 127.0.0.1; about 3 minutes; one run at a time, as it
drops its database)::

    .venv/bin/python -m bench.automatic --tables 40 80 120

It drops and recreates its own database (``atu_bench_auto``; ``--database-url`` may
name another whose name contains "bench") and uses Redis db 13 as the broker and
layer, emptied before each setting. Then, in the same run:

1. The write path alone: ``games.commands.actions.game_play_automatically`` called in a
   loop in this one process, over ``--baseline-tables`` bot tables in turn, for
   ``--seconds``: commands per second. Only the scheduling of the next move (the
   broker message) is left out; the commit's publication over Redis stays in.
2. Paced: for each of ``--tables``, that many new 4-player Championship tables,
   every seat a heuristic bot, are seeded, then one Celery worker is started as
   production runs it (``celery -A config worker``, ``--concurrency`` 2) with a bot
   delay of ``--delay`` seconds. After ``--warmup`` seconds, a window of
   ``--seconds``: moves per second carried (the moves recorded in the window)
   against offered (one move per table per bot delay), and the lateness p50/p99
   of those moves: when the move was recorded minus when it was due, which is the
   event that began the turn (the table's previous record) plus the bot delay.
3. Saturation: the same with a bot delay of 0 and ``--saturation-tables`` tables:
   moves per second carried, and the ratio to the write path's rate of step 1.

Targets on this machine: the largest paced setting (120 tables at 1 s) carried in
full (at least 97% of offered: each move's own lateness stretches its table's
cycle) with p99 lateness under 250 ms, and saturation at least 0.5x the write path.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.live import prepare_database, verdict
from bench.timing import percentile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/atu_bench_auto"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
SECRET_KEY = "bench-throwaway-database-key-not-for-production"
SEATS = 4
CELERY = Path(sys.executable).with_name("celery")
# The events that a seat's command begins with; the rest of a command (a trick
# taken, a hand scored, the next deal) follows it in the same transaction.
MOVES = frozenset({"BidPlaced", "CardPlayed", "OneCardModeChosen", "ZeroPlayAnnounced"})
P99_TARGET_MS = 250.0
CARRIED_TARGET = 0.97
RATIO_TARGET = 0.5


def site_environment(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": SECRET_KEY,
    }


def seed_bot_tables(count: int, prefix: str) -> list[str]:
    """``count`` Championship tables whose 4 seats are heuristic bots; joined last, so
    that each game starts (and asks for its first automatic move) when seeded."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User
    from games.commands import actions as services

    password = make_password(None)
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{number}", password=password) for number in range(count * SEATS)
    )
    games = []
    for number in range(count):
        players = users[number * SEATS : (number + 1) * SEATS]
        game = services.game_create(creator=players[0], player_count=SEATS, preset="championship")
        for seat, player in enumerate(players):
            services.game_set_seat_bot(
                game_id=game.id, actor=players[0], seat=seat, bot="heuristic"
            )
            services.game_join(game_id=game.id, user=player, alias=f"B{seat}")
        games.append(str(game.id))
    return games


def empty_broker(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def write_path_rate(seconds: float, tables: int) -> float:
    """Automatic-move commands per second called in a loop in this process."""
    import uuid
    from unittest import mock

    from games.commands import actions as services
    from games.write import path as writepath
    from games.write.tables import load_table

    games = [uuid.UUID(game) for game in seed_bot_tables(tables, "write")]
    done = 0
    # The next move's broker message is the worker's overhead, not the write path's.
    with mock.patch.object(writepath, "schedule_automatic_move"):
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for game_id in games:
                if services.game_play_automatically(
                    game_id=game_id, expected_version=load_table(game_id).version
                ):
                    done += 1
        return done / (time.perf_counter() - start)


@dataclass(frozen=True)
class Setting:
    tables: int
    delay: float
    carried: float
    offered: float | None
    lateness: list[float]

    def text(self) -> str:
        offered = "" if self.offered is None else f" of {self.offered:.1f} offered"
        return (
            f"  {self.tables} tables, bot delay {self.delay:g} s: {self.carried:.1f} moves/s "
            f"carried{offered}; lateness p50 {percentile(self.lateness, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(self.lateness, 0.99) * 1000:.0f} ms ({len(self.lateness)} moves)"
        )


def run_worker_setting(
    *, tables: int, delay: float, args: argparse.Namespace, logs: Path, label: str
) -> Setting:
    """Seed ``tables`` bot tables, let one production worker play them, and read how
    it went from the tables' logs."""
    from django.conf import settings

    empty_broker(args.redis_url)
    settings.ATU_BOT_DELAY_SECONDS = delay
    games = seed_bot_tables(tables, label)
    worker = start_worker(
        {
            **site_environment(args.database_url, args.redis_url),
            "ATU_BOT_DELAY_SECONDS": str(delay),
        },
        logs / f"worker-{label}.log",
        loglevel=args.worker_loglevel,
        options=[
            *("--concurrency", str(args.concurrency)),
            *(("--pool", args.pool) if args.pool else ()),
        ],
    )
    try:
        started = first_move_time(games)
        time.sleep(max(0.0, started + args.warmup + args.seconds + 0.5 - time.time()))
    finally:
        stop_worker(worker)
    window = (started + args.warmup, started + args.warmup + args.seconds)
    lateness = moves_in_window(games, delay, window)
    return Setting(
        tables=tables,
        delay=delay,
        carried=len(lateness) / args.seconds,
        offered=tables / delay if delay else None,
        lateness=lateness,
    )


def start_worker(
    environ: dict[str, str],
    log: Path,
    *,
    loglevel: str,
    options: Sequence[str] = (),
    prefix: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """One Celery worker as production runs it (``celery -A config worker``), with
    ``options``, its command after ``prefix`` (``ip netns exec``: on another node), in
    a session of its own (its pool's processes stop with it), logging to ``log``."""
    with log.open("wb") as output:
        return subprocess.Popen(
            [*prefix, str(CELERY), "-A", "config", "worker", "--loglevel", loglevel, *options],
            cwd=ROOT,
            env={**os.environ, **environ},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    """Stop the worker and its pool: warm (its tasks finish), then cold after 30 s."""
    worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, 9)
        worker.wait()


def first_move_time(games: Sequence[str], timeout: float = 120.0) -> float:
    """When the worker, once started, recorded its first move at these tables."""
    from eventlog.models import StoredEvent
    from games.table import stream_of

    moves = StoredEvent.objects.filter(
        stream__in=[stream_of(game) for game in games], type__in=MOVES
    ).order_by("recorded_at")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        first = moves.values_list("recorded_at", flat=True).first()
        if first is not None:
            return first.timestamp()
        time.sleep(0.1)
    raise SystemExit("the worker made no move: see its log (--keep-logs)")


def moves_in_window(games: Sequence[str], delay: float, window: tuple[float, float]) -> list[float]:
    """The lateness (seconds) of each move recorded in the window: its time minus the
    time of the table's record before it, minus the bot delay."""
    from eventlog.models import StoredEvent
    from games.table import stream_of

    lateness = []
    rows = (
        StoredEvent.objects.filter(stream__in=[stream_of(game) for game in games])
        .order_by("stream", "sequence")
        .values_list("stream", "type", "recorded_at")
    )
    previous: tuple[str, float] | None = None
    for stream, type_name, recorded_at in rows.iterator(chunk_size=5000):
        at = recorded_at.timestamp()
        if (
            type_name in MOVES
            and previous is not None
            and previous[0] == stream
            and window[0] <= at < window[1]
        ):
            lateness.append(at - previous[1] - delay)
        previous = (stream, at)
    return lateness


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[40, 80, 120])
    parser.add_argument("--delay", type=float, default=1.0, help="paced bot delay, seconds")
    parser.add_argument("--saturation-tables", type=int, default=40)
    parser.add_argument("--baseline-tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--pool", help="the worker's pool, if not the configured one")
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument(
        "--worker-loglevel", default="WARNING", help="INFO logs each task's run time"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    prepare_database(args.database_url)
    os.environ.update(site_environment(args.database_url, args.redis_url))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0, interactive=False)
    logs = Path(tempfile.mkdtemp(prefix="bench-automatic-"))
    print(
        f"Automatic moves benchmark: PostgreSQL, Redis, one Celery worker "
        f"(concurrency {args.concurrency}), windows of {args.seconds:g} s after {args.warmup:g} s"
    )
    empty_broker(args.redis_url)
    bare = write_path_rate(args.seconds, args.baseline_tables)
    print(f"  write path alone, one process: {bare:.1f} automatic moves/s")
    paced = [
        run_worker_setting(tables=n, delay=args.delay, args=args, logs=logs, label=f"paced-{n}")
        for n in args.tables
    ]
    for setting in paced:
        print(setting.text())
    saturated = run_worker_setting(
        tables=args.saturation_tables, delay=0.0, args=args, logs=logs, label="saturation"
    )
    print(saturated.text())
    largest = paced[-1]
    assert largest.offered is not None
    carried_share = largest.carried / largest.offered
    p99_ms = percentile(largest.lateness, 0.99) * 1000
    ratio = saturated.carried / bare
    print(
        f"  {largest.tables} tables at {args.delay:g} s carried {carried_share:.0%} of offered "
        f"(target {CARRIED_TARGET:.0%}), p99 {p99_ms:.0f} ms (target {P99_TARGET_MS:.0f}): "
        f"{verdict(carried_share >= CARRIED_TARGET and p99_ms < P99_TARGET_MS)}"
    )
    print(
        f"  saturation / write path: {ratio:.2f}x (target {RATIO_TARGET}x): "
        f"{verdict(ratio >= RATIO_TARGET)}"
    )
    print(f"  median lateness at saturation: {statistics.median(saturated.lateness) * 1000:.0f} ms")
    connections.close_all()
    empty_broker(args.redis_url)
    if args.keep_logs:
        print(f"  worker logs: {logs}")
    else:
        for log in logs.iterdir():
            log.unlink()
        logs.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
