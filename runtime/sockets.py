"""The middleware a socket is opened through: the session cookie's user, as Channels'
``AuthMiddlewareStack``, without the session's wrapper around each send."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

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


def socket_auth_stack(inner: Any) -> CookieMiddleware:
    """``inner`` with the scope's cookies, session and user, as ``AuthMiddlewareStack``."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
