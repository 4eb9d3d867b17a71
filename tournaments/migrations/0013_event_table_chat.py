from django.db import migrations, models


class Migration(migrations.Migration):
    """An event's word on what its players may say at their tables; every event recorded
    before the choice says nothing there ("off", EventCreated's default), as a rebuild
    of the read model would write."""

    dependencies = [
        ("tournaments", "0012_event_round_time_called"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="table_chat",
            field=models.CharField(default="off", max_length=8),
        ),
    ]
