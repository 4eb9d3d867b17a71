"""A guest's finished game, once they signed in to their account, in a real browser on
a phone (decision 3508): the end screen is the account's, its seat marked theirs and
the rematch theirs to open; a stranger's end screen offers them none."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from accounts.models import User
from accounts.services import user_absorb_guest, user_create_guest
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end, seated_game
from tests.games.web.test_game_end_page import SHORT, open_page
from tests.games.web.test_table_layout import session_of

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def finished_as_a_guest() -> tuple[str, str, str, User]:
    """A game the guest Maria finished in seat 1, then signed in to her account: its
    code, her account's session and a stranger's, and her account."""
    guest = user_create_guest(display_name="Maria")
    others: list[User] = UserFactory.create_batch(2)
    game_id, players = seated_game(
        3, preset="classic-app", options=SHORT, users=[others[0], guest, others[1]]
    )
    play_to_end(game_id, players)
    account: User = UserFactory.create(username="maria", display_name="Maria Pop")
    user_absorb_guest(guest=guest, account=account)
    stranger: User = UserFactory.create()
    code = Game.objects.get(pk=game_id).code
    return code, session_of(account), session_of(stranger), account


@sync_to_async
def seats_of(code: str) -> list[dict[str, object]]:
    seats: list[dict[str, object]] = Game.objects.get(code=code).seats
    return seats


async def test_the_account_finds_the_guests_finished_game_its_own_on_a_phone() -> None:
    errors: list[str] = []
    code, mine, strangers, account = await finished_as_a_guest()
    with live_server() as base:
        async with chromium() as browser:
            # Given the game the guest finished, opened by a stranger on a phone (360 px)
            other = await open_page(browser, base, f"/games/{code}/", strangers, errors)
            await expect(other.locator("#game-end")).to_be_visible()
            await expect(other.locator("#rematch")).to_have_count(0)
            await expect(other.locator("#seats .seat.you")).to_have_count(0)

            # When Maria's account opens it
            page = await open_page(browser, base, f"/games/{code}/", mine, errors)

            # Then its end screen is hers: her seat marked, the rematch offered
            await expect(page.locator("#game-end")).to_be_visible()
            await expect(page.locator("#seats .seat.you")).to_contain_text("Player 2")
            await expect(page.locator("#rematch")).to_have_text("Rematch")
            await page.screenshot(path=screenshot_path("guest-finished-game-360.png"))

            # and the rematch opens a table where her account sits
            await page.locator("#rematch").click()
            await expect(page).to_have_url(re.compile(r"/games/[A-Z0-9]{6}/$"))
            rematch = page.url.rstrip("/").rsplit("/", 1)[-1]
            assert rematch != code
            assert [seat["user_id"] for seat in await seats_of(rematch)] == [account.pk]
    assert errors == []
