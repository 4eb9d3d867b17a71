"""The table page on phones, tablets and desktops, in a real browser: every seat on the
felt and in view, nothing wider than the screen, a bid and a card playable without
scrolling on a small phone; the trick's last card shown before it is gathered; the
turn told by the title and the live region; a whole deal played with the keyboard."""

from __future__ import annotations

import asyncio
import random
import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client
from playwright.async_api import Browser, Page, expect

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.rules import Phase
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import next_move, seated_game

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [(360, 740), (390, 844), (768, 1024), (1366, 768)]
# The smallest phone the layout is made for, checked with the others.
SMALLEST = (320, 640)
# Eight cards first, so that the hand is full and the bids run from 0 to 8.
EIGHT_FIRST = {"schedule": "8-1-8"}

# Where each seat's box, the felt and the page lie, as the browser laid them out.
MEASURE = """() => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    felt: box(document.getElementById("table")),
    seats: [...document.querySelectorAll("#seats .seat")].map((seat) => ({
      seat: seat.dataset.seat, ...box(seat),
    })),
  };
}"""
IN_VIEW = """(element) => {
  const r = element.getBoundingClientRect();
  return r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth
    && r.bottom <= window.innerHeight && window.scrollY === 0;
}"""


@dataclass
class Seated:
    game_id: uuid.UUID
    code: str
    users: list[User]
    session: str


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def a_seated_table(players: int, kind: str = "romanian") -> Seated:
    """A started table whose seat 0 is the viewer's, and the viewer's session."""
    if kind == "classic":
        game_id, users = seated_game(players, preset="american", kind="classic")
    else:
        game_id, users = seated_game(players, preset="romanian-standard", options=EIGHT_FIRST)
    # A long name in the header, which must not push the table off a small screen.
    users[0].display_name = "Alexandra-Maria Constantinescu-Dumitrescu"
    users[0].save(update_fields=["display_name"])
    return Seated(game_id, Game.objects.get(pk=game_id).code, users, session_of(users[0]))


seated = sync_to_async(a_seated_table)


@sync_to_async
def seated_with_dealer(dealer: int) -> Seated:
    """A started classic Whist table whose first dealer is seat ``dealer`` (the first
    dealer is drawn: tables are opened until one draws it)."""
    while True:
        table = a_seated_table(4, kind="classic")
        if load_table(table.game_id).game.dealer == dealer:
            return table


@sync_to_async
def others_move_until(game_id: uuid.UUID, users: list[User], done: Any, seed: int = 0) -> None:
    """Random legal moves for the other seats until ``done(game)`` holds."""
    rng = random.Random(seed)
    while not done(load_table(game_id).game):
        assert load_table(game_id).game.turn != 0, "seat 0 is the browser's to play"
        next_move(game_id, users, rng)


def viewer_to(phase: Phase) -> Any:
    return lambda game: game.phase is phase and game.turn == 0


async def open_table(
    browser: Browser,
    base: str,
    table: Seated,
    size: tuple[int, int],
    errors: list[str],
    status: str = "playing",
) -> Page:
    """Seat 0's page of ``table``, once it shows the table ``status``; the script's
    errors are added to ``errors``."""
    width, height = size
    context = await browser.new_context(viewport={"width": width, "height": height})
    await context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": table.session, "url": base}]
    )
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{base}/games/{table.code}/")
    await expect(page.locator("body")).to_have_attribute("data-status", status)
    return page


def assert_laid_out(measured: dict[str, Any], players: int, label: str) -> None:
    width, height = measured["width"], measured["height"]
    assert measured["scrollWidth"] <= width, f"{label}: the page is wider than the screen"
    assert measured["scrollX"] == 0 and measured["scrollY"] == 0, label
    felt = measured["felt"]
    assert len(measured["seats"]) == players, label
    for seat in measured["seats"]:
        where = f"{label}, seat {seat['seat']}: {seat} in felt {felt}, screen {width}x{height}"
        assert seat["left"] >= 0 and seat["right"] <= width, where
        assert seat["top"] >= 0 and seat["bottom"] <= height, where
        assert felt["left"] <= seat["left"] and seat["right"] <= felt["right"], where
        assert felt["top"] <= seat["top"] and seat["bottom"] <= felt["bottom"], where


async def check_every_viewport(page: Page, players: int, name: str) -> None:
    for width, height in [*VIEWPORTS, SMALLEST]:
        await page.set_viewport_size({"width": width, "height": height})
        await page.evaluate("window.scrollTo(0, 0)")
        await expect(page.locator("#seats .seat")).to_have_count(players)
        assert_laid_out(await page.evaluate(MEASURE), players, f"{name} at {width}x{height}")
        await page.screenshot(path=screenshot_path(f"table-{name}-{width}x{height}.png"))


async def test_every_seat_is_on_the_felt_and_a_bid_and_a_card_are_played_without_scrolling() -> (
    None
):
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            for players in (3, 4, 5, 6):
                # Given a table of `players`, its first deal of eight cards, seat 0's to bid
                table = await seated(players)
                await others_move_until(table.game_id, table.users, viewer_to(Phase.BIDDING))
                page = await open_table(browser, base, table, VIEWPORTS[0], errors)
                name = f"{players}-players"

                # Then on a 360x740 phone the bids are in view and one is made by a tap
                bid = page.locator("#bids button:enabled").first
                await expect(bid).to_be_visible()
                assert await bid.evaluate(IN_VIEW), f"{name}: the bids need scrolling"
                assert_laid_out(await page.evaluate(MEASURE), players, f"{name}, bidding")
                await bid.click()
                await expect(page.locator("#bids button")).to_have_count(0)

                # and once the others have bid and played, a card is in view and played
                await others_move_until(table.game_id, table.users, viewer_to(Phase.PLAYING))
                card = page.locator("#hand button.legal:enabled").first
                await expect(card).to_be_visible()
                assert await card.evaluate(IN_VIEW), f"{name}: the hand needs scrolling"
                await page.screenshot(path=screenshot_path(f"table-{name}-to-play.png"))
                played = await card.get_attribute("data-card")
                await card.click()
                trick = page.locator(f"#trick .played .card[data-card='{played}']")
                await expect(trick).to_be_visible()

                # And at every size every seat is inside the felt and the screen
                await check_every_viewport(page, players, name)
                await page.context.close()

            # And so at a classic Whist table, partners facing, the viewer's partner its
            # dealer: the seat facing the viewer holds the turned trump, its tallest
            table = await seated_with_dealer(2)
            await others_move_until(table.game_id, table.users, lambda game: game.turn == 0)
            page = await open_table(browser, base, table, VIEWPORTS[0], errors)
            card = page.locator("#hand button.legal:enabled").first
            await expect(card).to_be_visible()
            await page.screenshot(path=screenshot_path("table-classic-to-play.png"))
            assert await card.evaluate(IN_VIEW), "classic: the hand needs scrolling"
            await expect(page.locator("#seats .seat.pos-t .turned-up")).to_have_count(1)
            await expect(page.locator("#seats .seat.pos-t .mark.partner")).to_have_count(1)
            await check_every_viewport(page, 4, "classic")
            await page.context.close()
    assert errors == []


@sync_to_async
def lobby_with_tables() -> str:
    """A signed-in visitor's session, with a table waiting and tables in play."""
    _, users = seated_game(6, preset="romanian-standard")
    seated_game(4, preset="american", kind="classic")
    actions.game_create(creator=users[0], player_count=5, preset="online-room")
    return session_of(users[0])


async def test_the_lobby_is_no_wider_than_a_phone() -> None:
    # Given a signed-in visitor, tables waiting and tables in play
    session = await lobby_with_tables()
    with live_server() as base:
        async with chromium() as browser:
            for width, height in VIEWPORTS[:2]:
                context = await browser.new_context(viewport={"width": width, "height": height})
                await context.add_cookies(
                    [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
                )
                page = await context.new_page()
                # When they open the lobby on a phone, its rule options unfolded
                await page.goto(f"{base}/")
                await expect(page.locator("#live-games tbody tr")).to_have_count(2)
                for summary in await page.locator("main details summary").all():
                    await summary.click()

                # Then nothing is wider than the screen
                scroll_width = await page.evaluate("document.documentElement.scrollWidth")
                assert scroll_width <= width, f"the lobby is {scroll_width} px wide at {width}"
                await page.screenshot(
                    path=screenshot_path(f"lobby-{width}x{height}.png"), full_page=True
                )
                await context.close()


@sync_to_async
def move_until(game_id: uuid.UUID, users: list[User], done: Any, seed: int = 1) -> int:
    """Random legal moves for whoever is to act until ``done(game)`` holds; the version."""
    rng = random.Random(seed)
    while not done(load_table(game_id).game):
        next_move(game_id, users, rng)
    return load_table(game_id).version


@sync_to_async
def last_trick(game_id: uuid.UUID) -> tuple[list[str], int]:
    trick = load_table(game_id).game.last_trick
    assert trick is not None
    return [str(card) for card in trick.cards], trick.winner


async def test_the_fourth_card_shows_before_the_trick_is_gathered_and_the_turn_is_told() -> None:
    # Given a player at a table of four, watching while the others bid
    table = await seated(4)
    await move_until(table.game_id, table.users, lambda game: game.turn != 0)
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            page = await open_table(browser, base, table, VIEWPORTS[1], errors)
            await expect(page).to_have_title(f"Table {table.code} — Atu")
            await expect(page.locator("#announce")).to_have_text("")
            # and who turns the sound and vibration on: off at first, remembered
            toggle = page.locator("#alert-toggle")
            await expect(toggle).to_have_attribute("aria-pressed", "false")
            await toggle.click()
            await expect(toggle).to_have_attribute("aria-pressed", "true")
            await page.reload()
            await expect(toggle).to_have_attribute("aria-pressed", "true")

            # When the turn comes to them
            await move_until(table.game_id, table.users, viewer_to(Phase.BIDDING))

            # Then the title and the live region say so, and their seat is highlighted
            await expect(page).to_have_title("● Your turn — Atu")
            await expect(page.locator("#announce")).to_have_text("Your turn")
            await expect(page.locator("#seats .seat.pos-b")).to_have_class(
                re.compile(r"\bto-act\b")
            )

            # When three cards of a trick are down and the fourth is played
            await move_until(
                table.game_id,
                table.users,
                lambda game: game.phase is Phase.PLAYING and len(game.trick) == 3,
            )
            await expect(page.locator("#trick .played")).to_have_count(3)
            version = await move_until(
                table.game_id, table.users, lambda game: len(game.trick) == 0
            )
            cards, winner = await last_trick(table.game_id)

            # Then all four cards show in the trick area, the winner's marked and told
            await expect(page.locator("body")).to_have_attribute("data-version", str(version))
            trick = page.locator("#trick.held .played .card")
            await expect(trick).to_have_count(4)
            assert [await card.get_attribute("data-card") for card in await trick.all()] == cards
            winner_alias = f"Player {winner + 1}"
            taken = page.locator("#trick .taken")
            await expect(taken).to_have_text(f"✓ {winner_alias}")
            await expect(taken).to_have_attribute("title", f"{winner_alias} takes the trick.")
            await expect(page.locator("#trick .played.winner")).to_have_attribute(
                "data-seat", str(winner)
            )
            await expect(page.locator("#announce")).to_contain_text(
                f"{winner_alias} takes the trick."
            )
            await page.screenshot(path=screenshot_path("table-trick-held.png"))

            # And then the trick is gathered
            await expect(page.locator("#trick .played")).to_have_count(0)
            await expect(page.locator("#last-trick .played")).to_have_count(4)
    assert errors == []


@sync_to_async
def table_now(game_id: uuid.UUID) -> Any:
    return load_table(game_id)


async def wait_for_version(game_id: uuid.UUID, after: int) -> int:
    """The game's version once a move made from the page has reached the server."""
    for _ in range(200):
        version: int = (await table_now(game_id)).version
        if version > after:
            return version
        await asyncio.sleep(0.05)
    raise AssertionError(f"no move reached the server after version {after}")


async def test_a_player_plays_a_whole_deal_with_the_keyboard_alone() -> None:
    # Given a player at a table of three, eight cards dealt
    table = await seated(3)
    rng = random.Random(3)
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            page = await open_table(browser, base, table, VIEWPORTS[2], errors)
            bid_made = None
            played: list[str] = []
            # When they bid and play the whole first deal with keys only
            while (now := await table_now(table.game_id)).game.hand == 0:
                game = now.game
                if game.turn != 0:
                    await sync_to_async(next_move)(table.game_id, table.users, rng)
                    continue
                await expect(page.locator("body")).to_have_attribute(
                    "data-version", str(now.version)
                )
                if game.phase is Phase.BIDDING:
                    bids = page.locator("#bids button:enabled")
                    await expect(bids.first).to_be_visible()
                    bid_made = int(str(await bids.last.get_attribute("data-bid")))
                    await page.keyboard.press(str(bid_made))
                else:
                    await expect(page.locator("#hand button.legal:enabled").first).to_be_visible()
                    await page.keyboard.press("ArrowRight")
                    focused = page.locator("#hand button.legal:focus")
                    await expect(focused).to_have_count(1)
                    played.append(str(await focused.get_attribute("data-card")))
                    await page.keyboard.press("Enter")
                version = await wait_for_version(table.game_id, now.version)
                # and the focus stays on their hand after each move
                await expect(page.locator("body")).to_have_attribute("data-version", str(version))
                await expect(page.locator("#hand:focus, #hand :focus")).to_have_count(1)

            # Then the deal was theirs, key by key: the bid they typed and eight cards
            result = (await table_now(table.game_id)).game.results[0]
            assert result.bids[0] == bid_made
            assert len(played) == 8
            assert len(set(played)) == 8
    assert errors == []


@sync_to_async
def timed_table(seconds: int) -> Seated:
    """A started table of three with a turn timer of ``seconds``."""
    users = list(UserFactory.create_batch(3))
    game = actions.game_create(
        creator=users[0], player_count=3, preset="romanian-standard", turn_seconds=seconds
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return Seated(game.id, game.code, users, session_of(users[0]))


async def test_a_running_turn_timer_shows_as_a_ring_that_counts_down() -> None:
    # Given a table whose turns last at most ten minutes
    table = await timed_table(600)
    to_act = (await table_now(table.game_id)).game.turn
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            # When a player opens it
            page = await open_table(browser, base, table, VIEWPORTS[0], errors)

            # Then the seat to act, and it alone, carries a ring of the seconds left
            ring = page.locator(f"#seats .seat[data-seat='{to_act}'] .ring")
            await expect(ring).to_have_count(1)
            await expect(page.locator("#seats .ring")).to_have_count(1)
            first = int(str(await ring.get_attribute("data-left")))
            assert 590 <= first <= 600
            await expect(ring).to_have_attribute("aria-label", f"{first} s left")
            # and it counts down, the highlight steady
            await expect(ring).not_to_have_attribute("data-left", str(first), timeout=3_000)
            assert int(str(await ring.get_attribute("data-left"))) < first
            await expect(page.locator("#seats .seat.to-act .alias")).to_have_css(
                "animation-name", "none"
            )

            # When the page is loaded again two seconds on
            await asyncio.sleep(2)
            await page.reload()

            # Then the ring shows the time really left, not the whole turn again
            await expect(ring).to_have_count(1)
            assert int(str(await ring.get_attribute("data-left"))) <= first - 2
    assert errors == []
