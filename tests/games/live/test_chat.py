"""Words at a table over its WebSocket (decision 3506): a word said on one socket
reaches every socket on the table and leaves the game as it was; a delayed table's
spectator hears it as late as the play; the table's rule and the player's budget are
kept, bad input and reports answered, and the socket stays open throughout."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.models import Game, MessageReport, TableMessage
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.games.live import test_consumer
from tests.games.live.test_consumer import Opener, Socket, delayed_game, log_version
from tests.games.web.test_chat_api import words_budget
from tests.tournaments.drivers import event_round

pytestmark = pytest.mark.django_db(transaction=True)


# The table's sockets, as the consumer's tests open them.
open_socket = test_consumer.open_socket


async def hear(socket: Socket, count: int) -> list[tuple[str, str | None, str | None]]:
    """The next ``count`` words said, however many ``chat`` messages bring them."""
    heard: list[tuple[str, str | None, str | None]] = []
    while len(heard) < count:
        heard += _words(await socket.receive())
    return heard


def _words(message: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    assert message["type"] == "chat", message
    return [(word["name"], word["phrase"], word["text"]) for word in message["words"]]


@database_sync_to_async
def three_players() -> tuple[uuid.UUID, list[User]]:
    return seated_game(3)


async def test_a_phrase_said_on_one_socket_reaches_every_socket_and_changes_no_version(
    open_socket: Opener,
) -> None:
    # Given two players and a spectator watching a table
    game_id, users = await three_players()
    version = await log_version(game_id)
    speaker = await open_socket(game_id, users[0], track=False)
    player = await open_socket(game_id, users[1], track=False)
    spectator = await open_socket(game_id, None, track=False)

    # When the first says "good luck", then a line of text
    ack = await speaker.ask({"type": "chat", "phrase": "good_luck"})
    echo = await speaker.receive()
    await speaker.ask({"type": "chat", "text": "Bună seara!"})

    # Then they are acked at the game's version, and each socket hears both words
    assert (ack["type"], ack["command"], ack["version"]) == ("ack", "chat", version)
    assert _words(echo) == [("Player 1", "good_luck", None)]
    for listener in (player, spectator):
        assert await hear(listener, 2) == [
            ("Player 1", "good_luck", None),
            ("Player 1", None, "Bună seara!"),
        ]
    # And the game's log never moved
    assert await log_version(game_id) == version


async def test_bad_words_are_refused_with_their_code_and_the_socket_stays_open(
    open_socket: Opener,
) -> None:
    game_id, users = await three_players()
    player = await open_socket(game_id, users[0], track=False)
    spectator = await open_socket(
        game_id, await database_sync_to_async(UserFactory.create)(), track=False
    )
    anonymous = await open_socket(game_id, None, track=False)

    answers = [
        await player.ask({"type": "chat"}),
        await player.ask({"type": "chat", "phrase": "bravo"}),
        await player.ask({"type": "chat", "text": "x" * 201}),
        await player.ask({"type": "chat", "text": "a\u0000b"}),
        await player.ask({"type": "chat_report", "message": "first"}),
        await spectator.ask({"type": "chat", "phrase": "thanks"}),
        await anonymous.ask({"type": "chat", "phrase": "thanks"}),
        await anonymous.ask({"type": "chat_report", "message": 1}),
    ]
    still = await player.ask({"type": "ping"})

    assert [(answer["type"], answer["code"], answer["command"]) for answer in answers] == [
        ("error", "invalid_input", "chat"),
        ("error", "invalid_input", "chat"),
        ("error", "invalid_input", "chat"),
        ("error", "invalid_input", "chat"),
        ("error", "invalid_input", "chat_report"),
        ("error", "players_only", "chat"),
        ("error", "not_authenticated", "chat"),
        ("error", "not_authenticated", "chat_report"),
    ]
    assert answers[0]["message"] == "say a phrase or a text: one of them"
    assert still["type"] == "pong"
    assert await database_sync_to_async(TableMessage.objects.count)() == 0


async def test_words_past_the_players_budget_are_refused_and_the_socket_stays_open(
    open_socket: Opener, settings: Any
) -> None:
    words_budget(settings, "2/min")
    game_id, users = await three_players()
    player = await open_socket(game_id, users[0], track=False)

    acks = []
    for _ in range(2):
        acks.append((await player.ask({"type": "chat", "phrase": "oops"}))["type"])
        await player.receive()  # The word itself.
    refused = await player.ask({"type": "chat", "phrase": "sorry"})
    still = await player.ask({"type": "ping"})

    assert acks == ["ack", "ack"]
    assert (refused["type"], refused["code"]) == ("error", "chat_too_fast")
    assert still["type"] == "pong"


async def test_a_championship_table_says_nothing_or_its_phrases_only(open_socket: Opener) -> None:
    @database_sync_to_async
    def tables() -> tuple[Game, Game, User, User]:
        *_, (quiet,) = event_round(4, public=True)
        *_, (phrases,) = event_round(4, public=True, table_chat="phrases")
        return (
            quiet,
            phrases,
            User.objects.get(pk=quiet.seats[0]["user_id"]),
            User.objects.get(pk=phrases.seats[0]["user_id"]),
        )

    quiet, phrases, quiet_player, player = await tables()
    at_quiet = await open_socket(quiet.id, quiet_player, track=False)
    at_phrases = await open_socket(phrases.id, player, track=False)

    off = await at_quiet.ask({"type": "chat", "phrase": "good_luck"})
    text = await at_phrases.ask({"type": "chat", "text": "I hold the ace of trumps"})
    phrase = await at_phrases.ask({"type": "chat", "phrase": "good_luck"})

    assert (off["type"], off["code"]) == ("error", "chat_off")
    assert (text["type"], text["code"]) == ("error", "phrases_only")
    assert phrase["type"] == "ack"
    assert _words(await at_phrases.receive())[0][1:] == ("good_luck", None)


async def test_a_delayed_tables_spectator_hears_a_word_only_after_the_delay(
    open_socket: Opener,
) -> None:
    # Given a table whose spectators lag 1 s behind, a player and a spectator on it
    game_id, users = await delayed_game(1)
    await asyncio.sleep(1.1)  # the start of the game is old enough to be shown
    speaker = await open_socket(game_id, users[0], track=False)
    player = await open_socket(game_id, users[1], track=False)
    spectator = await open_socket(game_id, None, track=False)

    # When a player says a word
    await speaker.ask({"type": "chat", "phrase": "well_played"})

    # Then the other player hears it at once, the spectator only once a second passed
    assert _words(await player.receive()) == [("Player 1", "well_played", None)]
    assert await spectator.communicator.receive_nothing(timeout=0.6)
    assert _words(await spectator.receive()) == [("Player 1", "well_played", None)]


async def test_a_word_is_reported_over_the_socket_once_for_the_staff(open_socket: Opener) -> None:
    game_id, users = await three_players()
    speaker = await open_socket(game_id, users[0], track=False)
    reader = await open_socket(game_id, users[1], track=False)
    await speaker.ask({"type": "chat", "text": "rude words"})
    said = (await reader.receive())["words"][0]["id"]

    first = await reader.ask({"type": "chat_report", "message": said})
    again = await reader.ask({"type": "chat_report", "message": said})
    missing = await reader.ask({"type": "chat_report", "message": said + 1000})

    assert (first["type"], first["message"]) == ("ack", said)
    assert (again["type"], again["message"]) == ("ack", said)
    assert (missing["type"], missing["code"]) == ("error", "message_not_found")
    reporters = await database_sync_to_async(
        lambda: list(MessageReport.objects.values_list("reporter_id", flat=True))
    )()
    assert reporters == [users[1].pk]
