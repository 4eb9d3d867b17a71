"""The room's screen in a real browser: on a 1920x1080 projector and on a phone it
shows the standings (or, in a round's first minutes, who sits where), the round's
clock and the tables, shows the director's announcements the moment they are made,
and finds its way back by itself after the network drops."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client, override_settings
from playwright.async_api import BrowserContext, Page, expect

from accounts.models import User
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games, wait_until
from tournaments import selectors, services
from tournaments.models import Event, Standing, TableResult

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]

NAMES = (
    "Ana Pop",
    "Bogdan Ionescu",
    "Carmen Dumitru",
    "Dan Stan",
    "Elena Marin",
    "Florin Tudor",
    "Gabriela Ilie",
    "Horia Munteanu",
    "Ioana Rusu",
    "Jean Constantin",
    "Laura Matei",
    "Mihai Popescu",
    "Nicoleta Dinu",
    "Ovidiu Lungu",
    "Petra Barbu",
    "Radu Enache",
)


@sync_to_async
def round_two_in_play() -> tuple[Event, User, str]:
    """A public event of sixteen people whose first round is played and second has
    just started (nobody plays by themselves: the screen holds still), and its
    organizer's session cookie."""
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa Clujului", rounds=2, options=SHORT_RULES
    )
    people: list[User] = [UserFactory.create(display_name=name) for name in NAMES]
    for person in people:
        services.event_register(event_id=event.id, actor=person)
        services.event_check_in(event_id=event.id, actor=person)
    services.event_start_round(event_id=event.id, actor=creator)
    for seed, game in enumerate(round_games(event.id, 1)):
        play_to_end(game.id, people, seed)
    # Every player has a game in the standings from a table's first hand on: the round
    # is in them once each of its tables' results is final.
    wait_until(
        lambda: (
            not TableResult.objects.filter(event_id=event.id, finished=False).exists()
            and TableResult.objects.filter(event_id=event.id).count() == len(NAMES) // 4
        ),
        what="round 1's standings",
    )
    services.event_start_round(event_id=event.id, actor=creator)
    client = Client()
    client.force_login(creator)
    return (
        Event.objects.get(pk=event.id),
        creator,
        client.cookies[settings.SESSION_COOKIE_NAME].value,
    )


@sync_to_async
def standings_names(event: Event) -> list[str]:
    return list(Standing.objects.filter(event_id=event.id).values_list("name", flat=True))


async def board_page(screen: Page) -> tuple[str, list[str]]:
    """The standings' page label and the names it shows, read at one instant."""
    label, names = await screen.evaluate(
        """() => [
          document.getElementById("board-pages").textContent,
          [...document.querySelectorAll("#screen-leaderboard tbody td.name")]
            .map((cell) => cell.textContent),
        ]"""
    )
    return label, names


async def signed_in(context: BrowserContext, base: str, session: str) -> None:
    await context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
    )


async def announce_from_the_manage_page(page: Page, base: str, event: Event, text: str) -> None:
    await page.goto(f"{base}/events/{event.code}/manage/")
    await page.fill("#announce textarea[name=text]", text)
    await page.click("#announce button[type=submit]")
    await expect(page.locator("#messages")).to_have_text(
        "Announced: the room's screen and the event's page show it."
    )


async def drop_and_recover(
    screen: Page, context: BrowserContext, event: Event, creator: User
) -> None:
    """The network goes; a change is made meanwhile; the network comes back."""
    await context.set_offline(True)
    await expect(screen.locator("#connection")).to_have_text("Connection lost; reconnecting…")
    await expect(screen.locator("body")).to_have_attribute("data-connection", "lost")
    await sync_to_async(services.event_announce)(
        event_id=event.id, actor=creator, text="Round 3 starts at 16:00."
    )
    await context.set_offline(False)
    await expect(screen.locator("#announcement-list li .text").first).to_have_text(
        "Round 3 starts at 16:00.", timeout=20_000
    )
    await expect(screen.locator("#connection")).to_be_hidden()
    await expect(screen.locator("body")).to_have_attribute("data-connection", "live")


@override_settings(ATU_SCREEN_SEATING_SECONDS=0, ATU_SCREEN_PAGE_SECONDS=3)
async def test_a_projector_shows_standings_clock_and_announcements_live_through_a_drop() -> None:
    # Given round 2 of an event in play (the seating is not shown: this test looks at
    # the standings)
    event, creator, session = await round_two_in_play()
    expected = await standings_names(event)

    with live_server() as base:
        async with chromium() as browser:
            # And its screen on a 1920x1080 projector, anonymous
            screen_context = await browser.new_context(viewport={"width": 1920, "height": 1080})
            screen = await screen_context.new_page()
            errors: list[str] = []
            screen.on("pageerror", lambda error: errors.append(str(error)))
            loads: list[str] = []
            screen.on("load", lambda: loads.append(screen.url))
            await screen.goto(f"{base}/events/{event.code}/screen/")
            await expect(screen.locator("body")).to_have_attribute("data-connection", "live")

            # Then it shows the standings, a page at a time, the round's clock and tables
            await expect(screen.locator("h1")).to_have_text("Cupa Clujului")
            await expect(screen.locator("#screen-status")).to_have_text("In play · Round 2 of 2")
            await expect(screen.locator("#board-title")).to_have_text("Standings")
            label, shown = await board_page(screen)
            other = {"Page 1 of 2": "Page 2 of 2", "Page 2 of 2": "Page 1 of 2"}[label]
            await expect(screen.locator("#board-pages")).to_have_text(other)
            pages = dict([(label, shown), await board_page(screen)])
            assert pages["Page 1 of 2"] + pages["Page 2 of 2"] == expected
            await expect(screen.locator("#clock-label")).to_have_text("Round 2: time played")
            await expect(screen.locator("#clock")).to_have_text(re.compile(r"^\d{1,2}:\d\d$"))
            await expect(screen.locator("#screen-tables li")).to_have_count(4)
            await expect(screen.locator("#screen-tables li .state")).to_have_text(
                ["Deal 1 of 9"] * 4
            )
            await expect(screen.locator("#screen-tables li .place")).to_have_text(["Online"] * 4)
            assert await screen.locator("svg.qr").count() == 1

            # When the organizer announces something from the manage page
            organizer_context = await browser.new_context(viewport={"width": 1280, "height": 900})
            await signed_in(organizer_context, base, session)
            director = await organizer_context.new_page()
            await announce_from_the_manage_page(
                director, base, event, "Coffee is served in the hall."
            )

            # Then the screen shows it, without being loaded again
            announcements = screen.locator("#announcement-list li .text")
            await expect(announcements).to_have_text(["Coffee is served in the hall."])
            await screen.screenshot(path=screenshot_path("event-screen-1920x1080.png"))

            # And after the network drops and comes back, it shows what changed meanwhile
            await drop_and_recover(screen, screen_context, event, creator)
            await expect(announcements).to_have_text(
                ["Round 3 starts at 16:00.", "Coffee is served in the hall."]
            )

            # And what changes from then on, live
            first = await sync_to_async(
                lambda: Event.objects.get(pk=event.id).announcements[-1]["number"]
            )()
            await director.goto(f"{base}/events/{event.code}/manage/")
            await director.locator(
                f"#announcements li[data-number='{first}'] button.unannounce"
            ).click()
            await expect(director.locator("#messages")).to_have_text("Announcement withdrawn.")
            await expect(announcements).to_have_text(["Round 3 starts at 16:00."])
            assert loads == [f"{base}/events/{event.code}/screen/"]
            assert errors == []


@sync_to_async
def seating_by_name(event: Event) -> list[str]:
    """The current round's players, alphabetically, each with their table."""
    seats = [
        (player["name"], table["number"])
        for table in selectors.event_live(event.id)["tables"]
        for player in table["players"]
    ]
    return [f"{name}Table {number}" for name, number in sorted(seats)]


async def test_on_a_phone_the_screen_shows_who_sits_where_and_follows_announcements() -> None:
    # Given round 2 of an event, just started
    event, creator, _ = await round_two_in_play()
    expected = await seating_by_name(event)

    with live_server() as base:
        async with chromium() as browser:
            # And the screen on a phone 360 px wide
            context = await browser.new_context(viewport={"width": 360, "height": 780})
            screen = await context.new_page()
            errors: list[str] = []
            screen.on("pageerror", lambda error: errors.append(str(error)))
            await screen.goto(f"{base}/events/{event.code}/screen/")
            await expect(screen.locator("body")).to_have_attribute("data-connection", "live")

            # Then it shows round 2's seating by name, alphabetically, every row at once
            await expect(screen.locator("#board-title")).to_have_text("Round 2: find your table")
            await expect(screen.locator("#seating li")).to_have_text(expected)
            await expect(screen.locator("#board-pages")).to_have_text("")
            await expect(screen.locator("#clock")).to_have_text(re.compile(r"^\d{1,2}:\d\d$"))
            assert await screen.evaluate("document.documentElement.scrollWidth") == 360
            await screen.screenshot(path=screenshot_path("event-screen-360.png"), full_page=True)

            # And the event's own page in another tab, with no announcement to show
            event_page = await context.new_page()
            event_page.on("pageerror", lambda error: errors.append(str(error)))
            await event_page.goto(f"{base}/events/{event.code}/")
            await expect(event_page.locator("#announcements-panel")).to_be_hidden()

            # When the organizer announces something, both show it live
            await sync_to_async(services.event_announce)(
                event_id=event.id, actor=creator, text="Coffee is served in the hall."
            )
            await expect(screen.locator("#announcement-list li .text")).to_have_text(
                ["Coffee is served in the hall."]
            )
            await expect(event_page.locator("#announcements li .text")).to_have_text(
                ["Coffee is served in the hall."]
            )
            await expect(event_page.locator("#announcements-panel")).to_be_visible()

            # And after the network drops and comes back, it shows what changed meanwhile
            await drop_and_recover(screen, context, event, creator)
            assert errors == []
