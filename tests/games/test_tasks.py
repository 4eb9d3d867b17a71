"""The tasks of the games: the automatic move, idempotent, safe when late, and run by
a real Celery worker on Redis in production mode; the demo table that follows a
finished one."""

import subprocess
import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from accounts.services import user_ensure_bot_players, user_ensure_demo_organizer
from games.commands import actions
from games.commands.chat import game_report_message, game_say
from games.models import Game, GameAnalysis, TableMessage
from games.read.analysis import request_analysis
from games.table import CLASSIC, ROMANIAN
from games.tasks import follow_demo_table, forget_old_words, play_automatic_move
from games.write.tables import load_table
from tests.accounts.factories import UserFactory
from tests.games.drivers import SHORT_GAME, play_bots_to_end, play_to_end, seated_game
from tests.tournaments.drivers import wait_until


@pytest.mark.django_db
def test_the_task_plays_once_and_a_late_or_repeated_run_does_nothing() -> None:
    game_id, users = seated_game(players=3)
    turn = load_table(game_id).game.turn
    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=turn, bot="random")
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

    actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="heuristic")

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
            actions.game_set_seat_bot(game_id=game_id, actor=users[0], seat=seat, bot="random")
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


def live_demo_tables(organizer: User, kind: str) -> list[Game]:
    return list(Game.objects.filter(creator_id=organizer.pk, kind=kind, status="playing"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
@pytest.mark.parametrize("kind", [ROMANIAN, CLASSIC])
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the test makes the bots' moves itself
def test_a_demo_table_that_finishes_is_followed_by_one_new_demo_table(kind: str) -> None:
    # Given the demo table in play, its bots the quickest
    organizer, _ = user_ensure_demo_organizer()
    players = user_ensure_bot_players()
    demo, _ = actions.game_open_demo_table(organizer=organizer, players=players, kind=kind)
    for seat in range(4):
        actions.game_set_seat_bot(game_id=demo.id, actor=organizer, seat=seat, bot="random")

    # When its bots play it to its end
    play_bots_to_end(demo.id)

    # Then a new demo table of the same game is in play, the demo's bots in its seats
    wait_until(lambda: len(live_demo_tables(organizer, kind)) == 1, 60, "the next demo table")
    (following,) = live_demo_tables(organizer, kind)
    table = load_table(following.id)
    assert Game.objects.get(pk=demo.id).status == "finished"
    assert following.id != demo.id
    assert [seat.user_id for seat in table.seats if seat] == [p.pk for p in players]
    assert table.bots == (actions.DEMO_BOT,) * 4
    # And the continuation run again (a task handed out twice) leaves that one table
    again = [follow_demo_table(str(demo.id)) for _ in range(2)]
    assert again == [str(following.id)] * 2
    assert live_demo_tables(organizer, kind) == [following]


@pytest.mark.django_db
def test_a_game_that_is_no_demo_table_is_followed_by_nothing() -> None:
    # Given the demo organizer's finished table of people, not of the demo's bots
    organizer, _ = user_ensure_demo_organizer()
    game_id, _ = seated_game(players=4, users=[organizer, *UserFactory.create_batch(3)])
    for seat in range(4):
        actions.game_set_seat_bot(game_id=game_id, actor=organizer, seat=seat, bot="random")
    play_bots_to_end(game_id)

    # When the continuation runs for it
    followed = follow_demo_table(str(game_id))

    # Then no table is opened
    assert followed is None
    assert Game.objects.filter(status="playing").count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER,
    reason="needs Redis as the broker of a separate analyst process (production mode)",
)
def test_a_finished_game_is_analysed_by_the_analyst_on_its_own_queue(
    analyst_worker: subprocess.Popen[bytes],
) -> None:
    # Given the analyst alone: no worker takes the default queue
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)

    # When the game finishes
    play_to_end(game_id, users, seed=2)

    # Then the analyst keeps its analysis, of the whole log
    wait_until(lambda: GameAnalysis.objects.filter(game_id=game_id).exists(), 300, "analysis")
    assert GameAnalysis.objects.get(game_id=game_id).version == load_table(game_id).version
    assert analyst_worker.poll() is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings.CELERY_TASK_ALWAYS_EAGER,
    reason="the embedded mode's own way: production's analyst is tested above",
)
def test_embedded_a_game_is_analysed_in_the_background_once_asked_for() -> None:
    # Given a finished game: embedded, its finish starts no analysis
    game_id, users = seated_game(3, "romanian-standard", SHORT_GAME)
    play_to_end(game_id, users, seed=2)
    assert not GameAnalysis.objects.filter(game_id=game_id).exists()

    # When someone asks for it, then it is computed beside the request, which answers
    request_analysis(game_id)
    wait_until(lambda: GameAnalysis.objects.filter(game_id=game_id).exists(), 300, "analysis")
    assert GameAnalysis.objects.get(game_id=game_id).version == load_table(game_id).version


@pytest.mark.django_db
def test_words_older_than_their_retention_are_forgotten_but_those_reported() -> None:
    # Given three words said at a table: one today, two 91 days ago, one of them reported
    game_id, users = seated_game(players=3)
    recent, old, reported = (
        game_say(game_id=game_id, actor=users[0], phrase="good_luck") for _ in range(3)
    )
    long_ago = timezone.now() - timedelta(days=settings.ATU_CHAT_RETENTION_DAYS + 1)
    TableMessage.objects.filter(pk__in=[old.pk, reported.pk]).update(said_at=long_ago)
    game_report_message(game_id=game_id, reporter=users[1], message=reported.pk)

    # When beat's task runs, twice
    forgotten = [forget_old_words(), forget_old_words()]

    # Then the old word no one reported is gone, once
    assert forgotten == [1, 0]
    assert set(TableMessage.objects.values_list("pk", flat=True)) == {recent.pk, reported.pk}
