"""An event's schedule, through the services: its start in its time zone, its entry
limit and deadline, its check-in window, and its start by the clock (check-in closed,
the no-shows withdrawn or played by bots, round 1 started), recorded in its stream so
that a rebuild of the read models agrees."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from accounts.models import User
from eventlog import store
from games.write.tables import load_table
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_bots_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, wait_until
from tests.tournaments.projections.test_standings import read_models
from tournaments import services, tasks
from tournaments.championship import CheckInClosed, EventCreated, championship_stream, decode
from tournaments.models import Entry, Event
from tournaments.projections.rebuild import rebuild_standings
from tournaments.projections.standings import read_figures
from tournaments.tasks import update_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bots_wait(settings: Any) -> None:
    # The bots' moves are not these tests'.
    settings.ATU_BOT_DELAY_SECONDS = 3600


BUCHAREST = ZoneInfo("Europe/Bucharest")
# 10:00 in Bucharest on a winter's day is 08:00 UTC.
START = datetime(2036, 1, 10, 10, 0, tzinfo=BUCHAREST)


def at(monkeypatch: pytest.MonkeyPatch, now: datetime) -> None:
    """The schedule's clock reads ``now``."""
    monkeypatch.setattr(services, "_now", lambda: now)


def scheduled(creator: User | None = None, **schedule: Any) -> Event:
    return services.event_create(
        organizer=creator or organizer(),
        name="Cupa de iarnă",
        options=SHORT_RULES,
        rounds=2,
        starts_at=schedule.pop("starts_at", START),
        time_zone=schedule.pop("time_zone", "Europe/Bucharest"),
        **schedule,
    )


def created(event: Event) -> EventCreated:
    first = store.read(championship_stream(event.id))[0].event
    assert isinstance(first, EventCreated)
    return first


def refused(code: str, call: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as raised:
        call(**kwargs)
    assert raised.value.code == code, raised.value.message
    return raised.value


def enter(event: Event, count: int) -> list[User]:
    players: list[User] = UserFactory.create_batch(count)
    for player in players:
        services.event_register(event_id=event.id, actor=player)
    return players


def logged(event: Event) -> list[str]:
    return [record.type for record in store.read(championship_stream(event.id))]


def test_a_scheduled_event_records_its_start_in_utc_with_the_zone_it_is_shown_in() -> None:
    # When an organizer schedules an event for 10:00 in Bucharest
    event = scheduled(
        description="  Open to all.  ",
        entry_limit=24,
        entry_deadline=START - timedelta(hours=2),
        check_in_seconds=45 * 60,
        no_shows="bot",
    )

    # Then its stream records the instant in UTC, the zone and the rest of the schedule
    first = created(event)
    assert (first.starts_at, first.time_zone) == ("2036-01-10T08:00:00+00:00", "Europe/Bucharest")
    assert first.entry_deadline == "2036-01-10T06:00:00+00:00"
    assert (first.description, first.entry_limit) == ("Open to all.", 24)
    assert (first.check_in_seconds, first.no_shows) == (2700, "bot")
    # And the read model holds it, check-in opening 45 minutes before the start
    row = Event.objects.get(pk=event.id)
    assert row.starts_at == datetime(2036, 1, 10, 8, 0, tzinfo=UTC)
    assert row.check_in_opens_at == datetime(2036, 1, 10, 7, 15, tzinfo=UTC)
    assert (row.time_zone, row.entry_limit, row.entered) == ("Europe/Bucharest", 24, 0)


def test_an_event_recorded_before_the_schedule_is_unscheduled() -> None:
    # Given an EventCreated payload as stored before the schedule existed
    old = {
        "name": "Old Cup",
        "code": "ABCD1234",
        "organizer_id": 1,
        "season_id": None,
        "preset": "championship",
        "options": {},
        "table_size": 4,
        "rounds": 3,
        "points": "relative",
        "tie_breaks": ["exact_bids"],
        "public": True,
        "spectator_delay": 0,
        "duplicate": False,
        "first_round": "random",
        "seed": "00",
    }

    # When it is decoded
    event = decode("EventCreated", old)

    # Then it has no start, no limit, no deadline and no check-in window
    assert isinstance(event, EventCreated)
    assert (event.start, event.deadline, event.check_in_opens) == (None, None, None)
    assert (event.entry_limit, event.description, event.no_shows) == (None, "", "withdraw")


def test_an_event_without_a_start_takes_the_sites_time_zone_and_no_window() -> None:
    event = services.event_create(organizer=organizer(), name="Cupa", options=SHORT_RULES)

    first = created(event)
    assert (first.starts_at, first.time_zone, first.check_in_seconds) == (None, "UTC", 0)


@pytest.mark.parametrize(
    "schedule",
    [
        {"time_zone": "Mars/Olympus"},
        {"starts_at": datetime(2020, 1, 1, tzinfo=UTC)},
        {"starts_at": datetime(2036, 1, 10, 10, 0)},  # no zone
        {"entry_deadline": START + timedelta(minutes=1)},
        {"check_in_seconds": 0},
        {"entry_limit": 2},
        {"no_shows": "ghost"},
        {"description": "x" * 2001},
    ],
)
def test_a_schedule_that_cannot_be_kept_is_refused(schedule: dict[str, Any]) -> None:
    refused(
        "invalid_input",
        scheduled,
        **schedule,
    )


def test_no_shows_played_by_bots_are_refused_at_an_event_in_the_room() -> None:
    refused("invalid_input", scheduled, no_shows="bot", place="room")


def test_a_full_event_refuses_an_entry_until_a_place_is_freed() -> None:
    # Given an event of at most 3 entries, full
    event = scheduled(entry_limit=3)
    first, *_ = enter(event, 3)
    latecomer = UserFactory.create()

    # When a fourth player enters, or the organizer adds a bot
    error = refused("event_full", services.event_register, event_id=event.id, actor=latecomer)
    director = User.objects.get(pk=event.organizer_id)
    refused("event_full", services.event_add_bots, event_id=event.id, actor=director, count=1)

    # Then both are refused as full (409), and the list counts 3 entered
    assert error.status == 409
    assert Event.objects.get(pk=event.id).entered == 3
    # And once one withdraws, the latecomer takes the place
    services.event_withdraw(event_id=event.id, actor=first)
    services.event_register(event_id=event.id, actor=latecomer)
    assert Event.objects.get(pk=event.id).entered == 3


def test_after_the_deadline_a_player_may_not_enter_but_the_organizer_may_enter_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given an event whose entries close an hour before its start, that hour come
    event = scheduled(entry_deadline=START - timedelta(hours=1))
    at(monkeypatch, START - timedelta(minutes=59))
    player = UserFactory.create()

    # When the player enters
    error = refused(
        "entry_deadline_passed", services.event_register, event_id=event.id, actor=player
    )

    # Then it is refused (409); the organizer may still enter them
    assert error.status == 409
    director = User.objects.get(pk=event.organizer_id)
    services.event_register(event_id=event.id, actor=director, player=player)
    assert list(Entry.objects.filter(event_id=event.id).values_list("player_id", flat=True)) == [
        player.pk
    ]


def test_a_player_checks_in_only_within_the_window_and_the_organizer_at_any_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a scheduled event whose check-in opens 30 minutes before the start
    event = scheduled(check_in_seconds=30 * 60)
    early, punctual, late = enter(event, 3)
    director = User.objects.get(pk=event.organizer_id)

    # When a player checks in 31 minutes before the start
    at(monkeypatch, START - timedelta(minutes=31))
    not_open = refused("check_in_not_open", services.event_check_in, event_id=event.id, actor=early)
    # And another 30 minutes before it, and a third at the start
    at(monkeypatch, START - timedelta(minutes=30))
    services.event_check_in(event_id=event.id, actor=punctual)
    at(monkeypatch, START)
    closed = refused("check_in_closed", services.event_check_in, event_id=event.id, actor=late)
    # And the organizer checks the first in at the start all the same
    services.event_check_in(event_id=event.id, actor=director, player_id=early.pk)

    # Then the player early and the one late are refused (409); two are checked in
    assert (not_open.status, closed.status) == (409, 409)
    checked = Entry.objects.filter(event_id=event.id, checked_in=True)
    assert sorted(checked.values_list("player_id", flat=True)) == sorted([early.pk, punctual.pk])


def test_an_unscheduled_event_takes_check_in_at_any_time() -> None:
    event = services.event_create(organizer=organizer(), name="Cupa", options=SHORT_RULES)
    (player,) = enter(event, 1)

    services.event_check_in(event_id=event.id, actor=player)

    assert Entry.objects.get(event_id=event.id, player_id=player.pk).checked_in


def test_before_its_start_an_event_is_not_begun(monkeypatch: pytest.MonkeyPatch) -> None:
    event = scheduled()
    at(monkeypatch, START - timedelta(seconds=1))

    assert services.event_begin(event_id=event.id) is None
    assert logged(event) == ["EventCreated"]


def test_at_its_start_the_no_shows_are_withdrawn_and_round_1_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a scheduled event of three bots and two people, one of whom checked in
    event = scheduled()
    director = User.objects.get(pk=event.organizer_id)
    present, absent = enter(event, 2)
    services.event_add_bots(event_id=event.id, actor=director, count=3)
    at(monkeypatch, START - timedelta(minutes=5))
    services.event_check_in(event_id=event.id, actor=present)

    # When the start comes and the event is begun
    at(monkeypatch, START)
    services.event_begin(event_id=event.id)

    # Then check-in closed with the no-show withdrawn, by nobody (the clock), and
    # round 1 started with the four present, by the organizer's authority
    records = store.read(championship_stream(event.id))
    closing, started = records[-2], records[-1]
    assert closing.event == CheckInClosed(withdrawn=(absent.pk,))
    assert closing.actor_id is None
    assert (started.type, started.actor_id) == ("RoundStarted", director.pk)
    row = Event.objects.get(pk=event.id)
    assert (row.status, row.rounds_started, row.entered) == ("running", 1, 4)
    seated = sorted(
        p for table in services.load_championship(event.id).rounds[0].tables for p in table
    )
    assert absent.pk not in seated and present.pk in seated and len(seated) == 4
    assert Entry.objects.get(event_id=event.id, player_id=absent.pk).withdrawn
    # And a rebuild of the read models from the log agrees
    rebuild_standings()
    rebuilt = Event.objects.get(pk=event.id)
    assert (rebuilt.status, rebuilt.rounds_started, rebuilt.entered) == ("running", 1, 4)
    assert Entry.objects.get(event_id=event.id, player_id=absent.pk).withdrawn


def test_at_its_start_a_no_show_is_seated_with_a_bot_playing_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given an event whose no-shows are played by bots, of three bots and one person
    # who never checked in
    event = scheduled(no_shows="bot", bot_level="easy")
    director = User.objects.get(pk=event.organizer_id)
    (absent,) = enter(event, 1)
    services.event_add_bots(event_id=event.id, actor=director, count=3)

    # When the start comes
    at(monkeypatch, START + timedelta(seconds=3))
    services.event_begin(event_id=event.id)

    # Then the no-show is seated, and an easy bot plays their seat
    championship = services.load_championship(event.id)
    assert store.read(championship_stream(event.id))[-2].event == CheckInClosed(bots=(absent.pk,))
    (table,) = championship.rounds[0].tables
    game = load_table(uuid.UUID(championship.rounds[0].games[0]))
    seat = table.index(absent.pk)
    assert game.seats[seat] is not None and game.seats[seat].user_id == absent.pk
    assert game.bots[seat] == "easy"
    # And they are entered, checked in, not withdrawn, and played by a bot
    entry = Entry.objects.get(event_id=event.id, player_id=absent.pk)
    assert (entry.checked_in, entry.withdrawn, entry.bot_plays) == (True, False, True)

    # When they arrive and check in during round 1
    services.event_check_in(event_id=event.id, actor=absent)

    # Then they play the next rounds themselves
    assert logged(event)[-1] == "PlayerCheckedIn"
    assert not services.load_championship(event.id).entries[absent.pk].bot_plays
    assert not Entry.objects.get(event_id=event.id, player_id=absent.pk).bot_plays


def test_with_too_few_present_check_in_closes_and_round_1_waits_for_the_organizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event = scheduled()
    enter(event, 2)
    at(monkeypatch, START)

    services.event_begin(event_id=event.id)
    services.event_begin(event_id=event.id)

    assert logged(event) == [
        "EventCreated",
        "PlayerRegistered",
        "PlayerRegistered",
        "CheckInClosed",
    ]
    assert Event.objects.get(pk=event.id).status == "registration"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
def test_the_clocks_task_run_twice_begins_the_event_once() -> None:
    # Given an event of four bots and a no-show, whose start comes in a second
    starts_at = datetime.now(UTC) + timedelta(seconds=1)
    event = scheduled(starts_at=starts_at)
    director = User.objects.get(pk=event.organizer_id)
    (absent,) = enter(event, 1)
    services.event_add_bots(event_id=event.id, actor=director, count=4)
    time.sleep(max(0.0, (starts_at - datetime.now(UTC)).total_seconds()))

    # When the clock looks, and again once the event is in play, and the event's task
    # is run twice more
    looked = [tasks.begin_due_events()]
    wait_until(lambda: Event.objects.get(pk=event.id).status == "running", 60, "round 1")
    looked.append(tasks.begin_due_events())
    versions = [tasks.begin_event(str(event.id)), tasks.begin_event(str(event.id))]

    # Then it was begun once: one check-in closed, the no-show withdrawn, one round 1
    assert looked == [1, 0]
    assert logged(event)[-2:] == ["CheckInClosed", "RoundStarted"]
    assert logged(event).count("RoundStarted") == 1
    assert versions == [Event.objects.get(pk=event.id).version] * 2 == [12, 12]
    assert Entry.objects.get(event_id=event.id, player_id=absent.pk).withdrawn


def test_a_no_shows_deals_played_by_a_bot_count_for_nobody_and_bot_entrants_keep_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a no-show seated at the start with a bot playing for them, and three bots
    event = scheduled(no_shows="bot")
    director = User.objects.get(pk=event.organizer_id)
    (absent,) = enter(event, 1)
    services.event_add_bots(event_id=event.id, actor=director, count=3)
    at(monkeypatch, START + timedelta(seconds=3))
    services.event_begin(event_id=event.id)
    game_id = uuid.UUID(services.load_championship(event.id).rounds[0].games[0])

    # When the table is played to its end with the no-show never coming
    play_bots_to_end(game_id)

    # Then every deal of the no-show's seat counts for nobody (decision 3406), while
    # each bot entrant's seat is theirs alone
    seat = load_table(game_id).seat_of(absent.pk)
    figures = read_figures([game_id])[game_id]
    deals = figures.hands_scored
    assert figures.played[seat] == ((None, deals, figures.exact_bids[seat]),)
    assert [figures.played[other] for other in range(4) if other != seat] == [(), (), ()]
    # And the rebuild derives the same
    update_standings(str(event.id))
    before = read_models(event.id)
    rebuild_standings()
    assert read_models(event.id) == before
