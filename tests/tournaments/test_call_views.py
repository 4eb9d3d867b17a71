"""Calls to the director through the REST API and the pages: a seated player calls
from their table, the director answers and closes from the API or the manage page;
what each refusal answers (its status and stable code), and what the table's pages
offer."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token
from eventlog import store
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game
from tests.tournaments.drivers import SHORT_RULES, event_round, organizer, round_games
from tournaments import services
from tournaments.championship import CallAnswered, CallClosed, DirectorCalled, championship_stream
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def api(user: User | None) -> APIClient:
    """A client of the API with ``user``'s token (or none)."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
    return client


def page_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def logged(event: Event) -> list[Any]:
    return [
        record.event
        for record in store.read(championship_stream(event.id))
        if record.type in ("DirectorCalled", "CallAnswered", "CallClosed")
    ]


def seated(event: Event, game: Game, seat: int) -> User:
    played = services.load_championship(event.id).rounds[0]
    return User.objects.get(pk=played.tables[played.games.index(str(game.id))][seat])


def csrf_post(client: APIClient, url: str, data: dict[str, Any] | None = None) -> Any:
    """A POST as the page's script sends it: JSON, with the CSRF cookie's token."""
    client.get("/events/")
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    return client.post(url, data or {}, format="json", HTTP_X_CSRFTOKEN=token)


def call_url(event: Event, game: Game) -> str:
    return f"/api/events/{event.code}/tables/{game.code}/calls/"


def test_a_seated_player_calls_through_the_api_and_the_director_answers_and_closes() -> None:
    # Given a round's table and a player at it
    event, director, _, (game,) = event_round(4, public=True)
    player = seated(event, game, 1)

    # When the player calls, and the director answers and closes through the API
    made = api(player).post(
        call_url(event, game), {"reason": "irregularity", "text": "A revoke."}, format="json"
    )
    answered = api(director).post(f"/api/events/{event.code}/calls/1/answer/")
    closed = api(director).post(
        f"/api/events/{event.code}/calls/1/close/", {"note": "Two tricks to N/S."}, format="json"
    )

    # Then each is answered with the call's number and the event's version after it
    version = services.load_championship(event.id).version
    assert (made.status_code, made.json()) == (201, {"number": 1, "version": version - 2})
    assert (answered.status_code, answered.json()) == (200, {"number": 1, "version": version - 1})
    assert (closed.status_code, closed.json()) == (200, {"number": 1, "version": version})
    assert logged(event) == [
        DirectorCalled(1, 0, str(game.id), 1, player.pk, "irregularity", "A revoke."),
        CallAnswered(1),
        CallClosed(1, "Two tricks to N/S."),
    ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "reason"),
        ({"reason": "coffee"}, "reason"),
        ({"reason": "other", "text": "x" * 201}, "text"),
    ],
)
def test_a_call_without_a_known_reason_or_too_long_is_a_400(
    body: dict[str, Any], field: str
) -> None:
    event, _, _, (game,) = event_round(4, public=True)

    response = api(seated(event, game, 0)).post(call_url(event, game), body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == [field]
    assert logged(event) == []


def test_the_calls_refusals_answer_their_status_and_code() -> None:
    # Given a table, its player, who called already, a stranger and the director
    event, director, _, (game,) = event_round(4, public=True)
    player = seated(event, game, 0)
    api(player).post(call_url(event, game), {"reason": "other"}, format="json")
    stranger = UserFactory.create()

    def answer(user: User | None, url: str, body: dict[str, Any] | None = None) -> tuple[int, str]:
        response = api(user).post(url, body or {}, format="json")
        return response.status_code, response.json()["code"]

    # Then each refusal has its status and stable code
    base = f"/api/events/{event.code}"
    assert answer(player, call_url(event, game), {"reason": "other"}) == (409, "call_open")
    assert answer(stranger, call_url(event, game), {"reason": "other"}) == (403, "not_at_table")
    assert answer(None, call_url(event, game), {"reason": "other"}) == (401, "not_authenticated")
    assert answer(player, f"{base}/tables/NOPE/calls/", {"reason": "other"}) == (
        404,
        "game_not_found",
    )
    assert answer(player, "/api/events/NOPE/tables/X/calls/", {"reason": "other"}) == (
        404,
        "event_not_found",
    )
    assert answer(player, f"{base}/calls/1/answer/") == (403, "not_organizer")
    assert answer(player, f"{base}/calls/1/close/") == (403, "not_organizer")
    assert answer(director, f"{base}/calls/9/answer/") == (404, "call_not_found")
    assert answer(director, f"{base}/calls/1/close/", {"note": "x" * 501}) == (400, "invalid_input")
    api(director).post(f"{base}/calls/1/close/")
    assert answer(director, f"{base}/calls/1/close/") == (409, "call_closed")
    assert answer(director, f"{base}/calls/1/answer/") == (409, "call_closed")


def test_a_private_events_table_is_no_table_to_a_stranger() -> None:
    event, _, _, (game,) = event_round(4, public=False)

    response = api(UserFactory.create()).post(
        call_url(event, game), {"reason": "other"}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (404, "event_not_found")


def test_the_page_scripts_call_needs_its_csrf_token() -> None:
    # Given a player signed in by session, as the table page's script is
    event, _, _, (game,) = event_round(4, public=True)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(seated(event, game, 0))

    # Then a call without the page's token is refused, and with it made
    refused = client.post(call_url(event, game), {"reason": "other"}, format="json")
    made = csrf_post(client, call_url(event, game), {"reason": "other"})

    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")
    assert made.status_code == 201


def test_the_director_answers_and_closes_from_the_manage_page() -> None:
    # Given a call from a table
    event, director, _, (game,) = event_round(4, public=True)
    player = seated(event, game, 2)
    services.event_call_director(event_id=event.id, actor=player, game_id=game.id, reason="score")
    owner = page_client(director)
    manage = f"/events/{event.code}/manage/"

    # When the director answers it, then closes it with a note, from the manage page
    answered = owner.post(f"{manage}calls/1/answer/")
    closed = owner.post(f"{manage}calls/1/close/", {"note": " Score stands. "})

    # Then each goes back to the manage page, which says so, and the stream holds them
    assert (answered.status_code, answered["Location"]) == (302, manage)
    assert (closed.status_code, closed["Location"]) == (302, manage)
    assert logged(event)[1:] == [CallAnswered(1), CallClosed(1, "Score stands.")]
    assert "Call closed." in owner.get(manage).content.decode()


def test_the_manage_pages_refusals_keep_their_status() -> None:
    event, director, _, (game,) = event_round(4, public=True)
    player = seated(event, game, 0)
    services.event_call_director(event_id=event.id, actor=player, game_id=game.id, reason="score")
    manage = f"/events/{event.code}/manage/"

    assert page_client(director).post(f"{manage}calls/7/answer/").status_code == 404
    too_long = page_client(director).post(f"{manage}calls/1/close/", {"note": "x" * 501})
    assert too_long.status_code == 400
    assert page_client(player).post(f"{manage}calls/1/close/").status_code == 403
    assert logged(event) == [DirectorCalled(1, 0, str(game.id), 0, player.pk, "score", "")]


def test_the_table_page_offers_the_call_to_a_seated_player_only_and_the_desk_to_all() -> None:
    # Given an event's table
    event, director, _, (game,) = event_round(4, public=True)
    player = seated(event, game, 0)

    # Then its page holds the desk (its socket and the call's address) for everyone
    seen = page_client(player).get(f"/games/{game.code}/").content.decode()
    watched = Client().get(f"/games/{game.code}/").content.decode()
    for content in (seen, watched):
        assert '<section id="table-desk"' in content
        assert f"/ws/events/{event.code}/tables/{game.code}/" in content
    # And the call's button and reasons only for the player seated there
    assert '<summary class="button">Call the director</summary>' in seen
    assert '<option value="irregularity">A revoke or another irregularity</option>' in seen
    assert "Call the director" not in watched
    director_view = page_client(director).get(f"/games/{game.code}/").content.decode()
    assert "Call the director" not in director_view


def test_a_table_of_no_event_has_no_desk() -> None:
    game_id, players = seated_game(3)
    game = Game.objects.get(pk=game_id)

    content = page_client(players[0]).get(f"/games/{game.code}/").content.decode()

    assert "table-desk" not in content


def test_the_scorer_page_of_a_table_in_the_room_offers_its_players_the_call() -> None:
    # Given a round of an event played in the room, and a player at its table
    creator = organizer()
    event = services.event_create(
        organizer=creator, name="Etapa X", rounds=1, options=SHORT_RULES, place="room"
    )
    players: list[User] = UserFactory.create_batch(4)
    for player in players:
        services.event_register(event_id=event.id, actor=player)
        services.event_check_in(event_id=event.id, actor=player)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    event = Event.objects.get(pk=event.id)

    # Then its scorer page holds the desk, with the call for the player seated there
    seen = page_client(seated(event, game, 0)).get(f"/games/{game.code}/score/")
    content = seen.content.decode()
    assert seen.status_code == 200
    assert f"/ws/events/{event.code}/tables/{game.code}/" in content
    assert '<summary class="button">Call the director</summary>' in content
    # And the director's own scorer page the desk, without the call
    directing = page_client(creator).get(f"/games/{game.code}/score/").content.decode()
    assert '<section id="table-desk"' in directing
    assert "Call the director" not in directing
