"""Crafted input, as an outside tester sends it: a JSON body nested 5,000 deep, a 3 MB
body, a body that is not UTF-8, on every route of the URL conf a client may POST to
and on every socket. Each is answered 400/413 (a socket: an error, or an error and a
close), never a 5xx, and nothing is written; through Django's test client and
Channels' communicator, and in production mode against a served uvicorn process.

The request rates are off here: the routes are posted to far more often than anyone
may sign in (``tests/accounts/test_throttling.py`` holds them to it)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.test import Client
from django.urls import URLResolver, get_resolver
from rest_framework.test import APIClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import User
from accounts.services import user_token
from config.asgi import application
from games.models import Game
from tests.games.drivers import seated_game
from tests.games.live.test_two_processes import production_only, servers
from tests.tournaments.drivers import organizer
from tournaments import services as tournament_services
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

DEPTH = 5000
DEEP = b"[" * DEPTH + b"]" * DEPTH
HUGE = json.dumps({"username": "a" * 3_000_000, "password": "x"}).encode()
NOT_UTF8 = b'{"username": "\xff\xfe", "password": "\xc3("}'
TWICE = b'{"bid": 0, "bid": 1}'
CRAFTED = {"deep": DEEP, "huge": HUGE, "not_utf8": NOT_UTF8, "twice": TWICE}
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"

# What an endpoint that reads a JSON body answers each crafted body.
API_ANSWERS = {
    "deep": (400, "too_deep"),
    "huge": (413, "request_too_large"),
    "not_utf8": (400, "parse_error"),
    "twice": (400, "duplicate_key"),
}
# The API routes anyone may post a body to, and those a signed-in client may.
ANONYMOUS_API = ["api/auth/register/", "api/auth/login/", "api/auth/token/"]
SIGNED_IN_API = [
    "api/games/",
    "api/games/<str:ref>/join/",
    "api/games/<str:ref>/bid/",
    "api/games/<str:ref>/play/",
    "api/games/<str:ref>/zero-play/",
    "api/games/<str:ref>/one-card-mode/",
    "api/games/<str:ref>/seat-bot/",
    "api/games/<str:ref>/chat/",
]
# The pages whose forms anyone may post (each reads its form): a body over the
# limit is the 413 page.
ANONYMOUS_FORMS = [
    "accounts/login/",
    "accounts/register/",
    "accounts/password/reset/",
    "i18n/setlang/",
    "admin/login/",
    "games/<str:ref>/sit-as-guest/",
]
# A signed-in user's actions that read no body: any body, crafted or not, does them
# (and signing out would make the rest anonymous).
SIGNED_IN_BODILESS = {
    "accounts/logout/",
    "api/auth/logout/",
    "events/<str:code>/register/",
    "events/<str:code>/check-in/",
    "events/<str:code>/withdraw/",
}
SERVER_ERROR = re.compile(r"Traceback|Exception in ASGI application")
# The application failing on a message (uvicorn logs how it refused a frame itself).
APPLICATION_ERROR = re.compile(r"Exception in ASGI application")
TIMEOUT = 10


@pytest.fixture(autouse=True)
def no_rates(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "login": None},
    }
    for name in ("ATU_THROTTLE_ANON", "ATU_THROTTLE_USER", "ATU_THROTTLE_LOGIN"):
        monkeypatch.setenv(name, "off")  # For served processes.


def routes() -> list[str]:
    """Every route of the URL conf as written (``games/<str:ref>/``); of the admin's,
    the login page (the rest is for staff only)."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[str]:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                if route != "admin/":
                    yield from walk(entry.url_patterns, route)
            else:
                yield route

    return sorted({*walk(get_resolver().url_patterns, ""), "admin/login/"})


def world() -> dict[str, str]:
    """A value for each of the routes' parameters: a game, an event, a season."""
    game_id, users = seated_game()
    host = organizer()
    season = tournament_services.season_create(organizer=host, name="Sezonul 1")
    event = tournament_services.event_create(organizer=host, name="Cupa Atu", rounds=1)
    code = Game.objects.get(pk=game_id).code
    return {
        "ref": code,
        "game_code": code,
        "code": event.code,
        "season_id": str(season.id),
        "player_id": str(users[0].pk),
        "user_id": str(users[1].pk),
        "number": "1",
        # A password reset link that is no account's.
        "uidb64": "MQ",
        "token": "not-a-token",
        "message": "1",
    }


def path_of(route: str, values: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: values[match.group(1)], route)


def rows() -> dict[str, int]:
    """How many rows each table holds: a crafted request must change none."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def answer(response: Any) -> tuple[int, str | None]:
    try:
        code = json.loads(response.content).get("code")
    except ValueError:
        code = None
    return response.status_code, code


# --- Through Django's test client ---------------------------------------------------------


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "organizer"])
def test_every_route_answers_crafted_bodies_without_a_server_error_or_a_write(
    signed_in: bool,
) -> None:
    values = world()
    client = Client()
    if signed_in:
        # The event's organizer, who may post to every page of it.
        client.force_login(User.objects.get(pk=Event.objects.get(code=values["code"]).organizer_id))
    before = rows()

    answers = {
        (route, kind, content_type): client.post(
            path_of(route, values), body, content_type=content_type
        ).status_code
        for route in routes()
        if not (signed_in and route in SIGNED_IN_BODILESS)
        for kind, body in CRAFTED.items()
        for content_type in (JSON, FORM)
    }

    assert {key: status for key, status in answers.items() if status >= 500} == {}
    assert rows() == before


@pytest.mark.parametrize("route", ANONYMOUS_API)
@pytest.mark.parametrize("kind", CRAFTED)
def test_anonymous_api_bodies_are_400_or_413_with_their_code(route: str, kind: str) -> None:
    world()
    before = rows()

    response = APIClient().post(path_of(route, {}), CRAFTED[kind], content_type=JSON)

    assert answer(response) == API_ANSWERS[kind]
    assert rows() == before


@pytest.mark.parametrize("route", SIGNED_IN_API)
@pytest.mark.parametrize("kind", CRAFTED)
def test_signed_in_api_bodies_are_400_or_413_with_their_code(route: str, kind: str) -> None:
    values = world()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=User.objects.first())}")
    before = rows()

    response = client.post(path_of(route, values), CRAFTED[kind], content_type=JSON)

    assert answer(response) == API_ANSWERS[kind]
    assert rows() == before


@pytest.mark.parametrize("route", ANONYMOUS_FORMS)
def test_an_anonymous_form_over_the_limit_is_the_413_page(route: str) -> None:
    values = world()
    before = rows()
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")  # A browser has the CSRF cookie.

    response = client.post(path_of(route, values), HUGE, content_type=FORM)

    assert response.status_code == 413
    assert "The form sent more than" in response.content.decode()
    assert rows() == before


# --- Through Channels' communicator -------------------------------------------------------

ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@database_sync_to_async
def socket_paths() -> dict[str, str]:
    values = world()
    return {
        "game": f"/ws/games/{values['ref']}/",
        "event": f"/ws/events/{values['code']}/",
        "health": "/ws/health/",
    }


# A message each socket answers, to show that it still does.
FINE = {"game": {"type": "resync"}, "event": {"type": "refresh"}, "health": {"type": "ping"}}


async def opened(path: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    await communicator.receive_json_from(timeout=TIMEOUT)  # Its greeting or state.
    return communicator


@pytest.mark.parametrize("socket", ["game", "event", "health"])
async def test_each_socket_refuses_crafted_frames_and_closes_on_the_huge_one(
    socket: str,
) -> None:
    path = (await socket_paths())[socket]
    before = await database_sync_to_async(rows)()
    communicator = await opened(path)

    await communicator.send_to(text_data=DEEP.decode())
    deep = await communicator.receive_json_from(timeout=TIMEOUT)
    await communicator.send_to(bytes_data=NOT_UTF8)
    binary = await communicator.receive_json_from(timeout=TIMEOUT)
    await communicator.send_json_to(FINE[socket])
    still = await communicator.receive_json_from(timeout=TIMEOUT)
    await communicator.send_to(text_data=HUGE.decode())
    huge = await communicator.receive_json_from(timeout=TIMEOUT)
    closed = await communicator.receive_output(timeout=TIMEOUT)
    await communicator.disconnect()

    assert (deep["type"], deep["code"]) == ("error", "too_deep")
    assert (binary["type"], binary["code"]) == ("error", "invalid_input")
    assert still["type"] != "error"
    assert (huge["type"], huge["code"]) == ("error", "message_too_large")
    assert closed == {"type": "websocket.close", "code": 1009}
    assert await database_sync_to_async(rows)() == before


# --- Against a served process (production mode) -----------------------------------------


def post(
    url: str, body: bytes, content_type: str, headers: dict[str, str] | None = None
) -> tuple[int, str | None]:
    """POST ``body``: the status, and the error's code if the answer is one in JSON."""
    request = urllib.request.Request(
        url, data=body, headers={"Content-Type": content_type, **(headers or {})}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, text = int(response.status), response.read()
    except urllib.error.HTTPError as error:
        status, text = int(error.code), error.read()
    try:
        code = json.loads(text).get("code")
    except (ValueError, AttributeError):
        code = None
    return status, code


def csrf_cookie(address: str) -> str:
    with urllib.request.urlopen(f"http://{address}/accounts/login/", timeout=TIMEOUT) as page:
        cookies = page.headers.get_all("Set-Cookie") or []
    return next(c.split(";")[0] for c in cookies if c.startswith("csrftoken="))


def served_socket(address: str, path: str) -> ClientConnection:
    return connect(
        f"ws://{address}{path}", origin=Origin(f"http://{address}"), open_timeout=TIMEOUT
    )


def receive(websocket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(websocket.recv(timeout=TIMEOUT))
    return message


@production_only
def test_a_served_process_answers_crafted_input_without_a_server_error_or_a_write(
    tmp_path: Path,
) -> None:
    values = world()
    token = user_token(user=User.objects.first())
    before = rows()

    with servers(1, tmp_path) as (address,):
        base = f"http://{address}"
        cookie = csrf_cookie(address)
        anonymous = {
            (route, kind, content_type): post(f"{base}{path_of(route, values)}", body, content_type)
            for route in routes()
            for kind, body in CRAFTED.items()
            for content_type in (JSON, FORM)
        }
        sign_in = {
            (route, kind): post(f"{base}{path_of(route, values)}", body, JSON)
            for route in ANONYMOUS_API
            for kind, body in CRAFTED.items()
        }
        # With the CSRF cookie, as a browser posts: the CSRF check reads the form.
        forms = {
            route: post(f"{base}{path_of(route, values)}", HUGE, FORM, {"Cookie": cookie})
            for route in ANONYMOUS_FORMS
        }
        signed_in = {
            (route, kind): post(
                f"{base}{path_of(route, values)}", body, JSON, {"Authorization": f"Token {token}"}
            )
            for route in SIGNED_IN_API
            for kind, body in CRAFTED.items()
        }
        sockets = {
            name: served_frames(address, path)
            for name, path in {
                "game": f"/ws/games/{values['ref']}/",
                "event": f"/ws/events/{values['code']}/",
                "health": "/ws/health/",
            }.items()
        }
        logs = (tmp_path / "server-0.log").read_text()

    assert {key: answer for key, answer in anonymous.items() if answer[0] >= 500} == {}
    assert sign_in == {(route, kind): API_ANSWERS[kind] for route, kind in sign_in}
    assert signed_in == {(route, kind): API_ANSWERS[kind] for route, kind in signed_in}
    assert {status for status, _ in forms.values()} == {413}
    assert sockets == {
        name: {"deep": "too_deep", "huge": "message_too_large", "closed": 1009} for name in sockets
    }
    assert failures(logs) == []
    assert rows() == before


def failures(log: str) -> list[str]:
    """The log's lines about a failure: tracebacks, but for Django's report of each body
    it refused as too large (on its security logger, answered 413)."""
    return [
        line
        for line in log.splitlines()
        if SERVER_ERROR.search(line) and "django.security.RequestDataTooBig" not in line
    ]


def served_frames(address: str, path: str) -> dict[str, Any]:
    """What a served socket answers a frame nested too deep, then a 3 MB frame."""
    with served_socket(address, path) as websocket:
        receive(websocket)
        websocket.send(DEEP.decode())
        deep = receive(websocket)["code"]
        websocket.send(HUGE.decode())
        huge = receive(websocket)["code"]
        with pytest.raises(ConnectionClosed) as closed:
            websocket.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    return {"deep": deep, "huge": huge, "closed": closed.value.rcvd.code}


@production_only
def test_a_served_socket_closes_on_a_text_frame_that_is_not_utf8(tmp_path: Path) -> None:
    """uvicorn refuses the frame (1007, "invalid frame payload data") before the
    application sees it, and goes on serving."""
    with servers(1, tmp_path) as (address,):
        with served_socket(address, "/ws/health/") as websocket:
            receive(websocket)
            websocket.send(b'{"type": "\xff"}', text=True)
            with pytest.raises(ConnectionClosed) as closed:
                websocket.recv(timeout=TIMEOUT)
        with served_socket(address, "/ws/health/") as websocket:
            hello = receive(websocket)
        logs = (tmp_path / "server-0.log").read_text()

    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1007
    assert hello == {"type": "hello", "user": None}
    assert "Invalid UTF-8 sequence received from client." in logs
    assert not APPLICATION_ERROR.search(logs), logs
