"""Smoke test of the rules benchmark: the script runs and reports every figure.

Speed itself is measured only by running the benchmark, never asserted here.
"""

import pytest

from bench.rules import main


def test_rules_benchmark_runs_and_reports_every_measure_and_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "2", "--repeat", "1"]) == 0

    output = capsys.readouterr().out
    assert "Rules engine benchmark: Python " in output
    assert "gc enabled" in output
    assert "4 players, preset 'championship' (32 deals), 2 seeded random games x 1 runs" in output
    for line in (
        "decide + apply, owner path evolve(in_place=True): ",
        "decide + apply, copying path evolve(state, events) (for information): ",
        "play_random_game end to end, random move choice included (information): ",
    ):
        assert line in output
    assert output.count(" games/s, median ") == 3
    assert "target: median under 5 ms per game -> " in output
    assert "replay(events): " in output and " events/s " in output
    assert "bare loop over as many dicts: " in output
    assert "ratio replay/bare (median of per-run ratios): " in output
    assert "target: within 20x -> " in output
    verdicts = [line for line in output.splitlines() if "target:" in line]
    assert len(verdicts) == 2
    assert all(line.rstrip().split(" -> ")[1].split()[0] in ("PASS", "FAIL") for line in verdicts)
