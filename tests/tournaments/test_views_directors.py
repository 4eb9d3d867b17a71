"""The pages of who directs an event and of an event as it stands: the organizer's
Deputies panel, a deputy's manage page, controls offered only when their service would
act (the next round, check-in and withdrawal), a finished event's page, the create
form's fields for the game chosen, and the lobby's footer for players."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.templatetags.static import static
from django.test import Client

from accounts.models import User
from games.models import Game
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import bot_event, event_round, organizer
from tournaments import services
from tournaments.models import Event


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    content: bytes = response.content
    return content.decode()


def manage_url(event: Event, tail: str = "") -> str:
    return f"/events/{event.code}/manage/{tail}"


def tag(content: str, element_id: str) -> str:
    """The opening tag of the element ``element_id``."""
    found = re.search(rf'<[a-z0-9]+ [^>]*id="{element_id}"[^>]*>', content)
    assert found is not None, element_id
    return found.group(0)


def finished_event() -> tuple[Event, User, list[User]]:
    """An event of four people whose one round's table has finished."""
    event, creator, entrants, tables = event_round(4, public=True)
    Game.objects.filter(pk__in=[game.id for game in tables]).update(status=Game.Status.FINISHED)
    services.event_finish(event_id=event.id)
    return Event.objects.get(pk=event.id), creator, entrants


@pytest.mark.django_db
def test_the_organizer_names_a_deputy_on_the_manage_page_and_removes_them() -> None:
    event, creator = bot_event(players=3, rounds=1)
    deputy = UserFactory.create(username="maria", display_name="Maria")
    owner = signed_in(creator)

    response = owner.post(manage_url(event, "deputies/"), {"who": "maria"}, follow=True)

    content = text(response)
    assert "maria is a deputy: they may run this event with you." in content
    assert f'<li data-user="{deputy.pk}"><span class="name">Maria</span>' in content
    response = owner.post(manage_url(event, f"deputies/{deputy.pk}/remove/"), follow=True)
    assert "The deputy is removed." in text(response)
    assert "No deputy yet." in text(response)


@pytest.mark.django_db
def test_naming_an_unknown_account_shows_the_reason_with_404() -> None:
    event, creator = bot_event(players=3, rounds=1)

    response = signed_in(creator).post(manage_url(event, "deputies/"), {"who": "nobody"})

    assert response.status_code == 404
    assert "There is no account with that username or e-mail address." in text(response)


@pytest.mark.django_db
def test_a_deputy_manages_the_event_without_the_deputies_panel_and_may_not_name_one() -> None:
    # Given a deputy of an event
    event, creator = bot_event(players=3, rounds=1)
    deputy = UserFactory.create()
    services.event_name_deputy(event_id=event.id, actor=creator, who=deputy.username)
    page = signed_in(deputy)

    # Then the list and the event's page link them to its manage page, which has no
    # Deputies panel
    assert f'<a href="/events/{event.code}/manage/">manage</a>' in text(page.get("/events/"))
    assert 'id="manage-link"' in text(page.get(f"/events/{event.code}/"))
    content = text(page.get(manage_url(event)))
    assert 'id="start-round"' in content
    assert 'id="deputies-panel"' not in content
    # And naming a deputy is refused them, with the reason
    response = page.post(manage_url(event, "deputies/"), {"who": creator.username})
    assert response.status_code == 403
    assert "Only the event&#x27;s organizer may do that, not a deputy." in text(response)
    # When they announce and start the round from the page, both are done
    page.post(manage_url(event, "announcements/"), {"text": "Welcome"})
    page.post(manage_url(event, "rounds/"), {"expected_version": ""})
    assert Event.objects.get(pk=event.id).rounds_started == 1
    assert Event.objects.get(pk=event.id).announcements[0]["text"] == "Welcome"


@pytest.mark.django_db
def test_a_stranger_is_refused_the_manage_page_with_the_directors_reason() -> None:
    event, _ = bot_event(players=3, rounds=1)

    response = signed_in(UserFactory.create()).get(manage_url(event))

    assert response.status_code == 403
    assert "Only the event&#x27;s organizer or their deputies may do that." in text(response)


@pytest.mark.django_db
def test_start_round_is_offered_only_when_the_service_would_start_it() -> None:
    # Given an event of two bots: too few to seat a round
    event, creator = bot_event(players=2, rounds=2)
    owner = signed_in(creator)

    content = text(owner.get(manage_url(event)))
    assert " hidden" in tag(content, "start-round-form")
    assert tag(content, "start-round-wait") == '<p class="hint" id="start-round-wait">'
    assert "A round needs at least 3 checked-in players." in content

    # When a third checks in, round 1 is offered
    services.event_add_bots(event_id=event.id, actor=creator, count=1)
    content = text(owner.get(manage_url(event)))
    assert " hidden" not in tag(content, "start-round-form")
    assert " hidden" in tag(content, "start-round-wait")

    # When round 1 plays, round 2 is not offered, and the page says why
    services.event_start_round(event_id=event.id, actor=creator)
    content = text(owner.get(manage_url(event)))
    assert " hidden" in tag(content, "start-round-form")
    assert "The current round is still being played." in content
    assert '<h2 id="tables-title">Tables in play</h2>' in content


@pytest.mark.django_db
def test_a_finished_events_page_invites_no_entry_and_titles_its_last_tables_by_round() -> None:
    event, _, entrants = finished_event()

    anonymous = text(Client().get(f"/events/{event.code}/"))
    player = text(signed_in(entrants[0]).get(f"/events/{event.code}/"))
    stranger = text(signed_in(UserFactory.create()).get(f"/events/{event.code}/"))

    assert "to enter this event" not in anonymous
    assert '<p class="hint" id="entries-closed">This event is over.</p>' in anonymous
    assert 'id="withdraw"' not in player
    assert 'class="button withdraw"' not in player
    assert "You are entered and checked in." in player
    assert "This event is over." in stranger
    assert '<h2 id="tables-title">Tables of round 1</h2>' in anonymous
    assert ">Tables in play<" not in anonymous


@pytest.mark.django_db
def test_a_finished_events_manage_page_offers_no_check_in_or_withdrawal() -> None:
    event, creator, _ = finished_event()

    content = text(signed_in(creator).get(manage_url(event)))

    assert 'class="button withdraw"' not in content
    assert 'class="check-in"' not in content
    assert 'id="start-round"' not in content


@pytest.mark.django_db
def test_an_event_taking_entries_invites_anonymous_visitors_to_sign_in() -> None:
    event, _ = bot_event(players=3, rounds=1)

    content = text(Client().get(f"/events/{event.code}/"))

    assert "to enter this event; anyone may watch it." in content
    assert 'id="entries-closed"' not in content


@pytest.mark.django_db
def test_the_create_form_marks_each_games_own_fields_and_shows_the_romanian_ones() -> None:
    content = text(signed_in(organizer()).get("/events/new/"))

    for name in ("deals", "movement"):
        assert re.search(
            rf'<div class="field" data-game="classic" hidden><label[^>]*>[^<]*</label>'
            rf'(<input [^>]*|<div) id="id_{name}"',
            content,
        ), name
    for name in ("preset", "table_size", "duplicate"):
        assert re.search(
            rf'<div class="field" data-game="romanian"><label for="id_{name}"', content
        ), name
    assert '<details data-game="romanian">' in content
    assert '<div class="field"><label for="id_rounds"' in content


@pytest.mark.django_db
def test_the_create_form_says_what_the_preset_sets_and_words_tie_breaks_in_romanian() -> None:
    client = signed_in(organizer())

    english = text(client.get("/events/new/"))
    romanian = text(client.get("/events/new/", HTTP_ACCEPT_LANGUAGE="ro"))

    # The championship preset: each dealer deals each number once, 5 + bid
    assert '<option value="" selected>5 + bid (the preset&#x27;s)</option>' in english
    assert "as the preset" not in english
    assert "exact bids, head-to-head, best game" in english
    assert "licitații exacte, întâlnirile directe, cel mai bun joc" in romanian
    assert f'src="{static("tournaments/event_new.js")}"' in english


@pytest.mark.django_db
def test_the_lobby_footer_shows_the_operators_links_to_staff_only() -> None:
    player = text(signed_in(UserFactory.create()).get("/"))
    staff = text(signed_in(UserFactory.create(is_staff=True)).get("/"))

    for content in (player, Client().get("/").content.decode()):
        assert "/admin/" not in content
        assert "/healthz" not in content
        assert "Administration" not in content
    assert 'id="staff-links"' in staff
    assert "/healthz" in staff
    assert "Administration" in staff
