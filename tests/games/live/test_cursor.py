from __future__ import annotations

import uuid

import pytest

from games.live.cursor import Watch
from games.signals import game_recorded
from games.table import stream_of
from games.write import vault
from tests.games.drivers import seated_game

pytestmark = pytest.mark.django_db


def forget_vaults() -> None:
    with vault._VAULTS_LOCK:
        vault._VAULTS.clear()


def test_a_players_watch_of_a_playing_table_keeps_its_vault_for_the_moves_made_on_the_loop() -> (
    None
):
    # Given a started game whose vault this process has not read
    game_id, users = seated_game(3)
    forget_vaults()

    # When one of its players opens a watch of it
    watch = Watch.open(str(game_id), users[1].pk)

    # Then the vault is kept, every hand's secret of it
    assert watch.viewer.seat == 1
    kept = vault._VAULTS[stream_of(game_id)]
    assert sorted(kept) == list(range(len(watch.table.romanian_game.schedule)))


def test_a_spectators_watch_reads_no_vault() -> None:
    # Given a started game whose vault this process has not read
    game_id, _ = seated_game(3)
    forget_vaults()

    # When a spectator opens a watch of it
    watch = Watch.open(str(game_id), None)

    # Then no secret is read into memory
    assert watch.viewer.seat is None
    assert stream_of(game_id) not in vault._VAULTS


def test_a_players_watch_of_a_playing_table_runs_the_receivers_reads_a_spectators_not() -> None:
    # Given a started game, and a receiver that reads something of each game it hears of
    game_id, users = seated_game(3)
    read: list[uuid.UUID] = []
    game_recorded.listen(
        lambda **kwargs: None, types=[], dispatch_uid="test-watch", prepare=read.append
    )
    try:
        # When a spectator, then one of its players, open a watch of it
        Watch.open(str(game_id), None)
        Watch.open(str(game_id), users[1].pk)
    finally:
        game_recorded.disconnect(dispatch_uid="test-watch")

    # Then the receiver's read ran once, for the player, whose moves this process decides
    assert read == [game_id]
    # And, disconnected, it runs no more
    Watch.open(str(game_id), users[2].pk)
    assert read == [game_id]
