"""The test database's owner and its wipes: a connection as the tables' owner, and the
append-only guards suspended while Django empties the tables between tests."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from eventlog.appendonly import Guard, install, uninstall


@contextmanager
def owner_connection(alias: str = DEFAULT_DB_ALIAS) -> Iterator[BaseDatabaseWrapper]:
    """A connection of its own (in autocommit) to ``alias``'s database as the tables'
    owner: for a test database's wipe, and the tests of what the owner may do."""
    owner = settings.ENV.database_owner
    if owner is None:
        raise ImproperlyConfigured("DATABASE_OWNER_URL is not set.")
    app = connections[alias]
    # Not from the alias's pool: it is shared by every wrapper of the alias, and its
    # connections are the application's role's.
    options = {key: value for key, value in app.settings_dict["OPTIONS"].items() if key != "pool"}
    wrapper = type(app)(
        {
            **app.settings_dict,
            "USER": owner["USER"],
            "PASSWORD": owner["PASSWORD"],
            "OPTIONS": options,
        },
        alias,
    )
    try:
        yield wrapper
    finally:
        wrapper.close()


def suspend_guards(connection: BaseDatabaseWrapper, guards: Iterable[Guard]) -> None:
    """Let a test database be wiped; :func:`resume_guards` puts the guards back."""
    for guard in guards:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {guard.table} DISABLE TRIGGER USER")
        else:
            uninstall(connection, guard)


def resume_guards(connection: BaseDatabaseWrapper, guards: Iterable[Guard]) -> None:
    for guard in guards:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {guard.table} ENABLE TRIGGER USER")
        else:
            install(connection, guard)
