"""Reads: rule presets, games and their tables folded from the log."""

from __future__ import annotations

import re
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.db.models import QuerySet

from games import eventstore
from games.domain import Table, fold, stream_of
from games.errors import GameNotFound
from games.models import Game
from games.rules import PRESET_TITLES, PRESETS, RuleOptions, build_schedule
from games.rules.cards import MAX_PLAYERS, MIN_PLAYERS


@dataclass(frozen=True)
class PresetSummary:
    name: str
    title: str
    options: RuleOptions
    # Cards dealt per hand, by player count.
    sequences: dict[int, list[int]]


def rule_presets() -> list[PresetSummary]:
    """Every named preset with its deal sequence for each table size."""
    return [
        PresetSummary(
            name=name,
            title=PRESET_TITLES[name],
            options=options,
            sequences={
                players: [spec.cards for spec in build_schedule(options, players)]
                for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            },
        )
        for name, options in PRESETS.items()
    ]


# Tables folded from their streams, by game id, each with the last record folded
# into it, so that a command re-reads only the events after it. The log stays the
# truth: every load checks that the log still holds that very record (a write
# that was rolled back does not), and replays from the start when it does not.
_TABLE_CACHE: OrderedDict[uuid.UUID, tuple[Table, eventstore.Recorded]] = OrderedDict()
_TABLE_CACHE_LOCK = threading.Lock()
TABLE_CACHE_SIZE = 512


def load_table(game_id: uuid.UUID) -> Table:
    """The game's table as its log says now: a private copy the caller may change."""
    stream = stream_of(game_id)
    with _TABLE_CACHE_LOCK:
        entry = _TABLE_CACHE.get(game_id)
    records: list[eventstore.Recorded] = []
    if entry is not None:
        cached, marker = entry
        records = eventstore.read(stream, after=marker.sequence - 1)
        if records and _same_record(records[0], marker):
            table, records = cached.clone(), records[1:]
        else:
            entry = None
    if entry is None:
        table = Table()
        records = eventstore.read(stream)
        if not records:
            raise GameNotFound(game_id)
    fold(table, [record.event for record in records])
    if records:
        remember_table(game_id, table, records[-1])
    return table


def _same_record(a: eventstore.Recorded, b: eventstore.Recorded) -> bool:
    return (a.sequence, a.type, a.recorded_at) == (b.sequence, b.type, b.recorded_at)


def remember_table(game_id: uuid.UUID, table: Table, last: eventstore.Recorded) -> None:
    """Keep a copy of ``table``, which ``last`` brought to its version."""
    with _TABLE_CACHE_LOCK:
        _TABLE_CACHE[game_id] = (table.clone(), last)
        _TABLE_CACHE.move_to_end(game_id)
        while len(_TABLE_CACHE) > TABLE_CACHE_SIZE:
            _TABLE_CACHE.popitem(last=False)


def forget_tables() -> None:
    with _TABLE_CACHE_LOCK:
        _TABLE_CACHE.clear()


def replay_table(game_id: uuid.UUID) -> tuple[Table, list[eventstore.Recorded]]:
    """The table folded from the whole log, bypassing every cache, with the log."""
    records = eventstore.read(stream_of(game_id))
    if not records:
        raise GameNotFound(game_id)
    return fold(Table(), [record.event for record in records]), records


# A game id (UUID) or share code; anything else is no game of ours.
GAME_REFERENCE = re.compile(r"[0-9A-Za-z-]{1,36}")


def find_game(reference: str) -> Game:
    """A game by its id or its share code."""
    if not isinstance(reference, str) or not GAME_REFERENCE.fullmatch(reference):
        raise GameNotFound(reference)
    try:
        return Game.objects.get(pk=uuid.UUID(reference))
    except (ValueError, Game.DoesNotExist):
        pass
    try:
        return Game.objects.get(code=reference.upper())
    except Game.DoesNotExist:
        raise GameNotFound(reference) from None


def games_list(status: str | None = None) -> QuerySet[Game]:
    games = Game.objects.all()
    return games.filter(status=status) if status else games
