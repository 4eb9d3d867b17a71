import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The event log's model, taken over from the games app (its 0010 let it go) with
    its table as it is: nothing is done to the database (decision 1501)."""

    initial = True

    dependencies = [
        ("games", "0010_storedevent_to_eventlog"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="StoredEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("stream", models.CharField(max_length=80)),
                        ("sequence", models.PositiveIntegerField()),
                        ("type", models.CharField(max_length=64)),
                        ("schema_version", models.PositiveSmallIntegerField()),
                        ("payload", models.JSONField()),
                        (
                            "recorded_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "stored event",
                        "verbose_name_plural": "stored events",
                        "db_table": "games_storedevent",
                        "ordering": ["stream", "sequence"],
                        "indexes": [
                            models.Index(fields=["stream", "type"], name="event_stream_type")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("stream", "sequence"), name="event_stream_sequence"
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
