"""Seating of championship rounds: table sizes, round 1, Swiss rounds, repeated tablemates.

The long test seats three rounds for every count from 3 to 60 players and writes
how many tablemates met again to ``test-artifacts/seating-repeats.txt``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    SeatingError,
    first_round,
    pairs,
    progressive_movement,
    record_meetings,
    swiss_round,
    table_sizes,
)

REPOSITORY = Path(__file__).resolve().parents[2]
REPORT = REPOSITORY / "test-artifacts" / "seating-repeats.txt"

Met = Mapping[frozenset[int], int]


def repeated_pairs(tables: Sequence[Sequence[int]], met: Met) -> int:
    """How many tablemate pairs in ``tables`` already met (each pair counted once)."""
    return sum(1 for pair in pairs(tables) if met.get(pair, 0) > 0)


def weighted_repeats(tables: Sequence[Sequence[int]], met: Met) -> int:
    """Pairs of tablemates that already met, each counted as often as it met."""
    return sum(met.get(pair, 0) for pair in pairs(tables))


def splits(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every split of ``players`` into tables of ``sizes`` (tables unordered), once."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        others_sizes = list(sizes)
        others_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tables in splits(left, others_sizes):
                yield [[first, *others], *tables]


def least_repeats(players: Sequence[int], sizes: Sequence[int], met: Met) -> int:
    """The fewest weighted repeats of any seating, by trying them all."""
    return min(weighted_repeats(tables, met) for tables in splits(players, sizes))


def pigeonhole_bound(sizes: Sequence[int], earlier_rounds: Sequence[int]) -> int:
    """A lower bound of the weighted repeats: at each table, for each earlier round
    of ``k`` tables, the players spread over those ``k`` tables as evenly as they can."""
    bound = 0
    for size in sizes:
        for tables in earlier_rounds:
            share, extra = divmod(size, tables)
            bound += extra * math.comb(share + 1, 2) + (tables - extra) * math.comb(share, 2)
    return bound


def assert_partition(tables: list[list[int]], players: Sequence[int], sizes: list[int]) -> None:
    assert sorted(p for table in tables for p in table) == sorted(players)
    assert [len(table) for table in tables] == sizes


# --- Table sizes ----------------------------------------------------------------------------

TABLES_OF_FOUR = {
    3: [3],
    4: [4],
    5: [5],
    6: [3, 3],
    7: [4, 3],
    8: [4, 4],
    9: [5, 4],
    10: [4, 3, 3],
    11: [4, 4, 3],
    12: [4, 4, 4],
    13: [5, 4, 4],
    14: [4, 4, 3, 3],
    15: [4, 4, 4, 3],
    16: [4, 4, 4, 4],
    17: [5, 4, 4, 4],
    18: [4, 4, 4, 3, 3],
    19: [4, 4, 4, 4, 3],
    20: [4, 4, 4, 4, 4],
}


@pytest.mark.parametrize(("players", "expected"), TABLES_OF_FOUR.items())
def test_tables_of_four_seat_every_count_from_3_to_20(players: int, expected: list[int]) -> None:
    assert table_sizes(players) == expected
    assert table_sizes(players, preferred=4) == expected


@pytest.mark.parametrize(
    ("players", "preferred", "expected"),
    [
        # Preferred 3: leftovers make one table of 4 or 5.
        (3, 3, [3]),
        (6, 3, [3, 3]),
        (7, 3, [4, 3]),
        (8, 3, [5, 3]),
        (11, 3, [5, 3, 3]),
        (12, 3, [3, 3, 3, 3]),
        # Preferred 5: a 6 or a 4 is one away; two 5s beat none.
        (6, 5, [6]),
        (7, 5, [4, 3]),
        (10, 5, [5, 5]),
        (11, 5, [6, 5]),
        (12, 5, [5, 4, 3]),
        (14, 5, [5, 5, 4]),
        # Preferred 6.
        (6, 6, [6]),
        (9, 6, [6, 3]),
        (10, 6, [6, 4]),
        (13, 6, [6, 4, 3]),
        (18, 6, [6, 6, 6]),
        (20, 6, [6, 6, 4, 4]),
    ],
)
def test_other_preferred_sizes_keep_as_many_tables_of_that_size_as_possible(
    players: int, preferred: int, expected: list[int]
) -> None:
    assert table_sizes(players, preferred) == expected


@pytest.mark.parametrize("players", [-1, 0, 1, 2])
def test_fewer_than_three_players_cannot_fill_a_table(players: int) -> None:
    with pytest.raises(SeatingError) as error:
        table_sizes(players)

    assert error.value.code == "too_few_players"
    assert error.value.message == f"a round needs at least 3 players to fill a table, not {players}"


@pytest.mark.parametrize("preferred", [0, 2, 7])
def test_a_preferred_size_outside_3_to_6_is_refused(preferred: int) -> None:
    with pytest.raises(SeatingError) as error:
        table_sizes(12, preferred)

    assert error.value.code == "invalid_table_size"
    assert error.value.message == f"a table seats 3 to 6 players, not {preferred}"


def seatable(players: int, sizes: Sequence[int]) -> bool:
    return players == 0 or any(
        size <= players and seatable(players - size, sizes) for size in sizes
    )


@settings(max_examples=300, deadline=None, derandomize=True)
@given(players=st.integers(3, 200), preferred=st.integers(3, 6))
def test_every_count_from_3_is_seated_at_tables_of_3_to_6(players: int, preferred: int) -> None:
    sizes = table_sizes(players, preferred)

    assert sum(sizes) == players
    assert all(3 <= size <= 6 for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # No seating has one more table of the preferred size.
    others = [size for size in range(3, 7) if size != preferred]
    more = players - (sizes.count(preferred) + 1) * preferred
    assert more < 0 or not seatable(more, others)


# --- Meetings -------------------------------------------------------------------------------


def test_pairs_lists_every_pair_of_tablemates_table_by_table() -> None:
    tables = [[1, 2, 3], [4, 5, 6, 7]]

    assert pairs(tables) == [
        frozenset({1, 2}),
        frozenset({1, 3}),
        frozenset({2, 3}),
        frozenset({4, 5}),
        frozenset({4, 6}),
        frozenset({4, 7}),
        frozenset({5, 6}),
        frozenset({5, 7}),
        frozenset({6, 7}),
    ]


def test_meetings_are_counted_once_per_round_and_repeats_once_per_pair() -> None:
    # Given two rounds in which 1 and 2 sat together both times.
    met: Counter[frozenset[int]] = Counter()
    record_meetings(met, [[1, 2, 3], [4, 5, 6]])
    record_meetings(met, [[1, 2, 4], [3, 5, 6]])

    # Then the pair counts twice; 3-5, 3-6 met in round 2 only; 5-6 twice.
    assert met[frozenset({1, 2})] == 2
    assert met[frozenset({5, 6})] == 2
    assert met[frozenset({3, 5})] == 1
    assert met[frozenset({1, 5})] == 0
    assert sum(met.values()) == 12

    # When a third round seats 1, 2 and 5, 6 together again and 3, 4 for the first time.
    tables = [[1, 2, 3], [4, 5, 6]]

    # Then two of its pairs (1-2, 5-6) already met, and 1-3, 2-3, 4-5, 4-6 too.
    assert repeated_pairs(tables, met) == 6
    assert weighted_repeats(tables, met) == 8
    assert repeated_pairs([[1, 5, 7], [2, 6, 8]], met) == 0


# --- Round 1 --------------------------------------------------------------------------------


def test_round_one_at_random_is_the_same_for_a_seed_whatever_the_order_of_players() -> None:
    players = list(range(1, 15))

    seated = first_round(players, sizes=[4, 4, 3, 3], rng=random.Random(7))
    again = first_round(players[::-1], sizes=[4, 4, 3, 3], rng=random.Random(7))
    other_seed = first_round(players, sizes=[4, 4, 3, 3], rng=random.Random(8))

    assert_partition(seated, players, [4, 4, 3, 3])
    assert again == seated
    assert other_seed != seated


def test_round_one_by_rating_seats_the_strongest_together_ties_by_id() -> None:
    # Given nine players, two tied at 1600, and one unrated (a late entry).
    ratings = {1: 1500.0, 2: 1700.0, 3: 1600.0, 4: 1450.0, 5: 1600.0, 6: 1800.0, 7: 1400.0}
    ratings |= {8: 1550.0}

    # When round 1 is seated by rating.
    tables = first_round(range(1, 10), sizes=[5, 4], rng=random.Random(0), ratings=ratings)

    # Then the five strongest sit at the first table, the unrated player last.
    assert tables == [[6, 2, 3, 5, 8], [1, 4, 7, 9]]


def test_bots_and_any_ids_are_just_players() -> None:
    tables = first_round([-3, -2, -1, 10, 20_000], sizes=[5], rng=random.Random(1))

    assert sorted(tables[0]) == [-3, -2, -1, 10, 20_000]


@pytest.mark.parametrize(
    ("players", "sizes", "code", "message"),
    [
        ([1, 2], [], "too_few_players", "a round needs at least 3 players to fill a table, not 2"),
        ([1, 2, 3, 4], [2, 2], "invalid_table_size", "a table seats 3 to 6 players, not 2"),
        ([*range(1, 8)], [7], "invalid_table_size", "a table seats 3 to 6 players, not 7"),
        (
            [1, 2, 3, 4, 5],
            [4],
            "sizes_mismatch",
            "every player sits at exactly one table: "
            "the tables seat 4, but 5 players are to be seated",
        ),
        (
            [1, 2, 3, 3],
            [4],
            "duplicate_player",
            "every player sits at exactly one table: player 3 is listed twice",
        ),
    ],
)
def test_a_seating_request_that_breaks_a_rule_is_refused(
    players: list[int], sizes: list[int], code: str, message: str
) -> None:
    seatings: list[Callable[[], object]] = [
        lambda: first_round(players, sizes=sizes, rng=random.Random(0)),
        lambda: swiss_round(players, sizes=sizes, standing={}, met={}, rng=random.Random(0)),
    ]
    for seat in seatings:
        with pytest.raises(SeatingError) as error:
            seat()

        assert error.value.code == code
        assert error.value.message == message


# --- Swiss rounds ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [9, 13, 30])
def test_without_earlier_meetings_the_top_table_holds_the_top_players(players: int) -> None:
    # Given standings 10, 20, 30, ... (two players tied), nobody met before.
    standing = {p: 10.0 * p for p in range(1, players + 1)}
    standing[2] = standing[3]
    sizes = table_sizes(players)

    # When a Swiss round is seated (small rounds exactly, 30 players by local search).
    tables = swiss_round(
        list(standing), sizes=sizes, standing=standing, met={}, rng=random.Random(1)
    )

    # Then the players by standing (ties by id) are cut into the tables, top first.
    order = [*range(players, 3, -1), 2, 3, 1]
    cut = list(itertools.accumulate(sizes, initial=0))
    assert tables == [order[start:end] for start, end in itertools.pairwise(cut)]


@pytest.mark.parametrize("players", [8, 16])
def test_a_repeat_is_avoided_by_the_smallest_move_between_adjacent_tables(players: int) -> None:
    # Given standings 1..n and only the two leaders having met.
    standing = {p: float(p) for p in range(1, players + 1)}
    met = {frozenset({players, players - 1}): 1}

    # When a Swiss round is seated at tables of 4.
    tables = swiss_round(
        list(standing), sizes=[4] * (players // 4), standing=standing, met=met, rng=random.Random(3)
    )

    # Then the second drops to the next table, whose best player moves up.
    n = players
    assert tables[0] == [n, n - 2, n - 3, n - 4]
    assert tables[1] == [n - 1, n - 5, n - 6, n - 7]
    assert [p for table in tables[2:] for p in table] == list(range(n - 8, 0, -1))


def test_late_entries_count_zero_and_withdrawn_players_are_simply_not_seated() -> None:
    # Given standings after round 1, player 5 withdrawn, a late entry (99) with none.
    standing = {1: 30.0, 2: 20.0, 3: 10.0, 4: 5.0, 5: 40.0, 6: -5.0, 7: -10.0}
    players = [1, 2, 3, 4, 6, 7, 99]

    # When round 2 is seated.
    tables = swiss_round(players, sizes=[4, 3], standing=standing, met={}, rng=random.Random(0))

    # Then the late entry sits between 5 points and -5.
    assert tables == [[1, 2, 3, 4], [99, 6, 7]]


def test_a_swiss_round_is_the_same_for_a_seed_whatever_the_order_of_players() -> None:
    # Given 40 players after a random round 1.
    rng = random.Random(5)
    players = list(range(1, 41))
    met: Counter[frozenset[int]] = Counter()
    record_meetings(met, first_round(players, sizes=table_sizes(40), rng=rng))
    standing = {p: float(rng.randint(-50, 100)) for p in players}

    def seat(order: list[int], seed: int) -> list[list[int]]:
        return swiss_round(
            order, sizes=table_sizes(40), standing=standing, met=met, rng=random.Random(seed)
        )

    assert seat(players, 1) == seat(players[::-1], 1)


def play_three_rounds(players: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Seat round 1 at random, rounds 2 and 3 Swiss, random scores after each round.

    Returns, per round, the repeated pairs, the weighted repeats, the fewest
    possible weighted repeats (by trying every seating up to 12 players, else the
    pigeonhole bound) and the pigeonhole bound.
    """
    rng = random.Random(players)
    ids = list(range(1, players + 1))
    sizes = table_sizes(players)
    met: Counter[frozenset[int]] = Counter()
    standing: Counter[int] = Counter()
    repeats: list[int] = []
    weighted: list[int] = []
    least: list[int] = []
    bound: list[int] = []
    for round_number in range(1, 4):
        if round_number == 1:
            tables = first_round(ids, sizes=sizes, rng=rng)
        else:
            tables = swiss_round(ids, sizes=sizes, standing=standing, met=met, rng=rng)

        # Everyone seated exactly once, at tables of table_sizes(n), every one 3 to 6.
        assert_partition(tables, ids, sizes)
        assert all(3 <= len(table) <= 6 for table in tables)

        repeats.append(repeated_pairs(tables, met))
        weighted.append(weighted_repeats(tables, met))
        bound.append(pigeonhole_bound(sizes, [len(sizes)] * (round_number - 1)))
        least.append(least_repeats(ids, sizes, met) if players <= 12 else bound[-1])
        record_meetings(met, tables)
        for p in ids:
            standing[p] += rng.randint(-50, 100)
    return repeats, weighted, least, bound


def test_every_count_from_3_to_60_is_seated_for_three_rounds_with_the_fewest_repeats() -> None:
    # Given every count of players from 3 to 60, tables of 4.
    lines = [
        "Repeated tablemates over 3 rounds: round 1 at random, rounds 2-3 Swiss,",
        "tables of 4 (table_sizes), random scores after each round, seed = n.",
        "repeats: pairs that already met; weighted: each counted as often as it met;",
        "least: the fewest weighted repeats possible (every seating tried up to",
        "n = 12, else the pigeonhole bound: no seating can do better).",
        "",
        f"{'n':>3}  {'tables':<34}{'repeats':>10}{'weighted':>12}{'least':>10}",
    ]
    for players in range(3, 61):
        # When three rounds are seated.
        repeats, weighted, least, bound = play_three_rounds(players)
        sizes = " ".join(map(str, table_sizes(players)))
        lines.append(
            f"{players:>3}  {sizes:<34}{'/'.join(map(str, repeats)):>10}"
            f"{'/'.join(map(str, weighted)):>12}{'/'.join(map(str, least)):>10}"
        )

        # Then round 1 repeats nobody, and rounds 2 and 3 repeat the fewest
        # possible: the optimum of every seating up to 12 players, the pigeonhole
        # bound above, which is 0 from 14 players on but for 17 (a table of 5
        # with players from only four tables of the round before).
        assert repeats[0] == 0
        assert weighted == least, players
        assert all(fewest >= lower for fewest, lower in zip(least, bound, strict=True))
        if players >= 14 and players != 17:
            assert repeats == [0, 0, 0], players

    report = "\n".join(lines) + "\n"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(report)
    print(report)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    players=st.sets(st.integers(-1_000, 100_000), min_size=3, max_size=120),
    preferred=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_every_seating_is_a_partition_into_the_table_sizes(
    players: set[int], preferred: int, seed: int, data: st.DataObject
) -> None:
    # Given any players, some standings, some earlier meetings.
    ids = sorted(players)
    sizes = table_sizes(len(ids), preferred)
    rng = random.Random(seed)
    standing = {p: float(rng.randint(-100, 100)) for p in ids if rng.random() < 0.9}
    met = Counter(
        frozenset(pair)
        for pair in data.draw(
            st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=300)
        )
        if pair[0] != pair[1]
    )

    # When round 1 and a Swiss round are seated.
    shuffled = first_round(ids, sizes=sizes, rng=rng)
    rated = first_round(ids, sizes=sizes, rng=rng, ratings=standing)
    swiss = swiss_round(ids, sizes=sizes, standing=standing, met=met, rng=rng)

    # Then each seats everyone exactly once at tables of the given sizes.
    for tables in (shuffled, rated, swiss):
        assert_partition(tables, ids, sizes)


# --- whist drives: the progressive movement ---------------------------------------------------


def test_progressive_winners_move_up_the_top_losers_go_to_the_foot_and_partners_change() -> None:
    # Given three tables; the seats 0 and 2 pair wins at tables 1 and 3, the other at 2
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]

    # When they move
    moved = progressive_movement(tables, [0, 1, 0])

    # Then table 1 keeps its winners (1, 3) and gets table 2's (6, 8); table 2 keeps
    # its losers (5, 7) and gets table 3's winners (9, 11); the last table keeps its
    # losers (10, 12) and gets table 1's (2, 4); each stayer partners an arrival
    assert moved == [[1, 3, 6, 8], [5, 7, 9, 11], [10, 12, 2, 4]]
    before = {frozenset((t[s], t[s + 2])) for t in tables for s in (0, 1)}
    after = {frozenset((t[s], t[s + 2])) for t in moved for s in (0, 1)}
    assert after == {frozenset(p) for p in [(1, 6), (3, 8), (5, 9), (7, 11), (10, 2), (12, 4)]}
    assert before.isdisjoint(after)


def test_progressive_with_two_tables_and_with_one() -> None:
    assert progressive_movement([[1, 2, 3, 4], [5, 6, 7, 8]], [1, 0]) == [
        [2, 4, 5, 7],
        [6, 8, 1, 3],
    ]
    # One table: the pairs split, each winner partnering a loser.
    assert progressive_movement([[1, 2, 3, 4]], [1]) == [[2, 4, 1, 3]]


@pytest.mark.parametrize(
    ("tables", "winners", "message"),
    [
        ([[1, 2, 3, 4, 5]], [0], "a whist drive's table seats 4 players, not 5"),
        ([[1, 2, 3]], [0], "a whist drive's table seats 4 players, not 3"),
        ([[1, 2, 3, 4]], [2], "a side is 0 or 1, not 2"),
        ([[1, 2, 3, 4]], [], "every table needs its winning side"),
    ],
)
def test_progressive_needs_tables_of_four_and_a_winning_side_each(
    tables: list[list[int]], winners: list[int], message: str
) -> None:
    with pytest.raises(SeatingError, match=message):
        progressive_movement(tables, winners)
