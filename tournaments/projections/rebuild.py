"""The championships' read models, dropped and derived again from the log. A rebuild
reads the streams and writes the projections; it appends nothing (a championship's
finish is recorded by ``tournaments.services.event_finish``, decision 3201)."""

from __future__ import annotations

import uuid

from django.db import transaction

from eventlog import store
from tournaments.championship import (
    CHAMPIONSHIP_STREAM_PREFIX,
    SEASON_STREAM_PREFIX,
    Championship,
    SeasonCreated,
    fold_records,
)
from tournaments.models import (
    Deputy,
    Entry,
    Event,
    RatingChange,
    Season,
    SeasonStanding,
    Standing,
    TableResult,
)
from tournaments.projections import seasons, standings
from tournaments.projections.event import project_event


def rebuild_standings() -> tuple[int, int]:
    """Drop every season, championship, entry, deputy, table, standing and rating row and derive
    them again from the streams, as the write path and the tasks did. Returns how many
    championships and seasons were rebuilt."""
    standings.forget_tables()
    with transaction.atomic():
        for model in (
            RatingChange,
            SeasonStanding,
            Standing,
            TableResult,
            Deputy,
            Entry,
            Event,
            Season,
        ):
            model.objects.all().delete()
        season_streams = store.streams(SEASON_STREAM_PREFIX)
        for stream in season_streams:
            first = store.read(stream)[0]
            created = first.event
            assert isinstance(created, SeasonCreated)
            Season.objects.create(
                id=uuid.UUID(stream.removeprefix(SEASON_STREAM_PREFIX)),
                name=created.name,
                organizer_id=created.organizer_id,
                created_at=first.recorded_at,
            )
        championship_streams = store.streams(CHAMPIONSHIP_STREAM_PREFIX)
        for stream in championship_streams:
            championship_id = uuid.UUID(stream.removeprefix(CHAMPIONSHIP_STREAM_PREFIX))
            records = store.read(stream)
            project_event(
                championship_id,
                fold_records(Championship(), records),
                updated_at=records[-1].recorded_at,
                created_at=records[0].recorded_at,
            )
            standings.update_event_standings(championship_id)
        for stream in season_streams:
            seasons.update_season(uuid.UUID(stream.removeprefix(SEASON_STREAM_PREFIX)))
    return len(championship_streams), len(season_streams)
