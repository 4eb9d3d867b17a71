from typing import Any

from django.core.management.base import BaseCommand

from accounts.services import user_ensure_bot_players, user_ensure_demo_organizer
from games.services import game_open_demo_table


class Command(BaseCommand):
    help = "Open a table of four bots playing live, unless the demo already has one."

    def handle(self, *args: Any, **options: Any) -> None:
        organizer, _ = user_ensure_demo_organizer()
        game, created = game_open_demo_table(organizer=organizer, players=user_ensure_bot_players())
        state = "opened" if created else "still playing"
        self.stdout.write(
            f"Demo table {game.code} {state}: four bots play it live; "
            f"watch it at http://127.0.0.1:8000/games/{game.code}/"
        )
