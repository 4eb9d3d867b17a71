"""Benchmark of the championship standings: a full rebuild of a large event's read
models from the log, and the incremental update after one game.

A synthetic event of ``--players`` players and ``--rounds`` rounds at tables of 4
is written straight into a throwaway test database (SQLite by default, PostgreSQL
when ``DATABASE_URL`` is set): the event's stream, and every table's game stream
with every event a real game records (deals, bids, cards, tricks, scores, reveals),
so that a rebuild that read every card would pay for it. Then it times:

- ``rebuild_standings``: drop every championship read model and derive them again;
- the update after one game: one of the last tables' final hand lands, and the
  task's ``update_event_standings`` brings the standings up to date (``--pending``
  games, one after the other, each timed);
- the baseline, in the same run: reading every stored event of the event's games
  (what a rebuild that folded the games would have to read at the least).

Printed: seconds and events per second (events in the log / seconds), medians of
``--repeat`` runs, the ratio to the baseline, and the targets: full rebuild under
10 s, incremental update under 50 ms.

Run: ``.venv/bin/python -m bench.standings [--players 1000 --rounds 10]``.
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
from datetime import timedelta
from pathlib import Path
from typing import Any

import django

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# A throwaway database: production mode wants a key, and no session outlives the run.
os.environ.setdefault("SECRET_KEY", "bench-throwaway-database-key-not-for-production")

SUITS = "SHDC"
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SCHEDULE = [n for n in range(1, 9) for _ in range(4)]  # each dealer deals each number
BATCH = 5000


def game_records(
    rng: random.Random, final: bool = True
) -> tuple[list[tuple[str, dict[str, Any]]], list[int]]:
    """A 4-player game's events, shaped as the real ones (scores are random but
    consistent: totals add up); the final scores."""
    records: list[tuple[str, dict[str, Any]]] = [
        ("GameCreated", {"code": "X", "player_count": 4, "options": {}, "preset": "championship"}),
        *[("PlayerSeated", {"seat": s, "user_id": s, "alias": f"P{s}"}) for s in range(4)],
        ("DealsCommitted", {"seed": "00", "commitments": ["00"] * len(SCHEDULE)}),
        ("GameStarted", {"player_count": 4, "options": {}, "first_dealer": 0}),
    ]
    totals = [0, 0, 0, 0]
    hands = SCHEDULE if final else SCHEDULE[:-1]
    for hand, cards in enumerate(hands):
        deck = [rank + suit for suit in SUITS for rank in RANKS]
        rng.shuffle(deck)
        dealt = [deck[seat * cards : (seat + 1) * cards] for seat in range(4)]
        records.append(
            (
                "HandDealt",
                {
                    "hand": hand,
                    "dealer": hand % 4,
                    "cards": cards,
                    "visibility": "open",
                    "hands": dealt,
                    "trump_card": deck[-1] if cards < 8 else None,
                },
            )
        )
        bids = [rng.randint(0, cards) for _ in range(4)]
        records += [("BidPlaced", {"hand": hand, "seat": s, "bid": bids[s]}) for s in range(4)]
        tricks = [0, 0, 0, 0]
        for trick in range(cards):
            played = [dealt[seat][trick] for seat in range(4)]
            records += [
                ("CardPlayed", {"hand": hand, "seat": s, "card": played[s]}) for s in range(4)
            ]
            winner = rng.randrange(4)
            tricks[winner] += 1
            records.append(
                (
                    "TrickTaken",
                    {"hand": hand, "trick": trick, "leader": 0, "cards": played, "winner": winner},
                )
            )
        points = [5 + b if b == t else -abs(b - t) for b, t in zip(bids, tricks, strict=True)]
        totals = [a + p for a, p in zip(totals, points, strict=True)]
        records.append(
            (
                "HandScored",
                {
                    "hand": hand,
                    "bids": bids,
                    "tricks": tricks,
                    "points": points,
                    "streak_points": [0] * 4,
                    "totals": list(totals),
                },
            )
        )
        records.append(("DealRevealed", {"hand": hand, "secret": "00" * 32}))
    if final:
        places = [1 + sum(o > t for o in totals) for t in totals]
        records.append(
            ("GameFinished", {"scores": totals, "places": places, "zero_play_winners": []})
        )
    return records, totals


def seed_event(
    players: int, rounds: int, rng: random.Random, pending: int
) -> tuple[uuid.UUID, list[uuid.UUID], int]:
    """The synthetic event in the log and the games' read models; its id, the last
    ``pending`` games (left one hand short), and how many events were stored."""
    from django.db import transaction
    from django.utils import timezone

    from eventlog.models import StoredEvent
    from games.models import Game
    from games.table import stream_of
    from tournaments import championship

    now = timezone.now()
    event_id = uuid.uuid4()
    ids = list(range(1, players + 1))
    event_events: list[championship.ChampionshipEvent] = [
        championship.EventCreated(
            name="Bench Cup",
            code="BENCH1",
            organizer_id=1,
            season_id=None,
            preset="championship",
            options={},
            table_size=4,
            rounds=rounds,
            points="relative",
            tie_breaks=("exact_bids", "head_to_head", "best_game"),
            public=True,
            spectator_delay=0,
            duplicate=False,
            first_round="random",
            seed="00",
        ),
        *[championship.PlayerRegistered(p, f"Player {p:04d}") for p in ids],
        *[championship.PlayerCheckedIn(p) for p in ids],
    ]
    rows: list[StoredEvent] = []
    games: list[Game] = []
    stored = 0
    last_games: list[uuid.UUID] = []

    def flush() -> None:
        nonlocal stored
        StoredEvent.objects.bulk_create(rows, batch_size=BATCH)
        stored += len(rows)
        rows.clear()

    with transaction.atomic():
        for number in range(1, rounds + 1):
            order = ids[:]
            rng.shuffle(order)
            tables = [tuple(order[i : i + 4]) for i in range(0, players, 4)]
            game_ids = [uuid.uuid4() for _ in tables]
            if number == rounds:
                last_games = game_ids[-pending:]
            event_events.append(
                championship.RoundStarted(number, tuple(tables), tuple(map(str, game_ids)))
            )
            for game_id in game_ids:
                finished = game_id not in last_games
                records, scores = game_records(rng, final=finished)
                rows.extend(
                    StoredEvent(
                        stream=stream_of(game_id),
                        sequence=seq,
                        type=kind,
                        schema_version=1,
                        payload=payload,
                        recorded_at=now,
                    )
                    for seq, (kind, payload) in enumerate(records, 1)
                )
                games.append(
                    Game(
                        id=game_id,
                        code=game_id.hex[:8].upper(),
                        player_count=4,
                        status="finished" if finished else "playing",
                        options={},
                        scores=scores,
                        version=len(records),
                        created_at=now,
                        updated_at=now,
                    )
                )
                if len(rows) >= BATCH * 10:
                    flush()
        for seq, event in enumerate(event_events, 1):
            kind, payload = championship.encode(event)
            rows.append(
                StoredEvent(
                    stream=championship.championship_stream(event_id),
                    sequence=seq,
                    type=kind,
                    schema_version=1,
                    payload=payload,
                    recorded_at=now,
                )
            )
        flush()
        Game.objects.bulk_create(games, batch_size=BATCH)
    return event_id, last_games, stored


def finish_last_game(game_id: uuid.UUID, rng: random.Random) -> None:
    """The last table's final hand and the end of its game, as the write path would
    record them (events and read model in one transaction)."""
    from django.db import transaction
    from django.utils import timezone

    from eventlog.models import StoredEvent
    from games.models import Game
    from games.table import stream_of

    records, scores = game_records(rng, final=True)
    stream = stream_of(game_id)
    have = StoredEvent.objects.filter(stream=stream).count()
    now = timezone.now() + timedelta(seconds=1)
    with transaction.atomic():
        StoredEvent.objects.bulk_create(
            StoredEvent(
                stream=stream,
                sequence=seq,
                type=kind,
                schema_version=1,
                payload=payload,
                recorded_at=now,
            )
            for seq, (kind, payload) in enumerate(records, 1)
            if seq > have
        )
        Game.objects.filter(pk=game_id).update(
            status="finished", version=len(records), scores=scores, updated_at=now
        )


def read_every_game_event(event_id: uuid.UUID) -> int:
    """The baseline: every stored event of the event's games, payloads decoded."""
    from eventlog.models import StoredEvent
    from games.table import stream_of
    from tournaments.services import load_championship

    streams = [stream_of(g) for played in load_championship(event_id).rounds for g in played.games]
    count = 0
    for start in range(0, len(streams), 500):
        for _payload in (
            StoredEvent.objects.filter(stream__in=streams[start : start + 500])
            .values_list("payload", flat=True)
            .iterator(chunk_size=BATCH)
        ):
            count += 1
    return count


def timed(function: Any, *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--pending", type=int, default=7, help="games finished one by one, each timed"
    )
    args = parser.parse_args(argv)
    django.setup()
    from django.db import connection

    from tournaments.models import Standing
    from tournaments.projections.rebuild import rebuild_standings
    from tournaments.projections.standings import update_event_standings

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(7)
        print(
            f"Standings benchmark: {connection.vendor}, {args.players} players, "
            f"{args.rounds} rounds at tables of 4, 32 deals a game"
        )
        start = time.perf_counter()
        event_id, last_games, stored = seed_event(args.players, args.rounds, rng, args.pending)
        games = args.rounds * args.players // 4
        print(
            f"  seeded {stored:,} events ({games:,} games) in {time.perf_counter() - start:.1f} s"
        )

        rebuilds = []
        for _ in range(args.repeat):
            seconds, _ = timed(rebuild_standings)
            rebuilds.append(seconds)
        rebuild = statistics.median(rebuilds)
        baselines = [timed(read_every_game_event, event_id)[0] for _ in range(args.repeat)]
        baseline = statistics.median(baselines)
        before = list(Standing.objects.filter(event_id=event_id).values_list("player_id", "points"))

        increments, idles = [], []
        for game_id in last_games:
            finish_last_game(game_id, rng)
            seconds, changed = timed(update_event_standings, event_id)
            assert changed, "a finished game did not change the standings"
            increments.append(seconds)
            # Once more with nothing new: what a repeated or late task costs.
            idles.append(timed(update_event_standings, event_id)[0])
        after = list(Standing.objects.filter(event_id=event_id).values_list("player_id", "points"))
        assert before != after, "the last games did not change the standings"
        increment, idle = statistics.median(increments), statistics.median(idles)

        print(
            f"  full rebuild: median {rebuild:.2f} s ({stored / rebuild:,.0f} events/s of log) "
            f"[runs: {', '.join(f'{s:.2f}' for s in rebuilds)}]"
        )
        print(
            f"  baseline, reading every game event once: median {baseline:.2f} s "
            f"({stored / baseline:,.0f} events/s); rebuild / baseline = {rebuild / baseline:.2f}x"
        )
        print(
            f"  incremental update after one game: median {increment * 1000:.1f} ms of "
            f"{len(increments)} games [{', '.join(f'{s * 1000:.0f}' for s in increments)}] "
            f"({stored / increment:,.0f} events/s of log); a repeated run: {idle * 1000:.1f} ms"
        )
        print(f"  target full rebuild < 10 s: {'PASS' if rebuild < 10 else 'FAIL'}")
        print(f"  target incremental update < 50 ms: {'PASS' if increment < 0.05 else 'FAIL'}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
