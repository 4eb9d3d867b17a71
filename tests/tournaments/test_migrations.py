"""Data migrations of the tournaments' read models."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from eventlog import store
from tests.accounts.factories import UserFactory
from tests.migrations import as_the_migrations_run
from tests.tournaments.drivers import SHORT_RULES, event_round, organizer
from tests.tournaments.test_drive import DRIVE_RULES
from tournaments import services
from tournaments.championship import championship_stream
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


@pytest.mark.django_db(transaction=True)
def test_events_from_before_the_rounds_start_time_take_it_from_their_log() -> None:
    # Given an event whose round has started, and one still in registration, then the
    # schema as it was before events kept when their round started
    event, creator, _, _ = event_round(4, public=True)
    waiting = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)
    started = store.read(championship_stream(event.id), types=["RoundStarted"])[-1]
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("tournaments", "0003_model_names")])

        # When the migration adds the column
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then the started event's round started when its RoundStarted was recorded
    assert dict(Event.objects.values_list("id", "round_started_at")) == {
        event.id: started.recorded_at,
        waiting.id: None,
    }


@pytest.mark.django_db(transaction=True)
def test_events_from_before_the_schedule_count_their_entries_not_withdrawn() -> None:
    # Given an event of three entries, one withdrawn, and one of none, then the schema
    # as it was before events counted their entries
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)
    empty = services.event_create(organizer=creator, name="Goala", options=SHORT_RULES)
    players = UserFactory.create_batch(3)
    for player in players:
        services.event_register(event_id=event.id, actor=player)
    services.event_withdraw(event_id=event.id, actor=players[0])
    with as_the_migrations_run():
        executor = MigrationExecutor(connection)
        executor.migrate([("tournaments", "0008_event_deputies")])

        # When the migration adds the count
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    # Then each counts its entries not withdrawn, and neither has a start
    assert dict(Event.objects.values_list("id", "entered")) == {event.id: 2, empty.id: 0}
    assert set(Event.objects.values_list("starts_at", flat=True)) == {None}
