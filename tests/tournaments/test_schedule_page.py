"""A scheduled event in a real browser, on a 390 px phone and a 1366 px screen: an
entrant is told when check-in opens, the page opens it by itself, they check in; at
the start the clock withdraws the no-show and starts round 1 by itself, and the page
seats the entrant, without a click. A rebuild of the read models then agrees."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client, override_settings
from playwright.async_api import expect

from accounts.models import User
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server, screenshot_path
from tests.tournaments.drivers import SHORT_RULES, organizer
from tournaments import services
from tournaments.models import Entry, Event
from tournaments.projections.rebuild import rebuild_standings
from tournaments.tasks import begin_due_events

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_run", "clock_ticks"),
]

# Check-in opens this many seconds after the page is set up, and the event starts
# this many after that: a few seconds each, so nobody waits long.
OPENS_IN = 4
WINDOW = 8


@pytest.fixture
def clock_ticks(settings: Any) -> Iterator[None]:
    """The schedule's clock ticks: embedded, the live server's own; with a broker, this
    thread sends its task every half second, as Celery beat does every 10 s."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(0.5):
            begin_due_events.delay()

    ticking = threading.Thread(target=beat, daemon=True)
    ticking.start()
    try:
        yield
    finally:
        stop.set()
        ticking.join()


@sync_to_async
def scheduled_event() -> tuple[Event, User, str]:
    """An event starting in a few seconds, of three bots and two people who entered:
    the one who will check in (whose session cookie it returns) and the one who will
    not."""
    creator = organizer()
    start = datetime.now(UTC) + timedelta(seconds=OPENS_IN + WINDOW)
    event = services.event_create(
        organizer=creator,
        name="Cupa de seară",
        options=SHORT_RULES,
        rounds=2,
        starts_at=start,
        time_zone="Europe/Bucharest",
        check_in_seconds=WINDOW,
        description="Three rounds, bring a friend.",
    )
    present: User = UserFactory.create(display_name="Ana Pop")
    absent: User = UserFactory.create(display_name="Dan Stan")
    for person in (present, absent):
        services.event_register(event_id=event.id, actor=person)
    services.event_add_bots(event_id=event.id, actor=creator, count=3)
    client = Client()
    client.force_login(present)
    return event, absent, client.cookies[settings.SESSION_COOKIE_NAME].value


def _state(event: Event, absent: User) -> tuple[tuple[str, int, int], bool]:
    """The event's status, rounds started and entries; whether the no-show is withdrawn."""
    row = Event.objects.get(pk=event.id)
    withdrawn = Entry.objects.get(event_id=event.id, player_id=absent.pk).withdrawn
    return (row.status, row.rounds_started, row.entered), withdrawn


after_the_start = sync_to_async(_state)


@sync_to_async
def rebuilt(event: Event, absent: User) -> tuple[tuple[str, int, int], bool]:
    rebuild_standings()
    return _state(event, absent)


@pytest.mark.parametrize("width", [390, 1366])
@override_settings(ATU_CLOCK_SECONDS=0.5, ATU_BOT_DELAY_SECONDS=3600)
async def test_a_scheduled_event_opens_check_in_withdraws_a_no_show_and_starts_by_itself(
    width: int,
) -> None:
    # Given an event whose check-in opens in a few seconds, and an entrant's browser
    event, absent, session = await scheduled_event()
    with live_server() as base:
        async with chromium() as browser:
            context = await browser.new_context(viewport={"width": width, "height": 900})
            await context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))

            # When the entrant opens the event page before check-in opens
            await page.goto(f"{base}/events/{event.code}/")

            # Then it says when check-in opens, counting down, and offers no check-in
            reminder = page.locator("#check-in-reminder")
            await expect(reminder).to_contain_text("Check-in opens at")
            await expect(page.locator("#round-reminder")).to_contain_text("Your round starts in")
            await expect(page.locator("#event-start")).to_contain_text("(Europe/Bucharest)")
            await expect(page.locator("#event-description")).to_have_text(
                "Three rounds, bring a friend."
            )
            await expect(page.locator("#check-in")).to_have_count(0)
            assert await page.evaluate("document.documentElement.scrollWidth") <= width
            await page.screenshot(path=screenshot_path(f"schedule-before-{width}.png"))

            # And once check-in opens, the page says so by itself and offers it
            await expect(reminder).to_contain_text("Check-in is open until", timeout=15_000)
            await page.screenshot(path=screenshot_path(f"schedule-open-{width}.png"))
            await page.click("#check-in")
            await expect(page.locator("#messages")).to_contain_text(
                "You are checked in for the next round."
            )

            # When the start comes, the page says check-in has closed, and once the
            # clock has started round 1 it seats the entrant, without a reload or a click
            await expect(page.locator("#check-in-closed")).to_be_visible(timeout=15_000)
            await expect(reminder).to_be_hidden()
            await expect(page.locator("#round-reminder")).to_be_hidden()
            await expect(page.locator("#seated-banner")).to_contain_text(
                "Round 1 has started: you sit at table 1.", timeout=20_000
            )
            # And the players' list shows the no-show withdrawn, live
            await expect(
                page.locator(f"#entries li[data-player='{absent.pk}'] .hint")
            ).to_have_text("withdrawn")
            await page.screenshot(path=screenshot_path(f"schedule-started-{width}.png"))

            # And the event list shows it in play, its four entered
            await page.goto(f"{base}/events/")
            listed = page.locator(f"#events-running tr[data-code='{event.code}']")
            await expect(listed.locator("td.entered")).to_have_text("4 entered")
            assert await page.evaluate("document.documentElement.scrollWidth") <= width
            await page.screenshot(path=screenshot_path(f"schedule-list-{width}.png"))
            assert errors == []

    # Then the no-show is withdrawn, round 1 is in play with the four present
    assert await after_the_start(event, absent) == (("running", 1, 4), True)
    # And a rebuild of the read models from the log agrees
    assert await rebuilt(event, absent) == (("running", 1, 4), True)
