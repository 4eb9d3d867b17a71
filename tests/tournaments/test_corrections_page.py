"""Corrections and the protest window in a real browser, on a phone and a desktop: a
correction made with its reason shows on the manage page's audit trail and on the
results page; published results are provisional for their window, then final."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import override_settings
from playwright.async_api import expect

from tests.browser import ARTIFACTS, chromium, live_server
from tests.games.web.test_table_layout import session_of
from tests.tournaments.drivers import played_event
from tournaments.models import Entry, Event, Standing
from tournaments.projections.rebuild import rebuild_standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]

# A protest window's minute lasts this many seconds here: long enough to see the
# results provisional, short enough to see them become final.
MINUTE_SECONDS = 4


def read_models(event: Event) -> tuple[object, ...]:
    row = Event.objects.get(pk=event.id)
    lines = Standing.objects.filter(event_id=event.id).values_list("player_id", "rank", "points")
    return row.status, row.results_final_at, sorted(lines)


@pytest.mark.parametrize("width", [390, 1366])
@override_settings(ATU_PROTEST_MINUTE_SECONDS=MINUTE_SECONDS)
async def test_a_correction_shows_with_its_reason_and_results_are_provisional_then_final(
    width: int,
) -> None:
    # Given the director of a played event, on its manage page
    event, creator, entrants = await sync_to_async(played_event)()
    session = await sync_to_async(session_of)(creator)
    name = await sync_to_async(
        lambda: Entry.objects.get(event_id=event.id, player_id=entrants[0].pk).name
    )()
    errors: list[str] = []
    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": width, "height": 900})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.goto(f"{base}/events/{event.code}/manage/")

            # When the director takes 5 points from a player's round, with the reason
            form = page.locator("#correction form")
            await form.locator("select[name=player]").select_option(str(entrants[0].pk))
            await form.locator("input[name=points]").fill("-5")
            await form.locator("input[name=reason]").fill("revoke in deal 4")
            await form.locator("button[type=submit]").click()
            await expect(page.locator("#messages")).to_have_text("Correction recorded.")

            # Then the audit trail lists it with who made it and why
            row = page.locator("#audit-trail tr[data-kind=ResultCorrected]")
            await expect(row).to_contain_text(f"Corrected {name}'s round 1 by -5 points")
            await expect(row).to_contain_text(creator.display)
            await expect(row.locator("td").nth(3)).to_have_text("revoke in deal 4")

            # When the director publishes the results with a window of one (short) minute
            await page.locator("#publish summary").click()
            await page.locator("#publish input[name=protest_minutes]").fill("1")
            await page.locator("#publish button.confirm-yes").click()
            await expect(page.locator("#messages")).to_have_text("The results are published.")

            # Then the results page lists the correction with its reason, provisional
            results = await context.new_page()
            await results.goto(f"{base}/events/{event.code}/results/")
            await expect(results.locator("#provisional")).to_contain_text("Provisional until")
            correction = results.locator("#corrections tbody tr")
            await expect(correction).to_have_count(1)
            await expect(correction.locator("td").nth(1)).to_have_text(name)
            await expect(correction.locator("td").nth(2)).to_have_text("-5")
            await expect(correction.locator("td").nth(3)).to_have_text("revoke in deal 4")
            assert await results.evaluate("document.documentElement.scrollWidth") == width
            ARTIFACTS.mkdir(exist_ok=True)
            await results.screenshot(
                path=str(ARTIFACTS / f"corrections-results-{width}.png"), full_page=True
            )

            # And the event page says so, and says final by itself once the window ends
            public = await context.new_page()
            await public.goto(f"{base}/events/{event.code}/")
            note = public.locator("#standings-note")
            await expect(note).to_contain_text("Provisional until")
            await expect(note).to_have_text("Final standings.", timeout=3 * MINUTE_SECONDS * 1000)
            await results.reload()
            await expect(results.locator("#provisional")).to_have_count(0)
            await expect(results.locator("#corrections tbody tr")).to_have_count(1)

            # And the manage page offers no more corrections: the results are final
            await page.goto(f"{base}/events/{event.code}/manage/")
            await expect(page.locator("#published")).to_have_text(
                "The results are published and final."
            )
            await expect(page.locator("#correction form")).to_have_count(0)
            await expect(page.locator("#correction-closed")).to_have_text(
                "The results are final: they may no longer be corrected."
            )
            await page.screenshot(
                path=str(ARTIFACTS / f"corrections-manage-{width}.png"), full_page=True
            )

    # And the read models are what a rebuild from the log derives
    before = await sync_to_async(read_models)(event)
    await sync_to_async(rebuild_standings)()
    assert await sync_to_async(read_models)(event) == before
    assert errors == []
