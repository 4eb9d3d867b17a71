"""The schedule's clock when embedded: Celery runs tasks eagerly there and no beat
runs, so each server process looks every ``ATU_CLOCK_SECONDS`` for events whose start
has come (:func:`tournaments.tasks.begin_due_events`). With a broker, Celery beat sends
that task on the same period and this does nothing. Beginning an event is idempotent,
so two processes looking at once begin it once (decision 3404)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from tournaments.tasks import begin_due_events

logger = logging.getLogger(__name__)


def _look() -> int:
    try:
        return begin_due_events()
    finally:
        # A thread of the loop's executor: its connection would never go back.
        connections.close_all()


async def keep_time() -> None:
    """Until cancelled, embedded: begin the events whose start has come."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return
    while True:
        await asyncio.sleep(settings.ATU_CLOCK_SECONDS)
        try:
            # Not thread-sensitive: a slow database must not hold the requests' thread.
            await sync_to_async(_look, thread_sensitive=False)()
        except Exception:  # A database that does not answer: the next look may.
            logger.exception("the schedule's clock could not begin the events due")
