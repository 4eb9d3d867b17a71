"""The schedule in the pages: the create form's When section, the event list grouped
with start times, countdowns and entry counts, and an entrant's reminders and coded
refusals on the event page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounts.models import User
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import bot_event, play_round
from tests.tournaments.test_views import VALID_EVENT, new_event, signed_in, text
from tournaments import services
from tournaments.models import Event
from tournaments.services import load_championship
from tournaments.tasks import update_standings

pytestmark = pytest.mark.django_db

BUCHAREST = ZoneInfo("Europe/Bucharest")


def soon(**delta: float) -> datetime:
    return datetime.now(UTC) + timedelta(**delta)


def row(content: str, event: Event) -> str:
    start = content.index(f'<tr data-code="{event.code}">')
    return content[start : content.index("</tr>", start)]


def group_codes(content: str, group: str) -> list[str]:
    start = content.index(f'id="events-{group}"')
    section = content[start : content.index("</section>", start)]
    return re.findall(r'<tr data-code="(\w+)">', section)


def test_the_create_form_schedules_an_event_in_the_chosen_time_zone() -> None:
    # Given an organizer
    creator: User = UserFactory.create(can_organize=True)
    client = signed_in(creator)
    page = text(client.get("/events/new/"))
    assert '<fieldset id="when"' in page and 'type="datetime-local"' in page

    # When they send the form with a start at 10:00 in Bucharest
    response = client.post(
        "/events/new/",
        {
            **VALID_EVENT,
            "starts_at": "2036-01-10T10:00",
            "time_zone": "Europe/Bucharest",
            "check_in_minutes": "20",
            "no_shows": "bot",
            "entry_deadline": "2036-01-10T09:00",
            "entry_limit": "24",
            "description": "Open to all.",
        },
    )

    # Then the event starts at 08:00 UTC, its check-in opening 20 minutes before
    assert response.status_code == 302
    settings = load_championship(Event.objects.get().id).settings
    assert settings.start == datetime(2036, 1, 10, 8, 0, tzinfo=UTC)
    assert settings.deadline == datetime(2036, 1, 10, 7, 0, tzinfo=UTC)
    assert (settings.time_zone, settings.check_in_seconds, settings.no_shows) == (
        "Europe/Bucharest",
        1200,
        "bot",
    )
    assert (settings.entry_limit, settings.description) == (24, "Open to all.")


def test_the_create_form_without_a_start_makes_an_unscheduled_event() -> None:
    creator: User = UserFactory.create(can_organize=True)

    signed_in(creator).post("/events/new/", VALID_EVENT)

    settings = load_championship(Event.objects.get().id).settings
    assert (settings.starts_at, settings.time_zone, settings.check_in_seconds) == (None, "UTC", 0)


def test_a_start_in_the_past_is_refused_on_the_form_with_its_reason() -> None:
    creator: User = UserFactory.create(can_organize=True)

    response = signed_in(creator).post(
        "/events/new/", {**VALID_EVENT, "starts_at": "2020-01-10T10:00"}
    )

    assert response.status_code == 400
    assert "the start is in the past" in text(response)
    assert not Event.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
def test_the_event_list_groups_events_with_their_start_countdown_and_entries() -> None:
    # Given an event upcoming at 10:00 in Bucharest with 2 of 24 entered, an upcoming
    # unscheduled one, one in play and one finished
    later = new_event(
        starts_at=datetime(2036, 1, 10, 10, 0, tzinfo=BUCHAREST),
        time_zone="Europe/Bucharest",
        entry_limit=24,
    )
    sooner = new_event(starts_at=soon(hours=2))
    unscheduled = new_event()
    for player in UserFactory.create_batch(2):
        services.event_register(event_id=later.id, actor=player)
    running, creator = bot_event(players=4, rounds=2)
    play_round(running.id, creator)
    finished, creator = bot_event(players=3, rounds=1)
    play_round(finished.id, creator)
    # What the worker does after the last hand (production mode runs no worker here).
    update_standings(str(finished.id))

    # When anyone opens the list
    content = text(signed_in(UserFactory.create()).get("/events/"))

    # Then they are grouped, the upcoming soonest first and unscheduled last
    assert group_codes(content, "upcoming") == [sooner.code, later.code, unscheduled.code]
    assert group_codes(content, "running") == [running.code]
    assert group_codes(content, "finished") == [finished.code]
    # And an upcoming event shows its start in its zone, a countdown to it and its entries
    shown = row(content, later)
    assert "10 Jan 2036, 10:00" in shown and "(Europe/Bucharest)" in shown
    assert 'data-countdown datetime="2036-01-10T08:00:00+00:00"' in shown
    assert "2 of 24 entered" in shown
    assert "0 entered" in row(content, unscheduled)
    assert "when the organizer starts it" in row(content, unscheduled)
    assert "4 entered" in row(content, running) and "data-countdown" not in row(content, running)
    assert 'id="atu-countdown"' in content


def test_an_entrant_is_told_when_check_in_opens_and_when_their_round_starts() -> None:
    # Given a scheduled event whose check-in opens in an hour
    start = soon(hours=1, minutes=30)
    event = new_event(starts_at=start, time_zone="Europe/Bucharest", check_in_seconds=1800)
    player: User = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)

    # When the entrant opens its page
    content = text(signed_in(player).get(f"/events/{event.code}/"))

    # Then it says when check-in opens, counts down to it and to their round, and
    # offers no check-in yet
    opens = (start - timedelta(minutes=30)).astimezone(BUCHAREST).strftime("%H:%M")
    assert f"Check-in opens at {opens}" in content
    opens_iso = Event.objects.get(pk=event.id).check_in_opens_at.isoformat()  # type: ignore[union-attr]
    assert f'data-countdown data-reload datetime="{opens_iso}"' in content
    assert "Your round starts in" in content
    assert 'id="check-in"' not in content
    # And checking in all the same is refused with the code's words
    response = signed_in(player).post(f"/events/{event.code}/check-in/")
    assert response.status_code == 409
    assert "Check-in is not open yet." in text(response)


def test_within_the_window_an_entrant_is_told_until_when_check_in_is_open() -> None:
    start = soon(minutes=10)
    event = new_event(starts_at=start, time_zone="Europe/Bucharest", check_in_seconds=1800)
    player: User = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)

    content = text(signed_in(player).get(f"/events/{event.code}/"))

    until = start.astimezone(BUCHAREST).strftime("%H:%M")
    assert f"Check-in is open until {until}" in content
    # And at the start the page swaps it, by itself, for check-in closed
    at = Event.objects.get(pk=event.id).starts_at.isoformat()  # type: ignore[union-attr]
    assert f'<p id="check-in-reminder" class="notice" data-hide-at="{at}">' in content
    assert f'<p id="check-in-closed" class="notice" data-show-at="{at}" hidden>' in content
    assert 'id="check-in"' in content
    assert "Your round starts in" in content


def test_a_full_event_says_so_and_refuses_an_entry_with_its_code() -> None:
    event = new_event(entry_limit=3)
    for player in UserFactory.create_batch(3):
        services.event_register(event_id=event.id, actor=player)
    latecomer: User = UserFactory.create()

    page = text(signed_in(latecomer).get(f"/events/{event.code}/"))
    response = signed_in(latecomer).post(f"/events/{event.code}/register/")

    assert "This event is full: 3 of 3 entered." in page and 'id="register"' not in page
    assert response.status_code == 409
    assert "This event is full: it takes no more entries." in text(response)


def test_an_unscheduled_event_page_shows_no_reminder() -> None:
    event = new_event()
    player: User = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)

    content = text(signed_in(player).get(f"/events/{event.code}/"))

    assert 'id="check-in-reminder"' not in content and 'id="event-start"' not in content
    assert 'id="check-in"' in content
