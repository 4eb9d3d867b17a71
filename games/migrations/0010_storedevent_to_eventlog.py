from django.db import migrations


class Migration(migrations.Migration):
    """The event log's model moves to the eventlog app (its 0001 takes it up); its
    table, with its triggers and grants, stays as it is (decision 1501)."""

    dependencies = [
        ("games", "0009_game_status_cancelled"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="StoredEvent")],
        ),
    ]
