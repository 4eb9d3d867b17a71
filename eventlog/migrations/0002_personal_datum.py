from django.db import migrations, models


class Migration(migrations.Migration):
    """The table of the personal data events name, kept beside the log (decision 3503)."""

    dependencies = [
        ("eventlog", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="PersonalDatum",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("stream", models.CharField(max_length=80)),
                ("sequence", models.PositiveIntegerField()),
                ("field", models.CharField(max_length=32)),
                ("subject_id", models.BigIntegerField(null=True)),
                ("value", models.TextField()),
            ],
            options={
                "verbose_name": "personal datum",
                "verbose_name_plural": "personal data",
                "indexes": [
                    models.Index(fields=["subject_id", "stream"], name="personal_datum_subject")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("stream", "sequence", "field"), name="personal_datum_event_field"
                    )
                ],
            },
        ),
    ]
