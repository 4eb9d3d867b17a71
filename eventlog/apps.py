from django.apps import AppConfig


class EventlogConfig(AppConfig):
    name = "eventlog"

    def ready(self) -> None:
        from config.lifespan import on_startup
        from eventlog import loopdb

        # A server process's loop writes live moves through its own connections.
        on_startup(loopdb.serve)
