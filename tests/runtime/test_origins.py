"""Which pages may open a WebSocket: the site's own origin and the trusted ones,
matched on scheme, host and port (runtime/origins.py)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from runtime.origins import origin_allowed, parse_origin

# Consumers close stale database connections around every event.
pytestmark = pytest.mark.django_db

HOST = "127.0.0.1:8000"


def scope(origin: str | None, *, host: str = HOST, scheme: str = "ws", **extra: str) -> dict:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += [(name.encode(), value.encode()) for name, value in extra.items()]
    return {"type": "websocket", "scheme": scheme, "headers": headers}


async def opens(headers: list[tuple[bytes, bytes]]) -> bool:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    connected, _ = await communicator.connect()
    if connected:
        await communicator.disconnect()
    return connected


@pytest.mark.parametrize(
    "origin",
    [
        # Another port of the same host, another host of ALLOWED_HOSTS, another scheme.
        "http://127.0.0.1:6666",
        "http://localhost:1",
        "http://localhost:8000",
        "https://127.0.0.1:8000",
        "http://127.0.0.1",
        "http://evil.example",
        "null",
        "http://127.0.0.1:8000/page",
        "http://user@127.0.0.1:8000",
        "ftp://127.0.0.1:8000",
        "http://127.0.0.1:99999",
        "",
    ],
)
async def test_a_socket_from_any_other_origin_than_the_sites_own_is_denied(origin: str) -> None:
    headers = [(b"origin", origin.encode()), (b"host", HOST.encode())]

    assert await opens(headers) is False


async def test_a_socket_from_the_sites_own_origin_opens() -> None:
    assert await opens([(b"origin", b"http://127.0.0.1:8000"), (b"host", HOST.encode())]) is True


@override_settings(CSRF_TRUSTED_ORIGINS=["https://atu.example", "https://*.whist.example:8443"])
@pytest.mark.parametrize(
    ("origin", "opened"),
    [
        ("https://atu.example", True),
        ("HTTPS://ATU.example:443", True),
        ("http://atu.example", False),
        ("https://atu.example:8443", False),
        ("https://cluj.whist.example:8443", True),
        ("https://whist.example:8443", True),
        ("https://cluj.whist.example", False),
        ("https://evilwhist.example:8443", False),
    ],
)
async def test_a_trusted_origin_opens_a_socket_on_its_scheme_and_port_only(
    origin: str, opened: bool
) -> None:
    assert await opens([(b"origin", origin.encode()), (b"host", HOST.encode())]) is opened


def test_a_socket_without_one_origin_or_from_a_host_not_allowed_is_denied() -> None:
    assert origin_allowed(scope(None)) is False
    twice = scope("http://127.0.0.1:8000")
    twice["headers"].append((b"origin", b"http://127.0.0.1:8000"))
    assert origin_allowed(twice) is False
    # Same origin, but a Host that ALLOWED_HOSTS does not list.
    assert origin_allowed(scope("http://evil.example", host="evil.example")) is False


def test_a_secure_socket_is_of_its_https_origin() -> None:
    assert origin_allowed(scope("https://127.0.0.1:8000", scheme="wss")) is True
    assert origin_allowed(scope("http://127.0.0.1:8000", scheme="wss")) is False


@pytest.mark.parametrize(
    ("proxy_header", "forwarded", "origin", "allowed"),
    [
        # Behind a front that terminated TLS and says so, the page is https.
        (("HTTP_X_FORWARDED_PROTO", "https"), "https", "https://127.0.0.1:8000", True),
        (("HTTP_X_FORWARDED_PROTO", "https"), "https", "http://127.0.0.1:8000", False),
        (("HTTP_X_FORWARDED_PROTO", "https"), "http", "https://127.0.0.1:8000", False),
        # Unless the settings trust the front, anyone could send the header.
        (None, "https", "https://127.0.0.1:8000", False),
        (None, "https", "http://127.0.0.1:8000", True),
    ],
)
def test_the_forwarded_scheme_counts_only_when_the_settings_trust_the_front(
    proxy_header: Any, forwarded: str, origin: str, allowed: bool
) -> None:
    with override_settings(SECURE_PROXY_SSL_HEADER=proxy_header):
        assert origin_allowed(scope(origin, **{"x-forwarded-proto": forwarded})) is allowed


def test_an_origin_is_parsed_to_its_scheme_host_and_explicit_port() -> None:
    assert parse_origin("http://127.0.0.1:8000") == ("http", "127.0.0.1", 8000)
    assert parse_origin("HTTPS://Atu.Example") == ("https", "atu.example", 443)
    assert parse_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert parse_origin("http://127.0.0.1:8000/") is None
    assert parse_origin("null") is None
