"""No API response shows a card its viewer may not know.

Whole games are played through the API. After each command, every endpoint is read
as every kind of viewer (each seat, a registered user without a seat, an anonymous
visitor), and every card named anywhere in a response is checked against what that
viewer may know at that moment. That knowledge is worked out here, independently of
the viewer policy, from the raw event log:

- a turned trump card, and a card once played, are public;
- a hand that is over is public (every card of it was played);
- in the hand in progress a player knows their own cards when the hand is open, in a
  blind hand only once the bidding is complete, and on the forehead never: there
  they know everyone else's instead. A spectator knows no hidden card.

Each event of a response is checked against what may be known of the hand it is
about (per the log, not per the response), so that a card of the hand in progress
cannot hide behind the same card played in an earlier hand.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import user_token
from eventlog import store
from games.read.analysis import analyse
from games.rules import Phase
from games.table import stream_of
from games.write.tables import load_table
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")


def cards_named(value: Any) -> set[str]:
    """Every card-shaped string anywhere in a JSON value, keys included."""
    text = json.dumps(value)
    named: set[str] = set()
    for string in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        named |= set(CARD.findall(string))
    return named


# --- What a viewer may know, from the raw log ----------------------------------------


@dataclass
class Deal:
    visibility: str
    hands: list[list[str]]
    trump: str | None
    played: set[str] = field(default_factory=set)
    bids: int = 0
    over: bool = False

    @property
    def every_card(self) -> set[str]:
        return {card for cards in self.hands for card in cards} | self.public

    @property
    def public(self) -> set[str]:
        return self.played | ({self.trump} if self.trump else set())


class Knowledge:
    """What the log says now about every deal, read from the stored payloads."""

    def __init__(self, game_id: uuid.UUID) -> None:
        self.players = 0
        self.deals: dict[int, Deal] = {}
        self.hand_of: dict[int, int | None] = {}
        self.finished = False
        for record in store.read(stream_of(game_id)):
            payload = record.payload
            self.hand_of[record.sequence] = payload.get("hand")
            if record.type == "GameCreated":
                self.players = payload["player_count"]
            elif record.type == "HandDealt":
                self.deals[payload["hand"]] = Deal(
                    payload["visibility"], payload["hands"], payload["trump_card"]
                )
            elif record.type == "BidPlaced":
                self.deals[payload["hand"]].bids += 1
            elif record.type == "CardPlayed":
                self.deals[payload["hand"]].played.add(payload["card"])
            elif record.type == "HandScored":
                self.deals[payload["hand"]].over = True
            elif record.type == "GameFinished":
                self.finished = True
        self.version = max(self.hand_of, default=0)

    @property
    def current_hand(self) -> int | None:
        return max(self.deals, default=None)

    def allowed(self, hand: int | None, seat: int | None) -> set[str]:
        """The cards of ``hand`` that the player in ``seat`` (None: a spectator) may know."""
        deal = self.deals.get(hand) if hand is not None else None
        if deal is None:
            return set()
        if deal.over:
            return deal.every_card
        known = set(deal.public)
        if seat is None:
            return known
        if deal.visibility == "open" or (deal.visibility == "blind" and deal.bids == self.players):
            known |= set(deal.hands[seat])
        elif deal.visibility == "forehead":
            known |= {
                card for other, cards in enumerate(deal.hands) if other != seat for card in cards
            }
        return known

    @property
    def record_allowed(self) -> set[str]:
        if not self.finished:
            return set()
        return {card for deal in self.deals.values() for card in deal.every_card}


def assert_only_known(named: set[str], allowed: set[str], where: str) -> None:
    leaked = named - allowed
    assert not leaked, f"{where} shows {sorted(leaked)}, which its viewer may not know"


def check_state(state: dict[str, Any], known: Knowledge, seat: int | None, who: str) -> None:
    assert state["you"] == seat
    allowed = known.allowed(known.current_hand, seat)
    assert_only_known(cards_named(state), allowed, f"the state for {who}")


def check_events(
    events: list[dict[str, Any]], known: Knowledge, seat: int | None, who: str
) -> None:
    for event in events:
        hand = known.hand_of[event["sequence"]]
        where = f"event {event['sequence']} ({event['type']}) for {who}"
        assert_only_known(cards_named(event), known.allowed(hand, seat), where)


# --- The viewers and the walk ----------------------------------------------------------


@dataclass
class Viewer:
    name: str
    seat: int | None
    client: APIClient


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
    return client


class Walk:
    """A game played through the API, read by every viewer after each command."""

    def __init__(self, players: int, preset: str, options: dict[str, Any], seed: int) -> None:
        self.rng = random.Random(seed)
        self.users = UserFactory.create_batch(players)
        self.seats = [token_client(user) for user in self.users]
        created = self.seats[0].post(
            "/api/games/", {"player_count": players, "preset": preset, "options": options}
        )
        assert created.status_code == 201, created.json()
        self.game_id = uuid.UUID(created.json()["id"])
        self.code = created.json()["code"]
        self.viewers = [
            *(Viewer(f"seat {n}", n, client) for n, client in enumerate(self.seats)),
            Viewer("a user without a seat", None, token_client(UserFactory.create())),
            Viewer("an anonymous visitor", None, APIClient()),
        ]
        self.modes = itertools.cycle(["forehead", "blind", "open"])
        self.commands = 0
        self.joined = 0
        self.known = Knowledge(self.game_id)

    def join_all(self) -> None:
        for n in range(len(self.seats)):
            self.command(n, "join", {"alias": f"Seat {n}"})
            self.joined += 1
            self.check_everything(since=0)

    def command(self, seat: int, name: str, body: dict[str, Any]) -> Knowledge:
        """Send a seat's command, check its answer, and return what the log says now."""
        before = self.known.version
        response = self.seats[seat].post(f"/api/games/{self.code}/{name}/", body)
        assert response.status_code == 200, (name, body, response.json())
        answer = response.json()
        self.known = known = Knowledge(self.game_id)
        assert [event["sequence"] for event in answer["events"]] == list(
            range(before + 1, known.version + 1)
        )
        check_events(answer["events"], known, seat, f"seat {seat}'s {name} answer")
        self.commands += 1
        if known.finished:
            # Its analysis kept, as the analysts keep it once a game is over.
            analyse(self.game_id)
        return known

    def check_everything(self, since: int) -> None:
        known = self.known
        ref = str(self.game_id)
        for index, viewer in enumerate(self.viewers):
            who = viewer.name
            # A seat's holder is a spectator until they join.
            seat = viewer.seat if viewer.seat is None or viewer.seat < self.joined else None
            state = viewer.client.get(f"/api/games/{ref}/").json()
            check_state(state, known, seat, who)
            # The whole history, or only what the command added, by turns.
            after = since if (index + self.commands) % 2 else 0
            events = viewer.client.get(f"/api/games/{self.code}/events/?after={after}").json()
            assert events["version"] == known.version
            assert [event["sequence"] for event in events["events"]] == list(
                range(after + 1, known.version + 1)
            )
            check_events(events["events"], known, seat, who)
            record = viewer.client.get(f"/api/games/{ref}/record/")
            assert record.status_code == (200 if known.finished else 409)
            assert_only_known(cards_named(record.json()), known.record_allowed, f"record for {who}")
            analysis = viewer.client.get(f"/api/games/{ref}/analysis/")
            assert analysis.status_code == (200 if known.finished else 409)
            assert_only_known(
                cards_named(analysis.json()), known.record_allowed, f"analysis for {who}"
            )
            listed = viewer.client.get("/api/games/").json()
            assert_only_known(cards_named(listed), set(), f"the game list for {who}")

    def next_move(self) -> tuple[int, str, dict[str, Any]] | None:
        """The move of whoever is to act, chosen from what their own state offers."""
        game = load_table(self.game_id).game
        if game.phase is Phase.FINISHED:
            return None
        seat = game.turn
        state = self.seats[seat].get(f"/api/games/{self.code}/").json()
        legal = state["legal"]
        common: dict[str, Any] = {"expected_version": state["version"]}
        if self.rng.random() < 0.3:
            common["idempotency_key"] = f"move-{self.commands}"
        if legal["modes"]:
            return seat, "one-card-mode", {"mode": next(self.modes), **common}
        if legal["bids"]:
            return seat, "bid", {"bid": self.rng.choice(legal["bids"]), **common}
        if legal["hidden_card"]:
            return seat, "play", {"card": None, **common}
        assert legal["cards"], state
        return seat, "play", {"card": self.rng.choice(legal["cards"]), **common}

    def moves(self) -> Iterator[tuple[int, str, dict[str, Any]]]:
        while (move := self.next_move()) is not None:
            yield move


def play_through(walk: Walk, *, every: int) -> None:
    """Play to the end, reading everything after every ``every``-th command (every=1:
    always) and after each command that deals a hand or is made while a player's own
    cards are hidden from them (bidding a blind hand, playing on the forehead)."""
    walk.join_all()
    checked_hand = None
    for seat, name, body in walk.moves():
        version = walk.known.version
        known = walk.command(seat, name, body)
        hand = known.current_hand
        deal = known.deals[hand] if hand is not None else None
        risky = deal is not None and (
            hand != checked_hand
            or deal.visibility == "forehead"
            or (deal.visibility == "blind" and deal.bids < known.players)
        )
        if walk.commands % every == 0 or risky:
            walk.check_everything(since=version)
            checked_hand = hand
    walk.check_everything(since=0)
    assert walk.known.finished


SHORT = {
    "schedule": "1-8-1",
    "repeat_one_card_deals": False,
    "repeat_eight_card_deals": False,
    "step": 2,
}


def test_no_viewer_sees_a_hidden_card_read_after_every_command_of_a_forehead_game() -> None:
    # Deals 1 (forehead), 3, 5, 7, 8, 7, 5, 3, 1 (forehead).
    walk = Walk(3, "romanian-standard", {**SHORT, "one_card_mode": "forehead"}, seed=1)

    play_through(walk, every=1)

    visibilities = [deal.visibility for deal in Knowledge(walk.game_id).deals.values()]
    assert visibilities == ["forehead", *["open"] * 7, "forehead"]


def test_no_viewer_sees_a_hidden_card_when_dealers_choose_each_one_card_hand() -> None:
    # 8, 7, 5, 3, then three one-card deals whose dealers choose forehead, blind and
    # open, then 3, 5, 7, 8 and the zero-bid and blind-bid closing hands.
    walk = Walk(
        3,
        "online-room",
        {
            **SHORT,
            "schedule": "8-1-8",
            "repeat_one_card_deals": True,
            "one_card_mode": "dealer-choice",
            "special_hands": ["zero-bid", "blind-bid"],
        },
        seed=2,
    )

    play_through(walk, every=25)

    visibilities = [deal.visibility for deal in Knowledge(walk.game_id).deals.values()]
    assert visibilities[4:7] == ["forehead", "blind", "open"]
    assert visibilities[-1] == "blind"


def test_no_viewer_sees_a_hidden_card_in_blind_one_card_deals_at_a_table_of_four() -> None:
    # Four blind one-card deals, 3, 5, 7, 8, 7, 5, 3, then four open one-card deals.
    walk = Walk(
        4,
        "classic-app",
        {
            **SHORT,
            "repeat_one_card_deals": True,
            "one_card_mode": "blind",
            "one_card_runs": "first",
        },
        seed=3,
    )

    play_through(walk, every=25)

    visibilities = [deal.visibility for deal in Knowledge(walk.game_id).deals.values()]
    assert visibilities == [*["blind"] * 4, *["open"] * 11]


# --- The check itself can fail ---------------------------------------------------------


def started_walk() -> Walk:
    walk = Walk(3, "romanian-standard", SHORT, seed=4)
    walk.join_all()
    return walk


def test_the_check_rejects_another_players_cards_in_a_state() -> None:
    walk = started_walk()
    known = Knowledge(walk.game_id)
    state = walk.seats[0].get(f"/api/games/{walk.code}/").json()
    others = known.deals[0].hands[1]
    state["hand"]["holdings"][1] = others

    with pytest.raises(AssertionError, match="which its viewer may not know"):
        check_state(state, known, 0, "seat 0")


def test_the_check_rejects_a_spectators_view_of_a_players_cards_in_an_event() -> None:
    walk = started_walk()
    known = Knowledge(walk.game_id)
    events = walk.viewers[-1].client.get(f"/api/games/{walk.code}/events/").json()["events"]
    dealt = next(event for event in events if event["type"] == "HandDealt")
    dealt["payload"]["hands"][2] = known.deals[0].hands[2]

    with pytest.raises(AssertionError, match="which its viewer may not know"):
        check_events(events, known, None, "a spectator")


def test_cards_are_found_in_any_string_of_a_response_but_not_inside_words_or_hex() -> None:
    response = {
        "message": "10H is not in your hand",
        "cards": ["AS", "7d"],
        "secret": "9c3f10ha4s",
        "code": "QX7DH2",
        "nested": {"KC": [{"x": "2S"}]},
    }

    assert cards_named(response) == {"10H", "AS", "KC", "2S"}
