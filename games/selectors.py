"""Reads: rule presets, games and their tables folded from the log."""

from __future__ import annotations

import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from eventlog import store
from games.domain import Table, fold_records, game_key, stream_of
from games.errors import GameNotFound
from games.models import Game
from games.rules import PRESET_TITLES, PRESETS, RuleOptions, build_schedule
from games.rules.cards import MAX_PLAYERS, MIN_PLAYERS
from games.visibility import may_see_game, same_record, seen_games, seen_status, visible_games


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
#
# An entry is *trusted* when its records are known to be committed: read outside
# any transaction, written by a transaction of this process that has committed, or
# carried by a broadcast (sent only after its writer committed). Events are never
# changed or removed, so a trusted table is a true prefix of its log: the write path
# may decide on it without reading the log, and lets the unique (stream, sequence)
# pair tell it when the log has moved on (see ``games.writepath.execute``).
#
# A cached table is never changed: loads hand out copies.
@dataclass
class _Cached:
    table: Table
    last: store.Recorded
    trusted: bool


class _Tables:
    """The cached tables, the least recently used evicted first. Keyed by the game
    id's integer, in an ``OrderedDict``: a UUID hashes and compares in Python, and
    cachetools' LRU bookkeeping is Python too, several calls for each of the five or
    so lookups a live move makes in each process (decision 1801)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[int, _Cached] = OrderedDict()

    def get(self, game_id: uuid.UUID) -> _Cached | None:
        key = game_key(game_id)
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, game_id: uuid.UUID, entry: _Cached) -> None:
        key = game_key(game_id)
        self._entries[key] = entry
        self._entries.move_to_end(key)
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


# Above the tables a process serves at once: an evicted table is replayed whole.
TABLE_CACHE_SIZE = 4096
_TABLE_CACHE = _Tables(TABLE_CACHE_SIZE)
_TABLE_CACHE_LOCK = threading.Lock()


def load_table(game_id: uuid.UUID) -> Table:
    """The game's table as its log says now: a private copy the caller may change."""
    stream = stream_of(game_id)
    with _TABLE_CACHE_LOCK:
        entry = _TABLE_CACHE.get(game_id)
    records: list[store.Recorded] = []
    if entry is not None:
        marker = entry.last
        records = store.read(stream, after=marker.sequence - 1)
        if records and same_record(records[0], marker):
            table, records = entry.table.clone(), records[1:]
        else:
            entry = None
    if entry is None:
        table = Table()
        records = store.read(stream)
        if not records:
            raise GameNotFound(game_id)
    fold_records(table, records)
    if records:
        # Read outside a transaction, the log is what others committed. What was
        # read replaces what was cached: it may be a write that was rolled back.
        trusted = not connection.in_atomic_block
        _keep(game_id, _Cached(table.clone(), records[-1], trusted), replace=True)
    elif entry is not None and not entry.trusted and not connection.in_atomic_block:
        trust_table(game_id, entry.last)
    return table


def cached_table(game_id: uuid.UUID) -> Table | None:
    """A private copy of the game's trusted table, without reading the log; None
    if this process has none. It may lag behind the log (never run ahead of it)."""
    with _TABLE_CACHE_LOCK:
        entry = _TABLE_CACHE.get(game_id)
        if entry is None or not entry.trusted:
            return None
    return entry.table.clone()


def remember_table(
    game_id: uuid.UUID, table: Table, last: store.Recorded, *, copy: bool = True
) -> None:
    """Keep ``table``, which ``last`` brought to its version, as written by a
    transaction not committed yet (:func:`trust_table` once it is): a copy, or
    (``copy`` false) the table itself, which its caller then never changes again."""
    _keep(game_id, _Cached(table.clone() if copy else table, last, trusted=False), replace=True)


def trust_table(game_id: uuid.UUID, last: store.Recorded) -> None:
    """The transaction that wrote ``last`` committed: the table it cached is trusted."""
    with _TABLE_CACHE_LOCK:
        cached = _TABLE_CACHE.get(game_id)
        if cached is not None and same_record(cached.last, last):
            cached.trusted = True


def offer_table(game_id: uuid.UUID, table: Table, last: store.Recorded) -> None:
    """A table folded from committed records (a broadcast's), ``last`` the newest:
    kept, trusted, if it is newer than the one cached. The cache keeps ``table``
    itself: the caller must never change it again."""
    _keep(game_id, _Cached(table, last, trusted=True))


def _keep(game_id: uuid.UUID, entry: _Cached, *, replace: bool = False) -> None:
    """Cache ``entry``, unless (``replace`` false) the one cached is as new; the same
    table (the same last record) stays, trusted if either is."""
    with _TABLE_CACHE_LOCK:
        cached = _TABLE_CACHE.get(game_id)
        if cached is not None and same_record(cached.last, entry.last):
            cached.trusted = cached.trusted or entry.trusted
        elif replace or cached is None or cached.last.sequence < entry.last.sequence:
            _TABLE_CACHE.put(game_id, entry)


def forget_tables() -> None:
    with _TABLE_CACHE_LOCK:
        _TABLE_CACHE.clear()


def replay_table(game_id: uuid.UUID) -> tuple[Table, list[store.Recorded]]:
    """The table folded from the whole log, bypassing every cache, with the log."""
    records = store.read(stream_of(game_id))
    if not records:
        raise GameNotFound(game_id)
    return fold_records(Table(), records), records


# A game id (UUID) or share code; anything else is no game of ours.
GAME_REFERENCE = re.compile(r"[0-9A-Za-z-]{1,36}")


def find_game(reference: str, *, viewer_id: int | None) -> Game:
    """A game by its id or its share code, if the viewer ``viewer_id`` (None:
    anonymous) may see it; otherwise it does not exist for them."""
    if not isinstance(reference, str) or not GAME_REFERENCE.fullmatch(reference):
        raise GameNotFound(reference)
    game: Game | None
    try:
        game = Game.objects.get(pk=uuid.UUID(reference))
    except (ValueError, Game.DoesNotExist):
        game = Game.objects.filter(code=reference.upper()).first()
    if game is None or not may_see_game(game, viewer_id):
        raise GameNotFound(reference)
    return game


def rematch_game(game_id: uuid.UUID) -> Game | None:
    """The table where the players of the finished game ``game_id`` play again, if
    one of them asked for it."""
    return Game.objects.filter(rematch_of=game_id).first()


@dataclass(frozen=True)
class TableHome:
    """Where another app seats a game: a championship's event, round and table."""

    event: str
    round: int
    table: int
    url: str


# Registered by the apps that seat games (see :func:`add_table_home`): the games app
# knows no app that uses it.
_HOMES: list[Callable[[uuid.UUID], TableHome | None]] = []


def add_table_home(finder: Callable[[uuid.UUID], TableHome | None]) -> None:
    if finder not in _HOMES:
        _HOMES.append(finder)


def table_home(game_id: uuid.UUID) -> TableHome | None:
    """The event table ``game_id`` is played at; None for a table of its own."""
    for finder in _HOMES:
        home = finder(game_id)
        if home is not None:
            return home
    return None


def games_list(status: str | None = None, *, viewer_id: int | None) -> QuerySet[Game]:
    """The games the viewer ``viewer_id`` may see, of ``status`` if given: the status
    they see (a delayed table's finish held back from them is still in play), their
    figures still the read model's (:func:`game_summaries`)."""
    games = visible_games(Game.objects.all(), viewer_id)
    return seen_status(games, status, viewer_id, timezone.now()) if status else games


def game_summaries(games: Iterable[Game], *, viewer_id: int | None) -> list[Game]:
    """``games`` (rows of :func:`games_list`) with the figures the viewer ``viewer_id``
    sees: a delayed table held back from them as the delay has released it."""
    return seen_games(games, viewer_id, timezone.now())
