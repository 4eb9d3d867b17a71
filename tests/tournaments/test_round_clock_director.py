"""The director's hand on the round clock: calling time now, as the "finish-deal" rule
does at the limit, whatever the event's rule; extending the round, which moves its
deadline for every countdown and for the clock's task; both recorded with who, when and
why, and refused with their codes when they cannot act (decision 3407)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import formats, timezone

from accounts.models import User
from eventlog import store
from games.commands.actions import game_record_deal
from games.models import Game
from games.read.selectors import table_home
from games.rules import Phase
from games.table import stream_of
from games.write.tables import load_table
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import (
    SHORT_RULES,
    event_round,
    organizer,
    round_games,
    stopped_clock,
)
from tests.tournaments.test_round_clock import (
    game_types,
    into_the_third_deal,
    log_types,
    standings,
    written,
)
from tests.tournaments.test_views import signed_in, text
from tournaments import selectors, services
from tournaments.championship import championship_stream
from tournaments.models import Event
from tournaments.projections.rebuild import rebuild_standings
from tournaments.tasks import call_round_time, update_standings

NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


def last_record(event_id: uuid.UUID) -> store.Recorded:
    return store.read(championship_stream(event_id))[-1]


def refusal(call: Any, **kwargs: Any) -> str:
    with pytest.raises(DomainError) as refused:
        call(**kwargs)
    return refused.value.code


# --- Calling time by hand ------------------------------------------------------------


def test_calling_time_under_no_rule_finishes_each_tables_deal_and_the_standings_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round of 30 minutes under no rule, its table in its third deal
    clock = stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(4, public=True, round_minutes=30)
    into_the_third_deal(game.id, entrants)

    # When the director calls time 10 minutes in, with a reason
    clock.now = NOON + timedelta(minutes=10)
    services.event_call_time_now(
        event_id=event.id, actor=creator, round_number=1, reason="The room closes early"
    )

    # Then the table is told the deal in progress is its last, and the event records
    # the time called, by the director, when and why
    called = [r.payload for r in store.read(stream_of(game.id)) if r.type == "TimeCalled"]
    assert called == [{"deals": 3}]
    record = last_record(event.id)
    assert (record.type, record.actor_id, record.payload) == (
        "RoundTimeUp",
        creator.pk,
        {"round": 1, "reason": "The room closes early", "called_at": "2026-05-01T12:10:00+00:00"},
    )
    # And the round's deadline is now: every countdown says time
    row = Event.objects.get(pk=event.id)
    assert (row.round_ends_at, row.round_time_called) == (clock.now, True)
    picture = selectors.event_live(event.id)
    assert (picture["round_ends_at"], picture["round_time_called"]) == (
        "2026-05-01T12:10:00+00:00",
        True,
    )

    # And the deal is played out, the game ends after three deals, and the standings
    # and their rebuild agree
    play_to_end(game.id, entrants)
    update_standings(str(event.id))
    table = load_table(game.id).romanian_game
    assert (len(table.results), table.phase) == (3, Phase.FINISHED)
    assert Event.objects.get(pk=event.id).status == "finished"
    expected = standings(event.id)
    rebuild_standings()
    assert standings(event.id) == expected
    assert Event.objects.get(pk=event.id).round_time_called is True


def test_a_round_without_a_limit_may_have_its_time_called_and_gets_a_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(4, public=True)
    into_the_third_deal(game.id, entrants)

    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)

    assert "TimeCalled" in game_types(game.id)
    assert last_record(event.id).payload == {
        "round": 1,
        "reason": "",
        "called_at": "2026-05-01T12:00:00+00:00",
    }
    assert Event.objects.get(pk=event.id).round_ends_at == NOON


def test_a_deputy_calls_time_and_the_audit_trail_names_them_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30, at_time="finish-deal")
    deputy = UserFactory.create(username="ana", display_name="Ana Deputy")
    services.event_name_deputy(event_id=event.id, actor=creator, who="ana")

    services.event_call_time_now(
        event_id=event.id, actor=deputy, round_number=1, reason="Fire drill"
    )

    last = selectors.event_audit(event.id)[-1]
    assert (last.actor, last.action, last.reason, last.kind) == (
        "Ana Deputy",
        "Called time in round 1: each table finishes its deal and plays no more",
        "Fire drill",
        "RoundTimeUp",
    )


def test_the_clocks_task_at_the_limit_after_time_was_called_records_nothing_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, creator, _, (game,) = event_round(
        4, public=True, round_minutes=30, at_time="finish-deal"
    )
    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)
    log, game_log = log_types(event.id), game_types(game.id)

    clock.now = NOON + timedelta(minutes=30)

    assert call_round_time(str(event.id), 1) is False
    assert (log_types(event.id), game_types(game.id)) == (log, game_log)


def test_calling_time_is_refused_with_its_code_when_it_cannot_act(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(4, public=True, round_minutes=30)
    call = services.event_call_time_now

    # Someone who directs nothing; a page drawn for another round
    assert refusal(call, event_id=event.id, actor=entrants[0], round_number=1) == ("not_organizer")
    assert refusal(call, event_id=event.id, actor=creator, round_number=2) == "wrong_round"
    # Time called already
    call(event_id=event.id, actor=creator, round_number=1)
    assert refusal(call, event_id=event.id, actor=creator, round_number=1) == "time_called"
    # No table of the round playing any more
    play_to_end(game.id, entrants)
    assert refusal(call, event_id=event.id, actor=creator, round_number=1) == ("no_round_in_play")
    assert log_types(event.id).count("RoundTimeUp") == 1


def test_calling_time_before_round_one_is_refused_as_no_round_in_play() -> None:
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)

    code = refusal(services.event_call_time_now, event_id=event.id, actor=creator, round_number=1)

    assert code == "no_round_in_play"


@pytest.mark.parametrize(
    "options",
    [
        {"kind": "classic", "table_size": 4},
        {"options": SHORT_RULES, "duplicate": True, "points": "matchpoints"},
    ],
    ids=["whist-drive", "duplicate"],
)
def test_a_whist_drive_or_duplicate_deals_have_no_time_called(options: dict[str, Any]) -> None:
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa", rounds=1, round_minutes=30, **options
    )
    for player in UserFactory.create_batch(4):
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player)
    services.event_start_round(event_id=event.id, actor=creator)

    code = refusal(services.event_call_time_now, event_id=event.id, actor=creator, round_number=1)

    assert code == "plays_every_deal"
    assert "RoundTimeUp" not in log_types(event.id)


def room_round_after_a_deal() -> tuple[Event, User, Game]:
    """A one-round event of three in the room, no limit, its table's first deal written
    down: the event, its organizer and the table's game."""
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Etapa", rounds=1, options=SHORT_RULES, place="room"
    )
    for player in UserFactory.create_batch(3):
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    game_record_deal(game_id=game.id, actor=creator, **written(game.id, 0))
    return event, creator, game


def test_a_table_in_the_room_with_time_called_by_hand_records_one_more_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round in the room with no rule at time, its first deal written down
    stopped_clock(monkeypatch, NOON)
    event, creator, game = room_round_after_a_deal()

    # When the director calls time
    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)

    # Then the table plays the deal being played, its second, and no more
    assert load_table(game.id).romanian_game.deals_to_play == 2
    game_record_deal(game_id=game.id, actor=creator, **written(game.id, 1))
    assert load_table(game.id).status == "finished"


# --- Extending the round ---------------------------------------------------------------


def test_an_extension_moves_the_deadline_and_is_recorded_with_the_director_and_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = stopped_clock(monkeypatch, NOON)
    event, creator, _, (game,) = event_round(
        4, public=True, round_minutes=30, at_time="finish-deal"
    )
    clock.now = NOON + timedelta(minutes=20)

    services.event_extend_round(
        event_id=event.id, actor=creator, round_number=1, minutes=7, reason="Late start"
    )

    record = last_record(event.id)
    assert (record.type, record.actor_id, record.payload) == (
        "RoundExtended",
        creator.pk,
        {"round": 1, "minutes": 7, "reason": "Late start", "ends_at": "2026-05-01T12:37:00+00:00"},
    )
    assert Event.objects.get(pk=event.id).round_ends_at == NOON + timedelta(minutes=37)
    assert selectors.event_live(event.id)["round_ends_at"] == "2026-05-01T12:37:00+00:00"
    home = table_home(game.id)
    assert home is not None and home.ends_at == "2026-05-01T12:37:00+00:00"
    # And the audit trail says it, with who and why
    last = selectors.event_audit(event.id)[-1]
    until = formats.time_format(timezone.localtime(NOON + timedelta(minutes=37)), "H:i")
    assert (last.actor, last.action, last.reason) == (
        creator.display,
        f"Extended round 1 by 7 minutes, to {until}",
        "Late start",
    )


def test_the_clocks_task_for_the_old_deadline_waits_for_the_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a round of 30 minutes extended by 5, its table playing
    clock = stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(
        4, public=True, round_minutes=30, at_time="finish-deal"
    )
    into_the_third_deal(game.id, entrants)
    services.event_extend_round(
        event_id=event.id, actor=creator, round_number=1, minutes=5, reason="A long call"
    )

    # When the task set for the old deadline runs then, and a standings update too
    clock.now = NOON + timedelta(minutes=30)
    early = call_round_time(str(event.id), 1)
    update_standings(str(event.id))

    # Then nothing is called; at the new deadline, the task calls time
    assert early is None
    assert "RoundTimeUp" not in log_types(event.id)
    assert "TimeCalled" not in game_types(game.id)
    clock.now = NOON + timedelta(minutes=35)
    assert call_round_time(str(event.id), 1) is True
    assert log_types(event.id)[-1] == "RoundTimeUp"


def test_an_extension_past_the_deadline_counts_from_now(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a round whose 30 minutes are up under no rule: the tables play on
    clock = stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)
    clock.now = NOON + timedelta(minutes=40)

    services.event_extend_round(
        event_id=event.id, actor=creator, round_number=1, minutes=10, reason="Ten more"
    )

    assert Event.objects.get(pk=event.id).round_ends_at == NOON + timedelta(minutes=50)


@pytest.mark.parametrize("minutes", [0, 61, -5, True, "5", 2.5])
def test_an_extension_out_of_range_is_refused_with_its_code(
    minutes: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)

    code = refusal(
        services.event_extend_round,
        event_id=event.id,
        actor=creator,
        round_number=1,
        minutes=minutes,
        reason="Why not",
    )

    assert code == "extension_out_of_range"
    assert log_types(event.id)[-1] == "RoundStarted"


def test_an_extension_is_refused_with_its_code_when_it_cannot_act(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(4, public=True, round_minutes=30)
    unlimited, host, _, _ = event_round(4, public=True)
    extend = services.event_extend_round
    asked = {"round_number": 1, "minutes": 5, "reason": "More"}

    assert refusal(extend, event_id=event.id, actor=entrants[0], **asked) == "not_organizer"
    assert refusal(extend, event_id=unlimited.id, actor=host, **asked) == "no_time_limit"
    assert refusal(extend, event_id=event.id, actor=creator, **{**asked, "reason": " "}) == (
        "invalid_input"
    )
    assert refusal(extend, event_id=event.id, actor=creator, **{**asked, "round_number": 3}) == (
        "wrong_round"
    )
    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)
    assert refusal(extend, event_id=event.id, actor=creator, **asked) == "time_called"
    play_to_end(game.id, entrants)
    assert refusal(extend, event_id=event.id, actor=creator, **asked) == "no_round_in_play"
    assert "RoundExtended" not in log_types(event.id)


# --- What the tables' desks say ----------------------------------------------------------


def test_a_tables_desk_carries_its_rounds_deadline_and_whether_time_was_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, entrants, (game,) = event_round(4, public=True, round_minutes=30)
    players = [entrant.pk for entrant in entrants]

    def desk() -> tuple[Any, Any]:
        seen = selectors.desk_seen_by(
            selectors.desk_source(event.id), game.id, players, entrants[0].pk
        )
        return seen["ends_at"], seen["time_called"]

    started = desk()
    services.event_extend_round(
        event_id=event.id, actor=creator, round_number=1, minutes=15, reason="More"
    )
    extended = desk()
    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)
    called = desk()
    elsewhere = selectors.desk_seen_by(
        selectors.desk_source(event.id), uuid.uuid4(), players, entrants[0].pk
    )

    assert started == ("2026-05-01T12:30:00+00:00", False)
    assert extended == ("2026-05-01T12:45:00+00:00", False)
    assert called == ("2026-05-01T12:00:00+00:00", True)
    # A table of no round in play is told no clock.
    assert (elsewhere["ends_at"], elsewhere["time_called"]) == (None, False)


# --- Through the pages --------------------------------------------------------------------


def manage_url(event: Event, action: str = "") -> str:
    return f"/events/{event.code}/manage/{action}"


def test_the_manage_page_offers_the_clock_while_a_round_plays_and_not_once_time_is_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)
    owner = signed_in(creator)

    before = text(owner.get(manage_url(event)))
    services.event_call_time_now(event_id=event.id, actor=creator, round_number=1)
    after = text(owner.get(manage_url(event)))

    assert '<div id="clock-control" class="clock-control">' in before
    assert "Call time now" in before and "Extend the round" in before
    assert '<input type="hidden" name="round" value="1" id="call-time-round">' in before
    assert '<div id="clock-control" class="clock-control" hidden>' in after
    assert 'data-called="true"' in after


def test_the_manage_page_offers_no_extension_without_a_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True)

    page = text(signed_in(creator).get(manage_url(event)))

    assert '<details class="confirm" id="extend-round" hidden>' in page
    assert '<details class="confirm" id="call-time">' in page


def test_calling_time_on_the_manage_page_records_it_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)
    owner = signed_in(creator)

    response = owner.post(manage_url(event, "clock/call/"), {"round": "1", "reason": "Late"})

    assert (response.status_code, response["Location"]) == (302, manage_url(event))
    assert last_record(event.id).payload["reason"] == "Late"
    page = text(owner.get(manage_url(event)))
    assert "Time called in round 1: each table finishes its deal." in page


def test_extending_on_the_manage_page_records_it_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)
    owner = signed_in(creator)

    response = owner.post(
        manage_url(event, "clock/extend/"), {"round": "1", "minutes": "5", "reason": "Late"}
    )

    assert response.status_code == 302
    assert last_record(event.id).type == "RoundExtended"
    assert "Round 1 extended by 5 minutes." in text(owner.get(manage_url(event)))


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"round": "1", "minutes": "61", "reason": "x"}, 400, "less than or equal to 60"),
        ({"round": "1", "minutes": "0", "reason": "x"}, 400, "greater than or equal to 1"),
        ({"round": "1", "minutes": "5", "reason": ""}, 400, "This field is required."),
        ({"round": "2", "minutes": "5", "reason": "x"}, 409, "That round is no longer in play"),
    ],
)
def test_an_extension_the_manage_page_cannot_take_shows_the_page_again_with_why(
    body: dict[str, str], status: int, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, creator, _, _ = event_round(4, public=True, round_minutes=30)

    response = signed_in(creator).post(manage_url(event, "clock/extend/"), body)

    assert response.status_code == status
    assert said in text(response)
    assert log_types(event.id)[-1] == "RoundStarted"


def test_a_player_may_not_call_time_or_extend_from_the_manage_routes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    event, _, entrants, _ = event_round(4, public=True, round_minutes=30)
    player = signed_in(entrants[0])

    called = player.post(manage_url(event, "clock/call/"), {"round": "1"})
    extended = player.post(
        manage_url(event, "clock/extend/"), {"round": "1", "minutes": "5", "reason": "x"}
    )
    anonymous = Client().post(manage_url(event, "clock/call/"), {"round": "1"})

    assert (called.status_code, extended.status_code, anonymous.status_code) == (403, 403, 302)
    assert log_types(event.id)[-1] == "RoundStarted"


def test_a_tables_page_of_a_round_without_a_limit_has_a_hidden_countdown_for_its_desk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stopped_clock(monkeypatch, NOON)
    _, _, entrants, (game,) = event_round(4, public=True)

    page = text(signed_in(entrants[0]).get(f"/games/{game.code}/"))

    assert 'id="round-clock"' in page and 'data-ends-at=""' in page
    assert "atu/clock" in page
    assert Game.objects.get(pk=game.id).status == "playing"
