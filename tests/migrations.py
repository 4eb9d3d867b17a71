"""Migrations run by a test as `manage.py migrate_as_owner` runs them: as the tables'
owner (where the two roles of production are configured), with the application's
grants given again afterwards."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

from games.appendonly import GUARDS
from runtime.database_roles import as_owner, grant_app_role, owner_configured


@contextmanager
def as_the_migrations_run() -> Iterator[None]:
    with as_owner(connection) as app:
        yield
        if owner_configured():
            grant_app_role(connection, app, append_only=GUARDS)
