"""What every Celery task of the apps shares, and what the Celery application
(:mod:`config.celery`) is configured with: how long a dead worker's message waits
before another worker gets it, and how a task waits for a database that cannot be
reached instead of being lost."""

from typing import Any

from django.db import InterfaceError, OperationalError

# Countdowns are kept shorter than this (games.write.automatic), so that a message waiting for its
# time in a live worker is not handed out again meanwhile.
VISIBILITY_TIMEOUT = 30
RESTORE_INTERVAL = 5

# For each task's decorator: a database that cannot be reached (restarting, out of
# connections) is waited for, with a growing delay, instead of losing the task.
RETRY_ON_DATABASE_ERRORS: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
    "max_retries": 10,
}
