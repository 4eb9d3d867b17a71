"""The table-level deciders the commands share: whose seat a command acts for, the
start of a game, and what the server does by itself, dealing from the vault."""

from __future__ import annotations

import uuid

import pytest

from games import rules
from games.errors import InvalidInput, NotYourSeat
from games.rules import Phase, build_schedule, classic
from games.rules.shuffle import commitment
from games.table import (
    AnyEvent,
    DealRevealed,
    DealsCommitted,
    GameCreated,
    PlayerSeated,
    Table,
    fold,
)
from games.table.deciders import acting_seat, ruled, server_moves, start
from games.write.vault import Vault

pytestmark = pytest.mark.django_db


def seated_table(
    players: int = 3, *, deal_set: str | None = None, zero_play: tuple[int, ...] = ()
) -> Table:
    """A full Romanian table of ``players``, not started; seat ``i`` held by user 10 + i
    (and zero play, announced at the start, by ``zero_play``'s seats)."""
    options = {"zero_play": "start"} if zero_play else {}
    events: list[AnyEvent] = [GameCreated("ABC123", players, options, "", 10, deal_set=deal_set)]
    events += [
        PlayerSeated(seat, 10 + seat, f"Player {seat + 1}", zero_play=seat in zero_play)
        for seat in range(players)
    ]
    return fold(Table(), events)


def started(table: Table, game_id: uuid.UUID | None = None) -> Vault:
    vault = Vault.of(game_id or uuid.uuid4(), table)
    start(table, vault)
    return vault


# --- Whose seat ---------------------------------------------------------------------------


def test_a_player_acts_for_their_own_seat_whether_or_not_they_name_it() -> None:
    table = seated_table()

    assert acting_seat(table, 11, None) == 1
    assert acting_seat(table, 11, 1) == 1


def test_a_player_who_names_another_players_seat_is_refused() -> None:
    with pytest.raises(NotYourSeat) as refused:
        acting_seat(seated_table(), 11, 2)

    assert refused.value.message == "seat 2 is not yours; you sit in seat 1"


def test_a_user_with_no_seat_at_the_table_is_refused() -> None:
    with pytest.raises(NotYourSeat) as refused:
        acting_seat(seated_table(), 99, None)

    assert refused.value.message == "you have no seat at this table"


def test_the_server_acts_for_the_seat_it_names_and_must_name_one() -> None:
    table = seated_table()

    assert acting_seat(table, None, 2) == 2
    with pytest.raises(InvalidInput) as refused:
        acting_seat(table, None, None)
    assert refused.value.message == "the server must name the seat it acts for"


# --- The start ----------------------------------------------------------------------------


def test_a_started_game_is_committed_to_the_vaults_secret_of_every_hand_then_dealt() -> None:
    # Given a full table of three and its vault
    table = seated_table()
    vault = Vault.of(uuid.uuid4(), table)

    # When it starts
    events = start(table, vault)

    # Then it commits to each hand's secret in the vault, starts, and deals the first
    # hand from its secret, all folded into the table
    hands = len(build_schedule(table.romanian_options, 3))
    committed = events[0]
    assert isinstance(committed, DealsCommitted)
    assert committed.commitments == tuple(commitment(s) for s in vault.draw(hands))
    assert [type(event) for event in events[1:]] == [rules.GameStarted, rules.HandDealt]
    dealt = events[2]
    assert isinstance(dealt, rules.HandDealt)
    assert dealt == next(
        iter(rules.decide(table_before_deal(table), rules.DealHand(vault.secret(0))))
    )
    assert table.version == 1 + 3 + len(events)
    assert table.game.phase is Phase.BIDDING


def table_before_deal(table: Table) -> rules.GameState:
    """The rules state of ``table`` as it stood before its first hand was dealt."""
    return rules.replay([rules.GameStarted(3, table.romanian_options, table.game.first_dealer)])


def test_the_zero_plays_announced_on_joining_are_recorded_right_after_the_start() -> None:
    # Given a table whose second player announced zero play on joining
    table = seated_table(zero_play=(1,))

    # When it starts
    events = start(table, Vault.of(uuid.uuid4(), table))

    # Then the announcement follows the start, before the first deal
    assert [type(event).__name__ for event in events] == [
        "DealsCommitted",
        "GameStarted",
        "ZeroPlayAnnounced",
        "HandDealt",
    ]
    assert table.romanian_game.zero_play == (False, True, False)


def test_the_tables_of_a_deal_set_draw_the_same_first_dealer_and_others_each_their_own() -> None:
    # Given two tables of one deal set, and two tables of none
    in_set = [seated_table(4, deal_set="set-1") for _ in range(2)]
    alone = [seated_table(4) for _ in range(2)]

    # When each starts
    for table in in_set + alone:
        started(table)

    # Then the set's tables share their seed, deals and first dealer; the others do not
    # share a seed
    assert in_set[0].seed == in_set[1].seed
    assert in_set[0].game == in_set[1].game
    assert alone[0].seed != alone[1].seed


def test_a_classic_match_commits_to_as_many_hands_as_it_can_take_and_deals_the_first() -> None:
    # Given a full classic table, a game to five
    events: list[AnyEvent] = [GameCreated("ABC123", 4, {"target": 5}, "", 10, kind="classic")]
    events += [PlayerSeated(seat, 10 + seat, f"P{seat}") for seat in range(4)]
    table = fold(Table(), events)

    # When it starts
    started_events = start(table, Vault.of(uuid.uuid4(), table))

    # Then it commits to nine hands (a game to five takes at most nine), and deals
    committed = started_events[0]
    assert isinstance(committed, DealsCommitted)
    assert len(committed.commitments) == 9
    assert [type(event) for event in started_events[1:]] == [
        classic.MatchStarted,
        classic.HandDealt,
    ]


# --- What the server does by itself -------------------------------------------------------


def play_out_the_hand(table: Table) -> list[object]:
    """Bid and play the hand in play to its end, by the rules; the events."""
    events: list[object] = []
    game = table.romanian_game
    while game.phase is Phase.BIDDING:
        events += ruled(table, rules.PlaceBid(game.turn, rules.legal_bids(game)[0]))
        game = table.romanian_game
    while game.phase is Phase.PLAYING:
        events += ruled(table, rules.PlayCard(game.turn, rules.legal_plays(game)[0]))
        game = table.romanian_game
    return events


def test_a_finished_hands_secret_is_revealed_and_the_next_hand_dealt_by_the_server() -> None:
    # Given a started table whose first hand was played out
    table = seated_table()
    vault = started(table)
    play_out_the_hand(table)
    assert table.game.phase is Phase.DEALING

    # When the server makes its moves
    events = server_moves(table, vault)

    # Then it reveals the first hand's secret and deals the second from its own
    assert events[0] == DealRevealed(0, vault.secret(0).hex())
    assert [type(event) for event in events[1:]] == [rules.HandDealt]
    assert table.revealed == (vault.secret(0).hex(),)
    assert (table.game.hand, table.game.phase) == (1, Phase.BIDDING)

    # And with nothing left for it to do, it does nothing
    assert server_moves(table, vault) == []


def test_a_deal_sets_table_deals_the_next_hand_but_reveals_nothing_while_it_plays() -> None:
    # Given a started table of a deal set whose first hand was played out
    table = seated_table(deal_set="set-2")
    vault = started(table)
    play_out_the_hand(table)

    # When the server makes its moves
    events = server_moves(table, vault)

    # Then it deals the next hand, and keeps the first one's secret
    assert [type(event) for event in events] == [rules.HandDealt]
    assert table.revealed == ()


def test_a_command_is_decided_by_the_rules_of_the_tables_game_and_folded_into_it() -> None:
    # Given a started table waiting for a bid
    table = seated_table()
    started(table)
    seat, version = table.game.turn, table.version

    # When its player to act bids
    events = ruled(table, rules.PlaceBid(seat, 0))

    # Then the rules' event is returned and folded
    assert events == [rules.BidPlaced(0, seat, 0)]
    assert table.version == version + 1
    assert table.romanian_game.bids[seat] == 0

    # And a command the rules refuse is refused, the table unchanged
    with pytest.raises(rules.RuleError):
        ruled(table, rules.PlaceBid(seat, 0))
    assert table.version == version + 1
