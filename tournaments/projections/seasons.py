"""A season's leaderboard and rating history, derived from its championships' standings
and tables (their read models)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection

from django.db import transaction

from tournaments import rating
from tournaments.models import Event, RatingChange, Season, SeasonStanding, Standing, TableResult


def season_leaderboard(
    season_id: uuid.UUID, without: Collection[uuid.UUID] = ()
) -> tuple[list[SeasonStanding], list[RatingChange]]:
    """A season's leaderboard (points for placings in its finished events but those
    ``without``) and its rating history (every table of those events, in order), from
    the read models of its events."""
    events = list(
        Event.objects.filter(
            season_id=season_id, status__in=[Event.Status.FINISHED, Event.Status.PUBLISHED]
        )
        .exclude(pk__in=list(without))
        .order_by("created_at", "id")
    )
    season_points: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    tables: list[rating.RatedTable] = []
    for event in events:
        ranked = list(Standing.objects.filter(event_id=event.id))
        for line in ranked:
            season_points[line.player_id] += rating.season_points(line.rank, len(ranked))
            played[line.player_id] += 1
            names[line.player_id] = line.name
        for row in TableResult.objects.filter(event_id=event.id, finished=True):
            tables.append(
                rating.RatedTable(
                    players=tuple(row.players),
                    scores=tuple(row.scores),
                    event=str(event.id),
                    round=str(row.round),
                    table=str(row.number),
                )
            )
    history = rating.rate_tables(tables)
    ratings = rating.current_ratings(history)
    order = sorted(
        season_points,
        key=lambda player: (
            -season_points[player],
            -ratings.get(player, rating.INITIAL_RATING),
            player,
        ),
    )
    leaderboard = []
    for player in order:
        rank = 1 + sum(1 for other in order if season_points[other] > season_points[player])
        leaderboard.append(
            SeasonStanding(
                season_id=season_id,
                player_id=player,
                name=names[player],
                rank=rank,
                points=season_points[player],
                rating=round(ratings.get(player, rating.INITIAL_RATING), 1),
                events=played[player],
            )
        )
    changes = [
        RatingChange(
            season_id=season_id,
            player_id=change.player,
            event_id=uuid.UUID(change.event),
            round=int(change.round),
            order=index,
            before=round(change.before, 2),
            after=round(change.after, 2),
        )
        for index, change in enumerate(history)
    ]
    return leaderboard, changes


def update_season(season_id: uuid.UUID) -> None:
    with transaction.atomic():
        # One update of a season at a time: two at once (the task asked for by an
        # event's finish and by its last standings) would each delete the rows the other
        # had not committed yet, and the second's insert would break the one row per
        # player.
        Season.objects.select_for_update().filter(pk=season_id).first()
        leaderboard, changes = season_leaderboard(season_id)
        SeasonStanding.objects.filter(season_id=season_id).delete()
        RatingChange.objects.filter(season_id=season_id).delete()
        SeasonStanding.objects.bulk_create(leaderboard)
        RatingChange.objects.bulk_create(changes)
