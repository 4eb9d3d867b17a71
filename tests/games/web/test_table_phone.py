"""The table finished for phones, in a real browser at 360 px and 1366 px: every control
a finger taps on the lobby, table and event pages at least 44 px square; a six-player
table's eight cards in one row in view on a 360x740 phone, and its scoreboard naming
every player; a paused table's controls disabled and its notice gone with the pause; a
turn whose time ran out told to its player, who takes their seat back in one tap; a
replay stepped deal by deal (decision 3505)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings
from playwright.async_api import Browser, Page, expect

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.rules import Phase
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end, seated_game
from tests.games.web.test_table_layout import (
    IN_VIEW,
    Seated,
    open_table,
    others_move_until,
    seated,
    session_of,
    viewer_to,
)
from tests.test_accessibility import every_page

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (360, 740)
DESKTOP = (1366, 768)
# WCAG 2.5.5's target size, in CSS pixels.
TARGET = 44
# The pages of tests/test_accessibility.py that are the lobby's, a table's or an event's.
MEASURED = (
    "lobby",
    "lobby, anonymous",
    "table waiting",
    "table, your bid",
    "table, your card",
    "table spectated",
    "table finished",
    "replay",
    "event",
    "event table, a call waiting",
    "event table, the call offered",
)
# Every control in view a finger may tap that is smaller than a target, described.
SMALL_TARGETS = """(target) => {
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  return [...document.querySelectorAll(selector)]
    .filter((element) => element.checkVisibility({visibilityProperty: true}))
    // WCAG 2.5.5's exception: a control whose equivalent, a full-sized one, is in view
    // (the replay's marks on its track, each also a button of its deal's list).
    .filter((element) => {
      const small = element.closest("[data-equivalent]");
      const equivalent = small && document.getElementById(small.dataset.equivalent);
      return !(equivalent && equivalent.checkVisibility());
    })
    .map((element) => {
      const box = element.getBoundingClientRect();
      const text = (element.textContent || "").trim().slice(0, 30);
      const name = `${element.tagName.toLowerCase()} ${element.id ? `#${element.id}` : text}`;
      return {element: name, width: box.width, height: box.height};
    })
    .filter((found) => found.width > 0
      && (found.width < target - 0.01 || found.height < target - 0.01));
}"""


async def open_page(browser: Browser, url: str, session: str | None, size: tuple[int, int]) -> Page:
    """``url`` in a browser of the screen ``size``, signed in with ``session`` if any."""
    width, height = size
    context = await browser.new_context(viewport={"width": width, "height": height})
    if session is not None:
        await context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url}]
        )
    page = await context.new_page()
    await page.goto(url)
    return page


async def small_targets(
    browser: Browser, url: str, session: str | None, size: tuple[int, int]
) -> list[dict[str, Any]]:
    width = size[0]
    page = await open_page(browser, url, session, size)
    if "/games/" in url:
        await expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"^\d+$"))
    found: list[dict[str, Any]] = await page.evaluate(SMALL_TARGETS, TARGET)
    name = url.split("//", 1)[1].split("/", 1)[1].replace("/", "_").replace("?", "_")
    await page.screenshot(path=screenshot_path(f"targets-{name}-{width}.png"), full_page=True)
    await page.context.close()
    return found


async def test_every_control_of_the_lobby_table_and_event_pages_is_at_least_44_px_square() -> None:
    # Given the lobby, tables waiting, in play, finished and replayed, an event's page
    # and its table
    pages = [page for page in await every_page() if page[0] in MEASURED]
    assert [name for name, _, _ in pages] == list(MEASURED)
    with live_server() as base:
        async with chromium() as browser:
            # When every link, button, field and drawer in view is measured on a phone
            # and a laptop
            report = {}
            for name, path, session in pages:
                for size in (PHONE, DESKTOP):
                    found = await small_targets(browser, base + path, session, size)
                    if found:
                        report[f"{name} at {size[0]}x{size[1]}"] = found
    # Then none is narrower or lower than 44 px
    assert report == {}


async def table_to_bid(players: int) -> Seated:
    """A table of ``players``, its first deal of eight cards, seat 0's to bid."""
    table = await seated(players)
    await others_move_until(table.game_id, table.users, viewer_to(Phase.BIDDING))
    return table


async def test_a_six_player_tables_eight_cards_lie_in_one_row_in_view_on_a_360_px_phone() -> None:
    # Given a table of six, its first deal of eight cards, seat 0's to bid
    table = await table_to_bid(6)
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            # When seat 0 opens it on a 360x740 phone
            page = await open_table(browser, base, table, PHONE, errors)

            # Then their eight cards and their bids are in view without scrolling
            cards = page.locator("#hand button.card")
            await expect(cards).to_have_count(8)
            for card in await cards.all():
                assert await card.evaluate(IN_VIEW), await card.get_attribute("data-card")
            for bid in await page.locator("#bids button").all():
                assert await bid.evaluate(IN_VIEW), await bid.get_attribute("data-bid")
            # in one row, each a target of 44 px
            boxes = [await card.bounding_box() for card in await cards.all()]
            assert len({round(box["y"]) for box in boxes if box}) == 1
            assert all(box and box["width"] >= TARGET and box["height"] >= TARGET for box in boxes)
            assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
            await page.screenshot(path=screenshot_path("table-phone-six-players.png"))

            # And once the others have bid and played to them, the cards still lie in
            # one row in view
            await page.locator("#bids button:enabled").first.click()
            await expect(page.locator("#bids button")).to_have_count(0)
            await others_move_until(table.game_id, table.users, viewer_to(Phase.PLAYING))
            await expect(page.locator("#hand button.legal:enabled").first).to_be_visible()
            for card in await cards.all():
                assert await card.evaluate(IN_VIEW), await card.get_attribute("data-card")
            tops = [(await card.bounding_box() or {"y": 0})["y"] for card in await cards.all()]
            assert max(tops) - min(tops) < TARGET / 2

            # When they open the scoreboard
            await page.locator("#scoreboard-drawer summary").click()

            # Then it names every player with their score, each in the screen's width
            totals = page.locator("#score-totals li")
            await expect(totals).to_have_count(6)
            for line in await totals.all():
                await line.scroll_into_view_if_needed()
                box = await line.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
            await expect(totals.locator(".who")).to_have_text(
                [f"Player {seat}" for seat in range(1, 7)]
            )
            await page.screenshot(path=screenshot_path("table-phone-scoreboard.png"))
    assert errors == []


@sync_to_async
def pause(game_id: uuid.UUID, creator: User, paused: bool) -> None:
    if paused:
        actions.game_pause(game_id=game_id, actor=creator, reason="")
    else:
        actions.game_resume(game_id=game_id, actor=creator)


async def test_a_paused_table_disables_every_control_and_its_notice_goes_with_the_pause() -> None:
    # Given seat 0 to bid at a table of four
    table = await table_to_bid(4)
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            for size in (PHONE, DESKTOP):
                page = await open_table(browser, base, table, size, errors)
                await expect(page.locator("#bids button:enabled").first).to_be_visible()
                await expect(page.locator("#paused-notice")).to_be_hidden()

                # When its creator pauses it
                await pause(table.game_id, table.users[0], True)

                # Then no bid may be made, by a tap or a key, and the felt says why
                await expect(page.locator("#paused-notice")).to_have_text("Paused by the organizer")
                await expect(page.locator("#bids button")).to_have_count(9)
                await expect(page.locator("#bids button:enabled")).to_have_count(0)
                version = (await sync_to_async(load_table)(table.game_id)).version
                await page.keyboard.press("0")
                await page.wait_for_timeout(300)
                assert (await sync_to_async(load_table)(table.game_id)).version == version

                # When it is resumed
                await pause(table.game_id, table.users[0], False)

                # Then the notice is gone and the bids act again
                await expect(page.locator("#paused-notice")).to_be_hidden()
                await expect(page.locator("#bids button:enabled").first).to_be_visible()
                await page.context.close()
    assert errors == []


@sync_to_async
def table_with_a_short_turn() -> Seated:
    """Maria's table of three, waiting for its bots, whose turns last 5 s before a bot
    stands in, as a Play-now table's do after a minute."""
    user = UserFactory(display_name="Maria")
    game = actions.game_create(
        creator=user,
        player_count=3,
        preset="romanian-standard",
        turn_seconds=5,
        stand_in_seconds=5,
    )
    actions.game_join(game_id=game.id, user=user, alias="Maria")
    return Seated(game.id, game.code, [user], session_of(user))


@override_settings(ATU_BOT_DELAY_SECONDS=1.0)  # the bots play a second apart, as they do
@pytest.mark.worker_bot_delay(1.0)
@pytest.mark.usefixtures("tasks_run")
async def test_a_turn_whose_time_ran_out_is_told_to_its_player_who_takes_the_seat_back() -> None:
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            for width, height in (PHONE, DESKTOP):
                # Given Maria at her table, its turns lasting 5 s, when bots fill it
                table = await table_with_a_short_turn()
                page = await open_table(browser, base, table, (width, height), errors, "open")
                await sync_to_async(actions.game_fill_with_bots)(
                    game_id=table.game_id, actor=table.users[0]
                )

                # When her turn comes and she lets the time run out
                notice = page.locator("#timed-out")
                await expect(notice).to_have_text(
                    re.compile(r"^Time ran out: a bot played for you\."), timeout=30_000
                )

                # Then the felt says so, with her seat back one tap away; the bots' own
                # seats, which nobody else could play, offer no Remove bot
                await expect(page.locator("#seats .seat-bot")).to_have_count(1)
                await expect(page.locator("#seats .seat[data-seat='0'] .seat-bot")).to_have_count(1)
                take_back = notice.locator("#take-seat-back")
                await expect(take_back).to_have_text("Take my seat back")
                assert (await sync_to_async(load_table)(table.game_id)).bots[0] == "medium"
                await page.screenshot(path=screenshot_path(f"table-timed-out-{width}.png"))

                # When she taps it
                await take_back.click()

                # Then the seat is hers again and the notice is gone
                await expect(notice).to_be_hidden()
                await expect(page.locator("#seats .seat[data-seat='0'] .mark.bot")).to_have_count(0)
                assert (await sync_to_async(load_table)(table.game_id)).bots[0] is None
                await page.context.close()
    assert errors == []


@sync_to_async
def finished_table() -> tuple[str, int]:
    game_id, users = seated_game(3, preset="romanian-standard")
    play_to_end(game_id, users)
    game = Game.objects.get(pk=game_id)
    return game.code, len(load_table(game_id).game.results)


async def test_a_replay_goes_to_a_deal_and_steps_deal_by_deal() -> None:
    # Given a finished game of three
    code, deals = await finished_table()
    with live_server() as base:
        async with chromium() as browser:
            # When its replay opens, at its end
            page = await open_page(browser, f"{base}/games/{code}/?replay", None, PHONE)
            at = page.locator("#replay-at")
            await expect(at).to_contain_text(f"Deal {deals} of {deals}")

            # Then the deals are offered by number, and one is chosen
            await expect(page.locator("#replay-deal option")).to_have_count(deals)
            await page.select_option("#replay-deal", "4")
            await expect(at).to_contain_text(f"Deal 5 of {deals} · bidding · step")
            await expect(page.locator("#status")).to_contain_text(f"Deal 5 of {deals}")

            # And the deal before and after are one tap each
            await page.locator("#replay-previous-deal").click()
            await expect(at).to_contain_text(f"Deal 4 of {deals} · ")
            await page.locator("#replay-next-deal").click()
            await page.locator("#replay-next-deal").click()
            await expect(at).to_contain_text(f"Deal 6 of {deals} · ")
            await page.select_option("#replay-deal", "0")
            await expect(at).to_contain_text(f"Deal 1 of {deals} · ")
            await expect(page.locator("#replay-previous-deal")).to_be_disabled()


# Every table of the page that neither fits its box nor scrolls inside it, described.
UNREACHABLE_TABLES = """() => [...document.querySelectorAll("main table")]
  .filter((table) => table.checkVisibility())
  .map((table) => {
    const box = table.getBoundingClientRect();
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(table).overflowX);
    const inside = table.scrollWidth <= table.clientWidth + 1 || scrolls;
    return {table: table.id || table.className, right: box.right, inside};
  })
  .filter((found) => found.right > window.innerWidth + 0.5 || !found.inside)"""


async def test_the_results_and_standings_tables_fit_or_scroll_inside_their_box_on_a_phone() -> None:
    # Given a finished event's results and its page with the standings
    pages = [page for page in await every_page() if page[0] in ("event", "results")]
    with live_server() as base:
        async with chromium() as browser:
            for name, path, session in pages:
                # When each is opened on a 360 px phone
                page = await open_page(browser, base + path, session, PHONE)
                await expect(page.locator("main table").first).to_be_visible()

                # Then every table fits the screen, or scrolls inside its own box
                assert await page.evaluate(UNREACHABLE_TABLES) == [], name
                assert await page.evaluate("document.documentElement.scrollWidth") <= 360, name
                await page.context.close()
