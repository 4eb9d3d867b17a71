from typing import Any

from django.core.management.base import BaseCommand

from tournaments.projections.players import rebuild_player_games


class Command(BaseCommand):
    help = "Drop the players' games read model and rebuild it from the event log."

    def handle(self, *args: Any, **options: Any) -> None:
        games, rows = rebuild_player_games()
        self.stdout.write(f"Read {games} game(s) from the log; wrote {rows} player row(s).")
