"""The championships' management commands."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from games.models import Game
from tests.accounts.test_commands import CREATED, EXISTS
from tests.games.drivers import play_to_end
from tests.tournaments.drivers import finished_events, private_event_round
from tournaments.models import Entry, Event, TableResult


@pytest.mark.django_db
@override_settings(ATU_BOT_DELAY_SECONDS=3600)  # the bots' moves are not this test's
def test_seed_demo_opens_a_bot_table_and_a_bot_championship_and_says_where_to_follow_them() -> None:
    first, second = StringIO(), StringIO()

    call_command("seed_demo", stdout=first)
    call_command("seed_demo", stdout=second)

    event = Event.objects.get()
    tables = list(TableResult.objects.filter(event_id=event.id).values_list("game_id", flat=True))
    game = Game.objects.exclude(pk__in=tables).get(kind="romanian")
    rubber = Game.objects.get(kind="classic")
    organizer, tables_opened = first.getvalue().split("\n", 1)
    assert CREATED.fullmatch(organizer + "\n") is not None
    assert tables_opened == (
        f"Demo table {game.code} opened: four bots play it live; "
        f"watch it at http://127.0.0.1:8000/games/{game.code}/\n"
        f"Demo classic Whist table {rubber.code} opened: a rubber of four bots; "
        f"watch it at http://127.0.0.1:8000/games/{rubber.code}/\n"
        f"Demo championship {event.code} started: twelve bots, three rounds; "
        f"follow its leaderboard at http://127.0.0.1:8000/events/{event.code}/\n"
    )
    assert second.getvalue().startswith(f"{EXISTS}Demo table {game.code} still playing")
    assert f"Demo classic Whist table {rubber.code} still playing" in second.getvalue()
    assert (rubber.preset, rubber.status) == ("british", "playing")
    assert f"Demo championship {event.code} still running" in second.getvalue()
    assert event.rounds_started == 1
    assert len(tables) == 3
    assert Entry.objects.filter(event_id=event.id, checked_in=True).count() == 12


@pytest.mark.django_db
def test_finish_events_records_the_finish_of_each_event_over_once() -> None:
    # Given an event whose last table finished, its finish not yet recorded, and one
    # still in play
    over, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)
    playing, _, _, _ = private_event_round(4)
    first, second = StringIO(), StringIO()

    # When the command runs, and runs again
    call_command("finish_events", stdout=first)
    call_command("finish_events", stdout=second)

    # Then the event over has one EventFinished, the other none
    assert first.getvalue() == "Recorded the finish of 1 event(s).\n"
    assert second.getvalue() == "Recorded the finish of 0 event(s).\n"
    assert finished_events(over) == 1
    assert finished_events(playing) == 0
    assert Event.objects.get(pk=over.id).status == Event.Status.FINISHED
    assert Event.objects.get(pk=playing.id).status == Event.Status.RUNNING
