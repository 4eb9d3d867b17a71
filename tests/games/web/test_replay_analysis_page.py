"""The strong bot's analysis on a finished game's replay, in a real browser at 390 px and
1366 px: a mark under the slider at each flagged decision, landing at its step; the
deal's flagged decisions, each a button to its step; what the bot thinks of the move just
made; and, while the analysis is computed, a line that says so until the flags appear
(decisions 3602, 3603)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import Browser, Page, expect

from eventlog import store
from games.models import Game, GameAnalysis
from games.read.analysis import analyse, card_label
from games.table import stream_of
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import SHORT_GAME, play_to_end, seated_game
from tests.games.web.test_replay_page import DESKTOP, PHONE, at_version, query
from tests.games.web.test_table_phone import SMALL_TARGETS, TARGET, open_page
from tests.test_accessibility import AXE, AXE_RUN, BLOCKING
from tests.tournaments.drivers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

# How long the replay may take to show an analysis computed meanwhile: its next look
# (every 15 s), and time to spare.
POLL_MS = 15_000 + 10_000


@dataclass(frozen=True)
class Played:
    game_id: uuid.UUID
    code: str
    version: int
    # Each reviewed bid and card, in the order made, with its hand (and a card's, the
    # hand's number of cards).
    decisions: list[dict[str, Any]]
    # The version of each deal's start (its HandDealt), by hand.
    starts: list[int]


@sync_to_async
def a_finished_game(*, analysed: bool) -> Played:
    """A short game of three played to its end (nine deals), analysed if ``analysed``."""
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)
    play_to_end(game_id, users, seed=5)
    records = store.read(stream_of(game_id))
    analysis = analyse(game_id) if analysed else None
    decisions = []
    if analysis is not None:
        for hand in analysis.review["hands"]:
            for bid in hand["bids"]:
                decisions.append({**bid, "kind": "bid", "hand": hand["hand"]})
            for play in hand["plays"]:
                decisions.append(
                    {**play, "kind": "play", "hand": hand["hand"], "cards": hand["cards"]}
                )
    return Played(
        game_id,
        Game.objects.get(pk=game_id).code,
        len(records),
        sorted(decisions, key=lambda one: one["at"]),
        [record.sequence for record in records if record.type == "HandDealt"],
    )


def words(one: dict[str, Any]) -> dict[str, Any]:
    """A decision's values as the page writes them: the player, the move made and the
    bot's, the points it lost (one decimal, a half rounded up), its deal and trick."""
    card = one["kind"] == "play"
    return {
        "name": f"Player {one['seat'] + 1}",
        "made": card_label(one["card"]) if card else str(one["bid"]),
        "best": card_label(one["best"]) if card else str(one["best"]),
        "loss": Decimal(str(one["loss"])).quantize(Decimal("0.1"), ROUND_HALF_UP),
        "deal": one["hand"] + 1,
        "trick": one["trick"] + 1 if card else None,
    }


def mark_name(one: dict[str, Any]) -> str:
    w = words(one)
    if one["kind"] == "bid":
        return (
            f"Deal {w['deal']}: {w['name']} bid {w['made']} "
            f"(the bot: {w['best']}, {w['loss']} points)"
        )
    return (
        f"Deal {w['deal']}, trick {w['trick']}: {w['name']} played {w['made']} "
        f"(the bot: {w['best']}, {w['loss']} points)"
    )


def list_line(one: dict[str, Any]) -> str:
    w = words(one)
    if one["kind"] == "bid":
        return (
            f"{w['name']} bid {w['made']}; the strong bot would have bid {w['best']}: "
            f"{w['loss']} points expected more."
        )
    return (
        f"Trick {w['trick']}: {w['name']} played {w['made']}; the strong bot would have "
        f"played {w['best']}: {w['loss']} points expected more."
    )


def verdict(one: dict[str, Any]) -> str:
    w = words(one)
    verb = "bid" if one["kind"] == "bid" else "played"
    return f"The strong bot would have {verb} {w['best']}: {w['loss']} points expected more."


async def replay_page(browser: Browser, url: str, size: tuple[int, int], errors: list[Any]) -> Page:
    """``url`` in a browser of the screen ``size``, its script's errors kept in ``errors``
    (axe may be added: the content security policy lets it be)."""
    context = await browser.new_context(
        viewport={"width": size[0], "height": size[1]}, bypass_csp=True
    )
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(url)
    return page


def loneliest(flags: list[dict[str, Any]]) -> dict[str, Any]:
    """The flagged card whose mark lies farthest from its neighbours': a finger's
    click lands on it, not on a mark beside it."""

    def room(index: int) -> int:
        at = flags[index]["at"]
        before = flags[index - 1]["at"] if index else 0
        after = flags[index + 1]["at"] if index + 1 < len(flags) else at * 2
        return min(at - before, after - at)

    cards = [index for index, one in enumerate(flags) if one["kind"] == "play"]
    return flags[max(cards, key=room)]


async def test_the_replay_marks_each_flagged_decision_and_says_what_the_bot_thinks() -> None:
    # Given a finished game of nine deals, analysed (its deals are random, and so are its
    # players' moves: many are flagged)
    game = await a_finished_game(analysed=True)
    flags = [one for one in game.decisions if one["flagged"]]
    card = loneliest(flags)
    deal = [one for one in flags if one["hand"] == card["hand"]]
    bid = next(one for one in flags if one["kind"] == "bid")
    # a move the bot would have made too, the nearest to its deal's start
    agreed = min(
        (one for one in game.decisions if one["best"] == one.get("card", one.get("bid"))),
        key=lambda one: one["at"] - game.starts[one["hand"]],
    )
    total = len(game.starts)
    with live_server() as base:
        async with chromium() as browser:
            errors: list[Any] = []
            for size in (PHONE, DESKTOP):
                # When its replay opens
                url = f"{base}/games/{game.code}/?replay"
                page = await replay_page(browser, url, size, errors)

                # Then under the slider, a mark for each flagged decision, named for it
                marks = page.locator("#replay-marks button")
                await expect(marks).to_have_count(len(flags))
                for index in (0, len(flags) - 1):
                    await expect(marks.nth(index)).to_have_accessible_name(mark_name(flags[index]))
                # and at the game's end the bot says nothing
                await expect(page.locator("#replay-bot")).to_have_text("")

                # When a flagged card's mark is clicked
                mark = page.get_by_role("button", name=mark_name(card), exact=True)
                await mark.click()

                # Then the replay stands just after that card, and the bot says its card
                await at_version(page, card["at"])
                await expect(page.locator("#replay-at")).to_have_text(
                    f"Deal {card['hand'] + 1} of {total} · trick {card['trick'] + 1} of "
                    f"{card['cards']} · step {card['at']} of {game.version}"
                )
                await expect(page.locator("#replay-bot")).to_have_text(verdict(card))
                await expect(mark).to_have_attribute("aria-current", "step")
                assert query(page) == f"replay&deal={card['hand'] + 1}&trick={card['trick'] + 1}"
                # and the deal's list gives its flagged decisions, in the order made
                await expect(page.locator("#replay-flags-title")).to_have_text(
                    "Mistakes in this deal"
                )
                await expect(page.locator("#replay-flags-list li")).to_have_text(
                    [list_line(one) for one in deal]
                )
                await expect(page.locator("#replay-flags-none")).to_be_hidden()
                await expect(page.locator("#replay-analysis-link")).to_have_attribute(
                    "href", f"/games/{game.code}/analysis/"
                )
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                assert await page.evaluate(SMALL_TARGETS, TARGET) == []
                await page.add_script_tag(path=AXE)
                found = await page.evaluate(AXE_RUN)
                assert [one for one in found if one["impact"] in BLOCKING] == []
                await page.screenshot(
                    path=screenshot_path(f"replay-flags-{size[0]}.png"), full_page=True
                )

                # When a flagged bid's deal is chosen, and the bid in its list
                await page.select_option("#replay-deal", str(bid["hand"]))
                await at_version(page, game.starts[bid["hand"]])
                await expect(page.locator("#replay-flags-list li")).to_have_text(
                    [list_line(one) for one in flags if one["hand"] == bid["hand"]]
                )
                listed = page.locator(f"#replay-flags-list button[data-at='{bid['at']}']")
                await listed.click()

                # Then the replay stands just after that bid, and the bot says its bid
                await at_version(page, bid["at"])
                await expect(page.locator("#replay-at")).to_contain_text(
                    f"Deal {bid['hand'] + 1} of {total} · bidding · "
                )
                await expect(page.locator("#replay-bot")).to_have_text(verdict(bid))
                # the bid marked as the step shown, and still focused
                await expect(listed).to_have_attribute("aria-current", "step")
                await expect(listed).to_be_focused()

                # When the marks are walked with the keyboard to the last, and it is pressed
                await marks.first.focus()
                await page.keyboard.press("End")
                await expect(marks.last).to_be_focused()
                await page.keyboard.press("Enter")

                # Then the replay stands at the last flagged decision
                await at_version(page, flags[-1]["at"])
                await expect(page.locator("#replay-bot")).to_have_text(verdict(flags[-1]))

                # When a deal's start opens, no decision: nothing of the bot
                start = game.starts[agreed["hand"]]
                await page.goto(f"{url}&deal={agreed['hand'] + 1}")
                await at_version(page, start)
                await expect(page.locator("#replay-bot")).to_have_text("")

                # When the replay steps to a move the bot would have made too
                for _ in range(agreed["at"] - start):
                    await page.locator("#replay-next").click()

                # Then the bot agrees
                await at_version(page, agreed["at"])
                await expect(page.locator("#replay-bot")).to_have_text("The strong bot agrees.")
                await page.context.close()
            assert errors == []


@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded, an analysis is computed when first asked for; production's analyst "
    "computes it as the game ends (tests/games/test_tasks.py)",
)
async def test_the_replay_says_the_analysis_is_being_computed_then_shows_its_flags() -> None:
    # Given a finished game whose analysis was never asked for
    game = await a_finished_game(analysed=False)
    with live_server() as base:
        async with chromium() as browser:
            # When its replay opens at a deal
            url = f"{base}/games/{game.code}/?replay&deal=4"
            page = await open_page(browser, url, None, PHONE)

            # Then the replay says the analysis is being computed, with no mark yet
            await expect(page.locator("#replay-flags-pending")).to_have_text(
                "The analysis is being computed; its flags will appear here."
            )
            await expect(page.locator("#replay-marks")).to_be_hidden()
            await expect(page.locator("#replay-flags-list li")).to_have_count(0)
            await expect(page.locator("#replay-flags-none")).to_be_hidden()

            # When the analysis it asked for is computed
            await sync_to_async(wait_until)(
                lambda: GameAnalysis.objects.filter(game_id=game.game_id).exists(),
                300,
                "analysis",
            )
            review = (await GameAnalysis.objects.aget(game_id=game.game_id)).review
            flagged = [
                one
                for hand in review["hands"]
                for one in hand["bids"] + hand["plays"]
                if one["flagged"]
            ]

            # Then the replay, looking again, shows its flags
            await expect(page.locator("#replay-marks button")).to_have_count(
                len(flagged), timeout=POLL_MS
            )
            await expect(page.locator("#replay-flags-pending")).to_be_hidden()
            # and the fourth deal's flagged decisions
            fourth = review["hands"][3]
            await expect(page.locator("#replay-flags-list li")).to_have_count(
                sum(one["flagged"] for one in fourth["bids"] + fourth["plays"])
            )
            await page.context.close()
