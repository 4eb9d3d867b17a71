"""The database's own guard on the event log: UPDATE, DELETE and TRUNCATE are refused
by triggers, on PostgreSQL and on SQLite alike.

``suspend`` exists only so that a test database can be wiped between tests; the
application never calls it (and an attacker who can run it can drop tables anyway).
"""

from django.db.backends.base.base import BaseDatabaseWrapper

EVENT_TABLE = "games_storedevent"

_POSTGRES = [
    """
    CREATE OR REPLACE FUNCTION atu_refuse_event_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the event log is append-only: % refused', TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$
    """,
    f"""
    CREATE TRIGGER event_log_append_only BEFORE UPDATE OR DELETE ON {EVENT_TABLE}
    FOR EACH ROW EXECUTE FUNCTION atu_refuse_event_change()
    """,
    f"""
    CREATE TRIGGER event_log_no_truncate BEFORE TRUNCATE ON {EVENT_TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION atu_refuse_event_change()
    """,
]

# SQLite has no TRUNCATE: "DELETE FROM" without WHERE fires the delete trigger
# (its truncate shortcut is off for tables with triggers).
_SQLITE = [
    f"""
    CREATE TRIGGER IF NOT EXISTS event_log_no_{verb.lower()} BEFORE {verb} ON {EVENT_TABLE}
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: {verb} refused'); END
    """
    for verb in ("UPDATE", "DELETE")
]


def _execute(connection: BaseDatabaseWrapper, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(connection: BaseDatabaseWrapper) -> None:
    if connection.vendor == "postgresql":
        _execute(connection, _POSTGRES)
    elif connection.vendor == "sqlite":
        _execute(connection, _SQLITE)
    else:
        raise NotImplementedError(f"no append-only guard for {connection.vendor}")


def uninstall(connection: BaseDatabaseWrapper) -> None:
    if connection.vendor == "postgresql":
        _execute(
            connection,
            [
                f"DROP TRIGGER IF EXISTS event_log_append_only ON {EVENT_TABLE}",
                f"DROP TRIGGER IF EXISTS event_log_no_truncate ON {EVENT_TABLE}",
                "DROP FUNCTION IF EXISTS atu_refuse_event_change()",
            ],
        )
    else:
        _execute(
            connection, [f"DROP TRIGGER IF EXISTS event_log_no_{v}" for v in ("update", "delete")]
        )


def suspend(connection: BaseDatabaseWrapper) -> None:
    """Let a test database be wiped; :func:`resume` puts the guard back."""
    if connection.vendor == "postgresql":
        _execute(connection, [f"ALTER TABLE {EVENT_TABLE} DISABLE TRIGGER USER"])
    else:
        uninstall(connection)


def resume(connection: BaseDatabaseWrapper) -> None:
    if connection.vendor == "postgresql":
        _execute(connection, [f"ALTER TABLE {EVENT_TABLE} ENABLE TRIGGER USER"])
    else:
        install(connection)
