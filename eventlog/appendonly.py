"""The database's own guard on a table that is only ever appended to: UPDATE, DELETE
and TRUNCATE are refused by triggers, on PostgreSQL and on SQLite alike. The event
log is guarded so (:data:`EVENT_LOG`); an app guards a table of its own with a
:class:`Guard` of its own (the games, their deal-secret vault). In production the
application's role has no such privileges on them anyway
(``runtime/database_roles.py``); the triggers stop the tables' owner too, short of
dropping them.

``suspend`` exists only so that a test database can be wiped between tests; the
application never calls it (and it takes the tables' owner, who can drop them anyway).
"""

from dataclasses import dataclass

from django.db.backends.base.base import BaseDatabaseWrapper

EVENT_TABLE = "games_storedevent"


@dataclass(frozen=True)
class Guard:
    table: str
    # Names its triggers (and, on PostgreSQL, its function) and says what is guarded.
    prefix: str
    function: str
    what: str


EVENT_LOG = Guard(EVENT_TABLE, "event_log", "atu_refuse_event_change", "the event log")


def _postgres(guard: Guard) -> list[str]:
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
        CREATE TRIGGER {guard.prefix}_append_only BEFORE UPDATE OR DELETE ON {guard.table}
        FOR EACH ROW EXECUTE FUNCTION {guard.function}()
        """,
        f"""
        CREATE TRIGGER {guard.prefix}_no_truncate BEFORE TRUNCATE ON {guard.table}
        FOR EACH STATEMENT EXECUTE FUNCTION {guard.function}()
        """,
    ]


# SQLite has no TRUNCATE: "DELETE FROM" without WHERE fires the delete trigger
# (its truncate shortcut is off for tables with triggers).
def _sqlite(guard: Guard) -> list[str]:
    return [
        f"""
        CREATE TRIGGER IF NOT EXISTS {guard.prefix}_no_{verb.lower()} BEFORE {verb} ON {guard.table}
        BEGIN SELECT RAISE(ABORT, '{guard.what} is append-only: {verb} refused'); END
        """
        for verb in ("UPDATE", "DELETE")
    ]


def _execute(connection: BaseDatabaseWrapper, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(connection: BaseDatabaseWrapper, guard: Guard = EVENT_LOG) -> None:
    if connection.vendor == "postgresql":
        _execute(connection, _postgres(guard))
    elif connection.vendor == "sqlite":
        _execute(connection, _sqlite(guard))
    else:
        raise NotImplementedError(f"no append-only guard for {connection.vendor}")


def uninstall(connection: BaseDatabaseWrapper, guard: Guard = EVENT_LOG) -> None:
    if connection.vendor == "postgresql":
        _execute(
            connection,
            [
                f"DROP TRIGGER IF EXISTS {guard.prefix}_append_only ON {guard.table}",
                f"DROP TRIGGER IF EXISTS {guard.prefix}_no_truncate ON {guard.table}",
                f"DROP FUNCTION IF EXISTS {guard.function}()",
            ],
        )
    else:
        _execute(
            connection,
            [f"DROP TRIGGER IF EXISTS {guard.prefix}_no_{v}" for v in ("update", "delete")],
        )
