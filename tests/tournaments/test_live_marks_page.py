"""What the live pages follow without a reload, in a real browser on a phone (390 px)
and a desktop (1366 px): a disqualification marks the player's line of the event page's
and the room screen's leaderboard, as the results page does; a deputy named while their
event page is open is offered the manage page, and one removed while on it is told they
no longer direct the event (decision 3407)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from playwright.async_api import WebSocketRoute, expect

from accounts.models import User
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import SHORT_RULES, event_round, organizer
from tests.tournaments.test_deputies_page import WIDTHS, context_of, session_of
from tournaments import services
from tournaments.models import Event
from tournaments.tasks import update_standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


@sync_to_async
def a_played_round() -> tuple[Event, User, User]:
    """A public one-round event of four people played to the end, its standings up to
    date: the event, its organizer and the entrant to disqualify."""
    event, creator, entrants, (game,) = event_round(4, public=True)
    play_to_end(game.id, entrants)
    update_standings(str(event.id))
    return Event.objects.get(pk=event.id), creator, entrants[2]


@sync_to_async
def disqualify(event: Event, director: User, player: User) -> None:
    services.event_disqualify(
        event_id=event.id, actor=director, player_id=player.pk, reason="Collusion"
    )


@sync_to_async
def an_event_and_an_account(*, public: bool = True) -> tuple[Event, User, User]:
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa Clujului", options=SHORT_RULES, public=public
    )
    account = UserFactory.create(username="dana", display_name="Dana")
    return event, creator, account


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_disqualification_marks_the_live_leaderboard_and_the_screen(width: int) -> None:
    event, director, player = await a_played_round()

    with live_server() as base:
        async with chromium() as browser:
            errors: list[str] = []
            # Given the event page and the room's screen, their leaderboards drawn
            public = await (await context_of(browser, base, width)).new_page()
            public.on("pageerror", lambda error: errors.append(str(error)))
            await public.goto(f"{base}/events/{event.code}/")
            screen = await (await context_of(browser, base, width)).new_page()
            screen.on("pageerror", lambda error: errors.append(str(error)))
            await screen.goto(f"{base}/events/{event.code}/screen/")
            line = f'tr[data-player="{player.pk}"]'
            await expect(public.locator(f"#leaderboard {line}")).to_have_count(1)
            await expect(screen.locator(f"#screen-leaderboard {line}")).to_have_count(1)
            await expect(public.locator(".tag.disqualified")).to_have_count(0)
            # and a person's name leads to their page
            await expect(public.locator(f"#leaderboard {line} a")).to_have_attribute(
                "href", f"/players/{player.pk}/"
            )

            # When the director disqualifies a player
            await disqualify(event, director, player)

            # Then both mark their line with the reason, and no one else's
            mark = "disqualified: Collusion"
            await expect(public.locator(f"#leaderboard {line} .tag.disqualified")).to_have_text(
                mark
            )
            await expect(public.locator("#leaderboard .tag.disqualified")).to_have_count(1)
            await expect(public.locator(f"#leaderboard {line} a")).to_have_attribute(
                "href", f"/players/{player.pk}/"
            )
            await expect(
                screen.locator(f"#screen-leaderboard {line} .tag.disqualified")
            ).to_have_text(mark)
            await public.screenshot(
                path=screenshot_path(f"leaderboard-disqualified-{width}.png"), full_page=True
            )
            await screen.screenshot(path=screenshot_path(f"screen-disqualified-{width}.png"))
            assert errors == []


@pytest.mark.parametrize("width", WIDTHS)
async def test_a_deputy_named_and_removed_while_their_pages_are_open_sees_the_change(
    width: int,
) -> None:
    event, creator, account = await an_event_and_an_account()

    with live_server() as base:
        async with chromium() as browser:
            context = await context_of(
                browser, base, width, await sync_to_async(session_of)(account)
            )
            public = await context.new_page()
            errors: list[str] = []
            public.on("pageerror", lambda error: errors.append(str(error)))
            await public.goto(f"{base}/events/{event.code}/")
            await expect(public.locator("#manage-link")).to_be_hidden()

            # When the organizer names them a deputy, then their event page offers the
            # manage page, without a reload
            await sync_to_async(services.event_name_deputy)(
                event_id=event.id, actor=creator, who="dana"
            )
            await expect(public.locator("#manage-link")).to_be_visible()
            await public.click("#manage-link")
            await expect(public.locator("#rounds-control")).to_be_visible()

            # When the organizer removes them while they are on it, then the page says
            # they no longer direct the event
            await sync_to_async(services.event_remove_deputy)(
                event_id=event.id, actor=creator, user_id=account.pk
            )
            await expect(public.locator("#refusal")).to_have_text(
                "Only the event's organizer or their deputies may do that."
            )
            await public.screenshot(path=screenshot_path(f"deputy-removed-{width}.png"))
            assert errors == []


# A deputy of a private event they did not enter may no longer even see it.
@pytest.mark.parametrize(
    ("public", "told"),
    [
        (True, "Only the event's organizer or their deputies may do that."),
        (False, "There is no page at this address."),
    ],
)
@pytest.mark.parametrize("width", WIDTHS)
async def test_a_deputy_removed_before_the_manage_pages_socket_spoke_is_told_so(
    width: int, public: bool, told: str
) -> None:
    event, creator, account = await an_event_and_an_account(public=public)
    await sync_to_async(services.event_name_deputy)(event_id=event.id, actor=creator, who="dana")
    removed = asyncio.Event()

    async def after_the_removal(page_side: WebSocketRoute) -> None:
        # The socket reaches the server only once the deputy is removed: its first
        # picture already says they do not direct the event.
        await removed.wait()
        page_side.connect_to_server()

    with live_server() as base:
        async with chromium() as browser:
            context = await context_of(
                browser, base, width, await sync_to_async(session_of)(account)
            )
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.route_web_socket("**/ws/events/**", after_the_removal)
            # Given a deputy's manage page, drawn while they direct the event
            await page.goto(f"{base}/events/{event.code}/manage/")
            await expect(page.locator("#rounds-control")).to_be_visible()

            # When the organizer removes them before the page's socket has said a word
            await sync_to_async(services.event_remove_deputy)(
                event_id=event.id, actor=creator, user_id=account.pk
            )
            removed.set()

            # Then the page, asked again, says they no longer direct the event
            await expect(page.locator("main")).to_contain_text(told)
            assert errors == []
