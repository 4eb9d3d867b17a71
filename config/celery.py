"""The Celery application, configured from the Django settings' CELERY_* names, and
made to lose no task to a worker that dies.

Every task is idempotent (it names the version it acts at), so running one twice is
harmless and losing one is not: a task is acknowledged only once it has run
(``acks_late``), also when its worker process is killed under it
(``reject_on_worker_lost``), and the broker hands a message that a dead worker held
to another after ``VISIBILITY_TIMEOUT`` seconds (:mod:`runtime.tasks`), not Redis's
default hour. A worker looks for such messages every ``RESTORE_INTERVAL``
seconds. Countdowns are kept shorter than the timeout (:mod:`games.write.automatic`), so that
a message waiting for its time in a live worker is not handed out again meanwhile.

One message can still be lost: the one a worker is taking from the queue as it is
killed, already popped and not yet held (celery/celery#4354). Beat's every-minute
``resume_automatic_moves`` and ``check_standings`` make up whatever was lost so.
"""

import os

from celery import Celery, signals
from django.db import close_old_connections

from runtime.tasks import RESTORE_INTERVAL, VISIBILITY_TIMEOUT

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("atu")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    # One message at a time: what a worker has prefetched waits for the timeout if
    # the worker dies.
    worker_prefetch_multiplier=1,
    broker_transport_options={
        "visibility_timeout": VISIBILITY_TIMEOUT,
        "unacked_restore_interval": RESTORE_INTERVAL,
        "unacked_restore_throttle": 1,
        # The lock of that search, should its holder die holding it (5 minutes by default).
        "unacked_mutex_expire": VISIBILITY_TIMEOUT,
        # A Redis that accepts connections but does not answer fails a send (retried,
        # like a refusal) instead of holding the request or task that sends.
        "socket_connect_timeout": 5.0,
        "socket_timeout": 5.0,
    },
    # The broker (Redis) restarting must not stop the worker for good.
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,
)
# Celery's Django fixup closes every connection before and after each task, and in a
# prefork worker closes the whole pool too: each task would open a new pool, which
# costs it more than its move (decision 1001). Its recycling is put off for good here,
# and each task gives its connection back to the process's pool as a request does:
# closed instead if it broke, so the next task or retry gets a sound one.
app.conf.CELERY_DB_REUSE_MAX = 2**62
signals.task_prerun.connect(close_old_connections, weak=False)
signals.task_postrun.connect(close_old_connections, weak=False)
app.autodiscover_tasks()
