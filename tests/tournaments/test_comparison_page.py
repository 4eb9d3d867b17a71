"""A duplicate round's deals compared, in a real browser on a phone (390 px) and a
desktop (1366 px): reached from the results, each seat's cards and every table's line,
deal after deal."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from games.read.analysis import analyse
from games.write.tables import load_table
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end
from tests.games.web.test_analysis_page import no_horizontal_scroll
from tests.tournaments.drivers import event_round
from tests.tournaments.test_deputies_page import WIDTHS, context_of
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def an_analysed_duplicate_round() -> Event:
    event, _, entrants, games = event_round(8, public=True, duplicate=True, points="matchpoints")
    for game, seed in zip(games, (3, 4), strict=True):
        table = load_table(game.id)
        play_to_end(game.id, [u for u in entrants if table.seat_of(u.pk) is not None], seed=seed)
        analyse(game.id)
    return event


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_duplicate_rounds_deal_is_compared_seat_by_seat(width: int) -> None:
    event = await an_analysed_duplicate_round()

    with live_server() as base:
        async with chromium() as browser:
            page = await (await context_of(browser, base, width)).new_page()
            # Given the results page of a duplicate event, when its round's deals are opened
            await page.goto(f"{base}/events/{event.code}/results/")
            await page.locator(".deals-link").click()

            # Then the first deal shows each seat's cards and both tables' lines
            await expect(page.locator("h1")).to_have_text("Round 1: deal 1 of 9")
            await expect(page.locator("table.deal-lines")).to_have_count(4)
            await expect(page.locator("table.deal-lines tbody tr")).to_have_count(8)

            # When the next deal is chosen, then it is shown
            await page.locator("#next-deal").click()
            await expect(page.locator("h1")).to_have_text("Round 1: deal 2 of 9")
            await expect(page.locator(".seat-cards .cards").first).to_have_text(
                re.compile(r"^\S+ \S+ \S+$")
            )
            assert await page.evaluate(no_horizontal_scroll())
            await page.screenshot(path=screenshot_path(f"deals-{width}.png"), full_page=True)
