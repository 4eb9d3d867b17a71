from typing import Any

from django.apps import AppConfig

# The events whose arrival changes an event's standings (see tournaments.standings).
SCORE_EVENTS = ("HandScored", "GameFinished", "classic.HandScored", "classic.MatchFinished")
# The events that end a game, Romanian or classic.
FINISH_EVENTS = ("GameFinished", "classic.MatchFinished")


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.selectors import add_table_home
        from games.signals import game_recorded
        from games.visibility import Audience, add_audience
        from tournaments.selectors import hidden_tables, may_view_table, table_home

        game_recorded.connect(_game_recorded, dispatch_uid="tournaments-standings")
        # A private event's tables are for its organizer and entrants only.
        add_audience(Audience(hidden=hidden_tables, allows=may_view_table))
        # A game of an event's table links back to it, and offers no rematch.
        add_table_home(table_home)


def _game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A hand scored or a game finished at an event's table: its standings are due,
    and the next round of an event that advances by itself may be."""
    if not any(kind in SCORE_EVENTS for kind in types):
        return
    from tournaments.selectors import event_of_game
    from tournaments.tasks import advance_event, schedule_standings

    event_id = event_of_game(game_id)
    if event_id is None:
        return
    schedule_standings(event_id)
    if any(kind in FINISH_EVENTS for kind in types):
        advance_event.delay(str(event_id))
