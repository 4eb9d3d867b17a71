"""The live bench's pace at a share of Atu's saturation rate (the bench itself runs
servers and sockets: its figures are measured only by running it, never asserted)."""

import pytest

from bench.live import pacing_interval, parse_args


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
