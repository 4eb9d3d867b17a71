"""Whole events with bots in every seat: the standings the tasks keep equal an
independent recomputation from the event log, and a rebuild gives them again."""

from __future__ import annotations

import uuid
from collections import defaultdict
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from eventlog import store
from games.table import stream_of
from tests.tournaments.drivers import bot_event, organizer, play_round, wait_until
from tournaments import services
from tournaments.championship import championship_stream
from tournaments.models import Entry, Event, Standing, TableResult
from tournaments.projections import standings

pytestmark = pytest.mark.django_db(transaction=True)


def recomputed(event_id: uuid.UUID) -> dict[int, tuple[float, int]]:
    """Each player's relative points and exact bids, worked out here from the raw
    logs: the event's rounds, and each table's scores and bids."""
    totals: dict[int, Fraction] = defaultdict(Fraction)
    exact: dict[int, int] = defaultdict(int)
    for record in store.read(championship_stream(event_id)):
        if record.type != "RoundStarted":
            continue
        for players, game_id in zip(record.payload["tables"], record.payload["games"], strict=True):
            final: list[int] | None = None
            for event in store.read(stream_of(game_id)):
                if event.type == "HandScored":
                    for seat, (bid, won) in enumerate(
                        zip(event.payload["bids"], event.payload["tricks"], strict=True)
                    ):
                        exact[players[seat]] += bid == won
                elif event.type == "GameFinished":
                    final = event.payload["scores"]
            assert final is not None, f"game {game_id} did not finish"
            average = Fraction(sum(final), len(final))
            for player, score in zip(players, final, strict=True):
                totals[player] += score - average
    return {player: (round(float(totals[player]), 2), exact[player]) for player in totals}


def standing_rows(event_id: uuid.UUID) -> list[dict[str, Any]]:
    return list(
        Standing.objects.filter(event_id=event_id)
        .order_by("rank", "player_id")
        .values("player_id", "name", "rank", "points", "exact_bids", "best_game", "games")
    )


def read_models(event_id: uuid.UUID) -> dict[str, Any]:
    return {
        "event": Event.objects.filter(pk=event_id).values().get(),
        "entries": list(
            Entry.objects.filter(event_id=event_id)
            .order_by("player_id")
            .values("player_id", "name", "checked_in", "withdrawn")
        ),
        "tables": list(TableResult.objects.filter(event_id=event_id).order_by("game_id").values()),
        "standings": standing_rows(event_id),
    }


def run_event(players: int, rounds: int) -> uuid.UUID:
    event, creator = bot_event(players=players, rounds=rounds)
    for _ in range(rounds):
        play_round(event.id, creator)
    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        60,
        "the standings caught up with the last table",
    )
    return event.id


def check_event(event_id: uuid.UUID, players: int, rounds: int) -> None:
    # Then every player played every round, at tables of 3 to 6
    assert Event.objects.get(pk=event_id).rounds_started == rounds
    tables = TableResult.objects.filter(event_id=event_id)
    assert all(3 <= len(row.players) <= 6 and row.finished for row in tables)
    for number in range(1, rounds + 1):
        seated = [p for row in tables.filter(round=number) for p in row.players]
        assert sorted(seated) == sorted(
            Entry.objects.filter(event_id=event_id).values_list("player_id", flat=True)
        )

    # And the standings equal the recomputation from the log, best first
    rows = standing_rows(event_id)
    expected = recomputed(event_id)
    assert len(rows) == players
    assert {row["player_id"]: (row["points"], row["exact_bids"]) for row in rows} == expected
    assert [row["points"] for row in rows] == sorted(
        (p for p, _ in expected.values()), reverse=True
    )
    assert all(row["games"] == rounds for row in rows)

    # And rebuilding every read model from the log gives them again, identically
    before = read_models(event_id)
    output = StringIO()
    call_command("rebuild_standings", stdout=output)
    assert output.getvalue() == "Rebuilt 1 event(s) and 0 season(s) from the log.\n"
    assert read_models(event_id) == before


@pytest.mark.usefixtures("bots_play")
def test_a_24_player_3_round_event_of_bots_runs_to_the_end_and_its_standings_replay() -> None:
    # Embedded, the bots play on timer threads and the tasks run eagerly; in
    # production mode a real Celery worker plays them and keeps the standings.
    event_id = run_event(24, 3)
    check_event(event_id, 24, 3)


def test_a_process_keeps_the_standings_memos_of_a_bounded_number_of_events() -> None:
    # Given more events than a process keeps memos of, each with its standings updated
    standings.forget_tables()
    creator = organizer()
    events = [
        services.event_create(organizer=creator, name=f"Cupa {number}")
        for number in range(standings.EVENTS_KEPT + 1)
    ]
    for event in events:
        standings.update_event_standings(event.id)

    # Then only the most recently updated events' memos are kept
    assert len(standings._ROWS) == len(standings._VIEWS) == standings.EVENTS_KEPT
    assert events[0].id not in standings._ROWS
    assert events[0].id not in standings._VIEWS
    assert events[-1].id in standings._ROWS

    # And the evicted event's standings are read again, unchanged
    assert standings.update_event_standings(events[0].id) is False
    assert events[0].id in standings._ROWS
    assert len(standings._ROWS) == standings.EVENTS_KEPT
