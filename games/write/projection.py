"""The game read model projected from the event log, which stays the only truth: kept
up to date by the write path (:mod:`games.write.path`), rebuilt from the log at will."""

from __future__ import annotations

import uuid
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.db import transaction

from eventlog import store
from games.models import Game
from games.read.selectors import game_streams
from games.table import Table, fold, projected
from runtime.columns import column_name, db_value


def project_game(
    game_id: uuid.UUID,
    table: Table,
    *,
    updated_at: datetime,
    created_at: datetime | None = None,
    since: dict[str, Any] | None = None,
) -> None:
    """Bring the game's read model to ``table``, whose last event was recorded at
    ``updated_at`` (and first at ``created_at``, when the row is new).

    ``since``: :func:`projected` of the version the row holds now (the write path
    projects every version it appends, in the same transaction): only the columns
    that changed since are written."""
    statement, params = game_update(game_id, table, updated_at, since)
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(statement, params)
        updated = cursor.rowcount
    # One UPDATE per command; the row exists from the game's first event on, and a
    # rebuild creates it again.
    if not updated:
        values = {**projected(table), "options": table.options.to_dict()}
        Game.objects.create(
            pk=game_id, created_at=created_at or updated_at, updated_at=updated_at, **values
        )


def game_update(
    game_id: uuid.UUID, table: Table, updated_at: datetime, since: dict[str, Any] | None
) -> tuple[str, list[Any]]:
    """The UPDATE of the game's row to ``table`` (the columns changed ``since``), in
    plain SQL (the ORM compiles the statement anew every time), and its parameters."""
    values = projected(table)
    changed = values if since is None else {k: v for k, v in values.items() if since[k] != v}
    if "options" in changed:
        changed["options"] = table.options.to_dict()
    changed["updated_at"] = updated_at
    connection = transaction.get_connection()
    meta = Game._meta
    params = [db_value(Game, name, value, connection) for name, value in changed.items()]
    params.append(db_value(Game, meta.pk.name, game_id, connection))
    return _game_update_sql(tuple(changed)), params


@lru_cache(maxsize=256)
def _game_update_sql(names: tuple[str, ...]) -> str:
    quote = transaction.get_connection().ops.quote_name
    meta = Game._meta
    columns = ", ".join(f"{quote(column_name(Game, name))} = %s" for name in names)
    return f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"


def rebuild_game_projections() -> int:
    """Drop every ``Game`` row and project each game again from its whole log, as
    the write path did: created when its first event was recorded, updated when its
    last was. Returns how many games were rebuilt."""
    with transaction.atomic():
        Game.objects.all().delete()
        games = game_streams()
        for game_id, stream in games:
            records = store.read(stream)
            table = fold(Table(), [record.event for record in records])
            project_game(
                game_id,
                table,
                updated_at=records[-1].recorded_at,
                created_at=records[0].recorded_at,
            )
    return len(games)
