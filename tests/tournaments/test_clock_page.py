"""The round clock in a real browser, on a phone and on a desktop: a table counts
down, warns at 10 and 5 minutes left, says "time" when the limit comes mid-deal; the
deal in progress is finished, the game ends with fewer deals, and the standings and
their rebuild agree. A minute lasts a second here (ATU_ROUND_MINUTE_SECONDS)."""

from __future__ import annotations

import random
import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client, override_settings
from playwright.async_api import expect

from accounts.models import User
from eventlog import store
from games.rules import Phase
from games.table import stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import next_move, play_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games, wait_until
from tournaments import services
from tournaments.models import Event, Standing
from tournaments.projections.rebuild import rebuild_standings
from tournaments.tasks import update_standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


@sync_to_async
def a_round_of_twenty_minutes_in_its_second_deal() -> tuple[Event, uuid.UUID, list[User], str]:
    """A one-round event of four people, 20 minutes a round, finishing the deal at
    time; its table in its second deal's play; the session of the player in seat 0."""
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa cu ceas",
        rounds=1,
        options=SHORT_RULES,
        round_minutes=20,
        at_time="finish-deal",
    )
    people: list[User] = UserFactory.create_batch(4)
    for person in people:
        services.event_register(event_id=event.id, actor=person)
        services.event_check_in(event_id=event.id, actor=person)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    rng = random.Random(1)
    while not (
        (state := load_table(game.id).romanian_game).hand == 1 and state.phase is Phase.PLAYING
    ):
        next_move(game.id, people, rng)
    seat0 = next(p for p in people if p.pk == game.seats[0]["user_id"])
    client = Client()
    client.force_login(seat0)
    return event, game.id, people, client.cookies[settings.SESSION_COOKIE_NAME].value


@sync_to_async
def time_called(game_id: uuid.UUID) -> list[dict[str, object]]:
    return [r.payload for r in store.read(stream_of(game_id)) if r.type == "TimeCalled"]


@sync_to_async
def finish_and_compare(event: Event, game_id: uuid.UUID, people: list[User]) -> tuple[int, str]:
    """The deal in progress played out; the deals the game had, and the event's status,
    once the standings and their rebuild were found to agree."""
    play_to_end(game_id, people)
    update_standings(str(event.id))
    wait_until(lambda: Event.objects.get(pk=event.id).status == "finished", 30, "the event's end")
    rows = list(
        Standing.objects.filter(event_id=event.id)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points")
    )
    rebuild_standings()
    rebuilt = list(
        Standing.objects.filter(event_id=event.id)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points")
    )
    assert rebuilt == rows and len(rows) == 4
    return len(load_table(game_id).romanian_game.results), Event.objects.get(pk=event.id).status


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 900)])
@override_settings(ATU_ROUND_MINUTE_SECONDS=1)
async def test_a_table_warns_then_says_time_and_finishes_its_deal_with_fewer_deals(
    width: int, height: int
) -> None:
    # Given a round of 20 (one-second) minutes whose table plays its second deal
    event, game_id, people, session = await a_round_of_twenty_minutes_in_its_second_deal()

    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": width, "height": height})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            table = await context.new_page()
            errors: list[str] = []
            table.on("pageerror", lambda error: errors.append(str(error)))
            await table.goto(f"{base}/games/{(await sync_to_async(load_table)(game_id)).code}/")
            clock = table.locator("#round-clock")

            # Then the table counts down, warns at 10 and at 5 minutes left, then says time
            await expect(clock).to_have_text(re.compile(r"^Round ends in 0:\d\d$"))
            await expect(clock).to_have_attribute("data-state", "warning", timeout=20_000)
            await expect(clock).to_have_text(re.compile(r"^10 minutes left in the round: 0:\d\d$"))
            await table.screenshot(path=screenshot_path(f"round-clock-warning-{width}.png"))
            await expect(clock).to_have_attribute("data-state", "last-warning", timeout=10_000)
            await expect(clock).to_have_text(re.compile(r"^5 minutes left in the round: 0:0\d$"))
            await expect(clock).to_have_attribute("data-state", "time", timeout=10_000)
            await expect(clock).to_have_text(
                "Time! Finish the deal in progress; no new deal starts."
            )

            # And the clock's task has told the table: the deal in progress is its last
            await sync_to_async(wait_until)(
                lambda: load_table(game_id).romanian_game.time_called is not None, 20, "time"
            )
            assert await time_called(game_id) == [{"deals": 2}]
            await expect(table.locator("#status")).to_contain_text("Deal 2 of 2")
            await expect(table.locator("#score-table tbody tr")).to_have_count(2)

            # And the event's page shows the time too
            page = await context.new_page()
            await page.goto(f"{base}/events/{event.code}/")
            await expect(page.locator("#round-clock")).to_have_attribute("data-state", "time")

            # And the room's screen counts down in place of the time played
            screen = await context.new_page()
            await screen.goto(f"{base}/events/{event.code}/screen/")
            await expect(screen.locator("#round-clock")).to_have_attribute("data-state", "time")
            await expect(screen.locator("#clock-box")).to_be_hidden()
            await table.screenshot(path=screenshot_path(f"round-clock-time-{width}.png"))

            # When the deal is played out, then the game ends after two deals of nine,
            # and the standings and their rebuild agree
            assert await finish_and_compare(event, game_id, people) == (2, "finished")
            assert errors == []
