from typing import Any

from django.apps import AppConfig

# The events whose arrival changes an event's standings (see tournaments.standings).
SCORE_EVENTS = ("HandScored", "GameFinished", "classic.HandScored", "classic.MatchFinished")


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import game_recorded
        from games.visibility import Audience, add_audience
        from tournaments.selectors import hidden_tables, may_view_table
        from tournaments.signals import event_finished

        game_recorded.connect(_game_recorded, dispatch_uid="tournaments-standings")
        event_finished.connect(_event_finished, dispatch_uid="tournaments-demo")
        # A private event's tables are for its organizer and entrants only.
        add_audience(Audience(hidden=hidden_tables, allows=may_view_table))


def _game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A hand scored or a game finished at an event's table: its standings are due,
    and the next round of an event that advances by itself may be."""
    if not any(kind in SCORE_EVENTS for kind in types):
        return
    from games.signals import FINISH_EVENTS
    from tournaments.selectors import event_of_game
    from tournaments.tasks import advance_event, schedule_standings

    event_id = event_of_game(game_id)
    if event_id is None:
        return
    schedule_standings(event_id)
    if any(kind in FINISH_EVENTS for kind in types):
        advance_event.delay(str(event_id))


def _event_finished(*, event_id: Any, **kwargs: Any) -> None:
    """The demo championship that finished is followed by a new one, so that a
    visitor at any hour finds one in play."""
    from tournaments.tasks import follow_demo_event

    follow_demo_event.delay(str(event_id))
