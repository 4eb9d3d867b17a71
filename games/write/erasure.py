"""A deleted account's part of the games: the aliases it sat under, erased from beside
the log, and what was projected from them brought back to the log as it now reads
(decision 3503). The games and their verification are untouched: no rule reads an
alias."""

from __future__ import annotations

import uuid
from functools import partial
from typing import Any

from django.db import transaction

from eventlog import store
from games.models import CommandReceipt
from games.table import STREAM_PREFIX, Table, fold_records
from games.visibility import forget_released
from games.write.projection import project_game
from games.write.tables import forget_table


def player_erase(user_id: int) -> None:
    """Erase the aliases of the user ``user_id`` at every table they sat at: the
    seats read as "Deleted player" from now on, in the read model and in this
    process's cached tables; a command receipt that kept an alias of theirs goes (a
    retry of that command, long done, is then decided anew and refused as a repeat)."""
    aliases = store.erased_values(user_id, STREAM_PREFIX)
    streams = store.erase(user_id, STREAM_PREFIX)
    games = []
    for stream in streams:
        records = store.read(stream)
        game_id = uuid.UUID(stream.removeprefix(STREAM_PREFIX))
        project_game(game_id, fold_records(Table(), records), updated_at=records[-1].recorded_at)
        games.append(game_id)
    receipts = CommandReceipt.objects.filter(stream__in=streams).values_list("pk", "command")
    CommandReceipt.objects.filter(
        pk__in=[pk for pk, command in receipts if _names(command, aliases)]
    ).delete()
    # Now, for this transaction's own reads, and once committed, for whatever read the
    # log as it stood meanwhile.
    _forget(games)
    transaction.on_commit(partial(_forget, games))


def _forget(games: list[uuid.UUID]) -> None:
    """This process's tables of ``games``, kept for the write path and for held-back
    viewers: read from the log again when next asked."""
    for game_id in games:
        forget_table(game_id)
        forget_released(game_id)


def _names(value: Any, aliases: set[str]) -> bool:
    """Whether ``value`` (a command as JSON) holds one of ``aliases``."""
    if isinstance(value, str):
        return value in aliases
    if isinstance(value, dict):
        return any(_names(item, aliases) for item in value.values())
    if isinstance(value, list):
        return any(_names(item, aliases) for item in value)
    return False
