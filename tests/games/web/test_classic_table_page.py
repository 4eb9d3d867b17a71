"""Classic Whist in a real browser: four players register, one opens a table from the
lobby's classic Whist form, the others join it by its code, and they play it to the end
through the pages alone, while a spectator watches and is never sent a hidden card."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Page, expect

from eventlog import store
from games.models import Game
from games.table import stream_of
from games.write.tables import load_table
from tests.browser import chromium, live_server, screenshot_path
from tests.games.web.test_api_leaks import cards_named
from tests.games.web.test_table_page import (
    MOVE_TIMEOUT_MS,
    PLAYERS,
    join_by_code,
    play_when_asked,
    register,
    watch,
)

pytestmark = pytest.mark.django_db(transaction=True)

LEGAL = "#hand button.legal:enabled"


@dataclass
class Deal:
    dealer: int
    turned_up: str
    leader: int


@sync_to_async
def first_deal(code: str) -> Deal:
    game = load_table(Game.objects.get(code=code).id).game
    assert game.turned_up is not None
    return Deal(game.dealer, str(game.turned_up), game.turn)


@sync_to_async
def seats(code: str) -> list[str]:
    return [seat["alias"] for seat in Game.objects.get(code=code).seats]


@dataclass
class Outcome:
    status: str
    # By seat, every point of the match; by side, the totals of the one hand.
    seat_points: list[int]
    totals: list[int]
    tricks: list[int]
    points: list[int]
    winner: int | None
    # The cards anyone may know at each version: turned trumps and played cards.
    public: dict[int, set[str]]
    # The version of the dealer's first card.
    dealer_played_at: int


@sync_to_async
def outcome(code: str, dealer: int) -> Outcome:
    game = Game.objects.get(code=code)
    match = load_table(game.id).game
    known: set[str] = set()
    public = {0: set[str]()}
    dealer_played_at = 0
    for record in store.read(stream_of(game.id)):
        if record.type == "classic.HandDealt" and record.payload["trump_card"]:
            known.add(record.payload["trump_card"])
        elif record.type == "CardPlayed":
            known.add(record.payload["card"])
            if record.payload["seat"] == dealer and not dealer_played_at:
                dealer_played_at = record.sequence
        public[record.sequence] = set(known)
    (result,) = match.results
    return Outcome(
        game.status,
        list(game.scores),
        list(result.totals),
        list(result.tricks),
        list(match.points),
        match.winner,
        public,
        dealer_played_at,
    )


async def play_one_card(page: Page) -> None:
    await page.locator(LEGAL).first.click(timeout=MOVE_TIMEOUT_MS)


async def test_four_players_play_classic_whist_through_the_pages_and_a_spectator_sees_no_hidden_card() -> (  # noqa: E501
    None
):
    with live_server() as base:
        async with chromium() as browser:
            # Given four players who registered through the pages
            pages = [(await register(browser, base, name))[1] for name in PLAYERS]

            # When the first opens a classic Whist table of one deal, trumps turned
            first = pages[0]
            await first.goto(f"{base}/")
            await first.select_option("#id_classic_preset", "american")
            await first.fill("#id_classic_alias", PLAYERS[0])
            await first.click("#new-classic-game summary")
            await first.select_option("#id_classic_trumps", "turned")
            await first.fill("#id_classic_deals", "1")
            await first.click("#new-classic-game button[type=submit]")
            await expect(first).to_have_url(re.compile(r"/games/[A-Z0-9]{6}/$"))
            code = first.url.rstrip("/").rsplit("/", 1)[-1]

            # and a spectator opens the table before anyone else sits down
            spectator, frames = await watch(browser, base, code)

            # and the others join by its code from the lobby
            await join_by_code(pages[1:], PLAYERS[1:], base, code)
            assert await seats(code) == PLAYERS

            # Then the partnerships face each other: your partner sits opposite you
            deal = await first_deal(code)
            for seat, page in enumerate(pages):
                partner = page.locator("#seats .seat.pos-t")
                await expect(partner).to_have_attribute("data-seat", str((seat + 2) % 4))
                await expect(partner.locator(".mark.partner")).to_have_count(1)
                await expect(page.locator("#seats .seat.pos-b .stats")).to_contain_text("Your side")
            await expect(spectator.locator("#seats .seat[data-seat='1'] .stats")).to_contain_text(
                "Seats 2 & 4"
            )
            await expect(spectator.locator("#bids button")).to_have_count(0)

            # and the dealer's turned trump lies face up in the dealer's place, for all to see
            dealer = spectator.locator(f"#seats .seat[data-seat='{deal.dealer}']")
            turned = dealer.locator(f".turned-up .card[data-card='{deal.turned_up}']")
            await expect(turned).to_be_visible()
            await expect(dealer.locator(".mark.dealer")).to_have_count(1)
            await expect(spectator.locator("#seats .turned-up")).to_have_count(1)
            await expect(spectator.locator("#status")).to_contain_text("Trump")

            # while the three players before the dealer play to the first trick
            for offset in range(1, 4):
                seat = (deal.leader + offset - 1) % 4
                mover = pages[seat]
                others = [page for number, page in enumerate(pages) if number != seat]
                # The seat to act is highlighted steadily: no blinking
                to_act = mover.locator(f"#seats .seat[data-seat='{seat}']")
                await expect(to_act).to_have_class(re.compile(r"\bto-act\b"))
                await expect(to_act.locator(".alias")).to_have_css("animation-name", "none")
                # Only the player to act may click, and only the cards they may play
                for other in others:
                    await expect(other.locator(LEGAL)).to_have_count(0)
                await play_one_card(mover)
                await expect(spectator.locator("#trick .played")).to_have_count(offset)
                await expect(turned).to_be_visible()
            assert (deal.leader + 3) % 4 == deal.dealer
            dealer_page = pages[deal.dealer]
            await expect(dealer_page.locator(LEGAL).first).to_be_visible()
            legal = await dealer_page.locator(LEGAL).count()
            held = await dealer_page.locator("#hand button.card").count()
            assert held == 13
            await expect(dealer_page.locator("#hand button.card.dimmed")).to_have_count(
                held - legal
            )
            await dealer_page.screenshot(path=screenshot_path("classic-table.png"), full_page=True)

            # and once the dealer plays to the first trick, the turned card is taken up
            await play_one_card(dealer_page)
            await expect(spectator.locator("#seats .turned-up")).to_have_count(0)
            await expect(spectator.locator("#last-trick .played")).to_have_count(4)
            await expect(spectator.locator("#side-tricks [data-side]")).to_have_count(2)

            # and they play the other twelve tricks by clicking what each page offers
            moves = await asyncio.gather(
                *(play_when_asked(page, random.Random(seat)) for seat, page in enumerate(pages))
            )

            result = await outcome(code, deal.dealer)
            assert result.status == "finished"
            assert sum(moves) == 52 - 4
            assert sum(result.tricks) == 13
            # The tournament form: each side scores its odd tricks, each player their side's.
            assert result.seat_points == [*result.points, *result.points]

            # And every page shows the hand's score by side and each player's total
            for page in [*pages, spectator]:
                await expect(page.locator("body")).to_have_attribute("data-status", "finished")
                await expect(page.locator("#status")).to_have_text("Game over")
                row = page.locator("#score-table tr[data-hand='0']")
                for side in (0, 1):
                    for column, values in (("tricks", result.tricks), ("totals", result.totals)):
                        cell = row.locator(f"td.{column}[data-side='{side}']")
                        await expect(cell).to_have_text(str(values[side]))
                    summary = page.locator(f"#side-summary tr[data-side='{side}'] td.points")
                    await expect(summary).to_have_text(str(result.points[side]))
                await expect(page.locator("#ranking li")).to_have_count(4)
                for seat, alias in enumerate(PLAYERS):
                    item = page.locator(f"#ranking li[data-seat='{seat}']")
                    await expect(item).to_have_text(
                        re.compile(rf"^{alias} — {result.seat_points[seat]} ")
                    )
                winner = page.locator("#winner")
                if result.winner is None:
                    await expect(winner).to_contain_text("A tie")
                else:
                    players = " & ".join(PLAYERS[result.winner :: 2])
                    await expect(winner).to_contain_text(players)
            await spectator.locator("#scoreboard").screenshot(
                path=screenshot_path("classic-scoreboard.png")
            )

            # And nothing the spectator received named a card before it was public: the
            # turned trump and the cards played
            assert frames.received, "the spectator's socket received nothing"
            public = result.public
            for message in frames.received:
                version = message.get("version") or 0
                named = cards_named(message)
                assert named <= public[version], (message["type"], version, named - public[version])
                # and no state showed the turned trump after the dealer's first card
                state = message.get("state") or {}
                if version >= result.dealer_played_at and state.get("hand"):
                    assert state["hand"]["turned_up"] is None, version
