"""The application's own database role (production mode with ``DATABASE_OWNER_URL``):
it owns nothing and is no superuser; it may read and write the ordinary tables but
only read and append to the event log and the deal-secret vault, never change,
remove, empty, alter (so disable their guards) or drop them; and the platform plays
a whole game through a server process connected as it."""

from __future__ import annotations

import random
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import ProgrammingError, connection, transaction

from accounts.services import user_token
from eventlog.appendonly import EVENT_TABLE
from eventlog.store import append, read
from games.appendonly import GUARDS, VAULT_TABLE
from games.models import DealSecret
from games.read.verification import verify_game
from games.rules import Phase, Visibility, legal_bids, legal_plays
from games.table import PlayerSeated
from games.write.tables import load_table
from runtime.database_roles import app_role, owner_configured
from tests.accounts.factories import UserFactory
from tests.database import owner_connection
from tests.games.live.test_two_processes import post_json, servers, this_tests_database_url
from tests.games.web.test_api import SHORT

pytestmark = pytest.mark.skipif(
    not owner_configured() or connection.vendor != "postgresql",
    reason="needs PostgreSQL with the application's and the owner's roles "
    "(production mode with DATABASE_OWNER_URL)",
)

STREAM = "test:stream"
PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
ORDINARY = {"SELECT", "INSERT", "UPDATE", "DELETE"}
APPEND_ONLY = {"SELECT", "INSERT"}
INSUFFICIENT_PRIVILEGE = "42501"


def fetch(sql: str, params: list[object] | None = None) -> list[tuple[object, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return list(cursor.fetchall())


def execute(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


def privileges() -> dict[str, set[str]]:
    """What the application's role may do on each table of the schema."""
    tables = connection.introspection.table_names(include_views=False)
    return {
        table: {
            privilege
            for privilege in PRIVILEGES
            if fetch("SELECT has_table_privilege(current_user, %s, %s)", [table, privilege])[0][0]
        }
        for table in tables
    }


def expected_privileges() -> dict[str, set[str]]:
    tables = connection.introspection.table_names(include_views=False)
    return {table: APPEND_ONLY if table in GUARDS else ORDINARY for table in tables}


@pytest.mark.django_db
def test_the_application_role_is_no_superuser_and_owns_nothing() -> None:
    assert fetch(
        "SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles "
        "WHERE rolname = current_user"
    ) == [(False, False, False, False)]
    assert fetch(
        "SELECT count(*) FROM pg_class WHERE relowner = "
        "(SELECT oid FROM pg_roles WHERE rolname = current_user)"
    ) == [(0,)]
    assert fetch("SELECT current_user")[0][0] == app_role(connection)


@pytest.mark.django_db
def test_the_application_role_may_only_read_and_append_to_the_log_and_the_vault() -> None:
    assert privileges() == expected_privileges()
    assert privileges()[EVENT_TABLE] == {"SELECT", "INSERT"}
    assert privileges()[VAULT_TABLE] == {"SELECT", "INSERT"}
    assert privileges()["games_game"] == {"SELECT", "INSERT", "UPDATE", "DELETE"}


@pytest.mark.django_db
def test_the_application_role_reads_and_appends_events_and_secrets() -> None:
    append(STREAM, 0, [PlayerSeated(0, 1, "Ana")], None)
    DealSecret.objects.create(stream=STREAM, hand=0, secret=bytes(32))

    assert [(r.sequence, r.type) for r in read(STREAM)] == [(1, "PlayerSeated")]
    assert [bytes(s) for s in DealSecret.objects.values_list("secret", flat=True)] == [bytes(32)]


@pytest.mark.django_db
@pytest.mark.parametrize("table", [EVENT_TABLE, VAULT_TABLE])
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE {table} SET stream = 'forged'",
        "DELETE FROM {table}",
        "TRUNCATE {table}",
        "ALTER TABLE {table} DISABLE TRIGGER USER",
        "ALTER TABLE {table} DISABLE TRIGGER ALL",
        "DROP TABLE {table}",
    ],
)
def test_the_application_role_may_not_change_empty_alter_or_drop_them(
    table: str, statement: str
) -> None:
    with pytest.raises(ProgrammingError) as refused, transaction.atomic():
        execute(statement.format(table=table))

    assert refused.value.__cause__.sqlstate == INSUFFICIENT_PRIVILEGE  # type: ignore[union-attr]
    assert privileges() == expected_privileges()


@pytest.mark.django_db(transaction=True)
def test_migrate_as_owner_grants_exactly_what_the_application_may_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given a grant made by hand beyond the application's needs
    with owner_connection() as owner, owner.cursor() as cursor:
        cursor.execute(f"GRANT UPDATE, DELETE ON {EVENT_TABLE} TO {app_role(connection)}")
    assert "UPDATE" in privileges()[EVENT_TABLE]

    call_command("migrate_as_owner", verbosity=0)

    assert privileges() == expected_privileges()
    tables = len(expected_privileges())
    assert capsys.readouterr().out == (
        f"Granted {app_role(connection)} its privileges on {tables} tables.\n"
    )


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_is_played_through_a_server_connected_as_the_application_role(
    tmp_path: Path,
) -> None:
    assert urlsplit(this_tests_database_url()).username == app_role(connection)
    users = UserFactory.create_batch(3)
    tokens = {user.pk: user_token(user=user) for user in users}
    rng = random.Random(3)

    with servers(1, tmp_path) as (address,):
        api = f"http://{address}/api/games"
        status, created = post_json(
            f"{api}/", {"player_count": 3, "options": SHORT}, tokens[users[0].pk]
        )
        assert status == 201, created
        game_id = created["id"]
        for number, user in enumerate(users):
            status, answer = post_json(
                f"{api}/{game_id}/join/", {"alias": f"P{number}"}, tokens[user.pk]
            )
            assert status == 200, answer
        while (table := load_table(game_id)).status != "finished":
            game = table.game
            seat = table.seats[game.turn]
            assert seat is not None
            if game.phase is Phase.BIDDING:
                move, body = "bid", {"bid": rng.choice(legal_bids(game))}
            elif game.phase is Phase.PLAYING:
                move, body = "play", {"card": str(rng.choice(legal_plays(game)))}
            else:
                move, body = "one-card-mode", {"mode": rng.choice(list(Visibility)).value}
            status, answer = post_json(
                f"{api}/{game_id}/{move}/",
                {**body, "expected_version": table.version},
                tokens[seat.user_id],
            )
            assert status == 200, answer

    report = verify_game(game_id)
    assert report.problems == []
    assert report.status == "finished"
    assert report.checked["deals"] == len(table.revealed) == len(table.game.results)
