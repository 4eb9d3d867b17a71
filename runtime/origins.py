"""Which pages may open a WebSocket here: the site's own origin, and the origins
trusted for forms (``CSRF_TRUSTED_ORIGINS``), each matched on scheme, host and port.

A browser sends a page's cookies with a WebSocket to any site, and the socket is
signed in by the session cookie: a socket opened by another origin's page would
play for whoever is signed in. Channels' ``AllowedHostsOriginValidator`` compares
the Origin's host with ``ALLOWED_HOSTS`` only, so ``http://localhost:1`` passed
for a site on ``http://127.0.0.1:8000``. Here an Origin passes when it is, exactly,

- the socket's own origin: ``http`` for ``ws`` (``https`` for ``wss``, or behind a
  front that terminated TLS and says so in ``SECURE_PROXY_SSL_HEADER``) with the
  request's Host, which must be one of ``ALLOWED_HOSTS``, as Django's CSRF check
  builds it for a form;
- or one of ``CSRF_TRUSTED_ORIGINS``, with Django's ``https://*.example.com``
  wildcard for subdomains (on that scheme and the port as written).

A socket without an Origin (no browser sends none) or with several is refused.
Settings are read on every connection, so a test may change them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope

DEFAULT_PORTS = {"http": 80, "https": 443}
SOCKET_SCHEMES = {"ws": "http", "wss": "https"}

# (scheme, host, port): an origin as compared, its host lowercased and its port explicit.
Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as an :data:`Origin`; None for anything else (a path,
    credentials, ``null``, another scheme, a bad port)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.username is not None
        or parts.password is not None
        or parts.path
        or parts.query
        or parts.fragment
    ):
        return None
    return scheme, parts.hostname.lower(), DEFAULT_PORTS[scheme] if port is None else port


def _headers(scope: Mapping[str, Any]) -> dict[str, list[str]]:
    headers: dict[str, list[str]] = {}
    for name, value in scope.get("headers", []):
        headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return headers


def _scheme(scope: Mapping[str, Any], headers: dict[str, list[str]]) -> str:
    """``http`` or ``https``, as Django's ``HttpRequest.scheme`` says for a request
    that came the way the socket came."""
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        header, secure_value = proxy
        if header.startswith("HTTP_"):
            values = headers.get(header[5:].lower().replace("_", "-"))
            if values:
                return "https" if values[-1].split(",", 1)[0].strip() == secure_value else "http"
    return SOCKET_SCHEMES.get(scope.get("scheme", "ws"), "http")


def _own_origin(scope: Mapping[str, Any], headers: dict[str, list[str]]) -> Origin | None:
    """The socket's own origin: its scheme and Host, if the Host is allowed."""
    hosts = headers.get("host", [])
    if settings.USE_X_FORWARDED_HOST and headers.get("x-forwarded-host"):
        hosts = headers["x-forwarded-host"]
    if len(hosts) != 1:
        return None
    host = hosts[0].strip()
    domain, _ = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    return parse_origin(f"{_scheme(scope, headers)}://{host}")


def _trusted(origin: Origin) -> bool:
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = parse_origin(entry.replace("://*.", "://", 1))
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if host == trusted[1] or (wildcard and is_same_domain(host, f".{trusted[1]}")):
            return True
    return False


def origin_allowed(scope: Mapping[str, Any]) -> bool:
    """Whether the page that opened the socket ``scope`` may use it."""
    headers = _headers(scope)
    sent = headers.get("origin", [])
    if len(sent) != 1:
        return False
    origin = parse_origin(sent[0].strip())
    if origin is None:
        return False
    return origin == _own_origin(scope, headers) or _trusted(origin)


class OriginValidator:
    """ASGI middleware: a WebSocket from an origin :func:`origin_allowed` refuses is
    denied before its consumer runs (the handshake gets a 403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: _ChannelScope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
