"""What one client may send: JSON nesting, body size, and each socket's budgets."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from runtime import limits
from runtime.limits import Budget, JsonDuplicateKey, JsonTooDeep, decode_json
from runtime.throttling import parse_rate
from tests.accounts.factories import UserFactory
from tests.games.live.test_consumer import session_cookie

ALLOWED_ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- JSON ---------------------------------------------------------------------------------


def test_json_nested_as_deep_as_the_limit_is_decoded() -> None:
    assert decode_json('{"a": [[1]]}', max_depth=3) == {"a": [[1]]}
    assert decode_json(nested(32), max_depth=32) == json.loads(nested(32))


def test_json_nested_one_deeper_than_the_limit_is_too_deep() -> None:
    with pytest.raises(JsonTooDeep, match="JSON nested deeper than 3 levels"):
        decode_json('{"a": [[[1]]]}', max_depth=3)


def test_json_nested_five_thousand_deep_is_too_deep_not_a_recursion_error() -> None:
    with pytest.raises(JsonTooDeep) as raised:
        decode_json(nested(5000).encode(), max_depth=32)

    assert raised.value.code == "too_deep"


@pytest.mark.parametrize(
    "text",
    [
        '["[[[[", "{{{{"]',
        r'["\"[[[[[", "\\", "[[[["]',
        '{"a": "]]]]", "b": [["x"]]}',
    ],
)
def test_brackets_inside_strings_do_not_nest(text: str) -> None:
    assert decode_json(text, max_depth=3) == json.loads(text)


def test_the_limit_is_the_setting_by_default(settings: Any) -> None:
    settings.ATU_MAX_JSON_DEPTH = 2

    assert decode_json("[[1]]") == [[1]]
    with pytest.raises(JsonTooDeep):
        decode_json("[[[1]]]")


def test_json_that_is_not_utf8_or_not_json_or_nan_is_a_value_error() -> None:
    with pytest.raises(UnicodeDecodeError):
        decode_json(b'{"a": "\xff"}')
    with pytest.raises(ValueError, match="Expecting"):
        decode_json("{not json")
    with pytest.raises(ValueError, match="not JSON compliant"):
        decode_json('{"bid": NaN}')


def test_json_with_a_key_twice_in_one_object_is_a_duplicate_key_error() -> None:
    with pytest.raises(JsonDuplicateKey, match='the key "bid" comes more than once') as raised:
        decode_json('{"type": "bid", "bid": 0, "bid": 1}')

    assert raised.value.code == "duplicate_key"


def test_a_key_twice_in_a_nested_object_is_a_duplicate_key_error_too() -> None:
    with pytest.raises(JsonDuplicateKey, match='the key "a" comes'):
        decode_json('{"x": [{"a": 1, "b": 2, "a": 1}]}')


def test_one_key_in_several_objects_is_no_duplicate() -> None:
    text = '[{"bid": 0, "card": "AS"}, {"bid": 1, "card": "AS"}]'

    assert decode_json(text) == json.loads(text)


# --- HTTP ---------------------------------------------------------------------------------


def test_an_api_body_nested_too_deep_is_400_too_deep(client: Client, settings: Any) -> None:
    settings.ATU_MAX_JSON_DEPTH = 3

    response = client.post(
        "/api/auth/login/", {"username": [[["ana"]]]}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {"code": "too_deep", "message": "JSON nested deeper than 3 levels"}


def test_an_api_body_with_a_key_twice_is_400_duplicate_key(client: Client) -> None:
    response = client.post(
        "/api/auth/login/",
        '{"username": "ana", "password": "x", "username": "bo"}',
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "code": "duplicate_key",
        "message": 'the key "username" comes more than once in an object',
    }


def test_an_api_body_that_is_not_utf8_is_400_parse_error(client: Client) -> None:
    response = client.post(
        "/api/auth/login/", b'{"username": "\xff"}', content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "code": "parse_error",
        "message": "JSON parse error - the body is not UTF-8",
    }


def test_an_api_body_over_the_size_limit_is_413_request_too_large(
    client: Client, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000
    body = json.dumps({"username": "a" * 2000, "password": "x"})

    response = client.post("/api/auth/login/", body, content_type="application/json")

    assert response.status_code == 413
    assert response.json() == {
        "code": "request_too_large",
        "message": "the request body is over 2000 bytes",
    }


def test_a_form_over_the_size_limit_is_a_413_page(client: Client, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000

    response = client.post("/accounts/login/", {"username": "a" * 2000, "password": "x"})

    assert response.status_code == 413
    assert "The form sent more than 2000 bytes" in response.content.decode()


def test_a_form_over_the_size_limit_is_refused_in_romanian_too(
    client: Client, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000

    response = client.post("/accounts/login/", {"username": "a" * 2000}, HTTP_ACCEPT_LANGUAGE="ro")

    assert response.status_code == 413
    assert "Formularul a trimis mai mult de 2000 de octeți" in response.content.decode()


def test_a_form_read_by_the_csrf_check_over_the_size_limit_is_413_too(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")  # The CSRF cookie: the check then reads the form.

    response = client.post("/accounts/login/", {"username": "a" * 2000})

    assert response.status_code == 413


# --- Sockets ------------------------------------------------------------------------------


def test_a_rate_is_a_count_per_period_in_seconds() -> None:
    assert parse_rate("20/min") == (20, 60)
    assert parse_rate("5/s") == (5, 1)
    assert parse_rate("100/hour") == (100, 3600)
    assert parse_rate("1000/day") == (1000, 86400)
    assert parse_rate("10/15min") == (10, 900)
    assert parse_rate("3/2hour") == (3, 7200)
    assert parse_rate(None) is None


def test_a_budget_allows_a_burst_then_refills_at_its_rate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [100.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: clock[0])
    budget = Budget(3, 60)

    burst = [budget.take() for _ in range(4)]
    clock[0] += 20  # A third of the period: one message's worth.
    refilled = [budget.take(), budget.take()]

    assert burst == [True, True, True, False]
    assert refilled == [True, False]


def test_a_budget_resumed_some_seconds_from_full_starts_that_much_lower_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [100.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: clock[0])
    budget = Budget(6, 60, refill_seconds=40)  # A message every 10 s: 4 short of full.

    taken = [budget.take() for _ in range(3)]
    clock[0] += 10

    assert taken == [True, True, False]
    assert budget.refill_seconds() == pytest.approx(50.0)
    assert Budget(6, 60, refill_seconds=600).tokens == 0.0


@pytest.fixture
async def health_socket() -> AsyncIterator[WebsocketCommunicator]:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ALLOWED_ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from() == {"type": "hello", "user": None}
    yield communicator
    await communicator.disconnect()


@pytest.mark.django_db
async def test_a_socket_message_over_the_size_budget_is_refused_and_closed_with_1009(
    health_socket: WebsocketCommunicator, settings: Any
) -> None:
    settings.ATU_SOCKET_MAX_BYTES = 1024

    await health_socket.send_to(text_data=json.dumps({"type": "ping", "pad": "é" * 600}))
    error = await health_socket.receive_json_from()
    closed = await health_socket.receive_output()

    assert error == {
        "type": "error",
        "code": "message_too_large",
        "message": "a message is at most 1024 bytes",
    }
    assert closed == {"type": "websocket.close", "code": 1009}


@pytest.mark.django_db
async def test_socket_messages_over_the_rate_budget_are_refused_and_closed_with_4429(
    health_socket: WebsocketCommunicator, settings: Any
) -> None:
    settings.ATU_SOCKET_RATE = "3/min"

    for _ in range(3):
        await health_socket.send_json_to({"type": "ping"})
        assert await health_socket.receive_json_from() == {"type": "pong"}
    await health_socket.send_json_to({"type": "ping"})
    error = await health_socket.receive_json_from()
    closed = await health_socket.receive_output()
    await health_socket.send_json_to({"type": "ping"})

    assert error == {
        "type": "error",
        "code": "too_many_messages",
        "message": "more than 3 messages in a burst; slow down",
    }
    assert closed == {"type": "websocket.close", "code": 4429}
    assert await health_socket.receive_nothing()


@pytest.mark.django_db
async def test_a_socket_message_nested_too_deep_is_refused_and_the_socket_stays_open(
    health_socket: WebsocketCommunicator,
) -> None:
    await health_socket.send_to(text_data=nested(5000))
    error = await health_socket.receive_json_from()
    await health_socket.send_json_to({"type": "ping"})
    pong = await health_socket.receive_json_from()

    assert error == {
        "type": "error",
        "code": "too_deep",
        "message": "JSON nested deeper than 32 levels",
    }
    assert pong == {"type": "pong"}


@pytest.mark.django_db
async def test_a_socket_message_with_a_key_twice_is_refused_and_the_socket_stays_open(
    health_socket: WebsocketCommunicator,
) -> None:
    await health_socket.send_to(text_data='{"type": "ping", "type": "pong"}')
    error = await health_socket.receive_json_from()
    await health_socket.send_json_to({"type": "ping"})
    pong = await health_socket.receive_json_from()

    assert error == {
        "type": "error",
        "code": "duplicate_key",
        "message": 'the key "type" comes more than once in an object',
    }
    assert pong == {"type": "pong"}


@pytest.mark.django_db
async def test_a_socket_message_that_is_not_json_or_binary_is_invalid_input(
    health_socket: WebsocketCommunicator,
) -> None:
    await health_socket.send_to(text_data="{not json")
    not_json = await health_socket.receive_json_from()
    await health_socket.send_to(bytes_data=b"\xff\xfe")
    binary = await health_socket.receive_json_from()

    assert not_json == {
        "type": "error",
        "code": "invalid_input",
        "message": "a message is a JSON object",
    }
    assert binary == {
        "type": "error",
        "code": "invalid_input",
        "message": "messages are JSON text, not binary",
    }


# --- Sockets per client, and budgets across reconnects ----------------------------------

CLUB_ADDRESS = "198.51.100.30"
SECONDS = 10


async def health(
    *, address: str = CLUB_ADDRESS, cookie: bytes | None = None
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A health socket from ``address`` (signed in by ``cookie``), and its first message."""
    headers = [*ALLOWED_ORIGIN, *([(b"cookie", cookie)] if cookie else [])]
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    # As uvicorn sets it, from the front's X-Forwarded-For.
    communicator.scope["client"] = (address, 50000)
    # Past the default second: a CI machine busy with other work must not fail a cap.
    connected, _ = await communicator.connect(timeout=SECONDS)
    assert connected
    return communicator, await communicator.receive_json_from(timeout=SECONDS)


async def pings(socket: WebsocketCommunicator, count: int) -> list[str]:
    """Send ``count`` pings: what each is answered (``pong``, or the error's code)."""
    answers = []
    for _ in range(count):
        await socket.send_json_to({"type": "ping"})
        answer = await socket.receive_json_from()
        answers.append(answer.get("code", answer["type"]))
    return answers


def too_many_sockets(kind: str, cap: int) -> dict[str, Any]:
    return {
        "type": "error",
        "code": "too_many_sockets",
        "message": f"this {kind} has {cap} sockets open already",
    }


@pytest.mark.django_db(transaction=True)
async def test_a_players_sockets_beyond_the_sessions_cap_are_refused_and_closed_with_4430(
    settings: Any,
) -> None:
    # Given a cap of 2 sockets a session, and a player with 2 open
    settings.ATU_SOCKETS_PER_SESSION = 2
    user = await database_sync_to_async(UserFactory)()
    cookie = await database_sync_to_async(session_cookie)(user)
    first, _ = await health(cookie=cookie)
    second, _ = await health(cookie=cookie, address="203.0.113.5")

    # When the player opens a third, from either address
    third, refusal = await health(cookie=cookie)
    closed = await third.receive_output()
    # And, once one of theirs is closed, another
    await first.disconnect()
    fourth, hello = await health(cookie=cookie)

    # Then the third is told why and closed; the fourth is in
    assert refusal == too_many_sockets("session", 2)
    assert closed == {"type": "websocket.close", "code": 4430}
    assert hello == {"type": "hello", "user": user.username}
    for socket in (second, fourth):
        await socket.disconnect()


@pytest.mark.django_db
async def test_anonymous_sockets_beyond_the_addresss_cap_are_refused_and_closed_with_4430(
    settings: Any,
) -> None:
    settings.ATU_SOCKETS_PER_ADDRESS = 3
    sockets = [await health() for _ in range(3)]

    refused, refusal = await health()
    closed = await refused.receive_output()
    await refused.send_json_to({"type": "ping"})
    other, hello = await health(address="203.0.113.5")

    assert [first for _, first in sockets] == [{"type": "hello", "user": None}] * 3
    assert refusal == too_many_sockets("address", 3)
    assert closed == {"type": "websocket.close", "code": 4430}
    assert await refused.receive_nothing()
    assert hello == {"type": "hello", "user": None}
    for socket, _ in [*sockets, (other, hello)]:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_default_caps_let_a_club_in_and_keep_a_single_client_to_150_sockets() -> None:
    # Given 30 players on one Wi-Fi address, each with a table tab and an event tab
    users = await database_sync_to_async(UserFactory.create_batch)(30)
    cookies = [await database_sync_to_async(session_cookie)(user) for user in users]
    club = [await health(cookie=cookie) for cookie in cookies for _ in range(2)]
    for socket, _ in club:
        await socket.disconnect()

    # When one anonymous client opens 200 sockets from its address
    flood = [await health(address="203.0.113.66") for _ in range(200)]

    # Then every player's tab was let in, and the client's sockets past 150 were refused
    assert [hello["user"] for _, hello in club] == [u.username for u in users for _ in range(2)]
    answers = [first["type"] for _, first in flood]
    assert answers == ["hello"] * 150 + ["error"] * 50
    for socket, _ in flood:
        await socket.disconnect()


@pytest.mark.django_db
async def test_a_client_closed_for_its_rate_that_reconnects_at_once_gets_no_fresh_budget(
    settings: Any,
) -> None:
    # Given a rate of 3 a minute, and a client that spent it and was closed with 4429
    settings.ATU_SOCKET_RATE = "3/min"
    socket, _ = await health()
    assert await pings(socket, 4) == ["pong", "pong", "pong", "too_many_messages"]
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4429}

    # When it reconnects at once (the server has not even seen the close yet) and sends
    again, hello = await health()
    await again.send_json_to({"type": "ping"})
    refused = await again.receive_json_from()
    closed = await again.receive_output()
    # And another client of another address does the same
    other, _ = await health(address="203.0.113.5")
    await other.send_json_to({"type": "ping"})
    pong = await other.receive_json_from()

    # Then its first message is over its budget still; the other client's is not
    assert hello == {"type": "hello", "user": None}
    assert refused == {
        "type": "error",
        "code": "too_many_messages",
        "message": "more than 3 messages in a burst; slow down",
    }
    assert closed == {"type": "websocket.close", "code": 4429}
    assert pong == {"type": "pong"}
    for each in (socket, again, other):
        await each.disconnect()


@pytest.mark.django_db
async def test_a_client_that_closes_its_socket_before_its_rate_starts_the_next_where_it_left(
    settings: Any,
) -> None:
    settings.ATU_SOCKET_RATE = "3/min"
    socket, _ = await health()
    assert await pings(socket, 2) == ["pong", "pong"]
    await socket.disconnect()

    again, _ = await health()
    answers = await pings(again, 2)

    assert answers == ["pong", "too_many_messages"]
    await again.disconnect()


@pytest.mark.django_db
async def test_a_flood_is_kept_as_it_goes_for_a_socket_opened_beside_it(settings: Any) -> None:
    """A client's sockets each spend their own bucket, but each one opened starts from
    the lowest any other kept: past half its burst, a socket keeps its progress."""
    settings.ATU_SOCKET_RATE = "8/min"
    flooding, _ = await health()
    # Below 4 of 8 left: kept as it goes.
    assert await pings(flooding, 5) == ["pong"] * 5

    beside, _ = await health()
    answers = await pings(beside, 4)

    assert answers == ["pong", "pong", "pong", "too_many_messages"]
    for each in (flooding, beside):
        await each.disconnect()
