"""A table's share link, opened by a visitor without an account: a guest seat in one
tap, or sign in and register there and come back (decision 3501)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client

from accounts.models import User
from games.commands import actions
from games.models import Game
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.tournaments.drivers import private_event_round

pytestmark = pytest.mark.django_db

STRONG = "walnut-orbit-harbor"


def waiting_table(players: int = 3) -> Game:
    creator: User = UserFactory.create()
    game = actions.game_create(creator=creator, player_count=players, preset="championship")
    actions.game_join(game_id=game.id, user=creator, alias="Ana")
    return game


def signed_in_as(client: Client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return None if value is None else int(value)


def test_the_share_link_offers_a_visitor_without_an_account_a_guest_seat_and_the_way_back(
    client: Client,
) -> None:
    game = waiting_table()

    content = client.get(f"/games/{game.code}/").content.decode()

    sit = content[content.index('id="sit-down"') : content.index('id="waiting-room"')]
    assert f'action="/games/{game.code}/sit-as-guest/"' in sit
    assert 'name="alias"' in sit
    assert ">Sit as a guest</button>" in sit
    assert f'id="sit-sign-in" href="/accounts/login/?next=/games/{game.code}/"' in sit
    assert f'id="sit-register" href="/accounts/register/?next=/games/{game.code}/"' in sit
    assert "Sign in to sit at this table." not in content


def test_sitting_as_a_guest_seats_a_new_guest_under_the_alias_and_signs_them_in(
    client: Client,
) -> None:
    game = waiting_table()

    response = client.post(f"/games/{game.code}/sit-as-guest/", {"alias": "Maria"})

    guest = User.objects.get(is_guest=True)
    assert (response.status_code, response["Location"]) == (302, f"/games/{game.code}/")
    assert signed_in_as(client) == guest.pk
    assert guest.display_name == "Maria"
    assert load_table(game.id).seat_of(guest.pk) == 1
    # and back at the table they are seated: no seat offered, their name in the header
    page = client.get(f"/games/{game.code}/").content.decode()
    assert 'id="sit-down"' not in page
    assert '<span class="who">Maria</span>' in page
    assert 'id="my-games-link" href="/me/games/"' in page
    assert f'id="keep-games" href="/accounts/register/?next=%2Fgames%2F{game.code}%2F"' in page


def test_a_guest_seat_refused_for_its_alias_says_why_and_makes_no_guest(client: Client) -> None:
    game = waiting_table()

    response = client.post(f"/games/{game.code}/sit-as-guest/", {"alias": "ana"})

    assert response.status_code == 400
    content = html.unescape(response.content.decode())
    assert "A player at this table has this alias, or one that looks like it." in content
    assert 'id="sit-as-guest"' in content
    assert not User.objects.filter(is_guest=True).exists()
    assert signed_in_as(client) is None


def test_a_guest_seat_at_a_game_that_started_is_refused_in_romanian(client: Client) -> None:
    game_id, _ = seated_game(3)
    code = Game.objects.get(pk=game_id).code

    response = client.post(
        f"/games/{code}/sit-as-guest/", {"alias": "Maria"}, HTTP_ACCEPT_LANGUAGE="ro"
    )

    assert response.status_code == 409
    assert "Jocul a început" in html.unescape(response.content.decode())
    assert not User.objects.filter(is_guest=True).exists()


def test_a_signed_in_visitor_is_sent_back_to_the_table_and_no_guest_is_made(
    client: Client, user: User
) -> None:
    game = waiting_table()
    client.force_login(user)

    response = client.post(f"/games/{game.code}/sit-as-guest/", {"alias": "Maria"})

    assert (response.status_code, response["Location"]) == (302, f"/games/{game.code}/")
    assert not User.objects.filter(is_guest=True).exists()
    assert load_table(game.id).seat_of(user.pk) is None


def test_the_address_of_a_refused_guest_seat_reloaded_goes_back_to_the_table(
    client: Client,
) -> None:
    game = waiting_table()

    response = client.get(f"/games/{game.code}/sit-as-guest/")

    assert (response.status_code, response["Location"]) == (302, f"/games/{game.code}/")
    assert not User.objects.filter(is_guest=True).exists()


def test_a_private_events_table_is_no_table_for_a_visitor_without_an_account(
    client: Client,
) -> None:
    _, _, _, games = private_event_round()

    response = client.post(f"/games/{games[0].code}/sit-as-guest/", {"alias": "Maria"})

    assert response.status_code == 404
    assert not User.objects.filter(is_guest=True).exists()


def test_a_guest_who_registers_mid_game_keeps_the_seat_and_goes_back_to_the_table(
    client: Client,
) -> None:
    # Given a guest seated from the share link at a game that then started
    game = waiting_table(players=3)
    client.post(f"/games/{game.code}/sit-as-guest/", {"alias": "Maria"})
    actions.game_join(game_id=game.id, user=UserFactory.create(), alias="Ion")
    guest = User.objects.get(is_guest=True)
    register = client.get(f"/accounts/register/?next=/games/{game.code}/").content.decode()
    assert "You play as the guest" in register

    # When they register from the header's link, which carries the table
    response = client.post(
        f"/accounts/register/?next=/games/{game.code}/",
        {"username": "maria", "password": STRONG, "password_again": STRONG},
    )

    # Then they are back at the table, the same account, seated where they were
    assert (response.status_code, response["Location"]) == (302, f"/games/{game.code}/")
    user = User.objects.get(pk=guest.pk)
    assert (user.username, user.is_guest) == ("maria", False)
    assert signed_in_as(client) == user.pk
    assert load_table(game.id).seat_of(user.pk) == 1
    assert Game.objects.get(pk=game.id).status == "playing"
