"""A table's PIN: what opens the scorer page of a table in the room to a player who is
not signed in, printed on the table card with a QR code.

It is derived from the table's game (a new game each round, so a PIN per round) and
the site's secret key, never stored: nothing in the log or the database tells it, and
changing ``SECRET_KEY`` changes every PIN (print the cards again).
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Mapping, MutableMapping
from hashlib import sha256
from typing import Any

from django.conf import settings

PIN_DIGITS = 6


def table_pin(game_id: uuid.UUID) -> str:
    digest = hmac.new(
        settings.SECRET_KEY.encode(), b"atu-table-pin:" + game_id.bytes, sha256
    ).digest()
    return str(int.from_bytes(digest[:8], "big") % 10**PIN_DIGITS).zfill(PIN_DIGITS)


def pin_matches(game_id: uuid.UUID, pin: object) -> bool:
    """Whether ``pin`` is the table's, compared in constant time."""
    return isinstance(pin, str) and hmac.compare_digest(pin.strip(), table_pin(game_id))


# A session's scorer grants: the tables in the room whose PIN it gave, and the seat it
# chose at each (a string key: sessions are JSON).
SESSION_KEY = "atu_scorer_seats"
# Enough for a long championship day on one phone; the oldest grant goes first.
MAX_GRANTS = 32


def grant_seat(session: MutableMapping[str, Any], game_id: uuid.UUID, seat: int) -> None:
    grants = {
        key: value for key, value in session.get(SESSION_KEY, {}).items() if key != str(game_id)
    }
    grants[str(game_id)] = seat
    session[SESSION_KEY] = dict(list(grants.items())[-MAX_GRANTS:])


def granted_seat(session: Mapping[str, Any] | None, game_id: uuid.UUID) -> int | None:
    """The seat this session scores for at the table ``game_id``, if it gave its PIN."""
    if session is None:
        return None
    seat = session.get(SESSION_KEY, {}).get(str(game_id))
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
