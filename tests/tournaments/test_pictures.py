"""An event's picture as a server process reads it for its sockets: the whole picture,
and patches to it from the few read before it."""

from __future__ import annotations

import orjson
import pytest

from tests.accounts.factories import UserFactory
from tests.tournaments.drivers import SHORT_RULES, organizer
from tournaments import pictures, selectors, services
from tournaments.models import Event
from tournaments.patches import patched

pytestmark = pytest.mark.django_db


def test_a_socket_that_missed_a_picture_is_sent_a_patch_from_the_one_it_holds() -> None:
    # Given an event read three times by a process, an entrant coming in between reads
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)
    read = []
    for person in UserFactory.create_batch(3):
        services.event_register(event_id=event.id, actor=person)
        read.append(pictures._read(event.id, pictures.OTHERS))
    first, second, third = read

    # When a socket still holding the first (it asked while the second was read) is sent
    # the third, and one holding the second is too
    from_first = orjson.loads(third.seen_by(None, holding=first.digest))
    from_second = orjson.loads(third.seen_by(None, holding=second.digest))

    # Then each is a patch from what it holds, which gives the third exactly
    live = selectors.event_picture(Event.objects.get(pk=event.id), directs=False)
    assert (from_first["type"], from_first["from"]) == ("event.patch", first.digest)
    assert (from_second["type"], from_second["from"]) == ("event.patch", second.digest)
    assert patched(first.live, from_first["patch"]) == live == third.live
    assert patched(second.live, from_second["patch"]) == live
    # And a socket holding none of them, or asking afresh, is sent the whole picture
    assert orjson.loads(third.seen_by(None, holding="a digest of long ago"))["type"] == "event"
    assert orjson.loads(third.seen_by(None))["event"] == live


def test_a_picture_unchanged_since_the_one_a_socket_holds_is_an_empty_patch() -> None:
    creator = organizer()
    event = services.event_create(organizer=creator, name="Cupa", options=SHORT_RULES)
    first = pictures._read(event.id, pictures.OTHERS)
    again = pictures._read(event.id, pictures.OTHERS)

    message = orjson.loads(again.seen_by(None, holding=first.digest))

    assert again.digest == first.digest
    assert (message["type"], message["patch"]) == ("event.patch", {})
