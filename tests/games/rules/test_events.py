import json

import pytest

from games.rules import (
    EVENT_TYPES,
    BidPlaced,
    CardPlayed,
    DealConfirmed,
    DealCorrected,
    DealRecorded,
    Event,
    GameFinished,
    GameStarted,
    HandDealt,
    HandScored,
    OneCardModeChosen,
    TimeCalled,
    TrickTaken,
    Visibility,
    ZeroPlayAnnounced,
    event_type,
    from_payload,
    parse_card,
    parse_cards,
    preset,
    to_payload,
)

EXAMPLES: list[tuple[Event, dict[str, object]]] = [
    (
        GameStarted(4, preset("online-room"), 2),
        {
            "player_count": 4,
            "options": preset("online-room").to_dict(),
            "first_dealer": 2,
            "recorded": False,
        },
    ),
    (
        GameStarted(3, preset("online-room"), 0, recorded=True),
        {
            "player_count": 3,
            "options": preset("online-room").to_dict(),
            "first_dealer": 0,
            "recorded": True,
        },
    ),
    (
        OneCardModeChosen(3, 1, Visibility.FOREHEAD),
        {"hand": 3, "seat": 1, "visibility": "forehead"},
    ),
    (
        HandDealt(5, 0, 2, Visibility.OPEN, (parse_cards("AS 10H"), parse_cards("7D 9C")), None),
        {
            "hand": 5,
            "dealer": 0,
            "cards": 2,
            "visibility": "open",
            "hands": [["AS", "10H"], ["7D", "9C"]],
            "trump_card": None,
        },
    ),
    (BidPlaced(1, 2, 0, forced=True), {"hand": 1, "seat": 2, "bid": 0, "forced": True}),
    (CardPlayed(1, 2, parse_card("QS")), {"hand": 1, "seat": 2, "card": "QS"}),
    (
        TrickTaken(1, 0, 2, parse_cards("QS KS 7S"), 0),
        {"hand": 1, "trick": 0, "leader": 2, "cards": ["QS", "KS", "7S"], "winner": 0},
    ),
    (
        HandScored(0, (1, 0), (1, 1), (6, -1), (0, 0), (6, -1)),
        {
            "hand": 0,
            "bids": [1, 0],
            "tricks": [1, 1],
            "points": [6, -1],
            "streak_points": [0, 0],
            "totals": [6, -1],
        },
    ),
    (
        DealRecorded(2, 1, 3, (1, 0, 1), (2, 0, 1), 0),
        {"hand": 2, "dealer": 1, "cards": 3, "bids": [1, 0, 1], "tricks": [2, 0, 1], "by": 0},
    ),
    (
        DealCorrected(2, (1, 0, 1), (1, 1, 1), "seat 1 took the last trick", None),
        {
            "hand": 2,
            "bids": [1, 0, 1],
            "tricks": [1, 1, 1],
            "reason": "seat 1 took the last trick",
            "by": None,
        },
    ),
    (DealConfirmed(2, 1), {"hand": 2, "by": 1}),
    (ZeroPlayAnnounced(1, 0), {"seat": 1, "hands_dealt": 0}),
    (TimeCalled(4), {"deals": 4}),
    (
        GameFinished((0, 12, 12), (1, 2, 2), (0,)),
        {"scores": [0, 12, 12], "places": [1, 2, 2], "zero_play_winners": [0]},
    ),
]


def test_every_event_type_has_an_example() -> None:
    assert {event_type(event) for event, _ in EXAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize(
    ("event", "payload"),
    EXAMPLES,
    ids=[event_type(event) for event, _ in EXAMPLES],
)
def test_events_become_json_payloads_and_back(event: Event, payload: dict[str, object]) -> None:
    assert to_payload(event) == payload
    assert from_payload(event_type(event), json.loads(json.dumps(to_payload(event)))) == event


def test_a_game_started_stored_before_tables_in_the_room_reads_as_played_here() -> None:
    # Given a payload stored before the field existed
    payload = {"player_count": 4, "options": preset("online-room").to_dict(), "first_dealer": 1}

    # When it is read, then it is a table played here
    assert from_payload("GameStarted", payload) == GameStarted(4, preset("online-room"), 1)
