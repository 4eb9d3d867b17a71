import itertools

import pytest

from games.rules import RuleOptions, Scoring, Streak
from games.rules.scoring import advance_streaks, hand_points, places


@pytest.mark.parametrize(
    ("tricks", "points"), [(3, 8), (2, -1), (4, -1), (1, -2), (5, -2), (0, -3), (6, -3)]
)
def test_reference_scoring_is_five_plus_bid_else_one_point_per_trick_off(
    tricks: int, points: int
) -> None:
    # 000: "Suppose you bid 3 tricks. If you take exactly 3 you will win 8 points ..."
    assert hand_points(Scoring.FIVE_PLUS_BID, bid=3, tricks=tricks, cards=8) == points


@pytest.mark.parametrize(("tricks", "points"), [(3, 4), (2, -1), (4, -1), (1, -2), (5, -2)])
def test_app_scoring_is_one_plus_bid(tricks: int, points: int) -> None:
    # 001: "If you take exactly 3 you will win 4 points (3 + 1) ..."
    assert hand_points(Scoring.ONE_PLUS_BID, bid=3, tricks=tricks, cards=8) == points


@pytest.mark.parametrize(("tricks", "points"), [(3, 8), (1, -2), (5, -2)])
def test_online_site_scoring_examples(tricks: int, points: int) -> None:
    # 004: "You bid 3 and you get 3 hands => 8; get 1 => -2; get 5 => -2".
    assert hand_points(Scoring.FIVE_PLUS_BID, bid=3, tricks=tricks, cards=5) == points


def test_bid_plus_cards_rewards_larger_hands() -> None:
    # 000: "8 for bidding and making 2 tricks when 6 cards are dealt, but only 4 ... when 2".
    assert hand_points(Scoring.BID_PLUS_CARDS, bid=2, tricks=2, cards=6) == 8
    assert hand_points(Scoring.BID_PLUS_CARDS, bid=2, tricks=2, cards=2) == 4
    assert hand_points(Scoring.BID_PLUS_CARDS, bid=2, tricks=0, cards=6) == -2


def test_triangular_scoring_rewards_five_plus_n_n_plus_one_over_two() -> None:
    # 000: "5 points plus 0 for 0 tricks, 1 for 1 trick, 3 for 2, 6, 10, 15, 21, 28, 36".
    assert [hand_points(Scoring.TRIANGULAR, n, n, 8) for n in range(9)] == [
        5, 6, 8, 11, 15, 20, 26, 33, 41,
    ]  # fmt: skip


@pytest.mark.parametrize(("tricks", "points"), [(3, 11), (2, -1), (5, -3), (0, -6)])
def test_triangular_scoring_loses_d_d_plus_one_over_two(tricks: int, points: int) -> None:
    # 000: "bid and make 3: 11 (5+6); take 2: lose 1; take 5: lose 3; take 0: lose 6".
    assert hand_points(Scoring.TRIANGULAR, bid=3, tricks=tricks, cards=8) == points


def test_reference_score_table_of_peter_john_and_peggy() -> None:
    # 000's table, read as cards dealt, then each player's bid and cumulative score:
    # 1 | Peter 1 6  | John 0 5  | Peggy 1 -1
    # 1 |       0 11 |      0 10 |       0 -2
    # 1 |       1 10 |      1 16 |       0 3
    # 2 |       0 15 |      2 14 |       2 10
    cards = [1, 1, 1, 2]
    bids = [(1, 0, 1), (0, 0, 0), (1, 1, 0), (0, 2, 2)]
    tricks = [(1, 0, 0), (0, 0, 1), (0, 1, 0), (0, 0, 2)]
    totals = [0, 0, 0]
    table = []
    for dealt, hand_bids, hand_tricks in zip(cards, bids, tricks, strict=True):
        totals = [
            total + hand_points(Scoring.FIVE_PLUS_BID, bid, taken, dealt)
            for total, bid, taken in zip(totals, hand_bids, hand_tricks, strict=True)
        ]
        table.append(tuple(totals))

    assert table == [(6, 5, -1), (11, 10, -2), (10, 16, 3), (15, 14, 10)]


def run_streaks(options: RuleOptions, results: str, cards: list[int] | None = None) -> list[int]:
    """Streak points earned by one player over hands given as 'x' (exact) / '.' (missed)."""
    hits, misses, earned = (0,), (0,), []
    for index, result in enumerate(results):
        dealt = cards[index] if cards else 5
        hits, misses, points = advance_streaks(options, dealt, [result == "x"], hits, misses)
        earned.append(points[0])
    return earned


def test_ten_point_bonus_for_five_consecutive_exact_bids_then_the_count_restarts() -> None:
    # 000: "for 6 consecutive wins you would still only have one 10-point bonus,
    # but the 10th consecutive win would earn you a second 10-point bonus".
    options = RuleOptions(streak_bonus=Streak(5, 10))

    earned = run_streaks(options, "x" * 10)

    assert earned == [0, 0, 0, 0, 10, 0, 0, 0, 0, 10]


def test_five_point_and_thirty_point_bonus_variants() -> None:
    assert sum(run_streaks(RuleOptions(streak_bonus=Streak(5, 5)), "x" * 6)) == 5
    assert run_streaks(RuleOptions(streak_bonus=Streak(10, 30)), "x" * 10)[-1] == 30
    assert sum(run_streaks(RuleOptions(streak_bonus=Streak(10, 30)), "x" * 9)) == 0


def test_a_miss_breaks_a_run_of_exact_bids() -> None:
    options = RuleOptions(streak_bonus=Streak(5, 10))

    assert sum(run_streaks(options, "xxxx.xxxx")) == 0
    assert run_streaks(options, "xxxx.xxxxx")[-1] == 10


def test_five_point_penalty_for_five_consecutive_wrong_bids() -> None:
    # 000: "some deduct 5 points from the score of a player who makes 5 consecutive wrong bids".
    options = RuleOptions(streak_bonus=Streak(5, 5), streak_penalty=Streak(5, -5))

    assert run_streaks(options, "....." + "....." + "x") == [0, 0, 0, 0, -5] * 2 + [0]


def test_online_site_ten_up_ten_down_without_one_card_games() -> None:
    # 004: +10 for five correct in a row, -10 for five wrong; one-card games not counted.
    options = RuleOptions(
        streak_bonus=Streak(5, 10),
        streak_penalty=Streak(5, -10),
        streaks_count_one_card_deals=False,
    )
    cards = [1, 1, 1, 1, 2, 3, 4, 5, 6]

    assert run_streaks(options, "xxxxxxxxx", cards) == [0, 0, 0, 0, 0, 0, 0, 0, 10]
    assert run_streaks(options, ".........", cards) == [0, 0, 0, 0, 0, 0, 0, 0, -10]


def test_excluded_one_card_deals_neither_extend_nor_break_a_run() -> None:
    # 8-1-8: the run goes on across the central one-card deals.
    options = RuleOptions(streak_bonus=Streak(5, 10), streaks_count_one_card_deals=False)
    cards = [3, 2, 1, 1, 1, 2, 3]

    assert run_streaks(options, "xx...xx", cards) == [0, 0, 0, 0, 0, 0, 0]
    assert run_streaks(options, "xx...xxx", [*cards, 4]) == [0] * 7 + [10]


def test_counted_one_card_deals_count_like_any_other() -> None:
    options = RuleOptions(streak_bonus=Streak(5, 10))

    assert run_streaks(options, "xxxxx", [1, 1, 1, 1, 2]) == [0, 0, 0, 0, 10]


def test_no_streak_options_earn_nothing() -> None:
    assert run_streaks(RuleOptions(), "x" * 12) == [0] * 12


def test_places_share_ties_and_skip_the_next_place() -> None:
    assert places([10, 7, 7, 3]) == (1, 2, 2, 4)
    assert places([5, 5, 5]) == (1, 1, 1)
    assert places([-3, 12, 0, 12, -3]) == (4, 1, 3, 1, 4)


def test_a_successful_zero_player_wins_above_every_score() -> None:
    assert places([30, 0, 12, 0], winners=[1]) == (2, 1, 3, 4)
    assert places([30, 0, 0], winners=[1, 2]) == (3, 1, 1)


@pytest.mark.parametrize("scoring", list(Scoring))
def test_missing_by_one_always_costs_one_point(scoring: Scoring) -> None:
    for bid, cards in itertools.product(range(8), range(1, 9)):
        if bid < cards:
            assert hand_points(scoring, bid, bid + 1, cards) == -1
