"""The log's actor: named by id, unchecked by PostgreSQL at each append (decision
3704), and still protected from deletion by Django."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import ProtectedError

from eventlog.store import append
from games.table import PlayerSeated
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

STREAM = "test:actor"


def actor_foreign_keys() -> list[str]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "games_storedevent")
    return [
        name
        for name, constraint in constraints.items()
        if constraint["foreign_key"] and constraint["columns"] == ["actor_id"]
    ]


def test_postgresql_checks_no_actor_at_each_append_and_sqlite_keeps_its_cheap_check() -> None:
    # Given the migrated log
    # Then PostgreSQL holds no foreign key on its actor (a statement and a row lock on
    # the user per appended event, more than half of a move's statements), and SQLite,
    # whose table would have to be rebuilt to lose it, keeps it
    assert len(actor_foreign_keys()) == (0 if connection.vendor == "postgresql" else 1)


def test_a_user_who_acted_in_the_log_cannot_be_deleted() -> None:
    # Given a user who appended an event
    user = UserFactory()
    with transaction.atomic():
        append(STREAM, 0, [PlayerSeated(0, user.pk, "Ana")], user)

    # When the user is deleted, then Django refuses, as the database once did
    with pytest.raises(ProtectedError):
        user.delete()
