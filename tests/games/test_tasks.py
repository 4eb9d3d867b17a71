"""The automatic-move task: idempotent, safe when late, and run by a real Celery
worker on Redis in production mode."""

import subprocess
import time
import uuid

import pytest
from django.conf import settings

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
