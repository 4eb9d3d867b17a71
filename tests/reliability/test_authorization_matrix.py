"""Who may do what: every URL of the site and every socket message, asked by every
role, answered as this table says.

The roles, each a relation to the game (or event) a row names:

- ``anonymous``: not signed in;
- ``player``: seated at the game, and the seat to act;
- ``other``: seated at the game, not to act;
- ``spectator``: signed in, not seated (at a private event's table: an entrant of
  the event who plays at another of its tables);
- ``creator``: the game's creator, not seated (a championship's table is created
  by the event's organizer, who is then both);
- ``organizer``: the private event's organizer (a stranger to the public game);
- ``outsider``: signed in, neither entrant nor organizer of the private event.

A row's target is ``public`` (a table in play that anyone may watch, opened by
``creator``, who sits elsewhere) or ``private`` (a table of a private event's round
in play, and that event). A cell is what the role gets: an HTTP status, with the
code of the API's JSON errors; on a socket, the type of the reply (``state``,
``events``, ``ack``, ``event``, ``hello``, ``pong``, or ``error:<code>``), or the code
the socket was closed with. Commands carry input
that the rules refuse to whoever may act (a bid out of range, a card during the
bidding), so that every row asks the same tables; the few that change something
(pausing a table, withdrawing) come last and put it back.

The table must name every URL pattern of the site and every socket route and
message type: an endpoint added without its rows fails here.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.views import APIView

from accounts.models import User
from accounts.services import user_token
from config.asgi import application
from config.routing import websocket_urlpatterns
from games.commands.actions import game_create, game_join
from games.live import consumer
from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.throttles import forget_throttle_counts
from tests.tournaments.drivers import SHORT_RULES, private_event_round
from tournaments.models import Event
from tournaments.services import season_create

ROLES = ("anonymous", "player", "other", "spectator", "creator", "organizer", "outsider")
ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
TIMEOUT = 10


@dataclass(frozen=True)
class Row:
    method: str
    route: str
    target: str
    body: dict[str, Any] | None
    # What each role gets, in the order of ROLES.
    expected: tuple[str, ...]


def row(method: str, route: str, target: str, body: dict[str, Any] | None, *cells: str) -> Row:
    assert len(cells) == len(ROLES), (method, route, target)
    return Row(method, route, target, body, cells)


# Filled in when a row is asked: the seat to act at the row's game, and the game's code.
PLAYER_SEAT = "<player seat>"
GAME_CODE = "<game code>"

OK, FOUND, DENIED, MISSING = "200", "302", "403", "404"
UNAUTHENTICATED = "401:not_authenticated"
NO_GAME = "404:game_not_found"
NOT_SEATED = "403:not_your_seat"
NOT_TURN = "400:not_your_turn"
WRONG_PHASE = "400:wrong_phase"
INVALID = "400:invalid_input"
UNFINISHED = "409:game_not_finished"
NOT_A_PLAYER = "403:not_a_player"
NO_REMATCH = "404:no_rematch"
SEATED = "409:already_seated"
FULL = "409:table_full"
NO_ZERO = "400:zero_play_not_allowed"
CLOSED = "4404"
STATE, ACK, EVENT = "state", "ack", "event"
WS_NOT_SEATED = "error:not_your_seat"
WS_NOT_TURN = "error:not_your_turn"
WS_PHASE = "error:wrong_phase"
WS_ANONYMOUS = "error:not_authenticated"
WS_NO_ZERO = "error:zero_play_not_allowed"

GAME = "api/games/<str:ref>/"
# Words at the table: a quick phrase; a report of a message nobody said.
PHRASE = {"phrase": "good_luck"}
NO_MESSAGE = 2**31 - 1
PLAYERS_ONLY = "403:players_only"
CHAT_OFF = "403:chat_off"
NO_SUCH_MESSAGE = "404:message_not_found"
WS_PLAYERS_ONLY = "error:players_only"
WS_CHAT_OFF = "error:chat_off"
MANAGE = "events/<str:code>/manage/"
BID = {"bid": 99}
PLAY = {"card": "AS"}
MODE = {"mode": "open"}
JOIN = {"alias": "Intrus"}
# Hands the player's own seat back from a bot it does not have: nothing changes.
SEAT_BOT = {"seat": PLAYER_SEAT, "bot": None}
JOIN_FORM = {"reference": GAME_CODE, "alias": "Intrus"}
PIN = {"pin": "000000", "seat": 0}
# Fits every command of a table in the room: a deal written, corrected, confirmed.
DEAL = {"hand": 0, "bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0], "reason": "test"}
DEAL_ACTIONS = ("deals", "deals/correct", "deals/confirm")
SCORER_ONLY = "403:scorer_only"
PLAYED_HERE = "400:played_table"
EVERYONE = (OK,) * 7
# Readiness is the same for everyone: ready embedded (tasks run eagerly); in production
# mode this test process has no Celery worker to answer, so not ready.
READY = (OK if settings.CELERY_TASK_ALWAYS_EAGER else "503",) * 7
EVERYONE_FOUND = (FOUND,) * 7
# A signed-in player's page: anonymous is sent to sign in.
SIGNED_IN = (FOUND, *(OK,) * 6)
WRONG_OLD_PASSWORD = {"old_password": "wrong", "new_password1": "x", "new_password2": "x"}
PRIVATE_READ = (MISSING, OK, OK, OK, OK, OK, MISSING)
API_PRIVATE_READ = (NO_GAME, OK, OK, OK, OK, OK, NO_GAME)
RECORD = (UNFINISHED,) * 7
PRIVATE_RECORD = (NO_GAME, *(UNFINISHED,) * 5, NO_GAME)
# Anonymous, player, other, spectator; then the creator, who at a championship's
# table is the organizer.
ORGANIZER_ONLY = (FOUND, DENIED, DENIED, DENIED)

# A table in play: only its creator (at a championship's table, the organizer) may fill
# or cancel it, and not any more.
STARTED = "409:game_started"
NOT_CREATOR = "403:not_the_creator"
NOT_SEATED_HERE = "409:not_seated"
CREATOR_ONLY_STARTED = (FOUND, DENIED, DENIED, DENIED, "409", DENIED, DENIED)
PRIVATE_CREATOR_ONLY_STARTED = (FOUND, DENIED, DENIED, DENIED, "409", "409", MISSING)
API_CREATOR_ONLY_STARTED = (*(NOT_CREATOR,) * 3, STARTED, NOT_CREATOR, NOT_CREATOR)
API_PRIVATE_CREATOR_ONLY_STARTED = (*(NOT_CREATOR,) * 3, STARTED, STARTED, NO_GAME)

# fmt: off
HTTP_ROWS = [
    # method, route, target, body; then anonymous, player, other, spectator, creator,
    # organizer, outsider.
    # --- Pages
    row("GET", "", "public", None, *EVERYONE),
    row("POST", "i18n/setlang/", "public", {"language": "ro"}, *EVERYONE_FOUND),
    row("GET", "healthz", "public", None, *EVERYONE),
    row("GET", "readyz", "public", None, *READY),
    # The installable site: its manifest, service worker and offline page.
    row("GET", "manifest.webmanifest", "public", None, *EVERYONE),
    row("GET", "sw.js", "public", None, *EVERYONE),
    row("GET", "offline/", "public", None, *EVERYONE),
    row("GET", "admin/", "public", None, *EVERYONE_FOUND),
    row("GET", "accounts/register/", "public", None, OK, *(FOUND,) * 6),
    row("GET", "accounts/login/", "public", None, OK, *(FOUND,) * 6),
    row("POST", "accounts/logout/", "public", None, *EVERYONE_FOUND),
    # The account's own pages: a signed-in player's (a guest is sent to register); a
    # wrong password or address changes nothing. Resetting a forgotten password is for
    # anyone, and names no account (an unknown address is answered as a known one).
    row("GET", "accounts/account/", "public", None, *SIGNED_IN),
    row("POST", "accounts/account/", "public", {"email": "not an address"}, *SIGNED_IN),
    row("GET", "accounts/account/export/", "public", None, *SIGNED_IN),
    row("GET", "accounts/account/delete/", "public", None, *SIGNED_IN),
    row("POST", "accounts/account/delete/", "public", {"password": "wrong"}, *SIGNED_IN),
    row("GET", "accounts/password/change/", "public", None, *SIGNED_IN),
    row("POST", "accounts/password/change/", "public", WRONG_OLD_PASSWORD, *SIGNED_IN),
    row("GET", "accounts/password/change/done/", "public", None, *SIGNED_IN),
    row("GET", "accounts/password/reset/", "public", None, *EVERYONE),
    row("POST", "accounts/password/reset/", "public", {"email": "nobody@example.org"},
        *EVERYONE_FOUND),
    row("GET", "accounts/password/reset/sent/", "public", None, *EVERYONE),
    row("GET", "accounts/password/reset/<uidb64>/<token>/", "public", None, *EVERYONE),
    row("GET", "accounts/password/reset/done/", "public", None, *EVERYONE),
    row("GET", "rules/", "public", None, *EVERYONE),
    row("GET", "games/new/", "public", None, *EVERYONE_FOUND),
    row("POST", "games/new/", "public", {"player_count": "9"}, FOUND, *("400",) * 6),
    row("GET", "games/join/", "public", None, *EVERYONE_FOUND),
    row("POST", "games/join/", "public", JOIN_FORM, FOUND, "409", "409", *("409",) * 4),
    row("POST", "games/join/", "private", JOIN_FORM, FOUND, "409", "409", *("409",) * 3, MISSING),
    row("GET", "games/<str:ref>/", "public", None, *EVERYONE),
    row("GET", "games/<str:ref>/", "private", None, *PRIVATE_READ),
    # The analysis page of a game in play says it is not over (409).
    row("GET", "games/<str:ref>/analysis/", "public", None, *("409",) * 7),
    row("GET", "games/<str:ref>/analysis/", "private", None, MISSING, *("409",) * 5, MISSING),
    # The scorer page is a table in the room's only: these tables are played here.
    row("GET", "games/<str:ref>/score/", "public", None, *(MISSING,) * 7),
    row("GET", "games/<str:ref>/score/", "private", None, *(MISSING,) * 7),
    row("GET", "games/score/", "public", None, *EVERYONE),
    # A game in play has no rematch yet: back to the table (anonymous: to sign in).
    row("POST", "games/<str:ref>/rematch/", "public", None, *EVERYONE_FOUND),
    row("POST", "games/<str:ref>/rematch/", "private", None, *(FOUND,) * 6, MISSING),
    # A share link's guest seat, at a table in play: refused to a visitor without an
    # account (no guest made); a signed-in one goes back to the table, whoever may see it.
    row("GET", "games/<str:ref>/sit-as-guest/", "public", None, *EVERYONE_FOUND),
    row("GET", "games/<str:ref>/sit-as-guest/", "private", None, MISSING, *(FOUND,) * 5, MISSING),
    row("POST", "games/<str:ref>/sit-as-guest/", "public", JOIN, "409", *EVERYONE_FOUND[1:]),
    row("POST", "games/<str:ref>/sit-as-guest/", "private", JOIN,
        MISSING, *(FOUND,) * 5, MISSING),
    # A player's own games: anyone signed in, to their own; a visitor is sent to sign in.
    row("GET", "me/games/", "public", None, FOUND, *(OK,) * 6),
    # Play now with rules that do not go together: nobody is seated, no guest made.
    row("POST", "games/play-now/", "public", {"player_count": "9"}, *("400",) * 7),
    # A table that has started: it can no longer be filled, cancelled or left.
    row("POST", "games/<str:ref>/fill-with-bots/", "public", {}, *CREATOR_ONLY_STARTED),
    row("POST", "games/<str:ref>/fill-with-bots/", "private", {}, *PRIVATE_CREATOR_ONLY_STARTED),
    row("POST", "games/<str:ref>/cancel/", "public", None, *CREATOR_ONLY_STARTED),
    row("POST", "games/<str:ref>/cancel/", "private", None, *PRIVATE_CREATOR_ONLY_STARTED),
    row("POST", "games/<str:ref>/leave/", "public", None, FOUND, *("409",) * 6),
    row("POST", "games/<str:ref>/leave/", "private", None, FOUND, *("409",) * 5, MISSING),
    # --- The REST API
    row("POST", "api/auth/register/", "public", {}, *(INVALID,) * 7),
    row("POST", "api/auth/login/", "public", {}, *(INVALID,) * 7),
    row("POST", "api/auth/logout/", "public", None, *("204",) * 7),
    row("POST", "api/auth/token/", "public", {}, *(INVALID,) * 7),
    row("GET", "api/auth/me/", "public", None, UNAUTHENTICATED, *(OK,) * 6),
    row("GET", "api/games/", "public", None, *EVERYONE),
    row("POST", "api/games/", "public", {"player_count": 9},
        UNAUTHENTICATED, *("400:invalid_player_count",) * 6),
    row("GET", "api/presets/", "public", None, *EVERYONE),
    row("GET", "api/schema/", "public", None, *EVERYONE),
    row("GET", "api/docs/", "public", None, *EVERYONE),
    row("GET", GAME, "public", None, *EVERYONE),
    row("GET", GAME, "private", None, *API_PRIVATE_READ),
    row("GET", f"{GAME}events/", "public", None, *EVERYONE),
    row("GET", f"{GAME}events/", "private", None, *API_PRIVATE_READ),
    row("GET", f"{GAME}record/", "public", None, *RECORD),
    row("GET", f"{GAME}record/", "private", None, *PRIVATE_RECORD),
    row("GET", "api/games/<str:ref>/record.json", "public", None, *RECORD),
    row("GET", "api/games/<str:ref>/record.json", "private", None, *PRIVATE_RECORD),
    # The analysis is of a finished game: these are in play.
    row("GET", f"{GAME}analysis/", "public", None, *RECORD),
    row("GET", f"{GAME}analysis/", "private", None, *PRIVATE_RECORD),
    # Commands: the seat to act is refused by the rules; anyone else by who they are.
    row("POST", f"{GAME}join/", "public", JOIN,
        UNAUTHENTICATED, SEATED, SEATED, FULL, FULL, FULL, FULL),
    row("POST", f"{GAME}join/", "private", JOIN,
        UNAUTHENTICATED, SEATED, SEATED, FULL, FULL, FULL, NO_GAME),
    row("POST", f"{GAME}bid/", "public", BID,
        UNAUTHENTICATED, "400:bid_out_of_range", NOT_TURN, NOT_SEATED, NOT_SEATED, NOT_SEATED,
        NOT_SEATED),
    row("POST", f"{GAME}bid/", "private", BID,
        UNAUTHENTICATED, "400:bid_out_of_range", NOT_TURN, NOT_SEATED, NOT_SEATED, NOT_SEATED,
        NO_GAME),
    row("POST", f"{GAME}play/", "public", PLAY,
        UNAUTHENTICATED, WRONG_PHASE, WRONG_PHASE, NOT_SEATED, NOT_SEATED, NOT_SEATED,
        NOT_SEATED),
    row("POST", f"{GAME}play/", "private", PLAY,
        UNAUTHENTICATED, WRONG_PHASE, WRONG_PHASE, NOT_SEATED, NOT_SEATED, NOT_SEATED, NO_GAME),
    row("POST", f"{GAME}zero-play/", "public", {},
        UNAUTHENTICATED, NO_ZERO, NO_ZERO, NOT_SEATED, NOT_SEATED, NOT_SEATED, NOT_SEATED),
    row("POST", f"{GAME}zero-play/", "private", {},
        UNAUTHENTICATED, NO_ZERO, NO_ZERO, NOT_SEATED, NOT_SEATED, NOT_SEATED, NO_GAME),
    row("POST", f"{GAME}one-card-mode/", "public", MODE,
        UNAUTHENTICATED, WRONG_PHASE, WRONG_PHASE, NOT_SEATED, NOT_SEATED, NOT_SEATED,
        NOT_SEATED),
    row("POST", f"{GAME}one-card-mode/", "private", MODE,
        UNAUTHENTICATED, WRONG_PHASE, WRONG_PHASE, NOT_SEATED, NOT_SEATED, NOT_SEATED, NO_GAME),
    # A seat's bot: its own player, or the game's creator (a championship's organizer).
    row("POST", f"{GAME}seat-bot/", "public", SEAT_BOT,
        UNAUTHENTICATED, OK, NOT_SEATED, NOT_SEATED, OK, NOT_SEATED, NOT_SEATED),
    row("POST", f"{GAME}seat-bot/", "private", SEAT_BOT,
        UNAUTHENTICATED, OK, NOT_SEATED, NOT_SEATED, OK, OK, NO_GAME),
    row("POST", "api/games/play-now/", "public", {"player_count": 9},
        UNAUTHENTICATED, *("400:invalid_player_count",) * 6),
    row("POST", f"{GAME}fill-with-bots/", "public", {}, UNAUTHENTICATED, *API_CREATOR_ONLY_STARTED),
    row("POST", f"{GAME}fill-with-bots/", "private", {},
        UNAUTHENTICATED, *API_PRIVATE_CREATOR_ONLY_STARTED),
    row("POST", f"{GAME}cancel/", "public", None, UNAUTHENTICATED, *API_CREATOR_ONLY_STARTED),
    row("POST", f"{GAME}cancel/", "private", None,
        UNAUTHENTICATED, *API_PRIVATE_CREATOR_ONLY_STARTED),
    row("POST", f"{GAME}leave/", "public", None,
        UNAUTHENTICATED, STARTED, STARTED, *(NOT_SEATED_HERE,) * 4),
    row("POST", f"{GAME}leave/", "private", None,
        UNAUTHENTICATED, STARTED, STARTED, *(NOT_SEATED_HERE,) * 3, NO_GAME),
    # A table in the room's commands: the PIN finds no table in the room here; its
    # players and director are told the table is played here, anyone else that only
    # its scorers may.
    row("POST", f"{GAME}scorer/", "public", PIN, *(NO_GAME,) * 7),
    row("POST", f"{GAME}scorer/", "private", PIN, *(NO_GAME,) * 7),
    *(
        row("POST", f"{GAME}{action}/", "public", DEAL,
            SCORER_ONLY, PLAYED_HERE, PLAYED_HERE, SCORER_ONLY, PLAYED_HERE, SCORER_ONLY,
            SCORER_ONLY)
        for action in DEAL_ACTIONS
    ),
    *(
        row("POST", f"{GAME}{action}/", "private", DEAL,
            NO_GAME, PLAYED_HERE, PLAYED_HERE, SCORER_ONLY, PLAYED_HERE, PLAYED_HERE, NO_GAME)
        for action in DEAL_ACTIONS
    ),
    # Words at the table: read as the table is; said by its players alone, and at a
    # championship's table (the private one) only where its organizer allowed them;
    # reported by whoever may read them.
    row("GET", f"{GAME}chat/", "public", None, *EVERYONE),
    row("GET", f"{GAME}chat/", "private", None, *API_PRIVATE_READ),
    row("POST", f"{GAME}chat/", "public", PHRASE,
        UNAUTHENTICATED, "201", "201", *(PLAYERS_ONLY,) * 4),
    row("POST", f"{GAME}chat/", "private", PHRASE,
        UNAUTHENTICATED, *(CHAT_OFF,) * 5, NO_GAME),
    row("POST", f"{GAME}chat/<int:message>/report/", "public", None,
        UNAUTHENTICATED, *(NO_SUCH_MESSAGE,) * 6),
    row("POST", f"{GAME}chat/<int:message>/report/", "private", None,
        UNAUTHENTICATED, *(NO_SUCH_MESSAGE,) * 5, NO_GAME),
    # A rematch: only the game's players may ask, once it is over.
    row("GET", f"{GAME}rematch/", "public", None, *(NO_REMATCH,) * 7),
    row("GET", f"{GAME}rematch/", "private", None, NO_GAME, *(NO_REMATCH,) * 5, NO_GAME),
    row("POST", f"{GAME}rematch/", "public", None,
        UNAUTHENTICATED, UNFINISHED, UNFINISHED, NOT_A_PLAYER, NOT_A_PLAYER, NOT_A_PLAYER,
        NOT_A_PLAYER),
    row("POST", f"{GAME}rematch/", "private", None,
        UNAUTHENTICATED, UNFINISHED, UNFINISHED, NOT_A_PLAYER, NOT_A_PLAYER, NOT_A_PLAYER,
        NO_GAME),
    # --- Championships: the private table's event
    row("GET", "events/", "private", None, *EVERYONE),
    row("GET", "events/new/", "private", None, FOUND, DENIED, DENIED, DENIED, OK, OK, DENIED),
    row("POST", "seasons/new/", "private", {},
        FOUND, DENIED, DENIED, DENIED, "400", "400", DENIED),
    row("GET", "seasons/<uuid:season_id>/", "private", None, *EVERYONE),
    # A person's page is public (an entrant of the private event: its table shows there
    # only to who may see the event).
    row("GET", "players/<int:player_id>/", "private", None, *EVERYONE),
    row("GET", "api/players/<int:player_id>/", "private", None, *EVERYONE),
    row("GET", "events/<str:code>/", "private", None, *PRIVATE_READ),
    row("GET", "events/<str:code>/live.json", "private", None, *PRIVATE_READ),
    row("GET", "events/<str:code>/my-table/", "private", None, FOUND, *PRIVATE_READ[1:]),
    row("GET", "events/<str:code>/standings.csv", "private", None, *PRIVATE_READ),
    row("GET", "events/<str:code>/results/", "private", None, *PRIVATE_READ),
    # The private event plays no duplicate deals: no deals to compare, to anyone.
    row("GET", "events/<str:code>/rounds/<int:number>/deals/", "private", None, *(MISSING,) * 7),
    row("GET", "events/<str:code>/screen/", "private", None, *PRIVATE_READ),
    # Entries closed when the last round started; the entrants are checked in; the
    # organizer entered nothing (409 not_entered).
    row("POST", "events/<str:code>/register/", "private", None,
        FOUND, "409", "409", "409", "409", "409", MISSING),
    row("POST", "events/<str:code>/check-in/", "private", None,
        FOUND, FOUND, FOUND, FOUND, "409", "409", MISSING),
    row("GET", MANAGE, "private", None, *ORGANIZER_ONLY, OK, OK, MISSING),
    row("POST", f"{MANAGE}players/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}players/<int:player_id>/check-in/", "private", None,
        *ORGANIZER_ONLY, FOUND, FOUND, MISSING),
    row("POST", f"{MANAGE}bots/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}rounds/", "private", {}, *ORGANIZER_ONLY, "409", "409", MISSING),
    row("POST", f"{MANAGE}corrections/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    # An event played online moves no table to the room.
    row("POST", f"{MANAGE}round-tables/<int:number>/move/", "private", {"place": "room"},
        *ORGANIZER_ONLY, "400", "400", MISSING),
    # A round in play: the organizer is told so (409).
    row("POST", f"{MANAGE}publish/", "private", None, *ORGANIZER_ONLY, "409", "409", MISSING),
    # No text to announce (400); no announcement 1 to withdraw (404).
    row("POST", f"{MANAGE}announcements/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}announcements/<int:number>/withdraw/", "private", None,
        *ORGANIZER_ONLY, "404", "404", MISSING),
    # Deputies: no account named (400), none to remove (404); for the organizer alone.
    row("POST", f"{MANAGE}deputies/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}deputies/<int:user_id>/remove/", "private", None,
        *ORGANIZER_ONLY, "404", "404", MISSING),
    # No call 1 to answer or close (404).
    row("POST", f"{MANAGE}calls/<int:number>/answer/", "private", None,
        *ORGANIZER_ONLY, "404", "404", MISSING),
    row("POST", f"{MANAGE}calls/<int:number>/close/", "private", None,
        *ORGANIZER_ONLY, "404", "404", MISSING),
    # No seat or player named (400).
    row("POST", f"{MANAGE}seats/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}disqualifications/", "private", {},
        *ORGANIZER_ONLY, "400", "400", MISSING),
    # The round clock: no round named (400), for who directs the event alone.
    row("POST", f"{MANAGE}clock/call/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    row("POST", f"{MANAGE}clock/extend/", "private", {}, *ORGANIZER_ONLY, "400", "400", MISSING),
    # A call from the table with no reason: the body is read first (400), whoever asks,
    # so it tells nobody whether the event exists; the API's calls are answered and
    # closed by who directs the event alone.
    row("POST", "api/events/<str:code>/tables/<str:game_code>/calls/", "private", {},
        UNAUTHENTICATED, *(INVALID,) * 6),
    row("POST", "api/events/<str:code>/calls/<int:number>/answer/", "private", None,
        UNAUTHENTICATED, "403:not_organizer", "403:not_organizer", "403:not_organizer",
        "404:call_not_found", "404:call_not_found", "404:event_not_found"),
    row("POST", "api/events/<str:code>/calls/<int:number>/close/", "private", {},
        UNAUTHENTICATED, "403:not_organizer", "403:not_organizer", "403:not_organizer",
        "404:call_not_found", "404:call_not_found", "404:event_not_found"),
    # Last: each changes the event or its table, and the next row puts it back.
    row("POST", f"{MANAGE}tables/<str:game_code>/pause/", "private", None,
        *ORGANIZER_ONLY, FOUND, FOUND, MISSING),
    row("POST", f"{MANAGE}tables/<str:game_code>/resume/", "private", None,
        *ORGANIZER_ONLY, FOUND, FOUND, MISSING),
    row("POST", f"{MANAGE}players/<int:player_id>/withdraw/", "private", None,
        *ORGANIZER_ONLY, FOUND, FOUND, MISSING),
    row("POST", "events/<str:code>/withdraw/", "private", None,
        FOUND, FOUND, FOUND, FOUND, "409", "409", MISSING),
    # The organizer's printouts of round 1 (the private event's tables play online: no
    # card or sheet to print, and no table of it to print alone).
    row("GET", f"{MANAGE}rounds/<int:number>/seating/", "private", None,
        *ORGANIZER_ONLY, OK, OK, MISSING),
    row("GET", f"{MANAGE}rounds/<int:number>/cards/", "private", None,
        *ORGANIZER_ONLY, OK, OK, MISSING),
    row("GET", f"{MANAGE}rounds/<int:number>/sheets/", "private", None,
        *ORGANIZER_ONLY, OK, OK, MISSING),
    row("GET", f"{MANAGE}tables/<str:game_code>/print/", "private", None,
        *ORGANIZER_ONLY, MISSING, MISSING, MISSING),
]

SOCKET_ROWS = [
    # "CONNECT": what the socket sends first; any other: a message's type, sent on it.
    row("CONNECT", "ws/health/", "public", None, *("hello",) * 7),
    row("ping", "ws/health/", "public", {}, *("pong",) * 7),
    row("CONNECT", "ws/events/<str:code>/", "private", None,
        CLOSED, EVENT, EVENT, EVENT, EVENT, EVENT, CLOSED),
    row("refresh", "ws/events/<str:code>/", "private", {},
        CLOSED, EVENT, EVENT, EVENT, EVENT, EVENT, CLOSED),
    row("ping", "ws/events/<str:code>/", "private", {},
        CLOSED, "pong", "pong", "pong", "pong", "pong", CLOSED),
    # A table's desk: its announcements and, for a player there, their call.
    row("CONNECT", "ws/events/<str:code>/tables/<str:game_code>/", "private", None,
        CLOSED, "desk", "desk", "desk", "desk", "desk", CLOSED),
    row("refresh", "ws/events/<str:code>/tables/<str:game_code>/", "private", {},
        CLOSED, "desk", "desk", "desk", "desk", "desk", CLOSED),
    row("ping", "ws/events/<str:code>/tables/<str:game_code>/", "private", {},
        CLOSED, "pong", "pong", "pong", "pong", "pong", CLOSED),
    row("CONNECT", "ws/games/<str:ref>/", "public", None, *(STATE,) * 7),
    row("CONNECT", "ws/games/<str:ref>/", "private", None,
        CLOSED, STATE, STATE, STATE, STATE, STATE, CLOSED),
    row("resync", "ws/games/<str:ref>/", "public", {}, *(STATE,) * 7),
    row("resync", "ws/games/<str:ref>/", "private", {},
        CLOSED, STATE, STATE, STATE, STATE, STATE, CLOSED),
    row("ping", "ws/games/<str:ref>/", "public", {}, *("pong",) * 7),
    row("ping", "ws/games/<str:ref>/", "private", {},
        CLOSED, "pong", "pong", "pong", "pong", "pong", CLOSED),
    row("resume", "ws/games/<str:ref>/", "public", {"version": 0}, *("events",) * 7),
    row("resume", "ws/games/<str:ref>/", "private", {"version": 0},
        CLOSED, "events", "events", "events", "events", "events", CLOSED),
    row("bid", "ws/games/<str:ref>/", "public", BID,
        WS_ANONYMOUS, "error:bid_out_of_range", WS_NOT_TURN, WS_NOT_SEATED, WS_NOT_SEATED,
        WS_NOT_SEATED, WS_NOT_SEATED),
    row("bid", "ws/games/<str:ref>/", "private", BID,
        CLOSED, "error:bid_out_of_range", WS_NOT_TURN, WS_NOT_SEATED, WS_NOT_SEATED,
        WS_NOT_SEATED, CLOSED),
    row("play", "ws/games/<str:ref>/", "public", PLAY,
        WS_ANONYMOUS, WS_PHASE, WS_PHASE, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED,
        WS_NOT_SEATED),
    row("play", "ws/games/<str:ref>/", "private", PLAY,
        CLOSED, WS_PHASE, WS_PHASE, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED, CLOSED),
    row("zero_play", "ws/games/<str:ref>/", "public", {},
        WS_ANONYMOUS, WS_NO_ZERO, WS_NO_ZERO, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED,
        WS_NOT_SEATED),
    row("zero_play", "ws/games/<str:ref>/", "private", {},
        CLOSED, WS_NO_ZERO, WS_NO_ZERO, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED, CLOSED),
    row("one_card_mode", "ws/games/<str:ref>/", "public", MODE,
        WS_ANONYMOUS, WS_PHASE, WS_PHASE, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED,
        WS_NOT_SEATED),
    row("one_card_mode", "ws/games/<str:ref>/", "private", MODE,
        CLOSED, WS_PHASE, WS_PHASE, WS_NOT_SEATED, WS_NOT_SEATED, WS_NOT_SEATED, CLOSED),
    row("seat_bot", "ws/games/<str:ref>/", "public", SEAT_BOT,
        WS_ANONYMOUS, ACK, WS_NOT_SEATED, WS_NOT_SEATED, ACK, WS_NOT_SEATED, WS_NOT_SEATED),
    row("seat_bot", "ws/games/<str:ref>/", "private", SEAT_BOT,
        CLOSED, ACK, WS_NOT_SEATED, WS_NOT_SEATED, ACK, ACK, CLOSED),
    row("chat", "ws/games/<str:ref>/", "public", PHRASE,
        WS_ANONYMOUS, ACK, ACK, *(WS_PLAYERS_ONLY,) * 4),
    row("chat", "ws/games/<str:ref>/", "private", PHRASE,
        CLOSED, *(WS_CHAT_OFF,) * 5, CLOSED),
    row("chat_report", "ws/games/<str:ref>/", "public", {"message": NO_MESSAGE},
        WS_ANONYMOUS, *("error:message_not_found",) * 6),
    row("chat_report", "ws/games/<str:ref>/", "private", {"message": NO_MESSAGE},
        CLOSED, *("error:message_not_found",) * 5, CLOSED),
]
# fmt: on


# --- The tables and the people ------------------------------------------------------


@dataclass
class Scene:
    """The public table, the private event and its table, and who each role is."""

    games: dict[str, Game]
    event: Event
    season_id: uuid.UUID
    users: dict[str, dict[str, User | None]]
    # The id of the private table's player who is not to act (the organizer's target).
    entrant_id: int
    # Each user's clients, signed in (a client loads the middleware: that takes time).
    clients: dict[tuple[bool, int | None], Client] = field(default_factory=dict)

    def client(self, user: User | None, *, api: bool) -> Any:
        key = (api, None if user is None else user.pk)
        client = self.clients.get(key)
        if client is None:
            client = self.clients[key] = APIClient() if api else Client()
            if user is not None and not api:
                client.force_login(user)
        return client

    def cookie(self, user: User) -> bytes:
        session = self.client(user, api=False).cookies[settings.SESSION_COOKIE_NAME].value
        return f"{settings.SESSION_COOKIE_NAME}={session}".encode()

    def player_seat(self, target: str) -> int:
        return int(load_table(self.games[target].id).game.turn)

    def url(self, route: str, target: str) -> str:
        game = self.games[target]
        return "/" + (
            route.replace("<str:ref>", game.code)
            .replace("<str:game_code>", game.code)
            .replace("<str:code>", self.event.code)
            .replace("<uuid:season_id>", str(self.season_id))
            .replace("<int:player_id>", str(self.entrant_id))
            .replace("<int:number>", "1")
            .replace("<int:user_id>", str(self.entrant_id))
            # A reset link that is no account's: the page says it does not work.
            .replace("<uidb64>", "MQ")
            .replace("<token>", "not-a-token")
            .replace("<int:message>", str(NO_MESSAGE))
        )

    def body(self, body: dict[str, Any] | None, target: str) -> dict[str, Any] | None:
        if body is None:
            return None
        filled = {"seat": self.player_seat(target), "code": self.games[target].code}
        return {
            key: filled["seat"]
            if value == PLAYER_SEAT
            else filled["code"]
            if value == GAME_CODE
            else value
            for key, value in body.items()
        }


def _acting(game: Game) -> tuple[User, User]:
    """The seated user to act and one not to act."""
    table = load_table(game.id)
    seats = [seat.user_id for seat in table.seats if seat is not None]
    turn = table.game.turn
    to_act = User.objects.get(pk=seats[turn])
    other = User.objects.get(pk=seats[(turn + 1) % len(seats)])
    return to_act, other


def make_scene() -> Scene:
    event, organizer, _, (private, elsewhere) = private_event_round(8)
    creator = UserFactory.create()
    public = game_create(
        creator=creator, player_count=4, preset="romanian-standard", options=SHORT_RULES
    )
    for number, user in enumerate(UserFactory.create_batch(4)):
        game_join(game_id=public.id, user=user, alias=f"Player {number + 1}")
    public.refresh_from_db()
    outsider = UserFactory.create()
    spectator = User.objects.get(pk=elsewhere.seats[0]["user_id"])
    season = season_create(organizer=organizer, name="Sezonul 1")
    users: dict[str, dict[str, User | None]] = {}
    for target, game, game_creator in (
        ("public", public, creator),
        ("private", private, organizer),
    ):
        player, other = _acting(game)
        assert load_table(game.id).game.phase.value == "bidding"
        users[target] = {
            "anonymous": None,
            "player": player,
            "other": other,
            "spectator": spectator,
            "creator": game_creator,
            "organizer": organizer,
            "outsider": outsider,
        }
    return Scene(
        {"public": public, "private": private},
        event,
        season.id,
        users,
        users["private"]["other"].pk,  # type: ignore[union-attr]
    )


# --- Asking ---------------------------------------------------------------------------


def _answer(response: Any) -> str:
    status = str(response.status_code)
    if (
        response.get("Content-Type", "").startswith("application/json")
        and response.status_code >= 400
    ):
        code = response.json().get("code")
        return f"{status}:{code}" if code else status
    return status


def ask(scene: Scene, checked: Row, role: str) -> str:
    user = scene.users[checked.target][role]
    url = scene.url(checked.route, checked.target)
    body = scene.body(checked.body, checked.target)
    # Every role asks from one address: no throttle's count may carry over.
    forget_throttle_counts()
    if checked.route.startswith("api/"):
        api = scene.client(user, api=True)
        if user is not None:
            # Asked anew each time: logging out revokes the token.
            api.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
        call = api.get if checked.method == "GET" else api.post
        return _answer(call(url, body, format="json") if body is not None else call(url))
    client = scene.client(user, api=False)
    call = client.get if checked.method == "GET" else client.post
    answer = _answer(call(url, body or {}))
    if user is not None and checked.route == "accounts/logout/":
        client.force_login(user)
    return answer


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every URL pattern as its route, with its view; the admin as one."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver) and route != "admin/":
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLResolver | URLPattern):
            yield route, getattr(pattern, "callback", None)


# --- The checks -----------------------------------------------------------------------


def test_the_table_names_every_url_every_api_method_and_every_socket_message() -> None:
    routes = dict(_routes(get_resolver().url_patterns))
    assert {checked.route for checked in HTTP_ROWS} == set(routes)
    for route, view in routes.items():
        view_class = getattr(view, "view_class", None)
        if view_class is not None and issubclass(view_class, APIView):
            methods = {m.upper() for m in ("get", "post", "put", "patch", "delete")}
            handled = {m for m in methods if hasattr(view_class, m.lower())}
            assert {r.method for r in HTTP_ROWS if r.route == route} == handled, route
    sockets = {str(pattern.pattern) for pattern in websocket_urlpatterns}
    assert {checked.route for checked in SOCKET_ROWS} == sockets
    for target in ("public", "private"):
        game_messages = {
            r.method for r in SOCKET_ROWS if r.route == "ws/games/<str:ref>/" and r.target == target
        }
        assert game_messages == {
            "CONNECT",
            *consumer.CONTROLS,
            *consumer.COMMANDS,
            *consumer.WORDS,
        }


@pytest.mark.django_db
def test_every_url_answers_every_role_as_the_table_says() -> None:
    scene = make_scene()

    answered = [tuple(ask(scene, checked, role) for role in ROLES) for checked in HTTP_ROWS]

    assert _differences(HTTP_ROWS, answered) == []


def _differences(rows: list[Row], answered: list[tuple[str, ...]]) -> list[str]:
    """Each row answered otherwise than the table says, with what each role got."""
    return [
        f"{checked.method} {checked.route} ({checked.target}): "
        + ", ".join(
            f"{role} {got}" + ("" if got == want else f" (not {want})")
            for role, got, want in zip(ROLES, cells, checked.expected, strict=True)
        )
        for checked, cells in zip(rows, answered, strict=True)
        if cells != checked.expected
    ]


async def _socket_answer(scene: Scene, checked: Row, role: str) -> str:
    user = scene.users[checked.target][role]
    headers = list(ORIGIN)
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(scene.cookie)(user)))
    url = await database_sync_to_async(scene.url)(checked.route, checked.target)
    communicator = WebsocketCommunicator(application, url, headers=headers)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected, url
    try:
        first = await _greeting(communicator)
        if checked.method == "CONNECT" or first == CLOSED:
            return first
        body = await database_sync_to_async(scene.body)(checked.body, checked.target)
        await communicator.send_json_to({"type": checked.method, **(body or {})})
        return _cell(await communicator.receive_json_from(timeout=TIMEOUT))
    finally:
        await communicator.disconnect()


async def _greeting(communicator: WebsocketCommunicator) -> str:
    """What a socket sends on connecting; a refused one is told why, then closed with
    a code: the code is the answer."""
    first = _cell(await communicator.receive_json_from(timeout=TIMEOUT))
    if first.startswith("error:"):
        closed = await communicator.receive_output(timeout=TIMEOUT)
        assert closed["type"] == "websocket.close", closed
        return str(closed["code"])
    return first


def _cell(message: dict[str, Any]) -> str:
    kind = str(message["type"])
    return f"error:{message['code']}" if kind == "error" else kind


@pytest.mark.django_db(transaction=True)
async def test_every_socket_message_answers_every_role_as_the_table_says() -> None:
    scene = await database_sync_to_async(make_scene)()

    answered = [
        tuple([await _socket_answer(scene, checked, role) for role in ROLES])
        for checked in SOCKET_ROWS
    ]

    assert _differences(SOCKET_ROWS, answered) == []
