"""Each player's part in each finished game (``PlayerGame``): read from the game's log
alone, written by the task when a game finishes, the same when written again, and the
same rows when rebuilt from the log."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from eventlog import store
from eventlog.store import Recorded
from games import rules
from games.models import Game
from games.rules import classic
from games.table import (
    GameCreated,
    PlayerSeated,
    SeatAutomated,
    SeatHandedOver,
    encode,
    stream_of,
)
from tests.games.drivers import play_to_end, seated_game
from tests.tournaments.drivers import SHORT_RULES, played_event, wait_until
from tournaments.models import PlayerGame
from tournaments.projections.players import (
    player_games,
    rebuild_player_games,
    update_player_games,
)

FINISHED_AT = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
GAME_ID = uuid.UUID(int=7)
# The "online-room" preset for 3: one-card deals 0, 1 and 2 (left out of its streaks),
# then 2, 3, 4, 5, 6 cards in deals 3 to 7.
ONLINE_ROOM = rules.PRESETS["online-room"].to_dict()
SCHEDULE = rules.build_schedule(rules.PRESETS["online-room"], 3)
ONE_CARD = {hand for hand, spec in enumerate(SCHEDULE) if spec.cards == 1}
ANA, BOGDAN, BOT, ACCOUNT = 11, 12, 13, 14


def recorded(*events: Any) -> list[Recorded]:
    """The events as a game's log records them, the last at ``FINISHED_AT``."""
    codec = store.codec_of(stream_of(GAME_ID))
    return [
        Recorded(number, *encode(event), None, FINISHED_AT, codec)
        for number, event in enumerate(events, 1)
    ]


def deal(hand: int, made: tuple[bool, ...], streak: tuple[int, ...] = (0, 0, 0)) -> Any:
    """A deal scored: each seat bid 1 and took 1 if it made its bid, else 0."""
    tricks = tuple(int(hit) for hit in made)
    return rules.HandScored(hand, (1,) * len(made), tricks, (0,) * len(made), streak, (0,) * 3)


def three_at_online_room(*middle: Any, finished: bool = True) -> list[Recorded]:
    """A table of three under "online-room": Ana, Bogdan and a bot account, with a
    minute's spectator delay; ``middle`` between its start and its end."""
    start = [
        GameCreated("ABC123", 3, ONLINE_ROOM, "online-room", ANA, spectator_delay=60),
        PlayerSeated(0, ANA, "Ana"),
        PlayerSeated(1, BOGDAN, "Bogdan"),
        PlayerSeated(2, BOT, "Robo"),
        SeatAutomated(2, "medium"),
        rules.GameStarted(3, rules.PRESETS["online-room"], 0),
    ]
    end = [rules.GameFinished((30, 42, 10), (2, 1, 3), ())] if finished else []
    return recorded(*start, *middle, *end)


def test_each_persons_deals_exact_bids_runs_and_bonuses_are_read_from_the_log() -> None:
    # Given a table of three finished after eight deals, Bogdan's fifth to seventh
    # played by a bot standing in, Ana earning a streak bonus in the last
    records = three_at_online_room(
        deal(0, (False, True, True)),
        deal(1, (True, True, False)),
        deal(2, (False, True, False)),
        deal(3, (True, True, True)),
        deal(4, (True, True, False)),
        SeatAutomated(1, "medium"),
        deal(5, (True, True, False)),
        SeatAutomated(1, None),
        deal(6, (False, True, True)),
        deal(7, (True, False, True), streak=(10, 0, 0)),
    )

    # When its players' rows are read from it
    rows = player_games(GAME_ID, records, frozenset({BOT}), {})

    # Then each person has one (the bot none): their place and score; of the deals
    # they bid, how many exactly; their longest run of exact bids, the one-card deals
    # 0 to 2 left out as the preset counts streaks and a deal a bot played breaking
    # Bogdan's; the bonuses their deals earned; shown a minute after the finish
    assert [
        (
            row.seat,
            row.player_id,
            row.code,
            row.preset,
            row.player_count,
            row.place,
            row.points,
            row.deals,
            row.exact,
            row.best_run,
            row.bonuses,
        )
        for row in rows
    ] == [
        (0, ANA, "ABC123", "online-room", 3, 2, 30, 8, 5, 3, 1),
        (1, BOGDAN, "ABC123", "online-room", 3, 1, 42, 7, 6, 2, 0),
    ]
    assert {(row.finished_at, row.shown_at) for row in rows} == {
        (FINISHED_AT, FINISHED_AT + timedelta(seconds=60))
    }


def test_a_guest_who_signed_in_to_their_account_is_that_account_with_every_deal() -> None:
    # Given Ana a guest, whose seat passed to her account mid-game (decision 3507)
    records = three_at_online_room(
        deal(3, (True, True, False)),
        SeatHandedOver(0, ANA, ACCOUNT),
        deal(4, (True, False, False)),
    )

    # When the players' rows are read, Ana being known as her account's guest
    rows = player_games(GAME_ID, records, frozenset({BOT}), {ANA: ACCOUNT})

    # Then her row is the account's, with both deals she bid
    assert [(row.seat, row.player_id, row.deals, row.exact) for row in rows] == [
        (0, ACCOUNT, 2, 2),
        (1, BOGDAN, 2, 1),
    ]


def test_a_guest_whose_account_sat_at_the_same_table_keeps_their_row() -> None:
    # Given Ana a guest whose account is Bogdan's, who sits at the table himself
    records = three_at_online_room(deal(3, (True, True, False)))

    # When the players' rows are read
    rows = player_games(GAME_ID, records, frozenset({BOT}), {ANA: BOGDAN})

    # Then the guest's seat stays the guest's: no one person holds two rows of a game
    assert [(row.seat, row.player_id) for row in rows] == [(0, ANA), (1, BOGDAN)]


def test_a_deal_scored_again_counts_as_last_scored() -> None:
    # Given a deal scored, then scored again (a correction at a table in the room)
    records = three_at_online_room(deal(3, (False, False, False)), deal(3, (True, True, True)))

    # When the players' rows are read
    rows = player_games(GAME_ID, records, frozenset({BOT}), {})

    # Then it counts once, as last scored
    assert [(row.deals, row.exact, row.best_run) for row in rows] == [(1, 1, 1), (1, 1, 1)]


def test_a_game_not_finished_has_no_rows() -> None:
    records = three_at_online_room(deal(0, (True, True, True)), finished=False)

    assert player_games(GAME_ID, records, frozenset({BOT}), {}) == []


def test_a_classic_match_gives_each_seat_its_sides_points_and_place() -> None:
    # Given a classic match of four people that side 1 won
    records = recorded(
        GameCreated("CLS123", 4, {}, "american", 1, kind="classic"),
        *[PlayerSeated(seat, 21 + seat, f"P{seat}") for seat in range(4)],
        classic.MatchFinished(1, (1, 2), (20, 35)),
    )

    # When the players' rows are read
    rows = player_games(GAME_ID, records, frozenset(), {})

    # Then seats 1 and 3 placed first with side 1's points; no bids, so no deals
    assert [(row.player_id, row.place, row.points, row.deals) for row in rows] == [
        (21, 2, 20, 0),
        (22, 1, 35, 0),
        (23, 2, 20, 0),
        (24, 1, 35, 0),
    ]


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=len(SCHEDULE)))
def test_the_longest_run_is_the_longest_run_of_exact_bids_in_counted_deals(
    outcomes: list[tuple[bool, bool]],
) -> None:
    # Given a game of online-room deals, Ana's made or not, Bogdan's made or not
    records = three_at_online_room(
        *(deal(hand, (ana, bogdan, False)) for hand, (ana, bogdan) in enumerate(outcomes))
    )

    # When the players' rows are read
    ana_row, bogdan_row = player_games(GAME_ID, records, frozenset({BOT}), {})

    # Then each one's longest run is that of their exact bids in the deals the preset
    # counts (not its one-card deals), and their exact bids all their deals'
    for seat, row in ((0, ana_row), (1, bogdan_row)):
        counted = [made[seat] for hand, made in enumerate(outcomes) if hand not in ONE_CARD]
        runs = [len(list(run)) for hit, run in itertools.groupby(counted) if hit]
        assert row.best_run == max(runs, default=0)
        assert (row.deals, row.exact) == (len(outcomes), sum(made[seat] for made in outcomes))


def rows_of(*game_ids: uuid.UUID) -> list[tuple[Any, ...]]:
    fields = [field.name for field in PlayerGame._meta.fields if field.name != "id"]
    return list(
        PlayerGame.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list(*fields)
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_a_game_that_finishes_writes_its_players_rows_as_its_log_has_them() -> None:
    # Given a game of four people played to its end
    game_id, users = seated_game(4, preset="romanian-standard", options=SHORT_RULES)
    play_to_end(game_id, users)
    wait_until(lambda: PlayerGame.objects.filter(game_id=game_id).count() == 4, 60, "the rows")

    # Then the task wrote one row a seat: its player, place and score as the game's,
    # and the nine deals each bid, their exact bids as the log's scored deals have them
    game = Game.objects.get(pk=game_id)
    scored = [record.event for record in store.read(stream_of(game_id), types=["HandScored"])]
    rows = list(PlayerGame.objects.filter(game_id=game_id).order_by("seat"))
    assert [(row.player_id, row.place, row.points, row.deals) for row in rows] == [
        (user.pk, game.places[seat], game.scores[seat], 9) for seat, user in enumerate(users)
    ]
    assert [row.exact for row in rows] == [
        sum(deal.bids[seat] == deal.tricks[seat] for deal in scored) for seat in range(4)
    ]
    assert {row.code for row in rows} == {game.code}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_rows_written_again_are_the_same() -> None:
    # Given a finished game's rows
    game_id, users = seated_game(4, preset="romanian-standard", options=SHORT_RULES)
    play_to_end(game_id, users)
    wait_until(lambda: PlayerGame.objects.filter(game_id=game_id).count() == 4, 60, "the rows")
    before = rows_of(game_id)

    # When the task's work is done again (a task run twice)
    written = update_player_games(game_id)

    # Then it wrote the same four rows
    assert written == 4
    assert rows_of(game_id) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_a_rebuild_from_the_log_gives_the_same_rows() -> None:
    # Given two finished games, one in play, and a public event's finished table
    finished = []
    for seed in range(2):
        game_id, users = seated_game(4, preset="romanian-standard", options=SHORT_RULES)
        play_to_end(game_id, users, seed=seed)
        finished.append(game_id)
    in_play, _ = seated_game(3, preset="romanian-standard")
    played_event(4)
    wait_until(lambda: PlayerGame.objects.count() == 12, 60, "every finished game's rows")
    event_games = list(PlayerGame.objects.exclude(game_id__in=finished).values_list("game_id"))
    everything = [*finished, in_play, *(game_id for (game_id,) in event_games)]
    before = rows_of(*everything)

    # When every row is dropped and rebuilt from the log by the command
    out = StringIO()
    call_command("rebuild_player_games", stdout=out)

    # Then the rows are the same, the game in play has none, and the command says so
    assert rows_of(*everything) == before
    assert len(before) == 12
    assert not PlayerGame.objects.filter(game_id=in_play).exists()
    assert out.getvalue() == "Read 4 game(s) from the log; wrote 12 player row(s).\n"
    assert rebuild_player_games() == (4, 12)
