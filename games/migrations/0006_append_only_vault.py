from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from eventlog import appendonly
from games.appendonly import VAULT


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    appendonly.install(schema_editor.connection, VAULT)


def uninstall(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    appendonly.uninstall(schema_editor.connection, VAULT)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_kind")]

    operations = [migrations.RunPython(install, uninstall)]
