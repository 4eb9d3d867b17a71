"""The championships' read models, dropped and rebuilt from the log."""

from __future__ import annotations

import uuid

from django.db import transaction

from eventlog import store
from tournaments import standings
from tournaments.championship import (
    CHAMPIONSHIP_STREAM_PREFIX,
    SEASON_STREAM_PREFIX,
    Championship,
    SeasonCreated,
    fold,
)
from tournaments.models import (
    Entry,
    Event,
    RatingChange,
    Season,
    SeasonStanding,
    Standing,
    TableResult,
)
from tournaments.services import event_finish, project_event


def rebuild_standings() -> tuple[int, int]:
    """Drop every season, event, entry, table, standing and rating row and derive them
    again from the streams, as the write path and the tasks did. Returns how many
    events and seasons were rebuilt."""
    standings.forget_tables()
    with transaction.atomic():
        for model in (RatingChange, SeasonStanding, Standing, TableResult, Entry, Event, Season):
            model.objects.all().delete()
        seasons = store.streams(SEASON_STREAM_PREFIX)
        for stream in seasons:
            first = store.read(stream)[0]
            created = first.event
            assert isinstance(created, SeasonCreated)
            Season.objects.create(
                id=uuid.UUID(stream.removeprefix(SEASON_STREAM_PREFIX)),
                name=created.name,
                organizer_id=created.organizer_id,
                created_at=first.recorded_at,
            )
        events = store.streams(CHAMPIONSHIP_STREAM_PREFIX)
        for stream in events:
            event_id = uuid.UUID(stream.removeprefix(CHAMPIONSHIP_STREAM_PREFIX))
            records = store.read(stream)
            championship = fold(Championship(), [r.event for r in records])
            project_event(
                event_id,
                championship,
                updated_at=records[-1].recorded_at,
                created_at=records[0].recorded_at,
            )
            standings.update_event_standings(event_id)
            # An event whose last table finished before the log recorded the finish
            # (as it did until EventFinished) has it recorded now; any other, nothing.
            event_finish(event_id=event_id)
        for stream in seasons:
            standings.update_season(uuid.UUID(stream.removeprefix(SEASON_STREAM_PREFIX)))
    return len(events), len(seasons)
