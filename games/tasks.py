"""Celery tasks of the games: they take ids, are idempotent, and act only through
the write path."""

from __future__ import annotations

import uuid

from celery import shared_task

from games import services, turns
from games.errors import GameNotFound


@shared_task(ignore_result=True)
def play_automatic_move(game_id: str, version: int) -> int | None:
    """The bot's move for the seat to act, if the game is still at ``version``.

    Returns the new version, or None when the game had moved on (the seat acted,
    or this task already ran) or is gone (a task outliving a test database)."""
    try:
        result = services.game_play_automatically(
            game_id=uuid.UUID(game_id), expected_version=version
        )
    except GameNotFound:
        return None
    return None if result is None else result.version


@shared_task(ignore_result=True)
def resume_automatic_moves() -> int:
    """Celery beat's periodic check that no bot seat or overdue turn is left waiting."""
    return turns.resume_automatic_moves()
