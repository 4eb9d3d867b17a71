"""Least privilege in the database: the application connects as a role that owns
nothing (``DATABASE_URL``), the tables belong to another (``DATABASE_OWNER_URL``),
which only migrations and their grants connect as.

The application's role may read and write the ordinary tables, but only read and
append to the event log and the deal-secret vault: no UPDATE, DELETE or TRUNCATE
there, and, owning no table, no ALTER (so no disabling of their triggers) or DROP.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

ORDINARY = "SELECT, INSERT, UPDATE, DELETE"
APPEND_ONLY = "SELECT, INSERT"


def owner_configured() -> bool:
    return settings.ENV.database_owner is not None


def app_role(connection: BaseDatabaseWrapper) -> str:
    """The role the application connects as (``DATABASE_URL``'s)."""
    role: str = connection.settings_dict["USER"]
    return role


def switch_role(connection: BaseDatabaseWrapper, credentials: Mapping[str, Any]) -> dict[str, Any]:
    """Close ``connection``; it connects with ``credentials``' USER and PASSWORD from
    now on. Returns the ones it had."""
    kept = {key: connection.settings_dict[key] for key in ("USER", "PASSWORD")}
    connection.close()
    # A pool keeps connecting as the role it was made with: made again on next use.
    # (Asking for ``connection.pool`` would make one to close.) Only some backends
    # pool, and ``connection`` may be Django's proxy of one: asked, not type-tested.
    close_pool = getattr(connection, "close_pool", None)
    if close_pool is not None and connection.alias in getattr(connection, "_connection_pools", {}):
        close_pool()
    connection.settings_dict.update(USER=credentials["USER"], PASSWORD=credentials["PASSWORD"])
    return kept


@contextmanager
def as_owner(connection: BaseDatabaseWrapper) -> Iterator[str]:
    """``connection`` connects as the tables' owner inside the block (when one is
    configured; otherwise it stays as it is); yields the application's role.

    Only outside a transaction: the connection is closed on the way in and out."""
    app = app_role(connection)
    owner = settings.ENV.database_owner
    if owner is None:
        yield app
        return
    kept = switch_role(connection, owner)
    try:
        yield app
    finally:
        switch_role(connection, kept)


def grant_app_role(
    connection: BaseDatabaseWrapper, role: str, *, append_only: Collection[str]
) -> list[str]:
    """Give ``role`` exactly what the application may do on every table and sequence
    of the schema, as their owner (run after each migration), only reading and
    appending to the tables ``append_only`` names; the tables granted."""
    quote = connection.ops.quote_name
    tables = sorted(connection.introspection.table_names(include_views=False))
    with connection.cursor() as cursor:
        for table in tables:
            allowed = APPEND_ONLY if table in append_only else ORDINARY
            # Revoked first, so that a grant of an earlier version (or by hand) goes.
            cursor.execute(f"REVOKE ALL ON {quote(table)} FROM {quote(role)}")
            cursor.execute(f"GRANT {allowed} ON {quote(table)} TO {quote(role)}")
        # Inserting into a table takes the next value of its identity sequence.
        cursor.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {quote(role)}")
    return tables
