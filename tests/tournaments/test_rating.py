"""The multiplayer Elo rating, its history, and season points for placings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.rating import (
    INITIAL_RATING,
    RatedTable,
    RatingChange,
    current_ratings,
    expected_score,
    rate_table,
    rate_tables,
    season_points,
)

# rate_table


def test_two_equal_players_move_sixteen_points_with_the_default_k() -> None:
    # given two players at 1500
    ratings = {1: 1500.0, 2: 1500.0}

    # when 1 outscores 2
    after = rate_table(ratings, [1, 2], [40, 10])

    # then K = 32 times (1 - 0.5): +16 and -16
    assert after == {1: 1516.0, 2: 1484.0}


def test_k_is_a_parameter() -> None:
    assert rate_table({}, [1, 2], [40, 10], k=16) == {1: 1508.0, 2: 1492.0}


def test_newcomers_start_at_fifteen_hundred() -> None:
    # given nobody rated yet
    # when they play
    after = rate_table({}, [7, 8], [0, 5])

    # then they are rated from 1500
    assert INITIAL_RATING == 1500.0
    assert after == {7: 1484.0, 8: 1516.0}


def test_equal_ratings_and_equal_scores_change_nothing() -> None:
    # given a 4-table of equals that ends level
    ratings = {1: 1500.0, 2: 1500.0, 3: 1500.0, 4: 1500.0}

    # when it is rated
    after = rate_table(ratings, [1, 2, 3, 4], [12, 12, 12, 12])

    # then nobody moves
    assert after == ratings


def test_a_table_counts_as_games_between_every_pair_with_k_shared_out() -> None:
    # given three equals finishing 30, 20, 10: K / (3 - 1) = 16 a game
    # when the table is rated
    after = rate_table({}, [1, 2, 3], [30, 20, 10])

    # then the winner won two games (+8 each), the second won one and lost one,
    # the last lost two
    assert after == {1: 1516.0, 2: 1500.0, 3: 1484.0}


def test_an_underdog_who_wins_gains_more_than_half_of_k() -> None:
    # given 1400 against 1600: the underdog expects 1 / (1 + 10^0.5) = 0.24025
    assert expected_score(1400.0, 1600.0) == pytest.approx(0.2402530733, abs=1e-9)

    # when the underdog wins
    after = rate_table({1: 1600.0, 2: 1400.0}, [1, 2], [5, 30])

    # then they gain 32 * (1 - 0.24025) = 24.3119, taken from the favourite
    assert after[2] == pytest.approx(1424.3119017, abs=1e-6)
    assert after[1] == pytest.approx(1575.6880983, abs=1e-6)


def test_a_winner_gains_and_the_table_sums_to_zero() -> None:
    # given a 5-table of mixed ratings
    ratings = {1: 1450.0, 2: 1620.0, 3: 1500.0, 4: 1388.0, 5: 1710.0}

    # when 1 wins it
    after = rate_table(ratings, [1, 2, 3, 4, 5], [90, 40, 40, 10, -20])

    # then 1 gains, the last loses, and the changes cancel out
    assert after[1] > ratings[1]
    assert after[5] < ratings[5]
    assert sum(after[p] - ratings[p] for p in ratings) == pytest.approx(0.0, abs=1e-9)


def test_a_player_alone_keeps_their_rating() -> None:
    assert rate_table({1: 1600.0}, [1], [10]) == {1: 1600.0}


def test_a_table_needs_a_score_per_distinct_player() -> None:
    with pytest.raises(ValueError, match="one entry per seat"):
        rate_table({}, [1, 2], [10])
    with pytest.raises(ValueError, match="only once"):
        rate_table({}, [1, 1], [10, 5])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=800, max_value=2600, allow_nan=False),
            st.integers(min_value=-50, max_value=150),
        ),
        min_size=2,
        max_size=6,
    )
)
def test_elo_is_zero_sum_bounded_by_k_and_rewards_the_outright_winner(
    seats: list[tuple[float, int]],
) -> None:
    players = list(range(len(seats)))
    ratings = {player: rating for player, (rating, _) in zip(players, seats, strict=True)}
    scores = [score for _, score in seats]

    after = rate_table(ratings, players, scores)

    changes = [after[player] - ratings[player] for player in players]
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)
    assert all(abs(change) <= 32 for change in changes)
    best = max(scores)
    if scores.count(best) == 1:
        assert changes[scores.index(best)] > 0


# rate_tables: the history


def test_rate_tables_records_each_players_rating_before_and_after_each_table() -> None:
    # given a season: two games of two, then the two winners draw
    tables = [
        RatedTable(players=(1, 2), scores=(40, 10), event="Spring Cup", round="1", table="1"),
        RatedTable(players=(3, 4), scores=(30, 20), event="Spring Cup", round="1", table="2"),
        RatedTable(players=(1, 3), scores=(25, 25), event="Spring Cup", round="2", table="1"),
    ]

    # when they are rated in order
    history = rate_tables(tables)

    # then the history lists every change, by table and seat, with the labels
    assert history == [
        RatingChange(1, 1500.0, 1516.0, "Spring Cup", "1", "1"),
        RatingChange(2, 1500.0, 1484.0, "Spring Cup", "1", "1"),
        RatingChange(3, 1500.0, 1516.0, "Spring Cup", "1", "2"),
        RatingChange(4, 1500.0, 1484.0, "Spring Cup", "1", "2"),
        RatingChange(1, 1516.0, 1516.0, "Spring Cup", "2", "1"),
        RatingChange(3, 1516.0, 1516.0, "Spring Cup", "2", "1"),
    ]
    assert [change.change for change in history] == [16.0, -16.0, 16.0, -16.0, 0.0, 0.0]
    assert current_ratings(history) == {1: 1516.0, 2: 1484.0, 3: 1516.0, 4: 1484.0}


def test_rate_tables_continues_from_earlier_ratings() -> None:
    # given 1 and 2 rated from an earlier season
    earlier = {1: 1516.0, 2: 1484.0, 9: 1700.0}

    # when they meet again and 2 wins: 1516 vs 1484 expects 0.546 for 1
    history = rate_tables([RatedTable(players=(1, 2), scores=(0, 10))], earlier, k=32)

    # then the history starts from the earlier ratings, and the rest keep theirs
    assert [(change.player, change.before) for change in history] == [(1, 1516.0), (2, 1484.0)]
    after = current_ratings(history, earlier)
    assert after[1] == pytest.approx(1516.0 - 32 * expected_score(1516.0, 1484.0))
    assert after[1] + after[2] == pytest.approx(3000.0)
    assert after[9] == 1700.0


# season_points


@pytest.mark.parametrize(
    ("rank", "points"),
    [(1, 25), (2, 18), (3, 15), (4, 12), (5, 10), (6, 8), (7, 6), (8, 4), (9, 2), (10, 1)],
)
def test_the_top_ten_of_a_big_field_score_like_formula_one(rank: int, points: int) -> None:
    assert season_points(rank, 40) == points


def test_below_tenth_scores_nothing() -> None:
    assert season_points(11, 40) == 0
    assert season_points(40, 40) == 0


def test_only_the_top_half_of_a_small_field_scores() -> None:
    # given events of 6, 3 and 1 players
    # when the places are scored
    # then half the field, rounded up, scores
    assert [season_points(rank, 6) for rank in range(1, 7)] == [25, 18, 15, 0, 0, 0]
    assert [season_points(rank, 3) for rank in range(1, 4)] == [25, 18, 0]
    assert season_points(1, 1) == 25
    assert [season_points(rank, 20) for rank in range(9, 12)] == [2, 1, 0]


def test_tied_players_share_the_points_of_their_shared_rank() -> None:
    # given ranks 1, 2, 2, 4 in a field of 8: both seconds score second's points
    assert [season_points(rank, 8) for rank in (1, 2, 2, 4)] == [25, 18, 18, 12]


@pytest.mark.parametrize(("rank", "field_size"), [(0, 5), (6, 5), (1, 0)])
def test_a_rank_outside_the_field_is_refused(rank: int, field_size: int) -> None:
    with pytest.raises(ValueError):
        season_points(rank, field_size)
