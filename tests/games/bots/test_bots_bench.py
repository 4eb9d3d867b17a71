"""Smoke test of the bots benchmark: the script runs and reports every figure.

Speed itself is measured only by running the benchmark, never asserted here.
"""

import pytest

from bench.bots import main


def test_bots_benchmark_runs_and_reports_each_bot_beside_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "1", "--repeat", "1"]) == 0

    output = capsys.readouterr().out
    assert "Bots benchmark: Python " in output
    assert " positions from 1 seeded 4-player 'championship' games " in output
    assert output.count(" decisions/s, median ") == 3
    assert output.count("x the baseline") == 2
    assert "bare baseline, random.choice(legal_plays(state)): " in output
    [verdict] = [line for line in output.splitlines() if "target:" in line]
    assert verdict.split(" -> ")[1].split()[0] in ("PASS", "FAIL")
