"""The schedule's clock: Celery beat's task with a broker, the server process's own
loop when embedded (where Celery runs eagerly and no beat runs)."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings

from config.celery import app
from tournaments.clock import keep_time


def test_beat_sends_the_clocks_task_every_atu_clock_seconds() -> None:
    assert settings.CELERY_BEAT_SCHEDULE["begin-scheduled-events"] == {
        "task": "tournaments.tasks.begin_due_events",
        "schedule": 10.0,
    }
    assert "tournaments.tasks.begin_due_events" in app.tasks


async def test_with_a_broker_a_server_process_keeps_no_clock_of_its_own(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False

    # It returns at once, instead of looking every ATU_CLOCK_SECONDS until cancelled.
    await asyncio.wait_for(keep_time(), timeout=1)
