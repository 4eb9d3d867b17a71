"""Read models rebuilt from the event log, which stays the only truth."""

from __future__ import annotations

import uuid

from django.db import transaction

from eventlog import store
from games.domain import STREAM_PREFIX, Table, fold
from games.models import Game
from games.services import project_game


def game_streams() -> list[tuple[uuid.UUID, str]]:
    """Every game's id and stream in the log, in stream order."""
    games = []
    for stream in store.streams(STREAM_PREFIX):
        try:
            games.append((uuid.UUID(stream.removeprefix(STREAM_PREFIX)), stream))
        except ValueError:
            continue  # not a game's stream
    return games


def rebuild_game_projections() -> int:
    """Drop every ``Game`` row and project each game again from its whole log, as
    the write path did: created when its first event was recorded, updated when its
    last was. Returns how many games were rebuilt."""
    with transaction.atomic():
        Game.objects.all().delete()
        games = game_streams()
        for game_id, stream in games:
            records = store.read(stream)
            table = fold(Table(), [record.event for record in records])
            project_game(
                game_id,
                table,
                updated_at=records[-1].recorded_at,
                created_at=records[0].recorded_at,
            )
    return len(games)
