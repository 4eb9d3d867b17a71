"""The pages, in a real browser: four players register, open and join a table and
play a whole game through the pages alone, while a spectator watches."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Browser, BrowserContext, Page, expect
from playwright.async_api import Error as PlaywrightError

from eventlog import store
from games.models import Game
from games.table import stream_of
from games.write.tables import load_table
from tests.browser import Frames, chromium, live_server, screenshot_path
from tests.games.web.test_api_leaks import cards_named

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ana", "Bogdan", "Carmen", "Dorin"]
# 001's app: increment 2, a single one-card deal (8, 7, 5, 3, 1, 3, 5, 7, 8).
SHORT_GAME = {
    "preset": "classic-app",
    "schedule": "8-1-8",
    "step": "2",
    "repeat_one_card_deals": "no",
    "repeat_eight_card_deals": "no",
}
MOVE_TIMEOUT_MS = 15_000
ACTIONS = "#bids button:enabled, #hand button.legal:enabled, #mode-choice button:enabled"


async def register(browser: Browser, base: str, name: str) -> tuple[BrowserContext, Page]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"{base}/accounts/register/")
    await page.fill("#id_username", name.lower())
    await page.fill("#id_display_name", f"{name} Popescu")
    await page.fill("#id_password", "a long table secret")
    await page.fill("#id_password_again", "a long table secret")
    await page.click("main form button[type=submit]")
    await expect(page.locator("header.site .who")).to_have_text(f"{name} Popescu")
    return context, page


async def watch(browser: Browser, base: str, code: str) -> tuple[Page, Frames]:
    """A spectator on table ``code``, with every WebSocket frame it receives kept."""
    watcher = await browser.new_context(viewport={"width": 1280, "height": 1600})
    spectator = await watcher.new_page()
    frames = Frames()
    frames.watch(spectator)
    await spectator.goto(f"{base}/games/{code}/")
    await expect(spectator.locator("#status")).to_contain_text("1 of 4")
    return spectator, frames


async def join_by_code(pages: list[Page], names: list[str], base: str, code: str) -> None:
    """Each page sits down at table ``code`` under its name, from the lobby."""
    for page, name in zip(pages, names, strict=True):
        await page.goto(f"{base}/")
        await page.fill("#id_reference", code.lower())
        await page.fill("#join-game #id_alias", name)
        await page.click("#join-game button[type=submit]")
        await expect(page).to_have_url(f"{base}/games/{code}/")


async def play_when_asked(page: Page, rng: random.Random, *, snapshot_at: int = 0) -> int:
    """Act whenever this page offers a move, until the game ends; the moves made.
    With ``snapshot_at``, a screenshot of the page is saved before that move."""
    moves = 0
    finished = page.locator("body[data-status=finished]")
    while True:
        offer = page.locator(f"{ACTIONS}, body[data-status=finished]").first
        await offer.wait_for(timeout=MOVE_TIMEOUT_MS * 4)
        if await finished.count():
            return moves
        if moves + 1 == snapshot_at:
            await page.screenshot(path=screenshot_path("table.png"), full_page=True)
        buttons = page.locator(ACTIONS)
        count = await buttons.count()
        if count == 0:
            continue  # The offer was redrawn under us; look again.
        try:
            await buttons.nth(rng.randrange(count)).click(timeout=2_000)
        except PlaywrightError:
            continue  # Redrawn between the count and the click: look again.
        moves += 1


@dataclass
class Outcome:
    status: str
    schedule: list[int]
    scores: list[int]
    # The cards anyone may know at each version: turned trumps and played cards.
    public: dict[int, set[str]]


@sync_to_async
def outcome(code: str) -> Outcome:
    game = Game.objects.get(code=code)
    table = load_table(game.id)
    known: set[str] = set()
    public = {0: set[str]()}
    for record in store.read(stream_of(game.id)):
        if record.type == "HandDealt" and record.payload["trump_card"]:
            known.add(record.payload["trump_card"])
        elif record.type == "CardPlayed":
            known.add(record.payload["card"])
        public[record.sequence] = set(known)
    return Outcome(
        game.status,
        [spec.cards for spec in table.game.schedule],
        list(table.game.scores),
        public,
    )


async def test_four_players_play_a_game_through_the_pages_and_a_spectator_sees_no_hidden_card() -> (
    None
):
    with live_server() as base:
        async with chromium() as browser:
            # Given four players who registered through the pages
            pages = [(await register(browser, base, name))[1] for name in PLAYERS]

            # When the first opens a short table from the lobby
            first = pages[0]
            await first.goto(f"{base}/")
            await first.select_option("#id_preset", SHORT_GAME["preset"])
            await first.fill("#id_alias", PLAYERS[0])
            await first.click("#new-game summary")
            for name in ("schedule", "step", "repeat_one_card_deals", "repeat_eight_card_deals"):
                await first.select_option(f"#id_{name}", SHORT_GAME[name])
            await first.click("#new-game button[type=submit]")
            await expect(first).to_have_url(re.compile(r"/games/[A-Z0-9]{6}/$"))
            code = first.url.rstrip("/").rsplit("/", 1)[-1]

            # and a spectator opens the table before anyone else sits down
            spectator, frames = await watch(browser, base, code)

            # and the others join by its code from the lobby
            await join_by_code(pages[1:], PLAYERS[1:], base, code)

            # Then they play it to the end by clicking what each page offers
            moves = await asyncio.gather(
                *(
                    play_when_asked(page, random.Random(seat), snapshot_at=20 if seat == 0 else 0)
                    for seat, page in enumerate(pages)
                )
            )

            result = await outcome(code)
            assert result.status == "finished"
            assert result.schedule == [8, 7, 5, 3, 1, 3, 5, 7, 8]
            # Every bid and every card was a click: 9 bids and 47 cards per player.
            assert sum(moves) == 4 * 9 + 4 * 47
            for page in [*pages, spectator]:
                ranking = page.locator("#ranking li")
                await expect(ranking).to_have_count(4)
                for seat in range(4):
                    alias = PLAYERS[seat]
                    score = result.scores[seat]
                    item = page.locator(f"#ranking li[data-seat='{seat}']")
                    await expect(item).to_have_text(re.compile(rf"^{alias} — {score} "))
            await spectator.locator("#scoreboard").screenshot(
                path=screenshot_path("scoreboard.png")
            )

            # And the spectator can replay the game, every hand open, move by move
            await spectator.click("#replay-link")
            await expect(spectator.locator("#replay-at")).to_have_text(re.compile(r"\d+\D+\d+$"))
            await spectator.locator("#replay-slider").fill("12")
            await expect(spectator.locator("#replay-at")).to_contain_text("12")
            await expect(spectator.locator("#seats .seat-cards .card")).to_have_count(4 * 8)

            # And nothing the spectator received named a card before it was public
            public = result.public
            assert frames.received, "the spectator's socket received nothing"
            for message in frames.received:
                version = message.get("version") or 0
                named = cards_named(message)
                assert named <= public[version], (message["type"], version, named - public[version])
