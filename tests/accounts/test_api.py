"""The accounts REST API: register, log in and out, tokens, who am I."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

STRONG = "walnut-orbit-harbor"


def error(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) <= {"code", "message", "fields"}
    assert body["message"]
    return response.status_code, body["code"]


def me(client: APIClient) -> Any:
    return client.get("/api/auth/me/")


# --- Registering ---------------------------------------------------------------------------


def test_registering_creates_the_user_and_answers_with_a_working_token() -> None:
    response = APIClient().post(
        "/api/auth/register/",
        {"username": "ana", "password": STRONG, "display_name": "Ana Pop"},
    )

    assert response.status_code == 201
    body = response.json()
    user = User.objects.get(username="ana")
    assert body["user"] == {
        "id": user.pk,
        "username": "ana",
        "display_name": "Ana Pop",
        "can_organize": False,
    }
    assert body["token"] == Token.objects.get(user=user).key
    assert user.check_password(STRONG)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me(client).json()["username"] == "ana"


def test_the_display_name_is_optional() -> None:
    response = APIClient().post("/api/auth/register/", {"username": "bo", "password": STRONG})

    assert response.status_code == 201
    assert response.json()["user"]["display_name"] == ""


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short1", "This password is too short. It must contain at least 8 characters."),
        ("password", "This password is too common."),
        ("83920174", "This password is entirely numeric."),
        ("ana-maria-pop", "The password is too similar to the username."),
    ],
)
def test_a_password_the_validators_refuse_is_invalid_input_and_creates_nobody(
    password: str, message: str
) -> None:
    response = APIClient().post(
        "/api/auth/register/", {"username": "ana-maria-pop", "password": password}
    )

    assert error(response) == (400, "invalid_input")
    assert message in response.json()["fields"]["password"]
    assert response.json()["message"].startswith("password: ")
    assert not User.objects.filter(username="ana-maria-pop").exists()


@pytest.mark.parametrize("taken", ["ana", "ANA", "Ana"])
def test_a_username_taken_in_any_case_is_invalid_input(taken: str) -> None:
    UserFactory.create(username="ana")

    response = APIClient().post("/api/auth/register/", {"username": taken, "password": STRONG})

    assert error(response) == (400, "invalid_input")
    assert response.json()["fields"] == {"username": ["this username is taken"]}
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"username", "password"}),
        ({"username": "ana"}, {"password"}),
        ({"username": "an a", "password": STRONG}, {"username"}),
        ({"username": "a" * 151, "password": STRONG}, {"username"}),
        ({"username": ["ana"], "password": STRONG}, {"username"}),
        ({"username": "ana", "password": STRONG, "display_name": "x" * 65}, {"display_name"}),
    ],
)
def test_registering_with_missing_or_bad_fields_is_invalid_input(
    body: dict[str, Any], fields: set[str]
) -> None:
    response = APIClient().post("/api/auth/register/", body)

    assert error(response) == (400, "invalid_input")
    assert set(response.json()["fields"]) == fields
    assert User.objects.count() == 0


def test_a_malformed_body_is_400_parse_error() -> None:
    response = APIClient().post(
        "/api/auth/register/", '{"username": ', content_type="application/json"
    )

    assert error(response) == (400, "parse_error")


# --- Logging in and out -------------------------------------------------------------------


def test_logging_in_starts_a_session_and_answers_with_the_users_token(user: User) -> None:
    client = APIClient()

    response = client.post(
        "/api/auth/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )

    assert response.status_code == 200
    assert response.json()["user"]["username"] == user.username
    assert response.json()["token"] == Token.objects.get(user=user).key
    assert me(client).json()["id"] == user.pk  # by the session cookie alone


@pytest.mark.parametrize(
    ("username", "password"), [("player-x", "wrong-password"), ("nobody", DEFAULT_PASSWORD)]
)
def test_logging_in_with_wrong_credentials_is_400_invalid_credentials(
    username: str, password: str
) -> None:
    UserFactory.create(username="player-x")
    client = APIClient()

    response = client.post("/api/auth/login/", {"username": username, "password": password})

    assert error(response) == (400, "invalid_credentials")
    assert response.json()["message"] == "the username and password do not match an active account"
    assert error(me(client)) == (401, "not_authenticated")


def test_an_inactive_user_cannot_log_in_or_get_a_token() -> None:
    UserFactory.create(username="gone", is_active=False)
    credentials = {"username": "gone", "password": DEFAULT_PASSWORD}

    assert error(APIClient().post("/api/auth/login/", credentials)) == (400, "invalid_credentials")
    assert error(APIClient().post("/api/auth/token/", credentials)) == (400, "invalid_credentials")


def test_logging_out_by_token_revokes_that_token(user: User) -> None:
    credentials = {"username": user.username, "password": DEFAULT_PASSWORD}
    token = APIClient().post("/api/auth/token/", credentials).json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.post("/api/auth/logout/")

    assert response.status_code == 204
    assert not Token.objects.filter(key=token).exists()
    assert error(me(client)) == (401, "authentication_failed")


def test_logging_out_ends_the_session(user: User) -> None:
    client = APIClient()
    client.post("/api/auth/login/", {"username": user.username, "password": DEFAULT_PASSWORD})

    response = client.post("/api/auth/logout/")

    assert response.status_code == 204
    assert error(me(client)) == (401, "not_authenticated")
    # The token was not what the request came with: it stays valid for other clients.
    assert Token.objects.filter(user=user).exists()


def test_logging_out_by_session_needs_the_csrf_token(user: User) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.post("/api/auth/login/", {"username": user.username, "password": DEFAULT_PASSWORD})

    refused = client.post("/api/auth/logout/")

    assert error(refused) == (403, "permission_denied")
    assert me(client).status_code == 200


def test_logging_out_when_not_logged_in_does_nothing() -> None:
    assert APIClient().post("/api/auth/logout/").status_code == 204


# --- Tokens and who am I -------------------------------------------------------------------------


def test_a_token_is_obtained_with_username_and_password_and_stays_the_same(user: User) -> None:
    credentials = {"username": user.username, "password": DEFAULT_PASSWORD}

    first = APIClient().post("/api/auth/token/", credentials)
    second = APIClient().post("/api/auth/token/", credentials)

    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() == {"token": Token.objects.get(user=user).key}


def test_a_token_for_a_wrong_password_is_400_invalid_credentials(user: User) -> None:
    response = APIClient().post("/api/auth/token/", {"username": user.username, "password": "x"})

    assert error(response) == (400, "invalid_credentials")
    assert not Token.objects.exists()


def test_me_describes_the_signed_in_user(user: User) -> None:
    client = APIClient()
    client.force_authenticate(user)

    assert me(client).json() == {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "can_organize": False,
    }


def test_me_without_signing_in_is_401_not_authenticated() -> None:
    response = me(APIClient())

    assert error(response) == (401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
