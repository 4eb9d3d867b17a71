"""The bot arena: duplicate sets replay the same deals with the lineup rotated,
and the script reports every figure. The bots' strength is measured only by
running the arena, never asserted here."""

import pytest

from bench.arena import Task, lineup_for, main, play, rotations


def test_a_lineup_fills_the_table_and_rotates_through_every_distinct_seating() -> None:
    assert lineup_for(["strong", "heuristic"], 4) == ("strong", "heuristic", "strong", "heuristic")
    assert rotations(("strong", "heuristic", "strong", "heuristic")) == [
        ("strong", "heuristic", "strong", "heuristic"),
        ("heuristic", "strong", "heuristic", "strong"),
    ]
    assert len(rotations(lineup_for(["medium", "heuristic", "heuristic"], 5))) == 5


def test_the_games_of_a_set_deal_the_same_cards_whatever_the_rotation() -> None:
    # Four heuristic bots (which break no tie at random) play the same game
    # when the deals are the same: only the set, never the rotation, picks them.
    lineup = ("heuristic",) * 4
    first = play(Task("championship", 4, 3, 0, lineup, "test"))
    second = play(Task("championship", 4, 3, 1, lineup, "test"))
    other_set = play(Task("championship", 4, 4, 0, lineup, "test"))

    assert first.totals == second.totals
    assert first.exact == second.exact
    assert first.totals != other_set.totals
    assert first.hands == 32


def test_the_arena_reports_points_exact_bids_and_decision_times_per_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "--bots",
        "medium,heuristic",
        "--presets",
        "classic-app",
        "--players",
        "3",
        "--sets",
        "2",
    ]
    assert main(argv) == 0

    output = capsys.readouterr().out
    assert "6 games in 2 duplicate sets (3.0 rotations per set)" in output
    assert output.count(" [") >= 2
    assert "  medium " in output
    assert "  heuristic " in output
    assert "medium - heuristic: " in output
    assert " points per game, 95% CI [" in output
    assert "over 2 sets" in output
