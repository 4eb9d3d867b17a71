"""Co-directors and pages that follow the event's state, in a real browser on a phone
(390 px) and a desktop (1366 px): the organizer names a deputy on the manage page; the
deputy opens it, announces and starts a round, after which the next round is not
offered; a finished event's page invites no entry and offers no withdrawal; the
create form shows each game's own fields and what the chosen preset sets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client
from playwright.async_api import Browser, BrowserContext, expect

from accounts.models import User
from eventlog import store
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.tournaments.drivers import SHORT_RULES, event_round, organizer
from tournaments import services
from tournaments.championship import championship_stream
from tournaments.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]

WIDTHS = (390, 1366)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@sync_to_async
def event_taking_entries() -> tuple[Event, str, User, str]:
    """An event of four people, checked in (nobody plays by themselves), its
    organizer's session, and an account to name a deputy with its session."""
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa Iașului", rounds=2, options=SHORT_RULES
    )
    for person in UserFactory.create_batch(4):
        services.event_register(event_id=event.id, actor=person)
        services.event_check_in(event_id=event.id, actor=person)
    deputy = UserFactory.create(username="maria", display_name="Maria Deputy")
    return event, session_of(creator), deputy, session_of(deputy)


@sync_to_async
def finished_event() -> tuple[Event, str]:
    """A public event whose one round's table has finished, and an entrant's session."""
    event, _, entrants, tables = event_round(4, public=True)
    Game.objects.filter(pk__in=[game.id for game in tables]).update(status=Game.Status.FINISHED)
    services.event_finish(event_id=event.id)
    return Event.objects.get(pk=event.id), session_of(entrants[0])


async def context_of(browser: Browser, base: str, width: int, session: str = "") -> BrowserContext:
    context = await browser.new_context(viewport={"width": width, "height": 900})
    if session:
        await context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
        )
    return context


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_deputy_named_on_the_manage_page_announces_and_starts_a_round(width: int) -> None:
    event, owner_session, deputy, deputy_session = await event_taking_entries()
    manage = f"/events/{event.code}/manage/"

    with live_server() as base:
        async with chromium() as browser:
            # Given the organizer on the manage page
            owner = await (await context_of(browser, base, width, owner_session)).new_page()
            errors: list[str] = []
            owner.on("pageerror", lambda error: errors.append(str(error)))
            await owner.goto(f"{base}{manage}")
            await expect(owner.locator("#deputies li")).to_have_text(["No deputy yet."])

            # When they name a deputy by username
            await owner.fill("#name-deputy input[name=who]", "maria")
            await owner.click("#name-deputy button[type=submit]")

            # Then the panel lists her
            await expect(owner.locator("#messages")).to_have_text(
                "maria is a deputy: they may run this event with you."
            )
            await expect(owner.locator("#deputies li .name")).to_have_text(["Maria Deputy"])
            await owner.screenshot(
                path=screenshot_path(f"deputies-panel-{width}.png"), full_page=True
            )

            # When the deputy opens the manage page: no Deputies panel, Start round 1
            page = await (await context_of(browser, base, width, deputy_session)).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}{manage}")
            await expect(page.locator("#deputies-panel")).to_have_count(0)
            await expect(page.locator("#start-round")).to_have_text("Start round 1")

            # And announces, then starts the round
            await page.fill("#announce textarea[name=text]", "Round 1 starts now.")
            await page.click("#announce button[type=submit]")
            await expect(page.locator("#messages")).to_have_text(
                "Announced: the room's screen and the event's page show it."
            )
            await page.click("#start-round")

            # Then round 1 plays, and round 2 is not offered while it does
            await expect(page.locator("#messages")).to_have_text("Round 1 started.")
            await expect(page.locator("#start-round")).to_be_hidden()
            await expect(page.locator("#start-round-wait")).to_have_text(
                "The current round is still being played."
            )
            await expect(page.locator("#tables-title")).to_have_text("Tables in play")
            await expect(page.locator("#announcements li .text")).to_have_text(
                ["Round 1 starts now."]
            )
            await page.screenshot(
                path=screenshot_path(f"deputy-manage-{width}.png"), full_page=True
            )
            # And the organizer's page, live, no longer offers it either
            await expect(owner.locator("#start-round")).to_be_hidden()
            assert errors == []
    # And the log records both as the deputy's
    recorded = await sync_to_async(store.read)(championship_stream(event.id))
    assert [(r.type, r.actor_id) for r in recorded[-2:]] == [
        ("Announced", deputy.pk),
        ("RoundStarted", deputy.pk),
    ]


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_finished_events_page_shows_no_entry_invitation_and_no_withdraw(
    width: int,
) -> None:
    event, entrant_session = await finished_event()
    url = f"/events/{event.code}/"

    with live_server() as base:
        async with chromium() as browser:
            for session in ("", entrant_session):
                page = await (await context_of(browser, base, width, session)).new_page()
                await page.goto(f"{base}{url}")

                await expect(page.locator("#entry")).not_to_contain_text("to enter this event")
                await expect(page.locator("#withdraw")).to_have_count(0)
                await expect(page.locator("#tables-title")).to_have_text("Tables of round 1")
            await expect(page.locator("#entry")).to_have_text("You are entered and checked in.")
            await page.screenshot(
                path=screenshot_path(f"finished-event-{width}.png"), full_page=True
            )


@pytest.mark.parametrize("width", WIDTHS)
async def test_the_create_form_shows_each_games_fields_and_what_the_preset_sets(
    width: int,
) -> None:
    session = await sync_to_async(lambda: session_of(organizer()))()

    with live_server() as base:
        async with chromium() as browser:
            page = await (await context_of(browser, base, width, session)).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/new/")

            # A Romanian event: its rules, no whist-drive fields
            await expect(page.locator("#id_preset")).to_be_visible()
            await expect(page.locator("#id_deals")).to_be_hidden()
            await expect(page.locator("#id_scoring option[value='']")).to_have_text(
                "5 + bid (the preset's)"
            )
            # Another preset: what it sets
            await page.select_option("#id_preset", "classic-app")
            await expect(page.locator("#id_scoring option[value='']")).to_have_text(
                "1 + bid (the preset's)"
            )
            await expect(page.locator("#id_must_trump option[value='']")).to_have_text(
                "no (the preset's)"
            )
            # A whist drive: its deals and movement, none of the Romanian rules
            await page.select_option("#id_game", "classic")
            await expect(page.locator("#id_deals")).to_be_visible()
            await expect(page.locator("#id_movement")).to_be_visible()
            await expect(page.locator("#id_preset")).to_be_hidden()
            await expect(page.locator("#id_table_size")).to_be_hidden()
            await page.screenshot(
                path=screenshot_path(f"event-new-drive-{width}.png"), full_page=True
            )
            assert errors == []
