"""The live bench's parts that run without its servers: the pace at a share of Atu's
saturation rate, a server's wait for a core, a mode's figures, the analysts' command
and processes, the games seeded for them (the bench itself runs servers, sockets and
analysts: its figures are measured only by running it, never asserted)."""

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from honcho.environ import parse_procfile

from bench.live import (
    ROOT,
    Figures,
    Window,
    analyst_command,
    pacing_interval,
    parse_args,
    process_tree,
    seed_finished_games,
    waiting_seconds,
)
from eventlog import store
from games.models import Game
from games.read.analysis import analysable
from games.table import Table, fold, stream_of


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


def test_a_mode_s_figures_with_analysts_beside_take_the_median_cores_and_every_analysis_kept() -> (
    None
):
    # Given three windows with analysts beside, each with their CPU and analyses kept
    windows = [
        Window(0.0, 10.0, [0.002] * 100, completed=100, cpu={"analysts": cpu}, analysed=kept)
        for cpu, kept in ((80.0, 1), (95.0, 0), (60.0, 2))
    ]

    # When summed up
    figures = Figures.of(windows)

    # Then the analysts' cores are the median window's, and their analyses all windows'
    assert figures.analysts_cores == 0.8
    assert figures.analysed == 3


def test_a_mode_s_figures_without_analysts_have_no_cores_or_analyses_of_theirs() -> None:
    figures = Figures.of([Window(0.0, 10.0, [0.002], completed=1, cpu={"servers": 5.0})])

    assert figures.analysts_cores is None
    assert figures.analysed is None


def test_the_bench_runs_no_analysts_by_default_and_gives_each_analyst_a_game() -> None:
    assert (parse_args([]).analysts, parse_args([]).analysed_games) == (0, 40)
    assert parse_args(["--analysts", "2", "--analysed-games", "2"]).analysts == 2
    with pytest.raises(SystemExit):
        parse_args(["--analysts", "3", "--analysed-games", "2"])
    with pytest.raises(SystemExit):
        parse_args(["--analysts", "-1"])


def test_the_first_analyst_runs_the_procfile_s_line_word_for_word_and_the_next_named_apart() -> (
    None
):
    # Given the Procfile's analyst line
    line = parse_procfile((ROOT / "Procfile").read_text()).processes["analyst"]
    words = shlex.split(line)

    # When the bench makes the commands of two analysts
    first, second = analyst_command(0), analyst_command(1)

    # Then the first is the line, niced, and the second differs by its node name only
    assert first == words
    assert first[:3] == ["nice", "-n", "10"]
    assert second == [word.replace("analyst@", "analyst-2@") for word in words]
    assert second[second.index("--hostname") + 1] == "analyst-2@%h"


def test_a_process_tree_holds_its_root_and_the_processes_the_root_started() -> None:
    # Given a child of this process
    child = subprocess.Popen(["sleep", "30"])
    try:
        # When this process's tree is read
        tree = process_tree([os.getpid()])
    finally:
        child.kill()
        child.wait()

    # Then it holds this process first, and the child
    assert tree[0] == os.getpid()
    assert child.pid in tree


@pytest.mark.django_db
def test_a_game_seeded_for_the_analysts_is_a_finished_game_they_analyse_with_its_table_events() -> (
    None
):
    # Given a game seeded for the analysts
    [game_id] = seed_finished_games(1)

    # When its log is read and folded
    records = store.read(stream_of(game_id))
    table = fold(Table(), [record.event for record in records])

    # Then it is a finished Championship game the analysis takes, seated and dealt as a
    # table's game is, every deal played and revealed, and its read model says so
    types = [record.type for record in records]
    assert table.status == "finished"
    assert analysable(table)
    assert table.preset == "championship"
    assert types[:6] == ["GameCreated", *["PlayerSeated"] * 4, "DealsCommitted"]
    assert len(table.romanian_game.results) == 32
    assert types.count("DealRevealed") == 32
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED


def test_a_window_that_carried_no_play_costs_no_finite_cpu_per_play() -> None:
    # Given a window whose servers worked and whose moves were all refused
    window = Window(0.0, 10.0, [], completed=0, cpu={"servers": 7.0})

    # Then its CPU per play is infinite: no ratio of it can meet a target
    assert window.server_ms_per_play() == float("inf")
    assert Window(0.0, 10.0, [], completed=100, cpu={"servers": 7.0}).server_ms_per_play() == 7.0
