"""The end of a game on the table page, in a real browser: the ranking and the next
steps for a player, for a spectator and after a reload; the rematch from the end
screen to the new table; a replay with nothing to press; and the controls that ask
before they act (a bot taking a seat)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import Browser, Page, expect

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end
from tests.games.web.test_table_layout import session_of

pytestmark = pytest.mark.django_db(transaction=True)

# Nine short deals: a whole game in a moment.
SHORT = {
    "schedule": "1-8-1",
    "step": 2,
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
}
PHONE = {"width": 360, "height": 740}


@dataclass
class Played:
    game_id: uuid.UUID
    code: str
    users: list[User]
    sessions: list[str]


@sync_to_async
def three_players() -> Played:
    """A started table of three people with a turn timer; seat 0 opened it."""
    users: list[User] = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=users[0], player_count=3, preset="classic-app", options=SHORT, turn_seconds=600
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return Played(game.id, game.code, users, [session_of(user) for user in users])


async def open_page(
    browser: Browser, base: str, path: str, session: str | None, errors: list[str]
) -> Page:
    context = await browser.new_context(viewport=PHONE)
    if session is not None:
        await context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
        )
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{base}{path}")
    return page


async def table_page(
    browser: Browser, base: str, table: Played, seat: int, errors: list[str]
) -> Page:
    return await open_page(browser, base, f"/games/{table.code}/", table.sessions[seat], errors)


@sync_to_async
def winners_and_ranking(game_id: uuid.UUID) -> tuple[list[str], list[str]]:
    game = Game.objects.get(pk=game_id)
    aliases = {seat["seat"]: seat["alias"] for seat in game.seats}
    order = sorted(range(game.player_count), key=lambda seat: (game.places[seat], seat))
    winners = [aliases[seat] for seat in order if game.places[seat] == 1]
    ranking = [f"{game.places[seat]}.{aliases[seat]}{game.scores[seat]}" for seat in order]
    return winners, ranking


async def test_a_game_played_to_the_end_shows_the_ranking_and_a_rematch_that_starts() -> None:
    errors: list[str] = []
    table = await three_players()
    with live_server() as base:
        async with chromium() as browser:
            # Given two of the players watching their table on phones
            first = await open_page(
                browser, base, f"/games/{table.code}/", table.sessions[0], errors
            )
            second = await open_page(
                browser, base, f"/games/{table.code}/", table.sessions[1], errors
            )
            await expect(first.locator("body")).to_have_attribute("data-status", "playing")
            await expect(first.locator("#game-end")).to_be_hidden()
            await expect(first.locator("#event-link")).to_have_count(0)

            # When the game is played to its end
            await sync_to_async(play_to_end)(table.game_id, table.users)

            # Then each sees the end on the felt: the winner, the ranking and the next steps
            winners, ranking = await winners_and_ranking(table.game_id)
            said = (
                f"Winner: {winners[0]}"
                if len(winners) == 1
                else f"Shared win: {', '.join(winners)}"
            )
            for page in (first, second):
                await expect(page.locator("#game-end")).to_be_visible()
                await expect(page.locator("#end-winner")).to_have_text(said)
                await expect(page.locator("#end-ranking li")).to_have_text(ranking)
                await expect(page.locator("#rematch")).to_have_text("Rematch")
                await expect(page.locator("#new-table")).to_be_visible()
                await expect(page.locator("#end-replay")).to_have_attribute(
                    "href", f"/games/{table.code}/?replay"
                )
                await expect(page.locator("#end-record")).to_have_attribute(
                    "href", f"/api/games/{table.code}/record.json"
                )
            for width, height in ((360, 740), (1366, 768)):
                await first.set_viewport_size({"width": width, "height": height})
                assert await first.evaluate(
                    "document.documentElement.scrollWidth <= window.innerWidth"
                ), f"the end screen is wider than the screen at {width}x{height}"
                await first.locator("#game-end").scroll_into_view_if_needed()
                await first.screenshot(path=screenshot_path(f"game-end-{width}x{height}.png"))
            await first.set_viewport_size(PHONE)

            # When the first asks for a rematch
            await first.locator("#rematch").click()
            await expect(first).not_to_have_url(f"{base}/games/{table.code}/")
            rematch = await sync_to_async(Game.objects.get)(rematch_of=table.game_id)
            await expect(first).to_have_url(f"{base}/games/{rematch.code}/")
            await expect(first.locator("body")).to_have_attribute("data-status", "open")

            # Then the second player's end screen offers to join it, and joining lands there
            await expect(second.locator("#rematch")).to_have_text("Join rematch", timeout=15000)
            await second.locator("#rematch").click()
            await expect(second).to_have_url(f"{base}/games/{rematch.code}/")

            # And once the third joins, the new game starts on the first player's page
            await sync_to_async(actions.game_rematch)(game_id=table.game_id, actor=table.users[2])
            await expect(first.locator("body")).to_have_attribute("data-status", "playing")
            await expect(first.locator("#seats .seat")).to_have_count(3)

            # And a visitor who loads the finished table sees its end, with no rematch to ask
            visitor = await open_page(browser, base, f"/games/{table.code}/", None, errors)
            await expect(visitor.locator("#game-end")).to_be_visible()
            await expect(visitor.locator("#end-ranking li")).to_have_text(ranking)
            await expect(visitor.locator("#rematch")).to_have_count(0)
            await expect(visitor.locator("#rematch-link")).to_have_attribute(
                "href", f"/games/{rematch.code}/"
            )
    assert errors == []


async def test_a_replay_shows_no_timer_no_end_screen_and_nothing_to_press() -> None:
    errors: list[str] = []
    table = await three_players()
    await sync_to_async(play_to_end)(table.game_id, table.users)
    with live_server() as base:
        async with chromium() as browser:
            # Given the creator of a finished table with a turn timer, at its replay
            page = await open_page(
                browser, base, f"/games/{table.code}/?replay", table.sessions[0], errors
            )
            await expect(page.locator("#replay")).to_be_visible()
            await expect(page.locator("body")).to_have_attribute("data-status", "finished")
            await expect(page.locator("#game-end")).to_be_hidden()

            # When it is taken back to the middle of the first deal of eight cards
            slider = page.locator("#replay-slider")
            middle = int(await slider.get_attribute("max") or 0) // 2
            await slider.fill(str(middle))
            await expect(page.locator("#replay-at")).to_contain_text(f"step {middle} of")
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")

            # Then the seat to act has no timer ring, and nothing can be pressed at the table
            await expect(page.locator("#seats .seat.to-act")).to_have_count(1)
            await expect(page.locator(".ring")).to_have_count(0)
            await expect(page.locator(".seat-bot")).to_have_count(0)
            await expect(page.locator("#seat-controls button")).to_have_count(0)
            await expect(page.locator("#bids button")).to_have_count(0)
            await expect(page.locator("#hand button")).to_have_count(0)
    assert errors == []


async def test_a_bot_takes_a_seat_or_leaves_it_only_once_asked_and_confirmed() -> None:
    errors: list[str] = []
    table = await three_players()
    with live_server() as base:
        async with chromium() as browser:
            # Given the table's creator and another player at the table, in play
            creator = await open_page(
                browser, base, f"/games/{table.code}/", table.sessions[0], errors
            )
            player = await open_page(
                browser, base, f"/games/{table.code}/", table.sessions[1], errors
            )
            await expect(creator.locator("body")).to_have_attribute("data-status", "playing")
            await expect(creator.locator(".ring")).to_have_count(1)

            # When the creator presses Bot on the third player's seat, then thinks better of it
            third = creator.locator('#seats .seat[data-seat="2"] .seat-bot')
            await third.click()
            dialog = creator.locator("#confirm")
            await expect(dialog).to_be_visible()
            await expect(creator.locator("#confirm-question")).to_have_text(
                "Give Player 3's seat to a bot? It plays their turns until the seat is handed back."
            )
            await creator.locator("#confirm-no").click()
            await expect(dialog).to_be_hidden()
            bots = await sync_to_async(lambda: load_table(table.game_id).bots)()

            # Then nothing changed; and once confirmed, a bot plays the seat
            assert bots == (None, None, None)
            await third.click()
            await creator.locator("#confirm-yes").click()
            await expect(creator.locator('#seats .seat[data-seat="2"] .mark.bot')).to_be_visible()

            # And taking the bot off the seat again is asked too, the seat then its player's
            await expect(third).to_have_text("Remove bot")
            await third.click()
            await expect(creator.locator("#confirm-question")).to_have_text(
                "Take the bot off Player 3's seat? The table then waits for Player 3 to play."
            )
            await creator.locator("#confirm-yes").click()
            await expect(creator.locator('#seats .seat[data-seat="2"] .mark.bot')).to_have_count(0)

            # And a player who lets a bot play for them is asked too
            await player.locator("#my-bot").click()
            await expect(player.locator("#confirm-question")).to_have_text(
                "Let a bot play your seat? It plays your turns until you take your seat back."
            )
            await player.locator("#confirm-yes").click()
            await expect(player.locator("#my-bot")).to_have_text("Take my seat back")
    assert errors == []
