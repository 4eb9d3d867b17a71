"""The scorer page in a real browser, on phones 360 px wide: two phones at a table in the
room write a deal down, confirm it and correct it, each seeing the other's entries as they
land; an entry made without a connection is sent once the connection returns, and once
only, even when the answer to its first sending is lost."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Browser, Page, Route, expect

from accounts.models import User
from eventlog import store
from games.commands.actions import game_record_deal
from games.read.pins import table_pin
from games.table import stream_of
from games.write.tables import load_table
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import seated_game
from tests.games.web.test_room import SHORT
from tests.games.web.test_table_layout import session_of
from tests.test_accessibility import VIEWPORTS, violations

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}


@dataclass
class RoomTable:
    game_id: uuid.UUID
    code: str
    pin: str
    first_dealer: int
    players: list[User]


@sync_to_async
def a_room_table(players: int = 4) -> RoomTable:
    """Players at a table in the room, deals of 1, 3, 5, 7, 8, 7, 5, 3, 1 cards (at four)."""
    game_id, seated = seated_game(players, options=SHORT, place="room")
    table = load_table(game_id)
    dealer = table.romanian_game.first_dealer
    return RoomTable(game_id, table.code, table_pin(game_id), dealer, seated)


@sync_to_async
def recorded(game_id: uuid.UUID) -> tuple[list[int], list[str]]:
    """The table's scores, and the types of the recording events in its log."""
    types = [
        record.type for record in store.read(stream_of(game_id)) if record.type.startswith("Deal")
    ]
    return list(load_table(game_id).romanian_game.scores), types


def player(seat: int) -> str:
    return f"Player {seat % 4 + 1}"


async def phone_with_pin(browser: Browser, url: str, seat: int, pin: str | None = None) -> Page:
    """A phone signed in to no account that opens ``url`` and gives the PIN (typed, or
    filled in from the QR code's address) for ``seat``."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await page.goto(url)
    if pin is not None:
        await page.fill("#pin-input", pin)
    await page.check(f"#pin-form input[name=seat][value='{seat}']")
    await page.click("#pin-send")
    await expect(page.locator("#who")).to_have_text(
        f"You write the deals down for {player(seat)} (seat {seat + 1})."
    )
    return page


async def tap(page: Page, value: int) -> None:
    await page.click(f"#entry .pad button[data-value='{value}']")


async def expect_asked(page: Page, prompt: str) -> None:
    await expect(page.locator("#prompt")).to_have_text(prompt)


def deal(hand: int) -> str:
    return f"#sheet tbody[data-hand='{hand}']"


async def expect_state(page: Page, hand: int, state: str, timeout: float = 5_000) -> None:
    """Deal ``hand`` shows ``state`` and nothing else (a list: a page drawn between two
    states for a moment shows two, which a single match would refuse at once)."""
    await expect(page.locator(f"{deal(hand)} .state")).to_have_text([state], timeout=timeout)


async def expect_totals(page: Page, hand: int, totals: list[int]) -> None:
    await expect(page.locator(f"{deal(hand)} tr.deal td .tot")).to_have_text(
        [str(total) for total in totals]
    )


async def test_two_phones_write_a_deal_down_confirm_it_and_correct_it() -> None:
    table = await a_room_table()
    dealer = table.first_dealer
    left = [(dealer + turn) % 4 for turn in (1, 2, 3)]
    with live_server() as base:
        async with chromium() as browser:
            # Given a phone that came by the table card's QR code and gave the PIN for
            # seat 0, and a second phone whose player typed the PIN in for seat 1
            url = f"{base}/games/{table.code}/score/"
            first = await phone_with_pin(browser, f"{url}?pin={table.pin}", 0)
            assert first.url == url  # the PIN is not left in the address
            second = await phone_with_pin(browser, url, 1, pin=table.pin)

            # When the first enters deal 1 (one card): the bids from the dealer's left
            await expect(first.locator("#entry-title")).to_have_text("Deal 1 of 9")
            await expect(first.locator("#entry-info")).to_have_text(
                f"1 card · dealer: {player(dealer)}"
            )
            for seat in left:
                await expect_asked(first, f"{player(seat)} bids")
                await tap(first, 0)
            # the dealer last, who may not make the bids add up to the one card
            await expect_asked(first, f"{player(dealer)} bids")
            await expect(first.locator("#entry .pad button[data-value='1']")).to_be_disabled()
            await expect(first.locator("#forbidden")).to_have_text(
                f"{player(dealer)}, the dealer, may not bid 1: the bids may not add up to 1."
            )
            await tap(first, 0)
            # then the tricks, the dealer's left taking the one trick
            await expect_asked(first, f"{player(left[0])} made")
            await tap(first, 1)
            for seat in [*left[1:], dealer]:
                await expect_asked(first, f"{player(seat)} made")
                await tap(first, 0)
            await expect(first.locator("#entry legend").nth(1)).to_have_text("Tricks made: 1 of 1")
            # and sends it from the keyboard, Send having the focus
            await expect(first.locator("#send")).to_be_focused()
            await first.keyboard.press("Enter")

            # Then it is written down for seat 0, and the second phone sees it at once,
            # awaiting its confirmation
            scores = [-1 if seat == left[0] else 5 for seat in range(4)]
            for page in (first, second):
                await expect_state(page, 0, "awaiting confirmation")
                await expect_totals(page, 0, scores)
            await expect(first.locator(f"{deal(0)} button.confirm")).to_have_count(0)
            await expect(first.locator("#entry-title")).to_have_text("Deal 2 of 9")

            # When the second phone confirms it
            await second.click(f"{deal(0)} button.confirm")

            # Then both see it confirmed
            for page in (first, second):
                await expect_state(page, 0, "confirmed")

            # When the first enters deal 2 (three cards) by typing its digits: bids of
            # 1, 1 and 0 from the dealer's left, so the dealer may not bid 1, then 0;
            # tricks of 1, 1, 1 and 0
            dealer_2 = (dealer + 1) % 4
            order_2 = [(dealer_2 + turn) % 4 for turn in (1, 2, 3, 4)]
            for digit in "110":
                await first.keyboard.press(digit)
            await expect_asked(first, f"{player(dealer_2)} bids")
            await expect(first.locator("#entry .pad button[data-value='1']")).to_be_disabled()
            await first.screenshot(path=screenshot_path("scorer-phone.png"), full_page=True)
            for digit in "01110":
                await first.keyboard.press(digit)
            await first.keyboard.press("Enter")
            await expect_state(second, 1, "awaiting confirmation")

            # And corrects deal 1: the trick was taken by the next seat, which a reason says
            await first.click(f"{deal(0)} button.correct")
            await expect(first.locator("#entry-title")).to_have_text("Correcting deal 1")
            await expect(first.locator("#reason-help")).to_have_text(
                "This deal is confirmed: say why it is corrected. "
                "The deals after it will be scored again."
            )
            await first.click(f"#entry .chips.tricks button[data-key='tricks-{left[1]}']")
            await tap(first, 1)
            await first.click(f"#entry .chips.tricks button[data-key='tricks-{left[0]}']")
            await tap(first, 0)
            await expect(first.locator("#send")).to_be_disabled()
            await first.fill("#reason", "the trick went to the next seat")
            await first.press("#reason", "Enter")

            # Then both phones show the new scores of both deals, deal 1 awaiting a
            # confirmation again
            first_deal = [-1 if seat == left[1] else 5 for seat in range(4)]
            second_deal = dict(zip(order_2, [6, 6, -1, 5], strict=True))
            totals = [first_deal[seat] + second_deal[seat] for seat in range(4)]
            for page in (first, second):
                await expect_state(page, 0, "awaiting confirmation")
                await expect_totals(page, 0, first_deal)
                await expect_totals(page, 1, totals)
            await expect(first.locator("#queued")).to_have_text("")
            assert await recorded(table.game_id) == (
                totals,
                ["DealRecorded", "DealConfirmed", "DealRecorded", "DealCorrected"],
            )


async def test_a_deal_entered_without_a_connection_is_sent_when_it_returns_and_applies_once() -> (
    None
):
    table = await a_room_table()
    dealer = table.first_dealer
    order = [(dealer + turn) % 4 for turn in (1, 2, 3, 4)]
    with live_server() as base:
        async with chromium() as browser:
            # Given a phone scoring for seat 2 that loses its connection
            url = f"{base}/games/{table.code}/score/?pin={table.pin}"
            phone = await phone_with_pin(browser, url, 2)
            await expect(phone.locator("#entry-title")).to_have_text("Deal 1 of 9")
            await phone.context.set_offline(True)

            # When it enters deal 1
            for _ in order:
                await tap(phone, 0)
            await tap(phone, 1)
            for _ in order[1:]:
                await tap(phone, 0)
            await phone.click("#send")

            # Then the deal waits on the phone, said to be waiting to send
            await expect_state(phone, 0, "waiting to send")
            await expect(phone.locator("#queued")).to_have_text("Waiting to send: 1")
            await expect(phone.locator("#entry-title")).to_have_text("Deal 2 of 9")
            assert await recorded(table.game_id) == ([0, 0, 0, 0], [])

            # When the connection returns, and the answer to its first sending is lost
            # on the way back
            lost: list[int] = []

            async def lose_the_answer(route: Route) -> None:
                answer = await route.fetch()
                lost.append(answer.status)
                await route.abort()

            await phone.route(re.compile(r"/deals/$"), lose_the_answer, times=1)
            await phone.context.set_offline(False)

            # Then the phone sends it again with the same key, and the deal is written
            # down once
            await expect_state(phone, 0, "awaiting confirmation", timeout=15_000)
            await expect(phone.locator("#queued")).to_have_text("")
            assert lost == [200]
            scores, types = await recorded(table.game_id)
            assert types == ["DealRecorded"]
            assert scores == [-1 if seat == order[0] else 5 for seat in range(4)]
            stored = await phone.evaluate(f"localStorage.getItem('atu.scorer.{table.game_id}')")
            assert stored is None


async def test_a_deal_another_phone_wrote_first_is_refused_with_the_servers_words() -> None:
    # Given a phone without a connection that entered deal 1, the trick to the dealer's left
    table = await a_room_table()
    dealer = table.first_dealer
    with live_server() as base:
        async with chromium() as browser:
            url = f"{base}/games/{table.code}/score/?pin={table.pin}"
            phone = await phone_with_pin(browser, url, 2)
            await expect(phone.locator("#entry-title")).to_have_text("Deal 1 of 9")
            await phone.context.set_offline(True)
            for value in (0, 0, 0, 0, 1, 0, 0, 0):
                await tap(phone, value)
            await phone.click("#send")
            await expect_state(phone, 0, "waiting to send")

            # When another player writes deal 1 down first, the trick to the dealer
            taker = dealer
            await sync_to_async(game_record_deal)(
                game_id=table.game_id,
                actor=table.players[3],
                hand=0,
                bids=[0] * 4,
                tricks=[1 if seat == taker else 0 for seat in range(4)],
            )
            # and the connection returns
            await phone.context.set_offline(False)

            # Then the phone says why its entry was refused, drops it, and shows the deal
            # as the other phone wrote it
            await expect(phone.locator("#notice")).to_have_text(
                "That is not the deal to record next.", timeout=15_000
            )
            await expect_state(phone, 0, "awaiting confirmation")
            await expect(phone.locator(f"{deal(0)} .by")).to_have_text("written down by Player 4")
            await expect_totals(phone, 0, [-1 if seat == taker else 5 for seat in range(4)])
            await expect(phone.locator("#queued")).to_have_text("")
            await expect(phone.locator("#entry-title")).to_have_text("Deal 2 of 9")
            assert (await recorded(table.game_id))[1] == ["DealRecorded"]


@pytest.mark.parametrize("players", [3, 6])
async def test_the_scorer_page_has_no_serious_accessibility_violation(players: int) -> None:
    # Given a table in the room whose first deal seat 1 wrote down, and seat 0's session
    table = await a_room_table(players)
    session = await sync_to_async(_first_deal_written)(table)

    # When axe checks seat 0's scorer page at a phone's size and a laptop's
    with live_server() as base:
        async with chromium() as browser:
            found = {
                size: await violations(browser, f"{base}/games/{table.code}/score/", session, size)
                for size in VIEWPORTS
            }

    # Then it has no serious or critical violation
    assert found == {size: [] for size in VIEWPORTS}


def _first_deal_written(table: RoomTable) -> str:
    players = len(table.players)
    tricks = [1 if seat == (table.first_dealer + 1) % players else 0 for seat in range(players)]
    game_record_deal(
        game_id=table.game_id, actor=table.players[1], hand=0, bids=[0] * players, tricks=tricks
    )
    return session_of(table.players[0])
