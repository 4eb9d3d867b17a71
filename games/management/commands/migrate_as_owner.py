from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

from games.appendonly import GUARDS
from runtime.database_roles import as_owner, grant_app_role, owner_configured


class Command(BaseCommand):
    help = (
        "Migrate the database as the role that owns its tables (DATABASE_OWNER_URL), "
        "then grant the application's role (DATABASE_URL's) what it may do: read and "
        "write the ordinary tables, only read and append to the event log and the "
        "deal-secret vault. Without DATABASE_OWNER_URL the one role owns the tables: "
        "a plain migrate."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with as_owner(connection) as app:
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
            if owner_configured():
                tables = grant_app_role(connection, app, append_only=GUARDS)
                self.stdout.write(f"Granted {app} its privileges on {len(tables)} tables.")
