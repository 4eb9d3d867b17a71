"""The director's hand on the round clock in a real browser, on a phone (390 px) and a
desktop (1366 px): the manage page extends the round and every countdown open (a
table's, the event page's, the room's screen) follows at once; it calls time and the
table says so and plays its deal as its last; a table in the room's scorer page says
"Time called: last deal" (decision 3407)."""

from __future__ import annotations

import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from games.write.tables import load_table
from tests.browser import chromium, live_server, screenshot_path
from tests.test_accessibility import violations
from tests.tournaments.drivers import event_round
from tests.tournaments.test_deputies_page import WIDTHS, context_of, session_of
from tests.tournaments.test_round_clock_director import room_round_after_a_deal
from tournaments import services
from tournaments.models import Event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


@sync_to_async
def a_round_of_thirty_minutes() -> tuple[Event, str, str, str]:
    """A one-round event of four people, 30 minutes a round under no rule, its round
    begun: the event, its organizer's session, a player's session and their table."""
    event, creator, entrants, (game,) = event_round(4, public=True, round_minutes=30)
    return event, session_of(creator), session_of(entrants[0]), game.code


@sync_to_async
def a_room_table_in_its_second_deal() -> tuple[str, str, uuid.UUID]:
    """A table in the room whose first deal is written down and whose time the director
    called: the organizer's session, the table's code and game."""
    event, creator, game = room_round_after_a_deal()
    services.event_call_time_now(
        event_id=event.id, actor=creator, round_number=1, reason="The hall closes"
    )
    return session_of(creator), game.code, game.id


@pytest.mark.parametrize("width", WIDTHS)
async def test_the_director_extends_the_round_then_calls_time_and_every_clock_follows(
    width: int,
) -> None:
    event, owner_session, player_session, table_code = await a_round_of_thirty_minutes()
    manage = f"/events/{event.code}/manage/"

    with live_server() as base:
        async with chromium() as browser:
            errors: list[str] = []
            # Given a player at their table, the event page and the room's screen open
            player = await context_of(browser, base, width, player_session)
            table = await player.new_page()
            table.on("pageerror", lambda error: errors.append(str(error)))
            await table.goto(f"{base}/games/{table_code}/")
            public = await (await context_of(browser, base, width)).new_page()
            public.on("pageerror", lambda error: errors.append(str(error)))
            await public.goto(f"{base}/events/{event.code}/")
            screen = await (await context_of(browser, base, width)).new_page()
            await screen.goto(f"{base}/events/{event.code}/screen/")
            thirty = re.compile(r"^Round ends in (29|30):\d\d$")
            for page in (table, public, screen):
                await expect(page.locator("#round-clock")).to_have_text(thirty)

            # When the director extends the round by 5 minutes on the manage page
            owner = await (await context_of(browser, base, width, owner_session)).new_page()
            owner.on("pageerror", lambda error: errors.append(str(error)))
            await owner.goto(f"{base}{manage}")
            await expect(owner.locator("#schedule-round-time")).to_contain_text(
                "30 minutes a round."
            )
            await owner.click("#extend-round summary")
            await owner.fill("#extend-round-minutes", "5")
            await owner.fill("#extend-round-reason", "Late start")
            await owner.screenshot(path=screenshot_path(f"clock-extend-{width}.png"))
            await owner.click("#extend-round-form button[type=submit]")

            # Then the manage page says so, and every countdown open follows without a
            # reload: the table's (its desk), the event page's and the screen's
            await expect(owner.locator("#messages")).to_have_text("Round 1 extended by 5 minutes.")
            thirty_five = re.compile(r"^Round ends in (34|35):\d\d$")
            for page in (owner, table, public, screen):
                await expect(page.locator("#round-clock")).to_have_text(thirty_five)
            await expect(owner.locator("#audit-trail tbody tr").last).to_contain_text("Late start")

            # And the manage page, its clock's commands offered, has no serious
            # accessibility violation (checked before time, whose red pulses for 3 s)
            found = await violations(browser, f"{base}{manage}", owner_session, (width, 900))
            assert found == []

            # When the director calls time
            await owner.click("#call-time summary")
            await owner.fill("#call-time-reason", "The hall closes")
            await owner.click("#call-time-form button[type=submit]")

            # Then the table says time and plays its deal in progress as its last
            await expect(owner.locator("#messages")).to_have_text(
                "Time called in round 1: each table finishes its deal."
            )
            called = "Time! Finish the deal in progress; no new deal starts."
            for page in (table, public, screen):
                await expect(page.locator("#round-clock")).to_have_attribute("data-state", "time")
            await expect(table.locator("#round-clock")).to_have_text(called)
            await expect(public.locator("#round-clock")).to_have_text(called)
            await expect(table.locator("#status")).to_contain_text("Deal 1 of 1")
            # And the manage page offers the clock no more, and lists what was done
            await expect(owner.locator("#clock-control")).to_be_hidden()
            await expect(owner.locator("#audit-trail tbody tr").last).to_contain_text(
                "Called time in round 1"
            )
            await table.screenshot(path=screenshot_path(f"clock-called-table-{width}.png"))
            await owner.screenshot(
                path=screenshot_path(f"clock-called-manage-{width}.png"), full_page=True
            )
            assert errors == []


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_room_tables_scorer_page_says_time_was_called_and_its_last_deal(
    width: int,
) -> None:
    session, code, game_id = await a_room_table_in_its_second_deal()

    with live_server() as base:
        async with chromium() as browser:
            page = await (await context_of(browser, base, width, session)).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # When the director opens the table's scorer page
            await page.goto(f"{base}/games/{code}/score/")

            # Then the deal to write down is the second of two, the last
            await expect(page.locator("#entry-title")).to_have_text("Deal 2 of 2")
            await expect(page.locator("#entry-info")).to_contain_text("Time called: last deal · ")
            await expect(page.locator("#round-clock")).to_have_attribute("data-state", "time")
            await page.screenshot(path=screenshot_path(f"scorer-time-called-{width}.png"))
            assert errors == []
            width_used = await page.evaluate("document.documentElement.scrollWidth")
            assert width_used <= width
    table = await sync_to_async(load_table)(game_id)
    assert table.romanian_game.deals_to_play == 2
