"""What a viewer sees of a classic Whist table (the Romanian game's leaks are
checked end to end in test_api_leaks.py and test_consumers.py)."""

from __future__ import annotations

import random

import pytest

from games.domain import stream_of
from games.eventstore import read
from games.rules import classic
from games.selectors import load_table
from games.visibility import Viewer, event_views, state_view
from tests.games.drivers import next_move, play_to_end, seated_game

pytestmark = pytest.mark.django_db


def test_each_classic_player_sees_their_own_hand_and_everyone_the_turned_trump_until_the_dealer_plays() -> (  # noqa: E501
    None
):
    # Given a classic table whose dealer has turned the trump card
    game_id, users = seated_game(kind="classic", preset="american")
    table = load_table(game_id)
    game = table.game
    assert isinstance(game, classic.ClassicState)
    dealer, turned = game.dealer, str(game.trump_card)

    # Then each player sees their 13 cards and the dealer's turned card, nothing else
    for seat in range(4):
        hand = state_view(game_id, table, Viewer(seat))["hand"]
        expected = [[] for _ in range(4)]
        expected[dealer] = [turned]
        expected[seat] = [str(c) for c in game.holdings[seat]]
        assert hand["holdings"] == expected
        assert (hand["turned_up"], hand["trump_card"]) == (turned, turned)
    spectator = state_view(game_id, table, Viewer(None))
    assert spectator["hand"]["holdings"] == [[turned] if s == dealer else [] for s in range(4)]
    assert spectator["legal"] == {"cards": []}
    to_act = state_view(game_id, table, Viewer(table.to_act))
    assert to_act["legal"]["cards"] == [str(c) for c in classic.legal_plays(game)]

    # And the spectator's HandDealt event names the turned card only
    dealt = next(
        view
        for view in event_views(read(stream_of(game_id)), Viewer(None))
        if view["type"] == "classic.HandDealt"
    )
    assert dealt["payload"]["hands"] == spectator["hand"]["holdings"]

    # When the first trick is played: led from the dealer's left, so the dealer plays last
    rng = random.Random(5)
    for _ in range(4):
        next_move(game_id, users, rng)

    # Then the turned card lies face up no longer: the spectator sees no hand at all
    after = state_view(game_id, load_table(game_id), Viewer(None))["hand"]
    assert after["turned_up"] is None
    assert after["holdings"] == [[], [], [], []]
    assert after["trump_card"] == turned


def test_each_classic_result_names_its_hands_trump_and_the_game_of_the_rubber() -> None:
    # Given a whist-drive table of two deals played out: trumps rotate hearts, diamonds
    game_id, users = seated_game(kind="classic", preset="whist-drive", options={"deals": 2})
    play_to_end(game_id, users, seed=8)

    # Then each scored hand says its trump, in the spectator's view too
    view = state_view(game_id, load_table(game_id), Viewer(None))
    assert [(r["hand"], r["trump"], r["game"]) for r in view["results"]] == [
        (0, "H", 0),
        (1, "D", 0),
    ]
