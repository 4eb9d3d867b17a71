"""The printouts of a round in the room in a real browser: as printed (the print media),
the score sheet is an A4 page of the table's deals, black on white without the site's
header or the Print button; on screen, each printout reads at a phone's width and a
laptop's and passes axe."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import expect

from tests.browser import chromium, live_server, screenshot_path
from tests.games.web.test_table_layout import session_of
from tests.test_accessibility import VIEWPORTS, violations
from tests.tournaments.test_paper import NAMES, room_round

pytestmark = pytest.mark.django_db(transaction=True)

# The width of an A4 page at the browser's 96 dots an inch.
A4_PORTRAIT_PX = 794
PRINTOUTS = ("seating", "cards", "sheets")


async def test_the_score_sheet_prints_as_an_a4_page_of_the_tables_deals() -> None:
    # Given the organizer of a round of four in the room
    event, creator = await sync_to_async(room_round)(NAMES[:4])
    session = await sync_to_async(session_of)(creator)
    manage = f"/events/{event.code}/manage/"
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": A4_PORTRAIT_PX, "height": 1123})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text))

            # When they open the score sheets and print them
            await page.goto(f"{base}{manage}rounds/1/sheets/")
            await expect(page.locator("#print")).to_be_visible()
            await page.emulate_media(media="print")

            # Then the sheet shows its nine deals without the site's header or the button
            await expect(page.locator("header.site")).to_be_hidden()
            await expect(page.locator("#print")).to_be_hidden()
            await expect(page.locator(".score-sheet tbody tr")).to_have_count(9)
            await expect(page.locator(".score-sheet td.cards")).to_have_text(
                ["1", "3", "5", "7", "8", "7", "5", "3", "1"]
            )
            await page.screenshot(path=screenshot_path("score-sheet.png"), full_page=True)
            pdf = await page.pdf(prefer_css_page_size=True)
            assert pdf.startswith(b"%PDF")
            await page.emulate_media(media="screen")

            # And every printout reads at a phone's width, with nothing wider than it
            # but the score sheet's own scrolling table
            await page.set_viewport_size({"width": 360, "height": 740})
            for name in PRINTOUTS:
                await page.goto(f"{base}{manage}rounds/1/{name}/")
                width = await page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, (name, width)
                await page.screenshot(path=screenshot_path(f"paper-{name}-phone.png"))

            # And none has a serious or critical accessibility violation
            for name in PRINTOUTS:
                for size in VIEWPORTS:
                    url = f"{base}{manage}rounds/1/{name}/"
                    assert await violations(browser, url, session, size) == [], (name, size)
            assert errors == []
