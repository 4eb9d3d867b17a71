"""Play in one click, in a real browser: a visitor without an account presses "Play
now" on a phone and plays a whole game against bots to its ranking; the creator of a
table fills its free seats with bots from the waiting room, and the game starts."""

from __future__ import annotations

import re
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, expect

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.web.test_table_layout import session_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
# A whole game is a few hundred moves, the bots' made at once.
GAME_SECONDS = 300


async def play_to_the_end(page: Page) -> None:
    """Bid and play the first legal choice whenever it is the page's turn, until the
    game is over."""
    body = page.locator("body")
    deadline = time.monotonic() + GAME_SECONDS
    while await body.get_attribute("data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        choice = page.locator(
            "#hand button.legal:enabled, #bids button:enabled, #mode-choice button:enabled"
        ).first
        if not await choice.count():
            await page.wait_for_timeout(50)
            continue
        try:
            await choice.click(timeout=1000)
        except PlaywrightError:
            continue  # redrawn under the click: the next round finds it again


def points(score: int) -> str:
    return f"{score} point" if abs(score) == 1 else f"{score} points"


@sync_to_async
def finished_game() -> tuple[Game, User]:
    game = Game.objects.get()
    return game, User.objects.get(pk=game.creator_id)


async def test_a_visitor_without_an_account_plays_now_against_bots_to_the_ranking_and_a_rematch(
    bots_play: None,
) -> None:
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))

            # Given a visitor without an account on the lobby, on a phone
            await page.goto(f"{base}/")
            await expect(page.locator("#play-now")).to_contain_text("No account needed")

            # When they choose three players, easy bots and the shortest deals, and press
            # "Play now"
            await page.select_option("#id_play_player_count", "3")
            await page.select_option("#id_play_level", "easy")
            await page.locator("#play-now summary").click()
            await page.select_option("#id_play_step", "2")
            await page.select_option("#id_play_repeat_one_card_deals", "no")
            await page.select_option("#id_play_repeat_eight_card_deals", "no")
            await page.select_option("#id_play_one_card_mode", "normal")
            await page.locator("#play-now-button").click()

            # Then they sit at a table that has started, as a guest
            await expect(page).to_have_url(re.compile(r"/games/[A-Z0-9]{6}/$"))
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await expect(page.locator("header .who")).to_have_text(re.compile(r"^Guest \d{4}$"))
            await expect(page.locator("#keep-games")).to_be_visible()
            await expect(page.locator("#seats .seat .mark.bot")).to_have_count(2)
            await page.screenshot(path=screenshot_path("play-now-phone.png"))

            # And they play the whole game to its end
            await play_to_the_end(page)

            # And see the final ranking with everyone's score
            game, guest = await finished_game()
            assert guest.is_guest
            load_bots = (await sync_to_async(load_table)(game.id)).bots
            # the bots named as bots, each score in its plural form
            names = {
                seat["seat"]: (
                    seat["alias"] if seat["user_id"] == guest.pk else f"{seat['alias']} (bot)"
                )
                for seat in game.seats
            }
            order = sorted(range(3), key=lambda seat: (game.places[seat], seat))
            ranking = page.locator("#ranking ol.ranking li")
            await expect(ranking).to_have_text(
                [f"{names[seat]} — {points(game.scores[seat])}" for seat in order]
            )
            await expect(page.locator("#status")).to_have_text("Game over")
            await expect(page.locator("#game-end")).to_be_visible()
            await page.screenshot(path=screenshot_path("play-now-finished.png"), full_page=True)

            # When they ask for a rematch from the end of the game
            await page.locator("#game-end").scroll_into_view_if_needed()
            await page.locator("#rematch").click()

            # Then the same players, the bots at the same level, start a new game at once
            rematch = await sync_to_async(Game.objects.get)(rematch_of=game.id)
            await expect(page).to_have_url(f"{base}/games/{rematch.code}/")
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            table = await sync_to_async(load_table)(rematch.id)
            players = sorted(seat.user_id for seat in table.seats if seat is not None)
            assert players == sorted(seat["user_id"] for seat in game.seats)
            assert (
                sorted(filter(None, table.bots))
                == sorted(filter(None, load_bots))
                == [
                    "easy",
                    "easy",
                ]
            )
    assert errors == []


@sync_to_async
def creator_session() -> str:
    return session_of(UserFactory(display_name="Maria"))


@sync_to_async
def bots_of(code: str) -> tuple[str | None, ...]:
    return load_table(Game.objects.get(code=code).id).bots


async def test_a_creator_fills_the_free_seats_with_bots_and_the_game_starts(
    bots_play: None,
) -> None:
    session = await creator_session()
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport=PHONE)
            await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))

            # Given a signed-in player who opens a table of four from the lobby
            await page.goto(f"{base}/")
            await page.select_option("#id_player_count", "4")
            await page.locator("#new-game button[type=submit]").click()
            await expect(page.locator("body")).to_have_attribute("data-status", "open")
            code = page.url.rstrip("/").rsplit("/", 1)[-1]

            # Then the waiting room shows the link to share, which the button copies,
            # and the table's rules
            room = page.locator("#waiting-room")
            await expect(room.locator("#share-link")).to_have_value(f"{base}/games/{code}/")
            await room.locator("#copy-link").click()
            await expect(room.locator("#copy-link")).to_have_text("Copied")
            assert await page.evaluate("navigator.clipboard.readText()") == f"{base}/games/{code}/"
            rules = page.locator("#rules-summary")
            await expect(rules).to_have_attribute("open", "")
            await expect(rules.locator(".rules-title")).to_have_text("Romanian standard")
            await page.screenshot(path=screenshot_path("waiting-room-phone.png"), full_page=True)
            # and a visitor watches the waiting room
            watcher = await (await browser.new_context(viewport=PHONE)).new_page()
            watcher.on("pageerror", lambda error: errors.append(str(error)))
            await watcher.goto(f"{base}/games/{code}/")
            await expect(watcher.locator("#waiting-room")).to_be_visible()

            # When the creator fills the free seats with strong bots
            await page.select_option("#id_fill_level", "strong")
            await room.locator("#fill-with-bots button").click()

            # Then the game starts with three bots, for the creator and the visitor alike
            await expect(page.locator("body")).to_have_attribute("data-status", "playing")
            await expect(page.locator("#waiting-room")).to_have_count(0)
            await expect(page.locator("#seats .seat .mark.bot")).to_have_count(3)
            assert await bots_of(code) == (None, "strong", "strong", "strong")
            await expect(watcher.locator("body")).to_have_attribute("data-status", "playing")
            await expect(watcher.locator("#waiting-room")).to_be_hidden()
            await expect(watcher.locator("#seats .seat .mark.bot")).to_have_count(3)
    assert errors == []


@sync_to_async
def waiting_table() -> tuple[Game, User, User]:
    creator, player = UserFactory.create_batch(2)
    game = actions.game_create(creator=creator, player_count=3, preset="championship")
    for user, alias in ((creator, "Ana"), (player, "Ion")):
        actions.game_join(game_id=game.id, user=user, alias=alias)
    return game, creator, player


async def test_a_watcher_of_the_waiting_room_sees_a_seat_freed_and_the_table_cancelled() -> None:
    game, creator, player = await waiting_table()
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            # Given a visitor watching a table waiting for its last player
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/games/{game.code}/")
            await expect(page.locator("#status")).to_have_text(
                "Waiting for players: 2 of 3 seated."
            )

            # When a player gets up
            await sync_to_async(actions.game_leave)(game_id=game.id, actor=player)

            # Then their seat shows free again
            await expect(page.locator("#status")).to_have_text(
                "Waiting for players: 1 of 3 seated."
            )
            await expect(page.locator("#seats .seat .alias")).to_have_text(
                ["Ana", "free seat", "free seat"]
            )

            # And when the creator cancels the table, the page says so
            await sync_to_async(actions.game_cancel)(game_id=game.id, actor=creator)
            await expect(page.locator("#status")).to_have_text(
                "This table was cancelled by its creator."
            )
            await expect(page.locator("#waiting-room")).to_be_hidden()
    assert errors == []
