from functools import lru_cache
from typing import Any

from django.apps import AppConfig

# The events whose arrival changes an event's standings (see tournaments.standings).
SCORE_EVENTS = ("HandScored", "GameFinished", "classic.HandScored", "classic.MatchFinished")
# The events that end a game, Romanian or classic.
FINISH_EVENTS = ("GameFinished", "classic.MatchFinished")


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import game_recorded

        game_recorded.connect(_game_recorded, dispatch_uid="tournaments-standings")


def _game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A hand scored or a game finished at an event's table: its standings are due,
    and the next round of an event that advances by itself may be."""
    if not any(kind in SCORE_EVENTS for kind in types):
        return
    from tournaments.tasks import advance_event, schedule_standings

    event_id = _event_of(game_id)
    if event_id is None:
        return
    schedule_standings(event_id)
    if any(kind in FINISH_EVENTS for kind in types):
        advance_event.delay(str(event_id))


# Which event a game is played in never changes, and is known from its first event on:
# an event's table row commits with its game's first events (event_start_round), and
# a rebuild replaces the rows in one transaction. So it is read once per game, not
# once per hand scored (most games are in no event, and each hand would ask again).
@lru_cache(maxsize=16384)
def _event_of(game_id: Any) -> Any:
    from tournaments.models import TableResult

    return TableResult.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
