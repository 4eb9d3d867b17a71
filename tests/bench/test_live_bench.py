"""The live bench's pure parts: the pace at a share of Atu's saturation rate, a
server's wait for a core, a mode's figures (the bench itself runs servers and sockets:
its figures are measured only by running it, never asserted)."""

import os
from pathlib import Path

import pytest

from bench.live import Figures, Window, pacing_interval, parse_args, waiting_seconds


def test_tables_paced_at_half_of_saturation_offer_half_of_its_plays_per_second() -> None:
    # Given 500 tables and a saturation of 1,000 plays/s, when paced at half of it
    interval = pacing_interval(500, 1000.0, 0.5)

    # Then each table moves once a second: 500 plays/s between them
    assert interval == 1.0
    assert 500 / interval == 500.0


def test_a_slower_machine_s_saturation_paces_the_same_tables_further_apart() -> None:
    assert pacing_interval(500, 475.0, 0.5) == pytest.approx(2.105263, abs=1e-6)
    assert pacing_interval(1000, 2000.0, 0.25) == 2.0


@pytest.mark.parametrize(
    ("tables", "rate", "fraction"), [(0, 1000.0, 0.5), (500, 0.0, 0.5), (500, 1000.0, 0.0)]
)
def test_no_pace_is_given_without_tables_a_saturation_rate_or_a_share(
    tables: int, rate: float, fraction: float
) -> None:
    with pytest.raises(ValueError, match="no pace for"):
        pacing_interval(tables, rate, fraction)


def test_the_bench_paces_at_half_of_saturation_by_default_and_zero_leaves_it_out() -> None:
    assert parse_args([]).of_saturation == 0.5
    assert parse_args(["--of-saturation", "0"]).of_saturation == 0.0
    with pytest.raises(SystemExit):
        parse_args(["--of-saturation", "-1"])


def test_a_process_that_is_gone_has_waited_for_no_core() -> None:
    # Given a pid no process has (above the kernel's largest)
    with open("/proc/sys/kernel/pid_max") as limit:
        gone = int(limit.read()) + 1

    # Then its wait for a core reads as none, not an error
    assert waiting_seconds(gone) == 0.0


def test_a_running_process_s_wait_for_a_core_is_the_kernel_s_schedstat_in_seconds() -> None:
    # Given this process's schedstat (ns on a core, ns waiting for one, time slices)
    pid = os.getpid()
    before = int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])

    # When read as seconds
    waited = waiting_seconds(pid)

    # Then it is the second field, which only grows
    after = int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
    assert before / 1e9 <= waited <= after / 1e9


def test_a_mode_s_figures_take_the_median_window_s_wait_and_the_worst_window_s_p99() -> None:
    # Given three windows of 10 s, the second with two moves never delivered
    windows = [Window(0.0, 10.0, [0.002] * 99 + [0.05], completed=100) for _ in range(3)]
    windows[1].lost = 2
    for window, waited in zip(windows, (5.0, 40.0, 10.0), strict=True):
        window.waited = waited

    # When summed up
    figures = Figures.of(windows)

    # Then the wait is the median window's, and the worst p99 is the lost moves'
    assert figures.waited == 10.0
    assert figures.rate == 10.0
    assert figures.p99_ms == 50.0
    assert figures.worst_p99_ms == float("inf")
