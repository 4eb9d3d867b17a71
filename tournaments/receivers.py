"""What the championships do on hearing of a game or a championship that moved on;
connected by ``TournamentsConfig.ready``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.table import FINISH_EVENTS
from tournaments.championship import (
    ChampionshipEvent,
    EventFinished,
    ResultCorrected,
    RoundExtended,
    RoundStarted,
)
from tournaments.models import Event
from tournaments.projections.standings import SCORE_EVENTS
from tournaments.selectors import event_of_game
from tournaments.tasks import (
    advance_event,
    follow_demo_event,
    record_player_games,
    schedule_round_clock,
    schedule_standings,
    update_season,
)


def game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A hand scored or a game finished at an event's table: its standings are due,
    and the next round of an event that advances by itself may be."""
    if not any(kind in SCORE_EVENTS for kind in types):
        return
    event_id = event_of_game(game_id)
    if event_id is None:
        return
    schedule_standings(event_id)
    if any(kind in FINISH_EVENTS for kind in types):
        advance_event.delay(str(event_id))


def game_finished(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """Any game finished, at an event's table or not: its players' pages count it."""
    if any(kind in FINISH_EVENTS for kind in types):
        record_player_games.delay(str(game_id))


def championship_recorded(
    *, championship_id: uuid.UUID, events: list[ChampionshipEvent], **kwargs: Any
) -> None:
    """A round started or a result corrected: the championship's standings are due; a
    round with a time limit, or extended: its clock is set for then. It
    finished: its season's leaderboard counts it now, and a demo championship is
    followed by a new one, so that a visitor at any hour finds one in play (the task
    finds out whether it was one)."""
    if any(isinstance(event, RoundStarted | ResultCorrected) for event in events):
        schedule_standings(championship_id)
    for event in events:
        # A round extended: its clock is set for the new deadline; the one set for the
        # old finds the deadline moved and waits on (tasks.call_round_time).
        if isinstance(event, RoundStarted | RoundExtended) and event.ends_at is not None:
            number = event.number if isinstance(event, RoundStarted) else event.round
            left = datetime.fromisoformat(event.ends_at) - timezone.now()
            schedule_round_clock(str(championship_id), number, left.total_seconds())
    if any(isinstance(event, EventFinished) for event in events):
        season_id = (
            Event.objects.filter(pk=championship_id).values_list("season_id", flat=True).first()
        )
        if season_id is not None:
            update_season.delay(str(season_id))
        follow_demo_event.delay(str(championship_id))
