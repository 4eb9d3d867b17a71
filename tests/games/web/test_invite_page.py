"""A friend comes in by the share link, in a real browser on a phone and a laptop: a
visitor without an account opens a table's link, sits as a guest in one tap, plays,
registers mid-game, and finds the game under My games, back at the table in one tap
(decision 3501). No request made on the way fails, and axe finds nothing serious on
My games."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response, expect

from accounts.models import User
from games.commands import actions
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.test_accessibility import AXE, AXE_RUN, BLOCKING

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [(360, 740), (1366, 768)]
STRONG = "walnut-orbit-harbor"


@sync_to_async
def waiting_table() -> tuple[Game, User]:
    """A table of three its creator opened and shared, without sitting at it."""
    creator: User = UserFactory.create()
    return actions.game_create(creator=creator, player_count=3, preset="championship"), creator


@sync_to_async
def fill_with_bots(game: Game, creator: User) -> None:
    actions.game_fill_with_bots(game_id=game.id, actor=creator, level="easy")


@sync_to_async
def guest_of(game: Game) -> User:
    return User.objects.get(pk=Game.objects.get(pk=game.pk).seats[0]["user_id"])


async def make_a_move(page: Page) -> None:
    """Bid or play the first legal choice once it is the page's turn."""
    choice = page.locator(
        "#hand button.legal:enabled, #bids button:enabled, #mode-choice button:enabled"
    ).first
    await expect(choice).to_be_visible(timeout=30000)
    version = await page.locator("body").get_attribute("data-version")
    for _ in range(20):
        try:
            await choice.click(timeout=1000)
            break
        except PlaywrightError:
            continue  # redrawn under the click
    await expect(page.locator("body")).not_to_have_attribute("data-version", version or "")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=["phone", "laptop"])
async def test_a_visitor_sits_as_a_guest_by_the_share_link_registers_and_finds_the_game(
    bots_play: None, width: int, height: int
) -> None:
    game, creator = await waiting_table()
    errors: list[str] = []
    failed: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.request.method} {response.url}")

    with live_server() as base:
        async with chromium() as browser:
            # The axe script is injected: the browser lets it be despite the CSP.
            context = await browser.new_context(
                viewport={"width": width, "height": height}, bypass_csp=True
            )
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("response", on_response)

            # Given a visitor without an account who opens the table's share link
            await page.goto(f"{base}/games/{game.code}/")
            sit = page.locator("#sit-down")
            await expect(sit.locator("#sit-as-guest-button")).to_have_text("Sit as a guest")
            await expect(sit.locator("#sit-register")).to_have_attribute(
                "href", f"/accounts/register/?next=/games/{game.code}/"
            )

            # When they give an alias and tap "Sit as a guest"
            await sit.locator("#id_guest_alias").fill("Maria")
            await sit.locator("#sit-as-guest-button").click()

            # Then they sit at the table as a guest, under their alias
            await expect(page).to_have_url(f"{base}/games/{game.code}/")
            await expect(page.locator("header .who")).to_have_text("Maria")
            await expect(page.locator("#sit-down")).to_have_count(0)
            await expect(page.locator("#status")).to_have_text(
                "Waiting for players: 1 of 3 seated."
            )
            guest = await guest_of(game)
            assert guest.is_guest

            # And when the table's creator fills the free seats with bots, they play
            await fill_with_bots(game, creator)
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await make_a_move(page)
            await page.screenshot(path=screenshot_path(f"invite-guest-{width}.png"))

            # When they register mid-game from the header
            await page.locator("#keep-games").click()
            await expect(page).to_have_url(
                f"{base}/accounts/register/?next=%2Fgames%2F{game.code}%2F"
            )
            await expect(page.locator("#guest-upgrade")).to_contain_text("Maria")
            await page.locator("#id_username").fill("maria")
            await page.locator("#id_display_name").fill("Maria Pop")
            await page.locator("#id_password").fill(STRONG)
            await page.locator("#id_password_again").fill(STRONG)
            await page.locator("main button[type=submit]").click()

            # Then they are back at the game in play, the same account, still seated
            await expect(page).to_have_url(f"{base}/games/{game.code}/")
            await expect(page.locator("header .who")).to_have_text("Maria Pop")
            await expect(page.locator("#keep-games")).to_have_count(0)
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            registered = await sync_to_async(User.objects.get)(pk=guest.pk)
            assert (registered.username, registered.is_guest) == ("maria", False)

            # And My games, from the header, lists the game in play with the way back
            await page.locator("#my-games-link").click()
            await expect(page).to_have_url(f"{base}/me/games/")
            row = page.locator(f'#in-play tr[data-code="{game.code}"]')
            await expect(row).to_be_visible()
            await page.screenshot(path=screenshot_path(f"my-games-{width}.png"), full_page=True)
            await page.add_script_tag(path=AXE)
            found: list[dict[str, Any]] = await page.evaluate(AXE_RUN)
            assert [v for v in found if v["impact"] in BLOCKING] == []

            # And "Back to the table" is their own seat again
            await row.locator("a.back-to-table").click()
            await expect(page).to_have_url(f"{base}/games/{game.code}/")
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await expect(page.locator("#seats .seat.you")).to_contain_text("Maria")
            await context.close()
    assert errors == []
    assert failed == []
