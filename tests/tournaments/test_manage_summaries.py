"""What the director's and the public's pages sum up: the manage page's schedule (the
check-in window in the event's time zone, the no-show rule, the round's time limit and
its rule, the protest window), and the live leaderboard that marks disqualified players
as the results page does, patched like any other field."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from tests.games.drivers import play_to_end
from tests.tournaments.drivers import SHORT_RULES, event_round, organizer
from tests.tournaments.test_views import signed_in, text
from tournaments import patches, selectors, services
from tournaments.tasks import update_standings

pytestmark = pytest.mark.django_db

BUCHAREST = ZoneInfo("Europe/Bucharest")


def schedule(page: str) -> dict[str, str]:
    """The manage page's schedule: each term's text, tags dropped, spaces squeezed."""
    start = page.index('<dl class="schedule" id="schedule">')
    listed = page[start : page.index("</dl>", start)]
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd[^>]*>(.*?)</dd>", listed, re.S)
    return {term: " ".join(re.sub(r"<[^>]+>", "", said).split()) for term, said in pairs}


def test_the_manage_page_sums_up_a_scheduled_events_day_in_its_time_zone() -> None:
    # Given an event starting at 10:00 in Bucharest, check-in 45 minutes before, bots
    # for the no-shows, 40 minutes a round finishing the deal, a protest window of 30
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa Iașului",
        options=SHORT_RULES,
        starts_at=datetime(2036, 1, 10, 10, 0, tzinfo=BUCHAREST),
        time_zone="Europe/Bucharest",
        check_in_seconds=45 * 60,
        no_shows="bot",
        round_minutes=40,
        at_time="finish-deal",
        protest_minutes=30,
    )

    # When the organizer opens the manage page
    said = schedule(text(signed_in(creator).get(f"/events/{event.code}/manage/")))

    # Then it says each, the times in the event's zone
    assert said == {
        "Check-in": "Opens 10 Jan 2036, 09:15, closes at the start, 10 Jan 2036, 10:00 "
        "(Europe/Bucharest).",
        "No-shows": "At the start, a bot plays the seat of each player not checked in, "
        "until they check in.",
        "Round time limit": "40 minutes a round. At time, each table finishes the deal in "
        "progress and plays no more. You may call time by hand while a round plays.",
        "Protest window": "The results stay provisional for 30 minutes after publishing.",
    }


def test_the_manage_page_sums_up_an_unscheduled_event_without_limits() -> None:
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)

    said = schedule(text(signed_in(creator).get(f"/events/{event.code}/manage/")))

    assert said == {
        "Check-in": "Open until the last round starts: the event has no scheduled start.",
        "No-shows": "Nobody is a no-show: you start round 1 yourself.",
        "Round time limit": "No limit. You may call time by hand while a round plays.",
        "Protest window": "None: the results are final once published.",
    }


def test_a_scheduled_events_no_shows_withdrawn_and_a_limit_only_shown_are_said() -> None:
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa",
        options=SHORT_RULES,
        starts_at=datetime(2036, 3, 1, 9, 30, tzinfo=UTC),
        time_zone="UTC",
        check_in_seconds=600,
        round_minutes=1,
    )

    said = schedule(text(signed_in(creator).get(f"/events/{event.code}/manage/")))

    assert said["Check-in"] == (
        "Opens 1 Mar 2036, 09:20, closes at the start, 1 Mar 2036, 09:30 (UTC)."
    )
    assert said["No-shows"] == "At the start, each player not checked in is withdrawn."
    assert said["Round time limit"] == (
        "1 minute a round. At time, the clock is only shown: the tables play on. "
        "You may call time by hand while a round plays."
    )


def test_a_whist_drives_schedule_offers_no_call_of_time() -> None:
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Drive", kind="classic", table_size=4, round_minutes=20
    )

    page = text(signed_in(creator).get(f"/events/{event.code}/manage/"))

    assert schedule(page)["Round time limit"] == (
        "20 minutes a round. At time, the clock is only shown: the tables play on."
    )
    assert 'id="call-time"' not in page


# --- The live leaderboard marks the disqualified ---------------------------------------


def test_the_live_leaderboard_marks_a_disqualified_player_with_the_reason() -> None:
    # Given a round played, its standings up to date
    event, creator, entrants, (game,) = event_round(4, public=True)
    play_to_end(game.id, entrants)
    update_standings(str(event.id))
    before = selectors.event_live(event.id)

    # When the director disqualifies a player
    services.event_disqualify(
        event_id=event.id, actor=creator, player_id=entrants[1].pk, reason="Collusion"
    )
    after = selectors.event_live(event.id)

    # Then their line says why, the others nothing; and the patch carries that alone
    marks = {line["player_id"]: line["disqualified"] for line in after["leaderboard"]}
    assert marks == {
        entrant.pk: "Collusion" if entrant == entrants[1] else "" for entrant in entrants
    }
    patch = patches.changes(before, after)
    assert patch is not None
    assert patch["rows"]["leaderboard"] == {
        "id": "player_id",
        "items": [{"id": entrants[1].pk, "set": {"disqualified": "Collusion"}}],
    }
    assert patches.patched(before, patch) == after
    # And the event page draws the mark, as the results page does
    page = text(Client().get(f"/events/{event.code}/"))
    assert '<span class="tag disqualified">disqualified: Collusion</span>' in page
