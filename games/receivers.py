"""What the games do on hearing of a game that moved on; connected by
``GamesConfig.ready``."""

from __future__ import annotations

from typing import Any

from games.read.analysis import analysis_due
from games.table import FINISH_EVENTS
from games.tasks import follow_demo_table


def game_recorded(*, game_id: Any, types: list[str], **kwargs: Any) -> None:
    """A demo table that finished is followed by a new one, so that a visitor at any
    hour finds one in play; the task finds out whether the game was one. A finished
    game is analysed."""
    if any(kind in FINISH_EVENTS for kind in types):
        follow_demo_table.delay(str(game_id))
        analysis_due(game_id)
