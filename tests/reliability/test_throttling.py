"""Signing in against served processes (production mode): two uvicorn processes on one
Redis, configured by the environment, count the budgets of failed sign-ins together
(decision 3301). A guesser alternating between them is answered 429 after the
configured limit in all, on the API's login and token endpoints and on the login page,
and then not even the right password gets in, whether the guesses come from one
address or one account's from many; a room of players behind one address all sign in.

The processes sit where the front would, on 127.0.0.1: uvicorn takes each request's
client address from its ``X-Forwarded-For`` as it does behind the front, so each guesser
here has an address of its own."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from accounts.models import User
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.games.live.test_two_processes import production_only, servers

pytestmark = [production_only, pytest.mark.django_db(transaction=True)]

ATTEMPTS = 50
# Low, so that few attempts check a password with the real (slow) hasher.
LIMIT = 5
TIMEOUT = 10
# One sign-in: (url, client address, username, password) -> the status answered.
Attempt = Callable[[str, str, str, str], int]


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def api_attempt(url: str, address: str, username: str, password: str) -> int:
    body = json.dumps({"username": username, "password": password}).encode()
    return post(url, body, {"Content-Type": "application/json", "X-Forwarded-For": address})


def page_attempt(url: str, address: str, username: str, password: str) -> int:
    """A browser's sign-in: the page for its CSRF cookie, then the form."""
    with urllib.request.urlopen(
        urllib.request.Request(url, headers={"X-Forwarded-For": address}), timeout=TIMEOUT
    ) as page:
        cookie = next(
            value.split(";")[0]
            for value in page.headers.get_all("Set-Cookie") or []
            if value.startswith("csrftoken=")
        )
    form = {
        "csrfmiddlewaretoken": cookie.split("=", 1)[1],
        "username": username,
        "password": password,
    }
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookie,
        "X-Forwarded-For": address,
    }
    return post(url, urllib.parse.urlencode(form).encode(), headers)


def players(count: int) -> list[User]:
    """``count`` users whose password the served processes can check: they know
    Django's default hashers, not the tests' fast one (hashed once: it is slow)."""
    hasher = PBKDF2PasswordHasher()
    users = UserFactory.create_batch(count)
    User.objects.filter(pk__in=[user.pk for user in users]).update(
        password=hasher.encode(DEFAULT_PASSWORD, hasher.salt())
    )
    return users


@pytest.mark.parametrize(
    ("path", "attempt", "refused"),
    [
        ("/api/auth/login/", api_attempt, 400),
        ("/api/auth/token/", api_attempt, 400),
        ("/accounts/login/", page_attempt, 200),
    ],
    ids=["api-login", "api-token", "login-page"],
)
def test_fifty_wrong_passwords_are_answered_429_after_the_configured_limit(
    path: str,
    attempt: Attempt,
    refused: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = UserFactory.create()
    monkeypatch.setenv("ATU_THROTTLE_LOGIN", f"{LIMIT}/min")
    guesser = "203.0.113.7"

    with servers(2, tmp_path) as addresses:
        urls = [f"http://{address}{path}" for address in addresses]
        wrong = [
            attempt(urls[n % 2], guesser, user.username, f"guess-{n}") for n in range(ATTEMPTS)
        ]
        right = [attempt(url, guesser, user.username, DEFAULT_PASSWORD) for url in urls]
        neighbour = attempt(urls[0], "203.0.113.8", user.username, "guess")

    assert wrong == [refused] * LIMIT + [429] * (ATTEMPTS - LIMIT)
    assert right == [429, 429]
    assert neighbour == refused


@pytest.mark.parametrize(
    ("path", "attempt", "refused"),
    [
        ("/api/auth/login/", api_attempt, 400),
        ("/api/auth/token/", api_attempt, 400),
        ("/accounts/login/", page_attempt, 200),
    ],
    ids=["api-login", "api-token", "login-page"],
)
def test_one_accounts_wrong_passwords_from_many_addresses_are_answered_429_after_its_limit(
    path: str,
    attempt: Attempt,
    refused: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = UserFactory.create()
    monkeypatch.setenv("ATU_THROTTLE_LOGIN_ACCOUNT", f"{LIMIT}/15min")

    with servers(2, tmp_path) as addresses:
        urls = [f"http://{address}{path}" for address in addresses]
        wrong = [
            attempt(urls[n % 2], f"203.0.113.{n}", user.username, f"guess-{n}")
            for n in range(LIMIT + 3)
        ]
        right = attempt(urls[0], "198.51.100.200", user.username, DEFAULT_PASSWORD)

    assert wrong == [refused] * LIMIT + [429] * 3
    assert right == 429


def test_a_room_of_players_behind_one_address_signs_in_across_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = players(2 * LIMIT)
    monkeypatch.setenv("ATU_THROTTLE_LOGIN", f"{LIMIT}/min")
    venue = "192.0.2.10"

    with servers(2, tmp_path) as addresses:
        answers = [
            api_attempt(
                f"http://{addresses[n % 2]}/api/auth/login/",
                venue,
                player.username,
                DEFAULT_PASSWORD,
            )
            for n, player in enumerate(room)
        ]

    assert answers == [200] * (2 * LIMIT)
