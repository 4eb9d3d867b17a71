"""The player page in a real browser: at a phone's width and a laptop's, the rating
chart drawn on the server is on the page, as wide as it and no wider, nothing else is
wider than the screen, and axe finds no serious or critical violation."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from accounts.models import User
from tests.browser import chromium, live_server, screenshot_path
from tests.test_accessibility import VIEWPORTS, violations
from tests.tournaments.test_players import season_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


@sync_to_async
def ranked_player() -> User:
    """A player ranked in a season, after its event of four people was played."""
    _, _, entrants = season_event()
    return entrants[0]


async def test_the_player_page_charts_the_rating_at_a_phones_width_and_a_laptops() -> None:
    # Given a player ranked in a season
    player = await ranked_player()
    errors: list[str] = []
    with live_server() as base:
        url = f"{base}/players/{player.pk}/"
        async with chromium() as browser:
            for width, height in VIEWPORTS:
                context = await browser.new_context(viewport={"width": width, "height": height})
                page = await context.new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.on("console", lambda message: errors.append(message.text))

                # When anyone opens their page
                await page.goto(url)

                # Then the chart's line is drawn, as wide as its panel and within the screen
                chart = page.locator("#rating-chart svg")
                await expect(chart).to_be_visible()
                await expect(page.locator("#rating-chart polyline")).to_have_count(1)
                box = await chart.bounding_box()
                assert box is not None
                assert box["x"] > 0 and box["x"] + box["width"] <= width, (width, box)
                assert box["height"] >= 150, (width, box)
                await expect(page.locator("#rating-chart-caption")).to_contain_text("Sezonul 2026")
                # And nothing is wider than the screen (a wide list scrolls inside itself)
                scroll = await page.evaluate("document.documentElement.scrollWidth")
                assert scroll <= width, (width, scroll)
                await page.screenshot(path=screenshot_path(f"player-{width}.png"), full_page=True)
                await context.close()

                # And axe finds no serious or critical violation
                assert await violations(browser, url, None, (width, height)) == [], width
    assert errors == []
