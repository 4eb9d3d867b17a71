"""Benchmark of the write path: whole games played command by command through
``games.commands.actions`` (load the table, decide, append at the expected version,
project), on a throwaway test database: SQLite by default, PostgreSQL when
``DATABASE_URL`` is set.

It compares the per-process table cache (each command reads only the events
after the cached version, after checking the log still holds the cached last
record) with a full replay of the log for every command, the baseline measured in
the same run. Printed: median and 95th percentile milliseconds per command over
all commands and over the last quarter of each game (the longest logs), and the
ratio baseline / cached.

Run: ``.venv/bin/python -m bench.write_path [--games N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import django

from bench.timing import percentile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# A throwaway database: production mode wants a key, and no session outlives the run.
os.environ.setdefault("SECRET_KEY", "bench-throwaway-database-key-not-for-production")


def started_game(name: str) -> tuple[Any, list[Any]]:
    """A started 4-player Championship game, and its players (``name``-0 to -3)."""
    from accounts.models import User
    from games.commands import actions as services

    users = [User.objects.create(username=f"{name}-{seat}") for seat in range(4)]
    game = services.game_create(creator=users[0], player_count=4, preset="championship")
    for seat, user in enumerate(users):
        services.game_join(game_id=game.id, user=user, alias=f"P{seat}")
    return game, users


def play_game(seed: int, before_each: Callable[[], None]) -> list[float]:
    """One 4-player Championship game by random legal moves; seconds per command."""
    from games.commands import actions as services
    from games.rules import Phase, legal_bids, legal_plays
    from games.write.tables import load_table

    game, users = started_game(f"bench-{seed}")
    by_id = {user.pk: user for user in users}
    rng = random.Random(seed)
    timings: list[float] = []
    while True:
        table = load_table(game.id)
        state = table.romanian_game
        if state.phase is Phase.FINISHED:
            return timings
        sitting = table.seats[state.turn]
        assert sitting is not None
        actor = by_id[sitting.user_id]
        before_each()
        start = time.perf_counter()
        if state.phase is Phase.BIDDING:
            services.game_place_bid(
                game_id=game.id,
                actor=actor,
                bid=rng.choice(legal_bids(state)),
                expected_version=table.version,
            )
        else:
            services.game_play_card(
                game_id=game.id,
                actor=actor,
                card=str(rng.choice(legal_plays(state))),
                expected_version=table.version,
            )
        timings.append(time.perf_counter() - start)


def summary(name: str, games: list[list[float]]) -> tuple[float, float]:
    every = [t for game in games for t in game]
    late = [t for game in games for t in game[len(game) * 3 // 4 :]]
    print(
        f"  {name}: median {statistics.median(every) * 1000:.2f} ms per command "
        f"(p95 {percentile(every, 0.95) * 1000:.2f}); last quarter of each game: "
        f"median {statistics.median(late) * 1000:.2f} ms (p95 {percentile(late, 0.95) * 1000:.2f})"
    )
    return statistics.median(every), statistics.median(late)


@contextmanager
def throwaway_database() -> Iterator[None]:
    """A test database made for the run and destroyed after it (Django set up)."""
    from django.db import connection

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per variant")
    args = parser.parse_args(argv)
    django.setup()
    from django.db import connection

    from games.write.tables import forget_tables

    with throwaway_database():
        print(f"Write path benchmark: {connection.vendor}, 4 players, preset 'championship'")
        cached = [play_game(seed, lambda: None) for seed in range(args.games)]
        replayed = [play_game(100 + seed, forget_tables) for seed in range(args.games)]
        print(f"  {args.games} games per variant, {sum(map(len, cached))} commands cached")
        all_cached, late_cached = summary("table cache", cached)
        all_replayed, late_replayed = summary("full replay per command (baseline)", replayed)
        print(
            f"  ratio baseline / cache: {all_replayed / all_cached:.2f}x over all commands, "
            f"{late_replayed / late_cached:.2f}x over the last quarter"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
