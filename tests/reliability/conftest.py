"""Processes of the production site that the reliability tests start, stop and kill:
uvicorn servers, Celery workers and Celery beat, each on this test's database and
Redis, each stopped by the test that started it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings

from config import celery_app
from config.settings.environment import BASE_DIR
from tests.games.live.test_two_processes import (
    UVICORN,
    free_port,
    this_tests_database_url,
    wait_until_healthy,
)

STOP_SECONDS = 20


def site_env(**extra: str) -> dict[str, str]:
    """The production settings' environment, on this test's database."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": this_tests_database_url(),
        **extra,
    }


def stop(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` (already dead, asked to stop, or killed with its children if it
    will not)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            kill_9(process)
    process.wait()


def kill_9(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the process and its children (a prefork worker's pool): none gets a
    chance to finish what it was doing."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@contextmanager
def uvicorn(log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """One uvicorn process as production runs it; the process and its host:port."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                str(UVICORN),
                "config.asgi:application",
                *("--host", "127.0.0.1", "--port", str(port), "--lifespan", "on"),
            ],
            cwd=BASE_DIR,
            env=site_env(),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_until_healthy(process, address, log)
        yield process, address
    finally:
        stop(process)


def _celery(arguments: list[str], log: Path, **env: str) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", *arguments],
            cwd=BASE_DIR,
            env=site_env(**env),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def start_worker(log: Path) -> subprocess.Popen[bytes]:
    """A Celery worker as production runs it (a prefork pool), answering pings; bots
    play at once."""
    worker = _celery(
        ["-A", "config", "worker", "--loglevel", "INFO", "--without-gossip", "--without-mingle"],
        log,
        ATU_BOT_DELAY_SECONDS="0",
    )
    deadline = time.monotonic() + 30
    while not celery_app.control.ping(timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            stop(worker)
            raise AssertionError(f"the Celery worker did not start:\n{log.read_text()}")
    return worker


@contextmanager
def worker(log: Path) -> Iterator[subprocess.Popen[bytes]]:
    process = start_worker(log)
    try:
        yield process
    finally:
        stop(process)


@contextmanager
def beat(log: Path, every: float) -> Iterator[subprocess.Popen[bytes]]:
    """Celery beat sending the production schedule's tasks every ``every`` seconds
    instead of every minute (``tests.reliability.fast_beat``), once it has started."""
    process = _celery(
        [
            *("-A", "tests.reliability.fast_beat", "beat", "--loglevel=INFO"),
            *("--schedule", str(log.with_suffix(".schedule"))),
        ],
        log,
        ATU_FAST_BEAT_SECONDS=str(every),
    )
    try:
        # The clock of what beat makes up starts once it runs, not while Python loads.
        deadline = time.monotonic() + 30
        while "beat: Starting..." not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"Celery beat did not start:\n{log.read_text()}")
            time.sleep(0.05)
        yield process
    finally:
        stop(process)


def held_messages() -> set[str]:
    """The ids of the tasks whose messages the broker counts as held by a worker
    (delivered, not yet acknowledged): what it hands out again once they have been
    held for its visibility timeout."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        held = client.hvals("unacked")
    finally:
        client.close()
    return {json.loads(value)[0]["headers"]["id"] for value in held}


def received(log: Path) -> set[str]:
    """The ids of the tasks a worker logged as received."""
    return set(re.findall(r"\[([0-9a-f-]{36})\] received", log.read_text()))


def broker_loses_its_messages() -> None:
    """What a Redis restarted without persistence does to Celery: every queued and
    every unacknowledged message gone (the cache's keys are left alone)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        client.delete("celery", "unacked", "unacked_index")
    finally:
        client.close()
    celery_app.control.purge()
