"""The round clock: a round's time limit, and what its tables do at time under the
organizer's rule, recorded in the event's log and the games' logs, so the standings
and their rebuild agree."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.templatetags.static import static
from django.test import Client

from eventlog import store
from games.commands.actions import game_record_deal
from games.read.selectors import table_home
from games.rules import Phase
from games.rules.errors import GameOver
from games.table import stream_of
from games.write.tables import load_table
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move, play_to_end
from tests.tournaments.drivers import event_round, organizer, round_games, stopped_clock
from tests.tournaments.test_views import VALID_EVENT, signed_in, text
from tournaments import selectors, services
from tournaments.championship import EventCreated, championship_stream, decode
from tournaments.models import Event, Standing
from tournaments.projections.rebuild import rebuild_standings
from tournaments.services import load_championship
from tournaments.tasks import call_round_time, rounds_past_time, update_standings

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


def log_types(event_id: uuid.UUID) -> list[str]:
    return [record.type for record in store.read(championship_stream(event_id))]


def game_types(game_id: uuid.UUID) -> list[str]:
    return [record.type for record in store.read(stream_of(game_id))]


def standings(event_id: uuid.UUID) -> list[tuple[int, int, float]]:
    return list(
        Standing.objects.filter(event_id=event_id)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points")
    )


def into_the_third_deal(game_id: uuid.UUID, users: list[Any]) -> None:
    """Random legal moves until the third deal's first card is played."""
    rng = random.Random(3)
    while not (
        (game := load_table(game_id).romanian_game).hand == 2 and game.phase is Phase.PLAYING
    ):
        next_move(game_id, users, rng)
    next_move(game_id, users, rng)


@pytest.mark.parametrize(
    "options",
    [
        {"round_minutes": -1},
        {"round_minutes": 24 * 60 + 1},
        {"round_minutes": 30, "at_time": "stop-everything"},
        {"round_minutes": 30, "at_time": "finish-deal", "kind": "classic", "table_size": 4},
        {"round_minutes": 30, "at_time": "finish-deal", "duplicate": True, "points": "matchpoints"},
    ],
)
def test_a_time_limit_out_of_range_or_a_rule_the_event_cannot_apply_is_refused(
    options: dict[str, Any],
) -> None:
    with pytest.raises(DomainError) as refused:
        services.event_create(organizer=organizer(), name="Cupa", **options)
    assert refused.value.code == "invalid_input"
    assert not Event.objects.exists()


def test_an_event_logged_before_the_clock_has_no_time_limit() -> None:
    created = services.event_create(organizer=organizer(), name="Cupa", round_minutes=45)
    payload = store.read(championship_stream(created.id))[0].payload
    assert (payload["round_minutes"], payload["at_time"]) == (45, "none")

    old = {k: v for k, v in payload.items() if k not in ("round_minutes", "at_time")}
    event = decode("EventCreated", old)

    assert isinstance(event, EventCreated)
    assert (event.round_minutes, event.at_time) == (0, "none")


def test_a_round_with_a_time_limit_stores_when_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    stopped_clock(monkeypatch, NOON)

    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")

    started = store.read(championship_stream(event.id))[-1]
    assert (started.type, started.payload["ends_at"]) == (
        "RoundStarted",
        "2026-05-01T12:30:00+00:00",
    )
    assert event.round_ends_at == NOON + timedelta(minutes=30)


def test_at_time_each_table_finishes_its_deal_and_the_event_ends_with_fewer_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round of 30 minutes whose table is in its third deal
    clock = stopped_clock(monkeypatch, NOON)
    event, _, entrants, (game,) = event_round(
        4, public=True, round_minutes=30, at_time="finish-deal"
    )
    into_the_third_deal(game.id, entrants)

    # When the clock's task runs a minute early, then nothing is recorded
    clock.now = NOON + timedelta(minutes=29, seconds=59)
    assert services.event_call_time(event_id=event.id, round_number=1) is False
    assert "TimeCalled" not in game_types(game.id)

    # When it runs at time, twice
    clock.now = NOON + timedelta(minutes=30)
    first = call_round_time(str(event.id), 1)
    log, game_log = log_types(event.id), game_types(game.id)
    second = call_round_time(str(event.id), 1)

    # Then the first records the round's time up and the table's TimeCalled, the
    # second nothing more
    assert (first, second) == (True, False)
    assert log[-1] == "RoundTimeUp"
    assert (log_types(event.id), game_types(game.id)) == (log, game_log)
    called = [r.payload for r in store.read(stream_of(game.id)) if r.type == "TimeCalled"]
    assert called == [{"deals": 3}]

    # And the deal in progress is played out, then the game and the event are over
    play_to_end(game.id, entrants)
    update_standings(str(event.id))
    table = load_table(game.id).romanian_game
    assert (len(table.results), len(table.schedule), table.phase) == (3, 9, Phase.FINISHED)
    row = Event.objects.get(pk=event.id)
    assert row.status == "finished"
    expected = [(p, rank, float(points)) for p, rank, points in standings(event.id)]
    assert sorted(p for p, _, _ in expected) == sorted(user.pk for user in entrants)

    # And a rebuild of the standings from the logs agrees
    rebuild_standings()
    assert standings(event.id) == expected


def test_under_no_rule_the_clock_is_only_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, _, _, (game,) = event_round(4, public=True, round_minutes=30)

    clock.now = NOON + timedelta(hours=1)

    assert call_round_time(str(event.id), 1) is False
    assert "RoundTimeUp" not in log_types(event.id)
    assert "TimeCalled" not in game_types(game.id)


def test_the_clock_of_another_round_or_event_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    clock.now = NOON + timedelta(hours=1)

    assert call_round_time(str(event.id), 2) is False
    assert call_round_time(str(uuid.uuid4()), 1) is None
    assert "RoundTimeUp" not in log_types(event.id)


def test_a_table_in_the_room_records_one_more_deal_at_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a round in the room of 30 minutes, its first deal written down
    clock = stopped_clock(monkeypatch, NOON)
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Etapa",
        rounds=1,
        options={
            "schedule": "1-8-1",
            "step": 2,
            "repeat_one_card_deals": False,
            "repeat_eight_card_deals": False,
        },
        place="room",
        round_minutes=30,
        at_time="finish-deal",
    )
    for player in UserFactory.create_batch(3):
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    game_record_deal(game_id=game.id, actor=creator, **written(game.id, 0))

    # When time is up
    clock.now = NOON + timedelta(minutes=30)
    assert call_round_time(str(event.id), 1) is True

    # Then the deal being played is written down, and the game is over after it
    game_record_deal(game_id=game.id, actor=creator, **written(game.id, 1))
    update_standings(str(event.id))
    assert load_table(game.id).status == "finished"
    with pytest.raises(GameOver):
        game_record_deal(game_id=game.id, actor=creator, **written(game.id, 2))
    assert Event.objects.get(pk=event.id).status == "finished"


def written(game_id: uuid.UUID, hand: int) -> dict[str, Any]:
    """Deal ``hand``: everyone bid 0, the dealer's left-hand player took every trick."""
    game = load_table(game_id).romanian_game
    n = game.player_count
    tricks = [0] * n
    tricks[(game.first_dealer + hand + 1) % n] = game.schedule[hand].cards
    return {"hand": hand, "bids": [0] * n, "tricks": tricks}


def test_the_picture_says_when_the_round_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    clock.now = NOON + timedelta(minutes=21)

    picture = selectors.event_live(event.id)

    assert picture["round_ends_at"] == "2026-05-01T12:30:00+00:00"
    assert picture["round_warnings"] == [600, 300]
    assert picture["at_time"] == "finish-deal"


@pytest.mark.parametrize(
    ("minutes_in", "seconds_left", "warning"),
    [
        (0, 1800, None),
        (19, 660, None),
        (20, 600, 10),
        (25, 300, 5),
        (29, 60, 5),
        (30, 0, None),
        (45, 0, None),
    ],
)
def test_the_clock_counts_down_and_warns_at_ten_and_five_minutes_then_says_time(
    minutes_in: int, seconds_left: int, warning: int | None
) -> None:
    ends_at = NOON + timedelta(minutes=30)

    clock = selectors.round_clock(ends_at, NOON + timedelta(minutes=minutes_in))

    assert clock == selectors.RoundClock(ends_at, seconds_left, warning)
    assert clock.time_up == (seconds_left == 0)


def test_a_round_without_a_limit_has_no_clock() -> None:
    assert selectors.round_clock(None, NOON) is None


# --- Through the pages ------------------------------------------------------------------


def test_the_create_form_sets_a_round_time_limit_and_its_rule_and_defaults_to_none() -> None:
    owner = signed_in(organizer())

    owner.post(
        "/events/new/",
        {**VALID_EVENT, "round_minutes": "45", "at_time": "finish-deal"},
    )
    owner.post("/events/new/", {**VALID_EVENT, "name": "Cupa veche"})

    chosen = {
        event.name: (
            load_championship(event.id).settings.round_minutes,
            load_championship(event.id).settings.at_time,
        )
        for event in Event.objects.all()
    }
    assert chosen == {"Cupa Atu": (45, "finish-deal"), "Cupa veche": (0, "none")}


def test_the_create_form_refuses_the_finish_rule_for_duplicate_deals_and_says_why() -> None:
    owner = signed_in(organizer())

    response = owner.post(
        "/events/new/",
        {
            **VALID_EVENT,
            "points": "matchpoints",
            "duplicate": "on",
            "round_minutes": "30",
            "at_time": "finish-deal",
        },
    )

    assert response.status_code == 400
    assert not Event.objects.exists()


def test_a_table_of_a_round_with_a_limit_counts_down_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    _, _, entrants, (game,) = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    clock.now = NOON + timedelta(minutes=21)

    home = table_home(game.id)
    page = text(signed_in(entrants[0]).get(f"/games/{game.code}/"))

    assert home is not None
    assert (home.ends_at, home.warnings, home.at_time) == (
        "2026-05-01T12:30:00+00:00",
        ((600, 10), (300, 5)),
        "finish-deal",
    )
    assert 'data-ends-at="2026-05-01T12:30:00+00:00"' in page
    assert 'data-warnings="600:10,300:5"' in page
    assert "Time! Finish the deal in progress; no new deal starts." in page
    assert "atu/clock" in page


def test_the_event_and_manage_pages_show_the_clock_while_the_round_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)

    public = text(Client().get(f"/events/{event.code}/"))
    manage = text(signed_in(creator).get(f"/events/{event.code}/manage/"))

    for page in (public, manage):
        assert 'data-ends-at="2026-05-01T12:30:00+00:00"' in page
        assert "Time! The round's time is up." in page


def test_the_audit_trail_lists_the_time_up(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    clock.now = NOON + timedelta(minutes=30)
    services.event_call_time(event_id=event.id, round_number=1)

    last = selectors.event_audit(event.id)[-1]

    assert (last.actor, last.action) == (
        "",
        "Round 1's time was up: each table finished its deal and played no more",
    )


def test_a_clock_past_due_is_applied_by_the_next_standings_update(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round past its time whose timer was lost (a restart)
    clock = stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    clock.now = NOON + timedelta(minutes=31)

    # When the standings are brought up to date (after a hand scored)
    update_standings(str(event.id))

    # Then the rule at time is applied
    assert log_types(event.id)[-1] == "RoundTimeUp"


# Beat's check runs its tasks one inside another, each closing its connection after it,
# as a worker does: outside a test's transaction.
@pytest.mark.django_db(transaction=True)
def test_a_clock_past_due_is_found_by_beats_check_and_applied_by_its_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round whose 30 minutes are up, its timer lost, and one with time left
    clock = stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    event_round(4, public=True, round_minutes=60, at_time="finish-deal")
    clock.now = NOON + timedelta(minutes=31)

    # When beat's check looks (it sends the task for each round it finds)
    due = rounds_past_time(clock.now)

    # Then it finds the round past its time alone, and its task, run as the worker runs
    # it, records the time
    assert due == [(event.id, 1)]
    call_round_time(str(event.id), 1)
    assert log_types(event.id)[-1] == "RoundTimeUp"


def test_the_rooms_screen_has_the_countdown_its_script_fills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, *_ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")

    screen = text(Client().get(f"/events/{event.code}/screen/"))

    assert 'id="round-clock"' in screen
    assert 'data-warnings="600:10,300:5"' in screen
    assert "Time! Finish the deal in progress; no new deal starts." in screen
    assert static("atu/clock.js") in screen
