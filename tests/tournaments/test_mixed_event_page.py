"""A championship played both ways, in real browsers: two tables online (bots) and one
in the room, whose scorer writes every deal down on a 360 px phone while a second phone
confirms them and a deal is corrected; the room's screen, on a 1920x1080 projector,
shows the leaderboard and the round's clock as it goes."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings
from playwright.async_api import Browser, Page, expect

from accounts.models import User
from games.models import Game
from games.read.pins import table_pin
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_bots_to_end
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games, wait_until
from tournaments import services
from tournaments.models import Event, Standing

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]

PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}
PEOPLE = ("Ana Pop", "Bogdan Ionescu", "Carmen Dumitru", "Dan Stan")


@sync_to_async
def mixed_round() -> tuple[Event, Game, list[Game]]:
    """An event played both ways, its round started: eight bots online, four people in
    the room; the event, its table in the room, and its tables online."""
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Etapa a X-a", rounds=1, options=SHORT_RULES, place="both"
    )
    services.event_add_bots(event_id=event.id, actor=creator, count=8)
    people: list[User] = [UserFactory.create(display_name=name) for name in PEOPLE]
    for person in people:
        services.event_register(event_id=event.id, actor=person)
        services.event_check_in(event_id=event.id, actor=person, in_room=True)
    services.event_start_round(event_id=event.id, actor=creator)
    games = round_games(event.id, 1)
    room = next(game for game in games if game.place == "room")
    return Event.objects.get(pk=event.id), room, [game for game in games if game != room]


async def phone(browser: Browser, url: str, seat: int) -> Page:
    """A phone signed in to no account that came by the table card's QR code and says
    which seat it sits in."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    await page.goto(url)
    await page.check(f"#pin-form input[name=seat][value='{seat}']")
    await page.click("#pin-send")
    await expect(page.locator("#who")).to_contain_text(f"(seat {seat + 1})")
    return page


def deal(hand: int) -> str:
    return f"#sheet tbody[data-hand='{hand}']"


async def expect_state(page: Page, hand: int, state: str) -> None:
    await expect(page.locator(f"{deal(hand)} .state")).to_have_text([state])


async def correct_the_first_deal(scorer: Page, dealer: int) -> None:
    left = [(dealer + turn) % 4 for turn in (1, 2)]
    await scorer.click(f"{deal(0)} button.correct")
    await expect(scorer.locator("#entry-title")).to_have_text("Correcting deal 1")
    await scorer.click(f"#entry .chips.tricks button[data-key='tricks-{left[1]}']")
    await scorer.click("#entry .pad button[data-value='1']")
    await scorer.click(f"#entry .chips.tricks button[data-key='tricks-{left[0]}']")
    await scorer.click("#entry .pad button[data-value='0']")
    await scorer.fill("#reason", "the first trick was the next seat's")
    await scorer.press("#reason", "Enter")


@sync_to_async
def schedule_and_dealer(game: Game) -> tuple[list[int], int]:
    state = load_table(game.id).romanian_game
    return [spec.cards for spec in state.schedule], state.first_dealer


@sync_to_async
def finish_online(games: list[Game], event: Event) -> list[str]:
    """The bots' tables played to their end; the standings' names, best first."""
    for game in games:
        play_bots_to_end(game.id)
    wait_until(
        lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED,
        what="the event's end",
    )
    return list(
        Standing.objects.filter(event_id=event.id)
        .order_by("rank", "player_id")
        .values_list("name", flat=True)
    )


@override_settings(ATU_SCREEN_SEATING_SECONDS=0, ATU_SCREEN_PAGE_SECONDS=60)
async def test_a_mixed_event_is_scored_from_the_room_and_shown_on_the_screen() -> None:
    event, room, online = await mixed_round()
    cards, dealer = await schedule_and_dealer(room)
    with live_server() as base:
        async with chromium() as browser:
            # Given the room's screen on the projector
            projector = await browser.new_context(viewport=PROJECTOR)
            screen = await projector.new_page()
            errors: list[str] = []
            screen.on("pageerror", lambda error: errors.append(str(error)))
            await screen.goto(f"{base}/events/{event.code}/screen/")
            await expect(screen.locator("body")).to_have_attribute("data-connection", "live")
            await expect(screen.locator("#screen-tables li .place")).to_have_text(
                ["In the room", "Online", "Online"]
            )

            # And two phones at the table in the room: the scorer's, and a neighbour's
            url = f"{base}/games/{room.code}/score/?pin={table_pin(room.id)}"
            scorer = await phone(browser, url, 0)
            neighbour = await phone(browser, url, 1)

            # When the scorer writes every deal down on the pad (all bid 0, the dealer's
            # left takes every trick), and the neighbour confirms each as it lands
            for hand, dealt in enumerate(cards):
                await expect(scorer.locator("#entry-title")).to_have_text(
                    f"Deal {hand + 1} of {len(cards)}"
                )
                for value in (0, 0, 0, 0, dealt, 0, 0, 0):
                    await scorer.click(f"#entry .pad button[data-value='{value}']")
                await scorer.click("#send")
                await neighbour.click(f"{deal(hand)} button.confirm")
                await expect_state(scorer, hand, "confirmed")
                if hand == 0:
                    # the screen moves with the room's first deal, the round's clock running
                    await expect(screen.locator("#screen-tables li .state").first).to_have_text(
                        "Deal 2 of 9"
                    )
                    await expect(screen.locator("#clock-label")).to_have_text(
                        "Round 1: time played"
                    )
                    await screen.screenshot(path=screenshot_path("mixed-event-screen.png"))
                if hand == 2:
                    # And corrects the first deal: its trick went to the next seat, which
                    # the neighbour confirms again
                    await correct_the_first_deal(scorer, dealer)
                    await expect_state(neighbour, 0, "awaiting confirmation")
                    await neighbour.click(f"{deal(0)} button.confirm")
                    await expect_state(scorer, 0, "confirmed")
            await scorer.screenshot(path=screenshot_path("mixed-event-scorer.png"), full_page=True)

            # And the bots' tables end
            ranked = await finish_online(online, event)

            # Then the screen shows the final leaderboard of the twelve, the round over
            await expect(screen.locator("#screen-leaderboard tbody td.name")).to_have_text(ranked)
            await expect(screen.locator("#clock-label")).to_have_text("Round 1 is over.")
            assert errors == []
