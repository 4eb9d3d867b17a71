from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_table_result_played'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='round_time_called',
            field=models.BooleanField(default=False),
        ),
    ]
