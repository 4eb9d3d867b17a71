"""The middleware a socket is opened through: the session cookie's user, as Channels'
``AuthMiddlewareStack``, without the session's wrapper around each send; and a
database that is down as the socket opens, told to the client."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, cast

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

from runtime.errors import DatabaseUnavailable
from runtime.outage import DATABASE_DOWN

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
    from channels.consumer import _ChannelScope


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware, handing the application the server's own send.

    Channels wraps every send to save a changed session on an HTTP response, the only
    message it saves on (``InstanceSessionWrapper.save_message_types``). A socket never
    sends one, yet the wrapper reads the session's state on each of its messages,
    through the lazy session object, several times a move (decision 1801). A socket
    that changes its session saves it itself, as it must under Channels' own
    middleware too."""

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        # The stubs type the inner application as ASGI 2 or 3; it is an ASGI 3 one,
        # as SessionMiddleware's own call has it.
        return await self.inner(wrapper.scope, receive, send)  # type: ignore[call-arg,misc]


logger = logging.getLogger("atu.websocket")

# WebSocket's "try again later": the database did not answer as the socket opened.
CLOSE_TRY_AGAIN = 1013


def database_down_message() -> str:
    """What a socket is sent when the database is down: a command's ``error``."""
    down = DatabaseUnavailable()
    return json.dumps(
        {
            "type": "error",
            "code": down.code,
            "message": down.message,
            "command": None,
            "version": None,
        }
    )


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' user of the session, or, where the database cannot say who it is
    (down or restarting, decision 3702), a socket accepted, told so as a command would
    be (``database_unavailable``), and closed with :data:`CLOSE_TRY_AGAIN`, after which
    the page opens it again: an HTTP 500 to the handshake would say nothing."""

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> Any:
        scope = cast("_ChannelScope", dict(scope))
        self.populate_scope(scope)
        try:
            await self.resolve_scope(scope)
        except DATABASE_DOWN:
            logger.exception("a socket opened while the database is unavailable")
            await send({"type": "websocket.accept", "subprotocol": None, "headers": []})
            await send({"type": "websocket.send", "bytes": None, "text": database_down_message()})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN, "reason": ""})
            return None
        return await self.inner(scope, receive, send)  # type: ignore[call-arg,misc]


def socket_auth_stack(inner: Any) -> CookieMiddleware:
    """``inner`` with the scope's cookies, session and user, as ``AuthMiddlewareStack``."""
    return CookieMiddleware(SocketSessionMiddleware(SocketAuthMiddleware(inner)))
