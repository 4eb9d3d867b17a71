"""The one write path of the games: load the table, decide, append at the expected
version, project, publish after the commit.

The commands (:mod:`games.commands.actions`) check their input and hand :func:`execute` a
decider: a function of the table that folds the events it decides into it and
returns them. Nothing writes a game's events another way.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation
from django.db import transaction

from accounts.models import User
from eventlog import store
from games.errors import (
    GameIsOver,
    IdempotencyKeyReused,
    TableCancelledError,
    VersionConflict,
)
from games.models import CommandReceipt, Game
from games.rules import RuleError
from games.signals import game_recorded
from games.table import FINISHING, AnyEvent, Table, projected, stream_of
from games.table.deciders import server_moves
from games.write.automatic import automatic_move_delay, schedule_automatic_move
from games.write.projection import game_update, project_game
from games.write.tables import cached_table, load_table, remember_table, trust_table
from games.write.vault import Vault, keep_vault
from runtime import outbox
from runtime.errors import DomainError
from runtime.lifespan import in_background
from runtime.transactions import after_commit

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CommandResult:
    game_id: uuid.UUID
    # The events the command appended (none when it was a retry of an earlier one).
    first_sequence: int
    last_sequence: int
    version: int
    replayed: bool = False
    # What the command appended, the table just before it (the caller's own) and the
    # one it brought the game to (shared with the table cache: never changed): enough
    # to show the new events to a viewer without reading the log again. Empty for a
    # retry answered from its receipt.
    records: tuple[store.Recorded, ...] = field(default=(), compare=False, repr=False)
    before: Table | None = field(default=None, compare=False, repr=False)
    table: Table | None = field(default=None, compare=False, repr=False)


def group_name(game_id: uuid.UUID) -> str:
    return f"game.{game_id.hex}"


class _Stale(Exception):
    """A command decided on this process's cached table, not on the log itself, met
    something the log may explain: it is decided again on the log."""


class _VaultNotKept(_Stale):
    """A move decided on the event loop needed a secret this process has not read yet
    (Django refuses the database on the loop). Nothing was written."""


@dataclass(frozen=True)
class Move:
    """A command as the write path takes it: who acts on which game, at which
    version, what they asked (kept with an idempotency key), and its decider."""

    game_id: uuid.UUID
    actor: User | None
    expected_version: int | None
    idempotency_key: str | None
    command: dict[str, Any]
    decide: Callable[[Table], list[AnyEvent]]
    # Whether a finished game still takes it from an account: a table in the room's
    # confirmations and its director's corrections (its rules refuse the rest).
    after_the_end: bool = False


def execute(move: Move, *, table: Table | None = None) -> CommandResult:
    """The write path: decide on the table, append at its version, project, and
    publish after the commit.

    A command of its own transaction is first decided on the table this process
    last knew to be committed (its own last write, or the last broadcast its
    sockets had), without reading the log. That table may lag behind the log, never
    run ahead of it (events are never changed), so appending after it either lands
    right after the log's last event or hits the unique (stream, sequence) pair.
    Whatever may come of a lag (that conflict, an error, a version other than
    expected, nothing to write) sends the command through again, decided on the
    log as read now: only a command that succeeds is ever answered from the cache.
    """
    if table is None and not transaction.get_connection().in_atomic_block:
        cached = cached_table(move.game_id)
        if cached is not None:
            try:
                return _execute_once(move, cached, trusted=True)
            except _Stale:
                pass
    return _execute_once(move, table, trusted=False)


def _execute_once(move: Move, table: Table | None, *, trusted: bool) -> CommandResult:
    game_id, actor, idempotency_key, command = (
        move.game_id,
        move.actor,
        move.idempotency_key,
        move.command,
    )
    stream = stream_of(game_id)
    actor_id = actor.pk if actor is not None else None
    # A move's events and the read model written as one statement in autocommit (see
    # store.append_with), when nothing else is written with them: no receipt, no
    # deal set to reveal. Only from a trusted table (never inside a transaction, see
    # execute): whatever goes wrong is retried on the log, in a transaction.
    single = (
        trusted
        and table is not None
        and not idempotency_key
        and not table.deal_set
        and transaction.get_connection().vendor == "postgresql"
    )
    with nullcontext() if single else transaction.atomic():
        if idempotency_key:
            receipt = CommandReceipt.objects.filter(stream=stream, key=idempotency_key).first()
            if receipt is not None:
                if receipt.command != command or receipt.actor_id != actor_id:
                    raise IdempotencyKeyReused(idempotency_key)
                return CommandResult(
                    game_id,
                    receipt.first_sequence,
                    receipt.last_sequence,
                    store.version(stream),
                    replayed=True,
                )
        if table is None:
            table = load_table(game_id)
        base, before, start, events = _decided(table, move, trusted)
        if not events:
            if trusted:
                raise _Stale()
            # Nothing to change (a seat given to the bot it already had): no write.
            return CommandResult(game_id, base + 1, base, base)
        try:
            if single:
                recorded = _append_projected(game_id, stream, base, events, actor, table, before)
            else:
                # No savepoint: a conflict ends this transaction anyway.
                recorded = store.append(stream, base, events, actor, savepoint=False)
        except VersionConflict as error:
            if trusted:
                raise _Stale() from error
            raise
        if idempotency_key:
            CommandReceipt.objects.create(
                stream=stream,
                key=idempotency_key,
                actor=actor,
                command=command,
                first_sequence=base + 1,
                last_sequence=table.version,
            )
        if not single:
            project_game(game_id, table, updated_at=recorded[-1].recorded_at, since=before)
        table.moved_at = recorded[-1].recorded_at
        # The table is not changed from here on: the cache may keep it as it is.
        remember_table(game_id, table, recorded[-1], copy=False)
        finished = any(isinstance(event, FINISHING) for event in events)
        if table.deal_set and finished and len(table.revealed) == len(table.game.results):
            _reveal_deal_set(table.deal_set, game_id)
        # As after_the_commit, each part its own hook: the broadcast first.
        after_commit(_committed, game_id, recorded)
        after_commit(_derive, game_id, table, _told(game_id, recorded))
    return _result(game_id, base, recorded, start, table)


def _result(
    game_id: uuid.UUID, base: int, recorded: list[store.Recorded], start: Table, table: Table
) -> CommandResult:
    return CommandResult(
        game_id,
        base + 1,
        table.version,
        table.version,
        records=tuple(recorded),
        before=start,
        table=table,
    )


async def execute_on_loop(move: Move) -> CommandResult:
    """:func:`execute` from a server's event loop. A move decided on this
    process's trusted table and written as one statement (``single`` in
    :func:`_execute_once`: no idempotency key, no deal set) is decided and written
    on the loop itself, through its own connections (``store.append_with_on_loop``),
    with no worker thread. A secret of the vault this process has not read yet
    (Django refuses the database on the loop) is read in the thread, and the move
    decided on the loop again. Anything else, and whatever that way meets (a lag, an
    error), goes through :func:`execute` in a thread, decided on the log."""
    if move.idempotency_key is None and store.writes_on_loop():
        table = cached_table(move.game_id)
        if table is not None and not table.deal_set:
            try:
                return await _execute_on_loop(move, table)
            except _VaultNotKept:
                # The first hand this process ends at a table: the vault is read in
                # the thread (one query) and the move is decided on the loop again.
                # Deciding the whole move in the thread would queue the hand ends of
                # the tables that started together behind one another in the one
                # worker thread (decision 1801).
                await database_sync_to_async(keep_vault)(move.game_id, table)
                # A fresh copy: the decider folded part of the move into the first.
                table = cached_table(move.game_id)
                if table is not None:
                    with suppress(_Stale):
                        return await _execute_on_loop(move, table)
            except _Stale:
                pass
    return await database_sync_to_async(execute)(move)


async def _execute_on_loop(move: Move, table: Table) -> CommandResult:
    game_id = move.game_id
    try:
        base, before, start, events = _decided(table, move, trusted=True)
    except SynchronousOnlyOperation as error:
        raise _VaultNotKept() from error
    if not events:
        raise _Stale()
    stream = stream_of(game_id)
    recorded = store.records_of(stream, base, events, move.actor)
    if store.names_personal_data(recorded):
        raise _Stale()
    update = game_update(game_id, table, recorded[-1].recorded_at, before)
    try:
        updated = await store.append_with_on_loop(stream, recorded, update)
    except VersionConflict as error:
        raise _Stale() from error
    # Committed: what follows is what the thread's way does after its commit.
    at = recorded[-1].recorded_at
    if not updated:
        # As _append_projected: a rebuild replaced the row while the statement waited.
        await database_sync_to_async(project_game)(game_id, table, updated_at=at)
    table.moved_at = at
    remember_table(game_id, table, recorded[-1], copy=False)
    _committed(game_id, recorded)
    told = _told(game_id, recorded)
    if told is not None or automatic_move_delay(table) is not None:
        # In the background: the mover's socket hears its own broadcast only once this
        # handler returns, and a hop to the one worker thread waits behind every
        # other hand end of a burst (decision 1801).
        in_background(database_sync_to_async(_derive)(game_id, table, told))
    return _result(game_id, base, recorded, start, table)


def after_the_commit(
    game_id: uuid.UUID,
    table: Table,
    recorded: Sequence[store.Recorded],
    *,
    since: float | None = None,
) -> None:
    """What a committed command sets off, the same for every way its events were
    written: the table it cached trusted and the game's watchers told, the automatic
    move's schedule (counted from ``since``, a time.time(); None: now), and the
    receivers of what it recorded. Each step runs whatever the others do."""
    _robustly(game_id, partial(_committed, game_id, recorded))
    _derive(game_id, table, _told(game_id, recorded), since)


def _told(game_id: uuid.UUID, recorded: Sequence[store.Recorded]) -> list[str] | None:
    """The types of ``recorded`` if some receiver wants them at this game, else None."""
    types = [record.type for record in recorded]
    return types if game_recorded.wanted(types, game_id) else None


def _derive(
    game_id: uuid.UUID, table: Table, types: list[str] | None, since: float | None = None
) -> None:
    """What follows a commit besides its broadcast: the automatic move's schedule, and
    the receivers of ``types`` (None: none are told)."""
    _robustly(game_id, partial(schedule_automatic_move, game_id, table, since))
    if types is not None:
        _robustly(game_id, partial(_tell, game_id, table.version, types))


def _robustly(game_id: uuid.UUID, step: Callable[[], object]) -> None:
    # As on_commit(robust=True) runs its hooks: the others run whatever one does.
    try:
        step()
    except Exception:
        logger.exception("after the commit of a move of game %s", game_id)


def _tell(game_id: uuid.UUID, version: int, types: list[str]) -> None:
    game_recorded.send(sender=Game, game_id=game_id, version=version, types=types)


def _decided(
    table: Table, move: Move, trusted: bool
) -> tuple[int, dict[str, Any], Table, list[AnyEvent]]:
    """Decide the command on ``table``, folding its events in: the version it was
    decided at, the read model's values and the table before it, and the events."""
    base, expected_version = table.version, move.expected_version
    if expected_version is not None and expected_version != base:
        if trusted:
            raise _Stale()
        raise VersionConflict(expected_version, base)
    before = projected(table)
    start = table.clone()
    try:
        if move.actor is not None and table.status == "finished" and not move.after_the_end:
            # No account's command changes a published record; only the server
            # still writes to it, revealing a deal set's secrets once the set is over.
            raise GameIsOver()
        if table.cancelled:
            raise TableCancelledError()
        events = move.decide(table)
    except (DomainError, RuleError) as error:
        if trusted:
            raise _Stale() from error
        raise
    return base, before, start, events


def _committed(game_id: uuid.UUID, recorded: Sequence[store.Recorded]) -> None:
    """The command's transaction committed: the table it cached stands for the log
    from now on, and the game's watchers are told."""
    trust_table(game_id, recorded[-1])
    publish(game_id, recorded[-1].sequence, recorded)


def _append_projected(
    game_id: uuid.UUID,
    stream: str,
    base: int,
    events: list[AnyEvent],
    actor: User | None,
    table: Table,
    before: dict[str, Any],
) -> list[store.Recorded]:
    """Append ``events`` and bring the read model to ``table`` in one statement."""
    recorded = store.records_of(stream, base, events, actor)
    if store.names_personal_data(recorded):
        # A seat taken under an alias: written with its alias kept beside the log, in
        # a transaction (decision 3503); a rare command, decided again on the log.
        raise _Stale()
    updated = store.append_with(
        stream, recorded, game_update(game_id, table, recorded[-1].recorded_at, before)
    )
    if not updated:
        # A rebuild replaced the row while the statement waited for it: the events are
        # in, so the whole row is written again, as the UPDATE found it now.
        project_game(game_id, table, updated_at=recorded[-1].recorded_at)
    return recorded


def _reveal_deal_set(deal_set: str, finished: uuid.UUID) -> None:
    """The last table of a deal set is over: every other table of it reveals its
    secrets now, through the one write path."""
    others = (
        Game.objects.filter(deal_set=deal_set).exclude(pk=finished).values_list("id", flat=True)
    )
    for other in others:
        execute(
            Move(
                game_id=other,
                actor=None,
                expected_version=None,
                idempotency_key=None,
                command={},
                decide=partial(server_moves_of, other),
            )
        )


def server_moves_of(game_id: uuid.UUID, table: Table) -> list[AnyEvent]:
    """What the server does by itself at ``table`` (deciders.server_moves), from the
    game's own vault or its deal set's."""
    return server_moves(table, Vault.of(game_id, table))


def publish(game_id: uuid.UUID, version: int, records: Sequence[store.Recorded] = ()) -> None:
    """Tell the game's watchers that its log grew to ``version``, with the new
    ``records``: a socket that has sent everything before them folds them as they
    come instead of reading the log; any other reads what it missed from the log.
    Delivered until the layer takes it (:mod:`runtime.outbox`): only the newest
    version of a game waits, a socket that lacks what came before reads it."""
    message: dict[str, Any] = {"type": "game.events", "version": version}
    if records:
        message["records"] = [store.record_to_message(r) for r in records]
    outbox.publish(group_name(game_id), message, _merged)


def _merged(waiting: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """The broadcast that replaces one still waiting: with the waiting one's records
    too when its own follow on from them, so the sockets still fold them all rather
    than read the log."""
    before, after = waiting.get("records"), newer.get("records")
    if before and after and after[0][0] == waiting["version"] + 1:
        return {**newer, "records": before + after}
    return newer
