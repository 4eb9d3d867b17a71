"""Tournament points: placement, relative, raw, matchpoints, and the standings' tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.points import (
    PointsMethod,
    Standing,
    TableResult,
    displayed,
    duplicate_groups,
    matchpoint_percentages,
    matchpoints,
    placement_points,
    relative_points,
    round_points,
    standings,
    table_points,
)


def table(
    players: Sequence[int], scores: Sequence[int], exact_bids: Sequence[int] | None = None
) -> TableResult:
    exact = tuple(exact_bids) if exact_bids is not None else (0,) * len(players)
    return TableResult(players=tuple(players), scores=tuple(scores), exact_bids=exact)


# Placement points


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((10, 30, 20), [0.0, 60.0, 30.0]),
        ((5, 20, 15, -3), [20.0, 60.0, 40.0, 0.0]),
        ((1, 2, 3, 4, 5), [0.0, 15.0, 30.0, 45.0, 60.0]),
        ((6, 5, 4, 3, 2, 1), [60.0, 48.0, 36.0, 24.0, 12.0, 0.0]),
    ],
    ids=["3-table", "4-table", "5-table", "6-table"],
)
def test_placement_gives_sixty_to_first_nothing_to_last_and_evenly_spaced_places_between(
    scores: tuple[int, ...], expected: list[float]
) -> None:
    # given a table without ties
    # when its places are scored
    points = placement_points(scores, len(scores))

    # then first gets 60, last 0, and the places between are evenly spaced
    assert points == expected


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # 60 and 30 shared by two: 45 each.
        ((10, 10, 5), [45.0, 45.0, 0.0]),
        ((7, 7, 7), [30.0, 30.0, 30.0]),
        # Two tied for first at a 4-table: (60 + 40) / 2.
        ((20, 20, 5, 0), [50.0, 50.0, 20.0, 0.0]),
        ((30, 10, 10, 0), [60.0, 30.0, 30.0, 0.0]),
        # Three tied for first at a 5-table: (60 + 45 + 30) / 3.
        ((9, 9, 9, 2, 1), [45.0, 45.0, 45.0, 15.0, 0.0]),
        ((4, 8, 4, 8, 0), [22.5, 52.5, 22.5, 52.5, 0.0]),
        # 6-table: (60 + 48) / 2 and (36 + 24 + 12) / 3.
        ((7, 7, 3, 3, 3, 0), [54.0, 54.0, 24.0, 24.0, 24.0, 0.0]),
        ((9, 8, 7, 6, 1, 1), [60.0, 48.0, 36.0, 24.0, 6.0, 6.0]),
    ],
)
def test_tied_players_share_the_average_of_the_places_they_cover(
    scores: tuple[int, ...], expected: list[float]
) -> None:
    # given a table with equal final scores
    # when its places are scored
    points = placement_points(scores, len(scores))

    # then the tied players split the points of their places evenly
    assert points == expected


def test_every_table_size_hands_out_thirty_points_per_player() -> None:
    # given tables of three to six
    # when each is scored by placement
    totals = {n: sum(placement_points(list(range(n)), n)) for n in range(3, 7)}

    # then the points per player are the same whatever the size
    assert totals == {3: 90.0, 4: 120.0, 5: 150.0, 6: 180.0}


def test_placement_refuses_a_size_that_does_not_match_the_scores() -> None:
    with pytest.raises(ValueError, match="3 scores for a table of 4"):
        placement_points((1, 2, 3), 4)


def test_placement_refuses_a_table_of_one() -> None:
    with pytest.raises(ValueError, match="at least two"):
        placement_points((5,))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-60, max_value=200), min_size=2, max_size=7))
def test_placement_points_sum_to_thirty_per_player_and_follow_the_scores(
    scores: list[int],
) -> None:
    points = placement_points(scores, len(scores))

    assert sum(points) == 30 * len(scores)
    for mine, my_points in zip(scores, points, strict=True):
        for other, their_points in zip(scores, points, strict=True):
            if mine == other:
                assert my_points == their_points
            elif mine > other:
                assert my_points > their_points


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(min_value=2, max_value=7), st.integers(min_value=-50, max_value=50))
def test_a_table_where_everyone_ties_gives_everyone_thirty(size: int, score: int) -> None:
    assert placement_points([score] * size, size) == [30.0] * size


# Relative and raw points


def test_relative_points_are_the_score_minus_the_table_average() -> None:
    # given a 4-table averaging 55 / 4 = 13.75
    # when it is scored relative to its average
    points = relative_points((30, 10, -5, 20))

    # then each seat gets its distance from the average
    assert points == [16.25, -3.75, -18.75, 6.25]
    assert sum(points) == 0


def test_relative_points_are_exact_and_rounded_only_for_display() -> None:
    # given a table whose average is a third
    # when it is scored
    points = relative_points((1, 0, 0))

    # then the points are exact thirds, shown to the cent
    assert points == [Fraction(2, 3), Fraction(-1, 3), Fraction(-1, 3)]
    assert [displayed(value) for value in points] == [0.67, -0.33, -0.33]


def test_raw_points_are_the_final_scores() -> None:
    result = table((1, 2, 3, 4), (30, 10, -5, 20))

    assert table_points(result, PointsMethod.RAW) == [30.0, 10.0, -5.0, 20.0]


def test_table_points_score_placement_and_relative_per_table() -> None:
    result = table((1, 2, 3), (10, 20, 30))

    assert table_points(result, PointsMethod.PLACEMENT) == [0.0, 30.0, 60.0]
    assert table_points(result, PointsMethod.RELATIVE) == [-10.0, 0.0, 10.0]


def test_matchpoints_are_not_a_per_table_method() -> None:
    with pytest.raises(ValueError, match="round_points"):
        table_points(table((1, 2, 3), (1, 2, 3)), PointsMethod.MATCHPOINTS)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-100, max_value=300), min_size=1, max_size=6))
def test_relative_points_sum_to_exactly_zero(scores: list[int]) -> None:
    points = relative_points(scores)

    assert sum(points) == 0
    if len(set(scores)) == 1:
        assert points == [0.0] * len(scores)


def test_a_table_result_has_one_entry_per_seat() -> None:
    with pytest.raises(ValueError, match="one entry per seat"):
        TableResult(players=(1, 2, 3), scores=(1, 2), exact_bids=(0, 0, 0))
    with pytest.raises(ValueError, match="only once"):
        TableResult(players=(1, 1, 3), scores=(1, 2, 3), exact_bids=(0, 0, 0))
    assert table((1, 2, 3, 4), (0, 0, 0, 0)).size == 4


# Matchpoints


def test_two_duplicate_tables_compare_each_seat_with_the_other_table() -> None:
    # given two 4-tables that played the same deals, seat by seat
    first = table((1, 2, 3, 4), (30, 10, -5, 20))
    second = table((5, 6, 7, 8), (25, 10, 0, 20))

    # when the round is grouped by the cards held
    groups = duplicate_groups([first, second])

    # then each seat is a group of two, and the better of each pair gets the top of 2
    assert groups == [
        [(1, 30), (5, 25)],
        [(2, 10), (6, 10)],
        [(3, -5), (7, 0)],
        [(4, 20), (8, 20)],
    ]
    assert matchpoints(groups) == {
        1: 2.0,  # beat 5
        5: 0.0,
        2: 1.0,  # tied with 6
        6: 1.0,
        3: 0.0,
        7: 2.0,  # beat 3
        4: 1.0,  # tied with 8
        8: 1.0,
    }
    assert matchpoint_percentages(groups) == {
        1: 100.0,
        5: 0.0,
        2: 50.0,
        6: 50.0,
        3: 0.0,
        7: 100.0,
        4: 50.0,
        8: 50.0,
    }


def test_three_duplicate_tables_give_two_per_rival_beaten_and_one_per_tie() -> None:
    # given three 4-tables on the same deals: groups of three, the top is 4
    tables = [
        table((11, 12, 13, 14), (40, 5, 12, -3)),
        table((21, 22, 23, 24), (40, 8, 12, 0)),
        table((31, 32, 33, 34), (22, 8, 12, 6)),
    ]

    # when the seats are compared
    groups = duplicate_groups(tables)
    points = matchpoints(groups)
    percentages = matchpoint_percentages(groups)

    # then, seat 1 (40, 40, 22): the two 40s beat 22 (2) and tie each other (1)
    assert (points[11], points[21], points[31]) == (3.0, 3.0, 0.0)
    assert (percentages[11], percentages[21], percentages[31]) == (75.0, 75.0, 0.0)
    # seat 2 (5, 8, 8): the two 8s beat 5 and tie each other
    assert (points[12], points[22], points[32]) == (0.0, 3.0, 3.0)
    assert (percentages[12], percentages[22], percentages[32]) == (0.0, 75.0, 75.0)
    # seat 3 (12, 12, 12): a tie all round, 1 + 1 each
    assert (points[13], points[23], points[33]) == (2.0, 2.0, 2.0)
    assert (percentages[13], percentages[23], percentages[33]) == (50.0, 50.0, 50.0)
    # seat 4 (-3, 0, 6): 0, 2 and 4
    assert (points[14], points[24], points[34]) == (0.0, 2.0, 4.0)
    assert (percentages[14], percentages[24], percentages[34]) == (0.0, 50.0, 100.0)


def test_a_player_alone_with_their_cards_gets_no_matchpoints_and_fifty_percent() -> None:
    # given a round with two 4-tables and a single 3-table
    tables = [
        table((1, 2, 3, 4), (10, 0, 0, 0)),
        table((5, 6, 7, 8), (0, 0, 0, 0)),
        table((9, 10, 11), (30, 20, 10)),
    ]

    # when it is matchpointed
    groups = duplicate_groups(tables)
    points = matchpoints(groups)
    percentages = matchpoint_percentages(groups)

    # then the 3-table's seats are groups of one: nothing to compare with
    assert groups[:3] == [[(9, 30)], [(10, 20)], [(11, 10)]]
    assert (points[9], points[10], points[11]) == (0.0, 0.0, 0.0)
    assert (percentages[9], percentages[10], percentages[11]) == (50.0, 50.0, 50.0)


def test_percentages_are_exact_and_summed_over_groups() -> None:
    # given a player in two groups of four (top 6 each): 2 of 6 and 6 of 6
    groups = [
        [(1, 10), (2, 20), (3, 20), (4, 5)],
        [(1, 50), (5, 0), (6, 1), (7, 2)],
    ]

    # when the percentages are taken
    percentages = matchpoint_percentages(groups)

    # then 2 (beat 1 and 4, tied 3) has 5 of 6, and 1 has 2 + 6 = 8 of 12
    assert percentages[4] == 0.0
    assert percentages[2] == Fraction(250, 3)
    assert percentages[1] == Fraction(200, 3)
    assert (displayed(percentages[2]), displayed(percentages[1])) == (83.33, 66.67)
    assert matchpoints(groups)[1] == 8.0


def test_a_player_twice_in_one_group_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        matchpoints([[(1, 10), (1, 20)]])


def test_round_points_gives_matchpoint_percentages_by_seat() -> None:
    # given the two duplicate 4-tables
    first = table((1, 2, 3, 4), (30, 10, -5, 20))
    second = table((5, 6, 7, 8), (25, 10, 0, 20))

    # when the round is scored by matchpoints
    scored = round_points([first, second], PointsMethod.MATCHPOINTS)

    # then each table gets its seats' percentages
    assert scored == [
        (first, [100.0, 50.0, 0.0, 50.0]),
        (second, [0.0, 50.0, 100.0, 50.0]),
    ]
    assert round_points([first], PointsMethod.PLACEMENT) == [(first, [60.0, 20.0, 0.0, 40.0])]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=-20, max_value=20), min_size=1, max_size=8))
def test_a_group_shares_out_two_matchpoints_per_pair_and_averages_fifty_percent(
    scores: list[int],
) -> None:
    group = list(enumerate(scores))

    points = matchpoints([group])
    percentages = matchpoint_percentages([group])

    size = len(scores)
    assert sum(points.values()) == size * (size - 1)
    assert sum(percentages.values()) == 50 * size


# Standings


def test_standings_order_by_total_points() -> None:
    # given two rounds scored by placement
    results = [
        (table((1, 2, 3), (50, 20, 10)), [60.0, 30.0, 0.0]),
        (table((1, 2, 3), (5, 20, 10)), [0.0, 60.0, 30.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then they total each player's points, exact bids, best game and games
    assert lines == [
        Standing(player=2, points=90.0, exact_bids=0, best_game=20, games=2, rank=1),
        Standing(player=1, points=60.0, exact_bids=0, best_game=50, games=2, rank=2),
        Standing(player=3, points=30.0, exact_bids=0, best_game=10, games=2, rank=3),
    ]


def test_equal_points_are_first_split_by_exact_bids_made() -> None:
    # given two tables whose places mirror each other
    results = [
        (table((1, 2, 3), (50, 20, 10), exact_bids=(5, 3, 2)), [60.0, 30.0, 0.0]),
        (table((4, 5, 6), (40, 30, 5), exact_bids=(4, 6, 1)), [60.0, 30.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then each pair tied on points is ordered by exact bids
    assert [(line.player, line.exact_bids, line.rank) for line in lines] == [
        (1, 5, 1),
        (4, 4, 2),
        (5, 6, 3),
        (2, 3, 4),
        (3, 2, 5),
        (6, 1, 6),
    ]


def test_then_by_who_finished_ahead_when_they_met() -> None:
    # given players 1 and 2 tied on points (90) and exact bids (7); 2 beat 1 when
    # they met, though 1 has the better single game (50 to 35)
    results = [
        (table((1, 2, 3), (20, 35, 10), exact_bids=(3, 4, 1)), [30.0, 60.0, 0.0]),
        (table((1, 4, 5), (50, 10, 0), exact_bids=(4, 1, 1)), [60.0, 30.0, 0.0]),
        (table((2, 6, 7), (25, 30, 0), exact_bids=(3, 2, 1)), [30.0, 60.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then head-to-head puts 2 first
    assert [(line.player, line.points, line.exact_bids, line.rank) for line in lines[:2]] == [
        (2, 90.0, 7, 1),
        (1, 90.0, 7, 2),
    ]


def test_then_by_best_single_game_when_they_never_met() -> None:
    # given players 1 and 2 tied on points and exact bids, never at the same table
    results = [
        (table((1, 3, 4), (20, 35, 10), exact_bids=(3, 4, 1)), [30.0, 60.0, 0.0]),
        (table((2, 5, 6), (35, 10, 0), exact_bids=(4, 1, 1)), [60.0, 30.0, 0.0]),
        (table((1, 7, 8), (50, 10, 0), exact_bids=(4, 1, 1)), [60.0, 30.0, 0.0]),
        (table((2, 9, 10), (25, 30, 0), exact_bids=(3, 2, 1)), [30.0, 60.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then the best single game decides: 1's 50 beats 2's 35
    assert [(line.player, line.best_game, line.rank) for line in lines[:2]] == [
        (1, 50, 1),
        (2, 35, 2),
    ]


def test_a_tie_at_the_shared_table_falls_through_to_best_game() -> None:
    # given 1 and 2 tied on points and exact bids, and level when they met
    results = [
        (table((1, 2, 3), (20, 20, 0), exact_bids=(2, 2, 0)), [45.0, 45.0, 0.0]),
        (table((1, 4, 5), (10, 5, 0), exact_bids=(1, 0, 0)), [60.0, 30.0, 0.0]),
        (table((2, 6, 7), (30, 5, 0), exact_bids=(1, 0, 0)), [60.0, 30.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then 2's 30 beats 1's 20 as best game
    assert [(line.player, line.rank) for line in lines[:2]] == [(2, 1), (1, 2)]


def test_players_tied_on_everything_share_the_rank() -> None:
    # given 2 and 3 level on points, exact bids, their meeting and best game
    results = [(table((1, 2, 3, 4), (50, 20, 20, 5), exact_bids=(3, 2, 2, 1)), [60, 30, 30, 0])]

    # when the standings are drawn up
    lines = standings(results)

    # then they share second, and the next is fourth
    assert [(line.player, line.rank) for line in lines] == [(1, 1), (2, 2), (3, 2), (4, 4)]


def test_the_order_of_the_tie_breaks_is_a_parameter() -> None:
    # given 1 with more exact bids, but beaten by 2 when they met
    results = [
        (table((1, 2, 3), (10, 30, 0), exact_bids=(5, 1, 0)), [30.0, 60.0, 0.0]),
        (table((1, 4, 5), (40, 5, 0), exact_bids=(3, 0, 0)), [60.0, 30.0, 0.0]),
        (table((2, 6, 7), (20, 25, 0), exact_bids=(2, 3, 0)), [30.0, 60.0, 0.0]),
    ]

    # when the standings use the default order, then head-to-head first, then none
    default = standings(results)
    head_to_head_first = standings(results, ("head_to_head", "exact_bids", "best_game"))
    none = standings(results, ())

    # then exact bids decide by default, head-to-head when it comes first
    assert [line.player for line in default[:2]] == [1, 2]
    assert [line.player for line in head_to_head_first[:2]] == [2, 1]
    assert [(line.player, line.rank) for line in none[:2]] == [(1, 1), (2, 1)]


def test_unknown_tie_breaks_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-breaks: coin_toss"):
        standings([], ("exact_bids", "coin_toss"))


def test_points_for_each_seat_are_required() -> None:
    with pytest.raises(ValueError, match="2 points for a table of 3"):
        standings([(table((1, 2, 3), (1, 2, 3)), [1.0, 2.0])])


def test_head_to_head_is_a_mini_league_applied_again_to_those_still_tied() -> None:
    # given 1, 2 and 3 tied on points (60) and exact bids (6): 1 beat 2 twice and
    # never met 3; 2 beat 3 once. Among the three: 1 is +2, 2 is -1, 3 is -1.
    results = [
        (table((1, 2, 9), (40, 10, 0), exact_bids=(3, 2, 0)), [30.0, 20.0, 0.0]),
        (table((1, 2, 8), (40, 10, 0), exact_bids=(3, 2, 0)), [30.0, 20.0, 0.0]),
        (table((2, 3, 7), (20, 15, 0), exact_bids=(2, 3, 0)), [20.0, 30.0, 0.0]),
        (table((3, 6, 5), (90, 0, 0), exact_bids=(3, 0, 0)), [30.0, 0.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then 1 leads, and 2 and 3, still level, are split by their own meeting,
    # before 3's better single game (90) is looked at
    assert [(line.player, line.points, line.rank) for line in lines[:3]] == [
        (1, 60.0, 1),
        (2, 60.0, 2),
        (3, 60.0, 3),
    ]


def test_a_head_to_head_cycle_falls_through_to_best_game() -> None:
    # given 1 beat 2, 2 beat 3 and 3 beat 1, all level on points and exact bids;
    # best games: 3 has 50, 1 and 2 have 40 each
    results = [
        (table((1, 2, 9), (20, 10, 0), exact_bids=(1, 1, 0)), [30.0, 30.0, 0.0]),
        (table((2, 3, 8), (40, 10, 0), exact_bids=(1, 1, 0)), [30.0, 30.0, 0.0]),
        (table((3, 1, 7), (50, 40, 0), exact_bids=(1, 1, 0)), [30.0, 30.0, 0.0]),
    ]

    # when the standings are drawn up
    lines = standings(results)

    # then the cycle leaves all three even and best game puts 3 first; 1 and 2,
    # still level, are split by their own meeting, which 1 won
    assert [(line.player, line.best_game, line.rank) for line in lines[:3]] == [
        (3, 50, 1),
        (1, 40, 2),
        (2, 40, 3),
    ]


def duplicate_round(seats: Sequence[Sequence[tuple[int, int]]]) -> list[TableResult]:
    """Tables of four whose seat ``s`` holds the ``(player, score)`` of ``seats[s]``,
    table by table, each with 2 exact bids."""
    return [
        table(
            [seat[number][0] for seat in seats],
            [seat[number][1] for seat in seats],
            [2] * len(seats),
        )
        for number in range(len(seats[0]))
    ]


def test_exactly_equal_matchpoint_totals_share_first_place() -> None:
    # given two duplicate rounds of four 4-tables: 1 scores 5 of 6 matchpoints in
    # each (83⅓% twice), 5 scores 6 of 6 then 4 of 6 (100% and 66⅔%); both have
    # 2 exact bids a round and a best game of 20, and they never meet
    level = [(40, 0), (41, 0), (42, 0), (43, 0)]
    round_one = duplicate_round(
        [[(1, 20), (20, 20), (21, 0), (22, 0)], [(5, 20), (23, 0), (24, 0), (25, 0)], level]
    )
    round_two = duplicate_round(
        [[(1, 20), (26, 20), (27, 0), (28, 0)], [(5, 20), (29, 30), (30, 0), (31, 0)], level]
    )
    results = round_points(round_one, PointsMethod.MATCHPOINTS) + round_points(
        round_two, PointsMethod.MATCHPOINTS
    )

    # when the standings are drawn up
    lines = standings(results)

    # then 1 and 5 are both exactly 166⅔ (shown 166.67) and share first place
    assert [(line.player, line.points, line.rank) for line in lines[:2]] == [
        (1, Fraction(500, 3), 1),
        (5, Fraction(500, 3), 1),
    ]
    assert displayed(lines[0].points) == displayed(lines[1].points) == 166.67
    assert lines[2].rank == 3


def test_relative_thirds_that_total_the_same_tie_before_the_tie_breaks() -> None:
    # given two rounds at tables of three scored relative to the table's average:
    # 1 gets 4/3 then 0, 2 gets 2/3 then 2/3 (each 4/3, which printed per table
    # as 1.33 + 0 against 0.67 + 0.67); they never meet, and 2 has the better game
    tables = [
        table((1, 3, 4), (1, 0, -2)),
        table((2, 5, 6), (1, 0, 0)),
        table((1, 7, 8), (0, 0, 0)),
        table((2, 9, 10), (5, 4, 4)),
    ]
    results = round_points(tables, PointsMethod.RELATIVE)

    # when the standings are drawn up
    lines = standings(results)

    # then 1 and 2 are level on points, split by the tie-break alone (best game)
    assert [(line.player, line.points, line.best_game, line.rank) for line in lines[:2]] == [
        (2, Fraction(4, 3), 5, 1),
        (1, Fraction(4, 3), 1, 2),
    ]


_tables = st.lists(
    st.tuples(
        st.permutations(range(1, 9)).map(lambda order: tuple(order[:4])),
        st.lists(st.integers(-30, 60), min_size=4, max_size=4),
        st.lists(st.integers(0, 3), min_size=4, max_size=4),
    ),
    min_size=1,
    max_size=6,
)


Rows = list[tuple[tuple[int, ...], list[int], list[int]]]


def _scored_rounds(rows: Rows, method: PointsMethod) -> list[tuple[TableResult, list[Fraction]]]:
    return [
        scored
        for players, scores, exact in rows
        for scored in round_points([table(players, scores, exact)], method)
    ]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_tables, st.sampled_from([PointsMethod.RELATIVE, PointsMethod.PLACEMENT]), st.randoms())
def test_permuting_tables_never_changes_the_standings(
    rows: Rows, method: PointsMethod, random: Random
) -> None:
    # given tables in one order and in another
    results = _scored_rounds(rows, method)
    shuffled = list(results)
    random.shuffle(shuffled)

    # then the standings are the same
    assert standings(shuffled) == standings(results)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_tables, st.sampled_from([PointsMethod.RELATIVE, PointsMethod.PLACEMENT]))
def test_exactly_equal_totals_are_ranked_by_the_tie_breaks_alone(
    rows: Rows, method: PointsMethod
) -> None:
    # given any tables, standings with no tie-breaks at all
    lines = standings(_scored_rounds(rows, method), ())

    # then players share a rank exactly when their exact totals are equal
    for one in lines:
        for other in lines:
            assert (one.rank == other.rank) == (one.points == other.points)
            if one.points > other.points:
                assert one.rank < other.rank
