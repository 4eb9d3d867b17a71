"""The log's actor is no longer checked by the database at each append (decision 3704).

PostgreSQL loses the foreign key's constraint; nothing else of the table changes, so the
append-only guard stays as it is. SQLite keeps its constraint: changing one there means
rebuilding the table (and its guard), and the check costs an embedded site nothing that
matters.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "games_storedevent"


def _actor_constraints(schema_editor):
    with schema_editor.connection.cursor() as cursor:
        constraints = schema_editor.connection.introspection.get_constraints(cursor, TABLE)
    return [
        name
        for name, constraint in constraints.items()
        if constraint["foreign_key"] and constraint["columns"] == ["actor_id"]
    ]


def drop_check(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in _actor_constraints(schema_editor):
        schema_editor.execute(f'ALTER TABLE {TABLE} DROP CONSTRAINT "{name}"')


def restore_check(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql" or _actor_constraints(schema_editor):
        return
    schema_editor.execute(
        f"ALTER TABLE {TABLE} ADD CONSTRAINT {TABLE}_actor_id_fk FOREIGN KEY (actor_id) "
        "REFERENCES accounts_user (id) DEFERRABLE INITIALLY DEFERRED"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("eventlog", "0003_personal_data_out_of_the_log"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="storedevent",
                    name="actor",
                    field=models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(drop_check, restore_check)],
        ),
    ]
