"""The event page in a real browser: a spectator's leaderboard and tables follow the
play by themselves (no reload) as the bots' tables score their hands, and a player
waiting on "my table" is shown their seat the moment the round starts."""

from __future__ import annotations

import re
import subprocess
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client, override_settings
from playwright.async_api import Page, expect

from accounts.models import User
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.tournaments.drivers import bot_event
from tournaments import services
from tournaments.models import Event, Standing, TableResult

pytestmark = pytest.mark.django_db(transaction=True)

# A whole short game of bots, move by move, well within this.
GAME_TIMEOUT_MS = 120_000
LEADERBOARD_ROWS = "#leaderboard tbody tr[data-player]"


async def leaderboard(page: Page) -> list[str]:
    rows: list[str] = await page.locator(LEADERBOARD_ROWS).evaluate_all(
        "rows => rows.map(row => [...row.cells].map(cell => cell.textContent).join('|'))"
    )
    return rows


@sync_to_async
def final_rows(event_id: Any) -> list[str]:
    from tournaments.selectors import points_text

    return [
        f"{row.rank}|{row.name}|{points_text(row.points)}|{row.exact_bids}|{row.games}"
        for row in Standing.objects.filter(event_id=event_id)
    ]


@sync_to_async
def event_status(event_id: Any) -> str:
    return Event.objects.get(pk=event_id).status


@sync_to_async
def table_scores(event_id: Any) -> list[str]:
    game = Game.objects.get(pk=TableResult.objects.get(event_id=event_id).game_id)
    return [str(score) for score in game.scores]


async def watch_the_leaderboard_follow_the_play() -> None:
    # Given a one-round event of four bots, still in registration
    event, creator = await sync_to_async(bot_event)(players=4, rounds=1)

    with live_server() as base:
        async with chromium() as browser:
            # And an anonymous spectator on its page
            context = await browser.new_context(viewport={"width": 1280, "height": 1400})
            page = await context.new_page()
            loads: list[str] = []
            page.on("load", lambda: loads.append(page.url))
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/")
            await expect(page.locator("#leaderboard tbody")).to_have_text(
                "No hand has been scored yet."
            )
            await expect(page.locator("#tables")).to_have_text("No table is playing.")
            # Not wait_for_function: the content security policy refuses its eval.
            await expect(page.locator("body")).to_have_attribute(
                "data-event-version", re.compile(r"^\d+$")
            )
            await page.evaluate("window.__marker = 1")

            # When the organizer starts the round
            await sync_to_async(services.event_start_round)(event_id=event.id, actor=creator)

            # Then the round's table appears, and the leaderboard shows points once a
            # hand is scored, without the page being loaded again
            await expect(page.locator("#tables .table-card")).to_have_count(1)
            await expect(page.locator("#event-status")).to_contain_text("Round 1 of 1")
            await expect(page.locator(LEADERBOARD_ROWS)).to_have_count(4, timeout=GAME_TIMEOUT_MS)
            first = await leaderboard(page)
            assert all(row.split("|")[2] for row in first), first
            await page.screenshot(path=screenshot_path("event-leaderboard.png"), full_page=True)

            # And it follows the game to its end: the final standings and table scores
            await expect(page.locator("body")).to_have_attribute(
                "data-event-status", "finished", timeout=GAME_TIMEOUT_MS
            )
            assert await event_status(event.id) == "finished"
            await expect(page.locator(LEADERBOARD_ROWS)).to_have_count(4)
            assert await leaderboard(page) == await final_rows(event.id)
            await expect(page.locator("#tables .table-card .score")).to_have_text(
                await table_scores(event.id)
            )
            await expect(page.locator("#standings-note")).to_have_text("Final standings.")
            await expect(page.locator("#rounds .links a")).to_have_text(["Replay", "Record (JSON)"])

            # And the page was never reloaded
            assert await page.evaluate("window.__marker") == 1
            assert loads == [f"{base}/events/{event.code}/"]
            assert errors == []


@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded mode (bots on timer threads); production runs it with a worker below",
)
@override_settings(ATU_BOT_DELAY_SECONDS=0.05)
async def test_a_spectators_leaderboard_updates_by_itself_when_a_table_finishes_a_hand() -> None:
    await watch_the_leaderboard_follow_the_play()


@pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER,
    reason="needs Redis as the broker of a separate Celery worker (production mode)",
)
async def test_with_a_celery_worker_a_spectators_leaderboard_updates_by_itself(
    celery_worker: subprocess.Popen[bytes],
) -> None:
    await watch_the_leaderboard_follow_the_play()
    assert celery_worker.poll() is None


@sync_to_async
def player_waiting() -> tuple[Event, User, User, str]:
    """An event of three bots and one person, and that person's session cookie."""
    event, creator = bot_event(players=3, rounds=1)
    player: User = UserFactory.create(display_name="Ana Pop")
    services.event_register(event_id=event.id, actor=player)
    services.event_check_in(event_id=event.id, actor=player)
    client = Client()
    client.force_login(player)
    return event, creator, player, client.cookies[settings.SESSION_COOKIE_NAME].value


@override_settings(ATU_BOT_DELAY_SECONDS=3600)
async def test_a_player_waiting_on_my_table_is_shown_their_seat_when_the_round_starts() -> None:
    # Given a player on their "my table" page before the round (bots wait an hour: the
    # game must not move on while the page is looked at)
    event, creator, player, session = await player_waiting()

    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context()
            await context.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "value": session,
                        "url": base,
                    }
                ]
            )
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/my-table/")
            await expect(page.locator("#my-seat")).to_have_text(
                "You have no seat yet: the page shows it as soon as the round starts."
            )
            # Not wait_for_function: the content security policy refuses its eval.
            await expect(page.locator("body")).to_have_attribute(
                "data-event-version", re.compile(r"^\d+$")
            )
            await page.evaluate("window.__marker = 1")
            await expect(page.locator("#seated-banner")).to_be_hidden()

            # When the round starts
            await sync_to_async(services.event_start_round)(event_id=event.id, actor=creator)

            # Then a banner says where to sit, and the seat panel links the table
            game = await sync_to_async(
                lambda: Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
            )()
            seat = next(s["seat"] for s in game.seats if s["user_id"] == player.pk)
            banner = page.locator("#seated-banner")
            await expect(banner).to_be_visible()
            await expect(banner).to_have_text(
                "Round 1 has started: you sit at table 1. Go to your table"
            )
            await expect(page.locator("#my-seat h2")).to_have_text(
                f"Round 1: table 1, seat {seat + 1}"
            )
            await expect(page.locator("#go-to-table")).to_have_attribute(
                "href", f"/games/{game.code}/"
            )
            assert await page.evaluate("window.__marker") == 1
            assert errors == []

            # And the link leads to the player's table
            await page.click("#go-to-table")
            await expect(page).to_have_url(f"{base}/games/{game.code}/")


@sync_to_async
def organizer_session(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@override_settings(ATU_BOT_DELAY_SECONDS=3600)
async def test_the_organizer_starts_a_round_and_pauses_a_table_from_the_manage_page() -> None:
    # Given an organizer on the manage page of an event of eight bots (who wait an hour)
    event, creator = await sync_to_async(bot_event)(players=8, rounds=2)
    session = await organizer_session(creator)

    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": 1280, "height": 1400})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/manage/")
            await expect(page.locator("#manage-entries tbody tr")).to_have_count(8)

            # When they start round 1
            await page.click("#start-round")

            # Then the two tables show, each with the seat to act and a pause button
            await expect(page.locator("#messages")).to_have_text("Round 1 started.")
            cards = page.locator("#tables .table-card")
            await expect(cards).to_have_count(2)
            await expect(cards.locator(".turn")).to_have_count(2)
            await expect(cards.first.locator(".turn")).to_contain_text(" to act for ")
            await expect(page.locator("#start-round")).to_have_text("Start round 2")

            # And pausing the first table marks it paused, with a button to resume it
            code = await cards.first.get_attribute("data-game")
            await cards.first.locator("button.pause").click()
            await expect(page.locator("#messages")).to_have_text(f"Table {code} paused.")
            paused = page.locator(f"#tables .table-card[data-game='{code}']")
            await expect(paused).to_have_attribute("data-status", "paused")
            await expect(paused.locator(".state")).to_have_text("Paused")
            await paused.locator("button.resume").click()
            await expect(page.locator("#messages")).to_have_text(f"Table {code} resumed.")
            assert await sync_to_async(lambda: Game.objects.get(code=code).paused)() is False
            assert errors == []
