"""Smoke test of the analysis benchmark: the script runs and reports every figure.

Speed itself is measured only by running the benchmark, never asserted here.
"""

import pytest

from bench.analysis import main, played_game
from games.rules import HandScored


def test_the_game_reviewed_is_cut_after_the_deals_asked_for() -> None:
    events = played_game("heuristic", 3)

    assert sum(isinstance(event, HandScored) for event in events) == 3
    assert isinstance(events[-1], HandScored)


def test_analysis_benchmark_runs_and_reports_the_review_beside_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--deals", "1", "--repeat", "1"]) == 0

    output = capsys.readouterr().out
    assert "Analysis benchmark: Python " in output
    assert "1 deal(s) of a seeded 4-player 'championship' game played by heuristic" in output
    assert "  decisions evaluated: 3 (3 bids, 0 cards)" in output
    assert "  review_game: median " in output
    assert "  baseline, the strong bot deciding each once: median " in output
    [verdict] = [line for line in output.splitlines() if "target:" in line]
    assert verdict.split(" -> ")[1].split()[0] in ("PASS", "FAIL")
