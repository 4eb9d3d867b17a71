import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import User
from config.asgi import application
from config.settings.environment import BASE_DIR
from runtime.health import CHECK_SECONDS
from tests.games.live.test_two_processes import (
    TIMEOUT,
    UVICORN,
    free_port,
    production_only,
    wait_until_healthy,
)

# Consumers close stale database connections around every event, so even tests that
# store nothing need database access.
pytestmark = pytest.mark.django_db

ALLOWED_ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def production_refusing_env() -> dict[str, str]:
    """Production settings whose PostgreSQL and Redis refuse: every query fails."""
    closed = free_port()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://atu@127.0.0.1:{closed}/atu",
        "REDIS_URL": f"redis://127.0.0.1:{closed}/0",
        "SECRET_KEY": "a-key-for-this-test-only",
        # A request gives up on the pool after a second, not the default ten.
        "DATABASE_POOL_TIMEOUT": "1",
    }


@contextmanager
def served(env: dict[str, str], log: Path) -> Iterator[str]:
    """One uvicorn process as production runs it, on ``env``; its host:port."""
    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(UVICORN), "config.asgi:application", "--port", str(port), "--lifespan", "on"],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_healthy(process, f"127.0.0.1:{port}", log)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)


def test_healthz_says_the_process_lives_without_asking_the_database(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db(transaction=True)
def test_readyz_reports_each_check_embedded_or_with_a_worker_answering(
    client: Client, request: pytest.FixtureRequest
) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        expected = {"database": "ok", "redis": "embedded", "celery": "eager"}
    else:
        request.getfixturevalue("celery_worker")
        expected = {"database": "ok", "redis": "ok", "celery": "ok"}

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": expected}


@production_only
@pytest.mark.django_db(transaction=True)
def test_readyz_is_503_while_no_celery_worker_answers(client: Client) -> None:
    started = time.monotonic()
    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "redis": "ok", "celery": "unavailable"},
    }
    assert time.monotonic() - started < CHECK_SECONDS + 1


def test_a_server_whose_database_and_redis_refuse_answers_readyz_503_in_json(
    tmp_path: Path,
) -> None:
    # Given a production server process whose PostgreSQL and Redis ports refuse
    with served(production_refusing_env(), tmp_path / "server.log") as address:
        # When the front asks whether it lives, and whether it is ready
        alive = urllib.request.urlopen(f"http://{address}/healthz", timeout=TIMEOUT)
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(f"http://{address}/readyz", timeout=TIMEOUT)

    # Then it lives, and says in JSON what it lacks
    assert alive.status == 200
    assert json.load(alive) == {"status": "ok"}
    assert answer.value.code == 503
    assert answer.value.headers["Content-Type"] == "application/json"
    assert json.load(answer.value) == {
        "status": "unavailable",
        "checks": {"database": "unavailable", "redis": "unavailable", "celery": "unavailable"},
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
