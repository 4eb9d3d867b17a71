"""Benchmark of a server process's delivery of a game's broadcasts to its sockets, in
one process, without sockets: what ``bench/live.py`` can resolve only to about 5% of
a move's CPU on a 2-core machine shared with its load generator.

A whole 4-player Championship game is played through ``games.commands.actions`` on a
throwaway test database (SQLite by default, PostgreSQL when ``DATABASE_URL`` is set).
Its log, from the first deal on, is cut into the broadcasts the write path made (the
records of one command share their time), and each broadcast is handed, as
``games.live.fanout`` hands it, to 5 watches of the game (its 4 players and a spectator,
``?with_state=changes`` as the table page asks): the records folded once, each
viewer's ``events`` message built and encoded.

The baseline, in the same run, does what any server must for the same broadcasts:
for each of the 5 viewers, one message of the same bytes as Atu's, encoded with the
same library from the broadcast's records. Printed: thread CPU per broadcast (the
median and the fastest of the replays) for each, and the ratio Atu / baseline.

Run: ``.venv/bin/python -m bench.delivery [--replays N]``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import django
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# A throwaway database: production mode wants a key, and no session outlives the run.
os.environ.setdefault("SECRET_KEY", "bench-throwaway-database-key-not-for-production")

VIEWERS = 5


class _Socket:
    """What games.live.fanout asks of a socket: its watch."""

    def __init__(self, watch: Any) -> None:
        self.watch = watch

    def deliver(self, message: dict[str, Any]) -> None:
        raise AssertionError("the benchmark hands the broadcasts over itself")


def broadcasts(game_id: Any) -> tuple[Any, list[list[list[Any]]]]:
    """The table before the first deal, and every broadcast after it as the channel
    layer carries it (games.write.path.publish)."""
    from eventlog import store
    from games.table import Table, fold_records, stream_of

    records = store.read(stream_of(game_id))
    grouped = [list(group) for _, group in itertools.groupby(records, lambda r: r.recorded_at)]
    dealt = next(n for n, group in enumerate(grouped) if any(r.type == "HandDealt" for r in group))
    start = fold_records(Table(), [r for group in grouped[: dealt + 1] for r in group])
    rows = [[store.record_to_message(r) for r in group] for group in grouped[dealt + 1 :]]
    return start, rows


def replay_atu(game_id: Any, start: Any, users: list[int | None], rows: list[Any]) -> list[int]:
    """Hand every broadcast to 5 fresh watches; the bytes of each viewer's messages."""
    from games.live import fanout
    from games.live.cursor import Watch

    watches = [Watch(game_id, user, start, "changes") for user in users]
    followed = fanout._FOLLOWED[game_id] = fanout._Followed()
    followed.sockets = {_Socket(watch) for watch in watches}
    sizes = []
    try:
        for broadcast in rows:
            for watch in watches:
                text = fanout.next_message(watch, broadcast)
                assert text is not None, "every broadcast is what its watches follow next"
                sizes.append(len(text))
    finally:
        del fanout._FOLLOWED[game_id]
    return sizes


def replay_baseline(rows: list[Any], sizes: list[int]) -> list[int]:
    """Each viewer's message of the same bytes (``sizes``, in the order replay_atu
    made them), encoded from the broadcast's records; the bytes of each."""
    size = iter(sizes)
    made = []
    for broadcast in rows:
        version = broadcast[-1][0]
        for _ in range(VIEWERS):
            message = {"type": "events", "version": version, "events": broadcast, "pad": ""}
            missing = next(size) - len(orjson.dumps(message))
            message["pad"] = "x" * max(0, missing)
            made.append(len(orjson.dumps(message)))
    return made


def timed(replay: Callable[[], object], replays: int, count: int) -> list[float]:
    """Thread CPU per broadcast of each replay, in microseconds."""
    import gc

    times = []
    for _ in range(replays):
        gc.collect()
        start = time.thread_time()
        replay()
        times.append((time.thread_time() - start) / count * 1e6)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replays", type=int, default=15, help="replays of the game, each")
    args = parser.parse_args(argv)
    django.setup()
    from django.db import connection

    from bench.timing import print_cpu_ratio
    from bench.write_path import play_game, throwaway_database
    from games.models import Game

    with throwaway_database():
        play_game(0, lambda: None)
        game = Game.objects.get()
        start, rows = broadcasts(game.id)
        seated = [seat.user_id for seat in start.seats if seat is not None]
        users: list[int | None] = [*seated, None]
        sizes = replay_atu(game.id, start, users, rows)
        atu = timed(lambda: replay_atu(game.id, start, users, rows), args.replays, len(rows))
        base = timed(lambda: replay_baseline(rows, sizes), args.replays, len(rows))
        print(
            f"Delivery benchmark: {connection.vendor}, one 4-player Championship game, "
            f"{len(rows)} broadcasts to {VIEWERS} viewers (?with_state=changes), "
            f"{statistics.mean(sizes):.0f} B per message, {args.replays} replays"
        )
        print_cpu_ratio("broadcast", ("Atu", atu), ("baseline (encode only)", base))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
