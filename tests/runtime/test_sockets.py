from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from runtime.sockets import socket_auth_stack
from tests.accounts.factories import UserFactory
from tests.games.live.test_consumer import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(cookie: bytes | None) -> tuple[dict[str, Any], Any]:
    """What an application behind the stack is called with, for a socket sending
    ``cookie``: its scope, and the send it is handed."""
    called: list[tuple[dict[str, Any], Any]] = []

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        called.append((scope, send))

    async def server_send(message: dict[str, Any]) -> None:
        raise AssertionError("the application sends nothing here")

    headers = [] if cookie is None else [(b"cookie", cookie)]
    scope = {"type": "websocket", "path": "/ws/x/", "headers": headers}
    await socket_auth_stack(application)(scope, None, server_send)
    [(inner_scope, send)] = called
    assert send is server_send
    return inner_scope, send


async def test_a_socket_is_signed_in_by_its_session_cookie_and_sends_straight_to_the_server() -> (
    None
):
    # given
    user = await database_sync_to_async(UserFactory)()
    cookie = await database_sync_to_async(session_cookie)(user)

    # when
    scope, _ = await opened(cookie)

    # then
    assert scope["user"].pk == user.pk
    assert scope["session"].session_key == cookie.decode().split("=", 1)[1]


async def test_a_socket_without_a_session_is_anonymous() -> None:
    # when
    scope, _ = await opened(None)

    # then
    assert scope["user"].is_authenticated is False
