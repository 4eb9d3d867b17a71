"""The automatic-move task: idempotent, safe when late, and run by a real Celery
worker on Redis in production mode."""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

from config import celery_app
from games import services
from games.selectors import load_table
from games.tasks import play_automatic_move
from tests.games.drivers import seated_game


@pytest.mark.django_db
def test_the_task_plays_once_and_a_late_or_repeated_run_does_nothing() -> None:
    game_id, users = seated_game(players=3)
    turn = load_table(game_id).game.turn
    services.game_set_seat_bot(game_id=game_id, actor=users[0], seat=turn, bot="random")
    version = load_table(game_id).version

    first = play_automatic_move(str(game_id), version)
    second = play_automatic_move(str(game_id), version)

    assert first == load_table(game_id).version
    assert first is not None and first > version
    assert second is None


@pytest.mark.django_db
def test_the_task_for_a_game_that_is_gone_does_nothing() -> None:
    assert play_automatic_move(str(uuid.uuid4()), 7) is None


@pytest.fixture
def celery_worker() -> Iterator[subprocess.Popen[bytes]]:
    """A real worker process on the test database and the Redis broker."""
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
        f"{connection.settings_dict['NAME']}",
    }
    # Tasks left in the broker by earlier runs name games of databases long gone.
    celery_app.control.purge()
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--purge",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not celery_app.control.ping(timeout=0.5):
            assert time.monotonic() < deadline, "the Celery worker did not start"
        yield worker
    finally:
        worker.terminate()
        worker.wait(timeout=20)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER,
    reason="needs Redis as the broker of a separate Celery worker (production mode)",
)
def test_a_celery_worker_plays_for_a_bot_seat_after_the_delay(
    celery_worker: subprocess.Popen[bytes],
) -> None:
    game_id, users = seated_game(players=3)
    table = load_table(game_id)
    seat = table.game.turn

    services.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="heuristic")

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and load_table(game_id).game.turn == seat:
        time.sleep(0.2)
    after = load_table(game_id)
    assert after.game.turn != seat
    assert after.game.bids[seat] is not None
    assert celery_worker.poll() is None
