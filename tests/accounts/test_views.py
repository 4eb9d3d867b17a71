"""The account pages: register, log in, log out, with sessions."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.shortcuts import resolve_url
from django.test import Client

from accounts.models import User
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

STRONG = "walnut-orbit-harbor"


def signed_in_as(client: Client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return None if value is None else int(value)


def registration(**changes: str) -> dict[str, str]:
    return {
        "username": "ana",
        "display_name": "Ana Pop",
        "password": STRONG,
        "password_again": STRONG,
        **changes,
    }


def test_the_register_page_shows_the_form(client: Client) -> None:
    response = client.get("/accounts/register/")

    assert response.status_code == 200
    page = response.content.decode()
    for name in ("username", "display_name", "password", "password_again"):
        assert f'name="{name}"' in page
    assert 'href="/accounts/login/"' in page


def test_registering_creates_the_user_signs_them_in_and_goes_home(client: Client) -> None:
    response = client.post("/accounts/register/", registration())

    user = User.objects.get(username="ana")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert user.display_name == "Ana Pop"
    assert user.check_password(STRONG)
    assert signed_in_as(client) == user.pk


def test_registering_goes_on_to_the_page_asked_for_on_this_site_only(client: Client) -> None:
    local = client.post("/accounts/register/?next=/rules/", registration())
    client.logout()
    foreign = client.post(
        "/accounts/register/?next=https://evil.example/", registration(username="bo")
    )

    assert local["Location"] == "/rules/"
    assert foreign["Location"] == "/"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"password_again": "something-else-1"}, "password_again", "The two passwords differ."),
        (
            {"password": "password", "password_again": "password"},
            "password",
            "This password is too common.",
        ),
        ({"username": "an a"}, "username", "Enter a valid username."),
        ({"username": ""}, "username", "This field is required."),
        ({"username": "ANA"}, "username", "this username is taken"),
    ],
)
def test_a_refused_registration_shows_the_form_again_with_the_reason(
    client: Client, changes: dict[str, str], field: str, message: str
) -> None:
    UserFactory.create(username="Ana")

    response = client.post("/accounts/register/", registration(**changes))

    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors[field])
    assert User.objects.count() == 1
    assert signed_in_as(client) is None


def test_a_signed_in_user_is_sent_home_from_the_register_page(client: Client, user: User) -> None:
    client.force_login(user)

    response = client.get("/accounts/register/")

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_the_login_page_signs_in_with_username_and_password(client: Client, user: User) -> None:
    page = client.get("/accounts/login/")

    response = client.post(
        "/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )

    assert page.status_code == 200
    assert 'name="password"' in page.content.decode()
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_as(client) == user.pk


def test_a_wrong_password_on_the_login_page_signs_nobody_in(client: Client, user: User) -> None:
    response = client.post("/accounts/login/", {"username": user.username, "password": "nope"})

    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert signed_in_as(client) is None


def test_logging_out_by_post_signs_out_and_goes_home(client: Client, user: User) -> None:
    client.force_login(user)

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_as(client) is None


def test_logging_out_by_get_is_not_allowed(client: Client, user: User) -> None:
    client.force_login(user)

    response = client.get("/accounts/logout/")

    assert response.status_code == 405
    assert signed_in_as(client) == user.pk


def test_pages_that_need_a_user_send_visitors_to_the_login_page() -> None:
    assert resolve_url(settings.LOGIN_URL) == "/accounts/login/"
    assert resolve_url(settings.LOGIN_REDIRECT_URL) == "/"
