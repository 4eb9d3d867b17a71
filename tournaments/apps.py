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
    from tournaments.models import TableResult
    from tournaments.tasks import advance_event, schedule_standings

    event_id = (
        TableResult.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
    )
    if event_id is None:
        return
    schedule_standings(event_id)
    if any(kind in FINISH_EVENTS for kind in types):
        advance_event.delay(str(event_id))
