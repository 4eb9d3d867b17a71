"""What else a guest keeps by signing in or registering (decision 3508): the finished
game's page and API take the account for the guest's seat (its end screen's rematch,
its own hands, its words), and nobody else sees more than before; the guest's entries
in events pass to the account in the events' streams, unless the account is entered
there or the rounds have begun; the register API turns the session's guest into the
account as the register page does; and the words the guest said are the account's."""

from __future__ import annotations

import html
import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.guests import ENTERED_THERE
from accounts.models import User
from accounts.services import user_create_guest
from eventlog import store
from games.commands import actions
from games.commands.chat import game_say
from games.models import Game, TableMessage
from games.visibility import viewer_of
from games.write.tables import load_table
from tests.accounts.factories import DEFAULT_PASSWORD, UserFactory
from tests.accounts.test_guests import sign_in, story
from tests.accounts.test_views import signed_in_as
from tests.tournaments.drivers import organizer, round_games
from tournaments import services
from tournaments.championship import (
    Championship,
    EntryHandedOver,
    PlayerCheckedIn,
    PlayerRegistered,
    championship_stream,
    fold,
)
from tournaments.championship import Entry as ChampionshipEntry
from tournaments.models import Entry
from tournaments.projections.rebuild import rebuild_standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_run")]


def page_data(content: str) -> dict[str, Any]:
    """The table page's data for its script."""
    found = re.search(r'<script id="atu-table" type="application/json">(.*?)</script>', content)
    assert found is not None, "the page has no data for its script"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def events_seen(client: APIClient, code: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{code}/events/")
    assert response.status_code == 200, response.content
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def dealt_hands(events: list[dict[str, Any]]) -> list[list[Any]]:
    return [event["payload"]["hands"] for event in events if event["type"] == "HandDealt"]


# --- 1. The finished game's seat ------------------------------------------------------


def test_the_finished_games_page_is_the_accounts_own_with_its_rematch(client: Client) -> None:
    # Given Maria's finished game as a guest (seat 1), and what the guest saw of it
    given = story()
    code = given.finished.code
    as_guest = events_seen(signed_in(given.guest), code)

    # When she signs in to her account and opens the finished game
    sign_in(client, given, "/me/games/")
    content = html.unescape(client.get(f"/games/{code}/").content.decode())

    # Then the page is hers: the end screen offers the rematch, its script asks for
    # one, her words are her seat's
    assert 'id="rematch"' in content
    data = page_data(content)
    assert data["rematch"] == f"/api/games/?rematch_of={given.finished.id}"
    assert data["chat"]["seat"] == 1
    # and the API shows her the seat as the guest saw it: her hands, her seat
    api = signed_in(given.account)
    assert api.get(f"/api/games/{code}/").json()["you"] == 1
    assert events_seen(api, code) == as_guest


def test_a_third_party_sees_no_more_of_the_finished_game_than_before(client: Client) -> None:
    # Given Maria's finished game, and Ion, who never sat there, before she signs in
    given = story()
    code = given.finished.code
    ion: User = UserFactory.create(username="ion")
    before = events_seen(signed_in(ion), code)

    # When Maria signs in to her account
    sign_in(client, given, "/me/games/")

    # Then Ion sees what he saw: no seat, no hand, no rematch to ask for
    ion_client = signed_in(ion)
    assert ion_client.get(f"/api/games/{code}/").json()["you"] is None
    seen = events_seen(ion_client, code)
    assert seen == before
    assert all(hand is None for hands in dealt_hands(seen) for hand in hands)
    page = Client()
    page.force_login(ion)
    content = html.unescape(page.get(f"/games/{code}/").content.decode())
    assert 'id="rematch"' not in content
    assert page_data(content)["rematch"] is None
    # while Maria's account sees her own hands, and only hers
    mine = dealt_hands(events_seen(signed_in(given.account), code))
    assert mine and all(
        (hand is not None) == (seat == 1) for hands in mine for seat, hand in enumerate(hands)
    )


def test_only_a_finished_table_reads_the_guests_seat_as_the_accounts() -> None:
    # Given a guest absorbed into an account with its seat at a finished game, and a
    # table in play where the guest's seat stayed the guest's (the account sits there)
    given = story(account_at_the_table=True)
    client = Client()
    sign_in(client, given, "/me/games/")
    account = given.account.pk

    # Then the account is the guest's seat at the finished game, its own seat at the
    # table in play (never the guest's, which is another seat), a stranger none
    finished = load_table(given.finished.id)
    playing = load_table(given.playing.id)
    assert viewer_of(given.finished.id, finished, account).seat == 1
    assert viewer_of(given.playing.id, playing, account).seat == 1
    assert playing.seat_of(given.guest.pk) == 0
    assert viewer_of(given.finished.id, finished, UserFactory.create().pk).seat is None


def test_the_account_opens_the_rematch_of_the_guests_finished_game(client: Client) -> None:
    # Given Maria, signed in to her account after a finished game as a guest
    given = story()
    sign_in(client, given, "/me/games/")
    alias = load_table(given.finished.id).seats[1].alias  # type: ignore[union-attr]

    # When she asks for the rematch from its end screen
    response = client.post(f"/games/{given.finished.code}/rematch/")

    # Then a new table opens with her account seated under the seat's name
    rematch = Game.objects.get(rematch_of=given.finished.id)
    assert (response.status_code, response["Location"]) == (302, f"/games/{rematch.code}/")
    assert rematch.seats == [{"seat": 0, "alias": alias, "user_id": given.account.pk}]


def test_the_account_says_well_played_at_the_guests_finished_game(client: Client) -> None:
    given = story()
    sign_in(client, given, "/me/games/")

    response = client.post(
        f"/api/games/{given.finished.code}/chat/",
        {"phrase": "well_played"},
        content_type="application/json",
    )

    assert response.status_code == 201, response.content
    assert (response.json()["seat"], response.json()["phrase"]) == (1, "well_played")


# --- 2. Entries in events -------------------------------------------------------------


def entered_as_guest(event_id: uuid.UUID, guest: User) -> None:
    """An entry the guest made before guests were refused (decision 3507): the entry
    the service wrote then, for a user the row says is a guest."""
    guest.is_guest = False
    try:
        services.event_register(event_id=event_id, actor=guest)
        services.event_check_in(event_id=event_id, actor=guest)
    finally:
        guest.is_guest = True


def entries(event_id: uuid.UUID) -> list[tuple[int, str, bool]]:
    return list(
        Entry.objects.filter(event_id=event_id)
        .order_by("player_id")
        .values_list("player_id", "name", "checked_in")
    )


def handed(event_id: uuid.UUID) -> list[Any]:
    records = store.read(championship_stream(event_id), types=["EntryHandedOver"])
    return [record.event for record in records]


def test_a_guests_entries_pass_to_the_account_unless_entered_there_or_begun(
    client: Client,
) -> None:
    # Given Maria as a guest, entered (and checked in) in three events: one taking
    # entries, one where her account is entered too, one whose first round has begun
    guest = user_create_guest(display_name="Maria")
    account: User = UserFactory.create(username="maria", display_name="Maria Pop")
    creator = organizer()
    open_, both, begun = (
        services.event_create(organizer=creator, name=name, rounds=1)
        for name in ("Cupa", "Cupa dublă", "Cupa începută")
    )
    for event in (open_, both, begun):
        entered_as_guest(event.id, guest)
    services.event_register(event_id=both.id, actor=account)
    for entrant in UserFactory.create_batch(3):
        services.event_register(event_id=begun.id, actor=entrant)
        services.event_check_in(event_id=begun.id, actor=entrant)
    services.event_start_round(event_id=begun.id, actor=creator)

    # When she signs in to her account on the sign-in page
    client.force_login(guest)
    response = client.post(
        "/accounts/login/?next=/me/games/", {"username": "maria", "password": DEFAULT_PASSWORD}
    )

    # Then the open event's entry is the account's, in its stream, under the name and
    # with the check-in it had
    assert handed(open_.id) == [EntryHandedOver(guest.pk, account.pk)]
    assert entries(open_.id) == [(account.pk, "Maria", True)]
    # and the two others stay the guest's, as the page she lands on says
    assert handed(both.id) == handed(begun.id) == []
    assert (guest.pk, "Maria", True) in entries(both.id)
    assert (guest.pk, "Maria", True) in entries(begun.id)
    content = html.unescape(client.get(response["Location"]).content.decode())
    assert (
        f"Your entry in the event {both.code} stays with the guest: you are entered there "
        "already." in content
    )
    assert f"Your entry in the event {begun.code} stays with the guest: its rounds have begun." in (
        content
    )
    # and a rebuild of the events from their streams derives the same entries
    rows = [entries(event.id) for event in (open_, both, begun)]
    rebuild_standings()
    assert [entries(event.id) for event in (open_, both, begun)] == rows


def test_the_api_names_the_entries_that_stay_the_guests() -> None:
    guest = user_create_guest(display_name="Maria")
    account: User = UserFactory.create(username="maria")
    event = services.event_create(organizer=organizer(), name="Cupa", rounds=1)
    entered_as_guest(event.id, guest)
    services.event_register(event_id=event.id, actor=account)

    response = signed_in(guest).post(
        "/api/auth/login/", {"username": "maria", "password": DEFAULT_PASSWORD}, format="json"
    )

    assert response.json()["guest"] == {
        "guest_id": guest.pk,
        "kept": [{"code": event.code, "reason": ENTERED_THERE}],
    }


def test_an_entry_handed_over_plays_the_account_in_the_first_round() -> None:
    # Given Maria's entry as a guest handed over to her account before the first round
    guest = user_create_guest(display_name="Maria")
    account: User = UserFactory.create(username="maria")
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", rounds=1)
    entered_as_guest(event.id, guest)
    others: list[User] = UserFactory.create_batch(3)
    for entrant in others:
        services.event_register(event_id=event.id, actor=entrant)
        services.event_check_in(event_id=event.id, actor=entrant)
    services.event_hand_over_entries(guest.pk, account.pk)

    # When the round starts
    services.event_start_round(event_id=event.id, actor=creator)

    # Then the account is seated, not the guest
    [game] = round_games(event.id, 1)
    seated = {taken["user_id"] for taken in game.seats}
    assert seated == {account.pk, *(other.pk for other in others)}
    # and the guest has nothing left to hand over there
    assert services.event_hand_over_entries(guest.pk, account.pk) == []


def test_an_entry_handed_over_is_withdrawn_and_nameless_when_the_account_is_deleted(
    client: Client,
) -> None:
    # Given Maria's entry as a guest, her account's since she signed in to it
    guest = user_create_guest(display_name="Maria")
    account: User = UserFactory.create(username="maria")
    event = services.event_create(organizer=organizer(), name="Cupa", rounds=2)
    entered_as_guest(event.id, guest)
    client.force_login(guest)
    client.post("/accounts/login/", {"username": "maria", "password": DEFAULT_PASSWORD})

    # When she deletes her account
    client.post("/accounts/account/delete/", {"password": DEFAULT_PASSWORD})

    # Then the entry is out of the rounds to come, under no name (the log names the
    # guest beside it, not the account)
    entry = Entry.objects.get(event_id=event.id)
    assert (entry.player_id, entry.name, entry.withdrawn) == (account.pk, "Deleted player", True)
    assert services.load_championship(event.id).entries[account.pk].withdrawn


def test_the_fold_gives_the_entry_to_the_account_in_its_place() -> None:
    registered = [PlayerRegistered(1, "Ana"), PlayerRegistered(2, "Guest 4821")]
    championship = fold(
        Championship(), [*registered, PlayerCheckedIn(2), PlayerRegistered(3, "Ion")]
    )

    fold(championship, [EntryHandedOver(2, 9)])

    # Then the account holds it where the guest did, as it was, and plays the next round
    assert list(championship.entries) == [1, 9, 3]
    assert championship.entries[9] == ChampionshipEntry(9, "Guest 4821", checked_in=True)
    assert championship.present == [9]


# --- 3. The register API --------------------------------------------------------------


def test_the_register_api_turns_the_sessions_guest_into_the_account() -> None:
    # Given a guest with a game in play, their browser's session the guest's
    guest = user_create_guest(display_name="Maria")
    game = actions.game_create(creator=guest, player_count=3, preset="championship")
    actions.game_join(game_id=game.id, user=guest, alias="Maria")
    client = signed_in(guest)

    # When the browser registers through the API
    response = client.post(
        "/api/auth/register/",
        {"username": "maria", "password": "a long pass phrase 42", "display_name": "Maria Pop"},
        format="json",
    )

    # Then the guest is the account, the same user, still at its table, signed in
    assert response.status_code == 201, response.content
    assert response.json()["user"]["id"] == guest.pk
    user = User.objects.get(pk=guest.pk)
    assert (user.username, user.display_name, user.is_guest) == ("maria", "Maria Pop", False)
    assert user.check_password("a long pass phrase 42")
    assert Game.objects.get(pk=game.id).seats[0]["user_id"] == guest.pk
    assert signed_in_as(client) == guest.pk
    assert User.objects.count() == 1


def test_the_register_api_without_a_guest_makes_a_new_account_and_its_session() -> None:
    client = APIClient()

    response = client.post(
        "/api/auth/register/",
        {"username": "ana", "password": "a long pass phrase 42"},
        format="json",
    )

    assert response.status_code == 201
    user = User.objects.get(username="ana")
    assert (response.json()["user"]["id"], user.is_guest) == (user.pk, False)
    assert signed_in_as(client) == user.pk


def test_another_site_cannot_register_a_guest_into_its_own_account() -> None:
    # Given a guest's browser
    guest = user_create_guest(display_name="Maria")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(guest)

    # When a page of another site posts a registration from it (a form: what a page
    # may send elsewhere without asking)
    response = client.post(
        "/api/auth/register/",
        {"username": "mallory", "password": "a long pass phrase 42"},
        format="multipart",
    )

    # Then it is refused, and the guest is as it was
    assert response.status_code == 415
    user = User.objects.get(pk=guest.pk)
    assert (user.is_guest, user.username == "mallory") == (True, False)


# --- 4. The words said at the tables --------------------------------------------------


def test_the_guests_words_are_the_accounts_after_signing_in(client: Client) -> None:
    # Given Maria's words as a guest at her game in play and her finished game
    given = story()
    game_say(game_id=given.playing.id, actor=given.guest, phrase="good_luck", idempotency_key="k1")
    game_say(game_id=given.finished.id, actor=given.guest, text="bine jucat")
    opponent = User.objects.get(pk=given.finished.seats[0]["user_id"])
    game_say(game_id=given.finished.id, actor=opponent, phrase="thanks")

    # When she signs in to her account
    sign_in(client, given, "/me/games/")

    # Then her words are her account's, at the seats and under the names they were
    # said from; the others' stay theirs
    said = TableMessage.objects.order_by("id").values_list("author_id", "game_id", "seat", "key")
    assert list(said) == [
        (given.account.pk, given.playing.id, 0, ""),
        (given.account.pk, given.finished.id, 1, ""),
        (opponent.pk, given.finished.id, 0, ""),
    ]
    read = client.get(f"/api/games/{given.finished.code}/chat/").json()["words"]
    assert [(word["seat"], word["text"]) for word in read] == [(1, "bine jucat"), (0, None)]


def test_words_at_a_table_where_the_account_sits_stay_the_guests(client: Client) -> None:
    # Given Maria's words as a guest at a table where her account sits too
    given = story(account_at_the_table=True)
    game_say(game_id=given.playing.id, actor=given.guest, phrase="good_luck")

    # When she signs in to her account
    sign_in(client, given, "/me/games/")

    # Then they stay the guest's, as that seat does
    assert list(TableMessage.objects.values_list("author_id", flat=True)) == [given.guest.pk]
