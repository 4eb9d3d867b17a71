"""The tasks of the championships: the standings' updates, asked for as hands are
scored, and the demo championship that follows a finished one."""

import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from accounts.models import User
from accounts.services import user_ensure_demo_organizer
from games.commands import actions
from games.models import Game
from games.write.tables import load_table
from tests.games.drivers import play_bots_to_end
from tests.tournaments.drivers import bot_event, round_games, wait_until
from tournaments import services
from tournaments.models import Event, TableResult
from tournaments.tasks import _busy_key, _due_key, _pass_on, follow_demo_event, update_standings


def running_demo_events(user: User) -> list[Event]:
    return list(
        Event.objects.filter(
            organizer_id=user.pk, name=services.DEMO_EVENT_NAME, status=Event.Status.RUNNING
        )
    )


def started(event_id: uuid.UUID) -> int:
    return Event.objects.get(pk=event_id).rounds_started


def play_bots_one_hand(game_id: uuid.UUID) -> None:
    """Make the game's automatic moves until its next hand is scored."""
    hands = len(load_table(game_id).revealed)
    while len((table := load_table(game_id)).revealed) == hands:
        actions.game_play_automatically(game_id=game_id, expected_version=table.version)


def scored_on_the_leaderboard(game_id: uuid.UUID) -> int:
    return TableResult.objects.get(game_id=game_id).hands_scored


@pytest.fixture
def event_table() -> tuple[Event, uuid.UUID]:
    """A bot event's one table in play, no standings update on its way or due."""
    event, creator = bot_event(players=3, rounds=1)
    services.event_start_round(event_id=event.id, actor=creator)
    (game,) = round_games(event.id, 1)
    # The round's start asked for an update of its own: let it end.
    wait_until(lambda: cache.get(_busy_key(event.id)) is None, 10, "the round's update")
    assert cache.get(_due_key(event.id)) is None
    return event, game.id


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the test makes the bots' moves itself
def test_a_hand_scored_with_no_update_on_its_way_is_on_the_leaderboard_at_once(
    event_table: tuple[Event, uuid.UUID],
) -> None:
    # Given an event's table, no standings update on its way
    event, game_id = event_table

    # When a hand is scored
    play_bots_one_hand(game_id)

    # Then the leaderboard shows it (well before the spacing's next update would)
    wait_until(lambda: scored_on_the_leaderboard(game_id) == 1, 5, "the hand on the leaderboard")
    # And the way is free again for the next hand's own update
    wait_until(lambda: cache.get(_busy_key(event.id)) is None, 5, "the update's key let go")
    assert cache.get(_due_key(event.id)) is None


@pytest.mark.skipif(
    settings.CELERY_TASK_ALWAYS_EAGER,
    reason="embedded, each hand brings the standings up to date in place: no update is on its way",
)
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run")
@override_settings(ATU_BOT_DELAY_SECONDS=3600)
def test_hands_scored_while_an_update_is_on_its_way_make_one_more_after_it(
    event_table: tuple[Event, uuid.UUID],
) -> None:
    # Given an event's table, and a standings update on its way (its key held)
    event, game_id = event_table
    cache.set(_busy_key(event.id), True)

    # When two hands are scored meanwhile
    play_bots_one_hand(game_id)
    play_bots_one_hand(game_id)

    # Then they send no update of their own: they are marked due
    assert cache.get(_due_key(event.id)) is True
    assert scored_on_the_leaderboard(game_id) == 0
    # When the update on its way ends
    _pass_on(str(event.id))

    # Then one more brings both to the leaderboard, and lets the way go
    wait_until(lambda: scored_on_the_leaderboard(game_id) == 2, 5, "both hands on the leaderboard")
    wait_until(lambda: cache.get(_busy_key(event.id)) is None, 5, "the update's key let go")
    assert cache.get(_due_key(event.id)) is None


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
