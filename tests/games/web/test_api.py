"""The games REST API, through HTTP: every endpoint, and every error as {code, message}."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest
from django.core.management import call_command
from django.db import connection
from django.templatetags.static import static
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token
from eventlog import store
from games.commands.actions import game_create, game_join
from games.models import CommandReceipt, Game
from games.rules import Phase, legal_bids, legal_plays
from games.table import Table, stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import next_move, play_to_end, seated_game
from tests.tournaments.drivers import private_event_round

pytestmark = pytest.mark.django_db

SHORT = {
    "schedule": "1-8-1",
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
    "step": 2,
}


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
    return client


@dataclass
class Seated:
    """A started game and a token client for each of its seats."""

    id: uuid.UUID
    code: str
    users: list[User]
    clients: list[APIClient]

    @property
    def table(self) -> Table:
        return load_table(self.id)

    @property
    def version(self) -> int:
        return store.version(stream_of(self.id))

    def url(self, action: str = "") -> str:
        return f"/api/games/{self.code}/{action + '/' if action else ''}"

    def to_act(self) -> int:
        return self.table.game.turn

    def client_to_act(self) -> APIClient:
        return self.clients[self.to_act()]

    def waiting_client(self) -> APIClient:
        """A seated player whose turn it is not."""
        return self.clients[(self.to_act() + 1) % len(self.clients)]

    def advance_until(self, reached: Callable[[Table], bool], seed: int = 0) -> None:
        rng = random.Random(seed)
        while not reached(self.table):
            assert next_move(self.id, self.users, rng), "the game ended first"


def seated(players: int = 3, preset: str = "romanian-standard", **options: Any) -> Seated:
    game_id, users = seated_game(players=players, preset=preset, options={**SHORT, **options})
    game = Game.objects.get(pk=game_id)
    return Seated(game_id, game.code, users, [token_client(user) for user in users])


@pytest.fixture
def game() -> Seated:
    return seated()


@pytest.fixture
def player(user: User) -> APIClient:
    return token_client(user)


def error(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) <= {"code", "message", "fields"}
    assert body["message"]
    return response.status_code, body["code"]


# --- Creating and listing games ---------------------------------------------------------


def test_creating_a_game_answers_201_with_its_id_share_code_and_chosen_rules(
    player: APIClient,
) -> None:
    response = player.post(
        "/api/games/",
        {"player_count": 4, "preset": "classic-app", "options": {"step": 2}},
    )

    assert response.status_code == 201
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert body["code"] == game.code
    assert len(body["code"]) == 6
    assert body["status"] == "open"
    assert body["player_count"] == 4
    assert body["preset"] == "classic-app"
    assert body["options"]["scoring"] == "1+bid"
    assert body["options"]["step"] == 2
    assert body["seats"] == []
    assert body["version"] == 1


def test_creating_a_game_without_signing_in_is_401_and_creates_nothing() -> None:
    response = APIClient().post("/api/games/", {"player_count": 3})

    assert error(response) == (401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert Game.objects.count() == 0


def test_an_unknown_token_is_401_authentication_failed() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")

    response = client.post("/api/games/", {"player_count": 3})

    assert error(response) == (401, "authentication_failed")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"player_count": 7}, "invalid_player_count", None),
        ({"player_count": 2}, "invalid_player_count", None),
        ({"player_count": 10**30}, "invalid_player_count", None),
        ({"player_count": "three"}, "invalid_input", "player_count"),
        ({"player_count": True}, "invalid_input", "player_count"),
        ({"player_count": 3.5}, "invalid_input", "player_count"),
        ({}, "invalid_input", "player_count"),
        ({"player_count": 3, "preset": "poker"}, "invalid_input", "preset"),
        ({"player_count": 3, "options": ["step", 2]}, "invalid_input", "options"),
        ({"player_count": 3, "options": {"steps": 2}}, "invalid_options", None),
        ({"player_count": 3, "options": {"step": 3}}, "invalid_options", None),
        ({"player_count": 3, "options": {"step": "2"}}, "invalid_options", None),
        ({"player_count": 3, "options": {"must_trump": 1}}, "invalid_options", None),
        ({"player_count": 3, "options": {"special_hands": "blind-bid"}}, "invalid_options", None),
        (
            {"player_count": 3, "options": {"streak_bonus": {"length": "x"}}},
            "invalid_options",
            None,
        ),
        (
            {"player_count": 3, "options": {"streak_bonus": {"length": 5, "points": -1}}},
            "invalid_options",
            None,
        ),
        ({"player_count": 3, "options": {"one_card_mode": "sideways"}}, "invalid_options", None),
    ],
)
def test_creating_a_game_with_bad_rules_is_a_400_naming_the_problem_and_creates_nothing(
    player: APIClient, body: dict[str, Any], code: str, field: str | None
) -> None:
    response = player.post("/api/games/", body)

    assert error(response) == (400, code)
    if field is not None:
        assert list(response.json()["fields"]) == [field]
    assert Game.objects.count() == 0


def test_the_game_list_is_public_newest_first_and_filters_by_status(user: User) -> None:
    started = seated()
    opened = game_create(creator=user, player_count=3)

    everything = APIClient().get("/api/games/").json()
    playing = APIClient().get("/api/games/?status=playing").json()
    open_ = APIClient().get("/api/games/?status=open").json()

    assert everything["count"] == 2
    assert [game["id"] for game in everything["results"]] == [str(opened.id), str(started.id)]
    assert [game["code"] for game in playing["results"]] == [started.code]
    assert [game["code"] for game in open_["results"]] == [opened.code]
    assert playing["results"][0]["seats"] == [
        {"seat": 0, "alias": "Player 1"},
        {"seat": 1, "alias": "Player 2"},
        {"seat": 2, "alias": "Player 3"},
    ]


def test_the_game_list_comes_in_pages(user: User) -> None:
    for _ in range(3):
        game_create(creator=user, player_count=3)

    first = APIClient().get("/api/games/?page_size=2").json()
    second = APIClient().get(first["next"]).json()

    assert first["count"] == 3
    assert len(first["results"]) == 2
    assert len(second["results"]) == 1
    assert second["next"] is None


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [("status=closed", 400, "invalid_input"), ("page=9", 404, "not_found")],
)
def test_a_bad_list_query_is_an_error(query: str, status: int, code: str) -> None:
    assert error(APIClient().get(f"/api/games/?{query}")) == (status, code)


# --- Reading a game ---------------------------------------------------------------------


def test_a_player_sees_their_own_cards_and_a_spectator_sees_none(game: Seated) -> None:
    holdings = game.table.game.holdings
    outsider = token_client(UserFactory.create())

    own = game.clients[1].get(game.url()).json()
    by_id = outsider.get(f"/api/games/{game.id}/").json()
    anonymous = APIClient().get(f"/api/games/{game.code.lower()}/").json()

    assert own["you"] == 1
    assert own["hand"]["holdings"] == [None, [str(card) for card in holdings[1]], None]
    for spectator in (by_id, anonymous):
        assert spectator["you"] is None
        assert spectator["hand"]["holdings"] == [None, None, None]
        assert spectator["id"] == str(game.id)
        assert spectator["version"] == game.version


@pytest.mark.parametrize("ref", [str(uuid.UUID(int=1)), "ZZZZZZ", "%00", "a" * 300, "..", "%C3%A9"])
def test_an_unknown_game_is_404_game_not_found_on_every_endpoint(game: Seated, ref: str) -> None:
    client = game.clients[0]

    for response in (
        client.get(f"/api/games/{ref}/"),
        client.get(f"/api/games/{ref}/events/"),
        client.get(f"/api/games/{ref}/record/"),
        client.post(f"/api/games/{ref}/join/", {"alias": "X"}),
        client.post(f"/api/games/{ref}/bid/", {"bid": 0}),
        client.post(f"/api/games/{ref}/play/", {"card": "AS"}),
        client.post(f"/api/games/{ref}/zero-play/", {}),
        client.post(f"/api/games/{ref}/one-card-mode/", {"mode": "open"}),
        client.get(f"/api/games/{ref}/chat/"),
        client.post(f"/api/games/{ref}/chat/", {"phrase": "thanks"}),
        client.post(f"/api/games/{ref}/chat/1/report/"),
    ):
        assert error(response) == (404, "game_not_found")


def test_a_private_events_table_does_not_exist_for_an_outsider_on_any_endpoint() -> None:
    # Given a table of a private event, in play
    _, organizer, entrants, (table, _) = private_event_round(8)
    seated_ids = [seat["user_id"] for seat in table.seats]
    player = next(user for user in entrants if user.pk == seated_ids[0])
    outsider = token_client(UserFactory.create())

    # When an outsider or an anonymous visitor reads or acts on it, by code or id
    for client in (outsider, APIClient()):
        for ref in (table.code, str(table.id)):
            # Then it is a 404, as for a game that does not exist
            for response in (
                client.get(f"/api/games/{ref}/"),
                client.get(f"/api/games/{ref}/events/"),
                client.get(f"/api/games/{ref}/record/"),
                client.get(f"/api/games/{ref}/record.json"),
            ):
                assert error(response) == (404, "game_not_found")
    seat_bot = {"seat": 0, "bot": None}
    for action, body in [("join", {"alias": "X"}), ("bid", {"bid": 0}), ("seat-bot", seat_bot)]:
        response = outsider.post(f"/api/games/{table.code}/{action}/", body)
        assert error(response) == (404, "game_not_found")
    # And it is not listed, in play or at all
    for client in (outsider, APIClient()):
        for query in ("?status=playing", ""):
            codes = [game["code"] for game in client.get(f"/api/games/{query}").json()["results"]]
            assert table.code not in codes
    # While its player and the organizer read it and see it listed
    for user in (player, organizer):
        client = token_client(user)
        assert client.get(f"/api/games/{table.code}/").status_code == 200
        listed = client.get("/api/games/?status=playing").json()["results"]
        assert table.code in [game["code"] for game in listed]
    assert token_client(player).get(f"/api/games/{table.code}/").json()["you"] == 0


def test_an_unknown_api_address_is_a_json_404() -> None:
    assert error(APIClient().get("/api/nowhere/")) == (404, "not_found")


def test_events_after_a_sequence_are_the_later_ones_as_the_viewer_may_see_them(
    game: Seated,
) -> None:
    dealt = game.table.game.holdings

    own = game.clients[2].get(game.url("events") + "?after=5").json()
    spectator = APIClient().get(game.url("events") + "?after=0").json()

    assert own["version"] == spectator["version"] == game.version
    assert [event["sequence"] for event in own["events"]] == list(range(6, game.version + 1))
    assert [event["type"] for event in own["events"]] == ["GameStarted", "HandDealt"]
    assert own["events"][-1]["payload"]["hands"] == [None, None, [str(dealt[2][0])]]
    assert spectator["events"][0]["type"] == "GameCreated"
    assert spectator["events"][-1]["payload"]["hands"] == [None, None, None]


def test_game_created_is_shown_without_its_creators_account(game: Seated) -> None:
    # Given a game whose log records its creator's account
    [created] = [r for r in store.read(stream_of(game.id)) if r.type == "GameCreated"]
    assert created.payload["creator_id"] == game.users[0].pk

    # Then neither an anonymous reader nor a player sees it
    for client in (APIClient(), game.clients[0]):
        shown = client.get(game.url("events")).json()["events"][0]
        assert shown["type"] == "GameCreated"
        assert shown["payload"] == {
            key: value for key, value in created.payload.items() if key != "creator_id"
        }


@pytest.mark.parametrize("after", ["-1", "x", str(2**40)])
def test_a_bad_events_cursor_is_invalid_input(game: Seated, after: str) -> None:
    response = APIClient().get(game.url("events") + f"?after={after}")

    assert error(response) == (400, "invalid_input")
    assert list(response.json()["fields"]) == ["after"]


# --- Joining -----------------------------------------------------------------------------


def test_joining_takes_the_next_seat_and_the_last_seat_starts_the_game(user: User) -> None:
    opened = game_create(creator=user, player_count=3, options=SHORT)
    joiners = UserFactory.create_batch(3)
    clients = [token_client(joiner) for joiner in joiners]

    first = clients[0].post(f"/api/games/{opened.code}/join/", {"alias": "Ana"})
    clients[1].post(f"/api/games/{opened.code}/join/", {"alias": "Bogdan"})
    last = clients[2].post(f"/api/games/{opened.code}/join/", {"alias": "Cici"})

    assert first.status_code == 200
    assert first.json()["version"] == 2
    assert first.json()["replayed"] is False
    assert [(e["type"], e["payload"]) for e in first.json()["events"]] == [
        ("PlayerSeated", {"seat": 0, "alias": "Ana", "zero_play": False}),
    ]
    types = [event["type"] for event in last.json()["events"]]
    assert types == ["PlayerSeated", "DealsCommitted", "GameStarted", "HandDealt"]
    hands = last.json()["events"][-1]["payload"]["hands"]
    assert hands[:2] == [None, None]
    assert hands[2] is not None
    assert Game.objects.get(pk=opened.id).status == "playing"


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"alias": ""}, "alias", "invalid_input"),
        ({"alias": "x" * 25}, "alias", "invalid_input"),
        ({"alias": ["Ana"]}, "alias", "invalid_input"),
        ({}, "alias", "invalid_input"),
        ({"alias": "player 1"}, None, "alias_taken"),
        # A look-alike of the taken alias: a digit one for an l, a Cyrillic e.
        ({"alias": "P1ayer 1"}, None, "alias_taken"),
        ({"alias": "Play\u0435r"}, None, "alias_invalid"),
        # Invisible or control characters, whatever else is in the alias.
        ({"alias": "Ana\u200b"}, None, "alias_invalid"),
        ({"alias": "\u202eanA"}, None, "alias_invalid"),
        ({"alias": "Ana\nBob"}, None, "alias_invalid"),
        ({"alias": "Ana\u2066"}, None, "alias_invalid"),
    ],
)
def test_a_bad_or_taken_alias_is_refused_with_its_code_and_seats_nobody(
    user: User, body: dict[str, Any], field: str | None, code: str
) -> None:
    opened = game_create(creator=user, player_count=3)
    game_join(game_id=opened.id, user=user, alias="Player 1")
    joiner = token_client(UserFactory.create())

    response = joiner.post(f"/api/games/{opened.code}/join/", body)

    assert error(response) == (400, code)
    assert response.json().get("fields", {}).keys() == ({field} if field else set())
    assert store.version(stream_of(opened.id)) == 2


@pytest.mark.parametrize("alias", ["\u0410na", "ana", "ANA", "An\u0430", "\uff21na"])
def test_no_alias_that_reads_as_ana_is_seated_beside_ana(user: User, alias: str) -> None:
    # Given Ana at a table
    opened = game_create(creator=user, player_count=3)
    game_join(game_id=opened.id, user=user, alias="Ana")

    # When another player joins as a look-alike: Cyrillic letters, another case, fullwidth
    response = token_client(UserFactory.create()).post(
        f"/api/games/{opened.code}/join/", {"alias": alias}
    )

    # Then it is refused, as invalid (mixed scripts) or taken
    assert error(response) in {(400, "alias_taken"), (400, "alias_invalid")}
    assert [seat["alias"] for seat in Game.objects.get(pk=opened.id).seats] == ["Ana"]


@pytest.mark.parametrize(
    ("alias", "kept"),
    [("Ștefan", "Ștefan"), ("  Ioana  ", "Ioana"), ("Иван", "Иван"), ("\uff22ob", "Bob")],
)
def test_an_alias_of_one_script_is_seated_in_its_composed_form(
    user: User, alias: str, kept: str
) -> None:
    opened = game_create(creator=user, player_count=3)
    game_join(game_id=opened.id, user=user, alias="Ana")

    response = token_client(UserFactory.create()).post(
        f"/api/games/{opened.code}/join/", {"alias": alias}
    )

    assert response.status_code == 200
    assert Game.objects.get(pk=opened.id).seats[1]["alias"] == kept


def test_joining_twice_is_409_already_seated(user: User) -> None:
    opened = game_create(creator=user, player_count=3)
    client = token_client(user)
    client.post(f"/api/games/{opened.code}/join/", {"alias": "Ana"})

    response = client.post(f"/api/games/{opened.code}/join/", {"alias": "Ana again"})

    assert error(response) == (409, "already_seated")


def test_joining_a_full_table_is_409_table_full(game: Seated, player: APIClient) -> None:
    response = player.post(game.url("join"), {"alias": "Late"})

    assert error(response) == (409, "table_full")


def test_joining_without_signing_in_is_401(game: Seated) -> None:
    assert error(APIClient().post(game.url("join"), {"alias": "Ghost"})) == (
        401,
        "not_authenticated",
    )


# --- Bidding ---------------------------------------------------------------------------------


def test_a_bid_answers_with_the_new_version_and_the_bid_as_an_event(game: Seated) -> None:
    seat = game.to_act()
    before = game.version

    response = game.clients[seat].post(game.url("bid"), {"bid": 0, "expected_version": before})

    assert response.status_code == 200
    body = response.json()
    assert body["version"] == before + 1 == game.version
    assert body["replayed"] is False
    assert [(e["sequence"], e["type"], e["payload"]) for e in body["events"]] == [
        (before + 1, "BidPlaced", {"hand": 0, "seat": seat, "bid": 0, "forced": False}),
    ]
    assert game.table.game.bids[seat] == 0


# A command's queries once the process knows the game: the token, the game's row, and
# the write (on PostgreSQL one statement; on SQLite a transaction of the event's
# INSERT and the read model's UPDATE).
COMMAND_QUERIES = 3 if connection.vendor == "postgresql" else 6


@pytest.mark.django_db(transaction=True)
def test_a_commands_answer_shows_its_events_without_reading_the_log(
    django_assert_num_queries: Any,
) -> None:
    # Given a game in play whose last command this process made
    game = seated()
    game.client_to_act().post(game.url("bid"), {"bid": 0, "expected_version": game.version})
    seat, before = game.to_act(), game.version

    # When the next player bids through the API
    with django_assert_num_queries(COMMAND_QUERIES) as captured:
        response = game.clients[seat].post(game.url("bid"), {"bid": 0, "expected_version": before})

    # Then the answer holds the bid, and nothing read the log to show it
    assert response.status_code == 200
    assert [(e["sequence"], e["type"]) for e in response.json()["events"]] == [
        (before + 1, "BidPlaced")
    ]
    reads = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert not any("games_storedevent" in sql for sql in reads)


def test_bidding_out_of_turn_is_400_not_your_turn_and_writes_nothing(game: Seated) -> None:
    before = game.version

    response = game.waiting_client().post(game.url("bid"), {"bid": 0})

    assert error(response) == (400, "not_your_turn")
    assert game.version == before


def test_a_bid_above_the_cards_dealt_is_400_bid_out_of_range(game: Seated) -> None:
    response = game.client_to_act().post(game.url("bid"), {"bid": 2})

    assert error(response) == (400, "bid_out_of_range")
    assert response.json()["message"] == "a bid must be between 0 and the 1 cards dealt, not 2"


def test_the_dealers_forbidden_bid_is_400_dealer_bid_forbidden(game: Seated) -> None:
    # Everyone before the dealer bids 0 of the 1 card dealt: the dealer may not bid 1.
    while game.to_act() != game.table.game.dealer:
        assert game.client_to_act().post(game.url("bid"), {"bid": 0}).status_code == 200
    assert legal_bids(game.table.game) == (0,)

    response = game.client_to_act().post(game.url("bid"), {"bid": 1})

    assert error(response) == (400, "dealer_bid_forbidden")
    assert response.json()["message"] == (
        "the dealer may not bid 1: the bids would add up to the 1 cards dealt"
    )


def test_bidding_without_a_seat_is_403_not_your_seat(game: Seated, player: APIClient) -> None:
    response = player.post(game.url("bid"), {"bid": 0})

    assert error(response) == (403, "not_your_seat")


def test_bidding_for_another_seat_is_403_not_your_seat(game: Seated) -> None:
    seat = game.to_act()
    other = game.waiting_client()

    response = other.post(game.url("bid"), {"bid": 0, "seat": seat})

    assert error(response) == (403, "not_your_seat")
    assert response.json()["message"].startswith(f"seat {seat} is not yours")


def test_a_bid_on_a_stale_version_is_409_version_conflict_and_writes_nothing(
    game: Seated,
) -> None:
    before = game.version

    response = game.client_to_act().post(
        game.url("bid"), {"bid": 0, "expected_version": before - 1}
    )

    assert error(response) == (409, "version_conflict")
    assert response.json()["message"] == (
        f"the game is at version {before}, not {before - 1}: reload and try again"
    )
    assert game.version == before


@pytest.mark.parametrize("where", ["body", "header"])
def test_a_retried_bid_gets_the_first_answer_and_appends_nothing(game: Seated, where: str) -> None:
    client = game.client_to_act()
    key = {"idempotency_key": "bid-1"} if where == "body" else {}
    headers = {"HTTP_IDEMPOTENCY_KEY": "bid-1"} if where == "header" else {}
    first = client.post(game.url("bid"), {"bid": 0, **key}, **headers)
    after_first = game.version

    retry = client.post(game.url("bid"), {"bid": 0, **key}, **headers)

    assert first.status_code == retry.status_code == 200
    assert retry.json() == {**first.json(), "replayed": True}
    assert game.version == after_first
    assert CommandReceipt.objects.count() == 1


def test_an_idempotency_key_reused_for_another_bid_is_409(game: Seated) -> None:
    client = game.client_to_act()
    client.post(game.url("bid"), {"bid": 0, "idempotency_key": "k"})
    before = game.version

    response = client.post(game.url("bid"), {"bid": 1, "idempotency_key": "k"})

    assert error(response) == (409, "idempotency_key_reused")
    assert game.version == before


def test_a_body_key_that_differs_from_the_idempotency_key_header_is_invalid_input(
    game: Seated,
) -> None:
    response = game.client_to_act().post(
        game.url("bid"), {"bid": 0, "idempotency_key": "a"}, HTTP_IDEMPOTENCY_KEY="b"
    )

    assert error(response) == (400, "invalid_input")
    assert list(response.json()["fields"]) == ["idempotency_key"]


@pytest.mark.parametrize("header", ["k" * 101, "   "])
def test_an_idempotency_key_header_that_is_blank_or_too_long_is_invalid_input(
    game: Seated, header: str
) -> None:
    before = game.version

    response = game.client_to_act().post(game.url("bid"), {"bid": 0}, HTTP_IDEMPOTENCY_KEY=header)

    assert error(response) == (400, "invalid_input")
    assert response.json()["fields"] == {
        "idempotency_key": ["the Idempotency-Key header is 1 to 100 characters"]
    }
    assert game.version == before


def test_the_schema_declares_the_idempotency_key_header_as_the_server_checks_it() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    commands = [
        operation
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        # A rematch is no move of the game: asking twice gets the same table anyway;
        # nor is giving a table's PIN, nor a word said at the table or its report.
        if method == "post"
        and path.startswith("/api/games/{ref}/")
        and not path.endswith(("/rematch/", "/scorer/", "/chat/", "/report/"))
    ]

    assert len(commands) == 12
    for operation in commands:
        [header] = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
        assert header["in"] == "header"
        assert header.get("required", False) is False
        declared = header["schema"]
        assert declared == {"type": "string", "minLength": 1, "maxLength": 100, "pattern": r"\S"}
        for value, valid in [("k", True), ("k" * 100, True), ("", False), ("k" * 101, False)]:
            assert jsonschema.Draft202012Validator(declared).is_valid(value) is valid
        assert jsonschema.Draft202012Validator(declared).is_valid("   ") is False


@pytest.mark.parametrize(
    ("raw", "code", "fields"),
    [
        ("{", "parse_error", None),
        ('{"bid": NaN}', "parse_error", None),
        ("[]", "invalid_input", ["non_field_errors"]),
        ("null", "invalid_input", ["non_field_errors"]),
        ('"bid"', "invalid_input", ["non_field_errors"]),
        ("{}", "invalid_input", ["bid"]),
        ('{"bid": "two"}', "invalid_input", ["bid"]),
        ('{"bid": true}', "invalid_input", ["bid"]),
        ('{"bid": 1.5}', "invalid_input", ["bid"]),
        ('{"bid": 1e400}', "invalid_input", ["bid"]),
        ('{"bid": [0]}', "invalid_input", ["bid"]),
        ('{"bid": 99999999999999999999999999}', "bid_out_of_range", None),
        ('{"bid": -1}', "bid_out_of_range", None),
        (
            '{"bid": 0, "expected_version": 99999999999999999999}',
            "invalid_input",
            ["expected_version"],
        ),
        ('{"bid": 0, "expected_version": -1}', "invalid_input", ["expected_version"]),
        ('{"bid": 0, "seat": 6}', "invalid_input", ["seat"]),
        ('{"bid": 0, "seat": "me"}', "invalid_input", ["seat"]),
        ('{"bid": 0, "idempotency_key": ""}', "invalid_input", ["idempotency_key"]),
        ('{"bid": 0, "idempotency_key": {"a": 1}}', "invalid_input", ["idempotency_key"]),
        (
            '{"bid": 0, "idempotency_key": "' + "k" * 101 + '"}',
            "invalid_input",
            ["idempotency_key"],
        ),
    ],
)
def test_a_malformed_bid_is_a_clean_400_and_writes_nothing(
    game: Seated, raw: str, code: str, fields: list[str] | None
) -> None:
    before = game.version

    response = game.client_to_act().post(game.url("bid"), raw, content_type="application/json")

    assert error(response) == (400, code)
    if fields is not None:
        assert list(response.json()["fields"]) == fields
    assert game.version == before
    assert CommandReceipt.objects.count() == 0


def test_a_bid_sent_as_a_form_is_415_unsupported_media_type(game: Seated) -> None:
    response = game.client_to_act().post(
        game.url("bid"), "bid=0", content_type="application/x-www-form-urlencoded"
    )

    assert error(response) == (415, "unsupported_media_type")


def test_reading_a_command_address_is_405_method_not_allowed(game: Seated) -> None:
    assert error(game.client_to_act().get(game.url("bid"))) == (405, "method_not_allowed")


def test_a_player_signed_in_by_session_bids_with_the_csrf_token_and_not_without(
    game: Seated,
) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(game.users[game.to_act()])
    client.get("/")  # its sign-out form sets the CSRF cookie
    csrf = client.cookies["csrftoken"].value

    refused = client.post(game.url("bid"), {"bid": 0})
    accepted = client.post(game.url("bid"), {"bid": 0}, HTTP_X_CSRFTOKEN=csrf)

    assert error(refused) == (403, "permission_denied")
    assert "CSRF" in refused.json()["message"]
    assert accepted.status_code == 200


# --- Playing ---------------------------------------------------------------------------------


def playing(game: Seated) -> Seated:
    game.advance_until(lambda table: table.game.phase is Phase.PLAYING)
    return game


def test_playing_a_card_answers_with_the_card_as_an_event(game: Seated) -> None:
    playing(game)
    state = game.table.game
    card = str(legal_plays(state)[0])
    seat = state.turn

    response = game.client_to_act().post(game.url("play"), {"card": card.lower()})

    assert response.status_code == 200
    assert response.json()["events"][0]["type"] == "CardPlayed"
    assert response.json()["events"][0]["payload"] == {"hand": 0, "seat": seat, "card": card}


def test_null_plays_the_last_card_held(game: Seated) -> None:
    playing(game)
    held = game.table.game.holdings[game.to_act()]
    assert len(held) == 1

    response = game.client_to_act().post(game.url("play"), {"card": None})

    assert response.status_code == 200
    assert response.json()["events"][0]["payload"]["card"] == str(held[0])


def test_null_with_more_than_one_card_held_is_invalid_input(game: Seated) -> None:
    game.advance_until(lambda table: table.game.phase is Phase.PLAYING and table.game.cards > 1)

    response = game.client_to_act().post(game.url("play"), {"card": None})

    assert error(response) == (400, "invalid_input")
    assert response.json()["message"] == "name the card to play; only a last card may go unnamed"


def test_a_card_not_held_is_400_card_not_in_hand(game: Seated) -> None:
    playing(game)
    state = game.table.game
    other = str(state.holdings[(state.turn + 1) % 3][0])

    response = game.client_to_act().post(game.url("play"), {"card": other})

    assert error(response) == (400, "card_not_in_hand")


@pytest.mark.parametrize(
    ("card", "code"),
    [
        ("1Z", "invalid_card"),
        ("", "invalid_input"),
        ("11H", "invalid_card"),
        (7, "invalid_input"),
        (["AS"], "invalid_input"),
        (True, "invalid_input"),
        ("A" * 17, "invalid_input"),
    ],
)
def test_something_that_is_not_a_card_is_a_400(game: Seated, card: Any, code: str) -> None:
    playing(game)
    before = game.version

    response = game.client_to_act().post(game.url("play"), {"card": card})

    assert error(response) == (400, code)
    assert game.version == before


def test_playing_without_a_card_field_is_invalid_input(game: Seated) -> None:
    playing(game)

    response = game.client_to_act().post(game.url("play"), {})

    assert error(response) == (400, "invalid_input")
    assert response.json()["fields"] == {"card": ["This field is required."]}


def test_playing_while_the_bidding_is_on_is_400_wrong_phase(game: Seated) -> None:
    card = str(game.table.game.holdings[game.to_act()][0])

    response = game.client_to_act().post(game.url("play"), {"card": card})

    assert error(response) == (400, "wrong_phase")


def test_the_rules_of_play_answer_with_their_own_codes() -> None:
    """In a game someone soon holds the suit led (must follow suit) or, void in it,
    a trump (must trump), and something else: playing the something else fails."""
    seen: set[str] = set()
    for seed in range(5):
        game, rng = seated(players=3), random.Random(seed)
        while seen != {"must_follow_suit", "must_trump"}:
            state = game.table.game
            held = state.holdings[state.turn] if state.phase is Phase.PLAYING else ()
            illegal = [card for card in held if state.trick and card not in legal_plays(state)]
            follows = any(card.suit == state.led for card in held)
            code = "must_follow_suit" if follows else "must_trump"
            if illegal and code not in seen:
                before = game.version
                response = game.client_to_act().post(game.url("play"), {"card": str(illegal[0])})
                assert error(response) == (400, code)
                assert game.version == before
                seen.add(code)
            if not next_move(game.id, game.users, rng):
                break

    assert seen == {"must_follow_suit", "must_trump"}


def test_on_the_forehead_a_player_is_offered_their_unseen_card_and_plays_it_with_null() -> None:
    game = seated(players=3, one_card_mode="forehead")
    game.advance_until(lambda table: table.game.phase is Phase.PLAYING)
    seat = game.to_act()
    held = game.table.game.holdings[seat]

    state = game.clients[seat].get(game.url()).json()
    response = game.clients[seat].post(game.url("play"), {"card": None})

    assert state["legal"] == {
        "bids": [],
        "forbidden_bids": [],
        "cards": [],
        "hidden_card": True,
        "modes": [],
    }
    assert state["hand"]["holdings"][seat] is None
    assert response.status_code == 200
    assert response.json()["events"][0]["payload"]["card"] == str(held[0])


# --- Zero play and one-card modes -------------------------------------------------------------


def test_announcing_zero_play_answers_with_the_announcement() -> None:
    game = seated(players=3, zero_play="middle")
    seat = 1

    response = game.clients[seat].post(game.url("zero-play"), {})

    assert response.status_code == 200
    assert [(e["type"], e["payload"]) for e in response.json()["events"]] == [
        ("ZeroPlayAnnounced", {"seat": seat, "hands_dealt": 1}),
    ]
    assert game.clients[0].get(game.url()).json()["zero_play"] == [False, True, False]


def test_announcing_zero_play_where_it_is_not_played_is_400_zero_play_not_allowed(
    game: Seated,
) -> None:
    response = game.clients[0].post(game.url("zero-play"), {})

    assert error(response) == (400, "zero_play_not_allowed")


def test_the_dealer_chooses_how_a_one_card_hand_is_played() -> None:
    game = seated(players=3, one_card_mode="dealer-choice")
    dealer = game.table.game.dealer
    assert game.table.game.phase is Phase.CHOOSING_MODE

    offered = game.clients[dealer].get(game.url()).json()["legal"]["modes"]
    response = game.clients[dealer].post(game.url("one-card-mode"), {"mode": "blind"})

    assert offered == ["open", "forehead", "blind"]
    assert response.status_code == 200
    events = response.json()["events"]
    assert [event["type"] for event in events] == ["OneCardModeChosen", "HandDealt"]
    assert events[1]["payload"]["visibility"] == "blind"
    assert events[1]["payload"]["hands"] == [None, None, None]


def test_choosing_the_mode_when_not_the_dealer_is_400_not_the_dealer() -> None:
    game = seated(players=3, one_card_mode="dealer-choice")
    other = (game.table.game.dealer + 1) % 3

    response = game.clients[other].post(game.url("one-card-mode"), {"mode": "open"})

    assert error(response) == (400, "not_the_dealer")


@pytest.mark.parametrize("mode", ["sideways", "", None, 1, "OPEN"])
def test_an_unknown_mode_is_invalid_input(mode: Any) -> None:
    game = seated(players=3, one_card_mode="dealer-choice")
    dealer = game.table.game.dealer

    response = game.clients[dealer].post(game.url("one-card-mode"), {"mode": mode})

    assert error(response) == (400, "invalid_input")
    assert list(response.json()["fields"]) == ["mode"]


# --- The record and the presets ---------------------------------------------------------------


def test_the_record_is_409_game_not_finished_until_the_end(game: Seated) -> None:
    assert error(APIClient().get(game.url("record"))) == (409, "game_not_finished")
    assert error(APIClient().get(f"/api/games/{game.code}/record.json")) == (
        409,
        "game_not_finished",
    )


def test_a_finished_games_record_is_public_and_downloadable_as_a_file(game: Seated) -> None:
    play_to_end(game.id, game.users, seed=5)
    filename = f'attachment; filename="atu-game-{game.code}.json"'

    shown = APIClient().get(game.url("record"))
    downloaded = APIClient().get(game.url("record") + "?download=1")
    file = APIClient().get(f"/api/games/{game.code}/record.json")

    assert shown.status_code == downloaded.status_code == file.status_code == 200
    assert "Content-Disposition" not in shown
    assert downloaded["Content-Disposition"] == file["Content-Disposition"] == filename
    record = shown.json()
    assert downloaded.json() == file.json() == record
    assert record["id"] == str(game.id)
    assert record["code"] == game.code
    assert record["scores"] == list(game.table.game.scores)
    assert len(record["deals"]) == game.table.game.hand


def test_a_finished_classic_games_record_is_public_and_downloadable_as_a_file() -> None:
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 2})
    play_to_end(game_id, users, seed=5)
    code = Game.objects.get(pk=game_id).code

    shown = APIClient().get(f"/api/games/{code}/record/")
    file = APIClient().get(f"/api/games/{code}/record.json")

    assert shown.status_code == file.status_code == 200
    assert file["Content-Disposition"] == f'attachment; filename="atu-game-{code}.json"'
    record = shown.json()
    assert file.json() == record
    assert (record["format"], record["kind"], record["code"]) == (
        "atu-classic-record/1",
        "classic",
        code,
    )
    assert record["scores"] == list(load_table(game_id).game.seat_points)
    assert [deal["trump"] for deal in record["deals"]] == ["H", "D"]


def test_the_presets_list_each_preset_with_its_options_and_deal_sequences() -> None:
    response = APIClient().get("/api/presets/")

    assert response.status_code == 200
    presets = {preset["name"]: preset for preset in response.json()}
    assert list(presets) == ["romanian-standard", "championship", "online-room", "classic-app"]
    assert presets["championship"]["title"] == "Championship"
    assert presets["championship"]["options"]["schedule"] == "each-dealer-once"
    assert presets["online-room"]["options"]["streak_bonus"] == {"length": 5, "points": 10}
    assert presets["championship"]["sequences"]["3"] == [n for n in range(1, 9) for _ in "abc"]
    assert list(presets["classic-app"]["sequences"]) == ["3", "4", "5", "6"]


# --- The schema -------------------------------------------------------------------------------


def test_the_openapi_schema_generates_without_warnings_and_validates(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    assert out.read_text().startswith("openapi: 3.1.0")


def test_the_schema_is_served_and_documents_every_endpoint() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Atu API"
    assert set(schema["paths"]) == {
        "/api/auth/register/",
        "/api/auth/login/",
        "/api/auth/logout/",
        "/api/auth/token/",
        "/api/auth/me/",
        "/api/games/",
        "/api/games/{ref}/",
        "/api/games/{ref}/events/",
        "/api/games/{ref}/record/",
        "/api/games/{ref}/record.json",
        "/api/games/{ref}/analysis/",
        "/api/games/{ref}/join/",
        "/api/games/{ref}/bid/",
        "/api/games/{ref}/play/",
        "/api/games/{ref}/zero-play/",
        "/api/games/{ref}/one-card-mode/",
        "/api/games/{ref}/seat-bot/",
        "/api/games/play-now/",
        "/api/games/{ref}/fill-with-bots/",
        "/api/games/{ref}/cancel/",
        "/api/games/{ref}/leave/",
        "/api/games/{ref}/rematch/",
        "/api/games/{ref}/chat/",
        "/api/games/{ref}/chat/{message}/report/",
        "/api/events/{code}/tables/{game_code}/calls/",
        "/api/events/{code}/calls/{number}/answer/",
        "/api/events/{code}/calls/{number}/close/",
        "/api/games/{ref}/scorer/",
        "/api/games/{ref}/deals/",
        "/api/games/{ref}/deals/correct/",
        "/api/games/{ref}/deals/confirm/",
        "/api/presets/",
        "/api/players/{player_id}/",
    }


def test_the_api_docs_page_serves_swagger_ui_from_our_own_static_files(client: Client) -> None:
    response = client.get("/api/docs/")
    # The page's own script comes apart from it, for the content security policy.
    init = client.get("/api/docs/?script=")

    assert response.status_code == 200
    page = response.content.decode()
    assert '<script src="/api/docs/?script="></script>' in page
    assert "/api/schema/" in init.content.decode()
    assert "cdn." not in page
    script = static("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert f'<script src="{script}"></script>' in page
    assert client.get(script).status_code == 200


def strict(schema: Any) -> Any:
    """The schema with no properties beyond those documented."""
    if isinstance(schema, dict):
        copy = {key: strict(value) for key, value in schema.items()}
        if "properties" in copy:
            copy.setdefault("additionalProperties", False)
        return copy
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    return schema


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return strict(json.loads(OpenApiJsonRenderer().render(generated)))


def assert_documented(openapi: dict[str, Any], path: str, method: str, response: Any) -> None:
    """The response's status is documented for the endpoint and its body fits the schema."""
    responses = openapi["paths"][path][method]["responses"]
    assert str(response.status_code) in responses, (path, method, response.status_code)
    content = responses[str(response.status_code)].get("content")
    if content is None:
        assert not response.content
        return
    schema = {**content["application/json"]["schema"], "components": openapi["components"]}
    jsonschema.validate(response.json(), schema, cls=jsonschema.Draft202012Validator)


def test_responses_fit_the_schema_as_documented(openapi: dict[str, Any], user: User) -> None:
    game = seated(players=3, one_card_mode="dealer-choice")
    dealer = game.table.game.dealer
    ref = "/api/games/{ref}/"
    checks = [
        ("/api/games/", "post", token_client(user).post("/api/games/", {"player_count": 3})),
        ("/api/games/", "post", token_client(user).post("/api/games/", {"player_count": 9})),
        ("/api/games/", "post", APIClient().post("/api/games/", {"player_count": 3})),
        ("/api/games/", "get", APIClient().get("/api/games/")),
        ("/api/games/", "get", APIClient().get("/api/games/?status=x")),
        ("/api/presets/", "get", APIClient().get("/api/presets/")),
        (ref, "get", APIClient().get(game.url())),
        (ref, "get", game.clients[0].get(game.url())),
        (ref, "get", APIClient().get("/api/games/NOGAME/")),
        (ref + "events/", "get", game.clients[1].get(game.url("events"))),
        (ref + "events/", "get", game.clients[1].get(game.url("events") + "?after=x")),
        (ref + "record/", "get", APIClient().get(game.url("record"))),
        (
            ref + "one-card-mode/",
            "post",
            game.clients[dealer].post(game.url("one-card-mode"), {"mode": "forehead"}),
        ),
        (
            ref + "one-card-mode/",
            "post",
            game.clients[dealer].post(game.url("one-card-mode"), {"mode": "forehead"}),
        ),
    ]
    checks += [
        (ref, "get", game.clients[game.to_act()].get(game.url())),
        (ref + "bid/", "post", game.waiting_client().post(game.url("bid"), {"bid": 0})),
        (ref + "bid/", "post", token_client(user).post(game.url("bid"), {"bid": 0})),
        (
            ref + "bid/",
            "post",
            game.client_to_act().post(game.url("bid"), {"bid": 0, "expected_version": 1}),
        ),
        (ref + "bid/", "post", game.client_to_act().post(game.url("bid"), {"bid": 0})),
        (ref + "zero-play/", "post", game.clients[0].post(game.url("zero-play"), {})),
        (ref + "join/", "post", token_client(user).post(game.url("join"), {"alias": "Late"})),
    ]
    game.advance_until(lambda table: table.game.phase is Phase.PLAYING)
    checks += [
        (ref, "get", game.clients[game.to_act()].get(game.url())),
        (ref + "play/", "post", game.client_to_act().post(game.url("play"), {"card": None})),
        (ref + "play/", "post", game.client_to_act().post(game.url("play"), {"card": "ZZ"})),
    ]
    play_to_end(game.id, game.users)
    checks += [
        (ref, "get", APIClient().get(game.url())),
        (ref + "record/", "get", APIClient().get(game.url("record"))),
        (ref + "record.json", "get", APIClient().get(f"/api/games/{game.code}/record.json")),
    ]

    for path, method, response in checks:
        assert_documented(openapi, path, method, response)
    statuses = {response.status_code for _, _, response in checks}
    assert statuses == {200, 201, 400, 401, 403, 404, 409}


@pytest.mark.django_db
def test_a_table_may_have_a_turn_timer_and_its_creator_gives_seats_to_bots() -> None:
    creator, stranger = UserFactory.create_batch(2)
    client = token_client(creator)
    created = client.post("/api/games/", {"player_count": 3, "turn_seconds": 30})
    code = created.json()["code"]

    given = client.post(f"/api/games/{code}/seat-bot/", {"seat": 2, "bot": "heuristic"})
    refused = token_client(stranger).post(f"/api/games/{code}/seat-bot/", {"seat": 2, "bot": None})
    unknown = client.post(f"/api/games/{code}/seat-bot/", {"seat": 1, "bot": "genius"})
    too_short = client.post("/api/games/", {"player_count": 3, "turn_seconds": 2})

    state = client.get(f"/api/games/{code}/").json()
    assert created.status_code == 201
    assert given.status_code == 200
    assert [(e["type"], e["payload"]) for e in given.json()["events"]] == [
        ("SeatAutomated", {"seat": 2, "bot": "heuristic"})
    ]
    assert (state["turn_seconds"], state["bots"]) == (30, [None, None, "heuristic"])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid_input")
    assert unknown.json()["fields"] == {"bot": ['"genius" is not a valid choice.']}
    assert (too_short.status_code, too_short.json()["code"]) == (400, "invalid_input")


def test_seat_bot_on_a_finished_game_is_400_game_over_and_its_record_does_not_move(
    game: Seated,
) -> None:
    # Given a finished game, its record published
    play_to_end(game.id, game.users)
    record = APIClient().get(game.url("record")).json()
    version = game.version

    # When its creator, then a player, give a seat to a bot
    by_creator = game.clients[0].post(game.url("seat-bot"), {"seat": 1, "bot": "heuristic"})
    by_player = game.clients[2].post(game.url("seat-bot"), {"seat": 2, "bot": "random"})

    # Then both are refused and nothing is appended
    assert error(by_creator) == (400, "game_over")
    assert error(by_player) == (400, "game_over")
    assert by_creator.json()["message"] == "the game is over: its record is final"
    assert game.version == version
    assert APIClient().get(game.url("record")).json() == record


def test_the_dealer_is_told_which_bid_is_forbidden_and_by_which_rule() -> None:
    # Given the dealer's turn to bid, after bids that leave one bid to forbid
    game = seated(players=4, preset="championship")
    game.advance_until(
        lambda table: (
            table.game.phase is Phase.BIDDING
            and table.game.turn == table.game.dealer
            and sum(bid or 0 for bid in table.game.bids) <= table.game.cards
        )
    )
    bids = [bid for bid in game.table.game.bids if bid is not None]
    forbidden = game.table.game.cards - sum(bids)

    # When the dealer reads the game
    legal = game.clients[game.to_act()].get(game.url()).json()["legal"]

    # Then the forbidden bid is left out of the offer, and named with its rule
    assert forbidden not in legal["bids"]
    assert legal["forbidden_bids"] == [
        {
            "bid": forbidden,
            "code": "dealer_bid_forbidden",
            "message": f"the dealer may not bid {forbidden}: the bids would add up to the "
            f"{game.table.game.cards} cards dealt",
        }
    ]


def test_a_delayed_tables_spectators_read_the_game_as_it_was_the_delay_ago() -> None:
    # Given a table whose spectators lag 30 s, started just now
    users = UserFactory.create_batch(3)
    game = game_create(creator=users[0], player_count=3, preset="championship", spectator_delay=30)
    for number, user in enumerate(users):
        game_join(game_id=game.id, user=user, alias=f"P{number}")
    version = load_table(game.id).version

    # When a spectator and a player read it
    spectator = APIClient()
    watched = spectator.get(f"/api/games/{game.code}/").json()
    events = spectator.get(f"/api/games/{game.code}/events/?after=0").json()
    played = token_client(users[0]).get(f"/api/games/{game.code}/").json()

    # Then the spectator sees who sits where, but no deal of the last 30 s; the
    # player sees everything
    shown = [event["type"] for event in events["events"]]
    assert shown == ["GameCreated", *["PlayerSeated"] * 3, "DealsCommitted", "GameStarted"]
    assert watched["version"] == events["version"] == 6
    assert watched["spectator_delay"] == 30
    assert watched["phase"] == "dealing"
    assert played["version"] == version
    assert played["hand"] is not None


def test_a_finished_game_replays_at_any_version_with_every_hand_open() -> None:
    # Given a finished game
    game_id, users = seated_game(players=3, preset="romanian-standard", options=SHORT)
    play_to_end(game_id, users)
    records = store.read(stream_of(game_id))
    dealt = next(r for r in records if r.type == "HandDealt")

    # When anyone reads it as it stood right after the first deal
    state = APIClient().get(f"/api/games/{game_id}/?at={dealt.sequence}").json()

    # Then every hand is shown as dealt, and nothing after that version
    assert state["version"] == dealt.sequence
    assert state["hand"]["holdings"] == dealt.payload["hands"]
    assert state["results"] == []


def test_a_game_in_play_cannot_be_replayed() -> None:
    game_id, _ = seated_game(players=3)

    response = APIClient().get(f"/api/games/{game_id}/?at=3")

    assert response.status_code == 409
    assert response.json()["code"] == "game_not_finished"


# --- Play now, and the waiting room ------------------------------------------------------


def test_play_now_answers_201_with_a_started_table_of_bots_around_the_player(
    openapi: dict[str, Any], user: User
) -> None:
    response = token_client(user).post(
        "/api/games/play-now/",
        {"preset": "romanian-standard", "player_count": 3, "options": SHORT, "level": "easy"},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "playing"
    assert [seat["alias"] for seat in body["seats"]] == [user.display, "Ana", "Bogdan"]
    table = load_table(uuid.UUID(body["id"]))
    assert table.bots == (None, "easy", "easy")
    assert len(table.game.schedule) == 9
    assert_documented(openapi, "/api/games/play-now/", "post", response)


@pytest.mark.parametrize(
    ("body", "code"),
    [({"level": "grandmaster"}, "invalid_input"), ({"player_count": 9}, "invalid_player_count")],
)
def test_play_now_refused_is_a_400_and_opens_nothing(
    user: User, body: dict[str, Any], code: str
) -> None:
    response = token_client(user).post("/api/games/play-now/", body, format="json")

    assert (response.status_code, response.json()["code"]) == (400, code)
    assert not Game.objects.exists()


def test_play_now_without_signing_in_is_401() -> None:
    assert APIClient().post("/api/games/play-now/", {}, format="json").status_code == 401


def test_the_creator_fills_cancels_and_a_player_leaves_through_the_api(
    openapi: dict[str, Any], user: User
) -> None:
    ion = UserFactory()
    creator, player, stranger = token_client(user), token_client(ion), token_client(UserFactory())
    filled = game_create(creator=user, player_count=3, preset="championship")
    waiting = game_create(creator=user, player_count=3, preset="championship")
    game_join(game_id=waiting.id, user=ion, alias="Ion")

    def post(client: APIClient, game: Game, action: str, body: dict[str, Any]) -> Any:
        return action, client.post(f"/api/games/{game.code}/{action}/", body, format="json")

    checks = [
        post(stranger, waiting, "leave", {}),
        post(player, waiting, "cancel", {}),
        post(player, waiting, "leave", {}),
        post(creator, filled, "fill-with-bots", {"level": "strong"}),
        post(creator, filled, "fill-with-bots", {}),
        post(creator, waiting, "cancel", {}),
        post(player, waiting, "leave", {}),
    ]

    assert [(response.status_code, response.json().get("code")) for _, response in checks] == [
        (409, "not_seated"),
        (403, "not_the_creator"),
        (200, None),
        (200, None),
        (409, "game_started"),
        (200, None),
        (409, "table_cancelled"),
    ]
    assert [event["type"] for event in checks[2][1].json()["events"]] == ["PlayerLeft"]
    assert load_table(filled.id).bots == ("strong", "strong", "strong")
    assert load_table(filled.id).status == "playing"
    assert APIClient().get(f"/api/games/{waiting.code}/").json()["status"] == "cancelled"
    for action, response in checks:
        assert_documented(openapi, f"/api/games/{{ref}}/{action}/", "post", response)


def test_a_player_asks_for_a_rematch_and_the_others_get_the_same_table() -> None:
    # Given a finished game of three
    game_id, users = seated_game(3, "classic-app", options=SHORT)
    play_to_end(game_id, users)
    code = Game.objects.get(pk=game_id).code

    before = APIClient().get(f"/api/games/{code}/rematch/")

    # When two of its players ask for a rematch, and a stranger does
    first = token_client(users[0]).post(f"/api/games/{code}/rematch/")
    second = token_client(users[1]).post(f"/api/games/{game_id}/rematch/")
    stranger = token_client(UserFactory.create()).post(f"/api/games/{code}/rematch/")

    # Then both players sit at the one new table, and the stranger is refused
    assert first.status_code == 200
    assert first.json()["rematch_of"] == str(game_id)
    assert first.json()["status"] == "open"
    assert second.json()["id"] == first.json()["id"]
    assert [seat["alias"] for seat in second.json()["seats"]] == ["Player 1", "Player 2"]
    assert error(stranger) == (403, "not_a_player")
    # And anyone finds it from the finished game, not before it was opened
    assert error(before) == (404, "no_rematch")
    assert APIClient().get(f"/api/games/{code}/rematch/").json()["id"] == first.json()["id"]


def test_the_game_list_finds_a_games_rematch_once_asked_and_answers_200_before() -> None:
    # Given a finished game of three
    game_id, users = seated_game(3, "classic-app", options=SHORT)
    play_to_end(game_id, users)

    # When the list is asked for its rematch before and after a player asks for one
    before = APIClient().get("/api/games/", {"rematch_of": str(game_id)})
    rematch = token_client(users[0]).post(f"/api/games/{game_id}/rematch/").json()
    after = APIClient().get("/api/games/", {"rematch_of": str(game_id)})
    bad = APIClient().get("/api/games/", {"rematch_of": "not-a-uuid"})

    # Then it is a page of none, then of the rematch alone; a bad id is a coded 400
    assert (before.status_code, before.json()["count"]) == (200, 0)
    assert (after.status_code, after.json()["count"]) == (200, 1)
    assert after.json()["results"][0]["id"] == rematch["id"]
    assert error(bad) == (400, "invalid_input")


def test_a_rematch_of_a_game_in_play_is_refused_as_not_finished() -> None:
    game_id, users = seated_game(3, "classic-app", options=SHORT)

    response = token_client(users[0]).post(f"/api/games/{game_id}/rematch/")

    assert error(response) == (409, "game_not_finished")
    assert error(APIClient().post(f"/api/games/{game_id}/rematch/")) == (401, "not_authenticated")
