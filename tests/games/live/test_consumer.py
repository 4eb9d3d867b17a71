"""A table's WebSocket, through the whole ASGI application: views per viewer, live
events, commands and their errors, resuming after a drop, and idle sockets.

Every socket here feeds what it receives to a :class:`ClientView`, a small client:
it keeps what its viewer knows (holdings it saw, bids, tricks, scores, version),
applies ``events`` one by one and insists that each follows the last it had (never
one skipped or sent twice), and is compared with the view built from a fresh
``state``.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import User
from config.asgi import application
from eventlog import store
from games.commands import actions
from games.commands.catalog import COMMANDS
from games.live import fanout
from games.rules import Phase, Visibility, classic, legal_bids, legal_plays
from games.table import stream_of
from games.visibility import VIEWER_MEMBERS, Viewer, event_views, state_view, viewer_of
from games.write import path as writepath
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import play_to_end, seated_game, user_to_act
from tests.games.web.test_api_leaks import Knowledge, check_events, check_state
from tests.runtime.test_lifespan import started_server
from tests.tournaments.drivers import private_event_round

# Consumers read and write from worker threads: the data must really be committed.
pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED_ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
# Generous, for PostgreSQL and Redis on a busy machine; only failures wait this long.
TIMEOUT = 10
# Deals 1 (the dealer chooses), 3, 5, 7, 8, 7, 5, 3, 1 (the dealer chooses).
SHORT_CHOOSING = {
    "schedule": "1-8-1",
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
    "step": 2,
    "one_card_mode": "dealer-choice",
}
# Deals 1, 1, 1 (the dealers choose), 3, 5, 7, 8, 7, 5, 3, 1, 1, 1 (they choose).
ONE_CARD_FIRST = {**SHORT_CHOOSING, "repeat_one_card_deals": True}


# --- A client's side -------------------------------------------------------------------


def _sorted(cards: list[str] | None) -> list[str] | None:
    return None if cards is None else sorted(cards)


@dataclass
class ClientView:
    """What a client knows of the game, from the messages it received."""

    version: int = 0
    scores: list[int] = field(default_factory=list)
    hands_scored: int = 0
    zero_play: list[bool] = field(default_factory=list)
    holdings: list[list[str] | None] | None = None
    bids: list[int | None] | None = None
    tricks: list[int] | None = None
    trick: list[str] | None = None

    def knowledge(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def apply(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            assert message["version"] == message["state"]["version"]
            self.from_state(message["state"])
        elif message["type"] == "events":
            for event in message["events"]:
                assert event["sequence"] == self.version + 1, (
                    f"event {event['sequence']} arrived after version {self.version}"
                )
                self.event(event["type"], event["payload"])
                self.version = event["sequence"]
            assert self.version == message["version"]

    def from_state(self, state: dict[str, Any]) -> None:
        self.version = state["version"]
        self.scores = list(state["scores"])
        self.hands_scored = len(state["results"])
        self.zero_play = list(state["zero_play"])
        hand = state["hand"]
        if hand is None or "holdings" not in hand:
            self.holdings = self.bids = self.tricks = self.trick = None
        else:
            self.holdings = [_sorted(cards) for cards in hand["holdings"]]
            self.bids = list(hand["bids"])
            self.tricks = list(hand["tricks"])
            self.trick = list(hand["trick"]["cards"])

    def event(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "GameStarted":
            self.scores = [0] * payload["player_count"]
            self.zero_play = [False] * payload["player_count"]
        elif kind == "HandDealt":
            self.holdings = [_sorted(cards) for cards in payload["hands"]]
            self.bids = [None] * len(payload["hands"])
            self.tricks = [0] * len(payload["hands"])
            self.trick = []
        elif kind == "BidPlaced":
            assert self.bids is not None and self.holdings is not None
            self.bids[payload["seat"]] = payload["bid"]
            for seat, cards in payload.get("shown", {}).items():
                self.holdings[int(seat)] = _sorted(cards)
        elif kind == "CardPlayed":
            assert self.trick is not None and self.holdings is not None
            self.trick.append(payload["card"])
            held = self.holdings[payload["seat"]]
            if held is not None:
                held.remove(payload["card"])
        elif kind == "TrickTaken":
            assert self.tricks is not None
            self.tricks[payload["winner"]] += 1
            self.trick = []
        elif kind == "HandScored":
            self.scores = list(payload["totals"])
            self.hands_scored += 1
            self.holdings = self.bids = self.tricks = self.trick = None
        elif kind == "ZeroPlayAnnounced":
            self.zero_play[payload["seat"]] = True
        elif kind == "GameFinished":
            self.scores = list(payload["scores"])


class Socket:
    """A WebSocket client: everything it received, and its :class:`ClientView`."""

    def __init__(
        self, communicator: WebsocketCommunicator, name: str, view: ClientView | None
    ) -> None:
        self.communicator = communicator
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        # None: a client that only records what it receives.
        self.view = view
        self.open = True

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout=TIMEOUT)
        self.messages.append(message)
        if message["type"] == "ack":
            self.acks.append(message)
        elif message["type"] == "error":
            self.errors.append(message)
        elif self.view is not None:
            self.view.apply(message)
        return message

    async def receive_until(self, version: int) -> list[dict[str, Any]]:
        """Receive until the view reaches ``version``; the messages received."""
        assert self.view is not None
        start = len(self.messages)
        while self.view.version < version:
            await self.receive()
        return self.messages[start:]

    async def send(self, content: Any) -> None:
        await self.communicator.send_json_to(content)

    async def ask(self, content: Any) -> dict[str, Any]:
        """Send a message and return the answer (the next message received)."""
        await self.send(content)
        return await self.receive()

    async def nothing_more(self) -> None:
        assert await self.communicator.receive_nothing(timeout=0.3), self.name

    async def close(self) -> None:
        if self.open:
            self.open = False
            await self.communicator.disconnect(timeout=TIMEOUT)


def session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    session_id = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session_id}".encode()


Opener = Callable[..., Awaitable[Socket]]


@pytest.fixture
async def open_socket() -> AsyncIterator[Opener]:
    """Connect a socket (as ``user``, or anonymous); each is closed after the test."""
    sockets: list[Socket] = []

    async def connect(
        ref: object,
        user: User | None = None,
        *,
        query: str = "",
        receive: bool = True,
        view: ClientView | None = None,
        track: bool = True,
    ) -> Socket:
        """``view``: the client's view so far (a client coming back); ``track=False``:
        a client that only records what it receives."""
        headers = list(ALLOWED_ORIGIN)
        if user is not None:
            headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
        communicator = WebsocketCommunicator(
            application, f"/ws/games/{ref}/{query}", headers=headers
        )
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        name = user.username if user is not None else "anonymous"
        socket = Socket(communicator, name, view or (ClientView() if track else None))
        sockets.append(socket)
        if receive:
            await socket.receive()
        return socket

    yield connect
    for socket in sockets:
        await socket.close()


# --- The game side ---------------------------------------------------------------------


@database_sync_to_async
def seated(
    players: int = 4, preset: str = "championship", options: dict[str, Any] | None = None
) -> tuple[uuid.UUID, list[User]]:
    return seated_game(players, preset, options)


@database_sync_to_async
def log_version(game_id: uuid.UUID) -> int:
    return store.version(stream_of(game_id))


@database_sync_to_async
def knowledge(game_id: uuid.UUID) -> Knowledge:
    return Knowledge(game_id)


@database_sync_to_async
def server_view(game_id: uuid.UUID, user: User | None) -> dict[str, Any]:
    """The whole state as the viewer policy shows it to ``user`` now."""
    table = load_table(game_id)
    return state_view(game_id, table, viewer_of(game_id, table, user.pk if user else None))


@database_sync_to_async
def server_events(game_id: uuid.UUID, user: User | None, after: int) -> list[dict[str, Any]]:
    table = load_table(game_id)
    records = store.read(stream_of(game_id))
    return event_views(records, viewer_of(game_id, table, user.pk if user else None), after=after)


@database_sync_to_async
def after_move(
    game_id: uuid.UUID, viewers: list[User | None]
) -> tuple[Knowledge, list[dict[str, Any]]]:
    """What the log says now, and the state each viewer gets from the viewer policy
    (read in one go: each call to the database costs a connection in the tests)."""
    table = load_table(game_id)
    views = [
        state_view(game_id, table, viewer_of(game_id, table, user.pk if user else None))
        for user in viewers
    ]
    return Knowledge(game_id), views


async def one_card_hands(
    game_id: uuid.UUID, users: list[User], viewers: list[User | None], rng: random.Random
) -> AsyncIterator[tuple[Knowledge, list[dict[str, Any]]]]:
    """Make the moves of the three one-card hands (forehead, blind, open) and the first
    bids of the next, one by one: after each, what the log says and each viewer's view."""
    for _ in range(3 * 7 + 4):
        seat, command = await must_move(game_id, rng)
        await serve(game_id, users[seat], command)
        yield await after_move(game_id, viewers)


def view_of(state: dict[str, Any]) -> dict[str, Any]:
    view = ClientView()
    view.from_state(state)
    return view.knowledge()


# How the dealers choose to play the one-card hands (by hand number; otherwise open).
MODES = {0: Visibility.FOREHEAD, 1: Visibility.BLIND}


@database_sync_to_async
def next_command(game_id: uuid.UUID, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """The seat to act and a legal command for it, as its client would send it."""
    table = load_table(game_id)
    game = table.game
    common: dict[str, Any] = {"expected_version": table.version}
    if game.phase is Phase.FINISHED:
        return None
    if game.phase is Phase.CHOOSING_MODE:
        mode = MODES.get(game.hand, Visibility.OPEN).value
        return game.turn, {"type": "one_card_mode", "mode": mode, **common}
    if game.phase is Phase.BIDDING:
        return game.turn, {"type": "bid", "bid": rng.choice(legal_bids(game)), **common}
    assert game.phase is Phase.PLAYING
    card = rng.choice(legal_plays(game))
    # On the forehead a player cannot name their card: they play it unnamed.
    named = None if game.visibility is Visibility.FOREHEAD else str(card)
    return game.turn, {"type": "play", "card": named, **common}


async def must_move(game_id: uuid.UUID, rng: random.Random) -> tuple[int, dict[str, Any]]:
    move = await next_command(game_id, rng)
    assert move is not None, "the game is over"
    return move


@database_sync_to_async
def serve(game_id: uuid.UUID, user: User, command: dict[str, Any]) -> writepath.CommandResult:
    """Make a move without a socket, as the REST API or another device would."""
    arguments = {key: value for key, value in command.items() if key != "type"}
    service = {
        "bid": actions.game_place_bid,
        "play": actions.game_play_card,
        "one_card_mode": actions.game_choose_one_card_mode,
    }[command["type"]]
    return service(game_id=game_id, actor=user, **arguments)


# --- Connecting ------------------------------------------------------------------------


async def test_each_seat_a_spectator_and_an_anonymous_visitor_get_their_own_state(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    spectator = await database_sync_to_async(UserFactory.create)()
    viewers: list[tuple[User | None, int | None]] = [
        *((user, seat) for seat, user in enumerate(users)),
        (spectator, None),
        (None, None),
    ]
    known = await knowledge(game_id)

    for user, seat in viewers:
        socket = await open_socket(game_id, user)
        (message,) = socket.messages

        assert message["type"] == "state"
        assert message["version"] == known.version
        assert message["state"] == await server_view(game_id, user)
        assert message["state"]["you"] == seat
        check_state(message["state"], known, seat, socket.name)
        holdings = message["state"]["hand"]["holdings"]
        assert [cards is not None for cards in holdings] == [n == seat for n in range(4)]


async def test_a_game_is_found_by_its_share_code_too(open_socket: Opener) -> None:
    game_id, users = await seated()
    code = (await server_view(game_id, None))["code"]

    socket = await open_socket(code.lower(), users[2])

    assert socket.messages[0]["state"]["id"] == str(game_id)
    assert socket.messages[0]["state"]["you"] == 2


@pytest.mark.parametrize("ref", ["NOPE99", str(uuid.uuid4()), "x" * 40, "no.such.game"])
async def test_an_unknown_game_is_answered_with_an_error_and_closed_with_4404(
    ref: str, open_socket: Opener
) -> None:
    socket = await open_socket(ref, receive=False)

    error = await socket.receive()
    closed = await socket.communicator.receive_output(timeout=TIMEOUT)

    assert error["type"] == "error"
    assert error["code"] == "game_not_found"
    assert error["version"] is None
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_a_private_events_table_is_closed_with_4404_to_an_outsider_and_open_to_entrants(
    open_socket: Opener,
) -> None:
    # Given a table of a private event, a player at another of its tables, and a stranger
    _, organizer, entrants, (table, _) = await database_sync_to_async(private_event_round)(8)
    seated_ids = {seat["user_id"] for seat in table.seats}
    entrant_elsewhere = next(user for user in entrants if user.pk not in seated_ids)
    stranger = await database_sync_to_async(UserFactory.create)()

    # When the stranger or an anonymous visitor opens its socket, by id or code
    for viewer, ref in [(stranger, table.id), (None, table.code)]:
        socket = await open_socket(ref, viewer, receive=False)
        error = await socket.receive()
        closed = await socket.communicator.receive_output(timeout=TIMEOUT)

        # Then it is answered as a game that does not exist
        assert (error["type"], error["code"], error["version"]) == ("error", "game_not_found", None)
        assert closed == {"type": "websocket.close", "code": 4404}
    # While the organizer and the event's other entrants watch it
    for viewer in (organizer, entrant_elsewhere):
        socket = await open_socket(table.code, viewer)
        assert socket.messages[0]["type"] == "state"
        assert socket.messages[0]["state"]["you"] is None


async def test_a_socket_from_a_foreign_origin_is_rejected() -> None:
    game_id, _ = await seated()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1:8000")],
    )

    connected, _ = await communicator.connect(timeout=TIMEOUT)

    assert connected is False


@pytest.mark.parametrize(
    "origin", [b"http://localhost:1", b"http://127.0.0.1:6666", b"https://127.0.0.1:8000"]
)
async def test_a_page_of_another_port_or_scheme_cannot_open_a_players_socket(
    origin: bytes,
) -> None:
    # Given a player signed in at http://127.0.0.1:8000, whose browser sends their
    # cookie along with a socket that a page elsewhere opens
    game_id, users = await seated()
    cookie = await database_sync_to_async(session_cookie)(users[0])
    communicator = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"origin", origin), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)],
    )

    connected, _ = await communicator.connect(timeout=TIMEOUT)

    assert connected is False


# --- Playing over sockets --------------------------------------------------------------


# Moves are written from the event loop on PostgreSQL only (production mode); on
# embedded SQLite they go through the worker thread alone.
WRITERS = (
    ["thread", "loop"]
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    else ["thread"]
)


@pytest.fixture(params=WRITERS)
async def writes(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """Where the socket's moves are written: from the worker thread, as without a
    server's lifespan, or from the loop itself, as a server process on PostgreSQL
    writes them (games.write.path.execute_on_loop)."""
    if request.param == "thread":
        yield "thread"
        return
    async with started_server():
        async with asyncio.timeout(TIMEOUT):
            while not store.writes_on_loop():
                await asyncio.sleep(0.01)
        yield "loop"


async def test_moves_over_sockets_reach_every_socket_in_order_and_as_its_viewer_may_see_them(
    open_socket: Opener, writes: str
) -> None:
    game_id, users = await seated(3, "romanian-standard", ONE_CARD_FIRST)
    spectator = await database_sync_to_async(UserFactory.create)()
    viewers: list[User | None] = [*users, spectator, None]
    sockets = [await open_socket(game_id, user) for user in viewers]
    rng = random.Random(7)
    modes: list[str] = []

    # The three one-card hands (forehead, blind, open), then a hand of three cards.
    for _ in range(3 * 7 + 12):
        seat, command = await must_move(game_id, rng)
        if command["type"] == "one_card_mode":
            modes.append(command["mode"])
        before = sockets[seat].view.version if sockets[seat].view else 0
        ack = await sockets[seat].ask(command)
        known, views = await after_move(game_id, viewers)

        assert ack == {"type": "ack", "version": known.version, "command": command["type"]}
        for socket, user, view in zip(sockets, viewers, views, strict=True):
            viewer_seat = users.index(user) if user in users else None
            received = await socket.receive_until(known.version)
            events = [event for message in received for event in message["events"]]
            assert [event["sequence"] for event in events] == list(
                range(before + 1, known.version + 1)
            )
            check_events(events, known, viewer_seat, socket.name)
            assert socket.view is not None
            assert socket.view.knowledge() == view_of(view)

    # The rest of the game, made without the sockets: they catch up from the log.
    await database_sync_to_async(play_to_end)(game_id, users, seed=7)
    known, views = await after_move(game_id, viewers)
    assert known.finished
    for socket, user, view in zip(sockets, viewers, views, strict=True):
        viewer_seat = users.index(user) if user in users else None
        received = await socket.receive_until(known.version)
        check_events([e for m in received for e in m["events"]], known, viewer_seat, socket.name)
        await socket.nothing_more()
        assert socket.view is not None
        built = socket.view.knowledge()
        resync = await socket.ask({"type": "resync"})
        assert resync == {"type": "state", "version": known.version, "state": view}
        assert built == view_of(view)
        assert not socket.errors
    assert modes == ["forehead", "blind", "open"]


async def test_a_command_out_of_turn_or_without_a_seat_is_an_error_and_the_socket_stays_open(
    open_socket: Opener, writes: str
) -> None:
    game_id, users = await seated()
    table = await database_sync_to_async(load_table)(game_id)
    turn = table.game.turn
    waiting = await open_socket(game_id, users[(turn + 1) % 4])
    to_act = await open_socket(game_id, users[turn])
    stranger = await open_socket(game_id, await database_sync_to_async(UserFactory.create)())
    anonymous = await open_socket(game_id)
    version = table.version

    out_of_turn = await waiting.ask({"type": "bid", "bid": 0})
    no_seat = await stranger.ask({"type": "bid", "bid": 0})
    not_signed_in = await anonymous.ask({"type": "play", "card": "AS"})
    stale = await to_act.ask({"type": "bid", "bid": 0, "expected_version": version - 1})
    not_a_card = await to_act.ask({"type": "play", "card": "ZZ"})
    wrong_phase = await to_act.ask({"type": "play", "card": "AS"})
    no_zero_play = await to_act.ask({"type": "zero_play"})

    assert out_of_turn["type"] == "error"
    assert out_of_turn["code"] == "not_your_turn"
    assert out_of_turn["command"] == "bid"
    assert out_of_turn["message"] == f"it is seat {turn}'s turn, not seat {(turn + 1) % 4}'s"
    assert out_of_turn["version"] == version
    assert no_seat["code"] == "not_your_seat"
    assert not_signed_in["code"] == "not_authenticated"
    assert not_signed_in["command"] == "play"
    assert stale["code"] == "version_conflict"
    assert not_a_card["code"] == "invalid_card"
    assert wrong_phase["code"] == "wrong_phase"
    assert no_zero_play["code"] == "zero_play_not_allowed"
    assert await log_version(game_id) == version
    for socket in (waiting, to_act, stranger, anonymous):
        await socket.nothing_more()

    # Still open: the player to act bids, and everyone sees it.
    bid = {"type": "bid", "bid": 0, "expected_version": version, "idempotency_key": "k1"}
    ack = await to_act.ask(bid)
    assert ack == {"type": "ack", "version": version + 1, "command": "bid"}
    for socket in (waiting, to_act, stranger, anonymous):
        (message,) = await socket.receive_until(version + 1)
        assert message["type"] == "events"
        assert [event["type"] for event in message["events"]] == ["BidPlaced"]

    # A retry with the same key is acknowledged again and makes no second move.
    retry = await to_act.ask(bid)
    assert retry == {"type": "ack", "version": version + 1, "command": "bid", "replayed": True}
    for socket in (waiting, to_act, stranger, anonymous):
        await socket.nothing_more()


async def test_zero_play_and_one_card_mode_commands_reach_their_services(
    open_socket: Opener,
) -> None:
    options = {**SHORT_CHOOSING, "zero_play": "middle"}
    game_id, users = await seated(3, "romanian-standard", options)
    table = await database_sync_to_async(load_table)(game_id)
    dealer = table.game.dealer
    other = (dealer + 1) % 3
    choosing = await open_socket(game_id, users[dealer])
    announcing = await open_socket(game_id, users[other])

    not_the_dealer = await announcing.ask({"type": "one_card_mode", "mode": "blind"})
    announced = await announcing.ask({"type": "zero_play"})
    await choosing.receive_until(announced["version"])
    chosen = await choosing.ask({"type": "one_card_mode", "mode": "blind"})
    await announcing.receive_until(chosen["version"])

    assert not_the_dealer["code"] == "not_the_dealer"
    assert announced == {"type": "ack", "version": table.version + 1, "command": "zero_play"}
    assert chosen["type"] == "ack"
    assert announcing.view.zero_play[other] is True
    assert announcing.view.holdings == [None, None, None]
    assert announcing.view.knowledge() == view_of(await server_view(game_id, users[other]))


@pytest.mark.parametrize(
    ("message", "command", "problem"),
    [
        ([1, 2], None, "JSON object"),
        ("bid", None, "JSON object"),
        ({"bid": 2}, None, "unknown message type"),
        ({"type": "shuffle"}, "shuffle", "unknown message type"),
        ({"type": 7}, None, "unknown message type"),
        ({"type": "bid"}, "bid", "bid: "),
        ({"type": "bid", "bid": "two"}, "bid", "bid: "),
        ({"type": "bid", "bid": 1, "expected_version": -1}, "bid", "expected_version: "),
        ({"type": "play"}, "play", "card: "),
        ({"type": "play", "card": 10}, "play", "card: "),
        ({"type": "play", "card": "10H" * 10}, "play", "card: "),
        ({"type": "one_card_mode", "mode": "sideways"}, "one_card_mode", "mode: "),
        ({"type": "bid", "bid": 1, "idempotency_key": "k" * 101}, "bid", "idempotency_key: "),
        ({"type": "resume"}, "resume", "version is a version"),
        ({"type": "resume", "version": "3"}, "resume", "version is a version"),
        ({"type": "resume", "version": -1}, "resume", "version is a version"),
    ],
)
async def test_malformed_messages_are_invalid_input_and_the_socket_stays_open(
    message: Any, command: str | None, problem: str, open_socket: Opener
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id, users[0])

    error = await socket.ask(message)
    resync = await socket.ask({"type": "resync"})

    assert error["type"] == "error"
    assert error["code"] == "invalid_input"
    assert error["command"] == command
    assert problem in error["message"]
    assert resync["type"] == "state"


async def test_text_that_is_not_json_and_binary_frames_are_invalid_input(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id, users[0])

    await socket.communicator.send_to(text_data="{not json")
    not_json = await socket.receive()
    await socket.communicator.send_to(bytes_data=b'{"type": "resync"}')
    binary = await socket.receive()
    resync = await socket.ask({"type": "resync"})

    assert not_json["code"] == "invalid_input"
    assert binary["code"] == "invalid_input"
    assert resync["type"] == "state"


async def test_a_message_nested_too_deep_is_too_deep_and_the_socket_stays_open(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id, users[0])
    version = await log_version(game_id)

    await socket.communicator.send_to(text_data="[" * 5000 + "]" * 5000)
    error = await socket.receive()
    resync = await socket.ask({"type": "resync"})

    assert error == {
        "type": "error",
        "code": "too_deep",
        "message": "JSON nested deeper than 32 levels",
        "command": None,
        "version": version,
    }
    assert resync["type"] == "state"


async def test_a_message_over_the_size_budget_is_refused_and_the_socket_closed_with_1009(
    open_socket: Opener, settings: Any
) -> None:
    settings.ATU_SOCKET_MAX_BYTES = 1024
    game_id, users = await seated()
    table = await database_sync_to_async(load_table)(game_id)
    bidder = user_to_act(table, users)
    socket = await open_socket(game_id, bidder)

    await socket.send({"type": "bid", "bid": 0, "idempotency_key": "k" * 1024})
    error = await socket.receive()
    closed = await socket.communicator.receive_output(timeout=TIMEOUT)

    assert error == {
        "type": "error",
        "code": "message_too_large",
        "message": "a message is at most 1024 bytes",
        "command": None,
        "version": table.version,
    }
    assert closed == {"type": "websocket.close", "code": 1009}
    assert await log_version(game_id) == table.version


async def test_messages_faster_than_the_rate_budget_are_refused_and_the_socket_closed_with_4429(
    open_socket: Opener, settings: Any
) -> None:
    settings.ATU_SOCKET_RATE = "5/min"
    game_id, users = await seated()
    table = await database_sync_to_async(load_table)(game_id)
    bidder = user_to_act(table, users)
    socket = await open_socket(game_id, bidder)

    answers = [await socket.ask({"type": "resync"}) for _ in range(5)]
    error = await socket.ask({"type": "bid", "bid": 0})
    closed = await socket.communicator.receive_output(timeout=TIMEOUT)
    await socket.send({"type": "bid", "bid": 0})

    assert [answer["type"] for answer in answers] == ["state"] * 5
    assert error == {
        "type": "error",
        "code": "too_many_messages",
        "message": "more than 5 messages in a burst; slow down",
        "command": None,
        "version": table.version,
    }
    assert closed == {"type": "websocket.close", "code": 4429}
    assert await socket.communicator.receive_nothing(timeout=0.3)
    assert await log_version(game_id) == table.version


async def test_a_bug_behind_a_command_is_a_server_error_and_the_socket_stays_open(
    open_socket: Opener, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**arguments: Any) -> writepath.Move:
        raise RuntimeError("a bug")

    monkeypatch.setitem(COMMANDS, "bid", replace(COMMANDS["bid"], move=broken))
    game_id, users = await seated()
    socket = await open_socket(game_id, users[0])

    error = await socket.ask({"type": "bid", "bid": 0})
    resync = await socket.ask({"type": "resync"})

    assert error["code"] == "server_error"
    assert "a bug" not in error["message"]
    assert resync["type"] == "state"
    assert "websocket message 'bid' failed" in caplog.text


# --- Live updates ----------------------------------------------------------------------


async def test_a_broadcast_of_a_version_already_sent_is_ignored_and_none_is_sent_twice(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id)
    version = socket.view.version
    layer = get_channel_layer()
    group = writepath.group_name(game_id)

    # Old news, and news of a version the log does not hold (yet): nothing to send.
    await layer.group_send(group, {"type": "game.events", "version": version})
    await layer.group_send(group, {"type": "game.events", "version": version + 5})
    await socket.nothing_more()

    # Two moves in a row: two broadcasts, each event sent once, in order.
    rng = random.Random(1)
    for _ in range(2):
        seat, command = await must_move(game_id, rng)
        await serve(game_id, users[seat], command)
    now = await log_version(game_id)
    received = await socket.receive_until(now)
    await layer.group_send(group, {"type": "game.events", "version": now})
    await socket.nothing_more()

    events = [event for message in received for event in message["events"]]
    assert [event["sequence"] for event in events] == [version + 1, version + 2]
    assert all(message["version"] == message["events"][-1]["sequence"] for message in received)


async def test_a_user_watching_an_open_table_sees_their_cards_once_they_sit_down(
    open_socket: Opener,
) -> None:
    users = await database_sync_to_async(UserFactory.create_batch)(4)

    @database_sync_to_async
    def open_table() -> uuid.UUID:
        game = actions.game_create(creator=users[0], player_count=4, preset="championship")
        for number, user in enumerate(users[:3]):
            actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
        return game.id

    game_id = await open_table()
    last = await open_socket(game_id, users[3])
    spectator = await open_socket(game_id)
    assert last.messages[0]["state"]["you"] is None

    result = await database_sync_to_async(actions.game_join)(
        game_id=game_id, user=users[3], alias="Last"
    )
    await last.receive_until(result.version)
    await spectator.receive_until(result.version)

    dealt = next(
        event
        for message in last.messages[1:]
        for event in message["events"]
        if event["type"] == "HandDealt"
    )
    assert [cards is not None for cards in dealt["payload"]["hands"]] == [0, 0, 0, 1]
    assert last.view.knowledge() == view_of(await server_view(game_id, users[3]))
    assert spectator.view.holdings == [None] * 4
    assert (await last.ask({"type": "resync"}))["state"]["you"] == 3


async def test_the_waiting_room_sees_a_player_get_up_and_the_table_cancelled(
    open_socket: Opener,
) -> None:
    creator, leaver = await database_sync_to_async(UserFactory.create_batch)(2)

    @database_sync_to_async
    def open_table() -> uuid.UUID:
        game = actions.game_create(creator=creator, player_count=3, preset="championship")
        for number, user in enumerate((creator, leaver)):
            actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
        return game.id

    game_id = await open_table()
    sockets = [
        await open_socket(game_id, user, query="?with_state=changes", track=False)
        for user in (leaver, None)
    ]
    assert sockets[0].messages[0]["state"]["you"] == 1

    # When the second player gets up
    await database_sync_to_async(actions.game_leave)(game_id=game_id, actor=leaver)

    # Then the player who left, now a spectator, and a spectator see the seat free again
    for socket in sockets:
        message = await socket.receive()
        assert [event["type"] for event in message["events"]] == ["PlayerLeft"]
        assert message["state"]["seats"][1] == {"seat": 1, "alias": None}
        assert message["state"]["you"] is None

    # And when the creator cancels the table, they see it cancelled
    await database_sync_to_async(actions.game_cancel)(game_id=game_id, actor=creator)
    for socket in sockets:
        message = await socket.receive()
        assert [event["type"] for event in message["events"]] == ["TableCancelled"]
        assert message["state"]["status"] == "cancelled"


async def test_an_idle_socket_still_receives_the_next_event(open_socket: Opener) -> None:
    """With redis-py 8 the core Redis layer drops consumers idle for about 5 s
    (channels_redis issue 422); the pub/sub layer must not."""
    game_id, users = await seated()
    socket = await open_socket(game_id)

    await asyncio.sleep(10)
    seat, command = await must_move(game_id, random.Random(0))
    result = await serve(game_id, users[seat], command)
    (message,) = await socket.receive_until(result.version)

    assert message["type"] == "events"
    assert message["version"] == result.version


# --- Coming back -----------------------------------------------------------------------


async def test_resuming_with_after_sends_exactly_the_events_missed(open_socket: Opener) -> None:
    game_id, users = await seated()
    rng = random.Random(3)
    start = await log_version(game_id)
    for _ in range(3):
        seat, command = await must_move(game_id, rng)
        await serve(game_id, users[seat], command)
    now = await log_version(game_id)

    def resume(query: str) -> Awaitable[Socket]:
        return open_socket(game_id, users[1], query=query, track=False)

    resumed = await resume(f"?after={start}")
    current = await resume(f"?after={now}")
    ahead = await resume(f"?after={now + 10}")
    garbled = await resume("?after=soon")
    garbled_state = await garbled.receive()

    (missed,) = resumed.messages
    assert missed == {
        "type": "events",
        "version": now,
        "events": await server_events(game_id, users[1], after=start),
    }
    assert [event["sequence"] for event in missed["events"]] == list(range(start + 1, now + 1))
    assert current.messages == [{"type": "events", "version": now, "events": []}]
    assert ahead.messages[0]["type"] == "state"
    assert ahead.messages[0]["version"] == now
    assert garbled.messages[0]["code"] == "invalid_input"
    assert garbled_state["type"] == "state"

    # A resume message works the same, from any version up to the socket's.
    again = await ahead.ask({"type": "resume", "version": start})
    assert again == missed


async def test_a_client_that_drops_mid_hand_and_resumes_ends_as_one_that_never_left(
    open_socket: Opener,
) -> None:
    """The issue's Done-when: the same viewer twice (seat 1, and a spectator), one
    socket staying, the other dropping mid-hand while the others play on, then coming
    back with its last version; both clients end knowing exactly the same."""
    game_id, users = await seated(3, "romanian-standard", SHORT_CHOOSING)
    seats = [await open_socket(game_id, user) for user in users]
    seat_stays = await open_socket(game_id, users[1])
    watcher_drops = await open_socket(game_id)
    watcher_stays = await open_socket(game_id)
    everyone = [*seats, seat_stays, watcher_drops, watcher_stays]
    rng = random.Random(11)

    async def play(moves: int, *, through_sockets: bool = True) -> None:
        for _ in range(moves):
            seat, command = await must_move(game_id, rng)
            if through_sockets and seats[seat].open:
                ack = await seats[seat].ask(command)
                assert ack["type"] == "ack", ack
                now = ack["version"]
            else:
                now = (await serve(game_id, users[seat], command)).version
            for socket in everyone:
                if socket.open:
                    await socket.receive_until(now)

    async def come_back(gone: Socket, user: User | None) -> Socket:
        assert gone.view is not None
        back = await open_socket(game_id, user, query=f"?after={gone.view.version}", view=gone.view)
        assert back.messages[0]["type"] == "events"
        assert back.messages[0]["events"], "it missed something"
        everyone.append(back)
        return back

    # Hands of 1 and 3 cards, then the 5-card hand's bids and a few cards.
    await play(7 + 12 + 3 + 5)
    seat_drops = seats[1]
    assert seat_drops.view is not None and seat_drops.view.holdings is not None, "mid-hand"
    await seat_drops.close()
    await watcher_drops.close()

    # The others play on; so does seat 1, from another device.
    await play(10)
    await play(4, through_sockets=False)
    watcher_back = await come_back(watcher_drops, None)
    await play(6)
    seats[1] = seat_back = await come_back(seat_drops, users[1])
    await play(25)

    assert seat_back.view == seat_stays.view
    assert watcher_back.view == watcher_stays.view
    for socket, user in ((seat_back, users[1]), (watcher_back, None)):
        assert socket.view is not None
        built = socket.view.knowledge()
        resync = await socket.ask({"type": "resync"})
        assert resync["state"] == await server_view(game_id, user)
        assert built == view_of(resync["state"])
    assert seat_back.acks, "seat 1 played over its new socket"
    assert all(not socket.errors for socket in everyone)


async def test_with_state_each_events_message_carries_the_view_it_brings_its_viewer_to(
    open_socket: Opener,
) -> None:
    # Given a player and a spectator who asked for the state with every event
    game_id, users = await seated(3, "romanian-standard", ONE_CARD_FIRST)
    player = await open_socket(game_id, users[1], query="?with_state=1")
    spectator = await open_socket(game_id, None, query="?with_state=1")
    rng = random.Random(3)

    for _ in range(8):
        # When a move is made
        seat, command = await must_move(game_id, rng)
        await serve(game_id, users[seat], command)
        known, (player_view, spectator_view) = await after_move(game_id, [users[1], None])

        # Then each events message holds the viewer's whole view at its version
        for socket, view, viewer_seat in (
            (player, player_view, 1),
            (spectator, spectator_view, None),
        ):
            received = await socket.receive_until(known.version)
            assert received[-1]["state"] == view
            assert all(message["state"]["version"] == message["version"] for message in received)
            check_state(received[-1]["state"], known, viewer_seat, socket.name)


async def test_with_state_changes_each_events_message_carries_what_changed_since_the_one_before(
    open_socket: Opener,
) -> None:
    # Given a player and a spectator whose sockets send the changes of the view, as
    # the table page asks, each holding the whole view it connected with
    game_id, users = await seated(3, "romanian-standard", ONE_CARD_FIRST)
    viewers: list[User | None] = [users[1], None]
    sockets = [await open_socket(game_id, user, query="?with_state=changes") for user in viewers]
    states = [socket.messages[0]["state"] for socket in sockets]
    scored = 0

    # When each move of the one-card hands and the next hand's first bids is made
    first = True
    async for known, views in one_card_hands(game_id, users, viewers, random.Random(3)):
        # Then each message's state, merged into the view before it, is the viewer's
        # whole view at its version
        for number, (socket, view, viewer_seat) in enumerate(
            zip(sockets, views, (1, None), strict=True)
        ):
            (message,) = await socket.receive_until(known.version)
            merged = states[number] = {**states[number], **message["state"]}
            assert merged == view
            check_state(merged, known, viewer_seat, socket.name)
            # And it carries only what changed: the scoreboard when a hand is scored,
            # the options never again; all of it only in the first message, which has
            # no step before it to tell the changes from
            carried = set(message["state"])
            scoring = any(event["type"] == "HandScored" for event in message["events"])
            scored += scoring
            if first:
                assert carried == set(view)
            else:
                assert {"version", *VIEWER_MEMBERS} <= carried
                assert ("results" in carried) is scoring
                assert "options" not in carried
                assert "schedule" not in carried
        first = False
    assert scored == 3 * len(viewers)
    assert all(not socket.errors for socket in sockets)


async def test_a_player_hands_their_seat_to_a_bot_over_the_socket_and_takes_it_back(
    open_socket: Opener,
) -> None:
    # Given the socket of a seated player who did not create the game (its creator may
    # give any seat) and whose turn it is not (a bot would move at once)
    game_id, users = await seated()
    turn = (await database_sync_to_async(load_table)(game_id)).game.turn
    seat, other = [number for number in range(1, 4) if number != turn][:2]
    socket = await open_socket(game_id, users[seat], query="?with_state=1")

    # When they give their seat to the heuristic bot
    ack = await socket.ask({"type": "seat_bot", "seat": seat, "bot": "heuristic"})
    given = await socket.receive_until(ack["version"])

    # Then the game records it, and their view shows the bot
    assert ack == {"type": "ack", "version": ack["version"], "command": "seat_bot"}
    assert given[-1]["events"][-1]["type"] == "SeatAutomated"
    assert given[-1]["state"]["bots"] == ["heuristic" if s == seat else None for s in range(4)]

    # And another seat is not theirs to give
    refused = await socket.ask({"type": "seat_bot", "seat": other, "bot": "heuristic"})
    assert refused["type"] == "error"
    assert refused["code"] == "not_your_seat"

    # And they take their seat back
    ack = await socket.ask({"type": "seat_bot", "seat": seat, "bot": None})
    back = await socket.receive_until(ack["version"])
    assert back[-1]["state"]["bots"] == [None, None, None, None]


async def test_seat_bot_over_the_socket_on_a_finished_game_is_a_game_over_error(
    open_socket: Opener,
) -> None:
    # Given the socket of a player of a finished game
    game_id, users = await seated(3, "romanian-standard", SHORT_CHOOSING)
    await database_sync_to_async(play_to_end)(game_id, users)
    version = await log_version(game_id)
    socket = await open_socket(game_id, users[1])

    # When they give their seat to a bot
    refused = await socket.ask({"type": "seat_bot", "seat": 1, "bot": "heuristic"})

    # Then it is an error with the code of a finished game, and the log does not move
    assert refused["type"] == "error"
    assert refused["code"] == "game_over"
    assert await log_version(game_id) == version


@database_sync_to_async
def delayed_game(delay: int) -> tuple[uuid.UUID, list[User]]:
    users = UserFactory.create_batch(3)
    game = actions.game_create(
        creator=users[0], player_count=3, preset="championship", spectator_delay=delay
    )
    for number, user in enumerate(users):
        actions.game_join(game_id=game.id, user=user, alias=f"Player {number + 1}")
    return game.id, users


async def test_a_spectator_of_a_delayed_table_sees_each_move_only_after_the_delay(
    open_socket: Opener,
) -> None:
    # Given a table whose spectators lag 1 s behind, a player and a spectator watching
    game_id, users = await delayed_game(1)
    await asyncio.sleep(1.1)  # the start of the game is old enough to be shown
    seat, command = await must_move(game_id, random.Random(1))
    player = await open_socket(game_id, users[(seat + 1) % 3])
    spectator = await open_socket(game_id, None)
    start = spectator.messages[-1]["version"]

    # When a move is made
    result = await serve(game_id, users[seat], command)

    # Then the player gets it at once, and the spectator only once a second has passed
    assert (await player.receive())["version"] == result.version
    await spectator.nothing_more()
    assert start == result.version - 1 - (result.last_sequence - result.first_sequence)
    seen = await spectator.receive_until(result.version)
    assert seen[-1]["version"] == result.version
    assert seen[-1]["events"][0]["sequence"] == result.first_sequence


async def test_a_spectator_joining_a_delayed_table_starts_a_delay_behind(
    open_socket: Opener,
) -> None:
    game_id, users = await delayed_game(30)

    spectator = await open_socket(game_id, None)
    player = await open_socket(game_id, users[0])

    # The game started less than 30 s ago: the spectator sees the seats, no deal yet.
    assert spectator.messages[-1]["version"] == 6
    assert spectator.messages[-1]["state"]["phase"] == "dealing"
    assert player.messages[-1]["version"] == await log_version(game_id)


# --- Sockets of one process sharing the work ---------------------------------------------


async def test_sockets_sharing_each_broadcast_step_still_get_only_their_own_viewers_view(
    open_socket: Opener,
) -> None:
    # Given each seat watched from two sockets (two tabs of one player) and two
    # spectators, all on this process and all with the state
    game_id, users = await seated(3, "romanian-standard", ONE_CARD_FIRST)
    stranger = await database_sync_to_async(UserFactory.create)()
    viewers: list[User | None] = [*users, *users, None, stranger]
    sockets = [await open_socket(game_id, user, query="?with_state=1") for user in viewers]
    seats = [users.index(user) if user in users else None for user in viewers]
    scored = 0

    # When each move of the one-card hands and the next hand's first bids is made
    async for known, views in one_card_hands(game_id, users, viewers, random.Random(11)):
        # Then each socket gets its own viewer's events and state at the new version:
        # never another viewer's, never the one before
        last = []
        for socket, viewer_seat, view in zip(sockets, seats, views, strict=True):
            received = await socket.receive_until(known.version)
            events = [event for message in received for event in message["events"]]
            check_events(events, known, viewer_seat, socket.name)
            check_state(received[-1]["state"], known, viewer_seat, socket.name)
            assert received[-1]["state"] == view
            assert received[-1]["version"] == known.version
            scored += sum(event["type"] == "HandScored" for event in events)
            last.append(received[-1])
        # And the sockets of one viewer got the very same message
        assert last[:3] == last[3:6]
        assert last[6] == last[7]
        assert [message["state"]["you"] for message in last] == seats

    # The states changed hand after hand, and this process built each viewer's message
    # once per broadcast: one per seat and one for every spectator.
    assert scored == 3 * len(viewers)
    step = fanout._FOLLOWED[game_id].steps[-1]
    built = {viewer for viewer, _ in step.messages}
    assert built == {Viewer(0), Viewer(1), Viewer(2), Viewer(None)}
    assert all(not socket.errors for socket in sockets)


async def test_a_process_follows_a_game_on_one_channel_until_its_last_socket_closes(
    open_socket: Opener,
) -> None:
    # Given three sockets of this process on one game: two players and a spectator
    game_id, users = await seated()
    sockets = [
        await open_socket(game_id, users[0]),
        await open_socket(game_id, users[1]),
        await open_socket(game_id),
    ]
    followed = fanout._FOLLOWED[game_id]
    assert followed.subscribed is not None
    first_channel = followed.subscribed.result()

    # When a move is made, then each socket gets its events once, through that one
    # channel
    rng = random.Random(3)
    seat, command = await must_move(game_id, rng)
    await serve(game_id, users[seat], command)
    now = await log_version(game_id)
    for socket in sockets:
        received = await socket.receive_until(now)
        assert [event["sequence"] for m in received for event in m["events"]] == [now]
    assert {socket.watch.viewer for socket in followed.sockets if socket.watch} == {
        Viewer(0),
        Viewer(1),
        Viewer(None),
    }

    # When the sockets close, then the last one takes the channel out
    for socket in sockets[:2]:
        await socket.close()
    assert fanout._FOLLOWED[game_id] is followed
    await sockets[2].close()
    assert game_id not in fanout._FOLLOWED
    assert followed.reader is not None
    await asyncio.wait_for(asyncio.gather(followed.reader, return_exceptions=True), TIMEOUT)
    assert followed.reader.cancelled()

    # And a socket that comes later follows the game on a channel of its own
    later = await open_socket(game_id)
    seat, command = await must_move(game_id, rng)
    await serve(game_id, users[seat], command)
    received = await later.receive_until(now + 1)
    assert [event["sequence"] for m in received for event in m["events"]] == [now + 1]
    again = fanout._FOLLOWED[game_id]
    assert again is not followed
    assert again.subscribed is not None and again.subscribed.result() != first_channel


async def test_a_socket_that_fell_behind_the_others_is_not_sent_their_step(
    open_socket: Opener,
) -> None:
    # Given two spectators at the same version, and one of them handed a move ahead
    # of the other, as its own broadcast
    game_id, users = await seated()
    ahead = await open_socket(game_id, None, query="?with_state=1")
    behind = await open_socket(game_id, None, query="?with_state=1")
    rng = random.Random(8)
    seat, command = await must_move(game_id, rng)
    first = await serve(game_id, users[seat], command)
    await ahead.receive_until(first.version)
    await behind.receive_until(first.version)

    # When two more moves are made, and the one ahead takes both broadcasts first
    for _ in range(2):
        seat, command = await must_move(game_id, rng)
        await serve(game_id, users[seat], command)
    now = await log_version(game_id)
    await ahead.receive_until(now)
    received = await behind.receive_until(now)

    # Then the one behind still gets every event once, in order, and the state at
    # each step it takes
    events = [event["sequence"] for message in received for event in message["events"]]
    assert events == list(range(first.version + 1, now + 1))
    assert received[-1]["state"] == await server_view(game_id, None)
    assert ahead.messages[-1] == behind.messages[-1]


async def test_a_classic_table_streams_each_viewer_its_own_state_through_the_shared_steps(
    open_socket: Opener,
) -> None:
    # Given a classic Whist table watched by its four players and a spectator
    game_id, users = await database_sync_to_async(seated_game)(
        kind="classic", preset=None, options={"target": 5}
    )
    viewers: list[User | None] = [*users, None]
    sockets = [
        await open_socket(game_id, user, query="?with_state=1", track=False) for user in viewers
    ]
    rng = random.Random(4)

    for _ in range(16):
        # When a card is played
        @database_sync_to_async
        def play() -> int:
            table = load_table(game_id)
            actor = user_to_act(table, users)
            card = rng.choice(classic.legal_plays(table.game))
            return actions.game_play_card(game_id=game_id, actor=actor, card=str(card)).version

        version = await play()
        views = [await server_view(game_id, user) for user in viewers]

        # Then each socket's state is its own viewer's: of the others' hands, only the
        # turned trump while it lies face up
        for number, (socket, view) in enumerate(zip(sockets, views, strict=True)):
            message = await socket.receive()
            while message["version"] < version:
                message = await socket.receive()
            state = message["state"]
            assert (message["type"], message["version"], state) == ("events", version, view)
            hand = state["hand"]
            others = [cards for seat, cards in enumerate(hand["holdings"]) if seat != number]
            assert all(cards in ([], [hand["turned_up"]]) for cards in others), socket.name


# --- A broadcast that never came -------------------------------------------------------


async def test_a_socket_whose_broadcast_was_lost_catches_up_when_the_watchdog_looks_in(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id)
    spectator_version = socket.messages[0]["version"]
    # As a Redis restarted without its subscriptions: the broadcast reaches no one.
    channel = await fanout._FOLLOWED[game_id].subscribed  # type: ignore[misc]
    await get_channel_layer().group_discard(writepath.group_name(game_id), channel)
    seat, command = await must_move(game_id, random.Random(0))
    result = await serve(game_id, users[seat], command)
    await socket.nothing_more()

    # The first look only notes the version missing; the second takes it for lost.
    assert await fanout.look_in(quiet_since=time.monotonic()) == 0
    told = await fanout.look_in(quiet_since=time.monotonic())
    (message,) = await socket.receive_until(result.version)

    assert told == 1
    assert message["type"] == "events"
    assert message["version"] == result.version
    assert message["events"][0]["sequence"] == spectator_version + 1
    # Once told, a game is not read into its sockets again.
    assert await fanout.look_in(quiet_since=time.monotonic()) == 0
    await socket.nothing_more()


async def test_the_watchdog_reads_no_game_that_heard_a_broadcast_lately(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id)
    seat, command = await must_move(game_id, random.Random(0))
    result = await serve(game_id, users[seat], command)
    await socket.receive_until(result.version)
    heard_at = fanout._FOLLOWED[game_id].heard_at

    told = await fanout.look_in(quiet_since=heard_at - 1)

    assert told == 0
    assert fanout._FOLLOWED[game_id].heard == result.version


async def test_a_ping_is_answered_with_the_version_the_socket_has_sent(
    open_socket: Opener,
) -> None:
    game_id, users = await seated()
    socket = await open_socket(game_id, users[0])

    pong = await socket.ask({"type": "ping"})

    assert pong == {"type": "pong", "version": socket.messages[0]["version"]}
