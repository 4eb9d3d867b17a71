from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # Here, not at the top: these import the models, which need the apps loaded.
        from accounts.erasure import on_erasure, on_export
        from accounts.guests import on_absorb
        from eventlog import store
        from games.errors import VersionConflict
        from games.read.selectors import add_player_events, add_table_home
        from games.signals import game_recorded
        from games.table import FINISH_EVENTS
        from games.visibility import Audience, add_audience
        from runtime.channel_layer import on_resubscribed
        from runtime.lifespan import on_startup
        from tournaments import championship, clock, receivers, services, watchdog
        from tournaments.projections.players import absorb_guest
        from tournaments.projections.standings import SCORE_EVENTS
        from tournaments.selectors import (
            directs_table,
            event_of_game,
            hidden_tables,
            may_view_table,
            player_championships,
            player_events,
            table_home,
        )
        from tournaments.signals import championship_recorded

        codec = store.Codec(
            championship.encode,
            championship.decode,
            VersionConflict,
            version=championship.SCHEMA_VERSION,
            personal=store.personal_fields(championship.PERSONAL_FIELDS),
        )
        for prefix in (championship.CHAMPIONSHIP_STREAM_PREFIX, championship.SEASON_STREAM_PREFIX):
            store.register(prefix, codec)
        # A deleted account's names in the championships, and its data export's part.
        on_erasure("championships", services.player_erase)
        on_export("championships", player_championships)
        # A guest who signs in to their account: their finished games' rows, the account's.
        on_absorb("championships", absorb_guest)
        # and their entries in events whose rounds have not begun.
        on_absorb("entries", services.event_hand_over_entries)
        # The receiver asks which event a game is in, once per game and process.
        game_recorded.listen(
            receivers.game_recorded,
            types=SCORE_EVENTS,
            dispatch_uid="tournaments-standings",
            prepare=event_of_game,
        )
        # Every game's finish, in an event or not, writes its players' rows.
        game_recorded.listen(
            receivers.game_finished, types=FINISH_EVENTS, dispatch_uid="tournaments-players"
        )
        championship_recorded.connect(
            receivers.championship_recorded, dispatch_uid="tournaments-standings"
        )
        # An event's sockets catch up with no broadcast heard (Redis down).
        on_startup(watchdog.watch_over)
        # Embedded, scheduled events begin on this process's clock (beat's otherwise).
        on_startup(clock.keep_time)
        on_resubscribed(watchdog.look_again)
        # A private event's tables are for who directs it and its entrants only; who
        # directs an event sees its tables live, despite its spectator delay, and has
        # their creator's rights.
        add_audience(Audience(hidden=hidden_tables, allows=may_view_table, directs=directs_table))
        # A game of an event's table links back to it, and offers no rematch.
        add_table_home(table_home)
        # A player's My games page lists the events they entered.
        add_player_events(player_events)
