from django.apps import AppConfig


class EventlogConfig(AppConfig):
    name = "eventlog"

    def ready(self) -> None:
        from eventlog import loopdb
        from runtime.lifespan import on_startup

        # A server process's loop writes live moves through its own connections.
        on_startup(loopdb.serve)
