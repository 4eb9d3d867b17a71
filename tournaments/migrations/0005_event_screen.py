from typing import Any

from django.db import migrations, models


def round_starts_from_the_log(apps: Any, schema_editor: Any) -> None:
    """Events whose rounds started before the column: when their latest RoundStarted
    was recorded."""
    event_model = apps.get_model("tournaments", "Event")
    stored_event = apps.get_model("eventlog", "StoredEvent")
    for event in event_model.objects.filter(rounds_started__gt=0):
        started = (
            stored_event.objects.filter(stream=f"event:{event.pk}", type="RoundStarted")
            .order_by("-sequence")
            .values_list("recorded_at", flat=True)
            .first()
        )
        if started is not None:
            event_model.objects.filter(pk=event.pk).update(round_started_at=started)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_event_place_entry_in_room"),
        ("eventlog", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="announcements",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="event",
            name="round_started_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(round_starts_from_the_log, migrations.RunPython.noop),
    ]
