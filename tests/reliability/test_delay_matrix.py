"""How far behind the play each role sees a delayed event's table: every URL of the
site and every socket message that shows a table's progress (or its event's), asked
by every role, answered as this table says; every other one listed, with why it
shows no progress. A route or message added without its row fails here.

The scene: a public event in a season, its spectators held 600 s behind the play,
whose one round of two tables its bots have just played to the end. Table A's log
is at its last version and finished; the delay has released only the setting up
of its table (who sits where, the start), so whoever is held back sees it just
started, in play, nothing scored. Its tables allow the quick phrases, and table A's
first player says one as it ends: whoever is held back has not read it. The roles:

- ``anonymous``: not signed in;
- ``spectator``: signed in, entered nowhere;
- ``elsewhere``: a player of the event at its other table;
- ``player``: a player at table A;
- ``organizer``: the event's organizer (who directs it; issue 34's deputies too).

A cell is ``held`` (the table as the delay has released it: its exact version,
in play, its finish and its record not yet out, the event running and nothing in
the standings), ``live`` (as its log and the read models have it now), or ``-``
(the route shows this role nothing of the table: refused or sent elsewhere).

A player sees their own table live at the table; the event's pages show the event
as one picture, held back as a whole for everyone but who directs it (a player's
own table included: the standings cannot be half live, and a player's own table
is theirs to see at the table).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

from accounts.models import User
from config.asgi import application
from config.routing import websocket_urlpatterns
from eventlog import store
from games.commands.chat import game_say
from games.live import consumer
from games.models import Game
from games.read.analysis import analyse
from games.read.selectors import CHAT_PHRASES
from games.table import stream_of
from games.visibility import released
from tests.accounts.factories import UserFactory
from tests.reliability.test_authorization_matrix import ORIGIN, TIMEOUT, _routes
from tests.tournaments.drivers import bot_event, play_round, round_games, wait_until
from tournaments.models import Event
from tournaments.projections import seasons
from tournaments.services import season_create

ROLES = ("anonymous", "spectator", "elsewhere", "player", "organizer")
DELAY = 600
HELD, LIVE, NONE = "held", "live", "-"
PHRASE = "well_played"
# At the table: its players and who directs its event see it live.
TABLE = (HELD, HELD, HELD, LIVE, LIVE)
# The event's picture: held back for all but who directs the event.
EVENT = (HELD, HELD, HELD, HELD, LIVE)


@dataclass
class Scene:
    event: Event
    season_id: uuid.UUID
    game: Game
    users: dict[str, User | None]
    # Table A's version as the delay has released it now, and its log's.
    held_version: int
    live_version: int
    clients: dict[str, Client]

    def client(self, role: str) -> Client:
        client = self.clients.get(role)
        if client is None:
            client = self.clients[role] = Client()
            user = self.users[role]
            if user is not None:
                client.force_login(user)
        return client

    def url(self, route: str) -> str:
        return "/" + (
            route.replace("<str:ref>", self.game.code)
            .replace("<str:code>", self.event.code)
            .replace("<uuid:season_id>", str(self.season_id))
        )

    def version(self, version: int) -> str:
        """A version shown, as a cell."""
        if version == self.held_version:
            return HELD
        return LIVE if version == self.live_version else f"version {version}"


def make_scene() -> Scene:
    organizer: User = UserFactory.create(can_organize=True)
    season = season_create(organizer=organizer, name="Sezonul întârziat")
    event, _ = bot_event(
        players=8,
        rounds=1,
        creator=organizer,
        spectator_delay=DELAY,
        season_id=season.id,
        table_chat=CHAT_PHRASES,
    )
    play_round(event.id, organizer)
    wait_until(lambda: Event.objects.get(pk=event.id).status == Event.Status.FINISHED)
    # What the season's task writes once the event finished (here in either mode).
    seasons.update_season(season.id)
    game, other = round_games(event.id, 1)
    # What the analysts write once a table finished (here in either mode).
    analyse(game.id)
    # Table A's first player says a word as it ends: the delay holds it back too.
    game_say(game_id=game.id, actor=User.objects.get(pk=game.seats[0]["user_id"]), phrase=PHRASE)
    records = store.read(stream_of(game.id))
    shown, _ = released(records, DELAY, timezone.now())
    users: dict[str, User | None] = {
        "anonymous": None,
        "spectator": UserFactory.create(),
        "elsewhere": User.objects.get(pk=other.seats[0]["user_id"]),
        "player": User.objects.get(pk=game.seats[0]["user_id"]),
        "organizer": organizer,
    }
    assert len(shown) < len(records)
    return Scene(
        Event.objects.get(pk=event.id), season.id, game, users, len(shown), len(records), {}
    )


# --- What a route shows of table A ----------------------------------------------------


def _json(response: Any) -> Any:
    return response.json() if response.status_code == 200 else None


def _listed(scene: Scene, response: Any) -> dict[str, Any] | None:
    page = _json(response)
    return next((game for game in page["results"] if game["id"] == str(scene.game.id)), None)


def game_list(scene: Scene, response: Any) -> str:
    listed = _listed(scene, response)
    assert listed is not None
    shown = scene.version(listed["version"])
    held = (listed["status"], listed["hand"], listed["scores"]) == ("playing", 0, [0, 0, 0, 0])
    return shown if held == (shown == HELD) else f"{shown}, but {listed['status']}"


def listed_in_play(scene: Scene, response: Any) -> str:
    # Still in play for whoever its finish is held back from.
    return HELD if _listed(scene, response) is not None else LIVE


def listed_finished(scene: Scene, response: Any) -> str:
    return LIVE if _listed(scene, response) is not None else HELD


def game_state(scene: Scene, response: Any) -> str:
    return scene.version(response.json()["version"])


def record(scene: Scene, response: Any) -> str:
    if response.status_code == 409 and response.json()["code"] == "game_not_finished":
        return HELD
    return LIVE if response.status_code == 200 else str(response.status_code)


def analysis_page(scene: Scene, response: Any) -> str:
    if response.status_code == 409:
        return HELD
    return LIVE if 'id="analysis-summary"' in response.content.decode() else NONE


def lobby(scene: Scene, response: Any) -> str:
    # The lobby lists the tables in play: a finish held back leaves it there.
    listed = f'data-code="{scene.game.code}"' in response.content.decode()
    return HELD if listed else LIVE


def table_page(scene: Scene, response: Any) -> str:
    ended = 'aria-labelledby="game-end-title" hidden' not in response.content.decode()
    return LIVE if ended else HELD


def _picture(scene: Scene, live: dict[str, Any]) -> str:
    [table] = [table for table in live["tables"] if table["game_code"] == scene.game.code]
    figures = (live["status"], table["status"], table["hands_scored"], len(live["leaderboard"]))
    if figures == ("running", "playing", 0, 0):
        return HELD
    return LIVE if figures == ("finished", "finished", 9, 8) else str(figures)


def _embedded(scene: Scene, response: Any, script: str) -> str:
    """What the picture a page gives its script (``script``: the JSON's id) shows."""
    if response.status_code != 200:
        return NONE
    content = response.content.decode()
    found = re.search(rf'<script id="{script}" type="application/json">(.*?)</script>', content)
    assert found is not None
    return _picture(scene, json.loads(found.group(1))["live"])


def event_page(scene: Scene, response: Any) -> str:
    return _embedded(scene, response, "atu-event")


def screen(scene: Scene, response: Any) -> str:
    return _embedded(scene, response, "atu-screen")


def live_json(scene: Scene, response: Any) -> str:
    return _picture(scene, response.json())


def standings_csv(scene: Scene, response: Any) -> str:
    lines = response.content.decode().splitlines()
    return {1: HELD, 9: LIVE}.get(len(lines), f"{len(lines)} lines")


def _names_shown(response: Any) -> str:
    return LIVE if "Bot001 (bot)</td>" in response.content.decode() else HELD


def results(scene: Scene, response: Any) -> str:
    return _names_shown(response)


def season_page(scene: Scene, response: Any) -> str:
    return _names_shown(response)


def chat_words(scene: Scene, response: Any) -> str:
    said = [word["phrase"] for word in response.json()["words"]]
    return {(): HELD, (PHRASE,): LIVE}.get(tuple(said), f"words {said}")


def events_list(scene: Scene, response: Any) -> str:
    content = response.content.decode()
    row = content[content.index(f'<tr data-code="{scene.event.code}">') :]
    row = row[: row.index("</tr>")]
    return LIVE if "Finished" in row else HELD if "In play" in row else row


def _my_games(response: Any, listed: str) -> str:
    """Where My games lists what ``listed`` marks: over (live), in play (held), or not
    at all."""
    if response.status_code != 200 or listed not in response.content.decode():
        return NONE
    content = response.content.decode()
    return LIVE if listed in content[content.index('id="finished-games"') :] else HELD


def my_games_table(scene: Scene, response: Any) -> str:
    return _my_games(response, f'data-code="{scene.game.code}"')


def my_games_event(scene: Scene, response: Any) -> str:
    return _my_games(response, f'data-event="{scene.event.code}"')


@dataclass(frozen=True)
class Row:
    route: str
    query: str
    shows: Callable[[Scene, Any], str]
    # What each role sees, in the order of ROLES.
    expected: tuple[str, ...]


# fmt: off
HTTP_ROWS = [
    Row("", "", lobby, TABLE),
    Row("api/games/", "", game_list, TABLE),
    Row("api/games/", "?status=playing", listed_in_play, TABLE),
    Row("api/games/", "?status=finished", listed_finished, TABLE),
    Row("api/games/<str:ref>/", "", game_state, TABLE),
    Row("api/games/<str:ref>/events/", "", game_state, TABLE),
    Row("api/games/<str:ref>/record/", "", record, TABLE),
    Row("api/games/<str:ref>/record.json", "", record, TABLE),
    # The analysis of a finished game: not before the finish is out.
    Row("api/games/<str:ref>/analysis/", "", record, TABLE),
    Row("games/<str:ref>/analysis/", "", analysis_page, TABLE),
    # The words said at the table: as late as its play.
    Row("api/games/<str:ref>/chat/", "", chat_words, TABLE),
    # The replay reads the finished record at a version: not before the finish is out.
    Row("api/games/<str:ref>/", "?at=1", record, TABLE),
    Row("games/<str:ref>/", "", table_page, TABLE),
    Row("events/", "", events_list, EVENT),
    Row("events/<str:code>/", "", event_page, EVENT),
    Row("events/<str:code>/live.json", "", live_json, EVENT),
    Row("events/<str:code>/my-table/", "", event_page, (NONE, *EVENT[1:])),
    Row("events/<str:code>/standings.csv", "", standings_csv, EVENT),
    Row("events/<str:code>/results/", "", results, EVENT),
    Row("events/<str:code>/screen/", "", screen, EVENT),
    Row("events/<str:code>/manage/", "", event_page, (NONE, NONE, NONE, NONE, LIVE)),
    Row("seasons/<uuid:season_id>/", "", season_page, EVENT),
    # A player's own games: their table, live, as at the table; their event, held back
    # as its pages hold it (the others have no seat at table A).
    Row("me/games/", "", my_games_table, (NONE, NONE, NONE, LIVE, NONE)),
    Row("me/games/", "", my_games_event, (NONE, NONE, HELD, HELD, NONE)),
]
# fmt: on

# Every other route, and why it shows no table's progress.
NO_PROGRESS = {
    "i18n/setlang/": "the language switch",
    "healthz": "the process's health",
    "readyz": "the site's readiness",
    "manifest.webmanifest": "the installable site's manifest",
    "sw.js": "the service worker, which keeps nothing of a table",
    "offline/": "the page the service worker shows offline",
    "admin/": "the site's staff tools, not a viewing route (docs/security.md)",
    "accounts/register/": "an account's pages",
    "accounts/login/": "an account's pages",
    "accounts/logout/": "an account's pages",
    "accounts/account/": "an account's pages",
    # The player's own tables, their figures as games.visibility releases them to the
    # player (game_summaries), their own bids only while they held the seat.
    "accounts/account/export/": "an account's data: its own tables, seen as a player",
    "accounts/account/delete/": "an account's pages",
    "accounts/password/change/": "an account's pages",
    "accounts/password/change/done/": "an account's pages",
    "accounts/password/reset/": "an account's pages",
    "accounts/password/reset/sent/": "an account's pages",
    "accounts/password/reset/<uidb64>/<token>/": "an account's pages",
    "accounts/password/reset/done/": "an account's pages",
    "api/auth/register/": "an account's endpoints",
    "api/auth/login/": "an account's endpoints",
    "api/auth/logout/": "an account's endpoints",
    "api/auth/token/": "an account's endpoints",
    "api/auth/me/": "an account's endpoints",
    "api/schema/": "the API's description",
    "api/docs/": "the API's description",
    "api/presets/": "the rule presets",
    "rules/": "the rules",
    # Its tables are shown once the viewer sees them all finished: held back as the
    # tables are (tests/tournaments/test_comparison.py).
    "events/<str:code>/rounds/<int:number>/deals/": "a duplicate round's deals: none here",
    "games/new/": "opens a table of no event: no delay",
    "games/join/": "a seat at an open table: nothing is played yet",
    "games/score/": "a form",
    "games/<str:ref>/score/": "a table in the room's scorer page: its deals come from the "
    "API's state and the socket, whose rows are above",
    "games/play-now/": "a table against bots of no event: no delay",
    "api/games/play-now/": "a table against bots of no event: no delay",
    # Commands: only a seat (or the table's creator) may give them, who sees it live;
    # a refusal redraws the table page, whose row is above.
    "api/games/<str:ref>/join/": "a command",
    "api/games/<str:ref>/bid/": "a command",
    "api/games/<str:ref>/play/": "a command",
    "api/games/<str:ref>/zero-play/": "a command",
    "api/games/<str:ref>/one-card-mode/": "a command",
    "api/games/<str:ref>/seat-bot/": "a command",
    "api/games/<str:ref>/fill-with-bots/": "a command",
    "api/games/<str:ref>/cancel/": "a command",
    "api/games/<str:ref>/leave/": "a command",
    "api/games/<str:ref>/chat/<int:message>/report/": "a command: reports only a message "
    "the reporter may read",
    "api/games/<str:ref>/rematch/": "an event's table has no rematch",
    "api/games/<str:ref>/scorer/": "a table in the room's PIN, given: it shows nothing",
    "api/games/<str:ref>/deals/": "a command",
    "api/games/<str:ref>/deals/correct/": "a command",
    "api/games/<str:ref>/deals/confirm/": "a command",
    "games/<str:ref>/fill-with-bots/": "a command",
    "games/<str:ref>/cancel/": "a command",
    "games/<str:ref>/leave/": "a command",
    "games/<str:ref>/rematch/": "an event's table has no rematch",
    "games/<str:ref>/sit-as-guest/": "a seat at an open table: nothing is played yet "
    "(a table in play redraws the table page, whose row is above)",
    "events/new/": "a form",
    # A person's page lists their games once finished and their spectator delay over,
    # for everyone alike (tests/tournaments/test_players.py); the scene's players are
    # bots, who have no page.
    "players/<int:player_id>/": "a person's finished games, each once its delay is over",
    "api/players/<int:player_id>/": "a person's finished games, each once its delay is over",
    "seasons/new/": "a form",
    # The event's commands: a refusal redraws the event page or the organizer's,
    # whose rows are above.
    "events/<str:code>/register/": "a command",
    "events/<str:code>/check-in/": "a command",
    "events/<str:code>/withdraw/": "a command",
    "events/<str:code>/manage/players/": "a command",
    "events/<str:code>/manage/players/<int:player_id>/check-in/": "a command",
    "events/<str:code>/manage/players/<int:player_id>/withdraw/": "a command",
    "events/<str:code>/manage/bots/": "a command",
    "events/<str:code>/manage/rounds/": "a command",
    "events/<str:code>/manage/corrections/": "a command",
    "events/<str:code>/manage/publish/": "a command",
    "events/<str:code>/manage/announcements/": "a command",
    "events/<str:code>/manage/announcements/<int:number>/withdraw/": "a command",
    "events/<str:code>/manage/tables/<str:game_code>/pause/": "a command",
    "events/<str:code>/manage/round-tables/<int:number>/move/": "a command",
    "events/<str:code>/manage/tables/<str:game_code>/resume/": "a command",
    "events/<str:code>/manage/deputies/": "a command",
    "events/<str:code>/manage/deputies/<int:user_id>/remove/": "a command",
    "events/<str:code>/manage/calls/<int:number>/answer/": "a command",
    "events/<str:code>/manage/calls/<int:number>/close/": "a command",
    "events/<str:code>/manage/seats/": "a command",
    "events/<str:code>/manage/disqualifications/": "a command",
    "events/<str:code>/manage/clock/call/": "a command",
    "events/<str:code>/manage/clock/extend/": "a command",
    "api/events/<str:code>/tables/<str:game_code>/calls/": "a command",
    "api/events/<str:code>/calls/<int:number>/answer/": "a command",
    "api/events/<str:code>/calls/<int:number>/close/": "a command",
    # Printouts: who sits where, and blank score sheets; for who directs the event only.
    "events/<str:code>/manage/rounds/<int:number>/seating/": "the organizer's printouts",
    "events/<str:code>/manage/rounds/<int:number>/cards/": "the organizer's printouts",
    "events/<str:code>/manage/rounds/<int:number>/sheets/": "the organizer's printouts",
    "events/<str:code>/manage/tables/<str:game_code>/print/": "the organizer's printouts",
}

GAME_SOCKET = "ws/games/<str:ref>/"
EVENT_SOCKET = "ws/events/<str:code>/"
# A socket message, what it is sent with, and what each role sees in its answer.
SOCKET_ROWS = [
    ("CONNECT", GAME_SOCKET, None, TABLE),
    ("resync", GAME_SOCKET, {}, TABLE),
    ("resume", GAME_SOCKET, {"version": 0}, TABLE),
    ("CONNECT", EVENT_SOCKET, None, EVENT),
    ("refresh", EVENT_SOCKET, {}, EVENT),
]
SOCKET_NO_PROGRESS = {
    ("CONNECT", "ws/health/"): "the socket's health",
    ("ping", "ws/health/"): "the socket's health",
    # A table's desk: the announcements and the round's deadline (no play, so no delay)
    # and the player's own call.
    **{
        (kind, "ws/events/<str:code>/tables/<str:game_code>/"): "a table's desk"
        for kind in ("CONNECT", "refresh", "ping")
    },
    # Only a seat, or the table's creator, is acked; anyone else is refused with the
    # version this socket has sent, which is as held back as the socket.
    **{(command, GAME_SOCKET): "a command" for command in consumer.COMMANDS},
    # Words said and reported: acked or refused alike, with the version this socket has
    # sent; the words themselves reach a held-back socket as late as the play
    # (tests/games/live/test_chat.py).
    **{(kind, GAME_SOCKET): "a word said or reported" for kind in consumer.WORDS},
}


def test_the_matrix_names_every_url_and_every_socket_message() -> None:
    routes = {route for route, _ in _routes(get_resolver().url_patterns)}
    shown = {checked.route for checked in HTTP_ROWS}
    assert not shown & set(NO_PROGRESS)
    assert shown | set(NO_PROGRESS) == routes
    sockets = {str(pattern.pattern) for pattern in websocket_urlpatterns}
    asked = {(kind, route) for kind, route, _, _ in SOCKET_ROWS}
    assert not asked & set(SOCKET_NO_PROGRESS)
    assert {route for _, route in asked | set(SOCKET_NO_PROGRESS)} == sockets
    game_messages = {
        kind for kind, route in asked | set(SOCKET_NO_PROGRESS) if route == GAME_SOCKET
    }
    assert game_messages == {"CONNECT", "resync", "resume", *consumer.COMMANDS, *consumer.WORDS}


def _differences(
    names: list[str], expected: list[tuple[str, ...]], answered: list[tuple[str, ...]]
) -> list[str]:
    return [
        f"{name}: "
        + ", ".join(
            f"{role} {got}" + ("" if got == want else f" (not {want})")
            for role, got, want in zip(ROLES, cells, wanted, strict=True)
        )
        for name, wanted, cells in zip(names, expected, answered, strict=True)
        if cells != wanted
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
def test_every_route_shows_each_role_the_delayed_table_as_the_matrix_says() -> None:
    # Given a delayed event's table finished in its log, its finish still held back
    scene = make_scene()

    # When every role asks every route that shows its progress
    answered = [
        tuple(
            row.shows(scene, scene.client(role).get(scene.url(row.route) + row.query))
            for role in ROLES
        )
        for row in HTTP_ROWS
    ]

    # Then each sees it as the matrix says
    names = [f"GET /{row.route}{row.query}" for row in HTTP_ROWS]
    assert _differences(names, [row.expected for row in HTTP_ROWS], answered) == []


async def _socket_shows(scene: Scene, kind: str, route: str, body: Any, role: str) -> str:
    user = scene.users[role]
    headers = list(ORIGIN)
    if user is not None:
        client = await database_sync_to_async(scene.client)(role)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    communicator = WebsocketCommunicator(application, scene.url(route), headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    try:
        message = await communicator.receive_json_from(timeout=TIMEOUT)
        if kind != "CONNECT":
            await communicator.send_json_to({"type": kind, **body})
            message = await communicator.receive_json_from(timeout=TIMEOUT)
    finally:
        await communicator.disconnect()
    if message["type"] == "event":
        return await database_sync_to_async(_picture)(scene, message["event"])
    return scene.version(message["version"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("bots_play")
async def test_every_socket_message_shows_each_role_the_delayed_table_as_the_matrix_says() -> None:
    # Given a delayed event's table finished in its log, its finish still held back
    scene = await database_sync_to_async(make_scene)()

    # When every role connects to each socket and sends each message
    answered = [
        tuple([await _socket_shows(scene, kind, route, body, role) for role in ROLES])
        for kind, route, body, _ in SOCKET_ROWS
    ]

    # Then each sees it as the matrix says
    names = [f"{kind} {route}" for kind, route, _, _ in SOCKET_ROWS]
    assert _differences(names, [row[3] for row in SOCKET_ROWS], answered) == []
