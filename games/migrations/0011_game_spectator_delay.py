import uuid

from django.db import migrations, models

# games.table.STREAM_PREFIX, as it was when this migration was written.
STREAM_PREFIX = "game:"


def fill_delays(apps, schema_editor):
    """The read model's new column, from each delayed game's first event (the read
    model is rebuildable from the log: this is what a rebuild would write)."""
    Game = apps.get_model("games", "Game")
    StoredEvent = apps.get_model("eventlog", "StoredEvent")
    created = StoredEvent.objects.filter(
        type="GameCreated", stream__startswith=STREAM_PREFIX, payload__spectator_delay__gt=0
    )
    for stream, payload in created.values_list("stream", "payload").iterator():
        game_id = uuid.UUID(stream.removeprefix(STREAM_PREFIX))
        Game.objects.filter(pk=game_id).update(spectator_delay=payload["spectator_delay"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_storedevent_to_eventlog"),
        ("eventlog", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="spectator_delay",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill_delays, migrations.RunPython.noop),
    ]
