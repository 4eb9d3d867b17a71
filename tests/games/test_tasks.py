"""The automatic-move task: idempotent, safe when late, and run by a real Celery
worker on Redis in production mode."""

import subprocess
import time
import uuid

import pytest
from django.conf import settings
from django.test import override_settings

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


def run_redelivered(game_id: uuid.UUID, version: int) -> int | None:
    """The task as a worker runs a message Redis handed out again (its worker died)."""
    play_automatic_move.push_request(delivery_info={"redelivered": True})
    try:
        result: int | None = play_automatic_move.run(str(game_id), version)
    finally:
        play_automatic_move.pop_request()
    return result


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded mode's timer threads; a real worker's redelivery is in "
    "tests/reliability/test_faults.py",
)
def test_a_move_handed_out_again_after_its_worker_died_schedules_the_next_once_more() -> None:
    # Given bots in every seat, whose move was made by a worker that then died before
    # its next move was scheduled (here: scheduled an hour away)
    game_id, users = seated_game(players=3)
    with override_settings(ATU_BOT_DELAY_SECONDS=3600):
        for seat in range(3):
            services.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="random")
        version = load_table(game_id).version
        made = play_automatic_move(str(game_id), version)
    assert made is not None

    # When the message of that move is handed out again
    with override_settings(ATU_BOT_DELAY_SECONDS=0.01):
        assert run_redelivered(game_id, version) is None

        # Then it finds the move made, and the next one is made
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and load_table(game_id).version == made:
            time.sleep(0.05)
    assert load_table(game_id).version > made
