"""Time called at a table (the round clock ran out): the deal in progress is
finished, no deal is dealt or recorded after it, and the game's result is the
scores of the deals played.

Seats: Peter, John and Peggy; a deal at a table in the room is written
``"bids / tricks"`` by seat, as in ``test_recording``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    CallTime,
    GameFinished,
    GameState,
    HandScored,
    Phase,
    PlaceBid,
    PlayCard,
    RecordDeal,
    RuleOptions,
    StartGame,
    TimeCalled,
    decide,
    evolve,
    parse_card,
    replay,
)
from games.rules.errors import GameOver, TimeAlreadyCalled, WrongPhase
from games.rules.simulate import random_command
from tests.games.rules.builders import dealt, run, started
from tests.games.rules.test_properties import player_counts, rule_options, seeds
from tests.games.rules.test_recording import SHORT, deal, record_deals

PETER, JOHN, PEGGY = 0, 1, 2


def test_time_called_mid_deal_lets_the_deal_finish_then_ends_the_game() -> None:
    # Given the first deal (one card each, Peggy dealing) in its bidding
    state = dealt(started(3, SHORT, dealer=PEGGY), "AS", "KS", "QS")

    # When time is called, then the deal is bid and played out
    state, events = run(
        state,
        CallTime(),
        PlaceBid(PETER, 1),
        PlaceBid(JOHN, 0),
        PlaceBid(PEGGY, 1),
        PlayCard(PETER, parse_card("AS")),
        PlayCard(JOHN, parse_card("KS")),
        PlayCard(PEGGY, parse_card("QS")),
    )

    # Then the game is played to that one deal of nine, and ends on its scores
    assert events[0] == TimeCalled(1)
    assert events[-2] == HandScored(0, (1, 0, 1), (1, 0, 0), (6, 5, -1), (0, 0, 0), (6, 5, -1))
    assert events[-1] == GameFinished((6, 5, -1), (1, 2, 3), ())
    assert state.phase is Phase.FINISHED
    assert state.deals_to_play == 1
    assert len(state.schedule) == 9


def test_time_called_between_deals_ends_the_game_at_once_on_the_scores_so_far() -> None:
    # Given a game waiting for its third deal, after two that left 12, 3 and 3
    state = started(3, SHORT, dealer=PETER, hand=2, scores=(12, 3, 3))

    events = decide(state, CallTime())

    assert events == (TimeCalled(2), GameFinished((12, 3, 3), (1, 2, 2), ()))
    assert evolve(state, events).phase is Phase.FINISHED


def test_a_table_in_the_room_records_the_deal_in_progress_and_no_more() -> None:
    # Given a table in the room that has recorded its first deal
    state, _ = record_deals(started(3, SHORT, dealer=PEGGY, recorded=True), "1 1 0 / 1 0 0")

    # When time is called and the deal being played is written down
    state, events = run(state, CallTime(), RecordDeal(1, *deal("3 0 1 / 3 0 0"), PETER))

    # Then the game ends after it, and a further deal is refused
    assert events[0] == TimeCalled(2)
    assert events[-1] == GameFinished((14, 4, 4), (1, 2, 2), ())
    assert state.phase is Phase.FINISHED
    with pytest.raises(GameOver):
        decide(state, RecordDeal(2, *deal("5 2 0 / 5 0 0"), PETER))


def test_time_is_called_once() -> None:
    state = evolve(started(3, recorded=True), [TimeCalled(1)])

    with pytest.raises(TimeAlreadyCalled, match="time has already been called at this table"):
        decide(state, CallTime())


def test_time_is_not_called_before_the_game_starts_or_after_it_ends() -> None:
    over = evolve(started(3, hand=2, scores=(1, 2, 3)), [GameFinished((1, 2, 3), (3, 2, 1), ())])

    with pytest.raises(WrongPhase, match="the game has not started"):
        decide(GameState(), CallTime())
    with pytest.raises(GameOver):
        decide(over, CallTime())


def test_time_called_folds_as_it_replays() -> None:
    state = started(3, SHORT, dealer=PEGGY, hand=4, scores=(1, 2, 3))

    assert evolve(state, [TimeCalled(5)]).deals_to_play == 5
    assert replay([]).deals_to_play == 0


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    options=rule_options,
    player_count=player_counts,
    seed=seeds,
    at=st.integers(min_value=1, max_value=400),
)
def test_a_random_game_called_at_any_move_ends_after_at_most_one_more_deal(
    options: RuleOptions, player_count: int, seed: bytes, at: int
) -> None:
    rng = random.Random(seed)
    events = list(decide(GameState(), StartGame(player_count, options, seed)))
    state = replay(events)
    moves = 0
    while state.phase is not Phase.FINISHED and moves < at:
        new = decide(state, random_command(state, rng, seed))
        events += new
        state = evolve(state, new)
        moves += 1
    if state.phase is Phase.FINISHED:
        return
    in_deal = state.phase in (Phase.BIDDING, Phase.PLAYING)
    played_before = len(state.results)
    called = decide(state, CallTime())
    events += called
    state = evolve(state, called)
    while state.phase is not Phase.FINISHED:
        new = decide(state, random_command(state, rng, seed))
        events += new
        state = evolve(state, new)

    assert len(state.results) == played_before + in_deal
    assert state.deals_to_play == len(state.results) <= len(state.schedule)
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert finished.scores == (state.results[-1].totals if state.results else (0,) * player_count)
    assert replay(events).scores == state.scores
    assert [type(event) for event in events].count(TimeCalled) == 1
