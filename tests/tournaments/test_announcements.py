"""The director's announcements: made and withdrawn by the organizer only, through the
championship's write path, as events of its stream; what is refused and why; what the
read model, a rebuild of it and the event's picture then hold."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from eventlog import store
from games.errors import VersionConflict
from games.models import Game
from runtime.errors import DomainError
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import bot_event, organizer
from tournaments import selectors, services
from tournaments.championship import Announced, AnnouncementWithdrawn, championship_stream
from tournaments.models import Event
from tournaments.projections.rebuild import rebuild_standings

pytestmark = pytest.mark.django_db


def logged(event: Event) -> list[tuple[str, Any]]:
    """The announcements' events of the event's stream, in order."""
    return [
        (record.type, record.event)
        for record in store.read(championship_stream(event.id))
        if record.type in ("Announced", "AnnouncementWithdrawn")
    ]


def refused(code: str, status: int, call: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as raised:
        call(**kwargs)
    assert (raised.value.code, raised.value.status) == (code, status), raised.value.message
    return raised.value


def new_event() -> Event:
    return services.event_create(organizer=organizer(), name="Cupa Atu")


def organizer_of(event: Event) -> User:
    return User.objects.get(pk=event.organizer_id)


def test_the_organizer_announces_and_withdraws_as_events_of_the_championships_stream() -> None:
    # Given an event
    event = new_event()
    director = organizer_of(event)

    # When its organizer makes two announcements and withdraws the first
    services.event_announce(event_id=event.id, actor=director, text="  Coffee in the hall. ")
    services.event_announce(event_id=event.id, actor=director, text="Round 2 at 15:00.")
    result = services.event_withdraw_announcement(event_id=event.id, actor=director, number=1)

    # Then the stream holds them as said (trimmed), and the championship shows the one left
    assert logged(event) == [
        ("Announced", Announced("Coffee in the hall.")),
        ("Announced", Announced("Round 2 at 15:00.")),
        ("AnnouncementWithdrawn", AnnouncementWithdrawn(1)),
    ]
    championship = services.load_championship(event.id)
    assert [(made.number, made.text) for made in championship.announcements] == [
        (2, "Round 2 at 15:00.")
    ]
    assert result.version == championship.version == 4
    recorded = store.read(championship_stream(event.id))[2]
    assert championship.announcements[0].at == recorded.recorded_at


def test_announcements_are_shown_newest_first_in_the_read_model_and_the_picture() -> None:
    # Given three announcements
    event = new_event()
    director = organizer_of(event)
    for text in ("First.", "Second.", "Third."):
        services.event_announce(event_id=event.id, actor=director, text=text)
    times = [r.recorded_at for r in store.read(championship_stream(event.id))[1:]]

    # Then the event's read model and every viewer's picture hold them, newest first
    expected = [
        {"number": 3, "text": "Third.", "at": times[2].isoformat()},
        {"number": 2, "text": "Second.", "at": times[1].isoformat()},
        {"number": 1, "text": "First.", "at": times[0].isoformat()},
    ]
    assert Event.objects.get(pk=event.id).announcements == expected
    assert selectors.event_live(event.id)["announcements"] == expected
    assert selectors.event_live(event.id, director.pk)["announcements"] == expected

    # And a rebuild of the read models derives them again, the same
    rebuild_standings()
    assert Event.objects.get(pk=event.id).announcements == expected


@pytest.mark.parametrize("text", ["", "   ", "x" * 281, None])
def test_an_announcement_of_no_text_or_over_280_characters_is_refused(text: Any) -> None:
    event = new_event()

    error = refused(
        "invalid_input",
        400,
        services.event_announce,
        event_id=event.id,
        actor=organizer_of(event),
        text=text,
    )

    assert error.message == "an announcement is 1 to 280 characters"
    assert logged(event) == []


def test_an_announcement_of_280_characters_is_taken_whole() -> None:
    event = new_event()

    services.event_announce(event_id=event.id, actor=organizer_of(event), text="é" * 280)

    assert logged(event) == [("Announced", Announced("é" * 280))]


def test_only_the_organizer_announces_or_withdraws() -> None:
    # Given an event with an announcement, and an entrant of it
    event = new_event()
    services.event_announce(event_id=event.id, actor=organizer_of(event), text="Welcome.")
    player = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)

    # Then the entrant may neither announce nor withdraw one
    refused(
        "not_organizer", 403, services.event_announce, event_id=event.id, actor=player, text="Hi"
    )
    refused(
        "not_organizer",
        403,
        services.event_withdraw_announcement,
        event_id=event.id,
        actor=player,
        number=1,
    )
    assert logged(event) == [("Announced", Announced("Welcome."))]


def test_withdrawing_an_announcement_never_made_or_already_withdrawn_is_refused() -> None:
    event = new_event()
    director = organizer_of(event)
    services.event_announce(event_id=event.id, actor=director, text="Welcome.")
    services.event_withdraw_announcement(event_id=event.id, actor=director, number=1)

    for number in (1, 2):
        refused(
            "announcement_not_found",
            404,
            services.event_withdraw_announcement,
            event_id=event.id,
            actor=director,
            number=number,
        )
    assert len(logged(event)) == 2


def test_a_twenty_first_announcement_shown_at_once_is_refused_until_one_is_withdrawn() -> None:
    # Given twenty announcements shown
    event = new_event()
    director = organizer_of(event)
    for number in range(1, services.MAX_ANNOUNCEMENTS + 1):
        services.event_announce(event_id=event.id, actor=director, text=f"Note {number}.")

    # Then a twenty-first is refused
    refused(
        "too_many_announcements",
        409,
        services.event_announce,
        event_id=event.id,
        actor=director,
        text="One more.",
    )

    # And taken once one is withdrawn, as number 21
    services.event_withdraw_announcement(event_id=event.id, actor=director, number=5)
    services.event_announce(event_id=event.id, actor=director, text="One more.")
    assert services.load_championship(event.id).announcements[0].number == 21


def test_an_announcement_at_a_version_that_moved_on_is_refused() -> None:
    event = new_event()
    director = organizer_of(event)
    services.event_announce(event_id=event.id, actor=director, text="Welcome.")

    with pytest.raises(VersionConflict):
        services.event_announce(event_id=event.id, actor=director, text="Late.", expected_version=1)

    assert logged(event) == [("Announced", Announced("Welcome."))]


def test_the_picture_says_when_the_round_started_and_where_each_table_plays() -> None:
    # Given an event before its first round
    event, creator = bot_event(players=8, rounds=2)
    assert selectors.event_live(event.id)["round_started_at"] is None

    # When round 1 starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then the picture gives the time its RoundStarted was recorded, and each table
    # plays online
    started = store.read(championship_stream(event.id), types=["RoundStarted"])[-1]
    live = selectors.event_live(event.id)
    assert live["round_started_at"] == started.recorded_at.isoformat()
    assert [table["place"] for table in live["tables"]] == ["online", "online"]

    # And a rebuild of the read models derives the same time
    rebuild_standings()
    assert selectors.event_live(event.id)["round_started_at"] == started.recorded_at.isoformat()


def test_a_table_played_with_real_cards_is_said_to_be_in_the_room() -> None:
    # Given a round whose first table is played in the room: its game's read model says
    # so, as a game recorded by hand does (the championships do not seat such tables yet)
    event, creator = bot_event(players=8, rounds=1)
    services.event_start_round(event_id=event.id, actor=creator)
    first, second = selectors.event_live(event.id)["tables"]
    Game.objects.filter(pk=first["game_id"]).update(place="room")

    # Then the picture says where each table plays
    tables = selectors.event_live(event.id)["tables"]
    assert [(table["game_id"], table["place"]) for table in tables] == [
        (first["game_id"], "room"),
        (second["game_id"], "online"),
    ]
