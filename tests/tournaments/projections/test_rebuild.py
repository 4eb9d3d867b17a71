"""Rebuilding the championships' read models: derived from the log again, identically,
and nothing appended to it."""

from __future__ import annotations

import pytest

from tests.games.drivers import play_to_end
from tests.tournaments.drivers import finished_events, private_event_round
from tournaments import services
from tournaments.models import Event
from tournaments.projections.rebuild import rebuild_standings


@pytest.mark.django_db
def test_a_finished_events_status_is_replayed_from_its_log() -> None:
    # Given a finished one-round event
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)
    services.event_finish(event_id=event.id)

    # When the read models are dropped and rebuilt from the log
    rebuild_standings()

    # Then the event is finished again, and the rebuild recorded nothing more
    assert Event.objects.get(pk=event.id).status == Event.Status.FINISHED
    assert finished_events(event) == 1


@pytest.mark.django_db
def test_a_rebuild_records_no_finish_of_an_event_whose_last_table_finished() -> None:
    # Given a one-round event whose only table finished, its finish not yet recorded
    event, _, entrants, (game,) = private_event_round(4)
    play_to_end(game.id, entrants)

    # When the read models are dropped and rebuilt from the log
    rebuilt = rebuild_standings()

    # Then the rebuild only derived: its stream holds no EventFinished, and it runs on
    assert rebuilt == (1, 0)
    assert finished_events(event) == 0
    assert Event.objects.get(pk=event.id).status == Event.Status.RUNNING

    # And the write path records the finish when asked, as the standings task would
    assert services.event_finish_all() == 1
    assert finished_events(event) == 1
    assert Event.objects.get(pk=event.id).status == Event.Status.FINISHED
