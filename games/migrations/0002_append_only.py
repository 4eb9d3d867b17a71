from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from eventlog import appendonly


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    appendonly.install(schema_editor.connection)


def uninstall(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    appendonly.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_event_log")]

    operations = [migrations.RunPython(install, uninstall)]
