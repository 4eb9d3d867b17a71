"""The scorer page of a table in the room, as the server makes it: who it lets write the
deals down straight away, who it asks for the table's PIN, and what it tells its script."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client

from accounts.models import User
from games.read.pins import table_pin
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.games.web.test_room import SHORT, code_of, post, room_table, signed_in
from tests.tournaments.drivers import organizer, round_games
from tournaments import services

pytestmark = pytest.mark.django_db


def script_page(response: HttpResponse) -> dict[str, Any]:
    content = response.content.decode()
    opening = '<script id="atu-score" type="application/json">'
    start = content.index(opening) + len(opening)
    page: dict[str, Any] = json.loads(content[start : content.index("</script>", start)])
    return page


def pin_form_shown(response: HttpResponse) -> bool:
    return '<section id="pin" class="panel">' in response.content.decode()


def test_a_table_played_online_has_no_scorer_page(client: Client) -> None:
    game_id, users = seated_game(4, options=SHORT)

    response = signed_in(users[0]).get(f"/games/{code_of(game_id)}/score/")

    assert response.status_code == 404


def test_a_table_that_does_not_exist_has_no_scorer_page(client: Client) -> None:
    assert client.get("/games/NOSUCH/score/").status_code == 404


def test_a_visitor_without_the_pin_is_asked_for_it_and_their_seat() -> None:
    # Given a table in the room and a phone signed in to no account
    game_id, _ = room_table()
    code = code_of(game_id)

    # When it opens the table's scorer page
    response = Client().get(f"/games/{code}/score/")

    # Then it is asked for the PIN and its seat among the table's four, by name
    assert response.status_code == 200
    assert pin_form_shown(response)
    content = response.content.decode()
    for seat in range(4):
        assert (
            f'<input type="radio" name="seat" value="{seat}" required> '
            f"Seat {seat + 1}: Player {seat + 1}</label>"
        ) in content
    page = script_page(response)
    assert (page["seat"], page["director"]) == (None, False)
    assert page["api"] == {
        "state": f"/api/games/{code}/",
        "scorer": f"/api/games/{code}/scorer/",
        "deals": f"/api/games/{code}/deals/",
        "confirm": f"/api/games/{code}/deals/confirm/",
        "correct": f"/api/games/{code}/deals/correct/",
    }
    # And the CSRF cookie its script sends the PIN with
    assert "csrftoken" in response.cookies


def test_the_pin_from_the_table_cards_qr_code_is_filled_in() -> None:
    game_id, _ = room_table()
    pin = table_pin(game_id)

    response = Client().get(f"/games/{code_of(game_id)}/score/?pin={pin}")

    assert f'maxlength="6" value="{pin}"' in response.content.decode()


def test_an_address_with_anything_but_a_pin_fills_nothing_in() -> None:
    game_id, _ = room_table()

    response = Client().get(f"/games/{code_of(game_id)}/score/?pin=12%22%3E34")

    assert 'maxlength="6" value=""' in response.content.decode()


def test_a_player_at_the_table_scores_for_their_seat_without_a_pin() -> None:
    game_id, users = room_table()

    response = signed_in(users[2]).get(f"/games/{code_of(game_id)}/score/")

    assert response.status_code == 200
    assert not pin_form_shown(response)
    page = script_page(response)
    assert (page["seat"], page["director"]) == (2, False)
    assert page["socket"] == f"/ws/games/{game_id}/"


def test_the_organizer_who_opened_the_table_directs_it_without_a_pin() -> None:
    organizer = UserFactory.create()
    game_id, _ = room_table(creator=organizer)

    response = signed_in(organizer).get(f"/games/{code_of(game_id)}/score/")

    assert not pin_form_shown(response)
    page = script_page(response)
    assert (page["seat"], page["director"]) == (None, True)


def test_a_session_that_gave_the_pin_scores_for_the_seat_it_chose() -> None:
    # Given a phone that gave the table's PIN for seat 3
    game_id, _ = room_table()
    code = code_of(game_id)
    phone = Client()
    assert post(phone, code, "scorer", {"pin": table_pin(game_id), "seat": 3}).status_code == 200

    # When it opens the scorer page again
    response = phone.get(f"/games/{code}/score/")

    # Then it scores for seat 3 without being asked again
    assert not pin_form_shown(response)
    assert script_page(response)["seat"] == 3


def test_someone_signed_in_who_does_not_sit_at_the_table_is_asked_for_the_pin() -> None:
    game_id, _ = room_table()

    response = signed_in(UserFactory.create()).get(f"/games/{code_of(game_id)}/score/")

    assert pin_form_shown(response)


def test_the_page_tells_its_script_each_deals_set_bid() -> None:
    # Given a table whose schedule closes with a zero bid deal and an eight bid deal
    options = {**SHORT, "special_hands": ["zero-bid", "eight-bid"]}
    game_id, users = seated_game(4, options=options, place="room")

    # When a player opens its scorer page
    page = script_page(signed_in(users[0]).get(f"/games/{code_of(game_id)}/score/"))

    # Then every deal's bids are free but those two
    assert page["set_bids"] == [None] * 9 + [0, 8]
    assert len(page["set_bids"]) == len(load_table(game_id).romanian_game.schedule)


def test_a_private_events_table_names_no_one_to_a_phone_before_its_pin() -> None:
    # Given a private event played in the room, its first round seated
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Cupa", rounds=1, options=SHORT, public=False, place="room"
    )
    entrants: list[User] = UserFactory.create_batch(4)
    for entrant in entrants:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_start_round(event_id=event.id, actor=creator)
    [game] = round_games(event.id, 1)
    code = game.code

    # When a phone without an account opens its scorer page
    response = Client().get(f"/games/{code}/score/")

    # Then it is asked for the PIN and the seats are numbered, not named
    assert pin_form_shown(response)
    content = response.content.decode()
    assert '<input type="radio" name="seat" value="0" required> Seat 1</label>' in content
    assert all(entrant.display_name not in content for entrant in entrants)


def test_the_table_code_typed_from_the_card_leads_to_its_scorer_page(client: Client) -> None:
    game_id, _ = room_table()
    code = code_of(game_id)

    response = client.get("/games/score/", {"code": f" {code.lower()} "})

    assert (response.status_code, response["Location"]) == (302, f"/games/{code}/score/")


def test_a_code_of_no_table_in_the_room_is_refused_on_the_form(client: Client) -> None:
    game_id, _ = seated_game(4, options=SHORT)

    response = client.get("/games/score/", {"code": code_of(game_id)})

    assert response.status_code == 200
    assert (
        '<ul class="errorlist" id="id_code_error"><li>No table in the room has that code.</li></ul>'
        in response.content.decode()
    )


def test_the_form_for_a_table_code_is_empty_at_first(client: Client) -> None:
    content = client.get("/games/score/").content.decode()

    assert (
        '<input type="text" name="code" maxlength="36" required '
        'aria-describedby="id_code_helptext" id="id_code">'
    ) in content
    assert "errorlist" not in content


def test_the_table_page_of_a_table_in_the_room_leads_to_its_scorer_page() -> None:
    game_id, users = room_table()
    code = code_of(game_id)

    content = signed_in(users[0]).get(f"/games/{code}/").content.decode()

    assert f'<a id="score-link" href="/games/{code}/score/">Open the scorer page</a>' in content
    assert "games/table.js" not in content


def test_the_scorer_page_is_in_romanian_for_a_romanian_reader() -> None:
    game_id, users = room_table()

    response = signed_in(users[0]).get(
        f"/games/{code_of(game_id)}/score/", HTTP_ACCEPT_LANGUAGE="ro"
    )

    text = script_page(response)["text"]
    assert text["send"] == "Trimite"
    assert text["awaiting"] == "așteaptă confirmarea"
    assert text["forbidden"] == (
        "%(alias)s, care împarte, nu poate licita %(bid)s: licitațiile nu pot totaliza %(cards)s."
    )
