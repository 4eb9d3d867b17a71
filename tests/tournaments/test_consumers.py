"""An event's WebSocket through the whole ASGI application: the picture on connecting,
a fresh one after every change (entries, a round, a hand scored), the viewer's own
seat, privacy, and bad messages."""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import User
from config.asgi import application
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move
from tests.tournaments.drivers import SHORT_RULES, Pictures, organizer
from tournaments import selectors, services, watchdog
from tournaments.models import Event, Standing, TableResult
from tournaments.patches import patched
from tournaments.services import _keep_directors
from tournaments.tasks import update_standings

# Consumers read from worker threads: the data must really be committed.
pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED_ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
TIMEOUT = 10


def session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    session_id = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session_id}".encode()


Opener = Callable[..., Awaitable[WebsocketCommunicator]]


@pytest.fixture
async def open_socket() -> AsyncIterator[Opener]:
    """Connect to an event's socket (as ``user``, or anonymous); closed after the test."""
    sockets: list[WebsocketCommunicator] = []

    async def connect(code: str, user: User | None = None) -> WebsocketCommunicator:
        headers = list(ALLOWED_ORIGIN)
        if user is not None:
            headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
        communicator = WebsocketCommunicator(application, f"/ws/events/{code}/", headers=headers)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        sockets.append(communicator)
        return communicator

    yield connect
    for communicator in sockets:
        await communicator.disconnect(timeout=TIMEOUT)


# What each socket holds, as its page would.
_held: weakref.WeakKeyDictionary[WebsocketCommunicator, Pictures] = weakref.WeakKeyDictionary()


async def receive(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The socket's next message; a patch as the whole picture it makes."""
    message: dict[str, Any] = await socket.receive_json_from(timeout=TIMEOUT)
    return _held.setdefault(socket, Pictures()).take(message)


async def receive_until(
    socket: WebsocketCommunicator, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The first message for which ``done`` holds (a change may be announced twice)."""
    while True:
        message = await receive(socket)
        if done(message):
            return message


@database_sync_to_async
def human_event(
    players: int = 3, *, public: bool = True, spectator_delay: int = 0
) -> tuple[Event, User, list[User]]:
    """An event of ``players`` people (no bots: nothing plays by itself), checked in."""
    creator = organizer()
    event = services.event_create(
        organizer=creator,
        name="Cupa Atu",
        rounds=2,
        options=SHORT_RULES,
        public=public,
        spectator_delay=spectator_delay,
    )
    users: list[User] = UserFactory.create_batch(players)
    for user in users:
        services.event_register(event_id=event.id, actor=user)
        services.event_check_in(event_id=event.id, actor=user)
    return Event.objects.get(pk=event.id), creator, users


@database_sync_to_async
def play_first_deal(event: Event, row: TableResult, users: list[User]) -> None:
    """The players play the table's first deal (one card each) to its end, and the
    standings are brought up to date as the worker would."""
    rng = random.Random(3)
    while Game.objects.get(pk=row.game_id).hand == 0:
        next_move(row.game_id, users, rng)
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        update_standings(str(event.id))  # What the worker does, run here.


async def round_watched(
    open_socket: Opener,
) -> tuple[Event, list[User], WebsocketCommunicator, dict[str, Any], TableResult]:
    """An event's first round in play and a spectator's socket on it: the event, its
    players, the socket, its first picture (no standings yet) and the round's table."""
    event, creator, users = await human_event()
    await database_sync_to_async(services.event_start_round)(event_id=event.id, actor=creator)
    socket = await open_socket(event.code)
    before = await receive(socket)
    assert before["event"]["leaderboard"] == []
    row = await database_sync_to_async(TableResult.objects.get)(event_id=event.id)
    return event, users, socket, before, row


async def test_a_spectator_gets_the_events_picture_on_connecting(open_socket: Opener) -> None:
    event, _, users = await human_event()

    socket = await open_socket(event.code)
    message = await receive(socket)

    assert message["type"] == "event"
    assert message["version"] == event.version == 7
    picture = message["event"]
    assert (picture["code"], picture["status"], picture["round"], picture["version"]) == (
        event.code,
        "registration",
        0,
        7,
    )
    assert sorted(entry["player_id"] for entry in picture["entries"]) == sorted(
        user.pk for user in users
    )
    assert picture["leaderboard"] == []
    assert picture["tables"] == []
    assert picture["me"] is None


async def test_adding_bots_sends_a_fresh_picture_with_a_higher_version(
    open_socket: Opener,
) -> None:
    event, creator, _ = await human_event()
    socket = await open_socket(event.code)
    first = await receive(socket)

    await database_sync_to_async(services.event_add_bots)(event_id=event.id, actor=creator, count=2)

    message = await receive(socket)
    assert message["type"] == "event"
    assert message["version"] == first["version"] + 4
    names = [entry["name"] for entry in message["event"]["entries"]]
    assert "Bot001 (bot)" in names
    assert "Bot002 (bot)" in names


async def test_a_change_is_sent_as_a_patch_of_the_picture_the_socket_holds(
    open_socket: Opener,
) -> None:
    # Given an entrant's socket holding the event's picture
    event, creator, users = await human_event()
    socket = await open_socket(event.code, users[0])
    first = await socket.receive_json_from(timeout=TIMEOUT)
    assert first["type"] == "event"

    # When two bots are added
    await database_sync_to_async(services.event_add_bots)(event_id=event.id, actor=creator, count=2)

    # Then the socket is sent a patch of what it holds: the entries added, nothing else
    patch = await socket.receive_json_from(timeout=TIMEOUT)
    assert patch["type"] == "event.patch"
    assert patch["from"] == first["digest"]
    assert patch["digest"] != first["digest"]
    assert patch["version"] == first["version"] + 4
    assert patch["me"] == first["event"]["me"]
    assert set(patch["patch"]["set"]) == {"version"}
    entries = patch["patch"]["rows"]["entries"]
    assert [item["new"]["name"] for item in entries["items"]] == ["Bot001 (bot)", "Bot002 (bot)"]
    # And applied as the page applies it, the picture is the event as this viewer sees it
    live = await database_sync_to_async(selectors.event_live)(event.id, users[0].pk)
    assert {**patched(first["event"], patch["patch"]), "me": patch["me"]} == live


async def test_a_refresh_is_answered_with_the_whole_picture_even_with_nothing_changed(
    open_socket: Opener,
) -> None:
    # Given a socket holding the picture, and a change it was sent as a patch
    event, creator, _ = await human_event()
    socket = await open_socket(event.code)
    await socket.receive_json_from(timeout=TIMEOUT)
    await database_sync_to_async(services.event_add_bots)(event_id=event.id, actor=creator, count=2)
    patch = await socket.receive_json_from(timeout=TIMEOUT)
    assert patch["type"] == "event.patch"

    # When the page asks again (a patch that did not fit what it held)
    await socket.send_json_to({"type": "refresh"})

    # Then it gets the whole picture, the one the patch made
    whole = await socket.receive_json_from(timeout=TIMEOUT)
    assert whole["type"] == "event"
    assert whole["digest"] == patch["digest"]
    # And a change after it comes as a patch again, from it
    await database_sync_to_async(services.event_add_bots)(event_id=event.id, actor=creator, count=1)
    following = await socket.receive_json_from(timeout=TIMEOUT)
    assert (following["type"], following["from"]) == ("event.patch", whole["digest"])


async def test_starting_a_round_sends_its_tables_and_each_player_their_seat(
    open_socket: Opener,
) -> None:
    # Given a spectator and a player watching the event
    event, creator, users = await human_event()
    spectator = await open_socket(event.code)
    player = await open_socket(event.code, users[0])
    await receive(spectator)
    waiting = await receive(player)
    assert waiting["event"]["me"] == {
        "player_id": users[0].pk,
        "entered": True,
        "checked_in": True,
        "withdrawn": False,
        "in_room": False,
        "bot_plays": False,
        "seat": None,
    }

    # When the organizer starts round 1
    await database_sync_to_async(services.event_start_round)(event_id=event.id, actor=creator)

    # Then both get the round's table, and the player where to sit
    game = await database_sync_to_async(
        lambda: Game.objects.get(pk=TableResult.objects.get(event_id=event.id).game_id)
    )()
    for socket in (spectator, player):
        message = await receive(socket)
        assert message["version"] == event.version + 1
        assert message["event"]["round"] == 1
        assert message["event"]["status"] == "running"
        [table] = message["event"]["tables"]
        assert (table["game_code"], table["status"], table["hand"]) == (game.code, "playing", 1)
    seat = next(s["seat"] for s in game.seats if s["user_id"] == users[0].pk)
    assert message["event"]["me"]["seat"] == {
        "round": 1,
        "table": 1,
        "seat": seat + 1,
        "game_code": game.code,
        "status": "playing",
        "tablemates": [s["alias"] for s in game.seats if s["user_id"] != users[0].pk],
    }


async def test_a_hand_scored_sends_the_new_standings_and_table_scores(
    open_socket: Opener,
) -> None:
    # Given a round in play, watched
    event, users, socket, before, row = await round_watched(open_socket)

    # When the players play the first deal (one card each) to its end
    await play_first_deal(event, row, users)

    # Then the socket gets the standings of that hand, at the same event version
    message = await receive_until(socket, lambda m: bool(m["event"]["leaderboard"]))
    assert message["version"] == before["version"]
    standings = await database_sync_to_async(
        lambda: list(Standing.objects.filter(event_id=event.id).values("player_id", "points"))
    )()
    assert [(line["player_id"], line["points"]) for line in message["event"]["leaderboard"]] == [
        (line["player_id"], line["points"]) for line in standings
    ]
    assert len(standings) == 3
    game = await database_sync_to_async(Game.objects.get)(pk=row.game_id)
    [table] = message["event"]["tables"]
    assert [player["score"] for player in table["players"]] == game.scores
    assert table["hands_scored"] == 1


async def test_a_delayed_spectator_sees_a_hand_only_once_the_delay_has_passed(
    open_socket: Opener,
) -> None:
    # Given a round in play with a spectator delay of 5 s, watched by a spectator and
    # by the organizer
    event, creator, users = await human_event(spectator_delay=5)
    await database_sync_to_async(services.event_start_round)(event_id=event.id, actor=creator)
    spectator = await open_socket(event.code)
    organizers = await open_socket(event.code, creator)
    await receive(spectator)
    await receive(organizers)
    row = await database_sync_to_async(TableResult.objects.get)(event_id=event.id)

    # When the first deal is played to its end
    await play_first_deal(event, row, users)
    game = await database_sync_to_async(Game.objects.get)(pk=row.game_id)

    # Then the organizer sees it at once
    live = await receive_until(organizers, lambda m: bool(m["event"]["leaderboard"]))
    assert [p["score"] for p in live["event"]["tables"][0]["players"]] == game.scores
    assert live["event"]["delay"] == 0

    # And the spectator is told of the change, but still sees the table and the
    # leaderboard as they were before the deal was over
    held = await receive(spectator)
    [table] = held["event"]["tables"]
    assert held["event"]["delay"] == 5
    assert (table["hand"], table["hands_scored"]) == (1, 0)
    assert [p["score"] for p in table["players"]] == [0, 0, 0]
    assert held["event"]["leaderboard"] == []

    # And once the delay has passed, the socket sends the deal by itself, as the
    # organizer saw it
    shown = await receive_until(spectator, lambda m: bool(m["event"]["leaderboard"]))
    [table] = shown["event"]["tables"]
    assert (table["hand"], table["hands_scored"]) == (2, 1)
    assert [p["score"] for p in table["players"]] == game.scores
    assert shown["event"]["leaderboard"] == live["event"]["leaderboard"]


async def test_a_private_event_is_refused_to_strangers_with_4404(open_socket: Opener) -> None:
    event, creator, users = await human_event(public=False)
    stranger = await database_sync_to_async(UserFactory.create)()

    for viewer in (None, stranger):
        socket = await open_socket(event.code, viewer)
        error = await receive(socket)
        closed = await socket.receive_output(timeout=TIMEOUT)
        assert error == {
            "type": "error",
            "code": "event_not_found",
            "message": f"there is no championship event {event.code}",
        }
        assert closed == {"type": "websocket.close", "code": 4404}

    for allowed in (creator, users[1]):
        socket = await open_socket(event.code, allowed)
        assert (await receive(socket))["type"] == "event"


async def test_an_unknown_event_is_closed_with_4404(open_socket: Opener) -> None:
    socket = await open_socket("NOSUCH")

    assert (await receive(socket))["code"] == "event_not_found"
    assert await socket.receive_output(timeout=TIMEOUT) == {
        "type": "websocket.close",
        "code": 4404,
    }


async def test_a_client_may_ask_for_a_refresh_and_bad_messages_are_answered(
    open_socket: Opener,
) -> None:
    event, _, _ = await human_event()
    socket = await open_socket(event.code)
    first = await receive(socket)

    await socket.send_json_to({"type": "refresh"})
    assert await receive(socket) == first

    for bad in ('{"type": "bid"}', "not json", "[1]"):
        await socket.send_to(text_data=bad)
        assert await receive(socket) == {
            "type": "error",
            "code": "invalid_input",
            "message": 'the messages are {"type": "refresh"} and {"type": "ping"}',
        }
    await socket.send_to(bytes_data=b"\x00")
    assert (await receive(socket))["code"] == "invalid_input"

    # And the socket stays open
    await socket.send_json_to({"type": "refresh"})
    assert (await receive(socket))["type"] == "event"


async def test_a_socket_from_a_foreign_origin_is_rejected() -> None:
    event, _, _ = await human_event()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/events/{event.code}/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1:8000")],
    )

    connected, _ = await communicator.connect(timeout=TIMEOUT)

    assert connected is False


async def test_a_socket_whose_change_was_lost_gets_the_picture_when_the_watchdog_looks_in(
    open_socket: Opener,
) -> None:
    # Given a round in play, watched, its stamp noted by the watchdog
    event, users, socket, before, row = await round_watched(open_socket)
    assert await watchdog.look_in(quiet_since=time.monotonic()) == 0
    # and its socket out of the event's group, as after a Redis that lost its subscriptions
    (consumer,) = watchdog._WATCHED[event.id].sockets
    await get_channel_layer().group_discard(
        services.event_group(event.id),
        consumer.channel_name,  # type: ignore[attr-defined]
    )

    # When a hand is scored, its broadcast reaching no one
    await play_first_deal(event, row, users)
    assert await socket.receive_nothing(timeout=0.3)
    told = await watchdog.look_in(quiet_since=time.monotonic())

    # Then the watchdog sends the picture with the new standings
    message = await receive(socket)
    assert told == 1
    assert message["version"] == before["version"]
    assert len(message["event"]["leaderboard"]) == 3
    # and, the stamp unchanged, nothing more on the next look
    assert await watchdog.look_in(quiet_since=time.monotonic()) == 0


async def test_a_ping_is_answered_with_the_version_of_the_last_picture(
    open_socket: Opener,
) -> None:
    event, _, _ = await human_event()
    socket = await open_socket(event.code)
    picture = await receive(socket)

    await socket.send_json_to({"type": "ping"})

    assert await receive(socket) == {"type": "pong", "version": picture["version"]}


# --- Who directs the event, followed live (decision 3407) ---------------------------


def directs(message: dict[str, Any]) -> bool:
    picture: dict[str, Any] = message["event"]
    return bool(picture["directs"]) and "calls" in picture


async def test_a_deputy_named_then_removed_sees_the_change_on_the_socket_they_hold(
    open_socket: Opener,
) -> None:
    # Given an account watching the event's page
    event, creator, _ = await human_event()
    deputy = await database_sync_to_async(UserFactory.create)(username="ioana")
    socket = await open_socket(event.code, deputy)
    first = await receive_until(socket, lambda message: message["type"] == "event")
    assert (first["event"]["directs"], "calls" in first["event"]) == (False, False)

    # When the organizer names them a deputy
    await database_sync_to_async(services.event_name_deputy)(
        event_id=event.id, actor=creator, who="ioana"
    )

    # Then the same socket is sent the directors' picture
    named = await receive_until(socket, directs)
    assert named["event"]["calls"] == []

    # When the organizer removes them, then it is sent everyone's again
    await database_sync_to_async(services.event_remove_deputy)(
        event_id=event.id, actor=creator, user_id=deputy.pk
    )
    removed = await receive_until(socket, lambda message: not message["event"]["directs"])
    assert "calls" not in removed["event"]


def test_a_message_replacing_a_waiting_one_keeps_its_news_of_the_directors() -> None:
    named = {"type": "event.changed", "version": 8, "directors": True}
    scored = {"type": "event.changed", "version": 8}

    assert _keep_directors(named, scored) == {**scored, "directors": True}
    assert _keep_directors(scored, {**scored, "version": 9}) == {**scored, "version": 9}
    assert _keep_directors(scored, named) == named
