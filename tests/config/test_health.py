import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts.models import User
from config.asgi import application

# Consumers close stale database connections around every event, so even tests that
# store nothing need database access.
pytestmark = pytest.mark.django_db

ALLOWED_ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def expected_layer_class_name() -> str:
    """Embedded mode runs in one process; with Redis the pub/sub layer spans processes."""
    return "InMemoryChannelLayer" if settings.ENV.redis_url is None else "RedisPubSubChannelLayer"


def test_healthz_reports_database_vendor_and_channel_layer(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": connection.vendor,
        "channel_layer": expected_layer_class_name(),
    }


async def test_websocket_greets_anonymous_user_and_pongs_through_the_channel_layer() -> None:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ALLOWED_ORIGIN)

    connected, _ = await communicator.connect()
    hello = await communicator.receive_json_from()
    await communicator.send_json_to({"type": "ping"})
    pong = await communicator.receive_json_from()
    await communicator.disconnect()

    assert connected is True
    assert hello == {"type": "hello", "user": None}
    assert pong == {"type": "pong"}


async def test_websocket_answers_an_unknown_message_with_an_error() -> None:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ALLOWED_ORIGIN)
    await communicator.connect()
    await communicator.receive_json_from()

    await communicator.send_json_to({"type": "shuffle"})
    reply = await communicator.receive_json_from()
    await communicator.disconnect()

    assert reply == {"type": "error", "error": "unknown message type"}


async def test_websocket_from_a_foreign_origin_is_rejected() -> None:
    communicator = WebsocketCommunicator(
        application,
        "/ws/health/",
        headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1:8000")],
    )

    connected, _ = await communicator.connect()

    assert connected is False


@pytest.mark.django_db(transaction=True)
async def test_websocket_greets_the_user_logged_in_through_the_session_cookie(
    user: User, logged_in_client: Client
) -> None:
    session_id = logged_in_client.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_id}".encode()
    communicator = WebsocketCommunicator(
        application, "/ws/health/", headers=[*ALLOWED_ORIGIN, (b"cookie", cookie)]
    )

    await communicator.connect()
    hello = await communicator.receive_json_from()
    await communicator.disconnect()

    assert hello == {"type": "hello", "user": user.username}
