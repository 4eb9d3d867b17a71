"""The deal-secret vault: secrets drawn once and kept, a deal set's shared by its
tables, read into this process's memory once committed, revealed once over."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import DealSecret, Game
from games.rules import GameFinished
from games.table import GameCreated, Table, fold, stream_of
from games.write.vault import Vault, keep_vault

pytestmark = pytest.mark.django_db

OnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def table(deal_set: str | None = None) -> Table:
    return fold(Table(), [GameCreated("ABC123", 3, {}, "", 1, deal_set=deal_set)])


def finished(deal_set: str) -> Table:
    """A table of ``deal_set`` whose game is over, as far as the vault asks."""
    return fold(table(deal_set), [GameFinished((10, 5, 0), (1, 2, 3), ())])


def read_model_row(deal_set: str, status: str) -> Game:
    now = timezone.now()
    return Game.objects.create(
        id=uuid.uuid4(),
        code=uuid.uuid4().hex[:6].upper(),
        status=status,
        player_count=3,
        options={},
        deal_set=deal_set,
        created_at=now,
        updated_at=now,
    )


def test_a_tables_own_vault_is_kept_under_its_games_stream_and_a_deal_sets_under_the_set() -> None:
    game_id = uuid.uuid4()

    assert Vault.of(game_id, table()) == Vault(game_id, None, stream_of(game_id))
    assert Vault.of(game_id, table("set-1")) == Vault(game_id, "set-1", "deals:set-1")


def test_secrets_are_drawn_once_and_a_longer_draw_keeps_those_drawn_before() -> None:
    # Given a table's vault, three hands drawn
    vault = Vault.of(uuid.uuid4(), table())
    first = vault.draw(3)

    # When the vault is drawn from again, for five hands
    again = vault.draw(5)

    # Then the first three are the secrets drawn before, all are 32 bytes and distinct,
    # and each is stored once
    assert again[:3] == first
    assert [len(secret) for secret in again] == [32] * 5
    assert len(set(again)) == 5
    stored = DealSecret.objects.filter(stream=vault.stream).order_by("hand")
    assert [(row.hand, bytes(row.secret)) for row in stored] == list(enumerate(again))


def test_the_tables_of_a_deal_set_deal_from_the_same_secrets() -> None:
    # Given two games of one deal set, the first of which drew the set's secrets
    drawn = Vault.of(uuid.uuid4(), table("set-2")).draw(4)

    # When the second draws as many
    other = Vault.of(uuid.uuid4(), table("set-2"))

    # Then it deals from the very same secrets
    assert other.draw(4) == drawn
    assert [other.secret(hand) for hand in range(4)] == drawn


def test_the_secret_of_a_hand_never_drawn_does_not_exist() -> None:
    # Given a vault drawn for two hands
    vault = Vault.of(uuid.uuid4(), table())
    vault.draw(2)

    # When the third hand's secret is asked for, then it does not exist
    with pytest.raises(DealSecret.DoesNotExist) as missing:
        vault.secret(2)
    assert str(missing.value) == f"{vault.stream} has no secret for hand 2"


def test_a_vault_read_is_kept_in_memory_only_once_its_transaction_commits(
    django_capture_on_commit_callbacks: OnCommit,
) -> None:
    # Given a table's drawn vault
    vault = Vault.of(uuid.uuid4(), table())
    drawn = vault.draw(2)

    # When a hand's secret is read in a transaction that does not commit
    with django_capture_on_commit_callbacks(execute=False):
        assert vault.secret(0) == drawn[0]

    # Then the next read goes to the database again
    with CaptureQueriesContext(connection) as rolled_back:
        assert vault.secret(1) == drawn[1]
    assert len(rolled_back.captured_queries) == 1

    # And once a read's transaction commits, the vault is read from memory
    with django_capture_on_commit_callbacks(execute=True):
        vault.secret(0)
    with CaptureQueriesContext(connection) as committed:
        assert [vault.secret(0), vault.secret(1)] == drawn
    assert committed.captured_queries == []


def test_a_tables_own_vault_kept_ahead_of_its_moves_is_read_without_the_database() -> None:
    # Given a table's drawn vault, kept in this process's memory
    game_id = uuid.uuid4()
    vault = Vault.of(game_id, table())
    drawn = vault.draw(3)
    keep_vault(game_id, table())

    # When its secrets are read
    with CaptureQueriesContext(connection) as queries:
        secrets = [vault.secret(hand) for hand in range(3)]

    # Then they are the drawn secrets, and no query was made
    assert secrets == drawn
    assert queries.captured_queries == []


def test_a_deal_sets_vault_is_never_kept_in_memory_but_read_each_time() -> None:
    # Given a deal set's drawn vault, which a table of the set asked to keep
    game_id = uuid.uuid4()
    vault = Vault.of(game_id, table("set-3"))
    drawn = vault.draw(2)
    keep_vault(game_id, table("set-3"))

    # When a secret is read twice
    with CaptureQueriesContext(connection) as queries:
        secrets = [vault.secret(1), vault.secret(1)]

    # Then each read is a query
    assert secrets == [drawn[1], drawn[1]]
    assert len(queries.captured_queries) == 2


def test_a_tables_own_secrets_may_be_revealed_as_soon_as_each_hand_is_over() -> None:
    assert Vault.of(uuid.uuid4(), table()).may_reveal(table()) is True


def test_a_deal_sets_secrets_are_revealed_only_once_every_table_of_the_set_is_over() -> None:
    # Given a deal set of two tables, the other one still playing
    game_id = uuid.uuid4()
    vault = Vault.of(game_id, table("set-4"))
    other = read_model_row("set-4", Game.Status.PLAYING)

    # Then a table still playing may not reveal, nor one finishing while the other plays
    assert vault.may_reveal(table("set-4")) is False
    assert vault.may_reveal(finished("set-4")) is False

    # When the other table finishes, then the finishing one may reveal
    Game.objects.filter(pk=other.pk).update(status=Game.Status.FINISHED)
    assert vault.may_reveal(finished("set-4")) is True
