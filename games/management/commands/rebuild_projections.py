from typing import Any

from django.core.management.base import BaseCommand

from games.write.projection import rebuild_game_projections


class Command(BaseCommand):
    help = "Drop every game read model and rebuild it from the event log."

    def handle(self, *args: Any, **options: Any) -> None:
        count = rebuild_game_projections()
        self.stdout.write(f"rebuilt {count} game(s) from the event log")
