"""The tables as this process knows them: folded from the log, kept in a cache, and
trusted once what brought them there is known to be committed. The write path
decides on them; the sockets offer the tables they fold from broadcasts."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.db import connection

from eventlog import store
from games.errors import GameNotFound
from games.table import Table, fold_records, game_key, stream_of
from games.visibility import same_record


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
# pair tell it when the log has moved on (see ``games.write.path.execute``).
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
    cachetools' LRU bookkeeping is Python too, several calls for each of the lookups
    a live move makes in each process (decision 1801)."""

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

    def forget(self, game_id: uuid.UUID) -> None:
        self._entries.pop(game_key(game_id), None)


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


def forget_table(game_id: uuid.UUID) -> None:
    """Drop the game's cached table: the next load folds it from the log again (a
    seat's alias erased beside the log, decision 3503)."""
    with _TABLE_CACHE_LOCK:
        _TABLE_CACHE.forget(game_id)


def replay_table(game_id: uuid.UUID) -> tuple[Table, list[store.Recorded]]:
    """The table folded from the whole log, bypassing every cache, with the log."""
    records = store.read(stream_of(game_id))
    if not records:
        raise GameNotFound(game_id)
    return fold_records(Table(), records), records
