"""Calls to the director and announcements at the tables, in a real browser, on a phone
(390 px) and a desktop (1366 px): a player calls the director from their table with a
reason; the director's manage page sounds and shows the call with its waiting time
counting up; the director opens the table, answers and closes the call with a note,
and the player sees each step at their table; an announcement made from the manage
page reaches the table without a reload."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client
from playwright.async_api import BrowserContext, expect

from accounts.models import User
from tests.browser import chromium, live_server, screenshot_path
from tests.tournaments.drivers import event_round
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@sync_to_async
def a_table_in_play() -> tuple[Event, str, str, str, str]:
    """A public event's table of four people in play: the event, the table's code,
    the name of the player in its seat 1 and their session, and the director's."""
    event, director, _, (game,) = event_round(4, public=True)
    played = services.load_championship(event.id).rounds[0]
    player = User.objects.get(pk=played.tables[0][0])
    return event, game.code, player.display, session_of(player), session_of(director)


async def signed_in(browser_context: BrowserContext, base: str, session: str) -> BrowserContext:
    await browser_context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
    )
    return browser_context


@pytest.mark.parametrize("width", [390, 1366])
async def test_a_player_calls_the_director_who_answers_and_closes_and_announces_to_the_table(
    width: int,
) -> None:
    # Given a table of an event in play, its player in seat 1 and the event's director
    event, code, name, player_session, director_session = await a_table_in_play()
    height = 844 if width == 390 else 900

    with live_server() as base:
        async with chromium() as browser:
            viewport = {"width": width, "height": height}
            player_context = await signed_in(
                await browser.new_context(viewport=viewport), base, player_session
            )
            director_context = await signed_in(
                await browser.new_context(viewport=viewport), base, director_session
            )
            table = await player_context.new_page()
            manage = await director_context.new_page()
            errors: list[str] = []
            for page in (table, manage):
                page.on("pageerror", lambda error: errors.append(str(error)))
            await manage.goto(f"{base}/events/{event.code}/manage/")
            await expect(manage.locator("#calls")).to_have_text("No call is waiting.")
            # The director touched their page: it may sound from now on.
            await manage.locator("#calls-panel h2").click()
            await table.goto(f"{base}/games/{code}/")

            # When the player calls the director, saying why
            await table.locator("#call-director summary").click()
            await table.select_option("#call-reason", "score")
            await table.fill("#call-text", "Deal 3 was scored 12, not 10.")
            await table.locator("#call-send").click()

            # Then their table says the call waits, and the button is gone until it closes
            state = table.locator("#call-state")
            await expect(state).to_have_text(
                re.compile(
                    r"^You called the director \(The score is disputed\): waiting for \d+ s\.$"
                )
            )
            await expect(table.locator("#call-director")).to_be_hidden()

            # And the director's page sounds and shows who waits, where and for how long
            call = manage.locator("#calls li.call")
            await expect(call).to_have_count(1)
            await expect(call.locator("strong")).to_have_text(f"{name}, table 1, seat 1")
            await expect(call.locator(".reason")).to_have_text("The score is disputed")
            await expect(call.locator(".call-text")).to_have_text("Deal 3 was scored 12, not 10.")
            await expect(manage.locator("body")).to_have_attribute("data-calls-sounded", "1")
            waited = call.locator(".waited")
            await expect(waited).to_have_text(re.compile(r"^Waiting 0:0\d$"))
            await expect(waited).to_have_text(re.compile(r"^Waiting 0:0[2-9]$"), timeout=10_000)
            await manage.screenshot(path=screenshot_path(f"calls-manage-{width}.png"))

            # When the director opens the table from the call, as the organizer sees it
            await call.locator("a.open-table").click()
            await expect(manage).to_have_url(f"{base}/games/{code}/")
            await expect(manage.locator("#table")).to_be_visible()
            await manage.go_back()

            # And answers it
            await manage.locator("#calls li.call button.answer-call").click()
            await expect(manage.locator("#messages")).to_have_text(
                "Call answered: the player sees that you are coming."
            )

            # Then the player sees the director coming
            await expect(state).to_have_text("The director is coming to your table.")
            await expect(manage.locator("#calls li.call .waited")).to_have_text(
                re.compile(r"^Answered 0:\d\d ago: on the way$")
            )

            # When the director closes it with a note
            await manage.fill("#calls li.call input[name=note]", "Scored 12: corrected.")
            await manage.locator("#calls li.call button.close-call").click()
            await expect(manage.locator("#messages")).to_have_text("Call closed.")
            await expect(manage.locator("#calls")).to_have_text("No call is waiting.")

            # Then the player sees it closed, with the note, and may call again
            await expect(state).to_have_text("The director closed your call: Scored 12: corrected.")
            await expect(table.locator("#call-director summary")).to_be_visible()

            # When the director announces something from the manage page
            await manage.fill("#announce textarea[name=text]", "Round 2 starts at 15:00.")
            await manage.click("#announce button[type=submit]")
            await expect(manage.locator("#messages")).to_have_text(
                "Announced: the room's screen and the event's page show it."
            )

            # Then the table shows it, without a reload, newest first
            announcements = table.locator("#desk-announcements li")
            await expect(announcements).to_have_text(["Round 2 starts at 15:00."])
            await manage.fill("#announce textarea[name=text]", "Tea in the hall.")
            await manage.click("#announce button[type=submit]")
            await expect(announcements).to_have_text(
                ["Tea in the hall.", "Round 2 starts at 15:00."]
            )
            await table.screenshot(path=screenshot_path(f"calls-table-{width}.png"))
            assert errors == []
