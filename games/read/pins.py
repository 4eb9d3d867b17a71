"""A table's PIN: what opens the scorer page of a table in the room to a player who is
not signed in, printed on the table card with a QR code.

It is derived from the table's game (a new game each round, so a PIN per round) and
the site's secret key, never stored: nothing in the log or the database tells it, and
changing ``SECRET_KEY`` changes every PIN (print the cards again).
"""

from __future__ import annotations

import hmac
import uuid
from hashlib import sha256

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
