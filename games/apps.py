from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # Here, not at the top: the tasks import the models, which need the apps loaded.
        from accounts.erasure import on_erasure, on_export
        from accounts.guests import on_absorb
        from eventlog import store

        # The tasks are imported with the receivers: Celery finds them by name.
        from games import receivers
        from games.commands.actions import game_hand_over_seats
        from games.commands.chat import game_hand_over_words, player_erase_words
        from games.errors import VersionConflict
        from games.live import fanout
        from games.read.chat import player_words_export
        from games.read.selectors import player_games_export
        from games.signals import game_recorded
        from games.table import (
            FINISH_EVENTS,
            PERSONAL_FIELDS,
            SCHEMA_VERSION,
            STREAM_PREFIX,
            decode,
            encode,
        )
        from games.write import automatic, erasure
        from runtime.channel_layer import on_resubscribed
        from runtime.lifespan import on_startup

        store.register(
            STREAM_PREFIX,
            store.Codec(
                encode,
                decode,
                VersionConflict,
                version=SCHEMA_VERSION,
                personal=store.personal_fields(PERSONAL_FIELDS),
            ),
        )

        # A deleted account's aliases, and what its data export says of its games.
        on_erasure("games", erasure.player_erase)
        on_export("games", player_games_export)
        # and their words at the tables, kept beside the log.
        on_erasure("table words", player_erase_words)
        on_export("table words", player_words_export)
        # A guest who signs in to their account: their seats at the tables in play.
        on_absorb("games", game_hand_over_seats)
        # and the words they said there, once the seats are handed over.
        on_absorb("table words", game_hand_over_words)

        on_startup(automatic.resume_at_startup)
        on_startup(fanout.watch_over)
        on_resubscribed(fanout.look_again)
        game_recorded.listen(
            receivers.game_recorded, types=FINISH_EVENTS, dispatch_uid="games-demo"
        )
