import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_user_deleted_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='GuestAbsorbed',
            fields=[
                ('guest', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, primary_key=True, related_name='absorbed_into', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='when')),
                ('account', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='absorbed_guests', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'guest absorbed',
                'verbose_name_plural': 'guests absorbed',
            },
        ),
    ]
