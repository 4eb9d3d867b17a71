"""The production Celery app with its beat schedule's every task sent every
``ATU_FAST_BEAT_SECONDS`` seconds instead of every minute, so that a test shows in
seconds what beat makes up after an outage. Only beat runs it (``celery -A
tests.reliability.fast_beat beat``); the tasks it sends are the production ones."""

import os

from config.celery import app

app.conf.beat_schedule = {
    name: {**entry, "schedule": float(os.environ["ATU_FAST_BEAT_SECONDS"])}
    for name, entry in app.conf.beat_schedule.items()
}
