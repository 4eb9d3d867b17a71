"""Absent players and substitutes in a real browser, on a phone and a desktop: a player
who never comes to their table is stood in for by a bot after the event's time, and
takes their seat back from the table page; the director seats a reserve from the
manage page (decision 3406)."""

from __future__ import annotations

import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings
from playwright.async_api import Page, expect

from accounts.models import User
from eventlog import store
from games.models import Game
from games.table import SeatAutomated, stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import ARTIFACTS, chromium, live_server
from tests.games.web.test_table_layout import session_of
from tests.tournaments.drivers import SHORT_RULES, organizer
from tournaments import services
from tournaments.models import Event
from tournaments.services import load_championship

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]

# The event's stand-in time: the shortest the service takes.
STAND_IN_SECONDS = 5


def event_with_bots(*, reserve: bool = False) -> tuple[Event, User, User, User | None, uuid.UUID]:
    """A one-round event of a person and three bots at one table, a bot standing in
    after STAND_IN_SECONDS, its round started; a reserve entered if asked. The event,
    its director, the person, the reserve and the table's game."""
    director = organizer()
    event = services.event_create(
        organizer=director,
        name="Cupa",
        rounds=1,
        options=SHORT_RULES,
        absent_seconds=STAND_IN_SECONDS,
    )
    person: User = UserFactory.create(display_name="Ioana")
    services.event_register(event_id=event.id, actor=person)
    services.event_check_in(event_id=event.id, actor=person)
    substitute: User | None = None
    if reserve:
        substitute = UserFactory.create(display_name="Rezerva")
        services.event_register(event_id=event.id, actor=substitute)
    services.event_add_bots(event_id=event.id, actor=director, count=3)
    services.event_start_round(event_id=event.id, actor=director)
    game_id = uuid.UUID(load_championship(event.id).rounds[0].games[0])
    return Event.objects.get(pk=event.id), director, person, substitute, game_id


def seat_of(game_id: uuid.UUID, user: User) -> int:
    seat = load_table(game_id).seat_of(user.pk)
    assert seat is not None
    return seat


def wait_for_stand_in(game_id: uuid.UUID, seat: int) -> float:
    """Seconds until a bot stands in for ``seat`` (at most a minute)."""
    began = time.monotonic()
    while load_table(game_id).bots[seat] is None:
        assert time.monotonic() - began < 60, "no bot stood in"
        time.sleep(0.1)
    return time.monotonic() - began


async def open_as(browser: object, base: str, user: User, width: int) -> Page:
    context = await browser.new_context(viewport={"width": width, "height": 900})  # type: ignore[attr-defined]
    session = await sync_to_async(session_of)(user)
    await context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
    )
    page: Page = await context.new_page()
    return page


@pytest.mark.parametrize("width", [390, 1366])
@override_settings(ATU_BOT_DELAY_SECONDS=1.0)
@pytest.mark.worker_bot_delay(1.0)
async def test_a_bot_stands_in_for_a_player_who_stays_away_and_they_take_the_seat_back(
    width: int,
) -> None:
    errors: list[str] = []
    with live_server() as base:
        # Given an event whose bot stands in after 5 s, and its person who stays away
        event, _, person, _, game_id = await sync_to_async(event_with_bots)()
        seat = await sync_to_async(seat_of)(game_id, person)

        # When their turn has waited the stand-in time
        waited = await sync_to_async(wait_for_stand_in)(game_id, seat)

        # Then a bot plays their seat, no sooner than the time chosen
        assert waited >= STAND_IN_SECONDS - 2
        code = await sync_to_async(lambda: Game.objects.get(pk=game_id).code)()
        async with chromium() as browser:
            page = await open_as(browser, base, person, width)
            page.on("pageerror", lambda error: errors.append(str(error)))

            # When the player comes back to the table
            await page.goto(f"{base}/games/{code}/")
            button = page.locator("#my-bot")
            await expect(button).to_have_text("Take my seat back")
            ARTIFACTS.mkdir(exist_ok=True)
            await page.screenshot(path=str(ARTIFACTS / f"stand-in-table-{width}.png"))
            await button.click()

            # Then the seat is theirs again, on the page and in the log
            await expect(button).to_have_text("Let a bot play for me")
            assert await page.evaluate("document.documentElement.scrollWidth") == width
    bots_of_seat = [
        record.event.bot  # type: ignore[union-attr]
        for record in await sync_to_async(store.read)(stream_of(game_id))
        if isinstance(record.event, SeatAutomated) and record.event.seat == seat
    ]
    assert bots_of_seat[:2] == ["medium", None]
    assert errors == []
    del event


@pytest.mark.parametrize("width", [390, 1366])
@override_settings(ATU_BOT_DELAY_SECONDS=1.0)
async def test_the_director_seats_a_reserve_from_the_manage_page(width: int) -> None:
    errors: list[str] = []
    with live_server() as base:
        # Given a round in play and a reserve entered but not playing
        event, director, person, reserve, game_id = await sync_to_async(event_with_bots)(
            reserve=True
        )
        assert reserve is not None
        seat = await sync_to_async(seat_of)(game_id, person)
        async with chromium() as browser:
            page = await open_as(browser, base, director, width)
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/manage/")

            # When the director seats the reserve in the person's seat
            line = page.locator(f"#seats-table-1 li[data-seat='{seat}']")
            await line.locator("summary").click()
            await line.locator("select[name=player]").select_option(str(reserve.pk))
            await line.locator("button[type=submit]").click()

            # Then the page says so, the seat shows whom it is for, and the audit says it
            await expect(page.locator("#messages")).to_have_text(
                f"Seat {seat + 1} of table 1 handed over."
            )
            line = page.locator(f"#seats-table-1 li[data-seat='{seat}']")
            await expect(line.locator(".name")).to_have_text("Rezerva (for Ioana)")
            await expect(page.locator("#seats-panel .stand-in")).to_have_count(0)
            await expect(
                page.locator("#audit-trail tr[data-kind=SeatSubstituted]")
            ).to_contain_text(f"Seated Rezerva in table 1 seat {seat + 1} of round 1")
            assert await page.evaluate("document.documentElement.scrollWidth") == width
            ARTIFACTS.mkdir(exist_ok=True)
            await line.scroll_into_view_if_needed()
            await page.screenshot(path=str(ARTIFACTS / f"substitute-manage-{width}.png"))

            # And the reserve, at the table, plays the seat
            table = await open_as(browser, base, reserve, width)
            code = await sync_to_async(lambda: Game.objects.get(pk=game_id).code)()
            await table.goto(f"{base}/games/{code}/")
            await expect(table.locator("#my-bot")).to_be_visible()
    seated = await sync_to_async(load_table)(game_id)
    holder = seated.seats[seat]
    assert holder is not None and holder.user_id == reserve.pk
    assert errors == []
