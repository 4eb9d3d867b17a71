"""Celery tasks of the games: they take ids, are idempotent, and act only through
the write path.

A task that meets a database it cannot reach is retried with a growing delay; run
twice (a worker killed after its move committed, the message handed out again), it
finds the game moved on."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from eventlog import store
from games.commands import actions
from games.commands.chat import chat_forget_words
from games.errors import GameNotFound
from games.read.analysis import analyse
from games.table import stream_of
from games.write import automatic
from games.write import path as writepath
from games.write.tables import load_table
from runtime.tasks import RETRY_ON_DATABASE_ERRORS as RETRY


@shared_task(bind=True, ignore_result=True, **RETRY)
def play_automatic_move(
    self: Any, game_id: str, version: int, due: float | None = None
) -> int | None:
    """The bot's move for the seat to act, if the game is still at ``version``, once
    ``due`` (a time.time(); None: at once) has come.

    Returns the new version, or None when the game had moved on (the seat acted,
    or this task already ran), is gone (a task outliving a test database), or the
    move is not due yet (it is scheduled again, for when it is)."""
    if due is not None and due > time.time():
        automatic.schedule_task(game_id, version, due)
        return None
    try:
        result = actions.game_play_automatically(
            game_id=uuid.UUID(game_id), expected_version=version
        )
    except GameNotFound:
        return None
    if result is None and (
        self.request.retries or (self.request.delivery_info or {}).get("redelivered")
    ):
        _after_commit_again(uuid.UUID(game_id), version)
    return None if result is None else result.version


def _after_commit_again(game_id: uuid.UUID, version: int) -> None:
    """Handed out again after its worker died, or retried after a database error, the
    move found the game moved on: the earlier try may have made it and died between
    its commit and what the commit sets off (the sockets told, an event's standings
    due, the next move scheduled), or lost its connection as the commit was answered,
    and nobody else would do those. Each of those is idempotent: done again, from the log."""
    records = store.read(stream_of(game_id), after=version)
    if not records:
        automatic.reschedule_automatic_move(game_id)
        return
    table = load_table(game_id)
    began = table.moved_at
    writepath.after_the_commit(
        game_id, table, records, since=None if began is None else began.timestamp()
    )


@shared_task(ignore_result=True, **RETRY)
def resume_automatic_moves() -> int:
    """Celery beat's periodic check that no bot seat or overdue turn is left waiting."""
    return automatic.resume_automatic_moves()


@shared_task(ignore_result=True, **RETRY)
def follow_demo_table(game_id: str) -> str | None:
    """After a game finished: the next demo table, if it was one (see
    actions.game_follow_demo_table); run twice, the second finds the first's table.
    Returns the id of the demo table in play, or None."""
    followed = actions.game_follow_demo_table(game_id=uuid.UUID(game_id))
    return None if followed is None else str(followed[0].id)


# Acknowledged as it starts: niced beside live play, it can run longer than the broker
# waits for a message's acknowledgment, which would hand it to a second analysis worker
# meanwhile. One lost with its worker is asked again by the next viewer to look
# (games.read.analysis).
@shared_task(ignore_result=True, acks_late=False, **RETRY)
def analyse_game(game_id: str) -> float | None:
    """The finished game's analysis by the strong bot, kept as a read model (derived
    only: run twice, it finds it kept); its CPU seconds, None for a game not analysed.
    Routed to the analysis workers' queue (``CELERY_TASK_ROUTES``)."""
    analysis = analyse(uuid.UUID(game_id))
    return None if analysis is None else analysis.seconds


@shared_task(ignore_result=True, **RETRY)
def forget_old_words() -> int:
    """Beat's, every hour: the words said at the tables are kept
    ``ATU_CHAT_RETENTION_DAYS`` (run twice or late, it forgets what is older then)."""
    days = settings.ATU_CHAT_RETENTION_DAYS
    return chat_forget_words(before=timezone.now() - timedelta(days=days))
