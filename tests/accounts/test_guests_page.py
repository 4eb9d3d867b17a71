"""A guest signs in to the account they have, in a real browser on a phone and a
laptop (decision 3507): a visitor plays now as a guest, taps Sign in at the table,
signs in to their existing account, and is back at the same table as that account, in
the same seat, and bids. No request on the way fails."""

from __future__ import annotations

import re
import time
from contextlib import suppress

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response, expect

from accounts.models import User
from games.models import Game
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.web.test_invite_page import make_a_move

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [(390, 844), (1366, 768)]
# Bots move at once: the guest's turn to bid comes within a deal or two.
BID_SECONDS = 60


@sync_to_async
def existing_account() -> User:
    account: User = UserFactory.create(username="maria", display_name="Maria Pop")
    return account


@sync_to_async
def seats_of(code: str) -> list[dict[str, object]]:
    seats: list[dict[str, object]] = Game.objects.get(code=code).seats
    return seats


async def bid(page: Page) -> None:
    """Play on (a card, when that is the turn) until the page may bid, and bid."""
    bids = page.locator("#bids button:enabled").first
    card = page.locator("#hand button.legal:enabled, #mode-choice button:enabled").first
    deadline = time.monotonic() + BID_SECONDS
    while not await bids.count():
        assert time.monotonic() < deadline, "no turn to bid came"
        if await card.count():
            with suppress(PlaywrightError):  # redrawn under the click
                await card.click(timeout=1000)
        await page.wait_for_timeout(50)
    version = await page.locator("body").get_attribute("data-version")
    await bids.click()
    await expect(page.locator("body")).not_to_have_attribute("data-version", version or "")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=["phone", "laptop"])
async def test_a_guest_signs_in_to_their_account_at_the_table_and_plays_on_as_it(
    bots_play: None, width: int, height: int
) -> None:
    account = await existing_account()
    errors: list[str] = []
    failed: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.request.method} {response.url}")

    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": width, "height": height})
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("response", on_response)

            # Given a visitor without an account who plays now against bots, as a guest
            await page.goto(f"{base}/")
            await page.select_option("#id_play_player_count", "3")
            await page.select_option("#id_play_level", "easy")
            await page.locator("#play-now-button").click()
            await expect(page).to_have_url(re.compile(r"/games/[A-Z0-9]{6}/$"))
            code = page.url.rstrip("/").rsplit("/", 1)[-1]
            guest_name = await page.locator("header .who").inner_text()
            assert re.fullmatch(r"Guest \d{4}", guest_name)
            await make_a_move(page)

            # When they tap Sign in at the table and sign in to the account they have
            await page.locator("#guest-sign-in").click()
            await expect(page).to_have_url(f"{base}/accounts/login/?next=%2Fgames%2F{code}%2F")
            await expect(page.locator("#guest-sign-in-hint")).to_contain_text(guest_name)
            await page.screenshot(path=screenshot_path(f"guest-sign-in-{width}.png"))
            await page.locator("#id_username").fill("maria")
            await page.locator("#id_password").fill(DEFAULT_PASSWORD)
            await page.locator("main button[type=submit]").click()

            # Then they are back at the same table as the account, in the guest's seat
            await expect(page).to_have_url(f"{base}/games/{code}/")
            await expect(page.locator("header .who")).to_have_text("Maria Pop")
            await expect(page.locator("#keep-games")).to_have_count(0)
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await expect(page.locator("#seats .seat.you")).to_contain_text(guest_name)
            seats = await seats_of(code)
            assert seats[0]["user_id"] == account.pk

            # And they bid there as the account
            await bid(page)
            await page.screenshot(path=screenshot_path(f"guest-signed-in-{width}.png"))
            await context.close()
    assert errors == []
    assert failed == []
