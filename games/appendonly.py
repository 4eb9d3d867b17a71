"""The database's own guard on what is only ever appended: the event log and the
deal-secret vault. UPDATE, DELETE and TRUNCATE are refused by triggers, on
PostgreSQL and on SQLite alike. In production the application's role has no such
privileges on them anyway (``config/database_roles.py``); the triggers stop the
tables' owner too, short of dropping them.

``suspend`` exists only so that a test database can be wiped between tests; the
application never calls it (and it takes the tables' owner, who can drop them anyway).
"""

from dataclasses import dataclass

from django.db.backends.base.base import BaseDatabaseWrapper

EVENT_TABLE = "games_storedevent"
VAULT_TABLE = "games_dealsecret"


@dataclass(frozen=True)
class _Guard:
    # Names its triggers (and, on PostgreSQL, its function) and says what is guarded.
    prefix: str
    function: str
    what: str


GUARDS = {
    EVENT_TABLE: _Guard("event_log", "atu_refuse_event_change", "the event log"),
    VAULT_TABLE: _Guard("deal_vault", "atu_refuse_vault_change", "the deal-secret vault"),
}


def _postgres(table: str) -> list[str]:
    guard = GUARDS[table]
    return [
        f"""
        CREATE OR REPLACE FUNCTION {guard.function}() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{guard.what} is append-only: % refused', TG_OP
                USING ERRCODE = 'restrict_violation';
        END;
        $$
        """,
        f"""
        CREATE TRIGGER {guard.prefix}_append_only BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION {guard.function}()
        """,
        f"""
        CREATE TRIGGER {guard.prefix}_no_truncate BEFORE TRUNCATE ON {table}
        FOR EACH STATEMENT EXECUTE FUNCTION {guard.function}()
        """,
    ]


# SQLite has no TRUNCATE: "DELETE FROM" without WHERE fires the delete trigger
# (its truncate shortcut is off for tables with triggers).
def _sqlite(table: str) -> list[str]:
    guard = GUARDS[table]
    return [
        f"""
        CREATE TRIGGER IF NOT EXISTS {guard.prefix}_no_{verb.lower()} BEFORE {verb} ON {table}
        BEGIN SELECT RAISE(ABORT, '{guard.what} is append-only: {verb} refused'); END
        """
        for verb in ("UPDATE", "DELETE")
    ]


def _execute(connection: BaseDatabaseWrapper, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(connection: BaseDatabaseWrapper, table: str = EVENT_TABLE) -> None:
    if connection.vendor == "postgresql":
        _execute(connection, _postgres(table))
    elif connection.vendor == "sqlite":
        _execute(connection, _sqlite(table))
    else:
        raise NotImplementedError(f"no append-only guard for {connection.vendor}")


def uninstall(connection: BaseDatabaseWrapper, table: str = EVENT_TABLE) -> None:
    guard = GUARDS[table]
    if connection.vendor == "postgresql":
        _execute(
            connection,
            [
                f"DROP TRIGGER IF EXISTS {guard.prefix}_append_only ON {table}",
                f"DROP TRIGGER IF EXISTS {guard.prefix}_no_truncate ON {table}",
                f"DROP FUNCTION IF EXISTS {guard.function}()",
            ],
        )
    else:
        _execute(
            connection,
            [f"DROP TRIGGER IF EXISTS {guard.prefix}_no_{v}" for v in ("update", "delete")],
        )


def suspend(connection: BaseDatabaseWrapper) -> None:
    """Let a test database be wiped; :func:`resume` puts the guards back."""
    for table in GUARDS:
        if connection.vendor == "postgresql":
            _execute(connection, [f"ALTER TABLE {table} DISABLE TRIGGER USER"])
        else:
            uninstall(connection, table)


def resume(connection: BaseDatabaseWrapper) -> None:
    for table in GUARDS:
        if connection.vendor == "postgresql":
            _execute(connection, [f"ALTER TABLE {table} ENABLE TRIGGER USER"])
        else:
            install(connection, table)
