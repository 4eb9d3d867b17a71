"""The room's screen and the director's announcements through Django's test client: who
may open the screen, its QR code to the event's page, what it gives its script, and
the organizer's forms that announce and withdraw."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import segno
from django.templatetags.static import static
from django.test import Client

from accounts.models import User
from eventlog import store
from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import SHORT_RULES, organizer
from tournaments import services
from tournaments.championship import Announced, AnnouncementWithdrawn, championship_stream
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    content: bytes = response.content
    return content.decode()


def new_event(**options: Any) -> Event:
    return services.event_create(
        organizer=organizer(), name="Cupa Atu", options=SHORT_RULES, **options
    )


def director(event: Event) -> Client:
    return signed_in(User.objects.get(pk=event.organizer_id))


def screen_config(content: str) -> dict[str, Any]:
    found = re.search(r'<script id="atu-screen" type="application/json">(.*?)</script>', content)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def logged(event: Event) -> list[Any]:
    return [
        record.event
        for record in store.read(championship_stream(event.id))
        if record.type in ("Announced", "AnnouncementWithdrawn")
    ]


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (column, row) segno's inline SVG draws: its path is runs of
    ``h`` (a line of n modules) and relative ``m`` moves, after one absolute ``M``."""
    found = re.search(r'<path stroke="#000" d="([^"]+)"', svg)
    assert found is not None
    x = y = 0.0
    dark = set()
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?", found.group(1)):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            run = float(a)
            dark |= {(int(x + i), int(y)) for i in range(int(run))}
            x += run
    return dark


def modules_of(url: str) -> set[tuple[int, int]]:
    matrix = segno.make(url, error="m").matrix
    return {(x, y) for y, row in enumerate(matrix) for x, on in enumerate(row) if on}


# --- The screen -----------------------------------------------------------------------


def test_anyone_opens_the_screen_of_a_public_event(client: Client) -> None:
    event = new_event()

    response = client.get(f"/events/{event.code}/screen/")

    assert response.status_code == 200
    content = text(response)
    assert "<h1>Cupa Atu</h1>" in content
    config = screen_config(content)
    assert config["socket"] == f"/ws/events/{event.code}/"
    assert config["live"]["code"] == event.code
    assert (config["find_seconds"], config["page_seconds"]) == (300, 12)
    assert f'<script src="{static("tournaments/screen.js")}"></script>' in content
    assert f'<link rel="stylesheet" href="{static("tournaments/screen.css")}">' in content
    # A screen of its own: none of the site's header and links.
    assert '<header class="site">' not in content


def test_a_private_events_screen_is_for_its_organizer_and_entrants_only(client: Client) -> None:
    # Given a private event and one entrant
    event = new_event(public=False)
    player = UserFactory.create()
    services.event_register(
        event_id=event.id, actor=User.objects.get(pk=event.organizer_id), player=player
    )
    url = f"/events/{event.code}/screen/"

    # Then its organizer and its entrant see its screen, and it does not exist for others
    assert director(event).get(url).status_code == 200
    assert signed_in(player).get(url).status_code == 200
    assert signed_in(UserFactory.create()).get(url).status_code == 404
    assert client.get(url).status_code == 404


def test_an_unknown_events_screen_is_404_and_the_screen_is_only_read(client: Client) -> None:
    event = new_event()

    assert client.get("/events/ZZZZZZ/screen/").status_code == 404
    assert client.post(f"/events/{event.code}/screen/").status_code == 405


def test_the_screens_qr_code_is_inline_svg_of_the_event_pages_address(client: Client) -> None:
    event = new_event()
    address = f"http://testserver/events/{event.code}/"

    content = text(client.get(f"/events/{event.code}/screen/"))

    # Then the QR code is drawn in the page, of the event page's full address, which
    # the screen also writes out
    svg = re.search(r'<svg viewBox="[^"]+" class="qr">.*?</svg>', content, re.S)
    assert svg is not None
    border = 2
    assert dark_modules(svg.group(0)) == {(x + border, y + border) for x, y in modules_of(address)}
    assert f'<span id="event-url" class="url">{address}</span>' in content
    # Nothing inline that the content security policy would refuse.
    assert "style=" not in content
    assert "<script>" not in content


def test_the_screen_is_in_romanian_when_the_reader_chose_it(client: Client) -> None:
    event = new_event()

    content = text(client.get(f"/events/{event.code}/screen/", HTTP_ACCEPT_LANGUAGE="ro"))

    assert '<html lang="ro">' in content
    assert "Urmărește de pe telefon" in content
    assert screen_config(content)["text"]["find_your_table"] == "Runda %(round)s: găsește-ți masa"


def test_the_event_page_and_the_manage_page_link_the_screen() -> None:
    event = new_event()
    link = f'<a id="screen-link" href="/events/{event.code}/screen/">Room screen</a>'

    assert link in text(Client().get(f"/events/{event.code}/"))
    assert link in text(director(event).get(f"/events/{event.code}/manage/"))


# --- Announcing -----------------------------------------------------------------------


def test_the_organizer_announces_from_the_manage_page_and_the_event_page_shows_it() -> None:
    # Given an event and its organizer on the manage page
    event = new_event()
    owner = director(event)

    # When they announce something
    response = owner.post(
        f"/events/{event.code}/manage/announcements/", {"text": " Coffee in the hall. "}
    )

    # Then it is an event of the championship's stream, and the pages show it
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.code}/manage/"
    assert logged(event) == [Announced("Coffee in the hall.")]
    page = text(owner.get(f"/events/{event.code}/manage/"))
    assert "Announced: the room&#x27;s screen and the event&#x27;s page show it." in page
    assert '<li data-number="1"><span class="text">Coffee in the hall.</span>' in page
    public = text(Client().get(f"/events/{event.code}/"))
    assert '<section class="panel" id="announcements-panel">' in public
    assert '<li data-number="1"><span class="text">Coffee in the hall.</span></li>' in public
    live = Client().get(f"/events/{event.code}/live.json").json()
    assert [made["text"] for made in live["announcements"]] == ["Coffee in the hall."]


def test_the_event_page_hides_the_announcements_while_there_are_none(client: Client) -> None:
    event = new_event()

    content = text(client.get(f"/events/{event.code}/"))

    assert '<section class="panel" id="announcements-panel" hidden>' in content


def test_the_organizer_withdraws_an_announcement_from_the_manage_page() -> None:
    event = new_event()
    owner = director(event)
    owner.post(f"/events/{event.code}/manage/announcements/", {"text": "Coffee."})

    response = owner.post(f"/events/{event.code}/manage/announcements/1/withdraw/")

    assert response.status_code == 302
    assert logged(event) == [Announced("Coffee."), AnnouncementWithdrawn(1)]
    assert "Announcement withdrawn." in text(owner.get(f"/events/{event.code}/manage/"))
    assert Event.objects.get(pk=event.id).announcements == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": "   "}, "This field is required."),
        ({}, "This field is required."),
        (
            {"text": "x" * 281},
            "Ensure this value has at most 280 characters (it has 281).",
        ),
    ],
)
def test_an_announcement_of_no_text_or_too_long_is_answered_400(
    data: dict[str, str], message: str
) -> None:
    event = new_event()

    response = director(event).post(f"/events/{event.code}/manage/announcements/", data)

    assert response.status_code == 400
    assert message in text(response)
    assert logged(event) == []


def test_withdrawing_an_announcement_that_is_not_shown_is_answered_404_with_the_reason() -> None:
    event = new_event()

    response = director(event).post(f"/events/{event.code}/manage/announcements/7/withdraw/")

    assert response.status_code == 404
    assert "There is no such announcement: it may have been withdrawn already." in text(response)
    assert logged(event) == []


def test_a_twenty_first_announcement_is_answered_409_with_the_reason() -> None:
    event = new_event()
    owner = director(event)
    for number in range(services.MAX_ANNOUNCEMENTS):
        owner.post(f"/events/{event.code}/manage/announcements/", {"text": f"Note {number}."})

    response = owner.post(f"/events/{event.code}/manage/announcements/", {"text": "One more."})

    assert response.status_code == 409
    assert "Too many announcements are shown: withdraw one first." in text(response)
    assert len(logged(event)) == services.MAX_ANNOUNCEMENTS


def test_nobody_but_the_organizer_announces_or_withdraws(client: Client) -> None:
    # Given an event with an announcement, and an entrant of it
    event = new_event()
    services.event_announce(
        event_id=event.id, actor=User.objects.get(pk=event.organizer_id), text="Welcome."
    )
    player = UserFactory.create()
    services.event_register(event_id=event.id, actor=player)
    entrant = signed_in(player)
    announce = f"/events/{event.code}/manage/announcements/"
    withdraw = f"/events/{event.code}/manage/announcements/1/withdraw/"

    # Then the entrant is refused both, and a visitor is sent to sign in first
    for url, data in [(announce, {"text": "Hi"}), (withdraw, {})]:
        response = entrant.post(url, data)
        assert response.status_code == 403, url
        assert "Only the event&#x27;s organizer or their deputies may do that." in text(response)
        assert client.post(url, data).status_code == 302
    assert logged(event) == [Announced("Welcome.")]
