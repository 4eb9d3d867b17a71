"""Automatic moves: a bot seat's turn, or a seat whose turn timer ran out, is played
by a bot through the one write path, after a delay.

Each scheduled move names the game, the version it was scheduled at and when it is
due; run late, twice, or after the seat acted itself, it finds the game moved on and
does nothing. With a broker the delay is a Celery countdown, never longer than
``MAX_COUNTDOWN``: a move due later waits in steps (the task, run early, schedules
itself again), because a message held longer than the broker's visibility timeout
would be handed out again. Embedded, where Celery runs tasks eagerly, a timer thread
of the server process waits instead.

A broker that does not take the message (Redis paused, down or restarting) does not
stop the table: the process that scheduled the move makes it itself, from a timer
thread as embedded does, and keeps doing so without asking the broker again for a
while (:data:`BROKER_RESTING_SECONDS`). A server process sends from a thread of its
loop's executor, never from the thread that wrote the move: a broker that holds a
send for its socket timeout must not hold the one thread that serves every socket's
database work (decision 3101). A message that the broker took after all runs too, and
finds the game moved on.

The task that makes the move (``games.tasks.play_automatic_move``) acts through the
commands, a room above this one: it is found by its name in Celery's registry, which
the games app fills as it is ready (it imports its tasks), rather than imported.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid

from asgiref.sync import sync_to_async
from celery import Task, current_app
from django.conf import settings
from django.db import connections

from games.bots import DEFAULT_LEVEL
from games.models import Game
from games.table import Table
from games.write.tables import load_table
from runtime import lifespan
from runtime.tasks import VISIBILITY_TIMEOUT

MAX_COUNTDOWN = VISIBILITY_TIMEOUT / 2
# After the broker refused a send, how long this process makes its automatic moves
# itself before it asks the broker again.
BROKER_RESTING_SECONDS = 10.0

# The lifespan's: these lines tell what a server process did as it started.
logger = logging.getLogger("atu.lifespan")

PLAY_AUTOMATIC_MOVE = "games.tasks.play_automatic_move"


def _task() -> Task:
    return current_app.tasks[PLAY_AUTOMATIC_MOVE]


def automatic_move_delay(table: Table) -> float | None:
    """Seconds until the seat to act is played by a bot, or None if nobody will be."""
    seat = table.to_act
    if seat is None or table.paused:
        return None
    if table.bots and table.bots[seat] is not None:
        return float(settings.ATU_BOT_DELAY_SECONDS)
    timer = table.timer_seconds
    return None if timer is None else float(timer)


def stands_in(table: Table) -> bool:
    """Whether the automatic move due for the seat to act makes a bot stand in for its
    absent player (it plays the seat from then on, until they come back) rather than
    make one timed-out move: the table's stand-in time comes no later than its turn
    timer (decision 3406)."""
    seat, stand_in = table.to_act, table.stand_in_seconds
    if seat is None or not stand_in or (table.bots and table.bots[seat] is not None):
        return False
    return not table.turn_seconds or stand_in <= table.turn_seconds


def automatic_bot(table: Table, seat: int) -> str:
    """The bot that makes ``seat``'s automatic move: the seat's own, or the default
    level for a seat whose turn timer ran out."""
    return (table.bots[seat] if table.bots else None) or DEFAULT_LEVEL


def schedule_automatic_move(game_id: uuid.UUID, table: Table, since: float | None = None) -> None:
    """Arrange for the bot to act if the game is still at this version after the delay,
    counted from ``since`` (a time.time(); now if None): a move overdue is made at once."""
    delay = automatic_move_delay(table)
    if delay is None:
        return
    schedule_task(str(game_id), table.version, (time.time() if since is None else since) + delay)


def schedule_task(game_id: str, version: int, due: float) -> None:
    """Have the move's task run at ``due`` (a time.time()): a timer thread's, embedded;
    with a broker, a message that runs then or on its way there."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _run_here(game_id, version, due)
        return
    lifespan.off_the_thread(_send, game_id, version, due)


# Until when (time.monotonic()) this process makes its automatic moves itself.
_broker_resting_until = 0.0


def _send(game_id: str, version: int, due: float) -> None:
    """The move's message to the broker; made here if the broker does not take it."""
    global _broker_resting_until
    if time.monotonic() < _broker_resting_until:
        _run_here(game_id, version, due)
        return
    wait = max(0.0, due - time.time())
    try:
        # No retries of Celery's own: the move is made here instead, at once.
        _task().apply_async(
            (game_id, version, due), countdown=min(wait, MAX_COUNTDOWN), retry=False
        )
    except Exception as error:
        _broker_resting_until = time.monotonic() + BROKER_RESTING_SECONDS
        logger.warning(
            "the broker did not take an automatic move (%s: %s); this process makes its "
            "automatic moves itself for %.0f s",
            type(error).__name__,
            error,
            BROKER_RESTING_SECONDS,
        )
        _run_here(game_id, version, due)


def _run_here(game_id: str, version: int, due: float) -> None:
    timer = threading.Timer(max(0.0, due - time.time()), _run_in_thread, (game_id, version))
    timer.daemon = True
    timer.start()


def _run_in_thread(game_id: str, version: int) -> None:
    try:
        _task()(game_id, version)
    finally:
        connections.close_all()


def resume_automatic_moves() -> int:
    """Schedule the automatic move of every game in play that waits for one: after a
    restart (timer threads die with their process) or as a periodic safety net (a
    worker killed, a broker that lost its messages). Returns how many games were
    scheduled; a move scheduled twice is made once."""
    games = Game.objects.filter(status=Game.Status.PLAYING).values_list("id", flat=True)
    return sum(reschedule_automatic_move(game_id) for game_id in games)


def reschedule_automatic_move(game_id: uuid.UUID) -> bool:
    """Schedule the game's automatic move, if it waits for one, due when it was due
    first (counted from the event that began the turn): one overdue is made at once.
    Whether one was scheduled."""
    table = load_table(game_id)
    if automatic_move_delay(table) is None:
        return False
    began = table.moved_at
    schedule_automatic_move(game_id, table, None if began is None else began.timestamp())
    return True


def _resume_in_thread() -> int:
    try:
        return resume_automatic_moves()
    finally:
        # The thread ends with the loop's executor: a connection it kept would never
        # go back to the pool.
        connections.close_all()


async def resume_at_startup() -> None:
    """A server process's startup resumes the automatic moves (bot seats, turn timers)
    that its restart would otherwise leave waiting. Run in the background: Celery
    beat resumes the same moves every minute anyway."""
    logger.info("resuming automatic moves")
    try:
        # Not thread-sensitive: a database that does not answer must not hold the
        # one thread that serves every request's synchronous code.
        resumed = await sync_to_async(_resume_in_thread, thread_sensitive=False)()
    except Exception:
        # A server that cannot resume bots (say, before migrating) still serves.
        logger.exception("could not resume automatic moves; Celery beat resumes them later")
    else:
        logger.info("resumed automatic moves in %d games", resumed)
