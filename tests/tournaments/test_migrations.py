"""Data migrations of the tournaments' read models."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrations import as_the_migrations_run
from tests.tournaments.drivers import SHORT_RULES, organizer
from tests.tournaments.test_drive import DRIVE_RULES
from tournaments import services
from tournaments.models import Event


@pytest.mark.django_db(transaction=True)
def test_events_from_before_the_kind_column_take_their_kind_from_their_log() -> None:
    # Given a whist drive and a Romanian championship, then the schema as it was
    # before events had a kind
    creator = organizer()
    drive = services.event_create(
        organizer=creator, name="Drive", kind="classic", options=DRIVE_RULES
    )
    cup = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("tournaments", "0001_initial")])

        # When the migration adds the column
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then each event has the kind its EventCreated gave it
    assert dict(Event.objects.values_list("id", "kind")) == {
        drive.id: "classic",
        cup.id: "romanian",
    }
