"""A table's desk: what the pages of an event's table show of the event beside the
play. Its announcements, newest first, arriving live, and, for a player seated there,
the button that calls the director and how their call stands; and the round's deadline
while the table's round is in play, which the director may extend or call time on
(decision 3407). The table's pages (the
games' app) include the desk's template and script by the name their home gives them
(:class:`games.read.selectors.TableHome`, made by
:func:`tournaments.selectors.table_home`); the desk's own socket
(:class:`tournaments.consumers.TableDeskConsumer`) tells it nothing else of the event
(decision 3402)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.championship import CALL_REASONS, MAX_CALL_TEXT_LENGTH

TEMPLATE = "tournaments/_table_desk.html"


def call_reasons() -> dict[str, str]:
    """Why a player calls the director, in the reader's language."""
    labels = {
        "irregularity": _("A revoke or another irregularity"),
        "score": _("The score is disputed"),
        "technical": _("A technical problem"),
        "conduct": _("A player's conduct"),
        "other": _("Something else"),
    }
    return {reason: labels[reason] for reason in CALL_REASONS}


def desk_text() -> dict[str, Any]:
    """What desk.js writes, in the reader's language."""
    return {
        "reasons": call_reasons(),
        "waiting": _("You called the director (%(reason)s): waiting for %(seconds)s s."),
        "answered": _("The director is coming to your table."),
        "closed": _("The director closed your call."),
        "closed_note": _("The director closed your call: %(note)s"),
        "sending": _("Calling the director…"),
        "refused": _("The call was not sent: %(message)s"),
        "offline": _("The call was not sent: the connection is lost. Try again."),
    }


def config(event_code: str, game_code: str) -> dict[str, Any]:
    """What the desk's script is given at the event's table ``game_code``."""
    return {
        "socket": f"/ws/events/{event_code}/tables/{game_code}/",
        "call": reverse("api-event-call", args=[event_code, game_code]),
        "max_text": MAX_CALL_TEXT_LENGTH,
        "text": desk_text(),
    }
