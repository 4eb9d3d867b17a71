"""The organizer's actions that are hard to undo, in a real browser: Withdraw and
Publish ask before they act, and Publish waits while a table plays."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import expect

from tests.browser import chromium, live_server
from tests.games.drivers import play_to_end
from tests.games.web.test_table_layout import session_of
from tests.tournaments.drivers import private_event_round
from tournaments.models import Entry, Event
from tournaments.services import event_announce, event_withdraw

pytestmark = pytest.mark.django_db(transaction=True)


async def test_withdraw_and_publish_ask_first_and_publish_waits_for_the_tables() -> None:
    # Given the organizer of an event whose only round is in play, on the manage page
    event, creator, entrants, (game,) = await sync_to_async(private_event_round)(4)
    session = await sync_to_async(session_of)(creator)
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/manage/")

            # Then Publish cannot be pressed while the table plays
            await expect(page.locator("#publish-wait button")).to_be_disabled()
            await expect(page.locator("#publish-ready")).to_be_hidden()

            # When the organizer presses Withdraw for a player, it asks before acting
            row = page.locator(f"#manage-entries tr[data-player='{entrants[0].pk}']")
            await row.locator("summary.withdraw").click()
            await expect(row.locator(".question")).to_contain_text("from the rounds to come?")
            withdrawn = await sync_to_async(
                lambda: Entry.objects.get(event_id=event.id, player_id=entrants[0].pk).withdrawn
            )()
            assert withdrawn is False

            # And the question stays open while new pictures of the event arrive: one
            # that leaves the entries as they were, one that changes another entry
            await sync_to_async(event_announce)(
                event_id=event.id, actor=creator, text="Round 2 starts at 15:00."
            )
            await expect(page.locator("#announcements")).to_contain_text("Round 2 starts at 15:00.")
            await expect(row.locator("button.confirm-yes")).to_be_visible()
            await sync_to_async(event_withdraw)(
                event_id=event.id, actor=creator, player_id=entrants[1].pk
            )
            other = page.locator(f"#manage-entries tr[data-player='{entrants[1].pk}']")
            await expect(other.locator("summary.withdraw")).to_have_count(0)
            await expect(row.locator("button.confirm-yes")).to_be_visible()
            await row.locator("button.confirm-yes").click()
            await expect(page.locator("#messages")).to_have_text(
                "Player withdrawn from the rounds to come."
            )

            # And once the table has finished, Publish opens its question, then publishes
            await sync_to_async(play_to_end)(game.id, entrants)
            await expect(page.locator("#publish-ready")).to_be_visible(timeout=15000)
            await expect(page.locator("#publish-wait")).to_be_hidden()
            await page.locator("#publish summary").click()
            await expect(page.locator("#publish .question")).to_have_text(
                "Publish the results? After the protest window they are final."
            )
            await page.locator("#publish button.confirm-yes").click()
            await expect(page.locator("#messages")).to_have_text("The results are published.")
            status = await sync_to_async(lambda: Event.objects.get(pk=event.id).status)()
            assert status == "published"
    assert errors == []
