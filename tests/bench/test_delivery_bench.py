"""Smoke test of the delivery benchmark's replays (the script itself makes its own
test database): speed is measured only by running the benchmark, never asserted."""

import pytest

from bench.delivery import VIEWERS, broadcasts, replay_atu, replay_baseline
from bench.write_path import play_game
from games.models import Game

pytestmark = pytest.mark.django_db


def test_each_broadcast_of_a_game_reaches_every_viewer_in_order_and_the_baseline_matches_its_bytes() -> (  # noqa: E501
    None
):
    # Given a whole game, cut into the broadcasts its commands made
    play_game(0, lambda: None)
    game = Game.objects.get()
    start, rows = broadcasts(game.id)
    users = [seat.user_id for seat in start.seats if seat is not None] + [None]

    # When they are handed to the game's five viewers, and the baseline makes as many
    sizes = replay_atu(game.id, start, users, rows)
    made = replay_baseline(rows, sizes)

    # Then every viewer got every broadcast, and the baseline's messages weigh the same
    assert start.status == "playing"
    assert "GameFinished" in [row[1] for row in rows[-1]]
    assert len(sizes) == len(rows) * VIEWERS
    assert made == sizes


def test_a_replay_brings_each_viewer_the_events_after_the_first_deal() -> None:
    # Given a whole game's broadcasts
    play_game(1, lambda: None)
    game = Game.objects.get()
    start, rows = broadcasts(game.id)

    # Then they follow the table they start from without a gap
    sequences = [row[0] for broadcast in rows for row in broadcast]
    assert sequences == list(range(start.version + 1, start.version + 1 + len(sequences)))
