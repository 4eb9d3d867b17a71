import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_game_place"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="TableMessage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game_id", models.UUIDField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("name", models.CharField(max_length=24)),
                ("phrase", models.CharField(blank=True, max_length=20)),
                ("text", models.CharField(blank=True, max_length=200)),
                ("said_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "table message",
                "verbose_name_plural": "table messages",
                "indexes": [models.Index(fields=["game_id", "id"], name="table_message_game")],
            },
        ),
        migrations.CreateModel(
            name="MessageReport",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reported_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "message",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports",
                        to="games.tablemessage",
                    ),
                ),
                (
                    "reporter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "message report",
                "verbose_name_plural": "message reports",
                "ordering": ["-reported_at"],
                "constraints": [
                    models.UniqueConstraint(fields=("message", "reporter"), name="report_once")
                ],
            },
        ),
    ]
