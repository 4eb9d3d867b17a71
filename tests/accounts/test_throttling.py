"""Password guessing: signing in, getting a token and registering share one budget per
address, on the API and the pages alike; over it, 429 with ``Retry-After``, and not
even the right password gets in."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from runtime.limits import parse_rate
from tests.accounts.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

ATTEMPTS = 50
STRONG = "walnut-orbit-harbor"


def login_limit() -> int:
    rate = parse_rate(django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login"])
    assert rate is not None, "the sign-in rate is configured"
    assert rate[0] < ATTEMPTS, "the test makes more attempts than the sign-in rate allows"
    return rate[0]


def statuses(responses: list[Any]) -> list[int]:
    return [response.status_code for response in responses]


def assert_throttled_api(response: Any) -> None:
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert body["message"].startswith("Request was throttled.")
    assert 1 <= int(response["Retry-After"]) <= 60


def signed_in_as(client: Client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return None if user_id is None else int(user_id)


@pytest.mark.parametrize("path", ["/api/auth/login/", "/api/auth/token/"])
def test_wrong_passwords_on_the_api_are_throttled_after_the_configured_limit(
    path: str, user: User
) -> None:
    client = APIClient()
    limit = login_limit()

    wrong = [
        client.post(path, {"username": user.username, "password": f"guess-{n}"})
        for n in range(ATTEMPTS)
    ]
    right = client.post(path, {"username": user.username, "password": DEFAULT_PASSWORD})

    assert statuses(wrong) == [400] * limit + [429] * (ATTEMPTS - limit)
    assert {response.json()["code"] for response in wrong[:limit]} == {"invalid_credentials"}
    assert_throttled_api(wrong[-1])
    assert_throttled_api(right)


def test_wrong_passwords_on_the_login_page_are_throttled_after_the_configured_limit(
    client: Client, user: User
) -> None:
    limit = login_limit()

    wrong = [
        client.post("/accounts/login/", {"username": user.username, "password": f"guess-{n}"})
        for n in range(ATTEMPTS)
    ]
    right = client.post(
        "/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )

    assert statuses(wrong) == [200] * limit + [429] * (ATTEMPTS - limit)
    assert right.status_code == 429
    assert 1 <= int(right["Retry-After"]) <= 60
    assert "Too many attempts from your address. Try again in" in right.content.decode()
    assert signed_in_as(client) is None


def test_the_throttled_login_page_says_so_in_romanian(client: Client, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "login": "1/min"},
    }
    client.post("/accounts/login/", {"username": "ana", "password": "x"})

    response = client.post(
        "/accounts/login/", {"username": "ana", "password": "x"}, HTTP_ACCEPT_LANGUAGE="ro"
    )

    assert response.status_code == 429
    assert "Prea multe încercări de la adresa ta" in response.content.decode()


def test_reading_the_login_page_spends_nothing(client: Client) -> None:
    pages = [client.get("/accounts/login/") for _ in range(ATTEMPTS)]

    assert set(statuses(pages)) == {200}


def test_registering_shares_the_sign_in_budget_on_the_api_and_the_page() -> None:
    limit = login_limit()
    api = APIClient()

    answers = []
    for n in range(limit + 2):
        name = f"farm{n}"
        if n % 2:
            answers.append(api.post("/api/auth/register/", {"username": name, "password": STRONG}))
        else:
            form = {"username": name, "password": STRONG, "password_again": STRONG}
            # A new browser each time: one signed in by registering is sent home.
            answers.append(Client().post("/accounts/register/", form))

    assert [answer.status_code < 400 for answer in answers] == [True] * limit + [False] * 2
    assert statuses(answers[limit:]) == [429, 429]
    assert User.objects.count() == limit


def test_the_pages_and_the_api_spend_one_budget(client: Client, user: User) -> None:
    limit = login_limit()
    wrong = {"username": user.username, "password": "nope"}

    on_the_page = [client.post("/accounts/login/", wrong) for _ in range(limit)]
    on_the_api = APIClient().post("/api/auth/token/", wrong)

    assert set(statuses(on_the_page)) == {200}
    assert_throttled_api(on_the_api)


def test_another_address_keeps_its_own_budget(user: User) -> None:
    limit = login_limit()
    wrong = {"username": user.username, "password": "nope"}
    guesser = APIClient(REMOTE_ADDR="203.0.113.7")
    neighbour = APIClient(REMOTE_ADDR="203.0.113.8")

    guessed = [guesser.post("/api/auth/login/", wrong) for _ in range(limit + 1)]
    right = neighbour.post(
        "/api/auth/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )

    assert guessed[-1].status_code == 429
    assert right.status_code == 200


def test_a_forged_forwarded_for_header_does_not_buy_a_new_budget(user: User) -> None:
    limit = login_limit()
    client = APIClient()
    wrong = {"username": user.username, "password": "nope"}

    answers = [
        client.post("/api/auth/login/", wrong, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")
        for n in range(limit + 1)
    ]

    assert answers[-1].status_code == 429


def test_the_sign_in_rate_is_the_setting(settings: Any, user: User) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "login": "3/min"},
    }
    client = APIClient()
    wrong = {"username": user.username, "password": "nope"}

    answers = [client.post("/api/auth/login/", wrong) for _ in range(5)]

    assert statuses(answers) == [400, 400, 400, 429, 429]


def test_without_a_sign_in_rate_nothing_is_throttled(settings: Any, user: User) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "login": None},
    }
    client = APIClient()
    wrong = {"username": user.username, "password": "nope"}

    answers = [client.post("/api/auth/login/", wrong) for _ in range(ATTEMPTS)]

    assert set(statuses(answers)) == {400}


def test_playing_as_a_guest_spends_the_sign_in_budget_and_over_it_makes_no_guest() -> None:
    limit = login_limit()
    play = {"preset": "championship", "player_count": "3"}

    # Each guest is a new browser: a client of its own, from the one address
    answers = [Client().post("/games/play-now/", play) for _ in range(limit + 1)]

    assert statuses(answers) == [302] * limit + [429]
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    assert User.objects.filter(is_guest=True).count() == limit
