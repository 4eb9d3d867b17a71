"""The tasks of the championships: the demo championship that follows a finished one."""

import uuid

import pytest
from django.test import override_settings

from accounts.models import User
from accounts.services import user_ensure_demo_organizer
from games.models import Game
from tests.games.drivers import play_bots_to_end
from tests.tournaments.drivers import bot_event, round_games, wait_until
from tournaments import services
from tournaments.models import Event, TableResult
from tournaments.tasks import follow_demo_event, update_standings


def running_demo_events(user: User) -> list[Event]:
    return list(
        Event.objects.filter(
            organizer_id=user.pk, name=services.DEMO_EVENT_NAME, status=Event.Status.RUNNING
        )
    )


def started(event_id: uuid.UUID) -> int:
    return Event.objects.get(pk=event_id).rounds_started


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the test makes the bots' moves itself
def test_a_demo_championship_that_finishes_is_followed_by_one_new_demo_championship() -> None:
    # Given the demo championship, its first round in play
    demo_organizer, _ = user_ensure_demo_organizer()
    demo, _ = services.event_open_demo(organizer=demo_organizer)

    # When its bots play every round to its end (each next round starts by itself)
    for number in (1, 2, 3):
        wait_until(lambda n=number: started(demo.id) == n, 60, f"round {number}")
        for game in round_games(demo.id, number):
            play_bots_to_end(game.id)

    # Then a new demo championship runs, its first round in play, and only one
    wait_until(
        lambda: (
            Event.objects.get(pk=demo.id).status == Event.Status.FINISHED
            and len(running_demo_events(demo_organizer)) == 1
        ),
        60,
        "the next demo",
    )
    (following,) = running_demo_events(demo_organizer)
    assert following.id != demo.id
    assert following.rounds_started == 1
    tables = round_games(following.id, 1)
    assert [game.status for game in tables] == ["playing"] * 3
    # And no demo table followed the championship's tables
    event_tables = TableResult.objects.values_list("game_id", flat=True)
    assert not Game.objects.exclude(pk__in=event_tables).exists()
    # And the continuation run again (a task handed out twice) leaves that one
    again = [follow_demo_event(str(demo.id)) for _ in range(2)]
    assert again == [str(following.id)] * 2
    assert running_demo_events(demo_organizer) == [following]


@pytest.mark.django_db
def test_an_event_that_is_no_demo_championship_is_followed_by_nothing() -> None:
    # Given a finished event of bots, named as the demo's, of another organizer
    event, creator = bot_event(players=3, rounds=1, name=services.DEMO_EVENT_NAME)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    play_bots_to_end(game.id)
    update_standings(str(event.id))
    assert Event.objects.get(pk=event.id).status == Event.Status.FINISHED

    # When the continuation runs for it
    followed = follow_demo_event(str(event.id))

    # Then no event is opened
    assert followed is None
    assert Event.objects.count() == 1
