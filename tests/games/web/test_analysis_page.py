"""The analysis page of a finished game in a real browser on a phone (390 px) and a
desktop (1366 px): each player's summary, each hand's flagged decisions, and a flag's
link opening the replay at its deal and trick."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import expect

from games.models import Game
from games.read.analysis import analyse
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import SHORT_GAME, play_to_end, seated_game
from tests.tournaments.test_deputies_page import WIDTHS, context_of

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def an_analysed_game() -> tuple[str, dict]:
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)
    play_to_end(game_id, users, seed=5)
    return Game.objects.get(pk=game_id).code, analyse(game_id).review


def first_flagged_play(review: dict) -> tuple[int, dict]:
    return next(
        (hand["hand"], play)
        for hand in review["hands"]
        for play in hand["plays"]
        if play["flagged"]
    )


def no_horizontal_scroll() -> str:
    return "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_finished_games_analysis_leads_to_the_replay_at_a_flagged_card(
    width: int,
) -> None:
    code, review = await an_analysed_game()
    hand, play = first_flagged_play(review)

    with live_server() as base:
        async with chromium() as browser:
            page = await (await context_of(browser, base, width)).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            # Given the analysis page
            await page.goto(f"{base}/games/{code}/analysis/")

            # Then each player has their line, and the hands their flags
            await expect(page.locator("#analysis-summary tbody tr")).to_have_count(3)
            first = review["summary"][0]
            await expect(
                page.locator('#analysis-summary tr[data-seat="0"] td').nth(3)
            ).to_have_text(f"{first['exact_bids']} / {first['hands']}")
            flags = page.locator(f"#hand-{hand + 1} li[data-kind=play]")
            await expect(flags.first).to_contain_text(f"Trick {play['trick'] + 1}:")
            assert await page.evaluate(no_horizontal_scroll())
            await page.screenshot(path=screenshot_path(f"analysis-{width}.png"), full_page=True)

            # When a flagged card's link is followed
            await flags.first.get_by_role("link").click()

            # Then the replay opens at that hand
            await expect(page.locator("#replay-at")).to_contain_text(f"Deal {hand + 1} of 9")
            assert errors == []
