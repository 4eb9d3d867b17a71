"""Every page a player or an organizer uses, checked by axe-core in a real browser at a
phone's size and a laptop's: no violation axe rates serious or critical.

axe-core is vendored under tests/vendor/axe-core (see its README for the version), so
the test needs no network.
"""

from __future__ import annotations

import random
import re
import uuid
from typing import Any
from urllib.parse import urljoin

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from playwright.async_api import Browser, expect

from accounts.models import User
from games.commands import actions as games
from games.commands.chat import game_say
from games.models import Game
from games.rules import Phase
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.browser import chromium, live_server
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.games.web.test_table_layout import session_of
from tests.tournaments.drivers import SHORT_RULES, organizer, round_games
from tournaments import services
from tournaments.models import Event
from tournaments.projections.standings import update_event_standings

pytestmark = pytest.mark.django_db(transaction=True)

AXE = settings.BASE_DIR / "tests" / "vendor" / "axe-core" / "axe.min.js"
VIEWPORTS = [(360, 740), (1366, 768)]
BLOCKING = {"serious", "critical"}
# The violations as (rule, impact, help, the first nodes' selectors and what is wrong).
AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(" "), why: n.failureSummary})),
  }));
}"""


@sync_to_async
def every_page() -> list[tuple[str, str, str | None]]:
    """The pages to check: a name, a path, the session to see it with (None: anonymous)."""
    # A table waiting for players; tables in play at seat 0's bid and card; a finished
    # one; a finished event with its results.
    opener: User = UserFactory.create()
    waiting = games.game_create(creator=opener, player_count=4, preset="romanian-standard").code
    bidding_id, players = seated_game(3, preset="romanian-standard")
    until_seat_0(bidding_id, players, Phase.BIDDING)
    playing_id, cardholders = seated_game(3, preset="romanian-standard")
    until_seat_0(playing_id, cardholders, Phase.PLAYING)
    bidding, playing = (Game.objects.get(pk=pk).code for pk in (bidding_id, playing_id))
    # Words at the table: the viewer at seat 0 has another's to mute and report.
    game_say(game_id=bidding_id, actor=players[1], phrase="good_luck")
    game_say(game_id=bidding_id, actor=players[2], text="Noroc la toți!")
    finished_id, finishers = seated_game(3, preset="romanian-standard", options=SHORT_RULES)
    play_to_end(finished_id, finishers)
    finished = Game.objects.get(pk=finished_id).code
    event, creator, entrants = finished_event()
    # Its table with an announcement and a player's call to the director, in the queue
    # of the manage page too.
    (event_table,) = round_games(event.id, 1)
    services.event_announce(event_id=event.id, actor=creator, text="Results at 18:00.")
    services.event_call_director(
        event_id=event.id, actor=entrants[0], game_id=event_table.id, reason="score"
    )
    watcher: User = UserFactory.create()
    player, host, onlooker = session_of(players[0]), session_of(creator), session_of(watcher)
    return [
        ("lobby", "/", onlooker),
        ("lobby, anonymous", "/", None),
        ("table waiting", f"/games/{waiting}/", session_of(opener)),
        # The share link, for a visitor without an account: the guest seat.
        ("table waiting, anonymous", f"/games/{waiting}/", None),
        ("table, your bid", f"/games/{bidding}/", player),
        ("table, your card", f"/games/{playing}/", session_of(cardholders[0])),
        ("table spectated", f"/games/{playing}/", onlooker),
        ("table finished", f"/games/{finished}/", session_of(finishers[0])),
        ("replay", f"/games/{finished}/?replay", None),
        ("my games", "/me/games/", session_of(finishers[0])),
        ("my games, a finished event", "/me/games/", session_of(entrants[0])),
        ("event", f"/events/{event.code}/", session_of(entrants[0])),
        ("manage", f"/events/{event.code}/manage/", host),
        ("event table, a call waiting", f"/games/{event_table.code}/", session_of(entrants[0])),
        ("event table, the call offered", f"/games/{event_table.code}/", session_of(entrants[1])),
        ("results", f"/events/{event.code}/results/", None),
        ("player", f"/players/{entrants[0].pk}/", None),
        ("room screen", f"/events/{event.code}/screen/", None),
        ("account", "/accounts/account/", onlooker),
        ("account deletion", "/accounts/account/delete/", onlooker),
        ("password change", "/accounts/password/change/", onlooker),
        ("forgotten password", "/accounts/password/reset/", None),
        ("reset link that does not work", "/accounts/password/reset/MQ/not-a-token/", None),
        ("offline page", "/offline/", None),
    ]


def until_seat_0(game_id: uuid.UUID, users: list[User], phase: Phase) -> None:
    """Random moves until seat 0 is to act in ``phase``."""
    rng = random.Random(0)
    while not ((game := load_table(game_id).game).phase is phase and game.turn == 0):
        next_move(game_id, users, rng)


def finished_event(season: str | None = None) -> tuple[Event, User, list[User]]:
    """A one-round event of four people, played to the end, its standings written (in
    a new season of its organizer's named ``season``, if given)."""
    creator = organizer()
    season_id = None
    if season is not None:
        season_id = services.season_create(organizer=creator, name=season).id
    event = services.event_create(
        organizer=creator, name="Cupa Atu", rounds=1, options=SHORT_RULES, season_id=season_id
    )
    entrants: list[User] = UserFactory.create_batch(4)
    for entrant in entrants:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_start_round(event_id=event.id, actor=creator)
    for game in round_games(event.id, 1):
        play_to_end(game.id, entrants)
    update_event_standings(event.id)
    return Event.objects.get(pk=event.id), creator, entrants


async def violations(browser: Browser, url: str, session: str | None, size: tuple[int, int]) -> Any:
    width, height = size
    # The site's content security policy refuses the injected script; the browser
    # is told to let it be.
    context = await browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=True
    )
    if session is not None:
        await context.add_cookies(
            # At the site's root, as the browser that signed in holds it: the page's own
            # requests (its socket, its poll) carry it too.
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": urljoin(url, "/")}]
        )
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_load_state("networkidle")
    # A table's page is drawn by its script once the state arrives.
    if re.search(r"/games/\w+/", url):
        await expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"^\d+$"))
    await page.add_script_tag(path=AXE)
    found: list[dict[str, Any]] = await page.evaluate(AXE_RUN)
    await context.close()
    return [violation for violation in found if violation["impact"] in BLOCKING]


async def test_no_page_has_a_serious_or_critical_accessibility_violation() -> None:
    # Given every page of a player's and an organizer's, with something on each
    pages = await every_page()
    with live_server() as base:
        async with chromium() as browser:
            # When axe checks each at a phone's size and a laptop's
            report = {}
            for name, path, session in pages:
                for size in VIEWPORTS:
                    found = await violations(browser, base + path, session, size)
                    if found:
                        report[f"{name} at {size[0]}x{size[1]}"] = found
    # Then none has a serious or critical violation
    assert report == {}, "\n".join(
        f"{where}: {violation['id']} ({violation['impact']}) {violation['help']}: "
        f"{violation['nodes']}"
        for where, found in report.items()
        for violation in found
    )
