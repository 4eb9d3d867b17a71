"""Benchmark of the player page on a player of ``--games`` finished games (10,000).

A throwaway test database (SQLite by default, PostgreSQL when ``DATABASE_URL`` is set)
is filled with the read models the page reads, as the projections write them: the
player's games at tables of four among ``--others`` other people (a ``PlayerGame`` row
a seat, a ``Game`` row a game), a season's rating history of ``--tables`` tables, and
``--events`` finished events with their standings. Then it times, in the same run:

- the page: ``GET /players/<id>/`` through Django's test client (the view, its
  queries, the template), its first page and its last with a head-to-head (``?vs=``);
- the baseline: the same answers read by the fewest plain SQL queries, on the same
  connection, with nothing drawn: the figures (one aggregate), the longest run of wins
  (one window query), the results by rules and table size (one GROUP BY), a page of
  games and their tables' seats, the frequent opponents, the head-to-head, the
  events' placings, the seasons and the rating chart's tables.

Printed: the medians of ``--repeat`` runs of each, the ratio page / baseline and the
target (at most 3x), and how many queries the page made (as many for 10 games as for
10,000: tests/tournaments/test_players.py; none reads more than a page of games).

Run: ``.venv/bin/python -m bench.player [--games 10000 --repeat 7]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import django

from bench.standings import timed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# A throwaway database: production mode wants a key, and no session outlives the run.
os.environ.setdefault("SECRET_KEY", "bench-throwaway-database-key-not-for-production")

BATCH = 2000
TARGET_RATIO = 3.0
PRESETS = ("championship", "romanian-standard", "online-room", "classic-app")


def seed(
    games: int, others: int, tables: int, events: int, rng: random.Random
) -> tuple[int, int, uuid.UUID]:
    """The read models of a player of ``games`` games; their id, their most frequent
    opponent's, and the season's id."""
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Game
    from tournaments.models import (
        Event,
        PlayerGame,
        RatingChange,
        Season,
        SeasonStanding,
        Standing,
    )

    start = datetime(2024, 1, 1, tzinfo=UTC)
    with transaction.atomic():
        player = User.objects.create(username="bench-player", display_name="Bench Player")
        people = User.objects.bulk_create(
            User(username=f"bench-{n}", display_name=f"Player {n:04d}") for n in range(others)
        )
        ids = [person.pk for person in people]
        game_rows: list[Game] = []
        seat_rows: list[PlayerGame] = []
        for number in range(games):
            game_id = uuid.uuid4()
            at = start + timedelta(minutes=30 * number)
            # The first of the others plays one game in three with the player.
            table = [player.pk, *rng.sample(ids[1:], 3)]
            if number % 3 == 0:
                table[1] = ids[0]
            rng.shuffle(table)
            scores = [rng.randint(-20, 90) for _ in table]
            places = [1 + sum(other > score for other in scores) for score in scores]
            preset = PRESETS[number % len(PRESETS)]
            code = f"{number:08X}"
            game_rows.append(
                Game(
                    id=game_id,
                    code=code,
                    status="finished",
                    player_count=4,
                    preset=preset,
                    options={},
                    seats=[
                        {"seat": seat, "alias": f"P{who}", "user_id": who}
                        for seat, who in enumerate(table)
                    ],
                    scores=scores,
                    places=places,
                    created_at=at - timedelta(minutes=25),
                    updated_at=at,
                )
            )
            for seat, who in enumerate(table):
                exact = rng.randint(0, 32)
                seat_rows.append(
                    PlayerGame(
                        game_id=game_id,
                        seat=seat,
                        player_id=who,
                        code=code,
                        kind="romanian",
                        preset=preset,
                        player_count=4,
                        place=places[seat],
                        points=scores[seat],
                        deals=32,
                        exact=exact,
                        best_run=rng.randint(0, min(exact, 8)),
                        bonuses=rng.randint(0, 2),
                        finished_at=at,
                        shown_at=at,
                    )
                )
        Game.objects.bulk_create(game_rows, batch_size=BATCH)
        PlayerGame.objects.bulk_create(seat_rows, batch_size=BATCH)
        season = Season.objects.create(
            id=uuid.uuid4(), name="Bench season", organizer_id=player.pk, created_at=start
        )
        event_ids = []
        for number in range(events):
            event = Event.objects.create(
                id=uuid.uuid4(),
                code=f"EV{number:04d}",
                name=f"Bench Cup {number}",
                season_id=season.id,
                organizer_id=player.pk,
                status=Event.Status.PUBLISHED,
                preset="championship",
                options={},
                table_size=4,
                rounds_total=5,
                rounds_started=5,
                points="relative",
                public=True,
                duplicate=False,
                spectator_delay=0,
                version=1,
                created_at=start + timedelta(days=number),
                updated_at=start + timedelta(days=number),
            )
            event_ids.append(event.id)
            Standing.objects.bulk_create(
                Standing(
                    event_id=event.id,
                    player_id=who,
                    name=str(who),
                    rank=rank,
                    points=10.0 - rank,
                    exact_bids=5,
                    best_game=40,
                    games=5,
                )
                for rank, who in enumerate([player.pk, *ids[:15]], 1)
            )
        SeasonStanding.objects.create(
            season_id=season.id,
            player_id=player.pk,
            name="Bench Player",
            rank=1,
            points=100,
            rating=1600.0,
            events=events,
        )
        rating = 1500.0
        changes = []
        for order in range(tables):
            after = rating + rng.uniform(-8, 8)
            changes.append(
                RatingChange(
                    season_id=season.id,
                    player_id=player.pk,
                    event_id=event_ids[order % len(event_ids)],
                    round=1 + order % 5,
                    order=order,
                    before=rating,
                    after=after,
                )
            )
            rating = after
        RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    # The planner's statistics, as a production database's autovacuum keeps them: without
    # them PostgreSQL plans for 33 rows where the player has 10,000.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return player.pk, ids[0], season.id


def baseline(player: int, other: int | None, season: uuid.UUID, page: int) -> dict[str, Any]:
    """The page's answers by the fewest plain queries, nothing drawn: what any player
    page must at least ask the database (the head-to-head with ``other``, if any)."""
    from django.db import connection

    from tournaments.models import RatingChange
    from tournaments.players import CHART_TABLES, EVENTS_SHOWN, GAMES_PER_PAGE, OPPONENTS_SHOWN

    answers: dict[str, Any] = {}
    with connection.cursor() as cursor:

        def rows(sql: str, *params: Any) -> list[tuple[Any, ...]]:
            cursor.execute(sql, params)
            return list(cursor.fetchall())

        (answers["figures"],) = rows(
            "SELECT COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), SUM(deals), "
            "SUM(exact), MAX(best_run), SUM(bonuses) FROM tournaments_playergame "
            "WHERE player_id = %s",
            player,
        )
        (answers["win_streak"],) = rows(
            "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM (SELECT place, "
            "ROW_NUMBER() OVER (ORDER BY finished_at, game_id) - ROW_NUMBER() OVER "
            "(PARTITION BY place = 1 ORDER BY finished_at, game_id) AS island "
            "FROM tournaments_playergame WHERE player_id = %s) numbered "
            "WHERE place = 1 GROUP BY island) runs",
            player,
        )
        answers["by_rules"] = rows(
            "SELECT kind, preset, player_count, COUNT(*), "
            "SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), AVG(place) "
            "FROM tournaments_playergame WHERE player_id = %s "
            "GROUP BY kind, preset, player_count ORDER BY kind, preset, player_count",
            player,
        )
        games = rows(
            "SELECT game_id, code, finished_at, place, points, deals, exact "
            "FROM tournaments_playergame WHERE player_id = %s "
            "ORDER BY finished_at DESC, game_id DESC LIMIT %s OFFSET %s",
            player,
            GAMES_PER_PAGE,
            (page - 1) * GAMES_PER_PAGE,
        )
        marks = ", ".join(["%s"] * len(games))
        answers["seats"] = rows(
            f"SELECT id, seats FROM games_game WHERE id IN ({marks})",
            *(row[0] for row in games),
        )
        answers["games"] = games
        answers["opponents"] = rows(
            "SELECT player_id, COUNT(*) AS n FROM tournaments_playergame WHERE game_id IN "
            "(SELECT game_id FROM tournaments_playergame WHERE player_id = %s) "
            "AND player_id <> %s GROUP BY player_id ORDER BY n DESC, player_id LIMIT %s",
            player,
            player,
            OPPONENTS_SHOWN,
        )
        if other is not None:
            (answers["versus"],) = rows(
                "SELECT COUNT(*), SUM(CASE WHEN mine.place < theirs.place THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN mine.place > theirs.place THEN 1 ELSE 0 END) "
                "FROM tournaments_playergame mine JOIN tournaments_playergame theirs "
                "ON theirs.game_id = mine.game_id AND theirs.player_id = %s "
                "WHERE mine.player_id = %s",
                other,
                player,
            )
        answers["events"] = rows(
            "SELECT e.code, e.name, s.rank FROM tournaments_standing s JOIN "
            "tournaments_event e ON e.id = s.event_id WHERE s.player_id = %s "
            "ORDER BY e.created_at DESC LIMIT %s",
            player,
            EVENTS_SHOWN,
        )
        answers["seasons"] = rows(
            "SELECT season_id, rank, points, rating FROM tournaments_seasonstanding "
            "WHERE player_id = %s",
            player,
        )
        answers["chart"] = rows(
            'SELECT "order", before, after FROM tournaments_ratingchange '
            'WHERE season_id = %s AND player_id = %s ORDER BY "order" DESC LIMIT %s',
            RatingChange._meta.get_field("season_id").get_db_prep_value(season, connection),
            player,
            CHART_TABLES,
        )
    return answers


def _counted(queries: list[str], execute: Any, sql: str, *rest: Any) -> Any:
    """A query counted on its way (``connection.execute_wrapper``)."""
    queries.append(sql)
    return execute(sql, *rest)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=300)
    parser.add_argument("--tables", type=int, default=1_000, help="the season's rated tables")
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tournaments.players import pages_of

    setup_test_environment()  # The test client's host is allowed.
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(7)
        start = time.perf_counter()
        player, other, season = seed(args.games, args.others, args.tables, args.events, rng)
        print(
            f"Player page benchmark: {connection.vendor}, a player of {args.games:,} games "
            f"(seeded in {time.perf_counter() - start:.1f} s), {args.tables:,} rated tables, "
            f"{args.events} events"
        )
        client = Client()
        last = pages_of(args.games)
        asks: dict[str, tuple[str, int | None, int]] = {
            "first page": (f"/players/{player}/", None, 1),
            "last page, head to head": (f"/players/{player}/?page={last}&vs={other}", other, last),
        }
        for name, (url, versus, page) in asks.items():
            assert client.get(url).status_code == 200  # Warm: templates, the plan cache.
            queries: list[str] = []
            with connection.execute_wrapper(partial(_counted, queries)):
                client.get(url)
            pages, baselines = [], []
            for _ in range(args.repeat):
                seconds, response = timed(client.get, url)
                assert response.status_code == 200
                pages.append(seconds)
                baselines.append(timed(baseline, player, versus, season, page)[0])
            ratio = statistics.median(pages) / statistics.median(baselines)
            print(
                f"  {name}: page median {statistics.median(pages) * 1000:.1f} ms "
                f"({len(queries)} queries), baseline median "
                f"{statistics.median(baselines) * 1000:.1f} ms; page / baseline = {ratio:.2f}x "
                f"[page runs: {', '.join(f'{s * 1000:.0f}' for s in pages)} ms]"
            )
            print(
                f"    target page / baseline <= {TARGET_RATIO:.0f}x: "
                f"{'PASS' if ratio <= TARGET_RATIO else 'FAIL'}"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
