from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from config.database_roles import as_owner, grant_app_role, owner_configured


class Command(BaseCommand):
    help = (
        "Migrate the database as the role that owns its tables (DATABASE_OWNER_URL), "
        "then grant the application's role (DATABASE_URL's) what it may do: read and "
        "write the ordinary tables, only read and append to the event log and the "
        "deal-secret vault."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not owner_configured():
            raise CommandError(
                "DATABASE_OWNER_URL is not set: run `manage.py migrate` as the one role, "
                "or set it to the tables' owner."
            )
        with as_owner(connection) as app:
            call_command("migrate", interactive=False, verbosity=options["verbosity"])
            tables = grant_app_role(connection, app)
        self.stdout.write(f"Granted {app} its privileges on {len(tables)} tables.")
