"""Tables in the room through the REST API: a scorer writes each deal down, another
seat confirms it, a correction scores the later deals again; a scorer without an
account gives the table's PIN."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from eventlog import store
from games.commands.actions import game_create, game_fill_with_bots, game_join
from games.errors import NoBotsInTheRoom
from games.read.pins import table_pin
from games.table import stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import seated_game

pytestmark = pytest.mark.django_db

# Deals of 1, 3, 5, 7, 8, 7, 5, 3, 1 cards.
SHORT = {
    "schedule": "1-8-1",
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
    "step": 2,
}


def room_table(creator: User | None = None) -> tuple[uuid.UUID, list[User]]:
    return seated_game(4, options=SHORT, place="room", creator=creator)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def plain_deal(game_id: uuid.UUID, hand: int) -> dict[str, Any]:
    """Deal ``hand`` where everyone bid 0 and the dealer's left took every trick."""
    game = load_table(game_id).romanian_game
    cards, dealer = game.schedule[hand].cards, (game.first_dealer + hand) % 4
    tricks = [0] * 4
    tricks[(dealer + 1) % 4] = cards
    return {"hand": hand, "bids": [0, 0, 0, 0], "tricks": tricks}


def post(client: Client, code: str, action: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(
        f"/api/games/{code}/{action}/", body, content_type="application/json", headers=headers
    )


def code_of(game_id: uuid.UUID) -> str:
    return load_table(game_id).code


def test_a_table_in_the_room_starts_with_a_first_dealer_and_deals_nothing() -> None:
    # Given four players seated at a table in the room
    game_id, _ = room_table()

    # Then its game started, awaiting the first deal's record, and no card exists
    table = load_table(game_id)
    assert (table.place, table.status, table.game.phase.value) == ("room", "playing", "dealing")
    assert table.game.recorded is True
    assert table.commitments == ()
    assert [record.type for record in store.read(stream_of(game_id))][-1] == "GameStarted"


def test_a_player_writes_a_deal_down_and_it_is_scored() -> None:
    # Given a table in the room
    game_id, users = room_table()
    deal = plain_deal(game_id, 0)

    # When seat 2 writes the first deal down
    answer = post(signed_in(users[2]), code_of(game_id), "deals", deal)

    # Then it is recorded for seat 2 and scored: the three who bid 0 and made 0 score
    # 5 (championship: 5 + bid), the one who took the trick loses 1
    assert answer.status_code == 200, answer.json()
    assert [event["type"] for event in answer.json()["events"]] == ["DealRecorded", "HandScored"]
    game = load_table(game_id).romanian_game
    expected = [-1 if taken else 5 for taken in deal["tricks"]]
    assert list(game.scores) == expected
    assert game.entered_by == (2,)
    assert game.confirmed == (False,)


def test_the_dealers_forbidden_bid_is_refused_and_nothing_is_written() -> None:
    # Given a table in the room and the one-card first deal
    game_id, users = room_table()
    game = load_table(game_id).romanian_game
    dealer = game.first_dealer
    bids = [0, 0, 0, 0]
    bids[dealer] = 1
    version = store.version(stream_of(game_id))

    # When the dealer's bid makes the bids add up to the one card dealt
    answer = post(
        signed_in(users[0]), code_of(game_id), "deals", {**plain_deal(game_id, 0), "bids": bids}
    )

    # Then it is refused by its rule and the log did not grow
    assert answer.status_code == 400
    assert answer.json()["code"] == "dealer_bid_forbidden"
    assert store.version(stream_of(game_id)) == version


def test_tricks_that_do_not_add_up_are_refused() -> None:
    game_id, users = room_table()

    answer = post(
        signed_in(users[0]),
        code_of(game_id),
        "deals",
        {"hand": 0, "bids": [0, 0, 0, 0], "tricks": [1, 1, 0, 0]},
    )

    assert answer.status_code == 400
    assert answer.json()["code"] == "tricks_do_not_add_up"


def test_another_seat_confirms_a_deal_but_not_its_writer() -> None:
    # Given a deal written down by seat 1
    game_id, users = room_table()
    code = code_of(game_id)
    assert post(signed_in(users[1]), code, "deals", plain_deal(game_id, 0)).status_code == 200

    # When seat 1 confirms it, then it is refused
    own = post(signed_in(users[1]), code, "deals/confirm", {"hand": 0})
    assert (own.status_code, own.json()["code"]) == (400, "confirmed_by_another")

    # When seat 3 confirms it, then it stands confirmed, by seat 3
    other = post(signed_in(users[3]), code, "deals/confirm", {"hand": 0})
    assert other.status_code == 200
    assert other.json()["events"][0]["payload"] == {"hand": 0, "by": 3}
    assert load_table(game_id).romanian_game.confirmed == (True,)


def test_a_confirmed_deal_is_corrected_only_with_a_reason_and_later_deals_are_scored_again() -> (
    None
):
    # Given two deals written down and the first confirmed
    game_id, users = room_table()
    code = code_of(game_id)
    writer, checker = signed_in(users[0]), signed_in(users[1])
    assert post(writer, code, "deals", plain_deal(game_id, 0)).status_code == 200
    assert post(checker, code, "deals/confirm", {"hand": 0}).status_code == 200
    assert post(writer, code, "deals", plain_deal(game_id, 1)).status_code == 200
    first = plain_deal(game_id, 0)
    # The trick went to the dealer's left's left instead.
    taker = first["tricks"].index(1)
    corrected = {**first, "tricks": [1 if seat == (taker + 1) % 4 else 0 for seat in range(4)]}

    # When it is corrected without a reason, then it is refused
    bare = post(writer, code, "deals/correct", corrected)
    assert (bare.status_code, bare.json()["code"]) == (400, "correction_needs_reason")

    # When it is corrected with one
    answer = post(writer, code, "deals/correct", {**corrected, "reason": "wrong seat"})

    # Then the correction and both deals' new scores are in the log, and the
    # corrected deal awaits a confirmation again
    assert answer.status_code == 200, answer.json()
    assert [event["type"] for event in answer.json()["events"]] == [
        "DealCorrected",
        "HandScored",
        "HandScored",
    ]
    game = load_table(game_id).romanian_game
    second = plain_deal(game_id, 1)["tricks"]
    assert list(game.results[0].tricks) == corrected["tricks"]
    assert list(game.scores) == [
        (-1 if won else 5) + (-3 if later else 5)
        for won, later in zip(corrected["tricks"], second, strict=True)
    ]
    assert game.confirmed == (False, False)


def test_two_phones_writing_the_same_deal_one_wins_and_the_other_is_told() -> None:
    # Given two players at the table about to write the first deal
    game_id, users = room_table()
    code = code_of(game_id)
    deal = plain_deal(game_id, 0)

    # When both send it, the second after the first landed
    first = post(signed_in(users[0]), code, "deals", deal)
    second = post(signed_in(users[1]), code, "deals", deal)

    # Then one deal is written and the other phone hears deal 2 is next
    assert first.status_code == 200
    assert (second.status_code, second.json()["code"]) == (400, "deal_out_of_schedule")
    assert len(load_table(game_id).romanian_game.results) == 1


def test_two_phones_writing_on_the_same_version_one_is_told_the_table_moved_on() -> None:
    game_id, users = room_table()
    code = code_of(game_id)
    version = store.version(stream_of(game_id))
    deal = {**plain_deal(game_id, 0), "expected_version": version}

    assert post(signed_in(users[0]), code, "deals", deal).status_code == 200
    late = post(signed_in(users[1]), code, "deals", deal)

    assert (late.status_code, late.json()["code"]) == (409, "version_conflict")


def test_an_entry_sent_again_after_a_lost_answer_applies_once() -> None:
    # Given an entry made offline, sent when the connection returned
    game_id, users = room_table()
    code = code_of(game_id)
    phone = signed_in(users[0])
    key = str(uuid.uuid4())

    # When the phone sends it twice with the same key
    first = post(phone, code, "deals", plain_deal(game_id, 0), **{"Idempotency-Key": key})
    again = post(phone, code, "deals", plain_deal(game_id, 0), **{"Idempotency-Key": key})

    # Then one deal is written and the second answer repeats the first
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["replayed"] is True
    assert again.json()["version"] == first.json()["version"]
    assert len(load_table(game_id).romanian_game.results) == 1


def test_a_scorer_without_an_account_gives_the_pin_and_scores_for_their_seat() -> None:
    # Given a table in the room and a phone signed in to no account
    game_id, _ = room_table()
    code = code_of(game_id)
    phone = Client()

    # When it writes a deal without the PIN, then it is refused
    refused = post(phone, code, "deals", plain_deal(game_id, 0))
    assert (refused.status_code, refused.json()["code"]) == (403, "scorer_only")

    # When it gives a wrong PIN, then it is refused too
    wrong = str((int(table_pin(game_id)) + 1) % 10**6).zfill(6)
    bad = post(phone, code, "scorer", {"pin": wrong, "seat": 2})
    assert (bad.status_code, bad.json()["code"]) == (403, "wrong_pin")

    # When it gives the table's PIN for seat 2 and writes the deal
    granted = post(phone, code, "scorer", {"pin": table_pin(game_id), "seat": 2})
    written = post(phone, code, "deals", plain_deal(game_id, 0))

    # Then the deal is seat 2's, and a second phone with the PIN for seat 0 confirms it
    assert granted.json() == {"game": code, "seat": 2}
    assert written.status_code == 200, written.json()
    other = Client()
    assert post(other, code, "scorer", {"pin": table_pin(game_id), "seat": 0}).status_code == 200
    assert post(other, code, "deals/confirm", {"hand": 0}).status_code == 200
    game = load_table(game_id).romanian_game
    assert (game.entered_by, game.confirmed) == ((2,), (True,))


def test_a_scorers_session_is_checked_against_forged_requests() -> None:
    # Given a phone that gave the PIN, and a page elsewhere posting with its cookie
    game_id, _ = room_table()
    code = code_of(game_id)
    phone = Client(enforce_csrf_checks=True)
    phone.get("/")  # the CSRF cookie, as the scorer page gets it
    token = phone.cookies["csrftoken"].value
    granted = post(
        phone, code, "scorer", {"pin": table_pin(game_id), "seat": 1}, **{"X-CSRFToken": token}
    )
    assert granted.status_code == 200

    # When a deal comes without the CSRF token, then it is refused and nothing is written
    forged = post(phone, code, "deals", plain_deal(game_id, 0))
    assert forged.status_code == 403
    assert load_table(game_id).romanian_game.results == ()


def test_the_director_writes_a_sheet_down_confirmed_and_corrects_after_the_end() -> None:
    # Given a table in the room opened by an organizer who does not play
    organizer = UserFactory.create()
    game_id, users = room_table(creator=organizer)
    code = code_of(game_id)
    director = signed_in(organizer)

    # When the director writes every deal down from the paper sheet
    hands = len(load_table(game_id).romanian_game.schedule)
    for hand in range(hands):
        assert post(director, code, "deals", plain_deal(game_id, hand)).status_code == 200

    # Then the game is over, every deal confirmed by the director's word
    table = load_table(game_id)
    assert table.status == "finished"
    assert all(table.romanian_game.confirmed)

    # And a player may no longer correct, but the director may, with a reason
    deal = plain_deal(game_id, 0)
    fixed = {**deal, "tricks": deal["tricks"][1:] + deal["tricks"][:1], "reason": "sheet"}
    player = post(signed_in(users[0]), code, "deals/correct", fixed)
    assert (player.status_code, player.json()["code"]) == (400, "table_closed")
    answer = post(director, code, "deals/correct", fixed)
    assert answer.status_code == 200
    assert answer.json()["events"][-1]["type"] == "GameFinished"


def test_a_table_played_here_records_no_deal() -> None:
    game_id, users = seated_game(4, options=SHORT)

    answer = post(
        signed_in(users[0]),
        code_of(game_id),
        "deals",
        {"hand": 0, "bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]},
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "played_table")


def test_no_bot_sits_at_a_table_in_the_room() -> None:
    creator = UserFactory.create()
    game = game_create(creator=creator, player_count=4, options=SHORT, place="room")
    game_join(game_id=game.id, user=creator, alias="Ana")

    with pytest.raises(NoBotsInTheRoom):
        game_fill_with_bots(game_id=game.id, actor=creator)


def test_guessing_a_tables_pin_is_stopped_and_other_tables_are_not() -> None:
    # Given a table in the room, and a second one
    game_id, _ = room_table()
    other_id, _ = room_table()
    code = code_of(game_id)
    wrong = str((int(table_pin(game_id)) + 1) % 10**6).zfill(6)

    # When ten wrong PINs are given at the first, from phones of one room
    answers = [
        post(Client(), code, "scorer", {"pin": wrong, "seat": 0}).json()["code"] for _ in range(10)
    ]

    # Then each is told so, and the eleventh try is refused even with the right PIN
    assert answers == ["wrong_pin"] * 10
    stopped = post(Client(), code, "scorer", {"pin": table_pin(game_id), "seat": 0})
    assert (stopped.status_code, stopped.json()["code"]) == (429, "too_many_attempts")
    assert int(stopped["Retry-After"]) > 0

    # And the other table's scorers give its PIN as before
    other = post(Client(), code_of(other_id), "scorer", {"pin": table_pin(other_id), "seat": 0})
    assert other.status_code == 200
