"""A table's desk socket (/ws/events/<code>/tables/<game code>/) through the whole ASGI
application: the announcements and the seated player's own call, on connecting and
live after each change; nothing for a change that is not theirs; the director's event
socket carries the calls, nobody else's; and who is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import User
from config.asgi import application
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import event_round
from tests.tournaments.test_consumers import ALLOWED_ORIGIN, TIMEOUT, receive, session_cookie
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

Opener = Callable[..., Awaitable[WebsocketCommunicator]]


@pytest.fixture
async def open_socket() -> AsyncIterator[Opener]:
    """Connect to ``path`` (as ``user``, or anonymous); closed after the test."""
    sockets: list[WebsocketCommunicator] = []

    async def connect(path: str, user: User | None = None) -> WebsocketCommunicator:
        headers = list(ALLOWED_ORIGIN)
        if user is not None:
            headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        sockets.append(communicator)
        return communicator

    yield connect
    for communicator in sockets:
        await communicator.disconnect(timeout=TIMEOUT)


def seated(event: Event, game: Game, seat: int) -> User:
    played = services.load_championship(event.id).rounds[0]
    return User.objects.get(pk=played.tables[played.games.index(str(game.id))][seat])


def desk_path(event: Event, game: Game) -> str:
    return f"/ws/events/{event.code}/tables/{game.code}/"


async def a_round(players: int = 8, *, public: bool = True) -> tuple[Event, User, list[Game]]:
    event, director, _, games = await database_sync_to_async(event_round)(players, public=public)
    return event, director, games


def act(service: Callable[..., Any], **kwargs: Any) -> Awaitable[Any]:
    return database_sync_to_async(service)(**kwargs)


async def test_a_seated_players_desk_follows_the_announcements_and_their_call_live(
    open_socket: Opener,
) -> None:
    # Given a player of table 1 on their table's desk
    event, director, games = await a_round()
    player = await database_sync_to_async(seated)(event, games[0], 1)
    desk = await open_socket(desk_path(event, games[0]), player)
    first = await receive(desk)
    assert {key: value for key, value in first.items() if key != "now"} == {
        "type": "desk",
        "announcements": [],
        "may_call": True,
        "call": None,
        # A round without a time limit: no countdown (decision 3407).
        "ends_at": None,
        "time_called": False,
    }
    assert abs((timezone.now() - datetime.fromisoformat(first["now"])).total_seconds()) < 5

    # When the director announces, the player calls, and the director answers and closes
    await act(services.event_announce, event_id=event.id, actor=director, text="Tea is served.")
    announced = await receive(desk)
    await act(
        services.event_call_director,
        event_id=event.id,
        actor=player,
        game_id=games[0].id,
        reason="score",
        text="Check deal 3.",
    )
    called = await receive(desk)
    await act(services.event_answer_call, event_id=event.id, actor=director, number=1)
    answered = await receive(desk)
    await act(services.event_close_call, event_id=event.id, actor=director, number=1, note="OK.")
    closed = await receive(desk)

    # Then the desk hears each, live: the announcement, and the call's three states
    assert [made["text"] for made in announced["announcements"]] == ["Tea is served."]
    assert announced["call"] is None
    assert (called["call"]["state"], called["call"]["reason"], called["call"]["text"]) == (
        "waiting",
        "score",
        "Check deal 3.",
    )
    assert answered["call"]["state"] == "answered"
    assert (closed["call"]["state"], closed["call"]["note"]) == ("closed", "OK.")
    assert closed["announcements"] == announced["announcements"]


async def test_a_desk_hears_nothing_of_another_tables_call_and_no_one_elses_call(
    open_socket: Opener,
) -> None:
    # Given a player's desk at table 1, and a spectator's
    event, _, games = await a_round()
    player = await database_sync_to_async(seated)(event, games[0], 0)
    tablemate = await database_sync_to_async(seated)(event, games[0], 2)
    other = await database_sync_to_async(seated)(event, games[1], 0)
    desk = await open_socket(desk_path(event, games[0]), player)
    watching = await open_socket(desk_path(event, games[0]))
    await receive(desk)
    assert (await receive(watching))["may_call"] is False

    # When a player of table 2 and a tablemate call the director
    await act(
        services.event_call_director,
        event_id=event.id,
        actor=other,
        game_id=games[1].id,
        reason="other",
    )
    await act(
        services.event_call_director,
        event_id=event.id,
        actor=tablemate,
        game_id=games[0].id,
        reason="other",
    )

    # Then neither desk is sent anything: nothing it shows changed
    assert await desk.receive_nothing(timeout=0.5)
    assert await watching.receive_nothing(timeout=0.5)


async def test_only_the_directors_event_socket_carries_the_calls(open_socket: Opener) -> None:
    # Given the director's and a player's event sockets
    event, director, games = await a_round(4)
    player = await database_sync_to_async(seated)(event, games[0], 3)
    directing = await open_socket(f"/ws/events/{event.code}/", director)
    playing = await open_socket(f"/ws/events/{event.code}/", player)
    assert (await receive(directing))["event"]["calls"] == []
    assert "calls" not in (await receive(playing))["event"]

    # When the player calls the director
    await act(
        services.event_call_director,
        event_id=event.id,
        actor=player,
        game_id=games[0].id,
        reason="technical",
    )

    # Then the director's picture holds the call, and the player's none
    calls = (await receive(directing))["event"]["calls"]
    assert [(call["number"], call["name"], call["table"], call["seat"]) for call in calls] == [
        (1, player.display, 1, 3)
    ]
    assert "calls" not in (await receive(playing))["event"]


async def test_a_desk_a_viewer_may_not_see_is_closed_with_4404(open_socket: Opener) -> None:
    # Given a private event's table, and a stranger
    event, _, games = await a_round(4, public=False)
    stranger = await database_sync_to_async(UserFactory.create)()

    # Then the stranger's desk, and a desk of no table of the event, are refused
    for path, viewer, code in (
        (desk_path(event, games[0]), stranger, "event_not_found"),
        (desk_path(event, games[0]), None, "event_not_found"),
        (f"/ws/events/{event.code}/tables/NOSUCH/", None, "event_not_found"),
    ):
        socket = await open_socket(path, viewer)
        assert (await receive(socket))["code"] == code
        assert await socket.receive_output(timeout=TIMEOUT) == {
            "type": "websocket.close",
            "code": 4404,
        }
    player = await database_sync_to_async(seated)(event, games[0], 0)
    unknown = await open_socket(f"/ws/events/{event.code}/tables/NOSUCH/", player)
    assert (await receive(unknown))["code"] == "game_not_found"
