"""A guest who signs in to the account they already have keeps their games (decision
3507): through the real sign-in page and the API, the guest's seat at a game in play
and at a table waiting for players pass to the account in the games' logs, the
finished game is the account's on My games and the player page, and the player page's
rows are what a rebuild from the log derives. A table where the account sits already
stays the guest's, and the page says so; a second sign-in hands nothing over twice; a
player who is no guest changes nothing by signing in as another."""

from __future__ import annotations

import html
import random
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import GuestAbsorbed, User
from accounts.services import user_absorb_guest, user_create_guest
from eventlog import store
from games.commands import actions
from games.errors import NotYourSeat
from games.models import Game
from games.rules import Phase, legal_bids
from games.table import SeatHandedOver, stream_of
from games.write.tables import load_table
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.accounts.test_views import signed_in_as
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.games.web.test_my_games import section
from tests.tournaments.drivers import SHORT_RULES, wait_until
from tournaments.models import PlayerGame
from tournaments.projections.players import rebuild_player_games

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


@dataclass
class Story:
    """A guest, Maria, with a game in play (seat 0, their turn to bid), a finished game
    (seat 1) and a table waiting for players (seat 0); and Maria's own account."""

    guest: User
    account: User
    playing: Game
    finished: Game
    waiting: Game
    players: list[User]


def game(game_id: uuid.UUID) -> Game:
    return Game.objects.get(pk=game_id)


def to_bid(game_id: uuid.UUID, players: list[User], seat: int) -> None:
    """Play on until it is ``seat``'s turn to bid."""
    rng = random.Random(3)
    while True:
        table = load_table(game_id)
        if table.to_act == seat and table.game.phase is Phase.BIDDING:
            return
        next_move(game_id, players, rng)


def story(*, account_at_the_table: bool = False) -> Story:
    guest = user_create_guest(display_name="Maria")
    account: User = UserFactory.create(username="maria", display_name="Maria Pop")
    others: list[User] = UserFactory.create_batch(4)
    # The account sits at the table in play too, if asked (from another browser).
    second = account if account_at_the_table else others[0]
    playing_id, players = seated_game(3, users=[guest, second, others[1]])
    to_bid(playing_id, players, 0)
    finished_id, finished_players = seated_game(
        3, preset="romanian-standard", options=SHORT_RULES, users=[others[2], guest, others[3]]
    )
    play_to_end(finished_id, finished_players)
    wait_until(lambda: PlayerGame.objects.filter(game_id=finished_id).count() == 3, 60, "the rows")
    waiting = actions.game_create(creator=others[0], player_count=4, preset="championship")
    actions.game_join(game_id=waiting.id, user=guest, alias="Maria")
    return Story(guest, account, game(playing_id), game(finished_id), waiting, players)


def handed_over(game_id: uuid.UUID) -> list[Any]:
    return [record.event for record in store.read(stream_of(game_id), types=["SeatHandedOver"])]


def player_rows() -> list[tuple[Any, ...]]:
    fields = [field.name for field in PlayerGame._meta.fields if field.name != "id"]
    return list(PlayerGame.objects.order_by("game_id", "seat").values_list(*fields))


def sign_in(client: Client, story: Story, next_page: str) -> Any:
    client.force_login(story.guest)
    return client.post(
        f"/accounts/login/?next={next_page}",
        {"username": "maria", "password": DEFAULT_PASSWORD},
    )


def then_the_guests_games_are_the_accounts(client: Client, story: Story) -> None:
    guest, account = story.guest, story.account
    # The seats at the table in play and the table waiting pass to the account in
    # their logs, under the guest's alias; the finished game's log is as it was
    assert handed_over(story.playing.id) == [SeatHandedOver(0, guest.pk, account.pk)]
    assert handed_over(story.waiting.id) == [SeatHandedOver(0, guest.pk, account.pk)]
    assert handed_over(story.finished.id) == []
    assert game(story.finished.id).version == story.finished.version
    table = load_table(story.playing.id)
    assert (table.seat_of(account.pk), table.seat_of(guest.pk)) == (0, None)
    assert table.seats[0] is not None and table.seats[0].alias == "Player 1"
    assert game(story.waiting.id).seats == [{"seat": 0, "alias": "Maria", "user_id": account.pk}]
    # and the guest is no more: inactive, recorded as the account's
    guest.refresh_from_db()
    assert not guest.is_active
    assert list(GuestAbsorbed.objects.values_list("guest_id", "account_id")) == [
        (guest.pk, account.pk)
    ]

    # The guest can no longer bid there, the account can
    bid = legal_bids(table.romanian_game)[0]
    with pytest.raises(NotYourSeat):
        actions.game_place_bid(game_id=story.playing.id, actor=guest, bid=bid)
    answer = client.post(
        f"/api/games/{story.playing.code}/bid/",
        {"bid": bid, "expected_version": table.version},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert load_table(story.playing.id).version > table.version

    # My games lists all three as the account's: two in play, one finished with its place
    content = html.unescape(client.get("/me/games/").content.decode())
    in_play, done = section(content, "in-play"), section(content, "finished-games")
    for code in (story.playing.code, story.waiting.code):
        assert f'data-code="{code}"' in in_play
    place = story.finished.places[1]
    assert f'data-code="{story.finished.code}"' in done
    assert f"Place {place} of 3, {story.finished.scores[1]} points" in done

    # The player page shows the finished one, its row the account's
    page = client.get(f"/players/{account.pk}/")
    assert page.status_code == 200
    assert f'data-game="{story.finished.code}"' in page.content.decode()
    assert list(
        PlayerGame.objects.filter(game_id=story.finished.id, seat=1).values_list(
            "player_id", "place"
        )
    ) == [(account.pk, place)]

    # and a rebuild from the log derives the same rows as the live path wrote
    live = player_rows()
    rebuild_player_games()
    assert player_rows() == live


def test_a_guest_who_signs_in_on_the_page_finds_their_games_under_their_account(
    client: Client,
) -> None:
    # Given Maria playing as a guest: a game in play, one finished, a table waiting
    given = story()

    # When she signs in to her account from the table in play's page
    response = sign_in(client, given, f"/games/{given.playing.code}/")

    # Then she is back at the table, as her account, and her games are its
    assert (response.status_code, response["Location"]) == (302, f"/games/{given.playing.code}/")
    assert signed_in_as(client) == given.account.pk
    then_the_guests_games_are_the_accounts(client, given)


def test_a_guest_who_signs_in_by_the_api_finds_their_games_under_their_account() -> None:
    # Given Maria playing as a guest, her browser's session the guest's
    given = story()
    client = APIClient()
    client.force_login(given.guest)

    # When her browser signs in to her account through the API
    response = client.post(
        "/api/auth/login/", {"username": "maria", "password": DEFAULT_PASSWORD}, format="json"
    )

    # Then the answer says the guest's games are the account's, none kept by the guest
    assert response.status_code == 200
    body = response.json()
    assert body["user"]["id"] == given.account.pk
    assert body["guest"] == {"guest_id": given.guest.pk, "kept": []}
    assert signed_in_as(client) == given.account.pk
    then_the_guests_games_are_the_accounts(client, given)


def test_a_table_where_the_account_sits_already_stays_the_guests_and_the_page_says_so(
    client: Client,
) -> None:
    # Given Maria as a guest at a game in play where her account sits too
    given = story(account_at_the_table=True)

    # When she signs in to her account, back to that table
    response = sign_in(client, given, f"/games/{given.playing.code}/")
    page = client.get(response["Location"])

    # Then that seat stays the guest's (no one person in two seats), the page says so
    table = load_table(given.playing.id)
    assert (table.seat_of(given.guest.pk), table.seat_of(given.account.pk)) == (0, 1)
    assert handed_over(given.playing.id) == []
    assert (
        "Your game "
        f"{given.playing.code} stays with the guest: you already sit at that table."
        in html.unescape(page.content.decode())
    )
    # and the table waiting is the account's all the same
    assert handed_over(given.waiting.id) == [SeatHandedOver(0, given.guest.pk, given.account.pk)]


def test_the_api_names_the_tables_that_stay_the_guests() -> None:
    given = story(account_at_the_table=True)
    client = APIClient()
    client.force_login(given.guest)

    response = client.post(
        "/api/auth/login/", {"username": "maria", "password": DEFAULT_PASSWORD}, format="json"
    )

    assert response.json()["guest"] == {
        "guest_id": given.guest.pk,
        "kept": [{"code": given.playing.code, "reason": "seated_there"}],
    }


def test_signing_in_again_or_a_retried_request_hands_nothing_over_twice() -> None:
    # Given Maria's browser, a guest's session, signed in to her account once
    given = story()
    client = APIClient()
    client.force_login(given.guest)
    guest_cookie = client.cookies["sessionid"].value
    credentials = {"username": "maria", "password": DEFAULT_PASSWORD}
    client.post("/api/auth/login/", credentials, format="json")

    # When the same request comes again with the guest's session, and the service is
    # asked again for that guest
    retry = APIClient()
    retry.cookies["sessionid"] = guest_cookie
    again = retry.post("/api/auth/login/", credentials, format="json")
    twice = user_absorb_guest(guest=User.objects.get(pk=given.guest.pk), account=given.account)

    # Then nothing more is handed over: one event per table, one record of the guest
    assert again.status_code == 200
    assert again.json()["guest"] is None
    assert twice is None
    assert handed_over(given.playing.id) == [SeatHandedOver(0, given.guest.pk, given.account.pk)]
    assert handed_over(given.waiting.id) == [SeatHandedOver(0, given.guest.pk, given.account.pk)]
    assert GuestAbsorbed.objects.count() == 1


def test_a_player_who_is_no_guest_changes_nothing_by_signing_in_as_another() -> None:
    # Given Ana, a registered player at a game in play, signed in
    ana: User = UserFactory.create()
    other: User = UserFactory.create(username="bogdan")
    game_id, _ = seated_game(3, users=[ana, *UserFactory.create_batch(2)])
    version = load_table(game_id).version
    api, page = APIClient(), Client()
    api.force_login(ana)
    page.force_login(ana)

    # When she signs in as Bogdan through the API, and tries the sign-in page
    response = api.post(
        "/api/auth/login/", {"username": "bogdan", "password": DEFAULT_PASSWORD}, format="json"
    )
    redirected = page.post("/accounts/login/", {"username": "bogdan", "password": DEFAULT_PASSWORD})

    # Then Bogdan is signed in on the API, the page sends her on, and nothing moved:
    # her seat is hers, she is active, no guest was absorbed
    assert (response.status_code, response.json()["guest"]) == (200, None)
    assert signed_in_as(api) == other.pk
    assert (redirected.status_code, signed_in_as(page)) == (302, ana.pk)
    table = load_table(game_id)
    assert (table.version, table.seat_of(ana.pk)) == (version, 0)
    assert User.objects.get(pk=ana.pk).is_active
    assert not GuestAbsorbed.objects.exists()


def test_another_site_cannot_sign_a_guest_in_to_its_own_account() -> None:
    # Given Maria's browser, a guest's session, and Bogdan's account (another site's)
    guest = user_create_guest(display_name="Maria")
    bogdan: User = UserFactory.create(username="bogdan")
    credentials = {"username": "bogdan", "password": DEFAULT_PASSWORD}
    page = Client(enforce_csrf_checks=True)
    page.force_login(guest)
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(guest)

    # When a page of another site posts Bogdan's credentials from it: the sign-in form
    # without its token, the API's login as a form (what a page may send elsewhere)
    form = page.post("/accounts/login/", credentials)
    posted = api.post("/api/auth/login/", credentials, format="multipart")

    # Then both are refused, and the guest's games go to nobody
    assert (form.status_code, posted.status_code) == (403, 415)
    assert signed_in_as(page) == signed_in_as(api) == guest.pk
    assert User.objects.get(pk=guest.pk).is_active
    assert not GuestAbsorbed.objects.filter(account=bogdan).exists()


def test_a_guest_on_the_sign_in_page_is_told_their_games_go_with_them(client: Client) -> None:
    guest = user_create_guest(display_name="Maria")
    client.force_login(guest)

    response = client.get("/accounts/login/?next=/me/games/")

    assert response.status_code == 200
    content = html.unescape(response.content.decode())
    assert (
        "You play as the guest Maria: signing in to your account makes the guest's games "
        "your account's." in content
    )
    assert 'href="/accounts/login/?next=%2Fme%2Fgames%2F"' in html.unescape(
        client.get("/me/games/").content.decode()
    )


def test_deleting_the_account_erases_the_guest_who_signed_in_to_it_too(client: Client) -> None:
    # Given Maria's guest games taken by her account
    given = story()
    sign_in(client, given, "/me/games/")

    # When she deletes her account
    client.post("/accounts/account/delete/", {"password": DEFAULT_PASSWORD})

    # Then the guest she was is erased with it: no name, and the finished game's seat
    # reads "Deleted player"
    guest = User.objects.get(pk=given.guest.pk)
    assert (guest.deleted_at is not None, guest.display_name, guest.display) == (
        True,
        "",
        "Deleted player",
    )
    seat = game(given.finished.id).seats[1]
    assert (seat["user_id"], seat["alias"]) == (given.guest.pk, "Deleted player")


def test_the_accounts_data_export_holds_what_its_guest_played(client: Client) -> None:
    given = story()
    sign_in(client, given, "/me/games/")

    exported = client.get("/accounts/account/export/").json()

    [guest] = exported["guests"]
    assert guest["id"] == given.guest.pk
    assert {game["code"] for game in guest["games"]} == {
        given.playing.code,
        given.finished.code,
        given.waiting.code,
    }
