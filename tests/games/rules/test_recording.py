"""Tables in the room: deals played with real cards, recorded, corrected and
confirmed, and scored by the rules texts exactly as played deals are.

A deal is written ``"bids / tricks"``, by seat: ``"1 0 1 / 1 0 0"`` is Peter bidding
1 and taking the trick, John bidding 0, Peggy bidding 1 and taking none.

The properties: a random game played online, then recorded deal by deal at a table
in the room, scores and finishes alike; a correction and its correction back leave
the scores as they were; after any corrections a table is scored as if every deal
had been recorded right the first time. Examples are derandomized, as in
``test_properties``, whose strategies they share.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    PRESETS,
    AnnounceZeroPlay,
    ChooseOneCardMode,
    Command,
    ConfirmDeal,
    CorrectDeal,
    DealConfirmed,
    DealCorrected,
    DealHand,
    DealRecorded,
    Event,
    GameFinished,
    GameStarted,
    GameState,
    HandScored,
    OneCardMode,
    Phase,
    PlaceBid,
    PlayCard,
    RecordDeal,
    RuleOptions,
    Schedule,
    Scoring,
    SpecialHand,
    StartGame,
    Streak,
    Visibility,
    ZeroPlayAnnounced,
    ZeroPlayDeadline,
    decide,
    parse_card,
    preset,
    replay,
)
from games.rules.bidding import allowed_bids
from games.rules.errors import (
    BidOutOfRange,
    ConfirmedByAnother,
    CorrectionNeedsReason,
    DealAlreadyConfirmed,
    DealerBidForbidden,
    DealNotRecorded,
    DealOutOfSchedule,
    ForcedBidBroken,
    GameOver,
    InvalidDeal,
    NoSuchSeat,
    NothingToCorrect,
    PlayedTable,
    RecordedTable,
    TableClosed,
    TricksDoNotAddUp,
    TricksOutOfRange,
    WrongPhase,
    ZeroPlayNotAllowed,
)
from games.rules.simulate import play_random_game
from tests.games.rules.builders import run, started
from tests.games.rules.test_properties import player_counts, rule_options, seeds

PETER, JOHN, PEGGY = 0, 1, 2
DIRECTOR = None
SECRET = b"a deal secret of 32 bytes......."

Deal = tuple[tuple[int, ...], tuple[int, ...]]


def deal(text: str) -> Deal:
    """``"1 0 1 / 1 0 0"``: the bids, then the tricks made, by seat."""
    bids, tricks = text.split("/")
    return tuple(map(int, bids.split())), tuple(map(int, tricks.split()))


def room(
    player_count: int, options: RuleOptions | None = None, dealer: int = PETER, *, hand: int = 0
) -> GameState:
    """A table in the room waiting for deal ``hand``, which ``dealer`` deals."""
    return started(player_count, options, dealer, hand=hand, recorded=True)


def record_deals(
    state: GameState, *deals: str, by: int | None = PETER
) -> tuple[GameState, list[Event]]:
    """Each deal recorded in turn, as the schedule holds them next."""
    return run(
        state, *(RecordDeal(state.hand + i, *deal(text), by) for i, text in enumerate(deals))
    )


def correction(hand: int, text: str, reason: str = "", by: int | None = PETER) -> CorrectDeal:
    return CorrectDeal(hand, *deal(text), reason, by)


def scored(events: list[Event]) -> list[HandScored]:
    return [event for event in events if isinstance(event, HandScored)]


def sweep(cards: int) -> str:
    """Peter bids every trick and takes them, John bids 1 and misses, Peggy bids 0
    and makes it: never adding up to the cards, whoever deals."""
    return f"{cards} 1 0 / {cards} 0 0"


def swept(state: GameState) -> list[str]:
    return [sweep(spec.cards) for spec in state.schedule[state.hand :]]


# 000's score table: Peter, John and Peggy; Peggy deals first, 1, 1, 1, then 2 cards.
REFERENCE_DEALS = ("1 0 1 / 1 0 0", "0 0 0 / 0 0 1", "1 1 0 / 0 1 0", "0 2 2 / 0 0 2")

# Nine deals of 1, 3, 5, 7, 8, 7, 5, 3, 1 cards, zero play announced at the start.
SHORT = RuleOptions(
    repeat_one_card_deals=False,
    repeat_eight_card_deals=False,
    step=2,
    zero_play=ZeroPlayDeadline.START,
)
# Peter bids and takes every trick; John ends on exactly 0 (+5 twice, -10 in misses);
# Peggy bids 0 and makes it but for two deals where she bids 1 (the dealer rule).
ZERO_PLAY_GAME = (
    "1 1 0 / 1 0 0",
    "3 0 1 / 3 0 0",
    "5 2 0 / 5 0 0",
    "7 2 0 / 7 0 0",
    "8 0 1 / 8 0 0",
    "7 2 0 / 7 0 0",
    "5 1 0 / 5 0 0",
    "3 1 0 / 3 0 0",
    "1 1 0 / 1 0 0",
)


def short_game_over() -> tuple[GameState, list[Event]]:
    """The short game played to its end, John and Peggy having announced zero play."""
    state, announced = run(room(3, SHORT), AnnounceZeroPlay(JOHN), AnnounceZeroPlay(PEGGY))
    state, events = record_deals(state, *ZERO_PLAY_GAME)
    return state, announced + events


# --- Recording and scoring ------------------------------------------------------------


def test_a_recorded_table_waits_for_its_first_deal_never_for_a_one_card_choice() -> None:
    [event] = decide(GameState(), StartGame(3, RuleOptions(), b"seed", recorded=True))
    state = room(3, RuleOptions(one_card_mode=OneCardMode.DEALER_CHOICE))

    assert event.recorded is True
    assert state.recorded is True
    assert state.phase is Phase.DEALING
    assert (state.entered_by, state.confirmed) == ((), ())


def test_the_reference_score_table_recorded_deal_by_deal() -> None:
    state, events = record_deals(room(3, dealer=PEGGY), *REFERENCE_DEALS)

    assert events[:2] == [
        DealRecorded(0, PEGGY, 1, (1, 0, 1), (1, 0, 0), PETER),
        HandScored(0, (1, 0, 1), (1, 0, 0), (6, 5, -1), (0, 0, 0), (6, 5, -1)),
    ]
    assert [result.totals for result in scored(events)] == [
        (6, 5, -1),
        (11, 10, -2),
        (10, 16, 3),
        (15, 14, 10),
    ]
    assert state.scores == (15, 14, 10)
    assert state.hand == 4
    assert state.phase is Phase.DEALING
    assert state.entered_by == (PETER,) * 4


@pytest.mark.parametrize(
    ("scoring", "points"),
    [
        # 000: exact, 5 + the tricks made; else one point lost per trick off.
        (Scoring.FIVE_PLUS_BID, (8, -2, -4, 5)),
        # 001: one bonus point plus the tricks made.
        (Scoring.ONE_PLUS_BID, (4, -2, -4, 1)),
        # 000: the tricks bid plus the cards dealt (8 here).
        (Scoring.BID_PLUS_CARDS, (11, -2, -4, 8)),
        # 000: 5 + n(n+1)/2 made, d(d+1)/2 lost: bid 3 made 3 is 11, 2 off -3, 4 off -10.
        (Scoring.TRIANGULAR, (11, -3, -10, 5)),
    ],
)
def test_each_scoring_scheme_scores_a_recorded_deal(
    scoring: Scoring, points: tuple[int, ...]
) -> None:
    options = RuleOptions(schedule=Schedule.EIGHT_ONE_EIGHT, scoring=scoring)

    # An 8-card deal: Peter bids 3 and makes 3, John 2 makes 0, Peggy 1 makes 5, the
    # fourth 0 makes 0.
    _, [_, result] = record_deals(room(4, options), "3 2 1 0 / 3 0 5 0")

    assert result == HandScored(0, (3, 2, 1, 0), (3, 0, 5, 0), points, (0, 0, 0, 0), points)


def test_bid_plus_cards_rewards_the_same_bid_more_when_more_cards_are_dealt() -> None:
    # 000: "8 for bidding and making 2 tricks when 6 cards are dealt, but only 4 ... when 2".
    options = RuleOptions(scoring=Scoring.BID_PLUS_CARDS)

    _, [_, two_cards] = record_deals(room(3, options, hand=3), "2 1 0 / 2 0 0")
    _, [_, six_cards] = record_deals(room(3, options, hand=7), "2 1 0 / 2 4 0")

    assert two_cards.points == (4, -1, 2)
    assert six_cards.points == (8, -3, 6)


ONLINE_ROOM_COUNTING_ONE_CARD_DEALS = replace(
    preset("online-room"), streaks_count_one_card_deals=True
)


@pytest.mark.parametrize(
    ("options", "streak_hands", "streak_points", "final_scores"),
    [
        # 004: +10 / -10 for five exact / wrong bids in a row, one-card deals not counted:
        # the count runs from the first 2-card deal (deal 3) to the last (deal 17).
        (preset("online-room"), [7, 12, 17], (10, -10, 10), (219, -51, 135)),
        # 000: after the bonus the count starts again: the 10th exact bid earns another.
        (ONLINE_ROOM_COUNTING_ONE_CARD_DEALS, [4, 9, 14, 19], (10, -10, 10), (229, -61, 145)),
        # 000: with the 5-point bonus, some deduct 5 for five consecutive wrong bids.
        (
            RuleOptions(streak_bonus=Streak(5, 5), streak_penalty=Streak(5, -5)),
            [4, 9, 14, 19],
            (5, -5, 5),
            (209, -41, 125),
        ),
    ],
    ids=["online-room", "one-card-deals-counted", "five-up-five-down"],
)
def test_streak_bonus_and_penalty_on_a_whole_recorded_game(
    options: RuleOptions,
    streak_hands: list[int],
    streak_points: tuple[int, ...],
    final_scores: tuple[int, ...],
) -> None:
    # Peter and Peggy bid exactly in every deal, John misses every one.
    state = room(3, options)

    state, events = record_deals(state, *swept(state))

    results = scored(events)
    assert len(results) == 21
    assert [r.hand for r in results if any(r.streak_points)] == streak_hands
    assert {r.streak_points for r in results if any(r.streak_points)} == {streak_points}
    assert events[-1] == GameFinished(final_scores, (1, 3, 2), ())
    assert state.phase is Phase.FINISHED


# --- What a recorded deal may be ------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "text", "bid"),
    [
        # 000: four cards, three players: "the first player says 2, the next 1. The
        # third player mustn't say 1". John deals: Peggy bids first, then Peter.
        (JOHN, "1 1 2 / 1 1 2", 1),
        # Peter deals: John and Peggy bid 2 each, so Peter, last to bid, may not say 0.
        (PETER, "0 2 2 / 0 2 2", 0),
    ],
)
def test_the_dealers_bid_may_not_make_the_bids_add_up_to_the_cards(
    dealer: int, text: str, bid: int
) -> None:
    state = room(3, dealer=dealer, hand=5)
    assert state.cards == 4

    with pytest.raises(DealerBidForbidden, match=f"the dealer may not bid {bid}:") as error:
        decide(state, RecordDeal(5, *deal(text), PETER))
    assert error.value.bid == bid


def test_the_dealer_may_bid_anything_else() -> None:
    state = room(3, dealer=JOHN, hand=5)

    _, [_, result] = record_deals(state, "1 0 2 / 1 1 2")

    assert result.points == (6, -1, 7)


def test_the_bids_are_checked_in_bidding_order_from_the_dealers_left() -> None:
    # John deals 4 cards: Peggy's 6 is refused before Peter's 5, though Peter sits first.
    state = room(3, dealer=JOHN, hand=5)

    with pytest.raises(BidOutOfRange, match="not 6"):
        decide(state, RecordDeal(5, *deal("5 0 6 / 4 0 0"), PETER))


@pytest.mark.parametrize(("text", "bid"), [("5 0 1 / 4 0 0", 5), ("-1 0 1 / 4 0 0", -1)])
def test_a_bid_is_between_zero_and_the_cards_dealt(text: str, bid: int) -> None:
    state = room(3, dealer=JOHN, hand=5)

    with pytest.raises(BidOutOfRange, match=f"between 0 and the 4 cards dealt, not {bid}$"):
        decide(state, RecordDeal(5, *deal(text), PETER))


def test_everyone_makes_the_forced_bid_of_the_zero_and_eight_bid_deals() -> None:
    # 000's special hands: "Zero bid: ... everyone must bid zero. Eight bid: ... all
    # players must bid eight".
    options = RuleOptions(special_hands=(SpecialHand.ZERO_BID, SpecialHand.EIGHT_BID))
    state = room(3, options, hand=21)
    assert [spec.forced_bid for spec in state.schedule[21:]] == [0, 8]

    with pytest.raises(ForcedBidBroken, match="everyone bids 0 in this deal, not 1"):
        decide(state, RecordDeal(21, *deal("0 1 0 / 3 3 2"), PETER))
    state, [_, zero_bid] = record_deals(state, "0 0 0 / 0 6 2")
    with pytest.raises(ForcedBidBroken, match="everyone bids 8 in this deal, not 7"):
        decide(state, RecordDeal(22, *deal("8 7 8 / 3 3 2"), PETER))
    state, [_, eight_bid, finished] = record_deals(state, "8 8 8 / 3 3 2")

    assert zero_bid.points == (5, -6, -2)
    assert eight_bid.points == (-5, -5, -6)
    assert finished == GameFinished((0, -11, -8), (1, 3, 2), ())


@pytest.mark.parametrize(("text", "made"), [("1 0 2 / 5 0 -1", 5), ("1 0 2 / 0 -1 5", -1)])
def test_a_player_makes_between_zero_and_the_cards_dealt(text: str, made: int) -> None:
    state = room(3, dealer=JOHN, hand=5)

    with pytest.raises(TricksOutOfRange, match=f"between 0 and the 4 tricks dealt, not {made}"):
        decide(state, RecordDeal(5, *deal(text), PETER))


@pytest.mark.parametrize(("text", "total"), [("1 0 2 / 1 1 1", 3), ("1 0 2 / 2 2 1", 5)])
def test_the_tricks_made_add_up_to_the_cards_dealt(text: str, total: int) -> None:
    state = room(3, dealer=JOHN, hand=5)

    with pytest.raises(TricksDoNotAddUp, match=f"add up to {total}, not to the 4") as error:
        decide(state, RecordDeal(5, *deal(text), PETER))
    assert error.value.total == total


def test_only_the_next_deal_of_the_schedule_is_recorded() -> None:
    state = room(3)

    with pytest.raises(DealOutOfSchedule, match="deal 2 cannot be recorded: deal 1 is next"):
        decide(state, RecordDeal(1, *deal(sweep(1)), PETER))
    state, _ = record_deals(state, sweep(1))
    with pytest.raises(DealOutOfSchedule) as error:
        decide(state, RecordDeal(0, *deal(sweep(1)), PETER))
    assert error.value.expected == 1


@pytest.mark.parametrize(
    ("bids", "tricks"),
    [((1, 0), (1, 0, 0)), ((1, 0, 1), (1, 0, 0, 0)), ((1, 0, 1, 0), (1, 0, 0, 0)), ((), ())],
)
def test_a_deal_has_a_bid_and_a_trick_count_for_every_seat(
    bids: tuple[int, ...], tricks: tuple[int, ...]
) -> None:
    with pytest.raises(InvalidDeal, match="a deal at this table has 3 bids and 3 trick counts"):
        decide(room(3), RecordDeal(0, bids, tricks, PETER))


@pytest.mark.parametrize("by", [3, -1])
def test_only_a_seat_at_the_table_or_the_director_records(by: int) -> None:
    with pytest.raises(NoSuchSeat, match=f"there is no seat {by} at a table of 3"):
        decide(room(3), RecordDeal(0, *deal(sweep(1)), by))


def test_the_game_is_over_after_the_last_deal_is_recorded() -> None:
    state, events = short_game_over()

    assert [spec.cards for spec in state.schedule] == [1, 3, 5, 7, 8, 7, 5, 3, 1]
    assert state.phase is Phase.FINISHED
    assert isinstance(events[-1], GameFinished)
    with pytest.raises(GameOver):
        decide(state, RecordDeal(9, *deal(sweep(1)), PETER))
    with pytest.raises(GameOver):
        decide(state, AnnounceZeroPlay(PETER))


# --- Zero play --------------------------------------------------------------------------


def test_zero_play_is_announced_at_a_recorded_table_before_its_deadline() -> None:
    state, [announced] = run(room(3, SHORT), AnnounceZeroPlay(JOHN))
    state, _ = record_deals(state, ZERO_PLAY_GAME[0])

    assert announced == ZeroPlayAnnounced(JOHN, 0)
    assert state.zero_play == (False, True, False)
    with pytest.raises(ZeroPlayNotAllowed, match="too late"):
        decide(state, AnnounceZeroPlay(PEGGY))


def test_a_zero_player_who_ends_on_exactly_zero_wins_the_recorded_game() -> None:
    # 000: "A player can announce in advance that he or she will end the game with
    # exactly 0 points. If this player is successful, he or she wins the game."
    state, events = short_game_over()

    assert scored(events)[-1].totals == (85, 0, 33)
    assert events[-1] == GameFinished((85, 0, 33), (2, 1, 3), (JOHN,))
    assert state.places == (2, 1, 3)


# --- A table in the room or a table played here -----------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ChooseOneCardMode(PETER, Visibility.OPEN),
        DealHand(SECRET),
        PlaceBid(JOHN, 0),
        PlayCard(JOHN, parse_card("AS")),
    ],
    ids=["choose", "deal", "bid", "play"],
)
def test_a_recorded_table_refuses_to_deal_bid_or_play(command: Command) -> None:
    with pytest.raises(RecordedTable, match="record its deals instead"):
        decide(room(3), command)


@pytest.mark.parametrize(
    "command",
    [
        RecordDeal(0, *deal(sweep(1)), PETER),
        correction(0, sweep(1)),
        ConfirmDeal(0, JOHN),
    ],
    ids=["record", "correct", "confirm"],
)
def test_a_table_played_here_refuses_recorded_deals(command: Command) -> None:
    with pytest.raises(PlayedTable):
        decide(started(3), command)
    with pytest.raises(WrongPhase, match="the game has not started"):
        decide(GameState(), command)


# --- Confirmation -----------------------------------------------------------------------


def test_another_seat_confirms_a_deal_once() -> None:
    state, _ = record_deals(room(3), sweep(1), by=PETER)
    assert (state.entered_by, state.confirmed) == ((PETER,), (False,))

    with pytest.raises(ConfirmedByAnother, match="seat 0 wrote deal 1: another player"):
        decide(state, ConfirmDeal(0, PETER))
    state, events = run(state, ConfirmDeal(0, JOHN))
    with pytest.raises(DealAlreadyConfirmed, match="deal 1 is already confirmed"):
        decide(state, ConfirmDeal(0, PEGGY))

    assert events == [DealConfirmed(0, JOHN)]
    assert state.confirmed == (True,)


def test_a_deal_not_yet_recorded_cannot_be_confirmed() -> None:
    state, _ = record_deals(room(3), sweep(1))

    with pytest.raises(DealNotRecorded, match="deal 2 has not been recorded"):
        decide(state, ConfirmDeal(1, JOHN))
    with pytest.raises(NoSuchSeat):
        decide(state, ConfirmDeal(0, 3))


def test_the_director_needs_no_confirmation_and_may_confirm_a_players_deal() -> None:
    state, _ = record_deals(room(3), sweep(1), by=DIRECTOR)
    state, _ = record_deals(state, sweep(1), by=PEGGY)

    state, events = run(state, ConfirmDeal(1, DIRECTOR))

    assert events == [DealConfirmed(1, DIRECTOR)]
    assert (state.entered_by, state.confirmed) == ((DIRECTOR, PEGGY), (True, True))
    with pytest.raises(DealAlreadyConfirmed):
        decide(state, ConfirmDeal(0, JOHN))


def test_the_last_deal_is_confirmed_after_the_game_is_over() -> None:
    state, _ = short_game_over()

    state, events = run(state, ConfirmDeal(8, JOHN))

    assert events == [DealConfirmed(8, JOHN)]
    assert state.confirmed == (False,) * 8 + (True,)


# --- Corrections ------------------------------------------------------------------------


def test_a_correction_scores_the_deal_and_every_later_one_again_streaks_included() -> None:
    # With a bonus for two exact bids in a row, Peter's bonus in deal 2 goes when his
    # first deal turns out missed, and Peggy's made trick gives John's run nothing new.
    options = RuleOptions(streak_bonus=Streak(2, 10))
    state, events = record_deals(room(3, options, dealer=PEGGY), *REFERENCE_DEALS[:3])
    assert [r.totals for r in scored(events)] == [(6, 5, -1), (21, 20, -2), (20, 26, 3)]

    # Peggy, not Peter, took the trick of the first deal.
    state, events = run(state, correction(0, "1 0 1 / 0 0 1", by=JOHN))

    assert events == [
        DealCorrected(0, (1, 0, 1), (0, 0, 1), "", JOHN),
        HandScored(0, (1, 0, 1), (0, 0, 1), (-1, 5, 6), (0, 0, 0), (-1, 5, 6)),
        HandScored(1, (0, 0, 0), (0, 0, 1), (5, 5, -1), (0, 10, 0), (4, 20, 5)),
        HandScored(2, (1, 1, 0), (0, 1, 0), (-1, 6, 5), (0, 0, 0), (3, 26, 10)),
    ]
    assert state.scores == (3, 26, 10)
    assert (state.hits, state.misses) == ((0, 1, 1), (1, 0, 0))
    assert state.results == tuple(events[1:])
    assert (state.hand, state.entered_by, state.confirmed) == (
        3,
        (JOHN, PETER, PETER),
        (False,) * 3,
    )


def test_a_corrected_deal_is_checked_as_its_own_deal() -> None:
    state, _ = record_deals(room(3, dealer=PEGGY), *REFERENCE_DEALS)

    # Deal 4 is Peggy's 2-card deal: her 0 after Peter's 1 and John's 1 adds up to 2.
    with pytest.raises(DealerBidForbidden, match="the dealer may not bid 0"):
        decide(state, correction(3, "1 1 0 / 0 0 2"))
    with pytest.raises(TricksDoNotAddUp):
        decide(state, correction(3, "0 2 2 / 0 0 1"))
    with pytest.raises(DealNotRecorded, match="deal 5 has not been recorded"):
        decide(state, correction(4, sweep(3)))


def test_a_confirmed_deal_is_corrected_only_with_a_reason_and_awaits_confirmation_again() -> None:
    state, _ = record_deals(room(3, dealer=PEGGY), REFERENCE_DEALS[0], by=PETER)
    state, _ = run(state, ConfirmDeal(0, JOHN))

    for reason in ("", "   "):
        with pytest.raises(CorrectionNeedsReason, match="deal 1 is confirmed: say why"):
            decide(state, correction(0, "1 0 1 / 0 0 1", reason, by=PEGGY))
    state, [corrected, _] = run(state, correction(0, "1 0 1 / 0 0 1", " Peggy's ace ", by=PEGGY))

    assert corrected == DealCorrected(0, (1, 0, 1), (0, 0, 1), "Peggy's ace", PEGGY)
    assert (state.entered_by, state.confirmed) == ((PEGGY,), (False,))
    state, _ = run(state, ConfirmDeal(0, PETER))
    assert state.confirmed == (True,)


def test_a_correction_by_the_director_stands_confirmed() -> None:
    state, _ = record_deals(room(3, dealer=PEGGY), REFERENCE_DEALS[0], by=PETER)

    state, _ = run(state, correction(0, "1 0 1 / 0 0 1", by=DIRECTOR))

    assert (state.entered_by, state.confirmed) == ((DIRECTOR,), (True,))


def test_a_correction_must_change_the_deal_and_give_a_short_reason() -> None:
    state, _ = record_deals(room(3, dealer=PEGGY), REFERENCE_DEALS[0])

    with pytest.raises(NothingToCorrect, match="deal 1 was recorded with those bids"):
        decide(state, correction(0, REFERENCE_DEALS[0], "just checking"))
    with pytest.raises(InvalidDeal, match="a reason is at most 200 characters"):
        decide(state, correction(0, "1 0 1 / 0 0 1", "x" * 201))
    [corrected, _] = decide(state, correction(0, "1 0 1 / 0 0 1", "x" * 200))
    assert corrected == DealCorrected(0, (1, 0, 1), (0, 0, 1), "x" * 200, PETER)


def test_once_the_game_is_over_only_the_director_corrects_and_it_finishes_again() -> None:
    state, _ = short_game_over()

    with pytest.raises(TableClosed, match="only the director corrects"):
        decide(state, correction(8, "1 1 0 / 0 1 0", "John took it", by=JOHN))
    # John takes the last trick after all: +6 rather than -1, and he no longer ends on 0.
    state, events = run(state, correction(8, "1 1 0 / 0 1 0", "John took it", by=DIRECTOR))

    assert events == [
        DealCorrected(8, (1, 1, 0), (0, 1, 0), "John took it", DIRECTOR),
        HandScored(8, (1, 1, 0), (0, 1, 0), (-1, 6, 5), (0, 0, 0), (78, 7, 33)),
        GameFinished((78, 7, 33), (1, 3, 2), ()),
    ]
    assert (state.phase, state.scores, state.places) == (Phase.FINISHED, (78, 7, 33), (1, 3, 2))


# --- Properties -------------------------------------------------------------------------

game_options = st.sampled_from(sorted(PRESETS)).map(PRESETS.__getitem__) | rule_options
# The state a table's scoring is: all of it but who wrote and who confirmed each deal.
PAPERWORK = ("entered_by", "confirmed")


def scoring_of(state: GameState) -> dict[str, Any]:
    return {name: value for name, value in vars(state).items() if name not in PAPERWORK}


def random_deal(state: GameState, hand: int, rng: random.Random) -> Deal:
    """A deal the rules allow as deal ``hand``: each trick to anyone, then each bid in
    bidding order, as often as not the tricks the bidder made (so that runs of exact
    bids, and their bonuses, happen)."""
    n, spec = state.player_count, state.schedule[hand]
    winners = [rng.randrange(n) for _ in range(spec.cards)]
    tricks = tuple(winners.count(seat) for seat in range(n))
    dealer = (state.first_dealer + hand) % n
    bids, before = [0] * n, 0
    for turn in range(n):
        seat = (dealer + 1 + turn) % n
        allowed = allowed_bids(spec.cards, before, seat == dealer)
        if spec.forced_bid is not None:
            bid = spec.forced_bid
        elif tricks[seat] in allowed and rng.random() < 0.5:
            bid = tricks[seat]
        else:
            bid = rng.choice(allowed)
        bids[seat] = bid
        before += bid
    return tuple(bids), tricks


def recorded_game(
    options: RuleOptions, player_count: int, seed: bytes, rng: random.Random
) -> tuple[GameState, list[Event], list[Command]]:
    """A table in the room with zero play announced by some at the start (where it is
    played) and some of its deals recorded, in half the games all of them: the state,
    the log and the commands."""
    commands: list[Command] = [StartGame(player_count, options, seed, recorded=True)]
    if options.zero_play is not None:
        zero_players = rng.sample(range(player_count), rng.randint(0, 2))
        commands.extend(AnnounceZeroPlay(seat) for seat in zero_players)
    state, events = run(GameState(), *commands)
    deals = len(state.schedule)
    for hand in range(deals if rng.random() < 0.5 else rng.randint(1, deals)):
        command = RecordDeal(hand, *random_deal(state, hand, rng), rng.randrange(player_count))
        commands.append(command)
        state, more = run(state, command)
        events.extend(more)
    return state, events, commands


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    options=game_options,
    player_count=player_counts,
    seed=seeds,
    zero_play_chance=st.floats(0.0, 1.0),
)
def test_a_played_game_recorded_deal_by_deal_in_the_room_scores_and_finishes_alike(
    options: RuleOptions, player_count: int, seed: bytes, zero_play_chance: float
) -> None:
    played = play_random_game(options, player_count, seed, zero_play_chance=zero_play_chance)
    [game_started, *_] = played.events
    announced = [e for e in played.events if isinstance(e, ZeroPlayAnnounced)]
    outcome = [e for e in played.events if isinstance(e, HandScored | GameFinished)]

    # The same table in the room: the same first dealer, each deal's bids and tricks
    # written down as played, each zero play announced as many deals in.
    state, events = run(GameState(), StartGame(player_count, options, seed, recorded=True))
    for result in scored(played.events):
        state, more = run(
            state,
            *(AnnounceZeroPlay(a.seat) for a in announced if a.hands_dealt == result.hand),
            RecordDeal(result.hand, result.bids, result.tricks, result.hand % player_count),
        )
        events.extend(more)

    assert isinstance(game_started, GameStarted)
    assert events[0] == replace(game_started, recorded=True)
    assert [e for e in events if isinstance(e, ZeroPlayAnnounced)] == announced
    assert [e for e in events if isinstance(e, HandScored | GameFinished)] == outcome
    assert (state.scores, state.places, state.results) == (
        played.final.scores,
        played.final.places,
        played.final.results,
    )


@settings(max_examples=200, deadline=None, derandomize=True)
@given(options=game_options, player_count=player_counts, seed=seeds)
def test_a_correction_then_its_correction_back_gives_the_scores_first_recorded(
    options: RuleOptions, player_count: int, seed: bytes
) -> None:
    rng = random.Random(seed)
    state, events, _ = recorded_game(options, player_count, seed, rng)
    hand = rng.randrange(len(state.results))
    original = state.results[hand]
    wrong = random_deal(state, hand, rng)
    while wrong == (original.bids, original.tricks):
        wrong = random_deal(state, hand, rng)

    corrected, _ = run(state, CorrectDeal(hand, *wrong, "miscounted", DIRECTOR))
    back, again = run(
        corrected, CorrectDeal(hand, original.bids, original.tricks, "as it was", DIRECTOR)
    )

    finished = [e for e in events if isinstance(e, GameFinished)]
    assert again == [
        DealCorrected(hand, original.bids, original.tricks, "as it was", DIRECTOR),
        *state.results[hand:],
        *finished,
    ]
    assert scoring_of(back) == scoring_of(state)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(options=game_options, player_count=player_counts, seed=seeds)
def test_after_any_corrections_a_table_scores_as_if_each_deal_had_been_recorded_right(
    options: RuleOptions, player_count: int, seed: bytes
) -> None:
    rng = random.Random(seed)
    state, events, commands = recorded_game(options, player_count, seed, rng)
    right = {command.hand: command for command in commands if isinstance(command, RecordDeal)}
    for _ in range(rng.randint(1, 8)):
        hand = rng.randrange(len(state.results))
        bids, tricks = random_deal(state, hand, rng)
        if (bids, tricks) == (state.results[hand].bids, state.results[hand].tricks):
            continue
        over = state.phase is Phase.FINISHED
        by = DIRECTOR if over else rng.choice([DIRECTOR, *range(player_count)])
        state, more = run(state, CorrectDeal(hand, bids, tricks, "recounted", by))
        events.extend(more)
        right[hand] = replace(right[hand], bids=bids, tricks=tricks)

    recorded_right, _ = run(
        GameState(),
        *(c for c in commands if not isinstance(c, RecordDeal)),
        *right.values(),
    )

    assert scoring_of(state) == scoring_of(recorded_right)
    assert replay(events) == state
