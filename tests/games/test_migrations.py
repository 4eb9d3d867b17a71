"""Data migrations of the games' read model."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.commands.actions import game_create
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.migrations import as_the_migrations_run


@pytest.mark.django_db(transaction=True)
def test_games_from_before_the_delay_column_take_their_delay_from_their_log() -> None:
    # Given a table whose spectators lag 300 s and one without a delay, then the
    # schema as it was before the read model kept the delay
    creator = UserFactory.create()
    delayed = game_create(
        creator=creator, player_count=4, preset="championship", spectator_delay=300
    )
    plain = game_create(creator=creator, player_count=4, preset="championship")
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0010_storedevent_to_eventlog")])

        # When the migration adds the column
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then each game has the delay its GameCreated gave it
    assert dict(Game.objects.values_list("id", "spectator_delay")) == {
        delayed.id: 300,
        plain.id: 0,
    }
