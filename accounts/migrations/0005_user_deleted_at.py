from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_guests"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="deleted_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the player deleted the account: every personal datum was erased, and the row is kept only as the id their games and standings name.",
                null=True,
                verbose_name="deleted at",
            ),
        ),
    ]
