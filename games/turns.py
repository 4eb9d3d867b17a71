"""Automatic moves: a bot seat's turn, or a seat whose turn timer ran out, is played
by a bot through the one write path, after a delay.

Each scheduled move names the game and the version it was scheduled at; run late,
twice, or after the seat acted itself, it finds the game moved on and does nothing.
With a broker the delay is a Celery countdown; embedded, where Celery runs tasks
eagerly, a timer thread of the server process waits instead.
"""

from __future__ import annotations

import threading
import uuid

from django.conf import settings

from games.domain import Table


def automatic_move_delay(table: Table) -> float | None:
    """Seconds until the seat to act is played by a bot, or None if nobody will be."""
    seat = table.to_act
    if seat is None or table.paused:
        return None
    if table.bots and table.bots[seat] is not None:
        return float(settings.ATU_BOT_DELAY_SECONDS)
    if table.turn_seconds:
        return float(table.turn_seconds)
    return None


def schedule_automatic_move(game_id: uuid.UUID, table: Table) -> None:
    """Arrange for the bot to act if the game is still at this version after the delay."""
    delay = automatic_move_delay(table)
    if delay is None:
        return
    from games.tasks import play_automatic_move

    arguments = (str(game_id), table.version)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        timer = threading.Timer(delay, _run_in_thread, arguments)
        timer.daemon = True
        timer.start()
    else:
        play_automatic_move.apply_async(arguments, countdown=delay)


def _run_in_thread(game_id: str, version: int) -> None:
    from django.db import connections

    from games.tasks import play_automatic_move

    try:
        play_automatic_move(game_id, version)
    finally:
        connections.close_all()


def resume_automatic_moves() -> int:
    """Schedule the automatic move of every game in play that waits for one: after a
    restart (timer threads die with their process) or as a periodic safety net.
    Returns how many games were scheduled; a move scheduled twice is made once."""
    from games.models import Game
    from games.selectors import load_table

    scheduled = 0
    for game_id in Game.objects.filter(status=Game.Status.PLAYING).values_list("id", flat=True):
        table = load_table(game_id)
        if automatic_move_delay(table) is not None:
            schedule_automatic_move(game_id, table)
            scheduled += 1
    return scheduled
