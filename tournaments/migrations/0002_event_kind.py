from typing import Any

from django.db import migrations, models


def kinds_from_the_log(apps: Any, schema_editor: Any) -> None:
    """Events created before the column: their kind, as their EventCreated says."""
    event_model = apps.get_model("tournaments", "Event")
    stored_event = apps.get_model("games", "StoredEvent")
    for event in event_model.objects.all():
        created = stored_event.objects.filter(
            stream=f"event:{event.pk}", sequence=1, type="EventCreated"
        ).first()
        kind = (created.payload or {}).get("kind") if created is not None else None
        if kind and kind != event.kind:
            event_model.objects.filter(pk=event.pk).update(kind=kind)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("games", "0005_game_kind"),
    ]
    # It reads the log through the games' StoredEvent, which later leaves them for
    # the eventlog app (decision 1501).
    run_before = [("games", "0010_storedevent_to_eventlog")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="kind",
            field=models.CharField(default="romanian", max_length=16),
        ),
        migrations.RunPython(kinds_from_the_log, migrations.RunPython.noop),
    ]
