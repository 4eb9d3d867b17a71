"""A table as the log makes it: its events and their codec, the fold of a game's
stream, the stream's name and what the read model keeps of a table."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from eventlog import store
from games import rules
from games.rules import classic
from games.table import (
    CLASSIC_STORED_TYPES,
    CLASSIC_TYPE_PREFIX,
    FINISH_EVENTS,
    FINISHING,
    AnyEvent,
    DealRevealed,
    DealsCommitted,
    GameCreated,
    GamePaused,
    GameResumed,
    PlayerLeft,
    PlayerSeated,
    Seat,
    SeatAutomated,
    SeatHandedOver,
    SeatTaken,
    Table,
    TableCancelled,
    decode,
    encode,
    fold,
    fold_records,
    game_key,
    projected,
    stream_of,
)

SECRET = bytes(range(32))
SEED = b"sixteen byte sed"


def created(
    kind: str = "romanian", players: int = 3, options: dict[str, Any] | None = None, **extra: Any
) -> GameCreated:
    if options is None:
        options = {"target": 5} if kind == "classic" else {}
    return GameCreated("ABC123", players, options, "", 1, kind=kind, **extra)


def seated(players: int) -> list[AnyEvent]:
    return [PlayerSeated(seat, 10 + seat, f"Player {seat + 1}") for seat in range(players)]


def decided(table: Table, command: Any) -> list[AnyEvent]:
    """The rules' events of ``command`` on ``table``, folded into it."""
    game = table.game
    if isinstance(game, classic.ClassicState):
        events: list[AnyEvent] = list(classic.decide(game, command))
    else:
        events = list(rules.decide(game, command))
    fold(table, events)
    return events


def romanian_game() -> list[AnyEvent]:
    """A Romanian table of three, its first hand dealt and bid, its first card played."""
    events: list[AnyEvent] = [
        created(),
        *seated(3),
        DealsCommitted(SEED.hex(), ("c0", "c1")),
        SeatAutomated(2, "random"),
    ]
    table = fold(Table(), list(events))
    events += decided(table, rules.StartGame(3, table.romanian_options, SEED))
    events += decided(table, rules.DealHand(SECRET))
    while table.game.phase is rules.Phase.BIDDING:
        events += decided(table, rules.PlaceBid(table.game.turn, rules.legal_bids(table.game)[0]))
    events += decided(
        table, rules.PlayCard(table.game.turn, rules.legal_plays(table.romanian_game)[0])
    )
    return events


def classic_game(options: dict[str, Any] | None = None) -> list[AnyEvent]:
    """A classic table of four, its first hand dealt and its first card played."""
    events: list[AnyEvent] = [created("classic", 4, options), *seated(4)]
    table = fold(Table(), list(events))
    assert isinstance(table.options, classic.ClassicOptions)
    events += decided(table, classic.StartMatch(table.options, SEED))
    events += decided(table, rules.DealHand(SECRET))
    game = table.game
    assert isinstance(game, classic.ClassicState)
    events += decided(table, rules.PlayCard(game.turn, classic.legal_plays(game)[0]))
    return events


# --- The codec ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", [romanian_game, classic_game])
def test_every_event_of_a_table_decodes_from_its_encoding_to_the_same_event(game: Any) -> None:
    # Given every kind of event a table of the game writes
    events = game()

    # When each is encoded and its stored type and payload decoded
    decoded = [decode(*encode(event)) for event in events]

    # Then it is the event it was
    assert decoded == events


def test_classic_whists_own_events_are_stored_under_its_prefix_and_the_shared_ones_are_not() -> (
    None
):
    # Given a classic table's events
    events = classic_game()

    # When they are encoded
    types = [encode(event)[0] for event in events]

    # Then the match's own events carry the prefix, the table's and the shared core's not
    assert types == [
        "GameCreated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "PlayerSeated",
        "classic.MatchStarted",
        "classic.HandDealt",
        "CardPlayed",
    ]
    assert {"classic.HandDealt", "classic.MatchStarted"} <= CLASSIC_STORED_TYPES
    assert "classic.CardPlayed" not in CLASSIC_STORED_TYPES


def test_a_field_added_to_a_table_event_since_it_was_stored_takes_its_default() -> None:
    # Given a GameCreated stored before the turn timer, the delay, deal sets, classic
    # Whist and rematches
    payload = {"code": "ABC123", "player_count": 4, "options": {}, "preset": "", "creator_id": 7}

    # When it is decoded
    event = decode("GameCreated", payload)

    # Then the fields it lacks take their defaults
    assert event == GameCreated("ABC123", 4, {}, "", 7, None, 0, None, "romanian", None)


def test_deal_commitments_are_stored_as_a_list_and_read_back_as_a_tuple() -> None:
    # Given a table's commitments to its deals
    committed = DealsCommitted("ab" * 16, ("c0", "c1", "c2"))

    # When they are encoded, and decoded again
    type_name, payload = encode(committed)

    # Then the payload holds them as JSON does, and the event as it was
    assert (type_name, payload) == (
        "DealsCommitted",
        {"seed": "ab" * 16, "commitments": ["c0", "c1", "c2"]},
    )
    assert decode(type_name, payload) == committed


def test_the_events_that_finish_a_game_are_named_as_the_log_stores_them() -> None:
    # Given the classes of the events that finish a Romanian game and a classic match
    names = {rules.GameFinished.__name__, CLASSIC_TYPE_PREFIX + classic.MatchFinished.__name__}

    # Then the stored names the receivers are told are theirs, and no others
    assert (rules.GameFinished, classic.MatchFinished) == FINISHING
    assert FINISH_EVENTS == names == {"GameFinished", "classic.MatchFinished"}


# --- The fold ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [romanian_game, classic_game])
def test_a_table_folded_from_its_encoded_events_equals_the_table_folded_from_the_events(
    game: Any,
) -> None:
    # Given a table's events, and the same events as the log stores them
    events = game()
    stored = [encode(event) for event in events]

    # When each is folded into a new table
    table = fold(Table(), events)
    again = fold(Table(), [decode(type_name, payload) for type_name, payload in stored])

    # Then the two tables are equal, at the version of the last event
    assert again == table
    assert table.version == len(events)


def test_a_table_is_open_until_it_starts_then_playing_and_cancelled_once_called_off() -> None:
    # Given a table created and filled
    table = fold(Table(), [created(), *seated(3)])
    assert (table.status, table.is_full, table.to_act) == ("open", True, None)

    # When its game starts and the first hand is dealt
    decided(table, rules.StartGame(3, table.romanian_options, SEED))
    decided(table, rules.DealHand(SECRET))

    # Then it plays, and waits for the seat left of the dealer to bid
    assert table.status == "playing"
    assert table.to_act == (table.game.dealer + 1) % 3

    # And another table, called off before it started, is cancelled
    called_off = fold(Table(), [created(), *seated(1), TableCancelled()])
    assert (called_off.status, called_off.is_full) == ("cancelled", False)


def test_a_seat_left_before_the_start_is_free_again_and_no_bot_plays_it() -> None:
    # Given a table whose third seat is held by a bot's player
    table = fold(Table(), [created(), *seated(3), SeatAutomated(2, "random")])
    assert table.bots == (None, None, "random")

    # When the third player gets up
    fold(table, [PlayerLeft(2)])

    # Then the seat is free and no bot plays it
    assert table.seats == (Seat(10, "Player 1"), Seat(11, "Player 2"), None)
    assert table.bots == (None, None, None)
    assert table.seat_of(12) is None
    assert table.seat_of(11) == 1


def test_a_substitute_who_takes_a_seat_keeps_the_zero_play_announced_for_it() -> None:
    # Given a player who announced zero play on joining
    table = fold(Table(), [created(), PlayerSeated(0, 10, "Ana", zero_play=True)])

    # When a substitute takes the seat over
    fold(table, [SeatTaken(0, 99, "Bogdan")])

    # Then the substitute holds it, with the announcement
    assert table.seats[0] == Seat(99, "Bogdan", zero_play=True)
    assert table.seat_of(99) == 0 and table.seat_of(10) is None


def test_a_guest_signed_in_hands_their_seat_to_the_account_under_the_same_alias() -> None:
    # Given a guest seated under an alias, zero play announced on joining
    table = fold(Table(), [created(), PlayerSeated(0, 10, "Maria", zero_play=True)])
    handed = SeatHandedOver(0, 10, 99)

    # When the seat passes to the account they signed in to, as the log stores it
    fold(table, [decode(*encode(handed))])

    # Then the account holds it, under the same alias and announcement; the guest none
    assert decode(*encode(handed)) == handed
    assert table.seats[0] == Seat(99, "Maria", zero_play=True)
    assert (table.seat_of(99), table.seat_of(10)) == (0, None)
    assert projected(table)["seats"] == [{"seat": 0, "alias": "Maria", "user_id": 99}]


def test_only_whoever_holds_a_seat_hands_it_over() -> None:
    table = fold(Table(), [created(), PlayerSeated(0, 10, "Maria")])

    with pytest.raises(ValueError, match="seat 0 is not user 11's to hand over"):
        fold(table, [SeatHandedOver(0, 11, 99)])
    with pytest.raises(ValueError, match="seat 1 is not user 10's to hand over"):
        fold(table, [SeatHandedOver(1, 10, 99)])


def test_a_table_is_paused_until_it_is_resumed_and_reveals_secrets_in_order() -> None:
    # Given a created table
    table = fold(Table(), [created()])

    # When it is paused, two secrets are revealed, and it is resumed
    fold(table, [GamePaused("tea"), DealRevealed(0, "aa"), DealRevealed(1, "bb")])
    paused, revealed = table.paused, table.revealed
    fold(table, [GameResumed()])

    # Then it was paused in between and holds the secrets in order
    assert (paused, revealed) == (True, ("aa", "bb"))
    assert table.paused is False
    assert table.version == 5


def test_a_rules_event_of_the_other_game_is_refused_by_the_fold() -> None:
    # Given a classic table, its match started
    table = fold(Table(), classic_game()[:6])

    # When a Romanian Whist event is folded into it
    with pytest.raises(ValueError) as refused:
        fold(table, [rules.ZeroPlayAnnounced(0, 0)])

    # Then it is refused, naming the event and the table's game
    assert str(refused.value) == "ZeroPlayAnnounced is not an event of a classic table"


def test_a_classic_table_has_no_romanian_game_or_options() -> None:
    # Given a classic table
    table = fold(Table(), classic_game())

    # Then asking it for what only Romanian Whist has is a TypeError
    with pytest.raises(TypeError, match="table 'ABC123' plays classic Whist"):
        table.romanian_game  # noqa: B018
    with pytest.raises(TypeError, match="table 'ABC123' plays classic Whist"):
        table.romanian_options  # noqa: B018
    assert table.is_classic


def test_the_played_cards_of_a_hand_are_kept_in_order_and_cleared_by_the_next_deal() -> None:
    # Given a Romanian table of three at the first card of a one-card hand
    events = romanian_game()
    table = fold(Table(), events)
    played = [event.card for event in events if isinstance(event, rules.CardPlayed)]

    # When the hand is played out
    while table.game.phase is rules.Phase.PLAYING:
        card = rules.legal_plays(table.romanian_game)[0]
        decided(table, rules.PlayCard(table.game.turn, card))
        played.append(card)

    # Then the table holds the hand's cards in order, until the next hand is dealt
    assert len(played) == 3
    assert table.played == tuple(played)
    decided(table, rules.DealHand(SECRET))
    assert table.played == ()


def test_a_clone_is_changed_without_changing_the_table_it_was_cloned_from() -> None:
    # Given a table in play and its clone
    table = fold(Table(), romanian_game())
    clone = table.clone()
    assert clone == table

    # When a move is folded into the clone
    decided(clone, rules.PlayCard(clone.game.turn, rules.legal_plays(clone.romanian_game)[0]))

    # Then the table is as it was
    assert clone.version == table.version + 1
    assert fold(Table(), romanian_game()) == table


def test_records_folded_stamp_the_table_with_when_the_last_was_recorded() -> None:
    # Given a game's first records, as the log reads them
    codec = store.codec_of(stream_of(uuid.uuid4()))
    at = [datetime(2024, 5, day, tzinfo=UTC) for day in (1, 2)]
    records = [
        store.Recorded(number, *encode(event), None, at[number - 1], codec)
        for number, event in enumerate([created(), *seated(1)], start=1)
    ]

    # When they are folded, and then no more records
    table = fold_records(Table(), records)
    fold_records(table, [])

    # Then the table is at the last record, stamped with its time
    assert (table.version, table.moved_at) == (2, at[1])
    table.moved_at = None
    assert table == fold(Table(), [created(), *seated(1)])


# --- Names and the read model ---------------------------------------------------------------


def test_a_games_stream_and_key_are_the_same_from_its_id_or_its_id_as_text() -> None:
    # Given a game id
    game_id = uuid.UUID("12345678-1234-5678-1234-567812345678")

    # Then its stream and key are found alike from the UUID and from its text
    assert stream_of(game_id) == stream_of(str(game_id)) == f"game:{game_id}"
    assert game_key(game_id) == game_key(str(game_id)) == game_id.int


def test_the_read_model_of_a_table_in_play_holds_its_seats_scores_and_hands() -> None:
    # Given a Romanian table of three in play, a rematch of another game
    rematch_of = uuid.uuid4()
    events = romanian_game()
    events[0] = created(rematch_of=str(rematch_of), spectator_delay=30)
    table = fold(Table(), events)

    # When its read model's values are taken
    values = projected(table)

    # Then they are the table's
    assert values == {
        "code": "ABC123",
        "kind": "romanian",
        "place": "online",
        "status": "playing",
        "player_count": 3,
        "preset": "",
        "options": table.options,
        "creator_id": 1,
        "seats": [
            {"seat": 0, "alias": "Player 1", "user_id": 10},
            {"seat": 1, "alias": "Player 2", "user_id": 11},
            {"seat": 2, "alias": "Player 3", "user_id": 12},
        ],
        "hand": 0,
        "hands_total": len(table.romanian_game.schedule),
        "scores": [0, 0, 0],
        "places": [],
        "version": len(events),
        "spectator_delay": 30,
        "deal_set": "",
        "paused": False,
        "rematch_of": rematch_of,
    }


def test_the_read_model_of_a_classic_table_scores_each_player_with_their_side() -> None:
    # Given a classic match of five deals, started
    events = classic_game({"target": 5, "deals": 5})
    table = fold(Table(), events)

    # When its read model's values are taken
    values = projected(table)

    # Then each seat scores its side's points, over the set number of deals
    assert (values["kind"], values["hands_total"], values["scores"]) == ("classic", 5, [0] * 4)
    assert values["rematch_of"] is None


@pytest.mark.parametrize(
    ("kind", "options", "hands"),
    [
        # 1, 3, 5, 7, 8, 7, 5, 3, 1 cards
        (
            "romanian",
            {"step": 2, "repeat_one_card_deals": False, "repeat_eight_card_deals": False},
            9,
        ),
        # Every hand scores an odd trick: a game to 5 takes at most 4 + 4 + 1 hands.
        ("classic", {"target": 5}, 9),
        ("classic", {"target": 9}, 17),
        ("classic", {"target": 7, "rubber": True}, 39),
        ("classic", {"deals": 24, "trumps": "rotation"}, 24),
    ],
)
def test_a_table_commits_to_its_schedules_deals_or_as_many_as_its_match_can_take(
    kind, options, hands
) -> None:
    table = fold(Table(), [created(kind, 4, options)])

    assert table.hands_to_commit == hands
