"""What a championship's players may say at its tables (decision 3506): nothing by
default, the quick phrases if its organizer allows them, never free text; chosen on
the create form, recorded in the championship's stream, and told to its tables."""

from __future__ import annotations

import pytest

from games.read.chat import chat_mode
from tests.tournaments.drivers import event_round, organizer
from tests.tournaments.test_views import VALID_EVENT, signed_in, text
from tournaments import services
from tournaments.errors import InvalidEventInput
from tournaments.models import Event
from tournaments.projections.rebuild import rebuild_standings
from tournaments.services import load_championship

pytestmark = pytest.mark.django_db


def test_an_events_tables_are_quiet_by_default_and_say_the_phrases_once_allowed() -> None:
    *_, (quiet,) = event_round(4, public=True)
    *_, (phrases,) = event_round(4, public=True, table_chat="phrases")

    assert chat_mode(quiet.id) == "off"
    assert chat_mode(phrases.id) == "phrases"


def test_free_text_or_an_unknown_choice_is_refused_for_an_events_tables() -> None:
    for refused in ("free", "loud"):
        with pytest.raises(InvalidEventInput, match="players say off or phrases"):
            services.event_create(organizer=organizer(), name="Cupa", table_chat=refused)
    assert not Event.objects.exists()


def test_the_create_form_offers_the_phrases_and_records_the_choice_in_the_stream() -> None:
    # Given the create page, which offers nothing (chosen) or the quick phrases
    client = signed_in(organizer())
    page = text(client.get("/events/new/"))
    assert '<option value="off" selected>Nothing</option>' in page
    assert 'name="table_chat"' in page

    # When an organizer allows the phrases
    client.post("/events/new/", {**VALID_EVENT, "table_chat": "phrases"})

    # Then the stream records it, and the read model, rebuilt, says so again
    event = Event.objects.get()
    assert load_championship(event.id).settings.table_chat == "phrases"
    Event.objects.filter(pk=event.id).update(table_chat="off")
    rebuild_standings()
    assert Event.objects.get(pk=event.id).table_chat == "phrases"


def test_an_event_created_by_an_older_client_keeps_its_tables_quiet() -> None:
    signed_in(organizer()).post("/events/new/", VALID_EVENT)

    assert load_championship(Event.objects.get().id).settings.table_chat == "off"
