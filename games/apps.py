from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games.signals import game_recorded

        game_recorded.connect(_game_recorded, dispatch_uid="games-demo")


def _game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A demo table that finished is followed by a new one, so that a visitor at any
    hour finds one in play; the task finds out whether the game was one."""
    from games.signals import FINISH_EVENTS
    from games.tasks import follow_demo_table

    if any(kind in FINISH_EVENTS for kind in types):
        follow_demo_table.delay(str(game_id))
