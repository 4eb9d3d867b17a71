from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0013_event_table_chat'),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_id', models.UUIDField()),
                ('seat', models.PositiveSmallIntegerField()),
                ('player_id', models.BigIntegerField()),
                ('code', models.CharField(max_length=8)),
                ('kind', models.CharField(max_length=10)),
                ('preset', models.CharField(blank=True, max_length=40)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('place', models.PositiveSmallIntegerField()),
                ('points', models.IntegerField()),
                ('deals', models.PositiveSmallIntegerField()),
                ('exact', models.PositiveSmallIntegerField()),
                ('best_run', models.PositiveSmallIntegerField()),
                ('bonuses', models.PositiveSmallIntegerField()),
                ('finished_at', models.DateTimeField()),
                ('shown_at', models.DateTimeField()),
            ],
            options={
                'verbose_name': "player's game",
                'verbose_name_plural': "players' games",
                'ordering': ['-finished_at', 'game_id', 'seat'],
                'indexes': [models.Index(fields=['player_id', '-finished_at'], name='player_game_recent'), models.Index(fields=['game_id', 'player_id'], name='player_game_by_game')],
                'constraints': [models.UniqueConstraint(fields=('game_id', 'seat'), name='one_player_game_per_seat')],
            },
        ),
        migrations.AddIndex(
            model_name='standing',
            index=models.Index(fields=['player_id'], name='standing_by_player'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player_id', 'season_id', 'order'], name='rating_change_by_player'),
        ),
    ]
