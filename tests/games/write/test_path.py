"""The write path from a server's event loop (``execute_on_loop``): a live move
decided on the process's trusted table is written there, through the loop's own
connections; anything that way cannot settle goes through the worker thread,
decided on the log, and lands once."""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from accounts.models import User
from eventlog import loopdb, store
from games.commands import actions
from games.errors import VersionConflict
from games.models import Game
from games.rules import Phase, legal_bids, legal_plays
from games.signals import game_recorded
from games.table import Table, stream_of
from games.write import vault
from games.write.path import Move, execute_on_loop
from games.write.tables import forget_tables, load_table, remember_table, trust_table
from runtime.lifespan import settled
from tests.games.drivers import next_move, seated_game, user_to_act

# For the tests of what a server's loop writes itself (here and the command benchmark's).
loop_writes_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a server's loop writes through psycopg's async driver to PostgreSQL "
    "(production mode); on embedded SQLite every move goes through the worker thread",
)
pytestmark = [pytest.mark.django_db(transaction=True), loop_writes_only]

TIMEOUT = 10


@pytest.fixture
async def loop_writes() -> AsyncIterator[None]:
    """The loop's own connections open, as a server process's lifespan opens them."""
    async with loopdb.serving():
        assert store.writes_on_loop()
        yield
    assert not store.writes_on_loop()


def move_for(
    game_id: uuid.UUID, table: Table, users: Sequence[User], version: int | None = None
) -> Move:
    """The first legal move of whoever is to act, at ``version`` (the table's if None)."""
    game = table.game
    common: dict[str, Any] = {
        "game_id": game_id,
        "actor": user_to_act(table, users),
        "expected_version": table.version if version is None else version,
    }
    if game.phase is Phase.BIDDING:
        return actions.move_place_bid(bid=legal_bids(game)[0], **common)
    return actions.move_play_card(card=str(legal_plays(game)[0]), **common)


async def started() -> tuple[uuid.UUID, list[User], Table]:
    """A started Championship game, its players, and its table (cached, trusted)."""
    game_id, users = await database_sync_to_async(seated_game)(4, "championship")
    return game_id, users, await database_sync_to_async(load_table)(game_id)


async def log_of(game_id: uuid.UUID) -> list[store.Recorded]:
    return await database_sync_to_async(store.read)(stream_of(game_id))


async def test_a_live_move_is_written_from_the_loop_while_the_worker_thread_is_busy(
    loop_writes: None,
) -> None:
    # Given a game whose table this process holds, and its worker thread held up
    game_id, users, table = await started()
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)())
    try:
        # When the player to act moves from the loop
        result = await asyncio.wait_for(execute_on_loop(move_for(game_id, table, users)), TIMEOUT)
    finally:
        release.set()
        await busy

    # Then it is in the log, once, and the read model is at its version
    log = await log_of(game_id)
    assert result.version == table.version + 1 == len(log)
    assert [r.sequence for r in result.records] == [table.version + 1]
    assert result.records[0].type == log[-1].type == "BidPlaced"
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert game.version == result.version
    # And the table it brought the game to is the one the next move is decided on
    again = await asyncio.wait_for(execute_on_loop(move_for(game_id, result.table, users)), TIMEOUT)
    assert again.version == len(await log_of(game_id)) == table.version + 2


async def test_a_move_with_no_table_held_here_is_decided_on_the_log(loop_writes: None) -> None:
    # Given a game this process holds no table of
    game_id, users, table = await started()
    forget_tables()

    # When its player to act moves from the loop
    result = await execute_on_loop(move_for(game_id, table, users))

    # Then it lands at the next version
    assert result.version == table.version + 1 == len(await log_of(game_id))


async def test_a_move_decided_on_a_table_behind_the_log_is_decided_again_on_the_log(
    loop_writes: None,
) -> None:
    # Given a game whose table here is one move behind its log (another process moved)
    game_id, users, table = await started()
    behind = table.clone()
    last = (await log_of(game_id))[-1]
    await database_sync_to_async(next_move)(game_id, users, random.Random(1))
    now = await database_sync_to_async(load_table)(game_id)
    remember_table(game_id, behind, last)
    trust_table(game_id, last)

    # When the next player moves at the log's version, and a stale client at the old one
    result = await execute_on_loop(move_for(game_id, now, users))
    with pytest.raises(VersionConflict):
        await execute_on_loop(move_for(game_id, now, users, version=table.version))

    # Then the first lands after the other process's move, and the stale one nowhere
    assert result.version == table.version + 2 == len(await log_of(game_id))


async def test_moves_of_many_games_made_at_once_are_written_together_each_once(
    loop_writes: None,
) -> None:
    # Given eight games whose tables this process holds
    games = [await started() for _ in range(8)]
    before = loopdb.writes().statements, loopdb.writes().appends

    # When each game's player to act moves from the loop at the same moment
    results = await asyncio.wait_for(
        asyncio.gather(
            *(execute_on_loop(move_for(game_id, table, users)) for game_id, users, table in games)
        ),
        TIMEOUT,
    )

    # Then each move is in its game's log, once, and its read model at its version
    for (game_id, _, table), result in zip(games, results, strict=True):
        assert result.version == table.version + 1
        assert await sequences_on_loop(game_id) == list(range(1, result.version + 1))
        game = await database_sync_to_async(Game.objects.get)(pk=game_id)
        assert game.version == result.version
    # And, made in one turn of the loop, all eight were written in one statement
    statements, appends = loopdb.writes().statements, loopdb.writes().appends
    assert (statements - before[0], appends - before[1]) == (1, 8)


async def test_a_move_behind_the_log_written_together_with_others_fails_alone(
    loop_writes: None,
) -> None:
    # Given four games held here, one of whose tables is a move behind its log
    games = [await started() for _ in range(4)]
    game_id, users, table = games[1]
    last = (await log_of(game_id))[-1]
    await database_sync_to_async(next_move)(game_id, users, random.Random(1))
    remember_table(game_id, table.clone(), last)
    trust_table(game_id, last)
    # and a write under way, so that the next ones go together in the other writer
    before = loopdb.writes().statements, loopdb.writes().appends
    first_id, first_users, first_table = games[0]
    first = asyncio.ensure_future(execute_on_loop(move_for(first_id, first_table, first_users)))
    await asyncio.sleep(0)

    # When the other three games' players move at once, the one behind at its old version
    results = await asyncio.wait_for(
        asyncio.gather(
            *(execute_on_loop(move_for(g, t, u)) for g, u, t in games[1:]),
            return_exceptions=True,
        ),
        TIMEOUT,
    )
    await first

    # Then the one behind is refused (the log moved on), and the others land, once
    assert isinstance(results[0], VersionConflict)
    assert await sequences_on_loop(game_id) == list(range(1, table.version + 2))
    for (other_id, _, other_table), result in zip(games[2:], results[1:], strict=True):
        assert not isinstance(result, BaseException)
        assert result.version == other_table.version + 1
        assert await sequences_on_loop(other_id) == list(range(1, result.version + 1))
    # And the three's statement, refused whole, was written again one append at a time
    statements, appends = loopdb.writes().statements, loopdb.writes().appends
    assert (statements - before[0], appends - before[1]) == (3, 3)


async def test_a_move_that_needs_a_secret_from_the_vault_lands_once(loop_writes: None) -> None:
    # Given a game at the last card of its first hand (one card each), its vault no
    # longer kept in memory (a restarted process)
    game_id, users, table = await at_last_card_vault_unread()
    told: list[list[str]] = []

    def receiver(*, types: list[str], **kwargs: Any) -> None:
        told.append(types)

    game_recorded.listen(receiver, types=["HandScored"], dispatch_uid="test-writepath")
    try:
        # When the last card is played from the loop, and then the next bid
        result = await execute_on_loop(move_for(game_id, table, users))
        bid = await execute_on_loop(move_for(game_id, result.table, users))
        await settled()
    finally:
        game_recorded.disconnect(dispatch_uid="test-writepath")

    # Then the hand is scored and the next one dealt from the vault, each event once
    log = await log_of(game_id)
    types = [record.type for record in log[table.version :]]
    assert types[:3] == ["CardPlayed", "TrickTaken", "HandScored"]
    assert "DealRevealed" in types and "HandDealt" in types
    assert types[-1] == "BidPlaced"
    assert [record.sequence for record in log] == list(range(1, bid.version + 1))
    # And the receivers of a scored hand are told of that move, and of no other
    assert told == [[record.type for record in result.records]]


async def test_a_hand_ended_before_its_vault_is_read_here_is_written_from_the_loop(
    loop_writes: None,
) -> None:
    # Given a game at the last card of its first hand, its vault not read by this
    # process yet, and a spy on the statements the worker thread runs
    game_id, users, table = await at_last_card_vault_unread()
    statements: list[str] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql)
        return execute(sql, params, many, context)

    # The worker thread's own connection: each thread has its own.
    wrappers = await database_sync_to_async(lambda: connection.execute_wrappers)()
    wrappers.append(spy)
    try:
        # When its last card is played from the loop
        result = await execute_on_loop(move_for(game_id, table, users))
        await settled()
    finally:
        wrappers.remove(spy)

    # Then the thread read the vault (and, after the commit, the receivers of a scored
    # hand read what they need) but wrote nothing: the loop wrote the move, once
    assert "games_dealsecret" in statements[0]
    assert all(statement.startswith("SELECT") for statement in statements)
    log = await log_of(game_id)
    assert [record.sequence for record in log] == list(range(1, result.version + 1))
    assert [record.type for record in result.records][:3] == [
        "CardPlayed",
        "TrickTaken",
        "HandScored",
    ]
    assert stream_of(game_id) in vault._VAULTS


async def test_a_hand_end_is_answered_before_its_receivers_are_told(loop_writes: None) -> None:
    # Given a game at the last card of its first hand, its vault read by this process,
    # a receiver of scored hands, and the worker thread held up
    game_id, users, table = await at_last_card_vault_unread()
    await database_sync_to_async(vault.keep_vault)(game_id, table)
    told: list[list[str]] = []

    def receiver(*, types: list[str], **kwargs: Any) -> None:
        told.append(types)

    game_recorded.listen(receiver, types=["HandScored"], dispatch_uid="test-writepath")
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)())
    try:
        # When the last card is played from the loop
        result = await asyncio.wait_for(execute_on_loop(move_for(game_id, table, users)), TIMEOUT)
        # Then it is answered, durable, while the receivers still wait for the thread
        assert told == []
        assert await sequences_on_loop(game_id) == list(range(1, result.version + 1))
    finally:
        release.set()
        await busy
        # And once the thread is free they are told of the move, once
        await settled()
        game_recorded.disconnect(dispatch_uid="test-writepath")
    assert told == [[record.type for record in result.records]]


async def test_a_hand_end_that_no_receiver_has_anything_to_do_with_never_waits_for_the_thread(
    loop_writes: None,
) -> None:
    # Given a game at the last card of its first hand, its vault read, a receiver of
    # scored hands whose read of the game found nothing to do there (as a player's
    # watch runs it; the championships' finds the game in no event), and the worker
    # thread held up
    game_id, users, table = await at_last_card_vault_unread()
    await database_sync_to_async(vault.keep_vault)(game_id, table)
    told: list[list[str]] = []

    def receiver(*, types: list[str], **kwargs: Any) -> None:
        told.append(types)

    game_recorded.listen(
        receiver,
        types=["HandScored"],
        dispatch_uid="test-writepath",
        prepare=lambda game_id: None,
    )
    await database_sync_to_async(game_recorded.prepare)(game_id)
    release = threading.Event()
    busy = asyncio.ensure_future(database_sync_to_async(release.wait)())
    try:
        # When the last card is played from the loop
        result = await asyncio.wait_for(execute_on_loop(move_for(game_id, table, users)), TIMEOUT)
        # Then the hand is scored, and nothing it set off waits for the thread
        assert [record.type for record in result.records][:3] == [
            "CardPlayed",
            "TrickTaken",
            "HandScored",
        ]
        await asyncio.wait_for(settled(), TIMEOUT)
    finally:
        release.set()
        await busy
        game_recorded.disconnect(dispatch_uid="test-writepath")
    # And no receiver was told
    assert told == []


async def sequences_on_loop(game_id: uuid.UUID) -> list[int]:
    """The game's logged sequences, read through the loop's own connections."""
    async with loopdb.connection() as conn:
        cursor = await conn.execute(
            "SELECT sequence FROM games_storedevent WHERE stream = %s ORDER BY sequence",
            [stream_of(game_id)],
        )
        return [row[0] for row in await cursor.fetchall()]


async def at_last_card_vault_unread() -> tuple[uuid.UUID, list[User], Table]:
    """:func:`started`, played to the last card of its first hand (one card each), its
    vault not read by this process (a restarted one)."""
    game_id, users, table = await started()
    rng = random.Random(3)
    while not (table.game.phase is Phase.PLAYING and _last_card(table)):
        await database_sync_to_async(next_move)(game_id, users, rng)
        table = await database_sync_to_async(load_table)(game_id)
    with vault._VAULTS_LOCK:
        vault._VAULTS.clear()
    return game_id, users, table


def _last_card(table: Table) -> bool:
    holdings = table.game.holdings
    return sum(len(held) for held in holdings) == 1
