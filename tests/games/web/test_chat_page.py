"""Words at the table in a real browser, on a phone and a laptop (decision 3506): two
players say quick phrases to each other, each read in their own language; a line of
text at a casual table; a reader reports a player's words and mutes them, on that
device alone and still after a reload; every control a finger's size."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from playwright.async_api import Browser, Page, expect

from accounts.models import User
from games.models import Game, MessageReport
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import seated_game
from tests.games.web.test_table_layout import session_of

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [(360, 740), (1366, 768)]
# Every control's box, and whether the page is wider than the screen.
MEASURE = """() => ({
  wide: document.documentElement.scrollWidth > window.innerWidth,
  small: [...document.querySelectorAll("#chat button, #chat input")]
    .map((element) => element.getBoundingClientRect())
    .filter((box) => box.width > 0 && (box.width < 44 || box.height < 44)).length,
})"""


def romanian(words: str) -> str:
    """``words`` as a Romanian reader reads them (the catalogue's)."""
    with translation.override("ro"):
        return gettext(words)


@dataclass
class Table:
    game_id: uuid.UUID
    code: str
    users: list[User]
    sessions: list[str]


@sync_to_async
def three_players() -> Table:
    game_id, users = seated_game(3)
    code = Game.objects.get(pk=game_id).code
    return Table(game_id, code, users, [session_of(user) for user in users])


async def open_table(
    browser: Browser,
    base: str,
    table: Table,
    session: str | None,
    size: tuple[int, int],
    errors: list[str],
    language: str = "en",
) -> Page:
    width, height = size
    context = await browser.new_context(
        viewport={"width": width, "height": height}, locale=language
    )
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    if session is not None:
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base})
    await context.add_cookies(cookies)  # type: ignore[arg-type]
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{base}/games/{table.code}/")
    await expect(page.locator("body")).to_have_attribute("data-status", "playing")
    return page


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_two_players_say_quick_phrases_to_each_other(size: tuple[int, int]) -> None:
    errors: list[str] = []
    table = await three_players()
    with live_server() as base:
        async with chromium() as browser:
            # Given two players at their table, one reading in Romanian, and a spectator
            first = await open_table(browser, base, table, table.sessions[0], size, errors)
            second = await open_table(
                browser, base, table, table.sessions[1], size, errors, language="ro"
            )
            spectator = await open_table(browser, base, table, None, size, errors)
            await expect(first.locator("#chat-empty")).to_be_visible()
            await expect(spectator.locator("#chat [data-phrase]")).to_have_count(0)

            # When the first says "Good luck" and the second answers "Thanks"
            await first.locator('#chat [data-phrase="good_luck"]').click()
            await expect(second.locator("#chat-words .said")).to_have_text([romanian("Good luck")])
            await second.locator('#chat [data-phrase="thanks"]').click()

            # Then each reads both, in their own language, named by their seat's alias
            await expect(first.locator("#chat-words .said")).to_have_text(["Good luck", "Thanks"])
            await expect(first.locator("#chat-words strong")).to_have_text(["Player 1", "Player 2"])
            await expect(second.locator("#chat-words .said")).to_have_text(
                [romanian("Good luck"), romanian("Thanks")]
            )
            await expect(spectator.locator("#chat-words .said")).to_have_text(
                ["Good luck", "Thanks"]
            )
            await expect(first.locator("#chat-empty")).to_be_hidden()
            # And every control of the talk is a finger's size, the page no wider than
            # the screen
            for page in (first, second, spectator):
                assert await page.evaluate(MEASURE) == {"wide": False, "small": 0}
            await first.locator("#chat").scroll_into_view_if_needed()
            await first.screenshot(path=screenshot_path(f"chat-{size[0]}x{size[1]}.png"))
    assert errors == []


async def test_a_reader_reports_and_mutes_a_player_on_their_own_device() -> None:
    errors: list[str] = []
    table = await three_players()
    with live_server() as base:
        async with chromium() as browser:
            # Given two players at a casual table, the first saying a line of text
            first = await open_table(browser, base, table, table.sessions[0], (360, 740), errors)
            second = await open_table(browser, base, table, table.sessions[1], (360, 740), errors)
            await first.locator("#chat-text").fill("You all play like bots")
            await first.locator("#chat-form button").click()
            line = second.locator("#chat-words li", has_text="You all play like bots")
            await expect(line).to_have_count(1)
            await expect(first.locator("#chat-text")).to_have_value("")
            # The first's own words are not theirs to mute or report
            await expect(first.locator("#chat-words li button")).to_have_count(0)

            # When the second reports them
            await line.get_by_role("button", name="Report these words of Player 1").click()

            # Then the report is recorded, and the button says so
            await expect(line.get_by_role("button", name="Report these words")).to_have_text(
                "Reported"
            )
            await expect(line.get_by_role("button", name="Report these words")).to_be_disabled()
            reports = sync_to_async(lambda: MessageReport.objects.count())
            for _ in range(50):
                if await reports() == 1:
                    break
                await second.wait_for_timeout(100)
            assert await reports() == 1

            # When the second mutes the first
            await line.get_by_role("button", name="Mute Player 1").click()

            # Then the first's words are gone from the second's page, even after a reload
            await expect(second.locator("#chat-words li")).to_have_count(0)
            await expect(second.locator("#chat-muted button")).to_have_text(["Unmute Player 1"])
            await first.locator('#chat [data-phrase="oops"]').click()
            await expect(first.locator("#chat-words .said")).to_have_text(
                ["You all play like bots", "Oops"]
            )
            async with second.expect_response(re.compile(r"/chat/\?after=0$")):
                await second.reload()
            await expect(second.locator("body")).to_have_attribute("data-status", "playing")
            await expect(second.locator("#chat-muted button")).to_have_text(["Unmute Player 1"])
            await expect(second.locator("#chat-words li")).to_have_count(0)

            # And unmuted, they are back
            await second.locator("#chat-muted button").click()
            await expect(second.locator("#chat-words .said")).to_have_text(
                ["You all play like bots", "Oops"]
            )
    assert errors == []
