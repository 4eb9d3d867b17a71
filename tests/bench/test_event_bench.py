"""The event bench's pure parts: the deals it writes down, how it tells when a scored
deal reached the sockets, the CPU per update, and the baseline's leaderboard (the
bench itself runs servers, a worker and sockets: its figures are measured only by
running it, never asserted)."""

import json
import random

import pytest

from bench.event import Board, Scored, Window, parse_args, room_deal
from bench.event_baseline import deal_points, leaderboard
from games.rules import PRESETS, GameFinished, HandScored, Phase, RecordDeal
from tests.games.rules.builders import run, started


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_the_deals_the_bench_writes_down_make_a_whole_championship_table_the_rules_accept(
    first_dealer: int,
) -> None:
    # Given a table in the room of the Championship preset
    state = started(4, PRESETS["championship"], first_dealer, recorded=True)
    rng = random.Random(first_dealer)

    # When each of its deals is written down as the bench writes them
    commands = [
        RecordDeal(
            hand, *map(tuple, room_deal(rng, spec.cards, (first_dealer + hand) % 4)), hand % 4
        )
        for hand, spec in enumerate(state.schedule)
    ]
    state, events = run(state, *commands)

    # Then every deal is scored and the game is over
    assert len([event for event in events if isinstance(event, HandScored)]) == 32
    assert isinstance(events[-1], GameFinished)
    assert state.phase is Phase.FINISHED


def picture(**scored: int) -> list[dict[str, object]]:
    return [{"game_id": table, "hands_scored": count} for table, count in scored.items()]


def test_a_picture_brings_a_socket_each_deal_it_shows_scored_once() -> None:
    # Given a socket whose last picture showed table A at 1 deal scored, B at 0
    board = Board()
    seen = {"A": 1, "B": 0}

    # When a picture shows A at 3, then the same picture comes again, then B at 1
    board.took(seen, picture(A=3, B=0), 10.0)
    board.took(seen, picture(A=3, B=0), 11.0)
    board.took(seen, picture(A=3, B=1), 12.0)

    # Then A's 2nd and 3rd deals reached it at 10, B's 1st at 12: two updates
    assert board.reached == {("A", 2): [10.0], ("A", 3): [10.0], ("B", 1): [12.0]}
    assert seen == {"A": 3, "B": 1}
    assert board.updates == 2


def test_a_deal_counts_by_the_last_socket_it_reached_and_one_missing_makes_it_late() -> None:
    # Given a window, and two deals committed at 100.0 on an event of 3 sockets
    window = Window(99.0, 109.0)
    everywhere = Scored("A", 1, 100.0, "room")
    missing = Scored("B", 4, 100.0, "online")

    # When the first reached the 3 sockets at 100.2, 100.5 and 101.5, the second 2 of them
    window.count(everywhere, [100.2, 100.5, 101.5], 3)
    window.count(missing, [100.3, 100.4], 3)

    # Then the first took 1.5 s, the second never came everywhere; 4 of 6 pairs in 1 s
    assert window.latencies == pytest.approx([1.5, float("inf")])
    assert window.firsts == pytest.approx([0.2, 0.3])
    assert window.lost == 1
    assert dict(window.deals) == {"room": 1, "online": 1}
    assert window.on_time_share() == pytest.approx(4 / 6)


def test_the_cpu_per_update_is_the_window_s_cpu_seconds_over_its_updates() -> None:
    # Given a window of 20 s where the servers used 150% of a core and the worker 10%,
    # and each socket got 4 updates
    window = Window(0.0, 20.0, updates=4.0, cpu={"servers": 150.0, "worker": 10.0})

    # Then the servers spent 30 s of CPU: 7.5 s an update; the worker 0.5 s
    assert window.ms_per_update("servers") == 7500.0
    assert window.ms_per_update("worker") == 500.0
    assert window.ms_per_update("celery beat") is None
    assert Window(0.0, 20.0, cpu={"servers": 150.0}).ms_per_update("servers") is None


def test_the_baseline_s_leaderboard_shows_each_table_s_deals_as_atu_s_picture_does() -> None:
    # Given the standings rows of two tables, one 3 deals in, one 1
    rows = [(7, "A", 12, 3), (8, "B", 6, 1), (9, "A", -2, 3)]

    # When the baseline sends its leaderboard, and a socket that saw nothing takes it
    message = json.loads(leaderboard(rows, 5))
    board = Board()
    board.took({}, message["event"]["tables"], 1.0)

    # Then it ranks the players and brings every deal scored, as a picture would
    assert message["type"] == "event"
    assert [line["player_id"] for line in message["event"]["leaderboard"]] == [7, 8, 9]
    assert sorted(board.reached) == [("A", 1), ("A", 2), ("A", 3), ("B", 1)]


def test_the_baseline_scores_an_exact_bid_5_and_the_bid_and_a_miss_by_its_distance() -> None:
    assert deal_points([2, 0, 1, 3], [2, 1, 1, 0]) == [7, -1, 6, -3]


def test_the_bench_needs_a_table_in_the_room_and_one_online() -> None:
    assert (parse_args([]).tables, parse_args([]).sockets) == (100, 2000)
    with pytest.raises(SystemExit):
        parse_args(["--tables", "1"])
