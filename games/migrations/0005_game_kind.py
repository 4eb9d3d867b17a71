from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_event_stream_type_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="romanian", max_length=10),
        ),
    ]
