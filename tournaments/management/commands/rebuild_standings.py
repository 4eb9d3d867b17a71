from typing import Any

from django.core.management.base import BaseCommand

from tournaments.projections.rebuild import rebuild_standings


class Command(BaseCommand):
    help = "Drop the championships' read models and rebuild them from the event log."

    def handle(self, *args: Any, **options: Any) -> None:
        events, seasons = rebuild_standings()
        self.stdout.write(f"Rebuilt {events} event(s) and {seasons} season(s) from the log.")
