"""The account pages: register, log in, log out, with sessions."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.shortcuts import resolve_url
from django.test import Client

from accounts.models import User
from games.models import Game
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


# --- Guests ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_guest_registers_and_keeps_their_account_and_games(client: Client) -> None:
    # Given a guest who played a table
    client.post("/games/play-now/", {"preset": "championship", "player_count": "3"})
    guest = User.objects.get(is_guest=True)
    assert "You play as the guest" in client.get("/accounts/register/").content.decode()

    # When they register
    response = client.post(
        "/accounts/register/",
        {
            "username": "maria",
            "display_name": "Maria",
            "password": "walnut-orbit-harbor",
            "password_again": "walnut-orbit-harbor",
        },
    )

    # Then the same account is now a full one, still signed in, with its game
    assert response.status_code == 302
    user = User.objects.get(pk=guest.pk)
    assert (user.username, user.display_name, user.is_guest) == ("maria", "Maria", False)
    assert user.check_password("walnut-orbit-harbor")
    assert User.objects.count() == 1 + User.objects.filter(is_bot=True).count()
    assert int(client.session[SESSION_KEY]) == user.pk
    assert Game.objects.get().seats[0]["user_id"] == user.pk


# --- Where the visitor was going (decision 3501) -----------------------------------------


@pytest.mark.parametrize(
    ("page", "other_page_link"),
    [
        ("/accounts/login/", 'id="to-register" href="/accounts/register/?next=/games/K7MX2Q/"'),
        ("/accounts/register/", 'id="to-sign-in" href="/accounts/login/?next=/games/K7MX2Q/"'),
    ],
)
def test_the_sign_in_and_register_pages_keep_where_the_visitor_was_going(
    client: Client, page: str, other_page_link: str
) -> None:
    content = client.get(page, {"next": "/games/K7MX2Q/"}).content.decode()

    # Their form posts it, the link to the other page carries it
    assert 'name="next" value="/games/K7MX2Q/"' in content
    assert other_page_link in content
    # and so do the header's links, rather than the page itself
    assert 'id="sign-in-link" href="/accounts/login/?next=%2Fgames%2FK7MX2Q%2F"' in content
    assert 'id="register-link" href="/accounts/register/?next=%2Fgames%2FK7MX2Q%2F"' in content


@pytest.mark.parametrize(
    ("page", "other_page_link"),
    [
        ("/accounts/login/", 'id="to-register" href="/accounts/register/"'),
        ("/accounts/register/", 'id="to-sign-in" href="/accounts/login/"'),
    ],
)
@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/games/", "javascript:alert(1)"]
)
def test_a_next_to_another_site_is_carried_by_no_link_nor_form(
    client: Client, page: str, other_page_link: str, target: str
) -> None:
    content = client.get(page, {"next": target}).content.decode()

    assert 'name="next" value=""' in content
    assert other_page_link in content
    assert 'id="sign-in-link" href="/accounts/login/"' in content
    assert 'id="register-link" href="/accounts/register/"' in content


def test_the_headers_sign_in_and_register_links_keep_the_page_the_visitor_is_on(
    client: Client,
) -> None:
    content = client.get("/rules/?x=1").content.decode()

    assert 'id="sign-in-link" href="/accounts/login/?next=%2Frules%2F%3Fx%3D1"' in content
    assert 'id="register-link" href="/accounts/register/?next=%2Frules%2F%3Fx%3D1"' in content


def test_signing_in_goes_on_to_the_page_asked_for_on_this_site_only(
    client: Client, user: User
) -> None:
    credentials = {"username": user.username, "password": DEFAULT_PASSWORD}
    local = client.post("/accounts/login/", {**credentials, "next": "/rules/"})
    client.logout()
    foreign = client.post("/accounts/login/", {**credentials, "next": "https://evil.example/"})

    assert local["Location"] == "/rules/"
    assert foreign["Location"] == "/"
