"""Reads of the words said at a table: the quick phrases, what a table allows, and
the words a viewer may read (decision 3506).

A table of its own is a casual one: its players say the quick phrases and free text.
A table another app seats (a championship's: :class:`games.read.selectors.TableHome`)
is quiet unless its home allows the phrases. Who reads what, and when, is
:mod:`games.visibility`'s: a delayed table's spectator reads the words as late as
they see the play.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from coded import gettext_noop
from games.models import Game, TableMessage
from games.read.selectors import CHAT_FREE, TableHome, table_home
from games.visibility import game_lag, message_view, words_cutoff

# The quick phrases, by the key a client says and reads; each reader reads them in
# their own language.
PHRASES = {
    "good_luck": gettext_noop("Good luck"),
    "well_played": gettext_noop("Well played"),
    "thanks": gettext_noop("Thanks"),
    "sorry": gettext_noop("Sorry"),
    "oops": gettext_noop("Oops"),
}
# A line of free text: one line, this long at most.
MAX_TEXT_LENGTH = 200
# The words a reader is given at once: the latest this many.
HISTORY = 50


def chat_mode(game_id: uuid.UUID) -> str:
    """What may be said at the game ``game_id``: CHAT_FREE at a table of its own, its
    home's word (CHAT_OFF by default, or CHAT_PHRASES) at another app's."""
    return home_chat(table_home(game_id))


def home_chat(home: TableHome | None) -> str:
    """:func:`chat_mode` of a game whose home (:func:`table_home`) is ``home``."""
    return CHAT_FREE if home is None else home.chat


def _readable(game: Game, viewer_id: int | None, now: datetime) -> QuerySet[TableMessage]:
    """The words said at ``game`` that the viewer ``viewer_id`` may read at ``now``."""
    said = TableMessage.objects.filter(game_id=game.id)
    cutoff = words_cutoff(game_lag(game, viewer_id), now)
    return said if cutoff is None else said.filter(said_at__lte=cutoff)


def readable_messages(
    game: Game, *, viewer_id: int | None, now: datetime, after: int = 0
) -> list[dict[str, Any]]:
    """The latest :data:`HISTORY` words said at ``game`` after the message ``after``
    that the viewer ``viewer_id`` may read at ``now``, oldest first, as they see them."""
    latest = _readable(game, viewer_id, now).filter(id__gt=after).order_by("-id")[:HISTORY]
    return [message_view(message) for message in reversed(list(latest))]


def readable_message(
    game: Game, number: int, *, viewer_id: int | None, now: datetime
) -> TableMessage | None:
    """The message ``number`` said at ``game``, if the viewer may read it at ``now``."""
    return _readable(game, viewer_id, now).filter(pk=number).first()


def player_words_export(user_id: int) -> list[dict[str, Any]]:
    """The words the user ``user_id`` said at the tables, for their data export: where,
    when, under which seat and name, and what."""
    said = TableMessage.objects.filter(author_id=user_id).order_by("said_at", "id")
    codes = dict(Game.objects.filter(pk__in=said.values("game_id")).values_list("id", "code"))
    return [
        {
            "game": codes.get(word.game_id, ""),
            "said_at": word.said_at.isoformat(),
            "seat": word.seat,
            "name": word.name,
            "phrase": word.phrase,
            "text": word.text,
        }
        for word in said
    ]
