"""The tables this process knows: loaded from the log, cached, trusted once
committed, offered by broadcasts."""

import random
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from eventlog import store
from games.commands import actions
from games.errors import VersionConflict
from games.models import Game
from games.rules import Phase, legal_bids, legal_plays
from games.table import Table, fold, stream_of
from games.write.projection import rebuild_game_projections
from games.write.tables import (
    TABLE_CACHE_SIZE,
    cached_table,
    forget_tables,
    load_table,
    offer_table,
    replay_table,
)
from tests.games.drivers import next_move, seated_game, user_to_act


@pytest.mark.django_db(transaction=True)
def test_a_table_written_by_a_transaction_is_trusted_only_once_it_commits() -> None:
    # Given a game this process has cached, trusted, as its last command committed it
    game_id, users = seated_game(players=3)
    assert cached_table(game_id) == load_table(game_id)

    # When a command is made in a transaction that is then rolled back
    with pytest.raises(RuntimeError), transaction.atomic():
        next_move(game_id, users, random.Random(1))
        raise RuntimeError("rolled back")

    # Then the write path finds no trusted table (the move it cached never happened),
    # and a load reads the log and trusts what it reads outside any transaction
    assert cached_table(game_id) is None
    table = load_table(game_id)
    assert table.version == store.version(stream_of(game_id))
    assert cached_table(game_id) == table == replay_table(game_id)[0]


@pytest.mark.django_db(transaction=True)
def test_a_table_offered_from_a_broadcast_is_kept_only_if_newer_and_never_shared() -> None:
    game_id, _ = seated_game(players=3)
    records = store.read(stream_of(game_id))
    older = fold(Table(), [record.event for record in records[:-1]])
    newest = load_table(game_id)

    # An older table is refused: the cache never goes back.
    offer_table(game_id, older, records[-2])
    assert cached_table(game_id) == newest

    # A newer one (another process's move, carried by its broadcast) is kept as trusted.
    forget_tables()
    offer_table(game_id, older, records[-2])
    cached = cached_table(game_id)
    assert cached == older
    # Each caller gets its own copy: changing it changes nothing cached.
    assert cached is not None
    cached.version += 100
    assert cached_table(game_id) == older
    # A load reads the events the offered table lacks.
    assert load_table(game_id) == newest


@pytest.mark.django_db(transaction=True)
def test_a_table_is_found_by_its_game_id_as_text_too_and_the_least_used_leaves_first() -> None:
    # Given a game whose table this process loaded by its id (committed: trusted)
    game_id, _ = seated_game(players=3)
    table = load_table(game_id)

    # Then a caller holding the id as text (a URL, a JSON body) finds the same table
    assert cached_table(str(game_id)) == table  # type: ignore[arg-type]

    # And once the cache is full, the table used longest ago leaves it first
    others = [uuid.uuid4() for _ in range(TABLE_CACHE_SIZE - 1)]
    for other in others:
        offer_table(other, table, store.read(stream_of(game_id))[-1])
    assert cached_table(game_id) == table  # used: now the most recent
    offer_table(uuid.uuid4(), table, store.read(stream_of(game_id))[-1])
    assert cached_table(others[0]) is None
    assert cached_table(game_id) == table


def lag_one_move_behind(game_id: uuid.UUID, users: list[User], rng: random.Random) -> None:
    """Make a move, then leave this process's cache one move behind the log, as if
    the move had been made through another process whose broadcast has not come."""
    records = store.read(stream_of(game_id))
    lagging = load_table(game_id)
    next_move(game_id, users, rng)
    forget_tables()
    offer_table(game_id, lagging, records[-1])
    assert cached_table(game_id) == lagging


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("stating_the_version", [True, False])
def test_a_command_decided_on_a_stale_cached_table_is_decided_again_on_the_log(
    stating_the_version: bool,
) -> None:
    game_id, users = seated_game(players=3)
    rng = random.Random(5)
    for _ in range(12):
        # Given a cache one move behind the log
        lag_one_move_behind(game_id, users, rng)

        # When the player to act (as the log says) moves
        table, _ = replay_table(game_id)
        game = table.game
        command = {
            "game_id": game_id,
            "actor": user_to_act(table, users),
            "expected_version": table.version if stating_the_version else None,
        }
        if game.phase is Phase.BIDDING:
            result = actions.game_place_bid(bid=rng.choice(legal_bids(game)), **command)
        else:
            assert game.phase is Phase.PLAYING
            result = actions.game_play_card(card=str(rng.choice(legal_plays(game))), **command)

        # Then the move lands right after the log's last event, once
        replayed, log = replay_table(game_id)
        assert result.first_sequence == table.version + 1
        assert result.version == replayed.version
        assert [record.sequence for record in log] == list(range(1, len(log) + 1))
        assert cached_table(game_id) == replayed == load_table(game_id)


@pytest.mark.django_db(transaction=True)
def test_a_stale_expected_version_is_a_conflict_even_when_the_cache_agrees_with_it() -> None:
    # Given a cache one move behind the log, and a client that saw what it saw
    game_id, users = seated_game(players=3)
    rng = random.Random(2)
    lag_one_move_behind(game_id, users, rng)
    stale = cached_table(game_id)
    assert stale is not None
    table, _ = replay_table(game_id)

    # When it moves at the version it saw, the version the cache holds
    with pytest.raises(VersionConflict) as conflict:
        actions.game_place_bid(
            game_id=game_id,
            actor=user_to_act(table, users),
            bid=0,
            expected_version=stale.version,
        )

    # Then it is told the version the log is at, and nothing is written
    assert (conflict.value.expected, conflict.value.actual) == (stale.version, table.version)
    assert store.version(stream_of(game_id)) == table.version


@pytest.mark.django_db(transaction=True)
def test_a_command_the_stale_table_allows_too_meets_the_log_and_lands_after_it() -> None:
    # Given a cache one move behind the log
    game_id, users = seated_game(players=3)
    lag_one_move_behind(game_id, users, random.Random(4))
    moved, _ = replay_table(game_id)

    # When the creator pauses the game, which the stale table allows as well (so its
    # append after the stale version meets the move already in the log)
    result = actions.game_pause(game_id=game_id, actor=users[0], reason="tea")

    # Then the pause lands after that move, and the move is kept
    paused, log = replay_table(game_id)
    assert result.first_sequence == moved.version + 1 == paused.version
    assert [record.sequence for record in log] == list(range(1, len(log) + 1))
    assert log[-1].type == "GamePaused"
    assert log[-2].sequence == moved.version
    assert paused.paused
    assert cached_table(game_id) == paused


@pytest.mark.django_db(transaction=True)
def test_a_move_decided_on_the_trusted_table_is_written_in_one_statement_on_postgresql() -> None:
    # Given a game whose table this process trusts, at its first bid
    game_id, users = seated_game(players=3)
    table = cached_table(game_id)
    assert table is not None and table.game.phase is Phase.BIDDING

    # When the player to act bids
    with CaptureQueriesContext(connection) as queries:
        result = actions.game_place_bid(
            game_id=game_id, actor=user_to_act(table, users), bid=legal_bids(table.game)[0]
        )

    # Then the event and the read model are written by one statement (PostgreSQL's
    # data-modifying WITH, in autocommit), or on SQLite by one transaction's INSERT and
    # UPDATE; the log is read by neither
    statements = [query["sql"] for query in queries.captured_queries]
    if connection.vendor == "postgresql":
        assert len(statements) == 1
        assert statements[0].startswith('WITH appended AS (INSERT INTO "games_storedevent"')
        assert ') UPDATE "games_game" SET ' in statements[0]
    else:
        assert [statement.split()[0] for statement in statements] == [
            "BEGIN",
            "INSERT",
            "UPDATE",
            "COMMIT",
        ]
    # And both hold the move: the read model is what a rebuild from the log makes
    replayed, log = replay_table(game_id)
    assert result.version == replayed.version == log[-1].sequence
    assert log[-1].type == "BidPlaced"
    row = Game.objects.filter(pk=game_id).values().get()
    assert (row["version"], row["hand"], row["status"]) == (replayed.version, 0, "playing")
    rebuild_game_projections()
    assert Game.objects.filter(pk=game_id).values().get() == row
