"""Finding the game a management command is about, with errors fit for a terminal."""

from __future__ import annotations

import re
import uuid

from django.core.management.base import CommandError

from eventlog import store
from games.commands.actions import CODE_ALPHABET, CODE_LENGTH
from games.models import Game
from games.table import STREAM_PREFIX, stream_of

_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")


def game_id_from(reference: str) -> uuid.UUID:
    """The id of the game that ``reference`` (its id or share code) names.

    Looks in the event log, not only the read model, so that it works even while
    the projections are dropped; raises :class:`CommandError` when there is no
    such game or the reference is neither an id nor a code.
    """
    reference = reference.strip()
    try:
        game_id = uuid.UUID(reference)
    except ValueError:
        code = reference.upper()
        if not _CODE.fullmatch(code):
            raise CommandError(
                f"{reference!r} is neither a game id (a UUID) nor a share code "
                f"({CODE_LENGTH} letters and digits)"
            ) from None
        found = Game.objects.filter(code=code).values_list("id", flat=True).first()
        if found is not None:
            return found
        stream = store.stream_with("GameCreated", code=code)
        if stream is None or not stream.startswith(STREAM_PREFIX):
            raise CommandError(f"there is no game with the code {code}") from None
        return uuid.UUID(stream.removeprefix(STREAM_PREFIX))
    if not store.version(stream_of(game_id)):
        raise CommandError(f"there is no game {game_id}")
    return game_id
