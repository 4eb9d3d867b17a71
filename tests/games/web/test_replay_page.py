"""The replay of a finished game, in a real browser at 390 px and 1366 px: a deal chosen
and stepped trick by trick, each trick lying complete on the table; a link to a deal
and trick landing there, with the deal's bids, tricks and points beside the cards, and
every hand open; a duplicate table's replay refused while its deal set still plays
(decision 3603)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import Page, expect

from eventlog import store
from games.models import Game
from games.table import stream_of
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end, seated_game
from tests.games.web.test_table_phone import SMALL_TARGETS, TARGET, open_page

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = (390, 844)
DESKTOP = (1366, 768)


@dataclass(frozen=True)
class Deal:
    """A deal as the game's log has it."""

    start: int  # the sequence of its HandDealt
    bids: dict[int, int]  # by seat
    tricks: list[dict[str, Any]]  # each TrickTaken's payload
    complete: list[int]  # the version at which each trick lies complete
    scored: dict[str, Any]  # its HandScored's payload


@dataclass(frozen=True)
class Finished:
    game_id: uuid.UUID
    code: str
    deals: list[Deal]
    version: int


@sync_to_async
def finished_game(players: int = 3) -> Finished:
    """A game of ``players`` played to its end, and its deals read from its log."""
    game_id, users = seated_game(players, "romanian-standard")
    play_to_end(game_id, users)
    records = store.read(stream_of(game_id))
    deals = []
    for dealt in (record for record in records if record.type == "HandDealt"):
        hand = [r for r in records if r.payload.get("hand") == dealt.payload["hand"]]
        taken = [r for r in hand if r.type == "TrickTaken"]
        deals.append(
            Deal(
                start=dealt.sequence,
                bids={r.payload["seat"]: r.payload["bid"] for r in hand if r.type == "BidPlaced"},
                tricks=[r.payload for r in taken],
                complete=[r.sequence - 1 for r in taken],
                scored=next(r.payload for r in hand if r.type == "HandScored"),
            )
        )
    return Finished(game_id, Game.objects.get(pk=game_id).code, deals, len(records))


async def at_version(page: Page, version: int) -> None:
    await expect(page.locator("body")).to_have_attribute("data-version", str(version))


async def expect_trick(page: Page, trick: dict[str, Any]) -> None:
    """The trick lies complete in the middle, its winner marked and named."""
    count = len(trick["cards"])
    seats = [(trick["leader"] + index) % count for index in range(count)]
    played = page.locator("#trick .played")
    await expect(played).to_have_count(count)
    for seat, card in zip(seats, trick["cards"], strict=True):
        await expect(page.locator(f"#trick .played[data-seat='{seat}'] .card")).to_have_attribute(
            "data-card", card
        )
    winner = page.locator("#trick .played.winner")
    await expect(winner).to_have_attribute("data-seat", str(trick["winner"]))
    await expect(page.locator("#trick .taken")).to_have_text(f"✓ Player {trick['winner'] + 1}")


def query(page: Page) -> str:
    return page.url.split("?", 1)[1]


async def test_a_replay_goes_to_a_deal_and_steps_trick_by_trick() -> None:
    # Given a finished game of three: 21 deals, the fifth of two cards
    game = await finished_game()
    total = len(game.deals)
    fourth, fifth = game.deals[3], game.deals[4]
    assert (total, len(fourth.tricks), len(fifth.tricks)) == (21, 2, 3)
    with live_server() as base:
        async with chromium() as browser:
            for size in (PHONE, DESKTOP):
                # When its replay opens and the fifth deal is chosen
                page = await open_page(browser, f"{base}/games/{game.code}/?replay", None, size)
                at = page.locator("#replay-at")
                await expect(at).to_have_text(
                    f"Deal {total} of {total} · scored · step {game.version} of {game.version}"
                )
                await page.select_option("#replay-deal", "4")

                # Then it lies dealt, before its first bid, and the address says so
                await at_version(page, fifth.start)
                await expect(at).to_have_text(
                    f"Deal 5 of {total} · bidding · step {fifth.start} of {game.version}"
                )
                assert query(page) == "replay&deal=5"

                # When the next trick is asked, twice
                for number in (1, 2):
                    await page.locator("#replay-next-trick").click()

                    # Then each trick lies complete on the table, before it is taken
                    await at_version(page, fifth.complete[number - 1])
                    await expect(at).to_contain_text(f"Deal 5 of {total} · trick {number} of 3 · ")
                    await expect_trick(page, fifth.tricks[number - 1])
                    assert query(page) == f"replay&deal=5&trick={number}"
                    # nobody's turn while it lies there
                    await expect(page.locator("#seats .seat.to-act")).to_have_count(0)
                await page.screenshot(path=screenshot_path(f"replay-trick-{size[0]}.png"))

                # And back: the trick before, the deal's start, the last trick of the deal
                # before it
                await page.locator("#replay-previous-trick").click()
                await at_version(page, fifth.complete[0])
                await page.locator("#replay-previous-trick").click()
                await at_version(page, fifth.start)
                await page.locator("#replay-previous-trick").click()
                await at_version(page, fourth.complete[1])
                await expect(at).to_contain_text(f"Deal 4 of {total} · trick 2 of 2 · ")
                await expect_trick(page, fourth.tricks[1])

                # And the slider's arrow keys step one event at a time, a card played
                # after the trick is taken
                await page.locator("#replay-slider").focus()
                await page.keyboard.press("ArrowRight")
                await at_version(page, fourth.complete[1] + 1)
                await expect(page.locator("#trick .played")).to_have_count(0)

                # And the first deal's start has no trick before it
                await page.select_option("#replay-deal", "0")
                await at_version(page, game.deals[0].start)
                await expect(page.locator("#replay-previous-trick")).to_be_disabled()
                await expect(page.locator("#replay-previous-deal")).to_be_disabled()

                # And every control is a finger's size, the page no wider than the screen
                assert await page.evaluate(SMALL_TARGETS, TARGET) == []
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                await page.context.close()


async def expect_deal_panel(
    page: Page, deal: Deal, trick: int | None, *, scored: bool, players: int = 3
) -> None:
    """The panel beside the cards: each player, their bid, the tricks they took before
    trick ``trick`` (None: all), and the deal's points once it is scored."""
    taken = deal.tricks if trick is None else deal.tricks[: trick - 1]
    for seat in range(players):
        row = page.locator(f"#replay-hand tbody tr[data-seat='{seat}']")
        tricks = sum(1 for one in taken if one["winner"] == seat)
        points = str(deal.scored["points"][seat]) if scored else ""
        await expect(row.locator("th, td")).to_have_text(
            [f"Player {seat + 1}", str(deal.bids[seat]), str(tricks), points]
        )


async def test_a_link_to_a_deal_and_trick_lands_there_with_the_deals_bids_and_tricks() -> None:
    # Given a finished game of three: its eighth deal of six cards
    game = await finished_game()
    eighth = game.deals[7]
    total = len(game.deals)
    assert len(eighth.tricks) == 6
    with live_server() as base:
        async with chromium() as browser:
            for size in (PHONE, DESKTOP):
                # When a link to its third trick is opened
                url = f"{base}/games/{game.code}/?replay&deal=8&trick=3"
                page = await open_page(browser, url, None, size)
                await page.context.grant_permissions(["clipboard-read", "clipboard-write"])

                # Then the third trick lies complete on the table
                await at_version(page, eighth.complete[2])
                await expect(page.locator("#replay-at")).to_contain_text(
                    f"Deal 8 of {total} · trick 3 of 6 · "
                )
                await expect_trick(page, eighth.tricks[2])
                # and beside it, each player's bid and the tricks they took before it
                await expect(page.locator("#replay-hand-title")).to_have_text(f"Deal 8 of {total}")
                await expect_deal_panel(page, eighth, 3, scored=False)
                # and every hand open: six cards each, three played
                await expect(page.locator("#seats .seat-cards .card")).to_have_count(3 * 3)
                assert query(page) == "replay&deal=8&trick=3"
                await page.screenshot(path=screenshot_path(f"replay-link-{size[0]}.png"))

                # When the link to this moment is copied
                await page.locator("#replay-copy").click()

                # Then the clipboard holds it
                await expect(page.locator("#replay-copy")).to_have_text("Copied")
                assert await page.evaluate("navigator.clipboard.readText()") == page.url

                # When the deal is played to its score, from its last trick
                await page.locator("#replay-next-trick").click()
                await page.locator("#replay-next-trick").click()
                await page.locator("#replay-next-trick").click()
                await at_version(page, eighth.complete[5])
                await page.locator("#replay-next").click()
                await page.locator("#replay-next").click()

                # Then the panel adds the deal's points, its bids and tricks as scored
                await at_version(page, eighth.complete[5] + 2)
                await expect(page.locator("#replay-at")).to_contain_text(
                    f"Deal 8 of {total} · scored · "
                )
                await expect_deal_panel(page, eighth, None, scored=True)
                assert [eighth.bids[seat] for seat in range(3)] == eighth.scored["bids"]
                await page.context.close()


@pytest.mark.parametrize(
    ("asked", "landed"),
    [
        # A deal past the last: the last; a trick that is no number: the deal's start.
        ("deal=99&trick=abc", "deal=21"),
        # A deal before the first: the first; a trick past its last: its last.
        ("deal=-3&trick=7", "deal=1&trick=1"),
        # No deal: the end, whatever the trick.
        ("deal=x&trick=2", ""),
    ],
)
async def test_a_link_out_of_range_lands_at_the_nearest_deal_and_trick(
    asked: str, landed: str
) -> None:
    game = await finished_game()
    expected = {
        "deal=21": game.deals[20].start,
        "deal=1&trick=1": game.deals[0].complete[0],
        "": game.version,
    }[landed]
    with live_server() as base:
        async with chromium() as browser:
            page = await open_page(
                browser, f"{base}/games/{game.code}/?replay&{asked}", None, PHONE
            )

            await at_version(page, expected)
            assert query(page) == "&".join(filter(None, ["replay", landed]))
            await expect(page.locator("#notice")).to_have_text("")


@sync_to_async
def duplicate_tables() -> tuple[str, uuid.UUID, list[Any]]:
    """Two tables of one deal set: the first played to its end, the second in play."""
    first_id, first_players = seated_game(3, "romanian-standard", deal_set="set")
    second_id, second_players = seated_game(3, "romanian-standard", deal_set="set")
    play_to_end(first_id, first_players)
    return Game.objects.get(pk=first_id).code, second_id, second_players


async def test_a_duplicate_tables_replay_is_refused_while_its_deal_set_still_plays() -> None:
    # Given a duplicate table finished while the other table of its deal set still plays
    code, second_id, second_players = await duplicate_tables()
    with live_server() as base:
        async with chromium() as browser:
            asked: list[str] = []  # every request the pages made
            for size in (PHONE, DESKTOP):
                # When a visitor opens its replay
                context = await browser.new_context(viewport={"width": size[0], "height": size[1]})
                page = await context.new_page()
                page.on("request", lambda request: asked.append(request.url))
                await page.goto(f"{base}/games/{code}/?replay")
                await expect(page.locator("body")).to_have_attribute("data-status", "finished")

                # Then the page says why, and shows no replay and no card
                await expect(page.locator("#refusal")).to_have_text(
                    "Other tables still play the same deals: this table's record is "
                    "published once they have all finished."
                )
                await expect(page.locator("#replay")).to_be_hidden()
                await expect(page.locator("#replay-hand")).to_be_hidden()
                await expect(page.locator(".card:not(.back)")).to_have_count(0)
                # nor a way to a replay there is not yet
                await expect(page.locator("#game-end")).to_be_visible()
                await expect(page.locator("#end-replay, #replay-link")).to_have_count(0)
                assert not [url for url in asked if "at=" in url]
                assert await page.evaluate("document.documentElement.scrollWidth") <= size[0]
                await page.screenshot(path=screenshot_path(f"replay-refused-{size[0]}.png"))
                await page.context.close()

            # When the other table finishes
            await sync_to_async(play_to_end)(second_id, second_players)

            # Then the replay opens, every hand open
            page = await open_page(browser, f"{base}/games/{code}/?replay&deal=3", None, PHONE)
            await expect(page.locator("#replay")).to_be_visible()
            await expect(page.locator("#refusal")).to_have_count(0)
            await expect(page.locator("#seats .seat-cards .card")).to_have_count(3)
